//! The cumulative copy answers as the live histogram it was built from: every percentile
//! (the whole result, bucket and counts included, and the value alone), every rank and
//! count between values, the extremes, over random histograms of both counter widths.

mod common;

use common::SplitMix64;
use picollo::{Config, Counter, Cumulative, Histogram, Percentile, QueryError, ValueSelection};

const HISTOGRAMS: usize = 50;
const RANKS: usize = 10_000;

/// A random histogram: relative error, range, value selection, values and their counts
/// all drawn from `rng`; some values fall outside the range.
fn random_histogram<C: Counter>(rng: &mut SplitMix64) -> Histogram<C, Vec<C>> {
    let errors = [0.05, 0.01, 0.001, 0.0005];
    let selections = [
        ValueSelection::Midpoint,
        ValueSelection::Lower,
        ValueSelection::Upper,
        ValueSelection::Interpolated,
    ];
    let low = rng.below(1000);
    let high = low + 1 + (rng.next_u64() >> rng.below(40));
    let config = Config::new()
        .with_relative_error(errors[rng.below(4) as usize])
        .with_range(low, high)
        .with_value_selection(selections[rng.below(4) as usize]);
    let mut h: Histogram<C, Vec<C>> = config.build().unwrap();
    let n = 1 + rng.below(5_000);
    for _ in 0..n {
        let v = rng.any_magnitude() % high.saturating_mul(2);
        h.record_n(v, 1 + rng.below(3) * rng.below(1000));
    }
    h
}

/// `RANKS` random ranks in `[0, 100]` (ends included), strictly increasing.
fn random_ranks(rng: &mut SplitMix64) -> Vec<f64> {
    let mut ranks: Vec<f64> = (0..RANKS).map(|_| rng.next_f64() * 100.0).collect();
    ranks.extend([0.0, 50.0, 99.9, 100.0]);
    ranks.sort_by(f64::total_cmp);
    ranks.dedup();
    ranks
}

fn agrees_with_the_live_histogram<C: Counter>(seed: u64) {
    let mut rng = SplitMix64(seed);
    for k in 0..HISTOGRAMS {
        let h = random_histogram::<C>(&mut rng);
        let live = h.view();
        let copy = Cumulative::new(&live).unwrap();
        assert_eq!(copy.total_count(), live.total_count(), "histogram {k}");
        let ranks = random_ranks(&mut rng);
        let mut expected = vec![Percentile::default(); ranks.len()];
        live.percentiles(&ranks, &mut expected).unwrap();
        let mut got = vec![Percentile::default(); ranks.len()];
        copy.percentiles(&ranks, &mut got).unwrap();
        for ((rank, e), g) in ranks.iter().zip(&expected).zip(&got) {
            assert_eq!(g, e, "histogram {k}, rank {rank}");
        }
        for &rank in ranks.iter().step_by(97) {
            let value = copy.percentile_value(rank);
            assert_eq!(
                value,
                live.percentile_value(rank),
                "histogram {k}, rank {rank}"
            );
        }
        let view = copy.view();
        for _ in 0..200 {
            let (a, b) = (rng.any_magnitude(), rng.any_magnitude());
            let (lo, hi) = (a.min(b), a.max(b));
            assert_eq!(
                view.rank_of(a),
                live.rank_of(a),
                "histogram {k}, rank of {a}"
            );
            assert_eq!(view.count_between(lo, hi), live.count_between(lo, hi));
            assert_eq!(view.quantile_of(a), live.quantile_of(a));
        }
        assert_eq!(view.min_recorded(), live.min_recorded(), "histogram {k}");
        assert_eq!(view.max_recorded(), live.max_recorded(), "histogram {k}");
        assert_eq!(view.summary().percentiles, live.summary().percentiles);
    }
}

#[test]
fn every_answer_equals_the_live_histograms_u64() {
    agrees_with_the_live_histogram::<u64>(64);
}

#[test]
fn every_answer_equals_the_live_histograms_u32() {
    agrees_with_the_live_histogram::<u32>(32);
}

#[test]
fn an_empty_copy_refuses_percentiles_as_the_live_one() {
    let h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    let copy = h.view().cumulative().unwrap();
    assert_eq!(copy.percentile(50.0), Err(QueryError::Empty));
    assert_eq!(h.view().percentile(50.0), Err(QueryError::Empty));
    assert_eq!(copy.view().min_recorded(), None);
    assert_eq!(copy.view().max_recorded(), None);
    assert_eq!(
        copy.percentile(101.0),
        Err(QueryError::RankOutOfRange(101.0))
    );
}

#[test]
fn storage_of_the_wrong_length_and_a_total_past_u64_are_refused() {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().with_range(1, 1000).build().unwrap();
    let len = h.counts().len();
    let short = Cumulative::from_storage(&h.view(), vec![0u64; len]);
    assert!(matches!(short, Err(QueryError::OutputLength { .. })));
    let fits = Cumulative::from_storage(&h.view(), vec![0u64; len + 1]);
    assert_eq!(fits.unwrap().total_count(), 0);
    h.record_n(5, u64::MAX);
    h.record_n(500, 1);
    let too_large = Cumulative::new(&h.view());
    assert!(matches!(too_large, Err(QueryError::TotalTooLarge)));
}
