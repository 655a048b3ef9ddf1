//! The batch record (`record_many`) against the per-value `record`: over random layouts
//! (units, ranges, relative errors), storages, modes and counter widths, on every batch
//! path this CPU runs, the same buckets, outside and saturated counts and exact extremes;
//! two writers' batches into the interlocked and thread-local modes lose nothing.
#![cfg(not(loom))]

mod common;

use common::SplitMix64;
use picollo::concurrent::{ApproxPolicy, AtomicCounter, CounterBits, DynHistogram, Mode, Storage};
use picollo::float::{
    FloatConfig, FloatHistogram, Mode as FloatMode, Side, Storage as FloatStorage,
};
use picollo::{BatchPath, Config, Counter, Histogram};

/// The paths this CPU runs (the portable one always; NEON always on aarch64, where it is
/// baseline, so that a wrong `available` cannot leave it untested).
fn paths() -> Vec<BatchPath> {
    let paths: Vec<BatchPath> = BatchPath::ALL
        .into_iter()
        .filter(|p| p.available())
        .collect();
    assert!(paths.contains(&BatchPath::Portable));
    if cfg!(all(
        target_arch = "aarch64",
        target_feature = "neon",
        not(miri)
    )) {
        assert!(paths.contains(&BatchPath::Neon), "{paths:?}");
    }
    paths
}

/// A random layout: relative error, unit and range, both ends anywhere in `u64`.
fn layout(rng: &mut SplitMix64) -> Config {
    const ERRORS: [f64; 6] = [0.1, 0.05, 0.01, 0.001, 0.0005, 0.0002];
    let error = ERRORS[rng.below(ERRORS.len() as u64) as usize];
    let unit_scale = rng.below(12) as u32;
    let (a, b) = (rng.any_magnitude(), rng.any_magnitude());
    let (min, max) = match rng.below(4) {
        0 => (0, u64::MAX),
        1 => (0, a.max(b)),
        _ => (a.min(b), a.max(b)),
    };
    Config::new()
        .with_relative_error(error)
        .with_unit_scale(unit_scale)
        .with_range(min, max)
}

/// Every power of two ± 1, 2^53 ± 1, the top of `u64`, the range's ends ± 1 and random
/// magnitudes, shuffled; some repeated to fill buckets.
fn values(rng: &mut SplitMix64, config: &Config, n: usize) -> Vec<u64> {
    let mut out = vec![
        0,
        1,
        2,
        u64::MAX,
        u64::MAX - 1,
        (1 << 53) - 1,
        1 << 53,
        (1 << 53) + 1,
    ];
    for k in 0..64 {
        let p = 1u64 << k;
        out.extend([p - 1, p, p + 1]);
    }
    let (min, max) = (config.min_trackable(), config.max_trackable());
    out.extend([
        min.wrapping_sub(1),
        min,
        min + 1,
        max - 1,
        max,
        max.wrapping_add(1),
    ]);
    while out.len() < n {
        let v = match rng.below(3) {
            0 => min.wrapping_add(rng.below(max.wrapping_sub(min).max(1))),
            _ => rng.any_magnitude(),
        };
        out.push(v);
    }
    for i in (1..out.len()).rev() {
        out.swap(i, rng.below(i as u64 + 1) as usize);
    }
    out
}

fn modes() -> [Mode; 4] {
    [
        Mode::SingleWriter,
        Mode::Interlocked,
        Mode::ThreadLocal,
        // Exact below 2^40 per bucket: one writer's counts are the records.
        Mode::Approximate(ApproxPolicy::new().with_threshold(40)),
    ]
}

/// What the two histograms must agree on: the counts, outside counts and extremes.
type Seen = (Vec<u64>, [u64; 3], Option<(u64, u64)>);

fn seen(h: &DynHistogram) -> Seen {
    let c = h.collect().unwrap();
    let outside = [c.underflow_count(), c.overflow_count(), c.saturated_count()];
    (c.counts().to_vec(), outside, h.exact_extremes())
}

/// A new histogram, or `None` where the mode has no such storage.
fn make(config: Config, bits: CounterBits, mode: Mode, storage: Storage) -> Option<DynHistogram> {
    let shape = config.validate().unwrap();
    let h = DynHistogram::with_storage(shape, bits, mode, storage).ok()?;
    Some(h.with_exact_extremes())
}

/// Both histograms given the same near-full buckets, so that the batch saturates some
/// (not in the approximate mode, whose steps above its threshold are random).
fn near_full(h: &DynHistogram, bits: CounterBits, full: &[u64]) {
    if matches!(h.mode(), Mode::Approximate(_)) {
        return;
    }
    let ceiling = match bits {
        CounterBits::U32 => u64::from(u32::MAX),
        CounterBits::U64 => u64::MAX,
    };
    for &v in full {
        h.record_n(v, ceiling - 2);
    }
}

#[test]
fn every_batch_path_counts_what_record_counts() {
    let mut rng = SplitMix64(0xBA7C_4EC0);
    let mut saturated = 0;
    for _ in 0..24 {
        let config = layout(&mut rng);
        let vs = values(&mut rng, &config, 3_000);
        let (min, max) = (config.min_trackable(), config.max_trackable());
        let full: Vec<u64> = vs
            .iter()
            .copied()
            .filter(|v| (min..=max).contains(v))
            .take(4)
            .collect();
        let full = &full[..];
        for bits in [CounterBits::U32, CounterBits::U64] {
            for mode in modes() {
                for storage in [Storage::Dense, Storage::Sparse] {
                    let Some(want) = make(config, bits, mode, storage) else {
                        continue;
                    };
                    near_full(&want, bits, full);
                    vs.iter().for_each(|&v| want.record(v));
                    let want = seen(&want);
                    saturated += u32::from(want.1[2] > 0);
                    for path in paths() {
                        let got = make(config, bits, mode, storage).unwrap();
                        near_full(&got, bits, full);
                        got.record_many_on(path, &vs);
                        let why = format!("{config:?} {bits:?} {mode:?} {storage:?} {path:?}");
                        let got = seen(&got);
                        let diff: Vec<_> = (0..got.0.len())
                            .filter(|&i| got.0[i] != want.0[i])
                            .map(|i| (i, got.0[i], want.0[i]))
                            .take(4)
                            .collect();
                        assert!(
                            got == want,
                            "{why} {diff:?} {:?} {:?}",
                            (got.1, got.2),
                            (want.1, want.2)
                        );
                    }
                }
            }
        }
    }
    assert!(
        saturated > 0,
        "no bucket saturated: the saturation step went untested"
    );
}

/// The plain histogram's batch against its own record, extremes kept.
#[test]
fn the_plain_histograms_batch_counts_what_record_counts() {
    let mut rng = SplitMix64(0x9_1A1A);
    for _ in 0..48 {
        let config = layout(&mut rng);
        let vs = values(&mut rng, &config, 3_000);
        let mut start: Histogram<u32, Vec<u32>, true> =
            config.build::<u32>().unwrap().with_exact_extremes();
        vs[..3]
            .iter()
            .for_each(|&v| start.record_n(v, u64::from(u32::MAX) - 1));
        batch_as_records(&start, &vs, &format!("{config:?}"));
    }
}

/// From `start`, `values` recorded one by one and as one batch on every path: the same
/// counts, outside and saturated counts and exact extremes.
fn batch_as_records(start: &Histogram<u32, Vec<u32>, true>, values: &[u64], why: &str) {
    let mut want = start.clone();
    values.iter().for_each(|&v| want.record(v));
    let outside = |h: &Histogram<u32, Vec<u32>, true>| {
        [h.underflow_count(), h.overflow_count(), h.saturated_count()]
    };
    for path in paths() {
        let mut got = start.clone();
        got.record_many_on(path, values);
        let why = format!("{why} {path:?}");
        assert_eq!(got.counts(), want.counts(), "{why}");
        assert_eq!(outside(&got), outside(&want), "{why}");
        assert_eq!(got.exact_extremes(), want.exact_extremes(), "{why}");
    }
}

/// Two threads' batches at once: every value counted, bucket for bucket as one thread's
/// records of both halves.
#[test]
fn two_writers_batches_lose_nothing() {
    let mut rng = SplitMix64(0x2_3417);
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(100, 1 << 40);
    let vs = values(&mut rng, &config, 200_000);
    let want = make(config, CounterBits::U64, Mode::SingleWriter, Storage::Dense).unwrap();
    vs.iter().for_each(|&v| want.record(v));
    let want = seen(&want);
    for mode in [Mode::Interlocked, Mode::ThreadLocal] {
        for path in paths() {
            let h = make(config, CounterBits::U64, mode, Storage::Dense).unwrap();
            let (a, b) = vs.split_at(vs.len() / 2);
            std::thread::scope(|s| {
                for half in [a, b] {
                    let h = &h;
                    s.spawn(move || {
                        for part in half.chunks(1_000) {
                            h.record_many_on(path, part);
                        }
                    });
                }
            });
            let got = seen(&h);
            let total = |s: &Seen| s.0.iter().sum::<u64>() + s.1.iter().sum::<u64>();
            assert_eq!(total(&got), vs.len() as u64, "{mode:?} {path:?}");
            assert!(got == want, "{mode:?} {path:?}");
        }
    }
}

#[test]
fn each_path_is_found_by_its_name() {
    for p in BatchPath::ALL {
        assert_eq!(BatchPath::parse(p.name()), Some(p));
    }
    assert_eq!(BatchPath::parse("sse9"), None);
    assert!(BatchPath::Portable.available());
    assert!(BatchPath::best().available());
    assert!(BatchPath::chosen().available());
    if cfg!(all(
        target_arch = "aarch64",
        target_feature = "neon",
        not(miri)
    )) {
        assert_eq!(BatchPath::best(), BatchPath::Neon);
    }
}

/// Doubles of both signs over many octaves, with zeros, NaN, ±∞, subnormals, the range's
/// ends and the extremes of a double.
fn doubles(rng: &mut SplitMix64, n: usize) -> Vec<f64> {
    let mut out = vec![
        0.0,
        -0.0,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(3),
        1e-12,
        1e12,
        -1e-12,
        -1e12,
        (1u64 << 53) as f64 + 2.0,
        f64::from_bits(u64::MAX),
    ];
    for k in -70..70 {
        let p = 2f64.powi(k);
        out.extend([
            p,
            -p,
            p * (1.0 + f64::EPSILON),
            -p * (1.0 - f64::EPSILON / 2.0),
        ]);
    }
    let mut magnitudes = rng.signed_log_uniform(n, (-16.0, 16.0), 3);
    // Values recorded in growing order move the extremes, and the gates, inside a batch.
    magnitudes[..n / 4].sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    out.extend(magnitudes);
    out
}

/// What two float histograms must agree on: each bucket's count, the special counts, the
/// exact sum (its bits; see [`float_sums_agree`] for the interlocked mode's) and the
/// extremes.
type FloatSeen = (Vec<(bool, usize, u64)>, [u64; 8], u64, String);

/// Whether two float histograms agree as [`FloatSeen`] says: all of it for the single
/// writer, whose sum is exact. The interlocked mode's sum is a running one per stripe (the
/// stripe picked by the stack's address), which the batch adds to once a part of values
/// with that part's own sum: the same terms grouped otherwise, rounded otherwise. Each
/// grouping of `k` terms lies within `(k − 1)·ε/2·Σ|term|` of the true sum, so the two lie
/// within `k·ε·Σ|term|` of each other; `terms` are the magnitudes added (a value in a
/// bucket, or `n·|x|` for `record_n`).
fn float_sums_agree(
    mode: FloatMode,
    got: &FloatSeen,
    want: &FloatSeen,
    terms: impl Iterator<Item = f64>,
) -> bool {
    let (mut rest, mut rest_want) = (got.clone(), want.clone());
    if mode == FloatMode::Interlocked {
        (rest.2, rest_want.2) = (0, 0);
    }
    if rest != rest_want {
        return false;
    }
    let (a, b) = (f64::from_bits(got.2), f64::from_bits(want.2));
    let (k, scale) = terms.fold((0.0, 0.0), |(k, s), t| (k + 1.0, s + t));
    got.2 == want.2 || (a - b).abs() <= k * f64::EPSILON * scale
}

/// The magnitudes a float histogram of `config` adds to its sum for `values`: those whose
/// magnitude is in the range (zero adds nothing).
fn float_terms(config: FloatConfig, values: &[f64]) -> impl Iterator<Item = f64> + '_ {
    let shape = config.validate().unwrap();
    values
        .iter()
        .filter(move |&&x| shape.equivalent_range(x).is_some())
        .map(|x| x.abs())
}

fn float_seen(h: &FloatHistogram<u32>) -> FloatSeen {
    let c = h.counts().unwrap();
    let buckets = c
        .buckets()
        .map(|b| (b.side == Side::Negative, b.index, b.count))
        .collect();
    let specials = [
        c.zero_count(),
        c.nan_count(),
        c.positive_infinity_count(),
        c.negative_infinity_count(),
        c.underflow_count(),
        c.overflow_count(),
        c.saturated_count(),
        c.total_count(),
    ];
    (
        buckets,
        specials,
        c.sum().to_bits(),
        format!("{:?}", (c.min(), c.max())),
    )
}

#[test]
fn every_batch_path_counts_doubles_as_record_does() {
    let mut rng = SplitMix64(0xF10A7);
    let values = doubles(&mut rng, 4_000);
    for mode in [FloatMode::SingleWriter, FloatMode::Interlocked] {
        for storage in [FloatStorage::Dense, FloatStorage::Sparse] {
            for (error, range) in [
                (0.01, (1e-12, 1e12)),
                (0.001, (1e-300, 1e300)),
                (0.05, (1.0, 4.0)),
            ] {
                let config = FloatConfig::new()
                    .with_relative_error(error)
                    .with_range(range.0, range.1)
                    .with_mode(mode)
                    .with_storage(storage);
                let want = FloatHistogram::<u32>::new(config).unwrap();
                values.iter().for_each(|&x| want.record(x));
                let want = float_seen(&want);
                for path in paths() {
                    let got = FloatHistogram::<u32>::new(config).unwrap();
                    got.record_many_on(path, &values);
                    let terms = float_terms(config, &values);
                    let agree = float_sums_agree(mode, &float_seen(&got), &want, terms);
                    assert!(agree, "{config:?} {path:?}");
                }
            }
        }
    }
}

/// The float batch at lengths around its vectors, parts, words and chunks (8, 32, 64 and 128
/// values),
/// into fresh histograms (every gate empty: the batch's own records open them) and into ones
/// already holding values with some buckets brought within 3 of full (so that the batch
/// saturates them): each path as `record` of each value in turn.
#[test]
fn the_float_batch_at_every_length_counts_as_record_does() {
    const LENGTHS: [usize; 16] = [
        0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 385, 1_001,
    ];
    let mut rng = SplitMix64(0xF1_0A7B);
    let mut all = doubles(&mut rng, 1_001);
    // The specials and powers of two spread among the drawn values.
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut saturated = 0;
    for mode in [FloatMode::SingleWriter, FloatMode::Interlocked] {
        for storage in [FloatStorage::Dense, FloatStorage::Sparse] {
            let config = FloatConfig::new()
                .with_relative_error(0.01)
                .with_range(1e-12, 1e12)
                .with_mode(mode)
                .with_storage(storage);
            for (n, filled) in LENGTHS.into_iter().flat_map(|n| [(n, false), (n, true)]) {
                let vs = &all[..n];
                let start = || {
                    let h = FloatHistogram::<u32>::new(config).unwrap();
                    if filled {
                        [1.5, -2.5e-3, 7e5].into_iter().for_each(|x| h.record(x));
                        vs.iter()
                            .step_by(5)
                            .for_each(|&x| h.record_n(x, u64::from(u32::MAX - 3)));
                    }
                    h
                };
                let want = start();
                vs.iter().for_each(|&x| want.record(x));
                let want = float_seen(&want);
                saturated += u32::from(want.1[6] > 0);
                // What the sums add: the near-full buckets' `record_n`s, then the values.
                let (first, fifth): (&[f64], Vec<f64>) = match filled {
                    true => (
                        &[1.5, -2.5e-3, 7e5],
                        vs.iter().step_by(5).copied().collect(),
                    ),
                    false => (&[], Vec::new()),
                };
                let full = f64::from(u32::MAX - 3);
                let near = float_terms(config, first)
                    .chain(float_terms(config, &fifth).map(|t| t * full))
                    .collect::<Vec<_>>();
                for path in paths() {
                    let got = start();
                    got.record_many_on(path, vs);
                    let why = format!("{config:?} {path:?} {n} {filled}");
                    let terms = near.iter().copied().chain(float_terms(config, vs));
                    assert!(
                        float_sums_agree(mode, &float_seen(&got), &want, terms),
                        "{why}"
                    );
                }
            }
        }
    }
    assert!(
        saturated > 0,
        "no bucket saturated: that step went untested"
    );
}

/// Two threads' float batches into the interlocked mode (both storages: racing to make a
/// sparse block) leave what one thread's records leave, the sum within its rounding.
#[test]
fn two_writers_float_batches_lose_nothing() {
    let mut rng = SplitMix64(0x2_F10A7);
    let vs = doubles(&mut rng, 100_000);
    for storage in [FloatStorage::Dense, FloatStorage::Sparse] {
        let config = FloatConfig::new()
            .with_relative_error(0.01)
            .with_range(1e-12, 1e12)
            .with_mode(FloatMode::Interlocked)
            .with_storage(storage);
        let want = FloatHistogram::<u32>::new(config).unwrap();
        vs.iter().for_each(|&x| want.record(x));
        let want = float_seen(&want);
        for path in paths() {
            let h = FloatHistogram::<u32>::new(config).unwrap();
            let (a, b) = vs.split_at(vs.len() / 2);
            std::thread::scope(|s| {
                for half in [a, b] {
                    let h = &h;
                    s.spawn(move || half.chunks(1_000).for_each(|p| h.record_many_on(path, p)));
                }
            });
            let got = float_seen(&h);
            let terms = float_terms(config, &vs);
            let agree = float_sums_agree(FloatMode::Interlocked, &got, &want, terms);
            assert!(agree, "{storage:?} {path:?}");
        }
    }
}

/// `PICOLLO_RECORD_PATH` forces the path (the portable one where it names a path this CPU
/// lacks): this test runs itself again as a child process with each name, and the child
/// checks the choice.
#[test]
fn the_environment_variable_forces_a_path() {
    const NAME: &str = "the_environment_variable_forces_a_path";
    if let Ok(name) = std::env::var(BatchPath::ENV) {
        let want = match BatchPath::parse(&name) {
            Some(p) if p.available() => p,
            Some(_) => BatchPath::Portable,
            None => BatchPath::best(),
        };
        assert_eq!(BatchPath::chosen(), want, "{name}");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for name in BatchPath::ALL
        .map(BatchPath::name)
        .into_iter()
        .chain(["sse9"])
    {
        let out = std::process::Command::new(&exe)
            .args([NAME, "--exact", "--test-threads=1"])
            .env(BatchPath::ENV, name)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: {text}");
        assert!(
            text.contains("1 passed"),
            "{name}: the child ran no test: {text}"
        );
    }
}

/// The plain histogram's batch at lengths around its chunks and vectors (empty, shorter
/// than a vector, a chunk ± 1, many chunks with a ragged tail), values all inside and
/// mixed, `u64` counters without extremes kept and `u32` with: each as its own record.
fn at_every_length(config: Config, rng: &mut SplitMix64) {
    const LENGTHS: [usize; 10] = [0, 1, 7, 8, 9, 127, 128, 129, 385, 1_001];
    let mixed = values(rng, &config, 1_001);
    let (min, max) = (config.min_trackable(), config.max_trackable());
    let inside: Vec<u64> = (0..1_001)
        .map(|_| min + rng.below((max - min).max(1)))
        .collect();
    for vs in [&mixed, &inside] {
        for n in LENGTHS {
            let vs = &vs[..n];
            let mut want = config.build::<u64>().unwrap();
            let mut exact = config.build::<u32>().unwrap().with_exact_extremes();
            vs.iter().for_each(|&v| want.record(v));
            vs.iter().for_each(|&v| exact.record(v));
            for path in paths() {
                let why = format!("{config:?} {path:?} {n}");
                let mut got = config.build::<u64>().unwrap();
                got.record_many_on(path, vs);
                assert_eq!(got.counts(), want.counts(), "{why}");
                assert_eq!(got.underflow_count(), want.underflow_count(), "{why}");
                assert_eq!(got.overflow_count(), want.overflow_count(), "{why}");
                let mut got = config.build::<u32>().unwrap().with_exact_extremes();
                got.record_many_on(path, vs);
                assert_eq!(got.counts(), exact.counts(), "{why}");
                assert_eq!(got.exact_extremes(), exact.exact_extremes(), "{why}");
            }
        }
    }
}

#[test]
fn the_plain_histograms_batch_at_every_length() {
    let mut rng = SplitMix64(0x1E_6715);
    for _ in 0..8 {
        at_every_length(layout(&mut rng), &mut rng);
    }
}

/// [`at_every_length`] on one small layout (a few hundred buckets): the portable path's
/// case that scripts/miri.sh runs under Miri (where no vector path is available).
#[test]
fn the_plain_histograms_batch_small() {
    let config = Config::new()
        .with_relative_error(0.05)
        .with_range(3, 1 << 30);
    at_every_length(config, &mut SplitMix64(0x5_3A11));
}

/// A bucket brought within 3 of full, then, in one batch, values of that bucket that move
/// the extremes before ones that do not (and the reverse): the first 3 in order count, as
/// with `record`, so the extremes and the sum see the same values.
#[test]
fn a_bucket_filling_in_a_batch_keeps_the_values_record_keeps() {
    let hi = 1.05f64;
    let below = f64::from_bits(hi.to_bits() - 4);
    for mode in [FloatMode::SingleWriter, FloatMode::Interlocked] {
        for storage in [FloatStorage::Dense, FloatStorage::Sparse] {
            let config = FloatConfig::new()
                .with_relative_error(0.001)
                .with_range(1.0, hi)
                .with_mode(mode)
                .with_storage(storage);
            let shape = config.validate().unwrap();
            assert_eq!(shape.equivalent_range(hi), shape.equivalent_range(below));
            let ceiling = match mode {
                FloatMode::Interlocked => u64::from(<u32 as AtomicCounter>::INTERLOCKED_MAX),
                _ => u64::from(u32::MAX),
            };
            for (first, then) in [(-hi, -below), (-below, -hi), (hi, below), (below, hi)] {
                let start = || {
                    let h = FloatHistogram::<u32>::new(config).unwrap();
                    h.record_n(then, ceiling - 3);
                    h
                };
                let vs = [[first; 4], [then; 4]].concat();
                let want = start();
                vs.iter().for_each(|&x| want.record(x));
                let want = float_seen(&want);
                assert_eq!(want.1[6], 5, "{mode:?} {storage:?}");
                for path in paths() {
                    let got = start();
                    got.record_many_on(path, &vs);
                    let why = format!("{mode:?} {storage:?} {path:?} {first}");
                    let terms = [then.abs() * (ceiling - 3) as f64]
                        .into_iter()
                        .chain(float_terms(config, &vs));
                    assert!(
                        float_sums_agree(mode, &float_seen(&got), &want, terms),
                        "{why}"
                    );
                }
            }
        }
    }
}

/// A batch of at least 16 values a counter, whose adds go untested for a full bucket where
/// the counts' OR plus the batch's length is at most the counter's maximum: one bucket
/// brought to that maximum less the length, less one (the tested adds, one record
/// saturated) and less none or two (untested; none saturated), then the whole batch into
/// it, on every path, `u32` and `u64` counters: each as its own records count.
#[test]
fn a_long_batch_fills_a_bucket_as_record_does() {
    let config = Config::new().with_relative_error(0.1).with_range(0, 1_000);
    let n = 16 * config.build::<u32>().unwrap().counts().len();
    let vs = vec![700u64; n];
    for less in [n as u64 - 1, n as u64, n as u64 + 2] {
        let saturated = u64::from(less < n as u64);
        let why = format!("{less} below full");
        assert_eq!(fill_by_batch::<u32>(config, less, &vs, &why), saturated);
        assert_eq!(fill_by_batch::<u64>(config, less, &vs, &why), saturated);
    }
}

/// A histogram of `C` counters with `values[0]`'s bucket `less` below full, then `values`
/// counted one by one and as one batch on every path: the same counts and saturated
/// count, which is returned.
fn fill_by_batch<C: Counter>(config: Config, less: u64, values: &[u64], why: &str) -> u64 {
    let mut want = config.build::<C>().unwrap();
    want.record_n(values[0], C::MAX.to_u64() - less);
    let start = want.clone();
    values.iter().for_each(|&v| want.record(v));
    for path in paths() {
        let mut got = start.clone();
        got.record_many_on(path, values);
        let why = format!("{} bytes, {why}, {path:?}", C::BYTES);
        assert_eq!(got.counts(), want.counts(), "{why}");
        assert_eq!(got.saturated_count(), want.saturated_count(), "{why}");
    }
    want.saturated_count()
}

/// Long batches (at least 16 values a counter, untested adds where no bucket can fill)
/// over random small layouts, fresh and with a bucket near full: bucket for bucket as
/// `record`, outside counts and extremes too.
#[test]
fn long_batches_count_what_record_counts() {
    let mut rng = SplitMix64(0x10_4E6);
    for _ in 0..24 {
        let min = rng.below(1 << 20);
        let config = Config::new()
            .with_relative_error([0.1, 0.05, 0.01][rng.below(3) as usize])
            .with_range(min, min + 1 + rng.below(1 << 24));
        let len = config.build::<u32>().unwrap().counts().len();
        let n = 16 * len + rng.below(300) as usize;
        let vs = values(&mut rng, &config, n);
        for near in [0, u64::from(u32::MAX) - vs.len() as u64 / 2] {
            let mut start = config.build::<u32>().unwrap().with_exact_extremes();
            start.record_n(vs[0], near);
            batch_as_records(&start, &vs, &format!("{config:?} {near}"));
        }
    }
}

/// [`a_long_batch_fills_a_bucket_as_record_does`] for the modes with one writer to a cell
/// (the single writer's cells, a thread's shard), whose batch also stores each add untested
/// where no cell can fill: dense and sparse, `u32` and `u64`, on every path.
#[test]
fn a_long_batch_fills_a_cell_as_record_does() {
    let config = Config::new().with_relative_error(0.1).with_range(0, 1_000);
    let n = 16 * config.build::<u32>().unwrap().counts().len();
    let vs = vec![700u64; n];
    for mode in [Mode::SingleWriter, Mode::ThreadLocal] {
        for storage in [Storage::Dense, Storage::Sparse] {
            for (bits, max) in [
                (CounterBits::U32, u64::from(u32::MAX)),
                (CounterBits::U64, u64::MAX),
            ] {
                for less in [n as u64 - 1, n as u64, n as u64 + 2] {
                    for path in paths() {
                        let why =
                            format!("{mode:?} {storage:?} {bits:?} {less} below full {path:?}");
                        let Some(want) = make(config, bits, mode, storage) else {
                            continue;
                        };
                        let got = make(config, bits, mode, storage).unwrap();
                        want.record_n(700, max - less);
                        got.record_n(700, max - less);
                        vs.iter().for_each(|&v| want.record(v));
                        got.record_many_on(path, &vs);
                        let (got, want) = (seen(&got), seen(&want));
                        assert_eq!(got, want, "{why}");
                        assert_eq!(got.1[2], u64::from(less < n as u64), "{why}");
                    }
                }
            }
        }
    }
}
