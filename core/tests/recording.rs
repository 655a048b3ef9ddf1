//! Recording: `record`, `record_n`, `record_corrected`, `reset`, and the underflow, overflow
//! and saturated counts. Recording never fails and never loses a count silently.

mod common;

use common::SplitMix64;
use picollo::{Config, Counter, Histogram};

type H32 = Histogram<u32, Vec<u32>>;
type H64 = Histogram<u64, Vec<u64>>;
type Exact32 = Histogram<u32, Vec<u32>, true>;

fn seed_range() -> H32 {
    common::seed_config().build().unwrap()
}

#[test]
fn values_outside_the_range_go_to_underflow_and_overflow() {
    let mut h = seed_range();
    let first = h.view().bucket(0).unwrap();
    let last = h.view().bucket(h.counts().len() - 1).unwrap();
    // The range is kept to bucket resolution: [9,984, 30,208) for 10,000..30,000.
    assert_eq!((first.lower, last.highest), (9_984, 30_207));
    for v in [0, 1, 9_983] {
        h.record(v);
    }
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.total_count()),
        (3, 0, 0)
    );
    for v in [30_208, 40_000, u64::MAX - 1, u64::MAX] {
        h.record(v);
    }
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.total_count()),
        (3, 4, 0)
    );
    // Values in the end buckets count as inside, even a little beyond min and max.
    for v in [9_984, 9_999, 10_000, 30_000, 30_207] {
        h.record(v);
    }
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.total_count()),
        (3, 4, 5)
    );
    assert_eq!(h.counts()[0], 3);
    assert_eq!(*h.counts().last().unwrap(), 2);
    // The same through record_n.
    h.record_n(9_983, 10);
    h.record_n(30_208, 20);
    h.record_n(20_000, 30);
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.total_count()),
        (13, 24, 35)
    );
    let s = h.view().summary();
    assert_eq!((s.underflow, s.overflow, s.total), (13, 24, 35));
}

#[test]
fn a_full_range_histogram_never_under_or_overflows() {
    let mut h: H32 = Config::new().build().unwrap();
    for v in [0, 1, u64::MAX, u64::MAX / 2, 1 << 63] {
        h.record(v);
    }
    h.record_n(u64::MAX, 3);
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.total_count()),
        (0, 0, 8)
    );
}

#[test]
fn record_equals_record_n_of_one_and_lands_in_the_layouts_bucket() {
    let mut rng = SplitMix64(21);
    let config = Config::new()
        .with_relative_error(0.002)
        .with_range(500, 1 << 50);
    let mut a: H64 = config.build().unwrap();
    let mut b: H64 = config.build().unwrap();
    let mut model = vec![0u64; config.storage_len()];
    let (mut under, mut over) = (0, 0);
    let layout = config.layout();
    let first = layout.index(500);
    for _ in 0..50_000 {
        let v = rng.any_magnitude();
        a.record(v);
        b.record_n(v, 1);
        match layout.index(v).checked_sub(first) {
            None => under += 1,
            Some(o) if o >= model.len() => over += 1,
            Some(o) => model[o] += 1,
        }
    }
    assert_eq!(a.counts(), &model[..]);
    assert_eq!(b.counts(), &model[..]);
    assert_eq!((a.underflow_count(), a.overflow_count()), (under, over));
    assert_eq!((b.underflow_count(), b.overflow_count()), (under, over));
}

#[test]
fn record_n_of_zero_changes_nothing() {
    let mut h = seed_range();
    for v in [0, 20_000, u64::MAX] {
        h.record_n(v, 0);
    }
    assert!(h.counts().iter().all(|&c| c == 0));
    assert_eq!(
        (h.underflow_count(), h.overflow_count(), h.saturated_count()),
        (0, 0, 0)
    );
    h.record_n(20_000, 5);
    h.record_n(20_000, 0);
    assert_eq!(h.total_count(), 5);
}

#[test]
fn record_n_saturates_a_u32_bucket_and_keeps_the_excess() {
    let mut h = seed_range();
    h.record_n(20_000, u32::MAX as u64 - 1);
    assert_eq!(h.saturated_count(), 0);
    h.record_n(20_000, 3);
    let i = h.layout().index(20_000) - h.view().first_index();
    assert_eq!(h.counts()[i], u32::MAX);
    assert_eq!(h.saturated_count(), 2);
    h.record_n(20_000, u64::MAX);
    assert_eq!(h.counts()[i], u32::MAX);
    assert_eq!(
        h.saturated_count(),
        u64::MAX,
        "the saturated count saturates too"
    );
    assert_eq!(h.total_count(), u32::MAX as u64);
    // Nothing leaks into the neighbours or the outside counts.
    assert_eq!(h.counts().iter().filter(|&&c| c != 0).count(), 1);
    assert_eq!((h.underflow_count(), h.overflow_count()), (0, 0));
    // The summary and the one-line report show it.
    let s = h.view().summary();
    assert_eq!(s.saturated, u64::MAX);
    let mut line = String::new();
    s.write_line(&mut line, "h").unwrap();
    assert!(
        line.contains(", Saturated=18,446,744,073,709,551,615,"),
        "{line}"
    );
}

#[test]
fn a_record_into_a_full_u32_bucket_keeps_it_full_and_counts_one_saturated() {
    let mut h = seed_range();
    h.record_n(20_000, u32::MAX as u64 - 1);
    let i = h.layout().index(20_000) - h.view().first_index();
    h.record(20_000);
    assert_eq!((h.counts()[i], h.saturated_count()), (u32::MAX, 0));
    // The add wraps the full bucket to zero; the record puts it back and counts it.
    h.record(20_000);
    h.record(20_000);
    assert_eq!((h.counts()[i], h.saturated_count()), (u32::MAX, 2));
    assert_eq!(h.total_count(), u32::MAX as u64);
    assert_eq!(h.counts().iter().filter(|&&c| c != 0).count(), 1);
}

#[test]
fn record_n_on_u64_counters_saturates_only_at_u64_max() {
    let mut h: H64 = common::seed_config().build().unwrap();
    h.record_n(20_000, u32::MAX as u64 + 10);
    assert_eq!(
        (h.total_count(), h.saturated_count()),
        (u32::MAX as u64 + 10, 0)
    );
    h.record_n(20_000, u64::MAX);
    assert_eq!(h.total_count(), u64::MAX);
    assert_eq!(h.saturated_count(), u32::MAX as u64 + 10);
    // Outside counts saturate instead of wrapping.
    h.record_n(0, u64::MAX);
    h.record_n(0, 1);
    h.record_n(u64::MAX, u64::MAX);
    h.record_n(u64::MAX, 7);
    assert_eq!(
        (h.underflow_count(), h.overflow_count()),
        (u64::MAX, u64::MAX)
    );
}

/// `record` is one plain add: a u32 bucket wraps after 2^32 records, as documented on
/// [`Counter`]. (`record_n` brings the bucket near the top so the test stays fast.)
#[test]
fn record_saturates_a_full_u32_bucket() {
    let mut h = seed_range();
    h.record_n(20_000, u32::MAX as u64);
    h.record(20_000);
    assert_eq!(h.total_count(), u32::MAX as u64);
    assert_eq!(h.saturated_count(), 1);
    // The counter's own increment still wraps: the histogram checks before it adds.
    assert_eq!(u32::MAX.increment(), 0);
    assert_eq!(u64::MAX.increment(), 0);
}

/// HdrHistogram's coordinated-omission correction, one value at a time.
fn record_corrected_naively<C: Counter>(h: &mut Histogram<C, Vec<C>>, v: u64, interval: u64) {
    h.record(v);
    if interval == 0 {
        return;
    }
    let mut missing = match v.checked_sub(interval) {
        Some(m) => m,
        None => return,
    };
    while missing >= interval {
        h.record(missing);
        missing -= interval;
    }
}

#[test]
fn record_corrected_matches_the_naive_loop() {
    let mut rng = SplitMix64(31);
    let configs = [
        Config::new().with_relative_error(0.01),
        Config::new()
            .with_relative_error(0.01)
            .with_range(1_000, 50_000),
        Config::new().with_relative_error(0.1).with_range(37, 38),
        Config::new().with_relative_error(0.001).with_range(0, 999),
        Config::new()
            .with_relative_error(0.05)
            .with_range(70_000, u64::MAX),
    ];
    let mut pairs: Vec<(u64, u64)> = vec![
        (0, 0),
        (0, 5),
        (5, 0),
        (100, 0),
        (100, 100),
        (100, 101),
        (100, 50),
        (199, 100),
        (200, 100),
        (201, 100),
        (99_999, 7),
        (1_000_000, 1_000),
        (1_000_000, 999),
        (64_000, 64),
        (u64::MAX, u64::MAX / 3),
        (u64::MAX, u64::MAX / 2),
        (u64::MAX, u64::MAX),
        (u64::MAX, 1 << 50),
    ];
    for _ in 0..300 {
        let interval = 1 + rng.below(5_000);
        let v = interval * rng.below(2_000) + rng.below(interval);
        pairs.push((v, interval));
        pairs.push((rng.any_magnitude(), rng.any_magnitude()));
    }
    for config in configs {
        for &(v, interval) in &pairs {
            if interval != 0 && v / interval > 200_000 {
                continue; // too many for the naive loop
            }
            let mut fast: H32 = config.build().unwrap();
            let mut slow: H32 = config.build().unwrap();
            // Some earlier content, so the correction adds rather than sets.
            fast.record_n(v / 2, 3);
            slow.record_n(v / 2, 3);
            fast.record_corrected(v, interval);
            record_corrected_naively(&mut slow, v, interval);
            let what = format!("{config:?} v={v} interval={interval}");
            assert_eq!(fast.counts(), slow.counts(), "{what}");
            assert_eq!(fast.underflow_count(), slow.underflow_count(), "{what}");
            assert_eq!(fast.overflow_count(), slow.overflow_count(), "{what}");
            assert_eq!(fast.saturated_count(), slow.saturated_count(), "{what}");
        }
    }
}

/// Number of `x ≡ v (mod i)` in `[lo, hi]`.
fn progression_hits(v: u64, i: u64, lo: u64, hi: u64) -> u64 {
    if lo > hi {
        return 0;
    }
    let r = (v % i) as u128;
    let (lo, hi, i) = (lo as u128, hi as u128, i as u128);
    let first = if lo <= r {
        r
    } else {
        lo + (i - (lo - r) % i) % i
    };
    if first > hi {
        0
    } else {
        ((hi - first) / i + 1) as u64
    }
}

/// 2^64 missing values must not take 2^64 steps: the correction works bucket by bucket.
#[test]
fn record_corrected_of_a_huge_value_with_a_tiny_interval_is_exact() {
    // Interval 1 from u64::MAX: every value 1..=u64::MAX once, so each bucket holds its
    // width (bucket 0, the value 0, holds nothing).
    let mut h: H64 = Config::new().with_relative_error(0.01).build().unwrap();
    h.record_corrected(u64::MAX, 1);
    let layout = h.layout();
    for (i, &c) in h.counts().iter().enumerate() {
        let b = layout.bucket(i).unwrap();
        let expected = if i == 0 { 0 } else { b.width() };
        assert_eq!(c, expected, "bucket {i} {b:?}");
    }
    assert_eq!(h.saturated_count(), 0);
    // With u32 counters, wide buckets saturate and the excess is kept.
    let mut h: H32 = Config::new().with_relative_error(0.01).build().unwrap();
    h.record_corrected(u64::MAX, 1);
    let kept: u128 = h.counts().iter().map(|&c| c as u128).sum();
    assert_eq!(kept + h.saturated_count() as u128, u64::MAX as u128);
    assert!(h.saturated_count() > 0);

    // A range cuts the progression into underflow, buckets and overflow.
    for (v, i) in [
        (1_000_000_000_000_000_000, 3),
        (u64::MAX - 5, 1_001),
        (1 << 40, 1),
    ] {
        let config = Config::new()
            .with_relative_error(0.01)
            .with_range(1_000, 1_000_000);
        let mut h: H64 = config.build().unwrap();
        h.record_corrected(v, i);
        let first = h.view().bucket(0).unwrap().lower;
        let last = h.view().bucket(h.counts().len() - 1).unwrap().highest;
        let below = progression_hits(v, i, i, first - 1);
        let above = progression_hits(v, i, last + 1, v);
        assert_eq!(h.underflow_count(), below, "v={v} i={i}");
        assert_eq!(h.overflow_count(), above, "v={v} i={i}");
        for (k, &c) in h.counts().iter().enumerate() {
            let b = h.view().bucket(k).unwrap();
            let expected = progression_hits(v, i, b.lower.max(i), b.highest);
            assert_eq!(c, expected, "v={v} i={i} bucket {b:?}");
        }
        let total = h.total_count() + h.underflow_count() + h.overflow_count();
        assert_eq!(total, v / i, "v itself plus v/i − 1 missing values");
    }
}

#[test]
fn reset_clears_everything() {
    let mut h = seed_range();
    h.record(20_000);
    h.record(0);
    h.record(u64::MAX);
    h.record_n(21_000, u64::MAX);
    h.record_corrected(29_000, 1_000);
    assert_eq!(h.reset_count(), 0);
    h.reset();
    assert!(h.counts().iter().all(|&c| c == 0));
    assert_eq!(
        (
            h.total_count(),
            h.underflow_count(),
            h.overflow_count(),
            h.saturated_count()
        ),
        (0, 0, 0, 0)
    );
    assert_eq!(h.reset_count(), 1);
    let s = h.view().summary();
    assert_eq!(
        (s.total, s.underflow, s.overflow, s.saturated),
        (0, 0, 0, 0)
    );
    // The configuration survives a reset, as it was given; the layout reports the
    // effective relative error, 0.5 / block_size.
    let config = h.config();
    assert_eq!(config, common::seed_config());
    assert_eq!(config.validate(), common::seed_config().validate());
    assert_eq!(h.layout().relative_error(), 0.0078125);
    assert_eq!(
        (config.min_trackable(), config.max_trackable()),
        (10_000, 30_000)
    );
    assert_eq!(config.relative_error(), 0.01);
    h.record(24_900);
    assert_eq!(h.view().percentile_value(50.0), Ok(24_960));
    h.reset();
    assert_eq!(h.reset_count(), 2);
}

#[test]
fn exact_extremes_follow_every_record_in_the_range_and_only_when_asked() {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(1_000, 1_000_000);
    let mut plain: H32 = Histogram::new(config).unwrap();
    let mut exact: Exact32 = Histogram::new(config).unwrap().with_exact_extremes();
    assert!(!plain.tracks_extremes() && exact.tracks_extremes());
    assert_eq!(exact.exact_extremes(), None);

    let mut rng = SplitMix64(7);
    let (mut lo, mut hi) = (u64::MAX, 0);
    for i in 0..20_000u64 {
        let v = 1_000 + rng.below(999_000);
        match i % 3 {
            0 => exact.record(v),
            1 => exact.record_n(v, 2),
            _ => exact.record_corrected(v, 0),
        }
        plain.record(v);
        (lo, hi) = (lo.min(v), hi.max(v));
    }
    // Outside the range, and n = 0: not recorded in the range, so not extremes.
    exact.record(5);
    exact.record(u64::MAX);
    exact.record_n(1_000, 0);
    assert_eq!(exact.exact_extremes(), Some((lo, hi)));
    assert_eq!(plain.exact_extremes(), None);
    // Bucket bounds differ from the exact values (1 % buckets are wide here).
    let view = exact.view();
    assert!(view.min_recorded().unwrap() <= lo && view.max_recorded().unwrap() >= hi);

    // A histogram's exact extremes merge as they are; a view's as its bucket bounds.
    let mut merged: Exact32 = Histogram::new(config).unwrap().with_exact_extremes();
    merged.add_histogram(&exact).unwrap();
    assert_eq!(merged.exact_extremes(), Some((lo, hi)));
    let mut wider: Exact32 = Histogram::new(config).unwrap().with_exact_extremes();
    wider.record(500_000);
    wider.add(&plain.view()).unwrap();
    let (vlo, vhi) = (plain.view().min_recorded(), plain.view().max_recorded());
    assert_eq!(wider.exact_extremes(), Some((vlo.unwrap(), vhi.unwrap())));
    wider.add_histogram(&exact).unwrap();
    assert_eq!(
        wider.exact_extremes(),
        Some((vlo.unwrap(), vhi.unwrap().max(hi)))
    );
    assert_eq!(
        wider.total_count(),
        plain.total_count() + exact.total_count() + 1
    );

    // A source's extremes outside this range are not taken.
    let narrow = Config::new()
        .with_relative_error(0.01)
        .with_range(2_000, 3_000);
    let mut small: Exact32 = Histogram::new(narrow).unwrap().with_exact_extremes();
    small.add_histogram(&exact).unwrap();
    let bounds = (small.view().min_recorded(), small.view().max_recorded());
    assert_eq!(
        small.exact_extremes(),
        Some((bounds.0.unwrap(), bounds.1.unwrap()))
    );
    // A full-range histogram takes the source's exact extremes.
    let full = Config::new().with_relative_error(0.01);
    let mut all: Exact32 = Histogram::new(full).unwrap().with_exact_extremes();
    all.add_histogram(&exact).unwrap();
    assert_eq!(all.exact_extremes(), Some((lo, hi)));

    // Subtract leaves them; reset clears them and keeps tracking on.
    merged.subtract(&plain.view()).unwrap();
    assert_eq!(merged.exact_extremes(), Some((lo, hi)));
    exact.reset();
    assert_eq!(exact.exact_extremes(), None);
    assert!(exact.tracks_extremes());
    exact.record(4_321);
    assert_eq!(exact.exact_extremes(), Some((4_321, 4_321)));
}

#[test]
fn the_plain_histogram_takes_this_cpus_logarithm_and_counts_as_the_const_index_does() {
    use picollo::Log2;
    let config = Config::new().with_relative_error(0.001);
    let fast = Histogram::<u64, Vec<u64>>::new(config).unwrap();
    assert_eq!(fast.shape().log2(), Log2::for_this_cpu());
    // A shape straight from validation takes `bsr`, and compares equal all the same.
    let validated = config.validate().unwrap();
    assert_eq!(validated.log2(), Log2::ANY_CPU);
    assert_eq!(validated, fast.shape());
    // Its counts are those the const index (`Shape::offset`) gives.
    let mut h = Histogram::<u64, Vec<u64>>::new(config).unwrap();
    let mut expected = vec![0u64; validated.len()];
    let mut rng = SplitMix64(99);
    for _ in 0..50_000 {
        let x = rng.next_u64();
        let v = x >> (x % 64);
        h.record(v);
        expected[validated.offset(v)] += 1;
    }
    assert!(h.counts() == expected.as_slice());
}
