//! No count is ever lost or wrapped: every bucket, outside count, merge, fold and read
//! saturates, and what does not fit a bucket is counted as saturated.
//!
//! Ceilings: a bucket written by one writer at a time (plain, single-writer, thread-local)
//! holds up to the counter's maximum; an interlocked or approximate bucket up to
//! `AtomicCounter::INTERLOCKED_MAX` (the maximum minus the most increments that can be in
//! flight at once). Underflow, overflow and saturated counts stop at `u64::MAX`.
#![cfg(not(loom))]

mod common;

use common::SplitMix64;
use picollo::concurrent::{
    ApproxCounter, AtomicCounter, AtomicHistogram, ConcurrentHistogram, LocalHistogram, Mode,
    SharedHistogram, Source, XorShift64,
};
use picollo::{Config, Histogram, View};

fn config() -> Config {
    Config::new()
        .with_relative_error(0.01)
        .with_range(1, 1_000_000)
}

/// Storage offset of an in-range value.
fn offset(v: u64) -> usize {
    let l = config().layout();
    l.index(v) - l.index(1)
}

const IN: [u64; 3] = [5, 1_000, 777_777];
const UNDER_V: u64 = 0;
const OVER_V: u64 = 50_000_000;

/// The ceiling of an interlocked bucket, written out: the counter's maximum minus 2^22.
fn interlocked_max<C: AtomicCounter>() -> u64 {
    C::MAX.to_u64() - (1 << 22)
}

/// (bucket of `v`, underflow, overflow, saturated, total) of a consistent copy.
fn state<C: AtomicCounter>(h: &impl Source<C>, v: u64) -> (u64, u64, u64, u64, u64) {
    h.with_copy(|view| {
        (
            view.counts()[offset(v)].to_u64(),
            view.underflow_count(),
            view.overflow_count(),
            view.saturated_count(),
            view.total_count(),
        )
    })
}

use picollo::Counter;

#[test]
fn the_ceilings_are_documented_values() {
    assert_eq!(u32::INTERLOCKED_MAX, 4_290_772_991);
    assert_eq!(u64::INTERLOCKED_MAX, 18_446_744_073_705_357_311);
    assert_eq!(u32::INTERLOCKED_MAX.to_u64(), interlocked_max::<u32>());
    assert_eq!(u64::INTERLOCKED_MAX.to_u64(), interlocked_max::<u64>());
}

#[test]
fn a_plain_bucket_saturates_at_max_on_record() {
    fn check<C: Counter>() {
        let mut h = Histogram::<C, Vec<C>>::new(config()).unwrap();
        h.record_n(1_000, C::MAX.to_u64());
        h.record(1_000);
        h.record(1_000);
        assert_eq!(h.counts()[offset(1_000)], C::MAX);
        assert_eq!(h.saturated_count(), 2);
    }
    check::<u32>();
    check::<u64>();
}

#[test]
fn a_full_bucket_does_not_wrap_on_record_in_any_mode() {
    fn check<C: AtomicCounter>(mode: Mode, ceiling: u64) {
        let h = ConcurrentHistogram::<C>::new(config(), mode).unwrap();
        h.record_n(1_000, C::MAX.to_u64());
        h.record(1_000);
        let (bucket, _, _, sat, total) = state(&h, 1_000);
        assert_eq!(bucket, ceiling, "{mode:?}");
        assert_eq!(sat, C::MAX.to_u64() - ceiling + 1, "{mode:?}");
        assert_eq!(total, ceiling, "{mode:?}");
    }
    for (mode, one_writer) in [
        (Mode::SingleWriter, true),
        (Mode::Interlocked, false),
        (Mode::ThreadLocal, true),
    ] {
        check::<u32>(
            mode,
            if one_writer {
                u32::MAX as u64
            } else {
                interlocked_max::<u32>()
            },
        );
        check::<u64>(
            mode,
            if one_writer {
                u64::MAX
            } else {
                interlocked_max::<u64>()
            },
        );
    }
}

#[test]
fn two_thread_local_shards_over_a_u32_bucket_saturate_the_sum() {
    let h = LocalHistogram::<u32>::new(config()).unwrap();
    let barrier = std::sync::Barrier::new(2);
    std::thread::scope(|s| {
        for _ in 0..2 {
            let (h, barrier) = (&h, &barrier);
            // Both threads stay alive until both recorded: two live shards.
            s.spawn(move || {
                h.record_n(1_000, 3_000_000_000);
                barrier.wait();
                let (bucket, _, _, sat, _) = state(h, 1_000);
                assert_eq!(bucket, u32::MAX as u64);
                assert_eq!(sat, 6_000_000_000 - u32::MAX as u64);
            });
        }
    });
    // After the threads exit (their shards handed on or folded) nothing changed.
    let (bucket, _, _, sat, _) = state(&h, 1_000);
    assert_eq!(bucket, u32::MAX as u64);
    assert_eq!(sat, 6_000_000_000 - u32::MAX as u64);
}

#[test]
fn outside_counts_saturate_at_u64_max_in_every_mode() {
    fn check<C: AtomicCounter>(mode: Mode) {
        let h = ConcurrentHistogram::<C>::new(config(), mode).unwrap();
        h.record_n(UNDER_V, u64::MAX - 1);
        h.record(UNDER_V);
        h.record(UNDER_V);
        h.record_n(OVER_V, u64::MAX);
        h.record_n(OVER_V, 3);
        h.record_n(1_000, u64::MAX);
        h.record_n(1_000, u64::MAX);
        let (_, under, over, sat, _) = state(&h, 1_000);
        assert_eq!(
            (under, over, sat),
            (u64::MAX, u64::MAX, u64::MAX),
            "{mode:?}"
        );
        // Merging more in keeps them at the maximum.
        let mut other = Histogram::<u64, Vec<u64>>::new(config()).unwrap();
        other.record_n(UNDER_V, 7);
        other.record_n(OVER_V, 7);
        other.record_n(1_000, u64::MAX);
        other.record_n(1_000, 7);
        h.add(&other.view()).unwrap();
        let (_, under, over, sat, _) = state(&h, 1_000);
        assert_eq!(
            (under, over, sat),
            (u64::MAX, u64::MAX, u64::MAX),
            "{mode:?}"
        );
    }
    for &mode in all_modes() {
        check::<u32>(mode);
        check::<u64>(mode);
    }
}

#[test]
fn merging_outside_counts_saturates() {
    let mut other = Histogram::<u64, Vec<u64>>::new(config()).unwrap();
    other.record_n(OVER_V, u64::MAX - 10);
    for &mode in all_modes() {
        let h = ConcurrentHistogram::<u32>::new(config(), mode).unwrap();
        h.add(&other.view()).unwrap();
        h.add(&other.view()).unwrap();
        assert_eq!(state(&h, 1_000).2, u64::MAX, "{mode:?}");
    }
    let mut plain = Histogram::<u32, Vec<u32>>::new(config()).unwrap();
    plain.add(&other.view()).unwrap();
    plain.add(&other.view()).unwrap();
    assert_eq!(plain.overflow_count(), u64::MAX);
}

#[test]
fn the_approximate_counter_add_saturates() {
    let c = ApproxCounter::new();
    c.add(u64::MAX);
    c.add(5);
    assert_eq!(c.get(), interlocked_max::<u64>());
    let mut rng = XorShift64::new(1);
    for _ in 0..1_000 {
        c.increment_with(&mut rng);
    }
    assert_eq!(c.get(), interlocked_max::<u64>());
    assert_eq!(c.reset(), interlocked_max::<u64>());
    c.add(5);
    assert_eq!(c.get(), 5);
}

#[test]
fn approximate_records_stop_at_the_ceiling() {
    fn check<C: AtomicCounter>() {
        let h =
            ConcurrentHistogram::<C>::new(config(), Mode::Approximate(Default::default())).unwrap();
        let ceiling = interlocked_max::<C>();
        h.record_n(1_000, ceiling - 3);
        let mut rng = XorShift64::new(7);
        for _ in 0..100_000 {
            h.record_with(1_000, &mut rng);
        }
        let (bucket, _, _, sat, _) = state(&h, 1_000);
        assert_eq!(bucket, ceiling);
        assert!(sat > 0);
    }
    check::<u32>();
    check::<u64>();
}

fn all_modes() -> &'static [Mode] {
    Mode::ALL
}

// ---------------------------------------------------------------------------------------
// The property test: random sequences of record / record_n / add / reset driven across
// the limits, checked after every step against a model that never wraps (u128 sums).

/// What every histogram under test can do, behind one interface.
trait Target<C> {
    fn record(&mut self, v: u64, rng: &mut XorShift64);
    fn record_n(&mut self, v: u64, n: u64);
    fn add(&mut self, other: &View<'_, u64>);
    fn reset(&mut self);
    /// (counts, [underflow, overflow, saturated], total_count) of a consistent copy.
    fn read(&self) -> (Vec<u64>, [u64; 3], u64);
}

/// The `Target` methods that both histogram types have under the same names.
macro_rules! same_named_target_methods {
    ($ty:ident) => {
        fn record_n(&mut self, v: u64, n: u64) {
            $ty::record_n(self, v, n)
        }
        fn add(&mut self, other: &View<'_, u64>) {
            $ty::add(self, other).unwrap()
        }
        fn reset(&mut self) {
            $ty::reset(self)
        }
    };
}

/// `Target::read` of a view.
fn read_view<C: AtomicCounter>(v: &View<'_, C>) -> (Vec<u64>, [u64; 3], u64) {
    let counts = v.counts().iter().map(|c| c.to_u64()).collect();
    (counts, v.outside(), v.total_count())
}

impl<C: AtomicCounter> Target<C> for Histogram<C, Vec<C>> {
    fn record(&mut self, v: u64, _: &mut XorShift64) {
        Histogram::record(self, v)
    }
    same_named_target_methods!(Histogram);
    fn read(&self) -> (Vec<u64>, [u64; 3], u64) {
        read_view(&self.view())
    }
}

impl<C: AtomicCounter> Target<C> for ConcurrentHistogram<C> {
    fn record(&mut self, v: u64, rng: &mut XorShift64) {
        self.record_with(v, rng)
    }
    same_named_target_methods!(ConcurrentHistogram);
    fn read(&self) -> (Vec<u64>, [u64; 3], u64) {
        self.with_copy(|v| read_view(&v))
    }
}

/// The model: what was recorded since the last reset, in integers that cannot overflow.
struct Model {
    ceiling: u64,
    buckets: Vec<u128>,
    /// underflow, overflow, saturated counts merged in from other histograms
    outside: [u128; 3],
    /// An approximate record happened since the reset: bucket counts are estimates.
    approximate: bool,
}

impl Model {
    fn check(&self, got: &(Vec<u64>, [u64; 3], u64), what: &str) {
        let (counts, outside, total) = got;
        let mut excess: u128 = self.outside[2];
        let mut sum: u128 = 0;
        for (i, (&c, &m)) in counts.iter().zip(&self.buckets).enumerate() {
            assert!(
                c <= self.ceiling,
                "{what}: bucket {i} = {c} above the ceiling"
            );
            if !self.approximate {
                let expect = m.min(self.ceiling as u128);
                assert_eq!(c as u128, expect, "{what}: bucket {i}");
                excess += m - expect;
            }
            sum += c as u128;
        }
        let sat = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
        assert_eq!(*total, sat(sum), "{what}: total");
        assert_eq!(outside[0], sat(self.outside[0]), "{what}: underflow");
        assert_eq!(outside[1], sat(self.outside[1]), "{what}: overflow");
        if !self.approximate {
            assert_eq!(outside[2], sat(excess), "{what}: saturated");
        } else {
            assert!(outside[2] as u128 >= self.outside[2].min(u64::MAX as u128));
        }
    }
}

/// A count near one of the limits, or a small one.
fn pick_n(rng: &mut SplitMix64, ceiling: u64, counter_max: u64, room: u64) -> u64 {
    let choices = [
        1,
        2,
        1 + rng.below(1_000),
        room.saturating_sub(rng.below(4)),
        room.saturating_add(rng.below(4)),
        ceiling / 3,
        ceiling - rng.below(8),
        counter_max,
        counter_max / 2 + 1,
        1 << 22,
        u64::MAX / 2,
        u64::MAX - rng.below(3),
    ];
    choices[rng.below(choices.len() as u64) as usize]
}

fn run_property<C: AtomicCounter>(
    name: &str,
    mut target: Box<dyn Target<C>>,
    ceiling: u64,
    seed: u64,
    steps: usize,
) {
    let len = config().storage_len();
    let mut model = Model {
        ceiling,
        buckets: vec![0; len],
        outside: [0; 3],
        approximate: false,
    };
    let mut rng = SplitMix64(seed);
    let mut coins = XorShift64::new(seed);
    let approximate_mode = name.starts_with("approx");
    for step in 0..steps {
        let what = format!("{name} seed {seed} step {step}");
        let v = match rng.below(8) {
            0 => UNDER_V,
            1 => OVER_V,
            k => IN[(k % 3) as usize],
        };
        let cell = |v: u64| (v != UNDER_V && v != OVER_V).then(|| offset(v));
        let add_model = |model: &mut Model, v: u64, n: u128| match cell(v) {
            Some(o) => model.buckets[o] += n,
            None => model.outside[usize::from(v == OVER_V)] += n,
        };
        let room = match cell(v) {
            Some(o) => (ceiling as u128).saturating_sub(model.buckets[o]) as u64,
            None => 0,
        };
        match rng.below(10) {
            0..=2 => {
                // Single records, often right across the ceiling.
                let k = 1 + rng.below(40);
                for _ in 0..k {
                    target.record(v, &mut coins);
                }
                if approximate_mode && cell(v).is_some() {
                    model.approximate = true;
                } else {
                    add_model(&mut model, v, k as u128);
                }
            }
            3..=6 => {
                let n = pick_n(&mut rng, ceiling, C::MAX.to_u64(), room);
                target.record_n(v, n);
                add_model(&mut model, v, n as u128);
            }
            7 | 8 => {
                // Merge a u64 histogram with buckets, outside and saturated counts.
                let mut other = Histogram::<u64, Vec<u64>>::new(config()).unwrap();
                let mut merged = [0u128; 4];
                for (k, &x) in [IN[0], IN[1], UNDER_V, OVER_V].iter().enumerate() {
                    let n = pick_n(&mut rng, ceiling, C::MAX.to_u64(), room);
                    other.record_n(x, n);
                    merged[k] = n as u128;
                }
                if rng.below(3) == 0 {
                    let extra = pick_n(&mut rng, ceiling, C::MAX.to_u64(), room);
                    other.record_n(IN[2], u64::MAX);
                    other.record_n(IN[2], extra);
                    model.buckets[offset(IN[2])] += u64::MAX as u128;
                    model.outside[2] += extra as u128;
                }
                target.add(&other.view());
                model.buckets[offset(IN[0])] += merged[0];
                model.buckets[offset(IN[1])] += merged[1];
                model.outside[0] += merged[2];
                model.outside[1] += merged[3];
            }
            _ => {
                target.reset();
                model.buckets.iter_mut().for_each(|b| *b = 0);
                model.outside = [0; 3];
                model.approximate = false;
            }
        }
        model.check(&target.read(), &what);
    }
}

fn property_for<C: AtomicCounter>(seeds: std::ops::Range<u64>, steps: usize) {
    let modes: [(&str, Option<Mode>, u64); 5] = [
        ("plain", None, C::MAX.to_u64()),
        ("single", Some(Mode::SingleWriter), C::MAX.to_u64()),
        (
            "interlocked",
            Some(Mode::Interlocked),
            interlocked_max::<C>(),
        ),
        ("thread-local", Some(Mode::ThreadLocal), C::MAX.to_u64()),
        (
            "approximate",
            Some(Mode::Approximate(Default::default())),
            interlocked_max::<C>(),
        ),
    ];
    for seed in seeds {
        for (name, mode, ceiling) in modes {
            let target: Box<dyn Target<C>> = match mode {
                None => Box::new(Histogram::<C, Vec<C>>::new(config()).unwrap()),
                Some(m) => Box::new(ConcurrentHistogram::<C>::new(config(), m).unwrap()),
            };
            let name = format!("{name} u{}", C::BYTES * 8);
            run_property::<C>(&name, target, ceiling, seed, steps);
        }
    }
}

#[test]
fn property_every_mode_saturates_exactly_u32() {
    property_for::<u32>(0..24, 120);
}

#[test]
fn property_every_mode_saturates_exactly_u64() {
    property_for::<u64>(100..124, 120);
}

// ---------------------------------------------------------------------------------------
// Several threads at once, checked at quiescence.

/// `threads` threads each run `work(t)`; all start together.
fn together(threads: usize, work: &(dyn Fn(usize) + Sync)) {
    let barrier = std::sync::Barrier::new(threads);
    std::thread::scope(|s| {
        for t in 0..threads {
            let barrier = &barrier;
            s.spawn(move || {
                barrier.wait();
                work(t);
            });
        }
    });
}

#[test]
fn interlocked_records_racing_across_the_ceiling_are_all_counted() {
    fn check<C: AtomicCounter>() {
        let ceiling = interlocked_max::<C>();
        for threads in [2, 4] {
            let h = AtomicHistogram::<C>::new(config()).unwrap();
            h.record_n(1_000, ceiling - 500);
            const EACH: u64 = 20_000;
            together(threads, &|t| {
                for i in 0..EACH {
                    h.record(1_000);
                    if i % 1_000 == 0 {
                        h.record_n(1_000, (t as u64 + 1) * 3);
                    }
                }
            });
            let extra: u64 = (0..threads as u64)
                .map(|t| (t + 1) * 3 * (EACH / 1_000))
                .sum();
            let recorded = (ceiling - 500) as u128 + (threads as u64 * EACH + extra) as u128;
            let (bucket, _, _, sat, _) = state(&h, 1_000);
            assert_eq!(bucket, ceiling);
            assert_eq!(bucket as u128 + sat as u128, recorded);
        }
    }
    check::<u32>();
    check::<u64>();
}

#[test]
fn interlocked_records_racing_a_reset_at_the_ceiling_never_wrap() {
    let h = AtomicHistogram::<u32>::new(config()).unwrap();
    let ceiling = interlocked_max::<u32>();
    together(4, &|t| {
        for i in 0..20_000u32 {
            if t == 0 && i % 2_000 == 0 {
                h.reset();
                h.record_n(1_000, ceiling - 10);
            } else {
                h.record(1_000);
            }
            if i % 500 == 0 {
                let (bucket, ..) = state(&h, 1_000);
                assert!(bucket <= u32::MAX as u64, "{bucket}");
            }
        }
    });
    let (bucket, ..) = state(&h, 1_000);
    assert!(bucket <= ceiling, "{bucket}");
}

#[test]
fn thread_local_shards_near_the_limit_sum_exactly() {
    fn check<C: AtomicCounter>(max_shards: usize, keep_idle: usize) {
        let h = LocalHistogram::<C>::with_limits(config(), max_shards, keep_idle).unwrap();
        let max = C::MAX.to_u64();
        let mut recorded: u128 = 0;
        for round in 0..3u64 {
            let threads = 2 + round as usize;
            together(threads, &|t| {
                h.record_n(1_000, max / 3 + t as u64);
                for _ in 0..1_000 {
                    h.record(1_000);
                }
                h.record_n(1_000, max - 7);
                h.record(1_000);
            });
            for t in 0..threads as u128 {
                recorded += (max / 3) as u128 + t + 1_000 + (max - 7) as u128 + 1;
            }
            let (bucket, _, _, sat, total) = state(&h, 1_000);
            let expect = recorded.min(max as u128) as u64;
            assert_eq!(bucket, expect, "shards {max_shards} idle {keep_idle}");
            assert_eq!(total, expect);
            assert_eq!(
                sat as u128,
                (recorded - expect as u128).min(u64::MAX as u128),
                "shards {max_shards} idle {keep_idle}"
            );
            if round == 1 {
                // A reset in the middle: the next round starts from zero.
                h.reset();
                recorded = 0;
                assert_eq!(state(&h, 1_000), (0, 0, 0, 0, 0));
            }
        }
    }
    // Shards kept for hand-off; every shard folded at exit; past the shard cap (the
    // accumulator's interlocked path).
    for (max_shards, keep_idle) in [(16, 16), (16, 0), (1, 0)] {
        check::<u32>(max_shards, keep_idle);
        check::<u64>(max_shards, keep_idle);
    }
}

#[test]
fn thread_local_records_after_a_reset_of_a_full_bucket_land_in_the_bucket() {
    let h = LocalHistogram::<u32>::with_limits(config(), 4, 4).unwrap();
    h.record_n(1_000, u32::MAX as u64 + 9);
    h.reset();
    for _ in 0..5 {
        h.record(1_000);
    }
    h.record_n(1_000, 2);
    assert_eq!(state(&h, 1_000), (7, 0, 0, 0, 7));
}

#[test]
fn single_writer_saturates_exactly_and_subtracts() {
    let h = SharedHistogram::<u32>::new(config()).unwrap();
    h.record_n(1_000, u32::MAX as u64 - 1);
    h.record(1_000);
    h.record(1_000);
    assert_eq!(
        state(&h, 1_000),
        (u32::MAX as u64, 0, 0, 1, u32::MAX as u64)
    );
}

/// A `u64` bucket filled by anything but single records (an add of `n`, a merge of
/// either kind) is still tested by the records after it: they saturate, none
/// wraps. Counting one at a time from below 2^63 cannot fill a `u64` bucket in any
/// process's life, so only those writes can bring one near full (a V2 blob's counts stop
/// at 2^63 − 1, below that).
#[test]
fn records_after_any_write_that_fills_a_u64_bucket_saturate_it() {
    // The bucket of 1,000 wherever the histogram's range puts it, and the saturated count.
    let full = |h: &Histogram<u64, Vec<u64>>| {
        let at = h.view().shape().offset(1_000);
        (h.counts()[at], h.saturated_count())
    };
    let mut source = Histogram::<u64, Vec<u64>>::new(config()).unwrap();
    source.record_n(1_000, u64::MAX - 1);
    let wider = Config::new()
        .with_relative_error(0.01)
        .with_range(1, 1 << 40);
    let mut other_range = Histogram::<u64, Vec<u64>>::new(wider).unwrap();
    other_range.record_n(1_000, u64::MAX - 1);
    let filled: [(&str, Histogram<u64, Vec<u64>>); 3] = [
        ("record_n", source.clone()),
        ("merge, same buckets", {
            let mut h = Histogram::new(config()).unwrap();
            h.add_histogram(&source).unwrap();
            h
        }),
        ("merge, another range", {
            let mut h = Histogram::new(config()).unwrap();
            h.add(&other_range.view()).unwrap();
            h
        }),
    ];
    for (how, mut h) in filled {
        assert_eq!(full(&h), (u64::MAX - 1, 0), "{how}");
        h.record(1_000);
        h.record(1_000);
        h.record(1_000);
        assert_eq!(full(&h), (u64::MAX, 2), "{how}");
    }
    // Two halves that are each below 2^63 but fill the bucket together.
    let mut half = Histogram::<u64, Vec<u64>>::new(config()).unwrap();
    half.record_n(1_000, (1 << 63) - 1);
    let mut h = half.clone();
    h.add_histogram(&half).unwrap();
    h.record(1_000);
    h.record(1_000);
    assert_eq!(full(&h), (u64::MAX, 1));
    // A reset empties the buckets: records count on from zero.
    h.reset();
    h.record(1_000);
    assert_eq!(full(&h), (1, 0));
}
