//! Percentiles against exact order statistics (docs/semantics.md, "Percentiles"): the k-th
//! smallest recorded value, `k = max(1, ceil(rank / 100 · n))`, must lie in the bucket a
//! percentile reports, for every standard rank, every value selection, and data of many
//! shapes and sizes.

mod common;

use common::{exact_rank_count, first_reaching, kth, Dist, SplitMix64, ALL_DISTS};
use picollo::{Config, Histogram, Percentile, QueryError, ValueSelection, View, STANDARD_RANKS};

const SELECTIONS: [ValueSelection; 4] = [
    ValueSelection::Midpoint,
    ValueSelection::Lower,
    ValueSelection::Upper,
    ValueSelection::Interpolated,
];

/// Check every standard rank of `h` against `sorted`, the values that landed in buckets.
fn check_against_order_statistics<S: AsRef<[u64]> + AsMut<[u64]>>(
    h: &mut Histogram<u64, S>,
    sorted: &[u64],
    what: &str,
) {
    let n = sorted.len() as u64;
    assert_eq!(h.total_count(), n, "{what}");
    let layout = h.layout();
    for selection in SELECTIONS {
        h.set_value_selection(selection);
        let view = h.view();
        let mut batch = [Percentile::default(); 16];
        view.percentiles(&STANDARD_RANKS, &mut batch).unwrap();
        let mut previous_value = 0;
        for (&rank, p) in STANDARD_RANKS.iter().zip(batch.iter()) {
            let k = exact_rank_count(rank, n);
            let x = kth(sorted, k);
            let ctx = format!("{what} {selection:?} P{rank} k={k} x={x} {p:?}");
            assert_eq!(p.rank, rank, "{ctx}");
            assert_eq!(p.rank_count, k, "{ctx}");
            assert_eq!(p.logical_index as usize, layout.index(x), "{ctx}");
            assert!(p.lower <= x && x <= p.highest, "{ctx}");
            assert_eq!(
                p.storage_index as usize + view.first_index(),
                p.logical_index as usize
            );
            let bucket = layout.bucket(p.logical_index as usize).unwrap();
            assert_eq!(
                (p.lower, p.highest),
                (bucket.lower, bucket.highest),
                "{ctx}"
            );
            assert_eq!(p.upper, p.highest.saturating_add(1), "{ctx}");
            // The bucket's count and where k falls in it.
            let below = sorted.partition_point(|&v| v < bucket.lower) as u64;
            let in_bucket = sorted.partition_point(|&v| v <= bucket.highest) as u64 - below;
            assert_eq!(p.count, in_bucket, "{ctx}");
            assert_eq!(p.cumulative_count, below + in_bucket, "{ctx}");
            assert!(below < k && k <= below + in_bucket, "{ctx}");
            // The value and its uncertainty.
            assert!(p.lower <= p.value && p.value <= p.highest, "{ctx}");
            assert_eq!(
                p.plus_minus,
                (p.value - p.lower).max(p.highest - p.value),
                "{ctx}"
            );
            match selection {
                ValueSelection::Midpoint => assert_eq!(p.value, bucket.midpoint(), "{ctx}"),
                ValueSelection::Lower => assert_eq!(p.value, p.lower, "{ctx}"),
                ValueSelection::Upper => assert_eq!(p.value, p.highest, "{ctx}"),
                // Interpolated values are checked by their own test.
                _ => {}
            }
            assert!(
                p.value >= previous_value,
                "values rise with the rank: {ctx}"
            );
            previous_value = p.value;
            // Scalar queries agree with the batch.
            assert_eq!(view.percentile(rank).unwrap(), *p, "{ctx}");
            assert_eq!(view.percentile_value(rank).unwrap(), p.value, "{ctx}");
        }
        let summary = view.summary();
        assert_eq!(summary.percentiles, batch, "{what} {selection:?}");
    }
    h.set_value_selection(ValueSelection::Midpoint);
}

fn record_all(config: Config, data: &[u64]) -> Histogram<u64, Vec<u64>> {
    let mut h = config.build::<u64>().unwrap();
    for &v in data {
        h.record(v);
    }
    h
}

#[test]
fn exact_order_statistics_lie_in_the_reported_bucket() {
    for dist in ALL_DISTS {
        for (n, e) in [
            (1, 0.01),
            (2, 0.001),
            (3, 0.1),
            (10, 0.01),
            (1_000, 0.001),
            (100_000, 0.01),
        ] {
            let mut data = dist.data(n, n as u64);
            let mut h = record_all(Config::new().with_relative_error(e), &data);
            data.sort_unstable();
            check_against_order_statistics(&mut h, &data, &format!("{dist:?} n={n} e={e}"));
        }
    }
}

#[test]
fn exact_order_statistics_of_a_million_values() {
    for (dist, e) in [(Dist::CubeSkew, 0.0005), (Dist::HeavyTail, 0.01)] {
        let mut data = dist.data(1_000_000, 77);
        let mut h = record_all(Config::new().with_relative_error(e), &data);
        data.sort_unstable();
        check_against_order_statistics(&mut h, &data, &format!("{dist:?} n=10^6"));
    }
}

#[test]
fn order_statistics_ignore_what_falls_outside_the_range() {
    let mut rng = SplitMix64(9);
    for (min, max) in [(1_000, 1_000_000), (0, 5_000), (123_456, u64::MAX), (7, 7)] {
        let config = Config::new()
            .with_relative_error(0.001)
            .with_range(min, max);
        let layout = config.layout();
        let (first, last) = (layout.index(min), layout.index(max));
        let data: Vec<u64> = (0..20_000)
            .map(|_| rng.any_magnitude() >> rng.below(40))
            .collect();
        let mut h = record_all(config, &data);
        // To bucket resolution: a value counts if its bucket is one of the storage's.
        let mut inside: Vec<u64> = data
            .iter()
            .copied()
            .filter(|&v| (first..=last).contains(&layout.index(v)))
            .collect();
        let under = data.iter().filter(|&&v| layout.index(v) < first).count() as u64;
        let over = data.iter().filter(|&&v| layout.index(v) > last).count() as u64;
        assert_eq!(h.underflow_count(), under, "range {min}..{max}");
        assert_eq!(h.overflow_count(), over, "range {min}..{max}");
        inside.sort_unstable();
        if inside.is_empty() {
            assert_eq!(h.view().percentile(50.0), Err(QueryError::Empty));
        } else {
            check_against_order_statistics(&mut h, &inside, &format!("range {min}..{max}"));
        }
    }
}

#[test]
fn the_rank_count_is_exact_integer_math() {
    let mut h = Config::new().build::<u32>().unwrap();
    for v in 1..=1_000u64 {
        h.record(v);
    }
    let v = h.view();
    // 99.9 / 100 · 1000 is 999.0000000000001 in f64: a float ceil would say 1000.
    assert_eq!(v.percentile(99.9).unwrap().value, 999);
    assert_eq!(v.percentile(99.9).unwrap().rank_count, 999);
    assert_eq!(v.percentile(0.0).unwrap().value, 1);
    assert_eq!(v.percentile(0.1).unwrap().value, 1);
    assert_eq!(v.percentile(0.1000001).unwrap().value, 2);
    assert_eq!(v.percentile(50.0).unwrap().value, 500);
    assert_eq!(v.percentile(50.05).unwrap().value, 501);
    assert_eq!(v.percentile(100.0).unwrap().value, 1_000);
    let mut big = Config::new().build::<u32>().unwrap();
    big.record_n(1, 999_000);
    big.record_n(2, 1_000);
    assert_eq!(big.view().percentile(99.9).unwrap().value, 1);
    assert_eq!(big.view().percentile(99.9).unwrap().rank_count, 999_000);
    assert_eq!(big.view().percentile(99.9001).unwrap().value, 2);
}

#[test]
fn batch_queries_equal_scalar_ones_for_random_rank_sets() {
    let mut rng = SplitMix64(5);
    let data = Dist::Exponential.data(5_000, 5);
    let mut h = record_all(Config::new().with_relative_error(0.01), &data);
    for selection in SELECTIONS {
        h.set_value_selection(selection);
        let view = h.view();
        for _ in 0..50 {
            let mut ranks: Vec<f64> = (0..1 + rng.below(30))
                .map(|_| rng.next_f64() * 100.0)
                .collect();
            ranks.push(100.0);
            ranks.push(0.0);
            ranks.sort_by(f64::total_cmp);
            ranks.dedup();
            let mut out = vec![Percentile::default(); ranks.len()];
            let mut values = vec![0u64; ranks.len()];
            view.percentiles(&ranks, &mut out).unwrap();
            view.percentile_values(&ranks, &mut values).unwrap();
            for ((&r, p), &value) in ranks.iter().zip(&out).zip(&values) {
                assert_eq!(view.percentile(r).unwrap(), *p);
                assert_eq!(p.value, value);
            }
            assert!(out.windows(2).all(|w| w[0].value <= w[1].value));
            assert!(out.windows(2).all(|w| w[0].rank_count <= w[1].rank_count));
        }
    }
}

/// Interpolation spreads the ranks of one bucket across it, in order.
#[test]
fn interpolated_values_spread_across_the_bucket() {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_value_selection(ValueSelection::Interpolated);
    let mut h = config.build::<u32>().unwrap();
    // One bucket of width 256 ([24,832, 25,088)) holding 4 values.
    h.record_n(24_900, 4);
    let v = h.view();
    let values: Vec<u64> = [0.0, 25.0, 50.0, 75.0, 100.0]
        .iter()
        .map(|&r| v.percentile_value(r).unwrap())
        .collect();
    // The k-th of 4 sits at the centre of the k-th quarter: lower + (2k − 1)·256 / 8.
    assert_eq!(values, [24_864, 24_864, 24_928, 24_992, 25_056]);
    let p = v.percentile(100.0).unwrap();
    assert_eq!(p.plus_minus, 25_056 - 24_832);
    // A bucket of width 1 has nowhere to go.
    let mut exact = config.build::<u32>().unwrap();
    exact.record_n(5, 3);
    assert_eq!(exact.view().percentile_value(50.0).unwrap(), 5);
    assert_eq!(exact.view().percentile(50.0).unwrap().plus_minus, 0);
}

#[test]
fn the_selection_is_a_property_of_each_histogram() {
    let mut a = Config::new()
        .with_value_selection(ValueSelection::Upper)
        .build::<u32>()
        .unwrap();
    let mut b = Config::new().build::<u32>().unwrap();
    a.record(1_000_000);
    b.record(1_000_000);
    let (pa, pb) = (
        a.view().percentile(50.0).unwrap(),
        b.view().percentile(50.0).unwrap(),
    );
    assert_eq!(a.view().value_selection(), ValueSelection::Upper);
    assert_eq!(b.view().value_selection(), ValueSelection::Midpoint);
    assert_eq!(pa.value, pa.highest);
    let width = pb.highest - pb.lower + 1;
    assert_eq!(pb.value, pb.lower + width / 2);
    assert_ne!(pa.value, pb.value);
    assert_eq!(a.config().value_selection(), ValueSelection::Upper);
}

fn assert_out_untouched(out: &[Percentile]) {
    assert!(out.iter().all(|p| p.value == 7 && p.rank == -1.0));
}

#[test]
fn bad_ranks_are_refused_with_the_right_error() {
    let mut h = Config::new().build::<u32>().unwrap();
    h.record(42);
    let v = h.view();
    for bad in [
        -0.001,
        -1.0,
        100.000_001,
        101.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert_eq!(v.percentile(bad), Err(QueryError::RankOutOfRange(bad)));
        assert_eq!(
            v.percentile_value(bad),
            Err(QueryError::RankOutOfRange(bad))
        );
    }
    assert!(matches!(v.percentile(f64::NAN), Err(QueryError::RankOutOfRange(r)) if r.is_nan()));
    assert!(v.percentile(0.0).is_ok() && v.percentile(100.0).is_ok() && v.percentile(-0.0).is_ok());

    let sentinel = Percentile {
        value: 7,
        rank: -1.0,
        ..Percentile::default()
    };
    let cases: [(&[f64], usize, QueryError); 8] = [
        (&[1.0, f64::NAN], 2, QueryError::RankOutOfRange(f64::NAN)),
        (&[1.0, 150.0], 2, QueryError::RankOutOfRange(150.0)),
        (&[-5.0, 1.0], 2, QueryError::RankOutOfRange(-5.0)),
        (
            &[5.0, 5.0],
            2,
            QueryError::RanksNotIncreasing { position: 1 },
        ),
        (
            &[5.0, 4.0],
            2,
            QueryError::RanksNotIncreasing { position: 1 },
        ),
        (
            &[1.0, 2.0, 3.0, 2.5],
            4,
            QueryError::RanksNotIncreasing { position: 3 },
        ),
        (
            &[1.0, 2.0],
            3,
            QueryError::OutputLength {
                ranks: 2,
                output: 3,
            },
        ),
        (
            &[1.0, 2.0, 3.0],
            1,
            QueryError::OutputLength {
                ranks: 3,
                output: 1,
            },
        ),
    ];
    for (ranks, out_len, expected) in cases {
        let mut out = vec![sentinel; out_len];
        let mut values = vec![7u64; out_len];
        let got = v.percentiles(ranks, &mut out).unwrap_err();
        let got_values = v.percentile_values(ranks, &mut values).unwrap_err();
        for g in [got, got_values] {
            match (g, expected) {
                (QueryError::RankOutOfRange(a), QueryError::RankOutOfRange(b)) => {
                    assert!(a == b || (a.is_nan() && b.is_nan()), "{ranks:?}: {g:?}")
                }
                _ => assert_eq!(g, expected, "{ranks:?}"),
            }
        }
        assert_out_untouched(&out);
        assert!(
            values.iter().all(|&x| x == 7),
            "outputs written only on success"
        );
    }
    // An empty batch is fine.
    assert_eq!(v.percentiles(&[], &mut []), Ok(()));
}

#[test]
fn an_empty_histogram_answers_empty() {
    let mut h = Config::new().with_range(100, 1_000).build::<u32>().unwrap();
    // Values outside the range do not make it non-empty.
    h.record(5);
    h.record(1_000_000);
    let v = h.view();
    assert_eq!(v.total_count(), 0);
    assert_eq!(v.percentile(50.0), Err(QueryError::Empty));
    assert_eq!(v.percentile_value(0.0), Err(QueryError::Empty));
    let mut out = [Percentile::default(); 2];
    assert_eq!(v.percentiles(&[1.0, 2.0], &mut out), Err(QueryError::Empty));
    let mut values = [0u64; 1];
    assert_eq!(
        v.percentile_values(&[1.0], &mut values),
        Err(QueryError::Empty)
    );
    // A bad rank is reported before emptiness.
    assert_eq!(v.percentile(-1.0), Err(QueryError::RankOutOfRange(-1.0)));
    assert!(v.mean().is_nan() && v.stdev().is_nan());
    assert_eq!((v.min_recorded(), v.max_recorded()), (None, None));
    let s = v.summary();
    assert_eq!((s.total, s.underflow, s.overflow), (0, 1, 1));
    assert!(s.mean.is_nan() && s.stdev.is_nan());
    for (p, &rank) in s.percentiles.iter().zip(STANDARD_RANKS.iter()) {
        assert_eq!(p.rank, rank);
        assert_eq!(
            (p.value, p.count, p.cumulative_count, p.rank_count),
            (0, 0, 0, 0)
        );
    }
    assert_eq!((s.min_trackable, s.max_trackable), (100, 1_000));
}

/// Mean and population stdev over bucket midpoints, against the same sums done exactly.
#[test]
fn mean_and_stdev_are_those_of_the_bucket_midpoints() {
    for dist in ALL_DISTS {
        let data = dist.data(20_000, 11);
        let h = record_all(Config::new().with_relative_error(0.001), &data);
        let view: View<'_, u64> = h.view();
        let layout = h.layout();
        let mids: Vec<f64> = data
            .iter()
            .map(|&v| layout.bucket_of(v).midpoint() as f64)
            .collect();
        let n = mids.len() as f64;
        let mean = mids.iter().sum::<f64>() / n;
        let var = mids.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / n;
        let (m, s) = view.moments();
        assert!(
            (m - mean).abs() <= 1e-9 * mean.abs().max(1.0),
            "{dist:?} {m} {mean}"
        );
        assert!(
            (s - var.sqrt()).abs() <= 1e-6 * var.sqrt().max(1.0),
            "{dist:?} {s} {}",
            var.sqrt()
        );
        assert_eq!((view.mean(), view.stdev()), (m, s));
        // And the mean of midpoints is within the precision of the true mean.
        let true_mean = data.iter().map(|&v| v as f64).sum::<f64>() / n;
        let precision = layout.relative_error();
        assert!(
            (m - true_mean).abs() <= precision * true_mean + 1e-6,
            "{dist:?}"
        );
        // Min and max recorded, to bucket resolution.
        let (lo, hi) = (*data.iter().min().unwrap(), *data.iter().max().unwrap());
        assert_eq!(view.min_recorded(), Some(layout.bucket_of(lo).lower));
        assert_eq!(view.max_recorded(), Some(layout.bucket_of(hi).highest));
    }
}

#[test]
fn the_stdev_of_a_tight_cluster_far_from_zero_is_accurate() {
    // Values at 2^40 with e = 1e-6: buckets 2^21 wide, so everything in one or two buckets.
    let base = 1u64 << 40;
    let mut h = Config::new()
        .with_relative_error(1e-6)
        .with_range(base - 1_000, base + (1 << 23))
        .build::<u64>()
        .unwrap();
    h.record_n(base, 1_000_000);
    let v = h.view();
    assert_eq!(v.stdev(), 0.0);
    assert_eq!(v.mean(), v.percentile_value(50.0).unwrap() as f64);
    let w = h.layout().bucket_of(base).width();
    h.record_n(base + w, 1_000_000);
    // Two equal groups one bucket apart: σ is half the distance.
    let s = h.view().stdev();
    assert!((s - w as f64 / 2.0).abs() < 1e-6, "{s}");
}

#[test]
fn totals_beyond_u64_still_give_the_right_percentiles() {
    let mut h = Config::new().build::<u64>().unwrap();
    h.record_n(10, u64::MAX);
    h.record_n(1_000_000, 5);
    let v = h.view();
    assert_eq!(v.total_count(), u64::MAX, "the total saturates");
    assert_eq!(v.percentile_value(50.0).unwrap(), 10);
    assert_eq!(v.percentile_value(99.999).unwrap(), 10);
    let top = v.percentile(100.0).unwrap();
    assert!(top.lower <= 1_000_000 && 1_000_000 <= top.highest);
    assert_eq!(top.count, 5);
    assert_eq!(
        top.cumulative_count,
        u64::MAX,
        "saturates rather than wraps"
    );
    let s = v.summary();
    assert_eq!(s.total, u64::MAX);
    assert!(s.mean > 10.0 && s.mean < 10.1);
}

#[test]
fn values_at_the_top_of_u64_are_reported() {
    let mut h = Config::new().build::<u32>().unwrap();
    h.record(u64::MAX);
    h.record(u64::MAX - 1);
    let p = h.view().percentile(100.0).unwrap();
    assert_eq!(p.highest, u64::MAX);
    assert_eq!(p.upper, u64::MAX, "the exclusive bound 2^64 saturates");
    assert_eq!(p.count, 2);
    assert!(
        p.to_string().ends_with("18,446,744,073,709,551,616) 2"),
        "{p}"
    );
    assert_eq!(h.view().max_recorded(), Some(u64::MAX));
}

#[test]
fn percentiles_display_their_rank_in_short_form() {
    let mut h = common::seed_config().build::<u32>().unwrap();
    h.record_n(24_900, 10);
    let v = h.view();
    for (rank, prefix) in [
        (0.0, "P0=24,960 "),
        (92.5, "P92.5=24,960 "),
        (99.999, "P99.999=24,960 "),
        (99.99999, "P99.99999=24,960 "),
        (100.0, "P100=24,960 "),
    ] {
        let text = v.percentile(rank).unwrap().to_string();
        assert!(text.starts_with(prefix), "{text}");
        assert!(text.ends_with("[83 / 609]: [24,832, 25,088) 10"), "{text}");
    }
}

#[test]
fn errors_are_std_errors_with_messages() {
    let errors: [Box<dyn std::error::Error>; 5] = [
        Box::new(QueryError::RankOutOfRange(101.0)),
        Box::new(QueryError::RanksNotIncreasing { position: 3 }),
        Box::new(QueryError::OutputLength {
            ranks: 2,
            output: 1,
        }),
        Box::new(QueryError::Empty),
        Box::new(QueryError::InvalidLogBase(0.5)),
    ];
    let expected = ["101", "position 3", "2 ranks", "no value", "0.5"];
    for (e, needle) in errors.iter().zip(expected) {
        assert!(e.to_string().contains(needle), "{e}");
    }
}

/// The percentile walk jumps over whole blocks by their totals: it must land where a walk
/// bucket by bucket over the raw counts lands, at every block scale, with ranges that start
/// and end inside a block, and with empty blocks between the data.
#[test]
fn block_jumps_land_where_a_bucket_by_bucket_walk_lands() {
    let mut rng = SplitMix64(77);
    for scale in 3..=19u32 {
        let error = 0.5 / (1u64 << scale) as f64;
        for _ in 0..6 {
            let lo = rng.any_magnitude() >> rng.below(64);
            let hi = lo.saturating_add(rng.any_magnitude() >> rng.below(40));
            let config = Config::new().with_relative_error(error).with_range(lo, hi);
            let data: Vec<u64> = (0..1 + rng.below(400))
                .map(|_| lo + rng.below((hi - lo).saturating_add(1)))
                .collect();
            let mut h = record_all(config, &data);
            // A few heavy buckets, so some blocks carry most of the mass.
            h.record_n(data[0], 1 + rng.below(1_000));
            let view = h.view();
            let counts = view.counts();
            let total: u128 = counts.iter().map(|&c| c as u128).sum();
            // Ranks with three decimals, which `exact_rank_count` computes exactly.
            let mut ranks: Vec<f64> = (0..1 + rng.below(20))
                .map(|_| rng.below(100_001) as f64 / 1000.0)
                .chain([0.0, 50.0, 100.0])
                .collect();
            ranks.sort_by(f64::total_cmp);
            ranks.dedup();
            let mut out = vec![Percentile::default(); ranks.len()];
            view.percentiles(&ranks, &mut out).unwrap();
            for (&rank, p) in ranks.iter().zip(&out) {
                let target = exact_rank_count(rank, total as u64) as u128;
                let (at, cumulative) = first_reaching(counts, target);
                let ctx = format!("scale {scale} [{lo}, {hi}] P{rank}");
                assert_eq!(p.storage_index as usize, at, "{ctx}");
                assert_eq!(p.count, counts[at], "{ctx}");
                assert_eq!(p.cumulative_count as u128, cumulative, "{ctx}");
            }
            assert_eq!(view.summary().total as u128, total);
        }
    }
}

/// Mean and stdev against exact sums over the midpoints, at every block scale and with
/// counts that need more than 64 bits per block.
#[test]
fn moments_are_exact_sums_at_every_scale_and_magnitude() {
    let mut rng = SplitMix64(78);
    for scale in 3..=19u32 {
        let error = 0.5 / (1u64 << scale) as f64;
        let mut h = Config::new()
            .with_relative_error(error)
            .build::<u64>()
            .unwrap();
        let mut points = Vec::new();
        for _ in 0..1 + rng.below(50) {
            let v = rng.any_magnitude();
            let n = match rng.below(3) {
                0 => 1 + rng.below(10),
                1 => 1 + rng.below(1 << 40),
                _ => u64::MAX / 64,
            };
            h.record_n(v, n);
            points.push((h.layout().bucket_of(v).midpoint(), n));
        }
        // Exact mean and spread as rationals over u128/f64 sums done per point, in f64
        // with compensation: the reference is good to ~1e-15 here.
        let n: f64 = points.iter().map(|&(_, c)| c as f64).sum();
        let mean = points
            .iter()
            .map(|&(m, c)| m as f64 * c as f64)
            .sum::<f64>()
            / n;
        let var = points
            .iter()
            .map(|&(m, c)| c as f64 * (m as f64 - mean).powi(2))
            .sum::<f64>()
            / n;
        let (m, s) = h.view().moments();
        assert!(
            (m - mean).abs() <= 1e-12 * mean.abs(),
            "scale {scale}: {m} vs {mean}"
        );
        let sd = var.sqrt();
        assert!(
            (s - sd).abs() <= 1e-9 * sd.max(mean * 1e-6),
            "scale {scale}: {s} vs {sd}"
        );
    }
}
