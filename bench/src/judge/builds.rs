//! Verdicts about sides of several builds each: the builds of one commit that differ only in
//! code layout (relinked with shuffled sections, `picollo layouts`) run, every build of both
//! sides, in each interleaved round. A layout moves a hot loop's time by several percent —
//! more than the rounds' noise — so one build a side measures its layout as much as the
//! change. Here the build is the unit: each build's figure is the median over its rounds of
//! its log round time less that round's mean over all builds (the machine's drift, common
//! to the round, cancels); the two sides' mean figures differ by the change, and the
//! spread of the figures inside a side (the layouts and the rounds' noise together) gives
//! Student's t interval with `2k − 2` degrees of freedom. The layout spread is that spread
//! beyond what the rounds' noise explains; the noise floor is the interval the rounds'
//! noise alone would leave.

use std::vec::Vec;

use super::apart::{judge_log_change, t_995};
use super::verdict::{Builds, Comparison};
use crate::error::BenchError;
use crate::measure::result::BenchResult;
use crate::stats::median;

/// The least count of builds a side for a grouped verdict.
pub const BUILDS_NEEDED: usize = 2;

/// The two-sided 99 % quantile of the standard normal.
const Z_995: f64 = 2.575_829_303_549;

/// Each build's figure (see the module), the rounds' noise of one figure (the standard
/// error of a median of `r` values: `1.2533 σ / √r`, σ from the pooled median absolute
/// deviation) from `grid`, one row of log round times per build.
fn figures(grid: &[Vec<f64>]) -> (Vec<f64>, f64) {
    let rounds = grid[0].len();
    let mean_of_round = |r: usize| grid.iter().map(|row| row[r]).sum::<f64>() / grid.len() as f64;
    let drift: Vec<f64> = (0..rounds).map(mean_of_round).collect();
    let mut deviations = Vec::new();
    let figures = grid.iter().map(|row| {
        let z: Vec<f64> = row.iter().zip(&drift).map(|(y, c)| y - c).collect();
        let m = median(&mut z.clone());
        deviations.extend(z.iter().map(|x| (x - m).abs()));
        m
    });
    let figures: Vec<f64> = figures.collect();
    let sigma = 1.4826 * median(&mut deviations);
    let se = match rounds {
        0 | 1 => f64::NAN,
        r => 1.2533 * sigma / (r as f64).sqrt(),
    };
    (figures, se)
}

/// Each build's round figures of metric `index` (the median of each round): `k` builds of
/// equal rounds, build after build.
fn build_times(r: &BenchResult, index: usize, k: usize) -> Vec<Vec<f64>> {
    let values: Vec<f64> = r
        .rounds
        .iter()
        .map(|x| x.value(index, 50.0).map_or(f64::NAN, |v| v as f64))
        .collect();
    let per_build = (values.len() / k.max(1)).max(1);
    values.chunks(per_build).map(<[f64]>::to_vec).collect()
}

/// `c` judged with builds as the unit, or where that cannot be, its pooled rounds' verdict
/// with a warning saying why.
pub(crate) fn judge_by_builds(c: &mut Comparison, (a, b): (&BenchResult, &BenchResult), k: usize) {
    if let Err(e) = judge_builds(c, a, b, k) {
        let why = std::format!(
            "not judged with builds as the unit ({e}): the verdict is the pooled rounds'"
        );
        c.warnings.push(why);
    }
}

/// Judge `c` (side A against side B) with builds as the unit, on `c`'s metric: `a` and `b`
/// hold the rounds of `k` builds each, build after build (each build's rounds in the order
/// they ran, round `i` of every build in the same interleaved round); see
/// [`judge_build_times`]. A count judged exactly ([`Comparison::steady`]: every run of
/// every build within its read jitter) is left as it is: no layout moved it.
///
/// # Errors
/// Rounds that do not split into `k` equal builds (or differ between the sides), and what
/// [`judge_build_times`] refuses.
pub fn judge_builds(
    c: &mut Comparison,
    a: &BenchResult,
    b: &BenchResult,
    k: usize,
) -> Result<(), BenchError> {
    let (na, nb) = (a.rounds.len(), b.rounds.len());
    if k < BUILDS_NEEDED || na != nb || na % k != 0 || na == 0 {
        return Err(BenchError::invalid(&std::format!(
            "builds: {k} builds a side (at least {BUILDS_NEEDED}) must split {na} and {nb} \
             rounds into equal builds"
        )));
    }
    if c.steady.is_some() {
        return Ok(());
    }
    let index = |r: &BenchResult| r.metrics.iter().position(|m| m.metric == c.metric);
    let (ia, ib) = (
        index(a).unwrap_or(a.time_index()),
        index(b).unwrap_or(b.time_index()),
    );
    let floor = a.resolution_share(ia) + b.resolution_share(ib);
    let (ta, tb) = (build_times(a, ia, k), build_times(b, ib, k));
    judge_times(c, (&ta, &tb), floor)
}

/// Judge `c` (side A against side B) with builds as the unit: `a[j][i]` is build `j` of side
/// A's time in round `i` (any one unit), `b` side B's; round `i` of every build ran in the
/// same interleaved round. The change, its interval, the noise floor and the verdict become
/// the grouped ones, and `c.builds` says how.
///
/// # Errors
/// Sides of fewer than [`BUILDS_NEEDED`] builds or of different sizes, builds of different
/// or no rounds, or fewer than 2 rounds whose times are all positive (a round with a time
/// that is not is left out, with a warning).
pub fn judge_build_times(
    c: &mut Comparison,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
) -> Result<(), BenchError> {
    judge_times(c, (a, b), 0.0)
}

/// [`judge_build_times`], with the interval's half-width (in log units) at least `floor`:
/// how far the two sides' figures may lie from their true values for their resolution alone
/// ([`BenchResult::resolution_share`]), which no count of builds or rounds narrows.
fn judge_times(
    c: &mut Comparison,
    (a, b): (&[Vec<f64>], &[Vec<f64>]),
    floor: f64,
) -> Result<(), BenchError> {
    let k = a.len();
    let rounds = a.first().map_or(0, Vec::len);
    let even = a.iter().chain(b).all(|x| x.len() == rounds);
    if k < BUILDS_NEEDED || b.len() != k || rounds == 0 || !even {
        return Err(BenchError::invalid(&std::format!(
            "builds: sides of {k} and {} builds (at least {BUILDS_NEEDED} a side, as many in \
             each) of equal rounds",
            b.len()
        )));
    }
    // A round where a build's time is not positive (a run floored at 0 by the baseline's
    // subtraction) leaves every build: the rounds stay paired across builds and sides.
    let kept: Vec<usize> = (0..rounds)
        .filter(|&i| a.iter().chain(b).all(|x| x[i] > 0.0 && x[i].is_finite()))
        .collect();
    if kept.len() < 2 {
        return Err(BenchError::invalid(&std::format!(
            "builds: {} of {rounds} rounds have a time that is not positive in some build \
             (at or below the subtracted baseline)",
            rounds - kept.len()
        )));
    }
    let grid: Vec<Vec<f64>> = a
        .iter()
        .chain(b)
        .map(|x| kept.iter().map(|&i| x[i].ln()).collect())
        .collect();
    if kept.len() < rounds {
        c.warnings.push(std::format!(
            "builds: {} of {rounds} rounds left out of the verdict: a build's time in them was \
             at or below the subtracted baseline (floored at 0)",
            rounds - kept.len()
        ));
    }
    judge_grid(c, &grid, k, floor);
    Ok(())
}

/// The grouped verdict from `grid`, one row of log round times per build, side A's `k`
/// builds then side B's, its interval's half-width at least `floor` (log units).
fn judge_grid(c: &mut Comparison, grid: &[Vec<f64>], k: usize, floor: f64) {
    let (m, se) = figures(grid);
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let (ma, mb) = (mean(&m[..k]), mean(&m[k..]));
    let squares = m[..k].iter().map(|x| (x - ma).powi(2));
    let squares = squares.chain(m[k..].iter().map(|x| (x - mb).powi(2)));
    let s2 = squares.sum::<f64>() / (2 * k - 2) as f64;
    let scale = (2.0 / k as f64).sqrt();
    let half = (t_995(2 * k - 2) * s2.sqrt() * scale).max(floor);
    let percent = |x: f64| x.exp_m1() * 100.0;
    let d = mb - ma;
    judge_log_change(c, d, half);
    c.builds = Some(Builds {
        processes: 1,
        per_side: k,
        layout_spread: match se.is_finite() {
            true => percent((s2 - se * se).max(0.0).sqrt()),
            false => f64::NAN,
        },
        noise_floor: percent((Z_995 * se * scale).max(floor)),
    });
}
