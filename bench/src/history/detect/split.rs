//! Where a stretch of runs splits best, and whether that split is more than noise: the
//! standardized rank-sum (Mann–Whitney) statistic of a segment of the runs against the rest,
//! for every segment (a split is a segment that starts or ends the stretch; a segment inside
//! it, a change and its undoing: circular binary segmentation) and every rank of the series,
//! its largest absolute value judged by permuting the runs.

use std::vec::Vec;

use picollo::concurrent::XorShift64;

/// The best segment of a stretch: where, at which rank, and its statistic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// The segment's first run and the first run after it, counted from the stretch's
    /// start: `(0, k)` or `(k, n)` is a split at `k`.
    pub at: (usize, usize),
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

/// Which segments a test weighs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// The least count of runs in a segment, out of it, and in each piece it leaves.
    pub min: usize,
    /// Segments inside the stretch too; else splits alone.
    pub inside: bool,
}

/// Whether segment `i..j` of a stretch of `n` runs may stand: at least `min` runs in it and
/// out of it, each piece it leaves at an end empty or at least `min` runs long, and a
/// segment inside only where the shape weighs them.
fn allowed(i: usize, j: usize, n: usize, shape: Shape) -> bool {
    let (m, min) = (j - i, shape.min);
    let ends = (i == 0 || i >= min && shape.inside) && (j == n || n - j >= min);
    m >= min && n - m >= min && ends
}

/// The largest |Z| of `ranks` (one rank's mid-ranks, in run order, read through `order`)
/// over the segments [`allowed`] by `shape`, and which. Z is the segment's rank sum,
/// centred and scaled by its mean and deviation under no change.
fn largest(ranks: &[f64], order: &[usize], shape: Shape) -> ((usize, usize), f64) {
    let n = order.len();
    let mut sums = std::vec![0.0; n + 1];
    for (k, &i) in order.iter().enumerate() {
        sums[k + 1] = sums[k] + ranks[i];
    }
    let nf = n as f64;
    // 1 / deviation of a segment's rank sum, by its length.
    let scale: Vec<f64> = (0..=n)
        .map(|m| 1.0 / (m as f64 * (nf - m as f64) * (nf + 1.0) / 12.0).sqrt())
        .collect();
    let mut best = ((0, 0), 0.0);
    let starts = if shape.inside { n } else { 1 };
    for i in 0..starts {
        for j in i + shape.min..=n {
            let m = j - i;
            let z = (sums[j] - sums[i] - m as f64 * (nf + 1.0) / 2.0).abs() * scale[m];
            if z > best.1 && allowed(i, j, n, shape) {
                best = ((i, j), z);
            }
        }
    }
    best
}

/// The count of segments of `n` runs [`allowed`] by `shape`.
fn segments(n: usize, shape: Shape) -> usize {
    (0..n)
        .map(|i| {
            (i + shape.min..=n)
                .filter(|&j| allowed(i, j, n, shape))
                .count()
        })
        .sum()
}

/// The best segment of the runs whose mid-ranks (within the stretch) `ranks[rank][run]`
/// hold, in the order `order`, as [`allowed`] by `shape` (the stretch holds at least
/// `2·min`).
pub fn best(ranks: &[Vec<f64>], order: &[usize], shape: Shape) -> Split {
    let mut best = Split {
        at: (0, 0),
        rank: 0,
        z: 0.0,
    };
    for (q, r) in ranks.iter().enumerate() {
        let (at, z) = largest(r, order, shape);
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
    /// The segments weighed.
    pub shape: Shape,
}

/// Whether `observed` (the stretch's best |Z|) is significant at `test.alpha`, and its
/// p-value: the share of permuted run orders (plus the observed one) whose best |Z| reaches
/// it, judged at two looks that spend half of alpha each: after `2/alpha − 1` draws, where
/// none reached it (p ≤ alpha/2), and after all of them. Drawing stops once the p-value
/// cannot fall to alpha/2 (Besag and Clifford's sequential rule: a flat stretch costs a few
/// permutations); where a Bonferroni bound over every segment and rank of the normal tail
/// is already below alpha/100, the split stands without them.
pub fn significant(
    ranks: &[Vec<f64>],
    observed: f64,
    test: &Test,
    rng: &mut XorShift64,
) -> (bool, f64) {
    let n = ranks[0].len();
    let splits = segments(n, test.shape) * ranks.len();
    let bound = splits as f64 * crate::tails::erfc(observed / core::f64::consts::SQRT_2);
    if bound <= test.alpha / 100.0 {
        return (true, bound);
    }
    let half = test.alpha / 2.0;
    let first_look = ((1.0 / half).round() as usize - 1).min(test.permutations);
    // At the last look, p = (1 + reached) / (1 + permutations) ≤ alpha/2 while reached ≤ this.
    let allowed = (half * (test.permutations + 1) as f64 - 1.0).floor();
    let mut order: Vec<usize> = (0..n).collect();
    let mut reached = 0.0;
    for drawn in 1..=test.permutations {
        shuffle(&mut order, rng);
        if best(ranks, &order, test.shape).z >= observed * (1.0 - 1e-12) {
            reached += 1.0;
            if reached > allowed {
                return (false, (1.0 + reached) / (1.0 + drawn as f64));
            }
        }
        if drawn == first_look && reached == 0.0 {
            return (true, 1.0 / (1.0 + drawn as f64));
        }
    }
    let p = (1.0 + reached) / (1.0 + test.permutations as f64);
    (p <= half, p)
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
    fn a_bump_is_one_segment() {
        // Runs 20..30 above every other.
        let values: Vec<f64> = (0..60)
            .map(|i| (i * 7 % 20) as f64 + if (20..30).contains(&i) { 100.0 } else { 0.0 })
            .collect();
        let ranks = std::vec![mid_ranks(&values)];
        let order: Vec<usize> = (0..60).collect();
        let inside = Shape {
            min: 5,
            inside: true,
        };
        assert_eq!(best(&ranks, &order, inside).at, (20, 30));
        let splits = Shape {
            min: 5,
            inside: false,
        };
        assert_ne!(best(&ranks, &order, splits).at, (20, 30));
        assert_eq!(segments(12, splits), 3);
        assert_eq!(
            segments(12, inside),
            6,
            "0..5..12, 0..6, 0..7, 5..12, 6..12, 7..12"
        );
    }

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
        let s = best(
            &ranks,
            &order,
            Shape {
                min: 3,
                inside: false,
            },
        );
        assert!(s.at == (0, 25) || s.at == (25, 40), "{s:?}");
        assert_eq!(s.rank, 0);
    }
}
