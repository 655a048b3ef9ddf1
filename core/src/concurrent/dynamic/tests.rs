//! The tests of [`DynHistogram`] over every width, mode and storage.

use super::record::stop_panics;
use super::*;
use crate::concurrent::DirectKind;
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// 5 %, 0..=1,000: about 100 buckets, so that the tests over every width and mode run
/// in seconds under Miri too (the default 0.1 % is ten times the storage to zero and walk).
fn small() -> Config {
    Config::new().with_relative_error(0.05).with_range(0, 1_000)
}

#[test]
fn every_width_and_mode_records_merges_and_reports() {
    let config = small();
    for_each_width_and_mode(config, |h, bits, mode| {
        h.record(10);
        h.record_n(20, 3);
        h.record_many(&[30, 2_000]);
        assert_eq!((h.counter_bits(), h.mode()), (bits, mode));
        assert_eq!(h.total_count(), Ok(5));
        let other = DynHistogram::new(config, CounterBits::U64, Mode::Interlocked).unwrap();
        other.add(&h).unwrap();
        assert_eq!(other.total_count(), Ok(5));
        h.set_value_selection(ValueSelection::Upper);
        assert_eq!(h.value_selection(), ValueSelection::Upper);
        h.with_view(|v| {
            let v = v.as_view();
            assert_eq!(v.value_selection(), ValueSelection::Upper);
            assert_eq!(v.overflow_count(), 1);
        })
        .unwrap();
        let mut snap = DynSnapshot::new(&h).unwrap();
        h.record(10);
        snap.update(&h, true).unwrap();
        assert_eq!(snap.view().as_view().total_count(), 1);
        let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
        assert!(snap.update(&wrong, true).is_err());
        h.reset();
        assert_eq!(h.total_count(), Ok(0));
    });
}

#[test]
fn collect_takes_the_interval_in_every_width_and_mode() {
    let config = small();
    for_each_width_and_mode(config, |h, bits, mode| {
        h.record_many(&[10, 10, 20, 2_000]);
        let first = h.collect().unwrap();
        let v = first.view();
        assert_eq!((v.total_count(), v.overflow_count()), (3, 1));
        assert_eq!(v.count(h.shape().offset(10)), Some(2));
        assert_eq!(h.total_count(), Ok(0));
        h.record(30);
        let mut snap = DynSnapshot::new(&h).unwrap();
        h.record(40);
        snap.collect(&h).unwrap();
        assert_eq!(snap.view().as_view().total_count(), 2);
        h.record(50);
        // Deltas after a collect: what was recorded since it.
        snap.update(&h, true).unwrap();
        assert_eq!(snap.view().as_view().total_count(), 1);
        let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
        assert!(snap.collect(&wrong).is_err());
        assert_eq!(h.total_count(), Ok(1));
    });
}

/// `check` on a new histogram of `config` in each counter width and exact mode.
fn for_each_width_and_mode(config: Config, mut check: impl FnMut(DynHistogram, CounterBits, Mode)) {
    for bits in [CounterBits::U32, CounterBits::U64] {
        let exact = Mode::ALL
            .iter()
            .filter(|m| !matches!(m, Mode::Approximate(_)));
        for &mode in exact {
            check(DynHistogram::new(config, bits, mode).unwrap(), bits, mode);
        }
    }
}

fn other_width(bits: CounterBits) -> CounterBits {
    match bits {
        CounterBits::U32 => CounterBits::U64,
        CounterBits::U64 => CounterBits::U32,
    }
}

std::thread_local! {
    /// Records handed to `declined` on this thread.
    static DECLINED: core::cell::Cell<u32> = const { core::cell::Cell::new(0) };
}

/// Called by `declined`: one more record declined on this thread.
pub(super) fn note_declined() {
    DECLINED.with(|d| d.set(d.get() + 1));
}

/// `h.record(v)`: whether the fast path took the record (none was declined).
fn fast(h: &DynHistogram, v: u64) -> bool {
    let before = DECLINED.with(|d| d.get());
    h.record(v);
    DECLINED.with(|d| d.get()) == before
}

#[test]
fn only_the_paths_that_cannot_panic_skip_the_slow_one() {
    let config = small();
    let counts = |h: &DynHistogram| {
        h.with_view(|view| {
            let v = view.as_view();
            (v.total_count(), v.overflow_count())
        })
        .unwrap()
    };
    for bits in [CounterBits::U32, CounterBits::U64] {
        // Approximate: its coins come from thread-local words that cannot fail.
        for mode in [
            Mode::SingleWriter,
            Mode::Interlocked,
            Mode::Approximate(Default::default()),
        ] {
            let h = DynHistogram::new(config, bits, mode).unwrap();
            assert_eq!((h.counter_bits(), h.mode()), (bits, mode));
            assert!(fast(&h, 5), "{mode:?} records in range");
            assert!(!fast(&h, 5_000), "{mode:?}: overflow takes the slow path");
            assert_eq!(counts(&h), (1, 1), "{mode:?}: the slow path counted it");
        }
        // Thread-local: only once this thread's shard is attached and current, and only
        // in range; the slow path attaches it.
        let local = DynHistogram::new(config, bits, Mode::ThreadLocal).unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                assert!(!fast(&local, 7), "no shard on a fresh thread");
                assert_eq!(counts(&local), (1, 0));
                assert!(fast(&local, 7), "the shard is current now");
                assert!(!fast(&local, 5_000), "overflow takes the slow path");
                assert_eq!(counts(&local), (2, 1));
            });
        });
    }
}

#[test]
fn a_full_bucket_is_declined_by_the_inline_paths() {
    let config = small();
    // A full bucket: the single-writer and thread-local paths (inline in `record`, or a
    // leaf through `fast`) decline the record, and the slow path counts it saturated.
    for mode in [Mode::SingleWriter, Mode::ThreadLocal] {
        let h = DynHistogram::new(config, CounterBits::U32, mode).unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                h.record_n(9, u64::from(u32::MAX));
                assert!(!fast(&h, 9), "{mode:?}: a full bucket is declined");
                let saturated = h.with_view(|view| view.as_view().saturated_count());
                assert_eq!(saturated.unwrap(), 1, "{mode:?}");
                assert!(fast(&h, 10), "{mode:?}: the bucket beside it is not full");
            });
        });
    }
}

#[test]
fn a_panic_in_a_slow_path_stops_there_and_the_record_counts_saturated() {
    let config = small();
    for_each_width_and_mode(config, |h, bits, mode| {
        stop_panics(
            || panic!("a slow path's bug"),
            || h.inner.path().add_saturated(1),
        );
        let counts = h.with_view(|view| {
            let v = view.as_view();
            (v.total_count(), v.saturated_count())
        });
        assert_eq!(counts.unwrap(), (0, 1), "{bits:?} {mode:?}");
    });
}

#[test]
fn the_record_functions_for_lzcnt_and_bmi2_count_as_the_portable_ones() {
    // Where the CPU has them, every width, mode and storage records through the
    // functions built for them: the same buckets as the portable functions.
    let shape = Config::new().with_relative_error(0.01).validate().unwrap();
    let values: alloc::vec::Vec<u64> = (0..64)
        .flat_map(|k| [1u64 << k, (1u64 << k) + 7, !0 >> k])
        .collect();
    let v3 = Log2::cpu_has_lzcnt_and_bmi2();
    std::println!("this CPU records through the lzcnt and BMI2 functions: {v3}");
    // Every mode and storage but the sparse thread-local one, which does not exist.
    let modes: Vec<(Mode, Storage)> = [Storage::Dense, Storage::Sparse]
        .into_iter()
        .flat_map(|s| Mode::ALL.iter().map(move |&m| (m, s)))
        .filter(|&(m, s)| !(m == Mode::ThreadLocal && s == Storage::Sparse))
        .collect();
    for bits in [CounterBits::U32, CounterBits::U64] {
        for &(mode, storage) in &modes {
            let make = || DynHistogram::with_storage(shape, bits, mode, storage).unwrap();
            let (mine, portable) = (make(), make());
            let (f, g) = (
                mine.inner.record_fn(false, v3),
                portable.inner.record_fn(false, false),
            );
            for &v in &values {
                // SAFETY: each histogram's own width and mode; `f` is built for
                // `lzcnt` and BMI2 only where the CPU has them.
                unsafe {
                    f(&mine, v);
                    g(&portable, v);
                }
            }
            let summary = |h: &DynHistogram| h.with_view(|v| v.as_view().summary());
            let what = alloc::format!("{bits:?} {mode:?} {storage:?}");
            assert_eq!(
                summary(&mine).unwrap(),
                summary(&portable).unwrap(),
                "{what}"
            );
        }
    }
}

/// The exact extremes of `h` (made from `config` with counters of `bits`, tracking
/// extremes) through every record path, a merge and a reset.
fn extremes_follow_every_record_path(h: DynHistogram, config: Config, bits: CounterBits) {
    let what = alloc::format!("{bits:?} {:?} {:?}", h.mode(), h.storage());
    assert!(h.tracks_extremes());
    assert_eq!(h.exact_extremes(), None, "{what}");
    assert_eq!(h.direct_path().kind, DirectKind::Call, "{what}");
    // Outside the range: counted as underflow/overflow, not an extreme.
    h.record(5);
    h.record(5_000_000);
    assert_eq!(h.exact_extremes(), None, "{what}");
    h.record(12_345);
    assert_eq!(h.exact_extremes(), Some((12_345, 12_345)), "{what}");
    // SAFETY: `h`'s own record function.
    unsafe { (h.record_fn())(&h, 12_301) };
    h.record_n(99_999, 0); // nothing recorded, no extreme
    h.record_n(77_777, 2);
    h.record_many(&[150, 3, 20_000]);
    assert_eq!(h.exact_extremes(), Some((150, 77_777)), "{what}");
    // The correction's smallest value: 880_000 − 87·10_000 = 10_000 + 0.
    h.record_corrected(880_000, 10_000);
    assert_eq!(h.exact_extremes(), Some((150, 880_000)), "{what}");
    // Merged: the source's exact extremes, or its buckets' bounds.
    let exact = DynHistogram::new(config, bits, Mode::Interlocked)
        .unwrap()
        .with_exact_extremes();
    exact.record(101);
    h.add(&exact).unwrap();
    assert_eq!(h.exact_extremes(), Some((101, 880_000)), "{what}");
    let plain = DynHistogram::new(config, bits, Mode::Interlocked).unwrap();
    plain.record(999_000);
    h.add(&plain).unwrap();
    let top = config
        .validate()
        .unwrap()
        .layout()
        .bucket_of(999_000)
        .highest;
    assert_eq!(h.exact_extremes(), Some((101, top)), "{what}");
    h.reset();
    assert_eq!(h.exact_extremes(), None, "{what}");
    h.record(4_242);
    assert_eq!(h.exact_extremes(), Some((4_242, 4_242)), "{what}");
}

#[test]
fn exact_extremes_follow_every_record_path_in_every_width_mode_and_storage() {
    // 5 %: small storage, so that the test also runs quickly under Miri.
    let config = Config::new()
        .with_relative_error(0.05)
        .with_range(100, 1_000_000);
    let modes = Mode::ALL;
    // Under Miri (slow) one width: the record paths are the same code for both.
    let widths: &[CounterBits] = if cfg!(miri) {
        &[CounterBits::U32]
    } else {
        &[CounterBits::U32, CounterBits::U64]
    };
    for &bits in widths {
        for &mode in modes {
            for storage in [Storage::Dense, Storage::Sparse] {
                let Ok(h) =
                    DynHistogram::with_storage(config.validate().unwrap(), bits, mode, storage)
                else {
                    continue; // sparse thread-local is refused
                };
                extremes_follow_every_record_path(h.with_exact_extremes(), config, bits);
            }
        }
    }
}

#[test]
fn without_exact_extremes_nothing_is_kept_and_the_direct_path_stays() {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(100, 1_000_000);
    let h = DynHistogram::new(config, CounterBits::U32, Mode::Interlocked).unwrap();
    h.record(500);
    assert!(!h.tracks_extremes());
    assert_eq!(h.exact_extremes(), None);
    assert_eq!(h.direct_path().kind, DirectKind::Atomic);
}

#[test]
fn exact_extremes_of_racing_threads_are_the_true_ones() {
    let config = Config::new().with_relative_error(0.01);
    for mode in [Mode::Interlocked, Mode::ThreadLocal] {
        let h = DynHistogram::new(config, CounterBits::U64, mode)
            .unwrap()
            .with_exact_extremes();
        let (lo, hi) = std::thread::scope(|s| {
            let handles: alloc::vec::Vec<_> = (0..4u64)
                .map(|t| {
                    let h = &h;
                    s.spawn(move || {
                        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ t;
                        let (mut lo, mut hi) = (u64::MAX, 0);
                        for _ in 0..if cfg!(miri) { 300 } else { 20_000 } {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let v = x >> (x % 64);
                            h.record(v);
                            (lo, hi) = (lo.min(v), hi.max(v));
                        }
                        (lo, hi)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|j| j.join().unwrap())
                .fold((u64::MAX, 0), |(a, b), (c, d)| (a.min(c), b.max(d)))
        });
        assert_eq!(h.exact_extremes(), Some((lo, hi)), "{mode:?}");
    }
}

/// Cells with room beside them: a mode's histogram over them is larger than a `Stored`'s
/// words, as under loom, so it is boxed there.
#[derive(Debug)]
struct Padded {
    cells: Box<[core::sync::atomic::AtomicU64]>,
    _room: [u64; 48],
}

impl AsRef<[core::sync::atomic::AtomicU64]> for Padded {
    fn as_ref(&self) -> &[core::sync::atomic::AtomicU64] {
        &self.cells
    }
}

/// The bucket counts and the outside counts of `v`, widened.
fn counts_of<C: crate::Counter>(v: &View<'_, C>) -> (Vec<u64>, [u64; 3]) {
    (v.counts().iter().map(|c| c.to_u64()).collect(), v.outside())
}

#[test]
fn a_mode_that_does_not_fit_in_place_is_boxed_and_counts_and_drops_alike() {
    use crate::concurrent::SharedHistogram;
    type Big = SharedHistogram<u64, Padded>;
    let shape = small().validate().unwrap();
    let cells = (0..shape.len()).map(|_| Default::default()).collect();
    let h = Big::from_shape(
        shape,
        Padded {
            cells,
            _room: [7; 48],
        },
    )
    .unwrap();
    assert!(!any::fits::<Big>(), "the test's mode fits in place");
    let stored = any::Stored::new::<u64, Big>(h);
    let mut plain = crate::Histogram::<u64, Vec<u64>>::new(small()).unwrap();
    for v in [0, 1, 10, 500, 1_000, 2_000] {
        stored.path().record(v);
        plain.record(v);
    }
    stored.path().record_n(30, 4);
    plain.record_n(30, 4);
    assert_eq!(
        (stored.path().mode(), stored.bits()),
        (Mode::SingleWriter, CounterBits::U64)
    );
    let mut counts = (Vec::new(), [0; 3]);
    stored
        .copy(&mut |c| counts = c.apply(counts_of, counts_of))
        .unwrap();
    assert_eq!(counts, counts_of(&plain.view()));
    assert_eq!(counts.1, [0, 1, 0]);
    // SAFETY: `stored` was made of a `Big`.
    let big = unsafe { stored.as_mode::<u64, Big>() };
    assert_eq!(crate::concurrent::Shaped::shape(big), shape);
    stored.path().reset();
    stored
        .copy(&mut |c| counts = c.apply(counts_of, counts_of))
        .unwrap();
    assert_eq!(counts, (vec![0; shape.len()], [0; 3]));
}

/// The batch record on every path this CPU runs (the portable one alone under Miri)
/// counts what the per-value record counts, in every width, mode and storage.
#[test]
fn record_many_counts_what_record_counts() {
    let config = small();
    // Fewer under Miri, which runs this test on the portable path in the miri stage.
    let n = if cfg!(miri) { 150u64 } else { 600 };
    let values: Vec<u64> = (0..n)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 64))
        .collect();
    let shape = config.validate().unwrap();
    for path in crate::BatchPath::ALL.into_iter().filter(|p| p.available()) {
        for bits in [CounterBits::U32, CounterBits::U64] {
            for (&mode, storage) in Mode::ALL
                .iter()
                .flat_map(|m| [(m, Storage::Dense), (m, Storage::Sparse)])
            {
                let Ok(want) = DynHistogram::with_storage(shape, bits, mode, storage) else {
                    continue;
                };
                let want = want.with_exact_extremes();
                let got = DynHistogram::with_storage(shape, bits, mode, storage)
                    .unwrap()
                    .with_exact_extremes();
                values.iter().for_each(|&v| want.record(v));
                got.record_many_on(path, &values);
                let (a, b) = (got.collect().unwrap(), want.collect().unwrap());
                assert_eq!(a.counts(), b.counts(), "{mode:?} {storage:?} {path:?}");
                let outside = |h: &crate::Histogram<u64, Vec<u64>>| {
                    [h.underflow_count(), h.overflow_count(), h.saturated_count()]
                };
                assert_eq!(outside(&a), outside(&b));
                assert_eq!(got.exact_extremes(), want.exact_extremes());
            }
        }
    }
}
