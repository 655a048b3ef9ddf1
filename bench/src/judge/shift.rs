//! Distribution-free intervals of the shift between two sets of rounds: the Hodges–Lehmann
//! estimate with the interval of the Wilcoxon signed-rank test (rounds paired by
//! interleaving) or of the Mann–Whitney test (rounds measured apart), exact up to 50
//! values a side and by the normal approximation above.
//!
//! Why these: with A and B run in a random order within each round, a round's difference
//! B − A is as likely to be negative as positive when the two are the same code, whatever
//! the machine did during the round (drift, a neighbour's load, a colder cache for the
//! one that ran second), so the signed-rank test holds its level exactly; and the interval
//! is the set of shifts the test would not reject.

use std::vec::Vec;

use crate::stats::Z_99;

/// The test's two-sided level: intervals hold with 99 % confidence.
pub const ALPHA: f64 = 0.01;
/// Up to this many values a side the test's exact distribution is used.
const EXACT_UP_TO: usize = 50;
/// More rounds than this are merged, consecutive ones into their mean, so the pairwise
/// averages stay below about half a million.
const MAX_BLOCKS: usize = 1_000;

/// How the rounds of the two sides relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// Round `i` of A and round `i` of B ran back to back, in a random order.
    Paired,
    /// The rounds of A and of B were measured apart.
    Unpaired,
}

/// The shift of B against A: its estimate and 99 % interval, in the unit of the values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shift {
    /// The Hodges–Lehmann estimate: the median of the pairwise averages (paired) or of the
    /// pairwise differences (unpaired).
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Shift {
    /// The interval lies wholly on one side of 0: a difference at 99 %.
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// This shift with each end of its interval at least `half` from the estimate: what a
    /// measurement's resolution leaves uncertain however alike its rounds came out.
    pub fn at_least(self, half: f64) -> Shift {
        Shift {
            low: self.low.min(self.estimate - half),
            high: self.high.max(self.estimate + half),
            ..self
        }
    }
}

/// The least count of rounds a side needs for a 99 % interval: 8 paired rounds, 5 a side
/// apart (fewer cannot reach 99 % whatever they hold).
pub fn rounds_needed(design: Design) -> usize {
    match design {
        Design::Paired => (1..).find(|&n| signed_rank_critical(n).is_some()),
        Design::Unpaired => (1..).find(|&n| rank_sum_critical(n, n).is_some()),
    }
    .unwrap_or(usize::MAX)
}

/// The shift of B against A from rounds `a` and `b`: unbounded at both ends when they are
/// too few for a 99 % interval; `None` when either side has none (or, paired, when their
/// counts differ).
pub fn shift(design: Design, a: &[f64], b: &[f64]) -> Option<Shift> {
    match design {
        Design::Paired if a.len() == b.len() => {
            let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
            paired_shift(&blocks(&d))
        }
        Design::Paired => None,
        Design::Unpaired => unpaired_shift(&blocks(a), &blocks(b)),
    }
}

/// `values`, merged into at most [`MAX_BLOCKS`] means of consecutive values.
fn blocks(values: &[f64]) -> Vec<f64> {
    let size = values.len().div_ceil(MAX_BLOCKS).max(1);
    let mean = |c: &[f64]| c.iter().sum::<f64>() / c.len() as f64;
    values.chunks(size).map(mean).collect()
}

/// The estimate and interval from `values`, dropping `c` at each end of their order
/// (unbounded without `c`).
fn from_sorted(mut values: Vec<f64>, c: Option<usize>) -> Option<Shift> {
    values.sort_unstable_by(f64::total_cmp);
    let n = values.len();
    if n == 0 || values.iter().any(|v| v.is_nan()) {
        return None;
    }
    let estimate = (values[(n - 1) / 2] + values[n / 2]) / 2.0;
    let (low, high) = match c {
        Some(c) => (values[c], values[n - 1 - c]),
        None => (f64::NEG_INFINITY, f64::INFINITY),
    };
    Some(Shift {
        estimate,
        low,
        high,
    })
}

/// The shift from paired differences `d`: the Walsh averages `(dᵢ + dⱼ)/2, i ≤ j`.
fn paired_shift(d: &[f64]) -> Option<Shift> {
    let c = signed_rank_critical(d.len());
    let walsh = d
        .iter()
        .enumerate()
        .flat_map(|(i, x)| d[i..].iter().map(move |y| (x + y) / 2.0));
    from_sorted(walsh.collect(), c)
}

/// The shift from rounds measured apart: the differences `bⱼ − aᵢ`.
fn unpaired_shift(a: &[f64], b: &[f64]) -> Option<Shift> {
    let c = rank_sum_critical(a.len(), b.len());
    let d = a.iter().flat_map(|x| b.iter().map(move |y| y - x));
    from_sorted(d.collect(), c)
}

/// The largest `c` with `P(T ≤ c) ≤ α/2` for a statistic of this `mean` and standard
/// deviation, by the normal approximation with continuity correction.
fn normal_critical(mean: f64, sd: f64) -> Option<usize> {
    let c = (mean - 0.5 - Z_99 * sd).floor();
    (c >= 0.0).then_some(c as usize)
}

/// The largest `c` whose cumulative probability is at most `α/2`, from the counts of each
/// value of the statistic.
fn exact_critical(counts: &[f64]) -> Option<usize> {
    let total: f64 = counts.iter().sum();
    let mut cumulative = 0.0;
    let below = counts.iter().take_while(|&&n| {
        cumulative += n;
        cumulative / total <= ALPHA / 2.0
    });
    below.count().checked_sub(1)
}

/// The signed-rank test's critical count for `n` pairs: the Walsh averages to drop at each
/// end of a 99 % interval. `None` below 8 pairs.
pub fn signed_rank_critical(n: usize) -> Option<usize> {
    if n > EXACT_UP_TO {
        let nf = n as f64;
        let sd = (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0).sqrt();
        return normal_critical(nf * (nf + 1.0) / 4.0, sd);
    }
    // Counts of each rank sum W⁺: every rank is in or out, independently.
    let mut counts = std::vec![0.0f64; n * (n + 1) / 2 + 1];
    counts[0] = 1.0;
    for rank in 1..=n {
        for w in (rank..counts.len()).rev() {
            counts[w] += counts[w - rank];
        }
    }
    exact_critical(&counts)
}

/// The rank-sum test's critical count for `m` and `n` values: the differences to drop at
/// each end of a 99 % interval. `None` below 5 a side (for equal sides).
pub fn rank_sum_critical(m: usize, n: usize) -> Option<usize> {
    if m == 0 || n == 0 {
        return None;
    }
    let (mf, nf) = (m as f64, n as f64);
    if m.max(n) > EXACT_UP_TO {
        let sd = (mf * nf * (mf + nf + 1.0) / 12.0).sqrt();
        return normal_critical(mf * nf / 2.0, sd);
    }
    // Counts of each U: the coefficients of the Gaussian binomial [m+n choose m], built as
    // the product over i = 1..m of (1 − q^(n+i)) / (1 − q^i), every partial product
    // itself a polynomial.
    let mut counts = std::vec![0.0f64; m * n + 1];
    counts[0] = 1.0;
    for i in 1..=m {
        for u in (n + i..counts.len()).rev() {
            counts[u] -= counts[u - n - i];
        }
        for u in i..counts.len() {
            counts[u] += counts[u - i];
        }
    }
    exact_critical(&counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_critical_values_match_the_published_tables() {
        // Wilcoxon signed-rank, two-sided 0.01: n = 8 → 0, 10 → 3, 20 → 37, 30 → 109.
        let signed: Vec<_> = [7, 8, 10, 20, 30]
            .map(signed_rank_critical)
            .into_iter()
            .collect();
        assert_eq!(signed, [None, Some(0), Some(3), Some(37), Some(109)]);
        // Mann–Whitney U, two-sided 0.01: (5,5) → 0, (10,10) → 16, (20,20) → 105,
        // (8,12) → 15.
        let ranks: Vec<_> = [(4, 4), (5, 5), (10, 10), (20, 20), (8, 12)]
            .map(|(m, n)| rank_sum_critical(m, n))
            .into_iter()
            .collect();
        assert_eq!(ranks, [None, Some(0), Some(16), Some(105), Some(15)]);
        assert_eq!(rounds_needed(Design::Paired), 8);
        assert_eq!(rounds_needed(Design::Unpaired), 5);
    }

    #[test]
    fn the_normal_approximation_meets_the_exact_counts_where_they_hand_over() {
        // Within 1 % of the count at 50 a side (373 against 370 for the signed ranks, 877
        // against 875 for the rank sums).
        let exact = signed_rank_critical(50).unwrap() as f64;
        let n = 50.0f64;
        let sd = (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0).sqrt();
        let normal = normal_critical(n * (n + 1.0) / 4.0, sd).unwrap() as f64;
        assert!((exact - normal).abs() <= 0.01 * exact, "{exact} {normal}");
        let exact = rank_sum_critical(50, 50).unwrap() as f64;
        let sd = (2500.0f64 * 101.0 / 12.0).sqrt();
        let normal = normal_critical(1250.0, sd).unwrap() as f64;
        assert!((exact - normal).abs() <= 0.01 * exact, "{exact} {normal}");
    }

    #[test]
    fn a_constant_shift_is_found_exactly() {
        let a: Vec<f64> = (0..12).map(|i| 100.0 + i as f64).collect();
        let b: Vec<f64> = a.iter().map(|x| x + 5.0).collect();
        let s = shift(Design::Paired, &a, &b).unwrap();
        assert_eq!((s.estimate, s.low, s.high), (5.0, 5.0, 5.0));
        let s = shift(Design::Unpaired, &a, &b).unwrap();
        assert_eq!(s.estimate, 5.0);
        assert!(s.low < 5.0 && s.high > 5.0, "{s:?}");
        let few = shift(Design::Paired, &a[..7], &b[..7]).unwrap();
        assert_eq!(few.estimate, 5.0);
        assert_eq!((few.low, few.high), (f64::NEG_INFINITY, f64::INFINITY));
        assert!(!few.excludes_zero());
        assert_eq!(shift(Design::Paired, &a, &b[..11]), None);
        assert_eq!(shift(Design::Unpaired, &a, &[]), None);
    }

    #[test]
    fn many_rounds_are_merged_into_blocks_of_their_means() {
        let v: Vec<f64> = (0..2_500).map(f64::from).collect();
        let b = blocks(&v);
        assert_eq!(b.len(), 834);
        assert_eq!((b[0], b[832], b[833]), (1.0, 2_497.0, 2_499.0));
        assert_eq!(blocks(&v[..10]), v[..10]);
    }
}
