//! The floating-point histogram against exact order statistics and exact counts, on
//! signed, tiny (subnormal), huge and adversarial data, in both storages and both modes.
//! The contract (.NET's ExponentialHistogramAggregator, seed 002): a reported quantile Y' of
//! a true quantile Y satisfies Y(1−E) ≤ Y' ≤ Y(1+E) (|Y' − Y| ≤ E·|Y|), E the layout's
//! relative error; NaN and ±∞ never enter quantiles.

mod common;

use common::{exact_rank_count, SplitMix64};
use picollo::float::{FloatConfig, FloatHistogram, Mode, Side, Storage};
use picollo::{MergeError, ValueSelection, STANDARD_RANKS};

/// A named dataset of doubles (NaN and infinities included where the name says).
fn datasets() -> Vec<(&'static str, Vec<f64>)> {
    let mut rng = SplitMix64(2024);
    let mut unit = move || rng.next_f64();
    let mut sets = Vec::new();
    sets.push(("single", vec![3.5]));
    sets.push((
        "signed-normal",
        (0..20_000).map(|_| (unit() - 0.5) * 1e3).collect(),
    ));
    sets.push((
        "log-uniform-both-signs",
        (0..20_000)
            .map(|i| {
                let m = 10f64.powf(unit() * 600.0 - 300.0);
                if i % 3 == 0 {
                    -m
                } else {
                    m
                }
            })
            .collect(),
    ));
    sets.push((
        "subnormal",
        (0..5_000)
            .map(|i| {
                f64::from_bits(1 + (unit() * ((1u64 << 52) as f64)) as u64)
                    * if i % 2 == 0 { 1.0 } else { -1.0 }
            })
            .collect(),
    ));
    sets.push((
        "tiny-and-huge",
        vec![
            f64::from_bits(1),
            f64::from_bits(2),
            f64::from_bits(3),
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::MAX,
            -f64::MAX,
            1e-310,
            -1e-320,
            1e308,
        ],
    ));
    // Adversarial: values on bucket bounds and one below them, zeros of both signs, one
    // hot value, NaN and infinities.
    let layout = picollo::float::FloatLayout::clamped(0.01);
    let mut edges = Vec::new();
    for i in (40 << layout.scale())..(60 << layout.scale()) {
        let b = layout.bucket(i);
        edges.extend([b.lower, b.highest(), -b.lower, -b.highest()]);
    }
    edges.extend([
        0.0,
        -0.0,
        0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ]);
    edges.extend(std::iter::repeat_n(7.25, 5_000));
    sets.push(("adversarial", edges));
    sets
}

/// The values quantiles cover: finite ones (in the full range every finite double is in).
fn finite_sorted(values: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    // -0.0 and 0.0 are one value here.
    v.iter().map(|&x| if x == 0.0 { 0.0 } else { x }).collect()
}

fn configs() -> Vec<FloatConfig> {
    let mut out = Vec::new();
    for e in [0.1, 0.01, 0.001, 1e-5] {
        out.push(FloatConfig::new().with_relative_error(e));
    }
    out.push(
        FloatConfig::new()
            .with_relative_error(0.01)
            .with_mode(Mode::Interlocked),
    );
    out
}

#[test]
fn reported_quantiles_are_within_the_relative_error_of_the_true_ones() {
    for (name, values) in datasets() {
        let sorted = finite_sorted(&values);
        let n = sorted.len() as u64;
        for config in configs() {
            let h = FloatHistogram::<u64>::new(config).unwrap();
            for &x in &values {
                h.record(x);
            }
            let e = h.shape().layout().relative_error();
            let counts = h.counts().unwrap();
            assert_eq!(counts.total_count(), n, "{name}");
            assert_eq!(
                counts.nan_count(),
                values.iter().filter(|x| x.is_nan()).count() as u64
            );
            assert_eq!(
                counts.positive_infinity_count() + counts.negative_infinity_count(),
                values.iter().filter(|x| x.is_infinite()).count() as u64
            );
            for &rank in &STANDARD_RANKS {
                let k = exact_rank_count(rank, n);
                let y = sorted[(k - 1) as usize];
                let p = counts.percentile(rank).unwrap();
                let ctx = format!(
                    "{name} e={e} P{rank}: true {y:e}, reported {:e} {p:?}",
                    p.value
                );
                assert!((p.value - y).abs() <= e * y.abs() * (1.0 + 1e-12), "{ctx}");
                assert!(p.lowest <= y && y <= p.highest, "{ctx}");
                assert_eq!(p.rank_count, k, "{ctx}");
                assert!(p.value.signum() * y.signum() >= 0.0, "{ctx}");
                if y == 0.0 {
                    assert_eq!((p.value, p.side), (0.0, Some(Side::Zero)), "{ctx}");
                }
            }
            // The extremes are the recorded ones, exactly; the sum within an ulp-scale bound.
            assert_eq!(counts.min(), sorted.first().copied(), "{name}");
            assert_eq!(counts.max(), sorted.last().copied(), "{name}");
            let (exact, scale) = exact_sum(&sorted);
            assert!(
                (counts.sum() - exact).abs() <= 1e-9 * scale + f64::MIN_POSITIVE,
                "{name}: sum {} vs {exact}",
                counts.sum()
            );
        }
    }
}

/// A sum good to a few ulps of the largest partial (compensated over sorted magnitudes:
/// each addition's exact rounding error, by Knuth's two-sum, kept apart and added at the
/// end), and the scale to compare it at (the sum of magnitudes).
fn exact_sum(values: &[f64]) -> (f64, f64) {
    let mut by_magnitude = values.to_vec();
    by_magnitude.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let (mut sum, mut c, mut scale) = (0.0f64, 0.0f64, 0.0f64);
    for &x in &by_magnitude {
        let t = sum + x;
        let z = t - sum;
        c += (sum - (t - z)) + (x - z);
        sum = t;
        scale += x.abs();
    }
    (sum + c, scale.min(f64::MAX))
}

#[test]
fn ranks_take_values_to_lie_within_the_exact_extremes() {
    for sign in [1.0, -1.0] {
        let h = FloatHistogram::<u32>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
        for _ in 0..100 {
            h.record(sign);
        }
        let counts = h.counts().unwrap();
        // Every value is `sign`: at it, all of them; just below it, none.
        assert_eq!(counts.rank_of(sign).unwrap(), 100.0, "{sign}");
        assert_eq!(counts.quantile_of(sign).unwrap(), 1.0, "{sign}");
        // The next double below `sign` (a smaller magnitude for 1, a larger one for -1).
        let below = if sign > 0.0 {
            f64::from_bits(sign.to_bits() - 1)
        } else {
            f64::from_bits(sign.to_bits() + 1)
        };
        assert_eq!(counts.rank_of(below).unwrap(), 0.0, "{sign}");
    }
    // Two values in one bucket: the bucket's part between them holds both, spread evenly.
    let h = FloatHistogram::<u32>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
    let (a, b) = (1000.0, 1004.0);
    let layout = h.shape().layout();
    assert_eq!(layout.index(a), layout.index(b), "one bucket");
    h.record(a);
    h.record(b);
    let counts = h.counts().unwrap();
    assert_eq!(counts.rank_of(a - 0.5).unwrap(), 0.0);
    assert!((counts.rank_of(1002.0).unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(counts.rank_of(b).unwrap(), 2.0);
    // A delta has no extremes: its buckets count over their whole interval.
    let before = h.counts().unwrap();
    h.record(b);
    let delta = h.counts().unwrap().delta(&before).unwrap();
    let bucket = delta.buckets().next().unwrap();
    assert_eq!(delta.min(), None);
    let mid = bucket.lowest + (bucket.highest - bucket.lowest) / 2.0;
    assert!((delta.rank_of(mid).unwrap() - 0.5).abs() < 1e-9);
}

#[test]
fn ranks_of_values_and_counts_between_agree_with_exact_counts() {
    let mut rng = SplitMix64(7);
    let values: Vec<f64> = (0..10_000)
        .map(|_| (rng.next_f64() - 0.3) * 1e6)
        .chain([0.0, 0.0, -0.0])
        .collect();
    let sorted = finite_sorted(&values);
    let h = FloatHistogram::<u32>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
    h.record_many(&values);
    let counts = h.counts().unwrap();
    let below = |x: f64| sorted.partition_point(|&v| v < x) as f64;
    let at_or_below = |x: f64| sorted.partition_point(|&v| v <= x) as f64;
    for k in 0..200 {
        let x = (k as f64 / 200.0 - 0.3) * 1.1e6;
        let r = counts.rank_of(x).unwrap();
        // Within the counts of the bucket that holds x.
        let b = counts.buckets().find(|b| b.lowest <= x && x <= b.highest);
        let (lo, hi) = match b {
            Some(b) => (below(b.lowest), at_or_below(b.highest)),
            None => (at_or_below(x), at_or_below(x)),
        };
        assert!(
            lo <= r + 1e-6 && r <= hi + 1e-6,
            "x {x}: rank {r} not in [{lo}, {hi}]"
        );
        let q = counts.quantile_of(x).unwrap();
        assert!((q - r / sorted.len() as f64).abs() < 1e-12);
    }
    assert_eq!(counts.rank_of(f64::NEG_INFINITY).unwrap(), 0.0);
    assert_eq!(counts.rank_of(f64::INFINITY).unwrap(), sorted.len() as f64);
    assert!(counts.rank_of(f64::NAN).is_err());
    // Whole buckets between two values: at least the exact count, and exact on bounds.
    for (lo, hi) in [
        (-1e5, 1e5),
        (0.0, 0.0),
        (-3e5, -1e4),
        (5e5, 2e6),
        (1.0, 1.0),
    ] {
        let exact = sorted.iter().filter(|&&v| lo <= v && v <= hi).count() as u64;
        let n = counts.count_between(lo, hi).unwrap();
        assert!(n >= exact, "[{lo}, {hi}]: {n} < {exact}");
        let spanned: u64 = counts
            .buckets()
            .filter(|b| b.highest >= lo && b.lowest <= hi)
            .map(|b| b.count)
            .sum();
        assert_eq!(n, spanned);
    }
    assert_eq!(counts.count_between(0.0, 0.0).unwrap(), 3);
    assert!(counts.count_between(2.0, 1.0).is_err());
}

#[test]
fn dense_and_sparse_storage_agree_and_sparse_costs_what_the_data_touches() {
    let mut rng = SplitMix64(11);
    let values: Vec<f64> = (0..50_000)
        .map(|_| 1e-6 * (1.0 + 99.0 * rng.next_f64()))
        .collect();
    let range = FloatConfig::new()
        .with_relative_error(0.0001)
        .with_range(1e-12, 1e12);
    let dense = FloatHistogram::<u32>::new(range.with_storage(Storage::Dense)).unwrap();
    let sparse = FloatHistogram::<u32>::new(range.with_storage(Storage::Sparse)).unwrap();
    dense.record_many(&values);
    sparse.record_many(&values);
    let (d, s) = (dense.counts().unwrap(), sparse.counts().unwrap());
    assert_eq!(
        d.buckets().collect::<Vec<_>>(),
        s.buckets().collect::<Vec<_>>()
    );
    assert_eq!(d.summary(), s.summary());
    // 1e-6..1e-4 spans 7 octaves: the sparse histogram holds those blocks and its
    // directory; the dense one every bucket of 1e-12..1e12 on both signs.
    assert!(
        sparse.footprint_in_bytes() * 20 < dense.footprint_in_bytes(),
        "{} vs {}",
        sparse.footprint_in_bytes(),
        dense.footprint_in_bytes()
    );
}

#[test]
fn values_outside_the_magnitude_range_are_counted_apart() {
    let h = FloatHistogram::<u64>::new(FloatConfig::new().with_range(1e-3, 1e3)).unwrap();
    for x in [1e-4, -1e-4, 1e4, -1e9, 0.5, -0.5, 0.0, f64::MIN_POSITIVE] {
        h.record(x);
    }
    let c = h.counts().unwrap();
    assert_eq!((c.underflow_count(), c.overflow_count()), (3, 2));
    assert_eq!((c.total_count(), c.zero_count()), (3, 1));
    assert_eq!((c.min(), c.max()), (Some(-0.5), Some(0.5)));
    assert!(FloatConfig::new().with_range(0.0, 1.0).validate().is_err());
    assert!(FloatConfig::new().with_range(2.0, 1.0).validate().is_err());
    assert!(FloatConfig::new()
        .with_range(1.0, f64::INFINITY)
        .validate()
        .is_err());
    assert!(FloatConfig::new()
        .with_relative_error(f64::NAN)
        .validate()
        .is_err());
}

#[test]
fn interlocked_writers_lose_nothing() {
    let h = FloatHistogram::<u64>::new(FloatConfig::new().with_mode(Mode::Interlocked)).unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            let h = &h;
            s.spawn(move || {
                for i in 0..50_000 {
                    h.record(((i % 1000) as f64 - 500.0) * (t + 1) as f64);
                }
            });
        }
    });
    let c = h.counts().unwrap();
    assert_eq!(c.total_count(), 200_000);
    assert_eq!(c.zero_count(), 4 * 50);
    assert_eq!((c.min(), c.max()), (Some(-2000.0), Some(1996.0)));
    // Each thread's values sum to -500·50·(t+1): -250,000 in all.
    assert!((c.sum() - -250_000.0).abs() < 1e-6, "{}", c.sum());
}

#[test]
fn merges_snapshots_and_deltas() {
    let a = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
    let b = FloatHistogram::<u32>::new(
        FloatConfig::new()
            .with_relative_error(0.01)
            .with_range(1.0, 100.0),
    )
    .unwrap();
    for x in [-5.0, 0.0, 2.0, 3.0, 1e6, f64::NAN] {
        a.record(x);
    }
    b.add(&a).unwrap();
    let c = b.counts().unwrap();
    // 1e6 lands above b's range (magnitudes 1..100, both signs); zero, NaN, the sum and
    // extremes carry over.
    assert_eq!(
        (c.total_count(), c.underflow_count(), c.overflow_count()),
        (4, 0, 1)
    );
    assert_eq!((c.nan_count(), c.zero_count()), (1, 1));
    assert_eq!((c.min(), c.max(), c.sum()), (Some(-5.0), Some(1e6), 1e6));
    let other = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.1)).unwrap();
    assert!(b.add(&other).is_err());
    // Snapshots and deltas.
    let before = a.counts().unwrap();
    a.record(2.0);
    a.record(-7.0);
    let after = a.counts().unwrap();
    let d = after.delta(&before).unwrap();
    assert_eq!(d.total_count(), 2);
    assert_eq!(d.sum(), -5.0);
    assert_eq!(d.min(), None);
    assert!(before.delta(&after).is_err());
    a.reset();
    let fresh = a.counts().unwrap();
    assert_eq!(fresh.total_count(), 0);
    assert_eq!(fresh.min(), None);
    // After a reset, a delta is the counts since it.
    a.record(1.0);
    assert_eq!(a.counts().unwrap().delta(&after).unwrap().total_count(), 1);
}

#[test]
fn value_selections_report_the_bucket_bounds() {
    let h = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.1)).unwrap();
    h.record(-3.3);
    h.record(5.5);
    for (selection, check) in [
        (ValueSelection::Lower, 0),
        (ValueSelection::Upper, 1),
        (ValueSelection::Midpoint, 2),
        (ValueSelection::Interpolated, 2),
    ] {
        h.set_value_selection(selection);
        let c = h.counts().unwrap();
        for rank in [0.0, 100.0] {
            let p = c.percentile(rank).unwrap();
            let expected = match check {
                0 => p.lowest,
                1 => p.highest,
                _ => p.value,
            };
            assert_eq!(p.value, expected, "{selection:?}");
            assert!(p.lowest <= p.value && p.value <= p.highest);
        }
    }
}

#[test]
fn f32_values_and_the_reports() {
    let h = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.001)).unwrap();
    for x in [1.5f32, -2.25, f32::MIN_POSITIVE, f32::MAX, f32::NAN, 0.0] {
        h.record_f32(x);
    }
    let c = h.counts().unwrap();
    assert_eq!(c.max(), Some(f64::from(f32::MAX)));
    assert_eq!(c.nan_count(), 1);
    let s = c.summary();
    let table = s.to_string();
    assert!(
        table.starts_with("##### Histogram summary\n| Percentile |"),
        "{table}"
    );
    assert!(table.contains("| NaN "), "{table}");
    assert!(table.contains("| Min:"), "{table}");
    let mut line = String::new();
    s.write_line(&mut line, "f32").unwrap();
    assert!(line.starts_with("f32: Total=5, Mean="), "{line}");
    assert!(line.contains("NaN=1"), "{line}");
    let mut diff = String::new();
    s.write_diff(&s, &mut diff, "Same", "A", "B").unwrap();
    assert!(diff.contains("| D-value:"), "{diff}");
}

#[test]
fn downsampling_is_recording_at_the_coarser_precision() {
    // Inside the range (values the fine histogram counted as underflow or overflow stay
    // so, even where the coarser edge buckets reach a little further), and specials.
    let mut values = SplitMix64(4242).signed_log_uniform(20_000, (-11.0, 11.0), 3);
    values.extend([0.0, -0.0, f64::NAN, f64::INFINITY, 1e-30, 1e30]);
    for storage in [Storage::Dense, Storage::Sparse] {
        let config = FloatConfig::new()
            .with_range(1e-12, 1e12)
            .with_storage(storage)
            .with_value_selection(ValueSelection::Upper);
        let fine = FloatHistogram::<u32>::new(config.with_relative_error(0.0005)).unwrap();
        fine.record_many(&values);
        for e in [0.0005, 0.001, 0.02, 0.1] {
            let coarse = fine.downsample(e).unwrap();
            let direct = FloatHistogram::<u64>::new(config.with_relative_error(e)).unwrap();
            direct.record_many(&values);
            assert_eq!(coarse.shape().layout(), direct.shape().layout(), "e {e}");
            assert_eq!(coarse.shape().range(), direct.shape().range(), "e {e}");
            assert_eq!(coarse.shape().config().storage(), storage);
            assert_eq!(coarse.value_selection(), ValueSelection::Upper);
            let (a, b) = (coarse.counts().unwrap(), direct.counts().unwrap());
            assert!(a.buckets().eq(b.buckets()), "{storage:?} e {e}");
            let specials = |c: &picollo::float::FloatCounts| {
                (
                    c.zero_count(),
                    c.nan_count(),
                    c.positive_infinity_count(),
                    c.underflow_count(),
                    c.overflow_count(),
                    c.min(),
                    c.max(),
                )
            };
            assert_eq!(specials(&a), specials(&b), "{storage:?} e {e}");
            assert!((a.sum() - b.sum()).abs() <= 1e-12 * b.sum().abs().max(1.0));
        }
        // A finer precision is a layout mismatch; none at all, an invalid relative error
        // (the rule of every config).
        assert!(matches!(
            fine.downsample(0.0001),
            Err(MergeError::LayoutMismatch { .. })
        ));
        for e in [f64::NAN, -0.01, 0.0, f64::INFINITY] {
            let refused = fine.downsample(e).unwrap_err();
            assert!(
                matches!(refused, MergeError::InvalidRelativeError(_)),
                "{e}"
            );
            assert!(refused
                .to_string()
                .contains("must be a finite number above 0"));
        }
    }
}

#[test]
fn rebinning_into_a_coarser_layout_is_recording_there() {
    let mut values = SplitMix64(99).signed_log_uniform(20_000, (-20.0, 20.0), 4);
    values.extend([0.0, f64::NAN]);
    let fine = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.0001)).unwrap();
    fine.record_many(&values);
    for e in [0.001, 0.01, 0.1] {
        let coarse = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(e)).unwrap();
        coarse.add_rebinned(&fine).unwrap();
        let direct = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(e)).unwrap();
        direct.record_many(&values);
        let (a, b) = (coarse.counts().unwrap(), direct.counts().unwrap());
        assert!(a.buckets().eq(b.buckets()), "e {e}");
        assert_eq!(
            (a.nan_count(), a.zero_count(), a.min(), a.max()),
            (1, 1, b.min(), b.max())
        );
        assert!((a.sum() - b.sum()).abs() <= 1e-9 * b.sum().abs().max(1.0));
    }
    // Into a finer layout, counts stay inside their source buckets.
    let coarse = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
    coarse.record_many(&values);
    let refined =
        FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.0001)).unwrap();
    refined.add_rebinned(&coarse).unwrap();
    let (c, r) = (coarse.counts().unwrap(), refined.counts().unwrap());
    assert_eq!(c.total_count(), r.total_count());
    for rank in [1.0, 50.0, 99.0] {
        let (a, b) = (c.percentile(rank).unwrap(), r.percentile(rank).unwrap());
        assert!(
            a.lowest <= b.lowest && b.highest <= a.highest,
            "P{rank}: {a:?} {b:?}"
        );
    }
}

#[test]
fn sums_near_the_largest_double_overflow_only_when_the_true_sum_does() {
    let huge = [1e308, -1.05e308, 1e308, -1.05e308];
    for mode in [Mode::SingleWriter, Mode::Interlocked] {
        for storage in [Storage::Dense, Storage::Sparse] {
            let h = FloatHistogram::<u64>::new(
                FloatConfig::new().with_mode(mode).with_storage(storage),
            )
            .unwrap();
            // In any order, the partial sums may pass f64::MAX; the true sum is -1e307.
            let mut rng = SplitMix64(7);
            for round in 0..200 {
                h.reset();
                let mut values = huge.to_vec();
                for i in (1..values.len()).rev() {
                    values.swap(i, rng.below(i as u64 + 1) as usize);
                }
                values.push(f64::MAX);
                values.push(-f64::MAX);
                for &x in &values {
                    h.record(x);
                }
                let c = h.counts().unwrap();
                // Within a few rounding units of the magnitudes summed (7.7e308), as any
                // running sum that did not overflow would be.
                let (want, slack) = (-1e307, 4.0 * f64::EPSILON * 1e308 * 7.7);
                assert!(
                    (c.sum() - want).abs() <= slack,
                    "{mode:?} {storage:?} round {round} {values:?}: sum {:e}",
                    c.sum()
                );
                assert!((c.mean() - want / 6.0).abs() <= slack / 6.0);
            }
            // Beyond f64::MAX the sum is +∞ and the mean is still right.
            h.reset();
            h.record_n(1e308, 4);
            h.record(-1e308);
            let c = h.counts().unwrap();
            assert_eq!(c.sum(), f64::INFINITY, "{mode:?}");
            assert!((c.mean() - 0.6e308).abs() <= 1e294, "{}", c.mean());
            // ... and cancels back.
            h.record_n(-1e308, 3);
            assert!(h.counts().unwrap().sum().abs() <= 1e294, "{mode:?}");
            // Merging carries the part beyond a double.
            h.record_n(1e308, 5);
            let into = FloatHistogram::<u32>::new(FloatConfig::new()).unwrap();
            into.add(&h).unwrap();
            into.record_n(-1e308, 4);
            let m = into.counts().unwrap().sum();
            assert!((m - 1e308).abs() <= 1e294, "{mode:?}: merged {m}");
        }
    }
}

#[test]
fn stdev_of_magnitudes_near_the_largest_double() {
    for (values, want) in [
        (vec![1e200, 2e200], 5e199),
        (vec![f64::MAX, -f64::MAX], f64::MAX),
        (vec![1e-300, 3e-300], 1e-300),
        (vec![1e-310, 3e-310], 1e-310),
        (vec![1e-300, 1e-300, 1e-300, 1e-300], 0.0),
    ] {
        let h = FloatHistogram::<u64>::new(FloatConfig::new()).unwrap();
        for &x in &values {
            h.record(x);
        }
        let s = h.counts().unwrap().stdev();
        assert!(
            (s - want).abs() <= 2e-3 * want + 1e-3 * values[0],
            "{values:?}: stdev {s}, want {want}"
        );
    }
}

#[test]
fn an_interval_dwarfed_by_earlier_values_keeps_its_sum() {
    for mode in [Mode::SingleWriter, Mode::Interlocked] {
        let h = FloatHistogram::<u64>::new(FloatConfig::new().with_mode(mode)).unwrap();
        h.record(1e300);
        let before = h.counts().unwrap();
        h.record(5.0);
        h.record(-2.0);
        let d = h.counts().unwrap().delta(&before).unwrap();
        assert_eq!(d.total_count(), 2);
        assert!((d.sum() - 3.0).abs() <= 7e-3, "{mode:?}: {}", d.sum());
        assert!((d.mean() - 1.5).abs() <= 4e-3, "{mode:?}: {}", d.mean());
        // An ordinary interval keeps the difference of the running sums.
        let h2 = FloatHistogram::<u64>::new(FloatConfig::new().with_mode(mode)).unwrap();
        h2.record(1000.0);
        let b2 = h2.counts().unwrap();
        h2.record(0.1);
        h2.record(0.2);
        let d2 = h2.counts().unwrap().delta(&b2).unwrap();
        // (The midpoints would be 1e-4 off.)
        assert!((d2.sum() - 0.3).abs() < 1e-12, "{mode:?}: {}", d2.sum());
    }
}

/// The correctly rounded sum of `values` (Shewchuk's exact partials with the final
/// round-half-even step, as Python's `math.fsum`), for sums whose partials stay finite.
fn fsum(values: &[f64]) -> f64 {
    let mut partials: Vec<f64> = Vec::new();
    for &v in values {
        let mut x = v;
        let mut kept = 0;
        for k in 0..partials.len() {
            let mut y = partials[k];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        partials.push(x);
    }
    let Some(mut hi) = partials.pop() else {
        return 0.0;
    };
    let mut lo = 0.0;
    while let Some(y) = partials.pop() {
        let x = hi;
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    if let Some(&next) = partials.last() {
        if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
    }
    hi
}

#[test]
fn the_reference_sum_rounds_correctly() {
    assert_eq!(fsum(&[1e100, 1.0, -1e100, 1e-100]), 1.0 + 1e-100);
    assert_eq!(fsum(&[2f64.powi(53), 1.0]), 2f64.powi(53));
    assert_eq!(fsum(&[2f64.powi(53), 1.0, 1e-300]), 2f64.powi(53) + 2.0);
    assert_eq!(fsum(&[0.1; 10]), 1.0);
}

#[test]
fn single_writer_sums_are_exact_sums_rounded_once() {
    let mut rng = SplitMix64(99);
    let mut sets = datasets();
    // Cancellation a running double sum cannot survive, carries within one exponent, and
    // a spread of magnitudes where each small term alone rounds away.
    sets.push((
        "cancelling",
        (0..3_000)
            .flat_map(|i| [1e300, f64::from(i) * 1e-3, -1e300])
            .collect(),
    ));
    sets.push(("one-exponent-carries", vec![1.9999999999999998; 5_000]));
    sets.push((
        "small-beside-large",
        std::iter::once(1e16)
            .chain((0..4_096).map(|_| 0.25 + rng.next_f64() * 0.5))
            .collect(),
    ));
    for storage in [Storage::Dense, Storage::Sparse] {
        for (name, values) in &sets {
            let in_buckets: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
            if !in_buckets.iter().map(|x| x.abs()).sum::<f64>().is_finite() {
                // Beyond a double: the overflow tests cover these.
                continue;
            }
            let h = FloatHistogram::<u64>::new(
                FloatConfig::new()
                    .with_relative_error(0.01)
                    .with_storage(storage),
            )
            .unwrap();
            h.record_many(values);
            let c = h.counts().unwrap();
            assert_eq!(c.sum(), fsum(&in_buckets), "{name} {storage:?}");
            let mean = c.mean();
            assert!(
                (mean - fsum(&in_buckets) / in_buckets.len() as f64).abs() <= mean.abs() * 1e-15,
                "{name}: mean {mean}"
            );
        }
    }
}

#[test]
fn a_reader_never_sees_a_sum_torn_by_a_carry() {
    // 1.0 adds 2^52 units to its exponent: a carry every 2,048 records. A reader pairing
    // a carried low word with the old high word (or the reverse) would see the sum jump
    // by 2,048 against the count.
    let h = FloatHistogram::<u64>::new(
        FloatConfig::new()
            .with_relative_error(0.01)
            .with_range(0.5, 4.0),
    )
    .unwrap();
    let n = if cfg!(miri) { 5_000 } else { 2_000_000 };
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..n {
                h.record(1.0);
            }
        });
        // Each copy takes the counts before the sum, and a record counts before it adds to
        // the sum: a sum lies between its own copy's count less the one record in flight
        // and the next copy's count.
        let mut last = 0.0;
        while last < n as f64 {
            let c = h.counts().unwrap();
            let (sum, count) = (c.sum(), c.total_count() as f64);
            assert!(
                last <= count && count <= sum + 1.0 && sum <= n as f64,
                "sum {sum} with count {count}; the copy before summed {last}"
            );
            last = sum;
        }
    });
}

#[test]
fn equivalent_ranges_are_the_buckets_of_values() {
    let shape = FloatConfig::new()
        .with_relative_error(0.01)
        .with_range(1e-6, 1e6)
        .validate()
        .unwrap();
    let layout = shape.layout();
    let mut rng = SplitMix64(17);
    for i in 0..5_000 {
        let m = 10f64.powf(rng.next_f64() * 11.8 - 5.9);
        let x = if i % 2 == 0 { m } else { -m };
        let (lo, hi) = shape.equivalent_range(x).unwrap();
        assert!(lo <= x && x <= hi, "{x}: [{lo}, {hi}]");
        // Both ends share x's bucket; the doubles just outside do not.
        let bucket = |v: f64| (v < 0.0, layout.index(v.abs()));
        assert_eq!(bucket(lo), bucket(x), "{x}");
        assert_eq!(bucket(hi), bucket(x), "{x}");
        let (below, above) = (lo - lo.abs() * 1e-15, hi + hi.abs() * 1e-15);
        assert_ne!(bucket(below), bucket(x), "{x}: {below}");
        assert_ne!(bucket(above), bucket(x), "{x}: {above}");
    }
    assert_eq!(shape.equivalent_range(0.0), Some((0.0, 0.0)));
    assert_eq!(shape.equivalent_range(-0.0), Some((0.0, 0.0)));
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-9, -1e9] {
        assert_eq!(shape.equivalent_range(x), None, "{x}");
    }
}

#[test]
fn a_float_histogram_takes_the_single_writer_or_interlocked_mode_of_the_one_mode_enum() {
    use picollo::concurrent::ApproxPolicy;
    use picollo::ConfigError;
    for mode in [Mode::SingleWriter, Mode::Interlocked] {
        let h = FloatHistogram::<u64>::new(FloatConfig::new().with_mode(mode)).unwrap();
        assert_eq!(h.mode(), mode);
    }
    for mode in [Mode::ThreadLocal, Mode::Approximate(ApproxPolicy::new())] {
        let e = FloatConfig::new().with_mode(mode).validate().unwrap_err();
        assert_eq!(e, ConfigError::FloatMode, "{mode:?}");
        assert!(
            e.to_string().contains("single-writer or interlocked"),
            "{e}"
        );
    }
    // One storage enum for both kinds, each kind with its own default: dense for integers
    // (the enum's), sparse for doubles (the float config's).
    assert_eq!(FloatConfig::new().storage(), Storage::Sparse);
    assert_eq!(Storage::default(), Storage::Dense);
    assert_eq!(
        picollo::float::Storage::Dense,
        picollo::concurrent::Storage::Dense
    );
}
