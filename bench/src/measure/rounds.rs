//! Rounds: a result's samples cut into stretches of time, each summarized by its own
//! percentiles, so that a comparison can judge round against round and carry the spread
//! between rounds (the machine's drift) in its interval.

use std::vec::Vec;

use crate::stats::{median, Z_99};

/// The ranks each round keeps of every metric, in percent.
pub const ROUND_RANKS: [f64; 8] = [0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 100.0];

/// One round of a result.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// Seconds from the start of the measurement (of the comparison, for interleaved
    /// rounds) to the round's first sample.
    pub start: f64,
    /// Seconds from its first sample's start to its last one's end.
    pub length: f64,
    /// Samples it holds.
    pub samples: u64,
    /// In an interleaved comparison, this side ran first in the round.
    pub first: bool,
    /// Per metric, its values at [`ROUND_RANKS`] (thousandths of the unit), exact.
    pub quantiles: Vec<[u64; ROUND_RANKS.len()]>,
}

/// Where a round's samples lie in a result's rows, and when they ran.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Span {
    /// The index of its first sample.
    pub first_sample: usize,
    /// How many samples.
    pub samples: usize,
    /// As [`Round::start`].
    pub start: f64,
    /// As [`Round::length`].
    pub length: f64,
    /// As [`Round::first`].
    pub first: bool,
}

/// The `rank` percentile of sorted `values` by the nearest rank: the value at
/// `⌈rank/100 · n⌉` ([`picollo::rank_to_count`], the histograms' rule), at least the first.
pub(crate) fn nearest_rank(sorted: &[u64], rank: f64) -> u64 {
    let at = picollo::rank_to_count(rank, sorted.len() as u128) as usize;
    sorted.get(at.max(1) - 1).copied().unwrap_or(0)
}

impl Round {
    /// The round of `span` over `rows` (each sample's figures, `metrics` a sample).
    pub fn of(rows: &[u64], metrics: usize, span: Span) -> Round {
        let from = span.first_sample * metrics;
        let mine = &rows[from..from + span.samples * metrics];
        let quantiles = (0..metrics).map(|m| {
            let mut values: Vec<u64> = mine.iter().skip(m).step_by(metrics).copied().collect();
            values.sort_unstable();
            ROUND_RANKS.map(|rank| nearest_rank(&values, rank))
        });
        Round {
            start: span.start,
            length: span.length,
            samples: span.samples as u64,
            first: span.first,
            quantiles: quantiles.collect(),
        }
    }

    /// Metric `metric`'s value at `rank` (one of [`ROUND_RANKS`]), in thousandths of its
    /// unit.
    pub fn value(&self, metric: usize, rank: f64) -> Option<u64> {
        let at = ROUND_RANKS.iter().position(|&r| r == rank)?;
        Some(self.quantiles.get(metric)?[at])
    }
}

/// The von Neumann ratio of `series`: the mean square of successive differences over the
/// variance. About 2 when the values come in no particular order; well below 2 when they
/// drift (neighbours agree more than the whole series does). `None` below 4 values or when
/// they are all equal.
pub fn von_neumann(series: &[f64]) -> Option<f64> {
    let n = series.len();
    let mean = series.iter().sum::<f64>() / n as f64;
    let spread: f64 = series.iter().map(|x| (x - mean) * (x - mean)).sum();
    if n < 4 || spread <= 0.0 {
        return None;
    }
    let steps: f64 = series
        .windows(2)
        .map(|w| (w[1] - w[0]) * (w[1] - w[0]))
        .sum();
    Some(steps / spread)
}

/// The ratio of [`von_neumann`] when it is below 2 by more than 2.576 of its standard
/// deviation for values in no order (`√(4(n−2)/(n²−1))`): the series is not in random
/// order, at 99 %.
pub fn ordered(series: &[f64]) -> Option<f64> {
    let ratio = von_neumann(series)?;
    let n = series.len() as f64;
    let sd = (4.0 * (n - 2.0) / (n * n - 1.0)).sqrt();
    (ratio < 2.0 - Z_99 * sd).then_some(ratio)
}

/// How far `series` moved across its run: the range of its medians of 5 neighbours (a
/// lone outlier moves none of them), in percent of the whole series' median. `None` below
/// 5 values or a median of 0.
pub fn drift_size(series: &[f64]) -> Option<f64> {
    let median = |v: &[f64]| median(&mut v.to_vec());
    if series.len() < 5 {
        return None;
    }
    let whole = median(series);
    if whole <= 0.0 {
        return None;
    }
    let local: Vec<f64> = series.windows(5).map(median).collect();
    let (lo, hi) = local
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &m| (l.min(m), h.max(m)));
    Some((hi - lo) / whole * 100.0)
}

/// The smallest drift ([`drift_size`]) that is warned about: 5 % of the median round.
pub const DRIFT_WARNED: f64 = 5.0;

/// A drift worth a warning: the series is not in random order ([`ordered`], at 99 %) and
/// moved by [`DRIFT_WARNED`] or more; its von Neumann ratio and size in percent.
pub fn drift(series: &[f64]) -> Option<(f64, f64)> {
    let ratio = ordered(series)?;
    let size = drift_size(series)?;
    (size >= DRIFT_WARNED).then_some((ratio, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_keeps_the_exact_percentiles_of_its_own_samples() {
        // Two metrics; samples 3..7 of 10 hold times 10..14 and counts 0..4.
        let rows: Vec<u64> = (0..10u64)
            .flat_map(|i| [7 + i, i.saturating_sub(3)])
            .collect();
        let span = Span {
            first_sample: 3,
            samples: 5,
            start: 1.5,
            length: 0.25,
            first: true,
        };
        let r = Round::of(&rows, 2, span);
        assert_eq!(r.quantiles[0], [10, 11, 12, 13, 14, 14, 14, 14]);
        assert_eq!(r.quantiles[1], [0, 1, 2, 3, 4, 4, 4, 4]);
        assert_eq!(
            (r.samples, r.start, r.length, r.first),
            (5, 1.5, 0.25, true)
        );
        assert_eq!(r.value(0, 50.0), Some(12));
        assert_eq!(r.value(0, 60.0), None);
    }

    #[test]
    fn drift_is_told_apart_from_noise_in_no_order() {
        let trend: Vec<f64> = (0..20).map(|i| 100.0 + i as f64).collect();
        assert!(ordered(&trend).is_some_and(|r| r < 0.1));
        // From 102 to 117 in the medians of 5, of a median of 109.5: 13.7 %.
        let (ratio, size) = drift(&trend).unwrap();
        assert!(
            ratio < 0.1 && (size - 15.0 / 109.5 * 100.0).abs() < 1e-9,
            "{size}"
        );
        // A trend of 0.02 % a round: in order, but too small to warn about.
        let slight: Vec<f64> = (0..20).map(|i| 100.0 + 0.02 * i as f64).collect();
        assert!(ordered(&slight).is_some());
        assert_eq!(drift(&slight), None);
        // One round 10x the others: no drift (the medians of 5 do not see it).
        let mut spike = [100.0; 20];
        spike[9] = 1_000.0;
        assert_eq!(drift_size(&spike), Some(0.0));
        // A step of 10 % half way: a drift.
        let step: Vec<f64> = (0..20)
            .map(|i| if i < 10 { 100.0 } else { 110.0 })
            .collect();
        assert!(drift(&step).is_some_and(|(_, size)| (size - 10.0 / 105.0 * 100.0).abs() < 1e-9));
        // Alternating values: neighbours disagree more than the series does.
        let zigzag: Vec<f64> = (0..20).map(|i| 100.0 + (i % 2) as f64).collect();
        assert_eq!(ordered(&zigzag), None);
        assert_eq!(drift(&zigzag), None);
        assert!(von_neumann(&zigzag).unwrap() > 3.0);
        assert_eq!(von_neumann(&[1.0, 1.0, 1.0, 1.0]), None);
        assert_eq!(von_neumann(&[1.0, 2.0, 3.0]), None);
    }
}
