//! Where a stretch of runs splits best, and whether that split is more than noise: the
//! standardized rank-sum (Mann–Whitney) statistic of the runs before a split against those
//! after, at every split and every rank of the series, its largest absolute value judged by
//! permuting the runs.

use std::vec::Vec;

use picollo::concurrent::XorShift64;

/// The best split of a stretch: where, at which rank, and its statistic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// The first run after the split, counted from the stretch's start.
    pub at: usize,
    /// The rank (index into the series' ranks) whose statistic is the largest.
    pub rank: usize,
    /// The largest |Z| over splits and ranks.
    pub z: f64,
}

/// The mid-ranks (1-based, ties averaged) of `values`.
pub fn mid_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = std::vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        // The run of ties order[i..j] shares the mean of ranks i+1..=j.
        let mut j = i + 1;
        while j < order.len() && values[order[j]] == values[order[i]] {
            j += 1;
        }
        let shared = (i + 1 + j) as f64 / 2.0;
        order[i..j].iter().for_each(|&k| ranks[k] = shared);
        i = j;
    }
    ranks
}

/// The largest |Z| of `ranks` (one rank's mid-ranks, in run order, read through `order`)
/// over the splits leaving at least `min` runs each side, and where. Z is the rank sum of
/// the runs before the split, centred and scaled by its mean and deviation under no change.
fn largest(ranks: &[f64], order: &[usize], min: usize) -> (usize, f64) {
    let n = ranks.len() as f64;
    let mut sum = 0.0;
    let mut best = (0, 0.0);
    for (k, &i) in order.iter().enumerate().take(order.len() - min) {
        sum += ranks[i];
        let before = (k + 1) as f64;
        if k + 1 < min {
            continue;
        }
        let mean = before * (n + 1.0) / 2.0;
        let deviation = (before * (n - before) * (n + 1.0) / 12.0).sqrt();
        let z = ((sum - mean) / deviation).abs();
        if z > best.1 {
            best = (k + 1, z);
        }
    }
    best
}

/// The best split of the runs whose mid-ranks (within the stretch) `ranks[rank][run]` hold,
/// in the order `order`, each side at least `min` runs long (the stretch holds at least
/// `2·min`).
pub fn best(ranks: &[Vec<f64>], order: &[usize], min: usize) -> Split {
    let mut best = Split {
        at: 0,
        rank: 0,
        z: 0.0,
    };
    for (q, r) in ranks.iter().enumerate() {
        let (at, z) = largest(r, order, min);
        if z > best.z {
            best = Split { at, rank: q, z };
        }
    }
    best
}

/// How a split's significance is judged.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// The level: a split is kept where its p-value is at most this.
    pub alpha: f64,
    /// The most permutations drawn.
    pub permutations: usize,
    /// The least run count each side of a split.
    pub min: usize,
}

/// Whether `observed` (the stretch's best |Z|) is significant at `test.alpha`, and its
/// p-value: the share of permuted run orders (plus the observed one) whose best |Z| reaches
/// it. Drawing stops once the p-value cannot fall to alpha (Besag and Clifford's sequential
/// rule: a flat stretch costs a few permutations); where a Bonferroni bound over every split
/// and rank of the normal tail is already below alpha/100, the split stands without them.
pub fn significant(
    ranks: &[Vec<f64>],
    observed: f64,
    test: &Test,
    rng: &mut XorShift64,
) -> (bool, f64) {
    let n = ranks[0].len();
    let splits = (n + 1 - 2 * test.min) * ranks.len();
    let bound = splits as f64 * crate::tails::erfc(observed / core::f64::consts::SQRT_2);
    if bound <= test.alpha / 100.0 {
        return (true, bound);
    }
    // p = (1 + reached) / (1 + permutations) ≤ alpha while reached ≤ this.
    let allowed = (test.alpha * (test.permutations + 1) as f64 - 1.0).floor();
    let mut order: Vec<usize> = (0..n).collect();
    let mut reached = 0.0;
    for drawn in 1..=test.permutations {
        shuffle(&mut order, rng);
        if best(ranks, &order, test.min).z >= observed * (1.0 - 1e-12) {
            reached += 1.0;
            if reached > allowed {
                return (false, (1.0 + reached) / (1.0 + drawn as f64));
            }
        }
    }
    (true, (1.0 + reached) / (1.0 + test.permutations as f64))
}

/// `order` in a drawn order (Fisher–Yates, from the last place down).
fn shuffle(order: &mut [usize], rng: &mut XorShift64) {
    for i in (1..order.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_their_mean_rank() {
        assert_eq!(
            mid_ranks(&[3.0, 1.0, 3.0, 2.0]),
            std::vec![3.5, 1.0, 3.5, 2.0]
        );
    }

    #[test]
    fn a_clean_step_splits_where_it_steps() {
        // Both sides unordered within, every run after the step above every run before.
        let values: Vec<f64> = (0..40)
            .map(|i| match i < 25 {
                true => (i * 7 % 25) as f64,
                false => 100.0 + (i * 7 % 15) as f64,
            })
            .collect();
        let ranks = std::vec![mid_ranks(&values)];
        let order: Vec<usize> = (0..40).collect();
        let s = best(&ranks, &order, 3);
        assert_eq!(s.at, 25);
        assert_eq!(s.rank, 0);
    }
}
