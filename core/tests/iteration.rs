//! Iteration: every bucket, the non-empty ones, bucket percentiles (rank at the middle of a
//! bucket's counts, as the Picollo .NET announcement defines it), and linear and logarithmic steps.

mod common;

use std::num::NonZeroU64;

use common::{Dist, SplitMix64};
use picollo::{Config, Histogram, QueryError, StepCount, ValueSelection};

type H64 = Histogram<u64, Vec<u64>>;

fn sample(config: Config, n: usize, seed: u64) -> H64 {
    let mut h = config.build().unwrap();
    let mut rng = SplitMix64(seed);
    for _ in 0..n {
        h.record(rng.any_magnitude() >> rng.below(40));
    }
    h
}

/// Each of `configs` with `sample(config, n, seed)` recorded into it.
fn samples(n: usize, seed: u64) -> impl Iterator<Item = (Config, H64)> {
    configs().into_iter().map(move |c| (c, sample(c, n, seed)))
}

fn configs() -> [Config; 3] {
    [
        Config::new().with_relative_error(0.01),
        Config::new()
            .with_relative_error(0.001)
            .with_range(1_000, 1 << 36),
        common::seed_config(),
    ]
}

#[test]
fn buckets_cover_the_whole_storage_in_order() {
    for (config, h) in samples(5_000, 1) {
        let view = h.view();
        let all: Vec<_> = view.buckets().collect();
        assert_eq!(view.buckets().size_hint(), (all.len(), Some(all.len())));
        assert_eq!(all.len(), h.counts().len());
        let layout = h.layout();
        assert_eq!(all[0].lower, layout.bucket_of(config.min_trackable()).lower);
        assert_eq!(
            all.last().unwrap().highest,
            layout.bucket_of(config.max_trackable()).highest
        );
        for (i, b) in all.iter().enumerate() {
            assert_eq!(b.storage_index, i);
            assert_eq!(b.logical_index, view.first_index() + i);
            let expected = layout.bucket(b.logical_index).unwrap();
            assert_eq!((b.lower, b.highest), (expected.lower, expected.highest));
            assert_eq!(b.value, expected.midpoint());
            assert_eq!(b.count, h.counts()[i]);
            if i > 0 {
                assert_eq!(b.lower, all[i - 1].highest + 1, "contiguous");
            }
        }
        // A partly consumed iterator knows what is left.
        let mut it = view.buckets();
        it.next();
        assert_eq!(it.size_hint().0, all.len() - 1);
    }
}

#[test]
fn buckets_with_values_sum_to_the_total() {
    for (_, h) in samples(5_000, 2) {
        let view = h.view();
        let with: Vec<_> = view.buckets_with_values().collect();
        assert!(with.iter().all(|b| b.count > 0));
        assert_eq!(with.iter().map(|b| b.count).sum::<u64>(), h.total_count());
        let expected: Vec<_> = view.buckets().filter(|b| b.count != 0).collect();
        assert_eq!(with, expected);
        assert_eq!(with.len(), h.counts().iter().filter(|&&c| c != 0).count());
    }
}

#[test]
fn bucket_percentiles_follow_the_seeds_definition() {
    for (_, mut h) in samples(5_000, 3) {
        let total = h.total_count() as f64;
        for selection in [ValueSelection::Midpoint, ValueSelection::Interpolated] {
            h.set_value_selection(selection);
            let view = h.view();
            let all: Vec<_> = view.bucket_percentiles().collect();
            assert_eq!(all.len(), h.counts().len());
            let mut below = 0u64;
            for (i, p) in all.iter().enumerate() {
                let count = h.counts()[i];
                let rank = (below as f64 + count as f64 / 2.0) / total * 100.0;
                assert!((p.rank - rank).abs() < 1e-9, "{p:?}");
                assert_eq!(p.storage_index, i as u64);
                assert_eq!(p.count, count);
                assert_eq!(p.cumulative_count, below + count);
                assert!(p.lower <= p.value && p.value <= p.highest);
                if selection == ValueSelection::Midpoint {
                    let width = p.highest - p.lower + 1;
                    assert_eq!(p.value, p.lower + width / 2);
                }
                below += count;
            }
            assert!(all.windows(2).all(|w| w[0].rank <= w[1].rank));
            let with: Vec<_> = view.bucket_percentiles_with_values().collect();
            assert_eq!(with.len(), h.counts().iter().filter(|&&c| c != 0).count());
            assert!(with.iter().all(|p| p.count > 0));
            assert!(
                with.windows(2).all(|w| w[0].rank < w[1].rank),
                "strictly increasing"
            );
            assert!(with[0].rank > 0.0 && with.last().unwrap().rank < 100.0);
            let expected: Vec<_> = all.iter().filter(|p| p.count != 0).copied().collect();
            assert_eq!(with, expected);
        }
    }
}

#[test]
fn iterating_an_empty_histogram() {
    let h: H64 = common::seed_config().build().unwrap();
    let view = h.view();
    assert_eq!(view.buckets().count(), h.counts().len());
    assert_eq!(view.buckets_with_values().count(), 0);
    assert_eq!(view.bucket_percentiles_with_values().count(), 0);
    assert!(view
        .bucket_percentiles()
        .all(|p| p.rank == 0.0 && p.count == 0));
    assert_eq!(view.linear_steps(NonZeroU64::new(100).unwrap()).count(), 0);
    let log = view
        .logarithmic_steps(NonZeroU64::new(100).unwrap(), 2.0)
        .unwrap();
    assert_eq!(log.count(), 0);
}

/// The step rules shared by linear and logarithmic iteration.
fn check_steps(h: &H64, steps: &[StepCount], what: &str) {
    let view = h.view();
    let total = h.total_count();
    assert!(!steps.is_empty(), "{what}");
    assert_eq!(steps[0].lower, 0, "{what}");
    let mut cumulative = 0;
    for (k, s) in steps.iter().enumerate() {
        assert!((s.lower as u128) < s.upper, "{what} {s:?}");
        if k > 0 {
            assert_eq!(steps[k - 1].upper, s.lower as u128, "contiguous: {what}");
        }
        // The count is that of the buckets whose midpoint lies in the step.
        let expected: u64 = view
            .buckets()
            .filter(|b| (s.lower as u128..s.upper).contains(&(b.value as u128)))
            .map(|b| b.count)
            .sum();
        assert_eq!(s.count, expected, "{what} {s:?}");
        cumulative += s.count;
        assert_eq!(s.cumulative_count, cumulative, "{what}");
        let pct = cumulative as f64 / total as f64 * 100.0;
        assert!((s.percentile - pct).abs() < 1e-9, "{what}");
    }
    assert_eq!(cumulative, total, "{what}");
    assert_eq!(steps.last().unwrap().percentile, 100.0, "{what}");
    // The last step holds the largest recorded bucket, and it is not empty.
    let top = view.buckets_with_values().last().unwrap();
    let last = steps.last().unwrap();
    assert!(
        (last.lower as u128..last.upper).contains(&(top.value as u128)),
        "{what}"
    );
    assert!(last.count > 0, "{what}");
}

#[test]
fn linear_steps_are_contiguous_and_sum_to_the_total() {
    for config in configs() {
        let mut h: H64 = config.build().unwrap();
        for v in Dist::Exponential.data(20_000, 4) {
            h.record(v + 10_000);
        }
        for width in [1_000, 4_096, 7_777, 100_000, u64::MAX] {
            let steps: Vec<_> = h
                .view()
                .linear_steps(NonZeroU64::new(width).unwrap())
                .collect();
            for s in &steps[..steps.len() - 1] {
                assert_eq!(s.upper - s.lower as u128, width as u128);
            }
            check_steps(&h, &steps, &format!("linear {width} {config:?}"));
        }
    }
}

#[test]
fn logarithmic_steps_grow_by_the_base() {
    for config in configs() {
        let mut h: H64 = config.build().unwrap();
        for v in Dist::CubeSkew.data(20_000, 5) {
            h.record(v / 100_000 + 9_000);
        }
        for (first, base) in [
            (1, 2.0),
            (1_000, 2.0),
            (10_000, 10.0),
            (500, 1.5),
            (7, 1.01),
        ] {
            let steps: Vec<_> = h
                .view()
                .logarithmic_steps(NonZeroU64::new(first).unwrap(), base)
                .unwrap()
                .collect();
            assert_eq!(steps[0].upper, first as u128);
            for (k, s) in steps.iter().enumerate().skip(1) {
                let ideal = first as f64 * base.powi(k as i32);
                assert!(
                    (s.upper as f64 - ideal).abs() <= 1.0 + ideal * 1e-12
                        || s.upper == s.lower as u128 + 1,
                    "first {first} base {base} step {k}: {s:?} vs {ideal}"
                );
            }
            check_steps(&h, &steps, &format!("log {first} {base} {config:?}"));
        }
    }
}

#[test]
fn steps_reach_the_top_of_u64() {
    let mut h: H64 = Config::new().with_relative_error(0.01).build().unwrap();
    h.record(3);
    h.record(u64::MAX);
    let log: Vec<_> = h
        .view()
        .logarithmic_steps(NonZeroU64::new(1).unwrap(), 2.0)
        .unwrap()
        .collect();
    assert!(log.len() <= 66, "{}", log.len());
    assert_eq!(log.last().unwrap().upper, 1u128 << 64);
    check_steps(&h, &log, "log to the top");
    let linear: Vec<_> = h
        .view()
        .linear_steps(NonZeroU64::new(1 << 62).unwrap())
        .collect();
    assert_eq!(linear.len(), 4);
    check_steps(&h, &linear, "linear to the top");
    let one: Vec<_> = h
        .view()
        .linear_steps(NonZeroU64::new(u64::MAX).unwrap())
        .collect();
    check_steps(&h, &one, "one huge step");
}

#[test]
fn an_invalid_logarithmic_base_is_refused() {
    let h: H64 = common::seed_config().build().unwrap();
    let first = NonZeroU64::new(10).unwrap();
    for bad in [1.0, 0.5, 0.0, -2.0, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(
            h.view().logarithmic_steps(first, bad).err(),
            Some(QueryError::InvalidLogBase(bad)),
            "{bad}"
        );
    }
    let nan = h.view().logarithmic_steps(first, f64::NAN).err();
    assert!(matches!(nan, Some(QueryError::InvalidLogBase(b)) if b.is_nan()));
    assert!(QueryError::InvalidLogBase(1.0).to_string().contains("base"));
    assert!(h.view().logarithmic_steps(first, 1.000_001).is_ok());
}

#[test]
fn iterators_can_be_cloned_and_resumed() {
    let h = sample(Config::new().with_relative_error(0.01), 1_000, 6);
    let view = h.view();
    let mut it = view.bucket_percentiles_with_values();
    let first = it.next().unwrap();
    let rest: Vec<_> = it.clone().collect();
    assert_eq!(it.collect::<Vec<_>>(), rest);
    assert!(rest.iter().all(|p| p.rank > first.rank));
    let mut steps = view.linear_steps(NonZeroU64::new(1 << 20).unwrap());
    let s0 = steps.next().unwrap();
    assert_eq!(steps.clone().next().unwrap().lower as u128, s0.upper);
}

#[test]
fn skipping_steps_lands_where_walking_them_does() {
    // A resumed walk (the C ABI's batches skip the steps already returned) must see the
    // very steps a walk from the start sees, for bases near 1 (where bounds grow by one
    // before the geometric ones take over) and far from it.
    const N: usize = 20_000;
    fn check<I: Iterator<Item = StepCount>>(steps: impl Fn() -> I, what: &str) {
        let all: Vec<_> = steps().take(N).collect();
        for k in [0usize, 1, 2, 5, 50, 460, 461, 999, 1_000, 5_000, N - 1] {
            if k >= all.len() {
                // The walk ended before N steps: nothing lies past its end.
                assert_eq!(steps().nth(k), None, "{what} past the end");
                continue;
            }
            assert_eq!(steps().nth(k).as_ref(), Some(&all[k]), "{what} step {k}");
            // Skipping twice is skipping the sum (and the step between).
            let (a, b) = (k / 3, k - k / 3);
            let mut it = steps();
            let _ = it.nth(a);
            if a + 1 + b < all.len() {
                assert_eq!(
                    it.nth(b).as_ref(),
                    Some(&all[a + 1 + b]),
                    "{what} {a} then {b}"
                );
            }
        }
    }
    for (config, h) in samples(20_000, 17) {
        let view = h.view();
        for width in [1u64, 977, 1 << 40] {
            let w = NonZeroU64::new(width).unwrap();
            check(
                || view.linear_steps(w),
                &format!("linear {width} {config:?}"),
            );
        }
        for (first, base) in [
            (1, 2.0),
            (3, 1.01),
            (1, 1.0001),
            (7, 1.5),
            (1_000, 10.0),
            (1, 1.000_001),
        ] {
            let f = NonZeroU64::new(first).unwrap();
            check(
                || view.logarithmic_steps(f, base).unwrap(),
                &format!("log {first} {base} {config:?}"),
            );
        }
    }
}
