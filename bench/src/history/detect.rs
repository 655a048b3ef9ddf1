//! Change points of a [`Series`]: the runs where a benchmark's distribution moved and stayed
//! moved, at its body (P50), its shoulder (P90) or its tail (P99). docs/history.md ("Change
//! points") tells the method: binary segmentation on the runs' rank sums at every rank at
//! once, each split judged by permuting the runs, each change sized by Hodges–Lehmann with
//! its 99 % interval and named a shift, a tail or a spread.

mod locate;
mod size;
mod split;

use std::string::String;
use std::vec::Vec;

use picollo::concurrent::XorShift64;
use serde::{Deserialize, Serialize};

pub use size::Size;
use split::{best, mid_ranks, significant, Shape, Split, Test};

use super::series::Series;

/// How changes are found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The level of each split's test: a series with no change gets a false one with at
    /// most this probability.
    pub alpha: f64,
    /// The most permutations a split's test draws.
    pub permutations: usize,
    /// The least count of runs between two changes (and before the first, after the last):
    /// fewer runs than this never make a change of their own.
    pub min_segment: usize,
    /// The seed of the permutations: a seed gives the same changes every time.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            alpha: 0.005,
            permutations: 1999,
            min_segment: 5,
            seed: 1,
        }
    }
}

/// What moved at a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The whole distribution: the body moved and the tail with it, in proportion.
    Shift,
    /// The tail alone: the body held, the width (highest rank against lowest) moved.
    Tail,
    /// The body moved and the width changed too: body and tail moved by different amounts.
    Spread,
}

impl Kind {
    /// Its name in words (and in JSON): `shift`, `tail` or `spread`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Shift => "shift",
            Kind::Tail => "tail",
            Kind::Spread => "spread",
        }
    }
}

/// One change point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The first run after the change (index into the series' points).
    pub index: usize,
    /// Its commit.
    pub commit: String,
    /// What moved.
    pub kind: Kind,
    /// The rank whose rank sums split best there.
    pub found_at: f64,
    /// The p-value of its split.
    pub p_value: f64,
    /// Its size at each rank of the series, with 99 % intervals, against the runs back to
    /// the change before.
    pub sizes: Vec<Size>,
    /// The size of the width: the highest rank's figure against the lowest's.
    pub width: Size,
}

/// The changes of a series and how they were judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The benchmark.
    pub benchmark: String,
    /// The metric.
    pub metric: String,
    /// Its runs.
    pub runs: usize,
    /// The level of each split's test.
    pub alpha: f64,
    /// The splits tested (one per stretch judged).
    pub tests: usize,
    /// The changes, in run order.
    pub changes: Vec<Change>,
}

impl Report {
    /// Its changes whose first run is among the series' last `n` runs.
    pub fn within_last(&self, n: usize) -> impl Iterator<Item = &Change> {
        let from = self.runs.saturating_sub(n);
        self.changes.iter().filter(move |c| c.index >= from)
    }
}

/// The change points of `series`. Errors: a series [`Series::check`] refuses, or options
/// out of range (alpha not in (0, 1), fewer than 1 permutation or a segment under 2 runs).
pub fn detect(series: &Series, options: &Options) -> Result<Report, String> {
    series.check()?;
    if !(options.alpha > 0.0 && options.alpha < 1.0) {
        return Err(std::format!(
            "alpha must lie in (0, 1), not {}",
            options.alpha
        ));
    }
    if options.permutations < 1 || options.min_segment < 2 {
        return Err("at least 1 permutation and segments of at least 2 runs".into());
    }
    let figures = series.log_medians();
    let (cuts, tests) = segment(&figures, options);
    let changes = cuts
        .iter()
        .enumerate()
        .map(|(i, &(at, rank, p))| {
            let from = if i == 0 { 0 } else { cuts[i - 1].0 };
            let to = cuts.get(i + 1).map_or(series.points.len(), |c| c.0);
            change(series, &figures, (from, at, to), rank, p)
        })
        .collect();
    Ok(Report {
        benchmark: series.benchmark.clone(),
        metric: series.metric.clone(),
        runs: series.points.len(),
        alpha: options.alpha,
        tests,
        changes,
    })
}

/// Binary segmentation of `figures` (`[rank][run]`), circular where a split alone does not
/// stand: each stretch's best split, judged at half the level; where it does not stand, its
/// best segment (a segment inside it too: a change and its undoing), at the other half. A
/// split cuts the stretch and its two sides are judged in turn; a segment inside sends the
/// stretches up to its end and from its start (so each of its ends stands on a test of its
/// own). The cuts (first run after, rank, p-value) in run order, and the count of tests.
fn segment(figures: &[Vec<f64>], options: &Options) -> (Vec<(usize, usize, f64)>, usize) {
    let mut rng = XorShift64::new(options.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let min = options.min_segment;
    let (mut cuts, mut tests) = (Vec::new(), 0);
    let mut stretches = std::vec![(0, figures[0].len())];
    while let Some((lo, hi)) = stretches.pop() {
        if hi - lo < 2 * min {
            continue;
        }
        tests += 1;
        let Some((s, p)) = judge(figures, (lo, hi), options, &mut rng) else {
            continue;
        };
        match s.at {
            (i, j) if i > 0 && j < hi - lo => {
                stretches.push((lo + i, hi));
                stretches.push((lo, lo + j));
            }
            (i, j) => {
                let k = if i == 0 { j } else { i };
                let at = lo + locate::refine(&figures[s.rank][lo..hi], k, hi - lo, min);
                cuts.push((at, s.rank, p));
                // The right side is pushed first so that the left is judged first: the
                // draws, and so the answer, depend only on the seed.
                stretches.push((at, hi));
                stretches.push((lo, at));
            }
        }
    }
    cuts.sort_unstable_by_key(|c| c.0);
    // Two stretches that overlap (the ends of one segment) may find one change twice.
    cuts.dedup_by(|b, a| b.0 - a.0 < min);
    (cuts, tests)
}

/// The stretch `lo..hi` of `figures`' best split where it stands at half the level, else
/// its best segment where that stands at the other half; with its p-value.
fn judge(
    figures: &[Vec<f64>],
    (lo, hi): (usize, usize),
    options: &Options,
    rng: &mut XorShift64,
) -> Option<(Split, f64)> {
    let ranks: Vec<Vec<f64>> = figures.iter().map(|f| mid_ranks(&f[lo..hi])).collect();
    let order: Vec<usize> = (0..hi - lo).collect();
    let min = options.min_segment;
    [false, true].into_iter().find_map(|inside| {
        let test = Test {
            alpha: options.alpha / 2.0,
            permutations: options.permutations,
            shape: Shape { min, inside },
        };
        let s = best(&ranks, &order, test.shape);
        let (kept, p) = significant(&ranks, s.z, &test, rng);
        kept.then_some((s, p))
    })
}

/// The change at `at` between the stretches `from..at` and `at..to` (`bounds`), found at
/// rank index `rank` with p-value `p`: its sizes and its kind.
fn change(
    series: &Series,
    figures: &[Vec<f64>],
    (from, at, to): (usize, usize, usize),
    rank: usize,
    p: f64,
) -> Change {
    let z = crate::stats::Z_99;
    let sizes: Vec<Size> = figures
        .iter()
        .zip(&series.ranks)
        .map(|(f, &r)| size::shift(r, &f[from..at], &f[at..to], z))
        .collect();
    let last = figures.len() - 1;
    let widths: Vec<f64> = figures[last]
        .iter()
        .zip(&figures[0])
        .map(|(hi, lo)| hi - lo)
        .collect();
    let width = size::shift(series.ranks[last], &widths[from..at], &widths[at..to], z);
    Change {
        index: at,
        commit: series.points[at].commit.clone(),
        kind: kind(&sizes[0], &width, rank),
        found_at: series.ranks[rank],
        p_value: p,
        sizes,
        width,
    }
}

/// What moved, from the body's size and the width's: where neither interval excludes no
/// change, the rank that split best names it (the lowest: a shift; another: the tail).
fn kind(body: &Size, width: &Size, rank: usize) -> Kind {
    match (body.holds(), width.holds()) {
        (false, true) => Kind::Shift,
        (true, false) => Kind::Tail,
        (false, false) => Kind::Spread,
        (true, true) if rank == 0 => Kind::Shift,
        (true, true) => Kind::Tail,
    }
}
