//! Combining histograms (add, subtract) and snapshots (full and delta refreshes).

mod common;

use common::{seed_config, seed_second, Dist, SplitMix64};
use picollo::{Config, ConfigError, Counter, Histogram, MergeError, Snapshot};

type H32 = Histogram<u32, Vec<u32>>;
type H64 = Histogram<u64, Vec<u64>>;

fn filled<C: Counter>(config: Config, data: &[u64]) -> Histogram<C, Vec<C>> {
    let mut h = config.build::<C>().unwrap();
    for &v in data {
        h.record(v);
    }
    h
}

/// Everything a histogram holds, for equality checks.
fn state<C: Counter>(h: &Histogram<C, Vec<C>>) -> (Vec<u64>, u64, u64, u64) {
    (
        h.counts().iter().map(|c| c.to_u64()).collect(),
        h.underflow_count(),
        h.overflow_count(),
        h.saturated_count(),
    )
}

fn mixed_data(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| rng.any_magnitude() >> rng.below(44))
        .collect()
}

const RANGES: [(u64, u64); 5] = [
    (0, u64::MAX),
    (1_000, 100_000),
    (0, 5_000),
    (50_000, 1 << 40),
    (77, 77),
];

/// Two ranges (min, max) and their configurations.
type RangePair = ((u64, u64), (u64, u64), Config, Config);

/// Every ordered pair of `RANGES`, each with its configuration at relative error 1 %.
fn range_pairs() -> Vec<RangePair> {
    let at = |(min, max): (u64, u64)| Config::new().with_relative_error(0.01).with_range(min, max);
    let mut pairs = Vec::new();
    for a in RANGES {
        for b in RANGES {
            pairs.push((a, b, at(a), at(b)));
        }
    }
    pairs
}

#[test]
fn adding_equals_recording_everything_into_one() {
    for ((min_a, max_a), (min_b, max_b), ca, cb) in range_pairs() {
        let (da, db) = (mixed_data(3_000, 1), mixed_data(3_000, 2));
        let mut a: H32 = filled(ca, &da);
        let b: H64 = filled(cb, &db);
        a.add(&b.view()).unwrap();
        // What b kept in its buckets lands in a's buckets or a's outside counts; what b
        // counted outside its own range stays outside.
        let mut expected: H32 = filled(ca, &da);
        let layout = cb.layout();
        let (first_b, last_b) = (layout.index(min_b), layout.index(max_b));
        for &v in &db {
            if (first_b..=last_b).contains(&layout.index(v)) {
                expected.record(v);
            }
        }
        let (counts, under, over, sat) = state(&expected);
        let what = format!("a {min_a}..{max_a} b {min_b}..{max_b}");
        let outside = (under + b.underflow_count(), over + b.overflow_count());
        assert_eq!(state(&a), (counts, outside.0, outside.1, sat), "{what}");
    }
}

#[test]
fn adding_a_wider_histogram_sends_the_rest_to_underflow_and_overflow() {
    let mut narrow: H32 = seed_config().build().unwrap();
    let mut wide: H32 = Config::new().with_relative_error(0.01).build().unwrap();
    wide.record(5); // below
    wide.record(9_983); // below the first bucket [9,984, 10,112)
    wide.record(9_984); // inside
    wide.record(20_000);
    wide.record(30_207); // last bucket [29,952, 30,208)
    wide.record(30_208); // above
    wide.record(u64::MAX);
    narrow.add(&wide.view()).unwrap();
    assert_eq!(
        (
            narrow.underflow_count(),
            narrow.total_count(),
            narrow.overflow_count()
        ),
        (2, 3, 2)
    );
}

#[test]
fn u32_into_u64_and_back() {
    let config = Config::new().with_relative_error(0.001);
    let mut small: H32 = filled(config, &Dist::Exponential.data(10_000, 8));
    small.record(u64::MAX); // in range: full-range config
    let mut big: H64 = config.build().unwrap();
    big.add(&small.view()).unwrap();
    big.add(&small.view()).unwrap();
    assert_eq!(big.total_count(), 2 * small.total_count());
    assert!(big
        .counts()
        .iter()
        .zip(small.counts())
        .all(|(&b, &s)| b == 2 * s as u64));
    // Back into u32: a count above u32::MAX saturates and the excess is kept.
    big.record_n(1_000, u32::MAX as u64 + 100);
    let mut back: H32 = config.build().unwrap();
    back.add(&big.view()).unwrap();
    let i = config.layout().index(1_000);
    assert_eq!(back.counts()[i], u32::MAX);
    assert_eq!(
        back.saturated_count(),
        big.counts()[i] - u32::MAX as u64,
        "nothing lost"
    );
    let kept: u128 = back.counts().iter().map(|&c| c as u128).sum();
    assert_eq!(
        kept + back.saturated_count() as u128,
        big.counts().iter().map(|&c| c as u128).sum::<u128>()
    );
}

#[test]
fn different_relative_errors_do_not_merge() {
    let mut a: H32 = filled(Config::new().with_relative_error(0.01), &[1, 2, 3]);
    let mut b: H32 = filled(Config::new().with_relative_error(0.001), &[4, 5]);
    let before = state(&a);
    let err = a.add(&b.view()).unwrap_err();
    assert_eq!(
        err,
        MergeError::LayoutMismatch {
            this: 0.0078125,
            other: 0.0009765625
        }
    );
    assert!(err.to_string().contains("0.7813%"), "{err}");
    assert_eq!(a.subtract(&b.view()), Err(err));
    assert_eq!(state(&a), before, "unchanged");
    assert!(matches!(
        b.add(&a.view()),
        Err(MergeError::LayoutMismatch { .. })
    ));
    // Relative errors that clamp to the same layout do merge.
    let mut c: H32 = filled(Config::new().with_relative_error(0.009), &[6]);
    c.add(&a.view()).unwrap();
    assert_eq!(c.total_count(), 4);
}

#[test]
fn subtract_undoes_add_exactly() {
    for ((min_a, max_a), (min_b, max_b), ca, cb) in range_pairs() {
        let mut a: H64 = filled(ca, &mixed_data(2_000, 3));
        let mut b: H32 = filled(cb, &mixed_data(2_000, 4));
        b.record_n(min_b, u64::MAX); // some saturation to carry along
        let original = state(&a);
        a.add(&b.view()).unwrap();
        a.subtract(&b.view()).unwrap();
        assert_eq!(state(&a), original, "a {min_a}..{max_a} b {min_b}..{max_b}");
    }
}

#[test]
fn subtract_gives_what_was_recorded_since_an_earlier_state() {
    let config = Config::new()
        .with_relative_error(0.002)
        .with_range(100, 1 << 30);
    let (first, second) = (mixed_data(5_000, 5), mixed_data(5_000, 6));
    let mut live: H32 = filled(config, &first);
    let earlier = live.clone();
    for &v in &second {
        live.record(v);
    }
    live.subtract(&earlier.view()).unwrap();
    assert_eq!(state(&live), state(&filled::<u32>(config, &second)));
}

#[test]
fn a_subtraction_that_would_go_negative_changes_nothing() {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(1_000, 100_000);
    let mut a: H32 = filled(config, &[2_000, 3_000, 3_000, 50_000, 5, 500_000]);
    let before = state(&a);
    let before_summary = a.view().summary();

    // Buckets that could be taken first, then one that cannot: all or nothing.
    let b: H32 = filled(config, &[2_000, 3_000, 50_000, 50_000]);
    let err = a.subtract(&b.view()).unwrap_err();
    assert_eq!(
        err,
        MergeError::WouldGoNegative {
            logical_index: Some(config.layout().index(50_000) as u64)
        }
    );
    assert!(err.to_string().contains("negative"));
    assert_eq!(state(&a), before);
    assert_eq!(a.view().summary(), before_summary);

    // Too much underflow, overflow or saturation.
    for data in [&[5u64, 6][..], &[500_000, 600_000][..]] {
        let b: H32 = filled(config, data);
        assert_eq!(
            a.subtract(&b.view()),
            Err(MergeError::WouldGoNegative {
                logical_index: None
            })
        );
        assert_eq!(state(&a), before);
    }
    let mut saturated: H32 = config.build().unwrap();
    saturated.record_n(2_000, u64::MAX);
    assert!(a.subtract(&saturated.view()).is_err());
    assert_eq!(state(&a), before);
    // A bucket of b outside a's range is taken from a's outside counts.
    let wide: H32 = filled(Config::new().with_relative_error(0.01), &[7, 7]);
    assert_eq!(
        a.subtract(&wide.view()),
        Err(MergeError::WouldGoNegative {
            logical_index: None
        })
    );
    assert_eq!(state(&a), before);
    let wide: H32 = filled(Config::new().with_relative_error(0.01), &[7]);
    a.subtract(&wide.view()).unwrap();
    assert_eq!(a.underflow_count(), 0);
}

const SNAP_CFG: Config = Config::new()
    .with_relative_error(0.01)
    .with_range(10_000, 30_000);
const SNAP_LEN: usize = SNAP_CFG.storage_len();

#[test]
fn snapshots_refresh_full_and_delta() {
    let mut h: H32 = SNAP_CFG.build().unwrap();
    h.record(20_000);
    h.record(40_000);
    let mut snap = Snapshot::new(&h.view());
    assert_eq!(snap.view().summary(), h.view().summary());
    h.record(21_000);
    h.record(22_000);
    h.record(5);
    // The snapshot does not move until refreshed.
    assert_eq!(snap.view().total_count(), 1);
    snap.update(&h.view(), true).unwrap();
    let v = snap.view();
    assert_eq!(
        (v.total_count(), v.underflow_count(), v.overflow_count()),
        (2, 1, 0)
    );
    assert_eq!(
        v.percentile_value(0.0),
        Ok(h.layout().bucket_of(21_000).midpoint())
    );
    // No change since: an empty delta.
    snap.update(&h.view(), true).unwrap();
    assert_eq!(snap.view().total_count(), 0);
    assert_eq!(snap.view().overflow_count(), 0);
    // Full counts again.
    snap.update(&h.view(), false).unwrap();
    assert_eq!(snap.view().summary(), h.view().summary());
    assert_eq!(snap.view().counts(), h.counts());
}

#[test]
fn deltas_add_up_to_the_whole() {
    let mut h: H64 = SNAP_CFG.build().unwrap();
    let mut snap = Snapshot::new(&h.view());
    let mut sum: H64 = SNAP_CFG.build().unwrap();
    let mut rng = SplitMix64(12);
    for round in 0..20 {
        for _ in 0..rng.below(500) {
            h.record(5_000 + rng.below(30_000));
        }
        snap.update(&h.view(), true).unwrap();
        sum.add(&snap.view()).unwrap();
        assert_eq!(state(&sum), state(&h), "round {round}");
    }
}

#[test]
fn a_reset_between_updates_gives_the_counts_since_the_reset() {
    let mut h: H32 = SNAP_CFG.build().unwrap();
    h.record_n(20_000, 100);
    h.record(1);
    let mut snap = Snapshot::new(&h.view());
    h.record_n(20_000, 50); // lost with the reset
    h.reset();
    h.record_n(25_000, 7);
    h.record(50_000);
    snap.update(&h.view(), true).unwrap();
    let v = snap.view();
    assert_eq!(
        (v.total_count(), v.underflow_count(), v.overflow_count()),
        (7, 0, 1)
    );
    assert_eq!(v.counts(), h.counts());
    // Deltas go on normally after that.
    h.record_n(25_000, 3);
    snap.update(&h.view(), true).unwrap();
    assert_eq!(snap.view().total_count(), 3);
    assert_eq!(snap.view().overflow_count(), 0);
    // A reset with nothing recorded since: an empty delta, not a negative one.
    h.reset();
    snap.update(&h.view(), true).unwrap();
    assert_eq!(snap.view().total_count(), 0);
}

#[test]
fn a_u32_counter_that_saturates_between_updates_gives_the_right_delta() {
    let mut h: H32 = SNAP_CFG.build().unwrap();
    h.record_n(20_000, u32::MAX as u64 - 5);
    let mut snap = Snapshot::new(&h.view());
    for _ in 0..10 {
        h.record(20_000);
    }
    let i = h.layout().index(20_000) - h.view().first_index();
    assert_eq!(h.counts()[i], u32::MAX, "saturated, not wrapped");
    assert_eq!(h.saturated_count(), 5);
    snap.update(&h.view(), true).unwrap();
    // The 10 records since the last update: 5 in the bucket, 5 counted as saturated.
    assert_eq!(snap.view().counts()[i], 5);
    assert_eq!(snap.view().total_count(), 5);
    assert_eq!(snap.view().saturated_count(), 5);
}

#[test]
fn snapshots_over_caller_arrays_need_no_allocation() {
    let mut h = Histogram::<u32, [u32; SNAP_LEN]>::from_storage(SNAP_CFG, [0; SNAP_LEN]).unwrap();
    h.record(24_900);
    let mut snap =
        Snapshot::<u32, [u32; SNAP_LEN]>::from_storage(&h.view(), [9; SNAP_LEN], [9; SNAP_LEN])
            .unwrap();
    assert_eq!(snap.view().total_count(), 1);
    h.record(24_900);
    snap.update(&h.view(), true).unwrap();
    assert_eq!(snap.view().percentile(100.0).unwrap().count, 1);
    // Borrowed buffers work too.
    let (mut cur, mut prev) = ([0u32; SNAP_LEN], [0u32; SNAP_LEN]);
    let snap = Snapshot::<u32, &mut [u32]>::from_storage(&h.view(), &mut cur, &mut prev).unwrap();
    assert_eq!(snap.view().total_count(), 2);
}

#[test]
fn snapshot_buffers_of_the_wrong_length_are_refused() {
    let h: H32 = SNAP_CFG.build().unwrap();
    let view = h.view();
    for (cur, prev) in [(SNAP_LEN - 1, SNAP_LEN), (SNAP_LEN, SNAP_LEN + 1), (0, 0)] {
        let err = Snapshot::<u32, Vec<u32>>::from_storage(&view, vec![0; cur], vec![0; prev])
            .err()
            .unwrap();
        let actual = if cur != SNAP_LEN { cur } else { prev };
        assert_eq!(
            err,
            ConfigError::StorageLength {
                expected: SNAP_LEN,
                actual
            }
        );
    }
    // Refreshing from a histogram of another configuration is refused too.
    let mut snap = Snapshot::new(&view);
    let other: H32 = Config::new().with_relative_error(0.01).build().unwrap();
    assert!(matches!(
        snap.update(&other.view(), true),
        Err(ConfigError::StorageLength { .. })
    ));
    let shifted: H32 = Config::new()
        .with_relative_error(0.01)
        .with_range(10_112, 30_208)
        .build()
        .unwrap();
    assert_eq!(shifted.counts().len(), SNAP_LEN);
    assert!(snap.update(&shifted.view(), false).is_err());
}

/// The announcement's snapshot example: no reset, a delta refresh instead, "exactly the same
/// result" as the reset version.
#[test]
fn the_seeds_snapshot_example_matches_the_reset_version() {
    let (mut h, mut rng) = common::seed_before();
    let mut snap = Snapshot::new(&h.view());
    let before = snap.view().summary();
    assert_eq!(before, h.view().summary());
    let mut reset_version: H32 = seed_config().build().unwrap();
    for _ in 0..2_000_000 {
        let v = seed_second(&mut rng);
        h.record(v);
        reset_version.record(v);
    }
    snap.update(&h.view(), true).unwrap();
    let after = snap.view().summary();
    assert_eq!(after, reset_version.view().summary());
    assert_eq!(after.total, 2_000_000);
    assert_eq!(
        after.overflow, 0,
        "the 40,000 was before the previous refresh"
    );
    assert_eq!(after.p99().value, 28_800);
    assert_eq!(h.total_count(), 3_000_000, "the source keeps everything");
}

/// What a histogram holds, whatever its range: each non-empty bucket's lower bound and
/// count, the underflow, overflow and saturated counts, the exact extremes.
type Contents = (Vec<(u64, u64)>, [u64; 3], Option<(u64, u64)>);

fn contents<C: Counter, const E: bool>(h: &Histogram<C, Vec<C>, E>) -> Contents {
    let buckets = h
        .view()
        .buckets_with_values()
        .map(|b| (b.lower, b.count))
        .collect();
    let outside = [h.underflow_count(), h.overflow_count(), h.saturated_count()];
    (buckets, outside, h.exact_extremes())
}

#[test]
fn the_same_buckets_add_counter_by_counter_as_the_general_path_does() {
    // A receiver of the source's own buckets takes the counter-by-counter path; one of the
    // whole range (other buckets) the general one. Both start from the same values (inside
    // the narrow range), one bucket of each near its u32 maximum so that adding saturates,
    // and keep exact extremes; the source counts some values outside its range.
    for (seed, &(min, max)) in RANGES.iter().enumerate().filter(|(_, r)| r.0 < r.1) {
        let narrow = Config::new().with_relative_error(0.01).with_range(min, max);
        let wide = Config::new().with_relative_error(0.01);
        let inside: Vec<u64> = mixed_data(2_000, 10 + seed as u64)
            .into_iter()
            .filter(|v| (min..=max).contains(v))
            .collect();
        let full = inside.first().copied().unwrap_or(min);
        let mut same = narrow.build::<u32>().unwrap().with_exact_extremes();
        let mut general = wide.build::<u32>().unwrap().with_exact_extremes();
        for h in [&mut same, &mut general] {
            inside.iter().for_each(|&v| h.record(v));
            h.record_n(full, u64::from(u32::MAX) - 3);
        }
        let mut source: H64 = filled(narrow, &mixed_data(3_000, 20 + seed as u64));
        source.record_n(full, 10);
        same.add_histogram(&source).unwrap();
        general.add_histogram(&source).unwrap();
        let what = format!("range {min}..{max}");
        assert_eq!(contents(&same), contents(&general), "{what}");
        assert!(
            same.saturated_count() >= 6,
            "{what}: the full bucket saturated"
        );
        // Views (no exact extremes of the source): the bounds of its buckets, alike.
        let (mut same_v, mut general_v) = (
            narrow.build::<u64>().unwrap().with_exact_extremes(),
            wide.build::<u64>().unwrap().with_exact_extremes(),
        );
        same_v.add(&source.view()).unwrap();
        general_v.add(&source.view()).unwrap();
        assert_eq!(
            contents(&same_v),
            contents(&general_v),
            "{what}, from a view"
        );
    }
}
