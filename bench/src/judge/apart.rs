//! Verdicts about results measured apart (a saved baseline against a later run): the spread
//! inside one run (its rounds) does not hold what changes between runs — the frequency, the
//! placement and the neighbours of a process started later — so such a comparison is
//! judged on runs apart as the unit. The baseline keeps the median round time of each run
//! it was saved from (`k` runs apart); a new run is one more. Under no change, the new
//! run's log median and the saved ones come from one distribution, and the new one lies in
//! the 99 % prediction interval `mean ± t(0.995, k − 1) · s · √(1 + 1/k)` of the saved
//! ones (`s` their standard deviation, Student's t): outside it, B differs. Fewer than two
//! saved runs leave the spread between runs unknown: no verdict. Runs apart that spread so
//! far that the interval of no change holds twice A's time are not judged either.

use std::vec::Vec;

use super::shift::Shift;
use super::verdict::{Apart, Builds, Comparison, Verdict};
use crate::stats::median;

/// The least count of saved runs apart for a verdict.
pub const RUNS_APART_NEEDED: usize = 2;

/// The noise floor, in percent, from which a comparison on runs apart is not judged
/// ([`Verdict::NotJudged`]): runs apart that leave B twice as slow as A inside the 99 %
/// interval of no change (a machine that steps between speeds from run to run) can say
/// neither that B changed nor that it did not. Measured at no change (`e^h − 1`, `h` the
/// interval's half-width in log time), so that a large change does not widen it.
pub const NOISE_FLOOR_BOUND: f64 = 100.0;

/// Judge `c` (the baseline A against a new run B) on runs apart: `saved` holds the median
/// round figure of `c`'s metric ([`median_round_at`]; time: [`median_round`]) in each run
/// the baseline was saved from, `new` the new run's (any one unit). The change, its
/// interval, the noise floor and the verdict become those of the new run against the saved
/// runs' spread; with fewer than [`RUNS_APART_NEEDED`] runs (or a median that is not
/// positive) the verdict is [`Verdict::NotEnoughRunsApart`], with [`Apart::floored`] where a
/// median is 0: floored, nothing to judge; where the runs apart spread so far that the
/// noise floor reaches [`NOISE_FLOOR_BOUND`] and the interval settles nothing,
/// [`Verdict::NotJudged`]. A count judged exactly
/// ([`Comparison::steady`]) is left as it is: its runs agree within their read jitter, and
/// what moves between processes moves nothing there to judge.
pub fn judge_apart(c: &mut Comparison, saved: &[f64], new: f64) {
    if c.steady.is_some() {
        return;
    }
    let logs: Vec<f64> = saved.iter().filter(|m| **m > 0.0).map(|m| m.ln()).collect();
    let k = logs.len();
    c.apart = Some(Apart {
        runs: saved.len(),
        spread: f64::NAN,
        floored: floored(saved.iter().chain([&new])),
        range: range(saved),
        floor: f64::NAN,
        speed: None,
    });
    if k < RUNS_APART_NEEDED || k != saved.len() || new <= 0.0 || !new.is_finite() {
        unjudged(c);
        return;
    }
    let mean = logs.iter().sum::<f64>() / k as f64;
    let var = logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let s = var.sqrt();
    let half = t_995(k - 1) * s * (1.0 + 1.0 / k as f64).sqrt();
    let d = new.ln() - mean;
    let percent = |x: f64| x.exp_m1() * 100.0;
    judge_log_change(c, d, half);
    c.apart = Some(Apart {
        runs: k,
        spread: percent(s),
        floored: false,
        range: range(saved),
        floor: percent(half),
        speed: None,
    });
    bound(c);
}

/// Judge `c` (a saved side of `K` builds against a new side of `K` builds, e.g. a base
/// commit's layouts and a head's) on runs apart with builds as the unit: `saved[j][i]` is
/// saved build `j`'s median time in run apart `i` (every build as many runs), `new[j]` the
/// new build `j`'s. The change is the new builds' mean log median against the saved runs'
/// mean; its variance adds the spread between the saved runs' means (one more run:
/// `s²(1 + 1/k)`) and the layouts on both sides (`2 w / K`, `w` the spread between the saved
/// builds' means over their runs), with Welch–Satterthwaite's degrees of freedom. Fewer than
/// [`RUNS_APART_NEEDED`] runs apart, or builds of unequal runs, leave no verdict; a noise
/// floor from [`NOISE_FLOOR_BOUND`] on is [`Verdict::NotJudged`]. A count
/// judged exactly is left as it is ([`judge_apart`]).
pub fn judge_apart_builds(c: &mut Comparison, saved: &[Vec<f64>], new: &[f64]) {
    if c.steady.is_some() {
        return;
    }
    let k_builds = saved.len();
    let runs = saved.first().map_or(0, Vec::len);
    let widest = saved.iter().map(|b| range(b)).fold(f64::NAN, f64::max);
    c.apart = Some(Apart {
        runs,
        spread: f64::NAN,
        floored: floored(saved.iter().flatten().chain(new)),
        range: widest,
        floor: f64::NAN,
        speed: None,
    });
    let positive = |v: &f64| *v > 0.0 && v.is_finite();
    let even = saved
        .iter()
        .all(|b| b.len() == runs && b.iter().all(positive));
    let fresh = new.len() == k_builds && new.iter().all(positive);
    if runs < RUNS_APART_NEEDED || k_builds < 2 || !fresh || !even {
        unjudged(c);
        return;
    }
    let (grand, between, w) = saved_spreads(saved);
    let df_w = (k_builds - 1) as f64;
    let mean = |v: &mut dyn Iterator<Item = f64>, n: usize| v.sum::<f64>() / n as f64;
    let (a, b) = (
        between * (1.0 + 1.0 / runs as f64),
        2.0 * w / k_builds as f64,
    );
    let df = (a + b).powi(2) / (a * a / (runs - 1) as f64 + b * b / df_w);
    let t = t_995((df.floor() as usize).max(1));
    let d = mean(&mut new.iter().map(|x| x.ln()), k_builds) - grand;
    judge_log_change(c, d, t * (a + b).sqrt());
    let percent = |x: f64| x.exp_m1() * 100.0;
    c.apart = Some(Apart {
        runs,
        spread: percent(between.sqrt()),
        floored: false,
        range: widest,
        floor: percent(t * (a + b).sqrt()),
        speed: None,
    });
    c.builds = Some(Builds {
        processes: 1,
        per_side: k_builds,
        layout_spread: percent(w.sqrt()),
        noise_floor: percent(t * a.sqrt()),
    });
    bound(c);
}

/// Of `saved` (K builds' runs apart, as many each, all positive): the grand mean of the log
/// times, the variance between the runs' means, and that between the builds' means over the
/// runs (the saved runs measure the same K layouts again: the layouts' spread, with K − 1
/// degrees of freedom).
fn saved_spreads(saved: &[Vec<f64>]) -> (f64, f64, f64) {
    let (k_builds, runs) = (saved.len(), saved[0].len());
    let mean = |v: &mut dyn Iterator<Item = f64>, n: usize| v.sum::<f64>() / n as f64;
    let run_means: Vec<f64> = (0..runs)
        .map(|i| mean(&mut saved.iter().map(|b| b[i].ln()), k_builds))
        .collect();
    let grand = mean(&mut run_means.iter().copied(), runs);
    let between = run_means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / (runs - 1) as f64;
    let build_mean = |b: &Vec<f64>| mean(&mut b.iter().map(|x| x.ln()), runs);
    let w = saved
        .iter()
        .map(|b| (build_mean(b) - grand).powi(2))
        .sum::<f64>()
        / (k_builds - 1) as f64;
    (grand, between, w)
}

/// Some median of `medians` is 0: floored at 0 by what was subtracted (a figure is never
/// negative), so its log and a change from it are undefined.
fn floored<'a>(mut medians: impl Iterator<Item = &'a f64>) -> bool {
    medians.any(|m| *m == 0.0)
}

/// The largest of `medians` over the least (NaN with fewer than 2, or one not positive).
fn range(medians: &[f64]) -> f64 {
    let positive = medians.iter().all(|m| *m > 0.0 && m.is_finite());
    if medians.len() < 2 || !positive {
        return f64::NAN;
    }
    let most = medians.iter().copied().fold(f64::MIN, f64::max);
    let least = medians.iter().copied().fold(f64::MAX, f64::min);
    most / least
}

/// `c`, judged on runs apart, not judged where their noise floor at no change
/// ([`Apart::floor`]) reaches [`NOISE_FLOOR_BOUND`] and its interval does not settle the
/// gate's question: "no difference" or "within noise" from such runs would claim what they
/// cannot see. Its change and interval stay for the record. A verdict its 99 % interval
/// settles (wholly beyond the threshold: B a thousand times slower) stands.
fn bound(c: &mut Comparison) {
    let floor = c.apart.as_ref().map_or(f64::NAN, |a| a.floor);
    let unsettled = matches!(c.verdict, Verdict::NoDifference | Verdict::WithinNoise(_));
    if floor >= NOISE_FLOOR_BOUND && unsettled {
        c.verdict = Verdict::NotJudged;
    }
}

/// `c` without a verdict on runs apart: the change unknown (NaN), not enough runs apart.
fn unjudged(c: &mut Comparison) {
    c.change = Shift {
        estimate: f64::NAN,
        low: f64::NAN,
        high: f64::NAN,
    };
    (c.ratio, c.noise_floor) = (f64::NAN, f64::NAN);
    c.verdict = Verdict::NotEnoughRunsApart;
}

/// The change, its interval, the noise floor and the verdict of `c` from a change of `d` in
/// log time and the half-width `half` of its 99 % interval (both natural logs).
pub(crate) fn judge_log_change(c: &mut Comparison, d: f64, half: f64) {
    let percent = |x: f64| x.exp_m1() * 100.0;
    c.change = Shift {
        estimate: percent(d),
        low: percent(d - half),
        high: percent(d + half),
    };
    c.ratio = 1.0 + c.change.estimate / 100.0;
    c.noise_floor = c.change.half_width();
    c.verdict = Verdict::of(&c.change, c.threshold);
}

/// The 0.995 quantile of Student's t with `df` degrees of freedom (two-sided 99 %): the
/// table to 30, then the Cornish–Fisher expansion (within 0.001 of the exact value there).
pub fn t_995(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012,
        2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797, 2.787, 2.779,
        2.771, 2.763, 2.756, 2.750,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let (z, n) = (2.575_829_303_549_f64, df as f64);
            let (z3, z5) = (z.powi(3), z.powi(5));
            z + (z3 + z) / (4.0 * n) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// The median of a result's median round times (of its time metric, in thousandths of its
/// unit): the figure of one run apart.
pub fn median_round(r: &crate::BenchResult) -> f64 {
    median_round_at(r, r.time_index())
}

/// The median of a result's rounds' medians of metric `index` (thousandths of its unit;
/// NaN for a metric it does not have): that metric's figure of one run apart.
pub fn median_round_at(r: &crate::BenchResult, index: usize) -> f64 {
    let rounds = r.rounds.iter().filter_map(|x| x.value(index, 50.0));
    median(&mut rounds.map(|v| v as f64).collect::<Vec<_>>())
}
