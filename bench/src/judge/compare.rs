//! Two results compared round against round: per metric, each percentile's change with a
//! 99 % interval, the means and Cohen's d; overall, the shift of the rounds' median time
//! per operation (or of another metric's, [`compare_on`]; paired where the two were
//! interleaved, apart otherwise) gives the verdict, with its interval, the noise floor it
//! could see through, and the threshold below which a change is called noise. A count whose
//! figures agree within its read jitter is judged exactly instead ([`crate::rules::jitter`]).

use std::format;
use std::string::String;
use std::vec::Vec;

use super::lookup::find_metric;
use super::shift::{shift, Design, Shift};
use super::steady::steady;
use super::verdict::{
    Comparison, DiffRow, ExactDiff, Interleaved, MetricDiff, Steady, Verdict, COMPARED_RANKS,
};
use crate::error::BenchError;
use crate::measure::floor::{floor_warnings, verdict_caveat};
use crate::measure::meter::{Metric, SCALE};
use crate::measure::result::{BenchResult, MetricResult};
use crate::measure::rounds::drift;
use crate::measure::throughput::Work;
use crate::stats::{difference_interval, mann_whitney, median, MIN_SPREAD};

impl Interleaved {
    pub(crate) fn new(a: BenchResult, b: BenchResult) -> Self {
        let comparison = compare(&a, &b);
        Interleaved { a, b, comparison }
    }
}

/// Paired when both results come from one interleaved comparison.
fn design_of(a: &BenchResult, b: &BenchResult) -> Design {
    // A result against itself is one measurement: its rounds pair with themselves.
    let paired = core::ptr::eq(a, b) || (a.pairing.is_some() && a.pairing == b.pairing);
    match paired && a.rounds.len() == b.rounds.len() {
        true => Design::Paired,
        false => Design::Unpaired,
    }
}

/// Metric `metric`'s value at `rank` in each round.
fn per_round(r: &BenchResult, metric: usize, rank: f64) -> Vec<f64> {
    let values = r.rounds.iter().filter_map(|x| x.value(metric, rank));
    values.map(|v| v as f64).collect()
}

/// Where metric `name` stands in result `r`.
fn index_of(r: &BenchResult, name: &str) -> Option<usize> {
    r.metrics.iter().position(|m| m.metric.name == name)
}

/// A 99 % interval of `b − a` at `rank` of metric `name`, in thousandths of its unit.
/// Rounds of one sample each (a command's runs) are the samples: the interval of the two
/// quantiles' difference. Rounds of many samples: the shift of each round's percentile,
/// given where every round holds enough samples for it (`n·q·(1−q)` of [`MIN_SPREAD`]).
fn rank_interval(a: &BenchResult, b: &BenchResult, name: &str, rank: f64) -> Option<(f64, f64)> {
    let (ia, ib) = (index_of(a, name)?, index_of(b, name)?);
    let q = rank / 100.0;
    let rounds = || a.rounds.iter().chain(&b.rounds);
    if rounds().all(|r| r.samples == 1) {
        let (va, vb) = (
            a.metrics[ia].histogram.view(),
            b.metrics[ib].histogram.view(),
        );
        return difference_interval(&va, &vb, q);
    }
    if !rounds().all(|r| r.samples as f64 * q * (1.0 - q) >= MIN_SPREAD) {
        return None;
    }
    let (ra, rb) = (per_round(a, ia, rank), per_round(b, ib, rank));
    let s = shift(design_of(a, b), &ra, &rb)?;
    s.half_width().is_finite().then_some((s.low, s.high))
}

/// The mean of metric `name` in `r` ([`BenchResult::mean_at`]).
fn mean_of(r: &BenchResult, name: &str) -> f64 {
    index_of(r, name).map_or(f64::NAN, |i| r.mean_at(i))
}

/// An exact metric's difference, when `name` is one.
fn exact_diff(a: &BenchResult, b: &BenchResult, m: &MetricResult) -> Option<ExactDiff> {
    let name = &m.metric.name;
    m.metric.is_exact().then(|| ExactDiff {
        a: a.constant(name),
        b: b.constant(name),
    })
}

fn diff_metric(
    a: &BenchResult,
    b: &BenchResult,
    ma: &MetricResult,
    mb: &MetricResult,
) -> MetricDiff {
    let (va, vb) = (ma.histogram.view(), mb.histogram.view());
    let name = &ma.metric.name;
    let exact = exact_diff(a, b, ma);
    // Exact counts, constant on both sides, differ by exactly their difference.
    let exactly = exact.as_ref().and_then(ExactDiff::difference);
    // P100 is the reports' Max (the top bucket's highest value), not its midpoint.
    let at = |r: &BenchResult, rank: f64| match rank {
        100.0 => index_of(r, name).and_then(|i| r.max_at(i)),
        _ => r.percentile(name, rank),
    };
    let rows = COMPARED_RANKS.iter().map(|&rank| {
        let pa = at(a, rank).unwrap_or(0.0);
        let pb = at(b, rank).unwrap_or(0.0);
        let interval = match exactly {
            Some(d) => Some((d, d)),
            None => (rank > 0.0 && rank < 100.0)
                .then(|| rank_interval(a, b, name, rank))
                .flatten()
                .map(|(lo, hi)| (lo / SCALE as f64, hi / SCALE as f64)),
        };
        DiffRow {
            rank,
            a: pa,
            b: pb,
            change: (pb - pa) / pa * 100.0,
            interval,
        }
    });
    MetricDiff {
        name: ma.metric.name.clone(),
        unit: ma.metric.unit,
        rows: rows.collect(),
        means: (mean_of(a, name), mean_of(b, name)),
        cohens_d: va.summary().cohens_d(&vb.summary()),
        cliffs_delta: mann_whitney(&va, &vb).map(|t| 2.0 * t.superiority - 1.0),
        whole: ma.whole(a.conditions.batch) && mb.whole(b.conditions.batch),
        exact,
    }
}

/// B's rounds' median of metric `ia` of `a` and `ib` of `b` against A's, in percent of A's
/// median round (floored at one thousandth of the unit), its interval no narrower than the
/// two sides' resolutions allow ([`BenchResult::resolution_share`]).
fn change_of(a: &BenchResult, b: &BenchResult, (ia, ib): (usize, usize), design: Design) -> Shift {
    let (ra, rb) = (per_round(a, ia, 50.0), per_round(b, ib, 50.0));
    // NaN (no rounds) gives way to 1 as 0 did.
    let percent = 100.0 / median(&mut ra.clone()).max(1.0);
    let unbounded = Shift {
        estimate: f64::NAN,
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
    };
    let s = shift(design, &ra, &rb).unwrap_or(unbounded);
    let floor = 100.0 * (a.resolution_share(ia) + b.resolution_share(ib));
    scaled(s, percent).at_least(floor)
}

/// `s` times `by`.
fn scaled(s: Shift, by: f64) -> Shift {
    Shift {
        estimate: s.estimate * by,
        low: s.low * by,
        high: s.high * by,
    }
}

/// The change of metric `ia` of `a` against `ib` of `b` in percent of A's median, its
/// verdict against A's threshold, and how it was judged: exactly where both sides' figures
/// lie within the metric's read jitter ([`steady`]), else on the rounds (paired, or measured
/// apart and so without a verdict until judged on runs apart).
fn judge(
    a: &BenchResult,
    b: &BenchResult,
    at: (usize, usize),
    design: Design,
) -> (Shift, Verdict, Option<Steady>) {
    if let Some(s) = steady(a, b, at) {
        // A's median floored at one thousandth of the unit, as the rounds' is.
        let change = scaled(s.difference, 100.0 / s.median.max(1.0 / SCALE as f64));
        let verdict = match s.enough {
            true => Verdict::of(&change, a.threshold),
            false => Verdict::NotEnoughRounds,
        };
        return (change, verdict, Some(s));
    }
    let change = change_of(a, b, at, design);
    let verdict = match (design, Verdict::of(&change, a.threshold)) {
        (Design::Unpaired, v) if v != Verdict::NotEnoughRounds => Verdict::NotEnoughRunsApart,
        (_, v) => v,
    };
    (change, verdict, None)
}

/// A sentence for each side whose measured code is known to be unoptimized.
fn unoptimized_warnings(a: &BenchResult, b: &BenchResult) -> Vec<String> {
    let sides = [a, b].into_iter().filter_map(|r| {
        let why = r.conditions.unoptimized.as_ref()?;
        Some(format!(
            "{} is unoptimized code ({why}): the verdict is about it, not an optimized build",
            r.name
        ))
    });
    sides.collect()
}

/// A sentence for each side whose rounds' median times drifted during its run.
fn drift_warnings(a: &BenchResult, b: &BenchResult, design: Design) -> Vec<String> {
    let consequence = match design {
        Design::Paired => "the interleaved rounds keep it out of the verdict",
        Design::Unpaired => {
            "the interval holds it, but not a change of the machine between the two runs"
        }
    };
    let drifted = [a, b].into_iter().filter_map(|r| {
        let (ratio, size) = drift(&per_round(r, r.time_index(), 50.0))?;
        Some(format!(
            "{}'s rounds drifted: their median times moved by {size:.0} % of the median \
             round across the run, more than between neighbouring rounds (von Neumann ratio \
             {ratio:.2}); {consequence}",
            r.name
        ))
    });
    drifted.collect()
}

/// Compare result `b` with result `a`, round against round, judged on time; a difference
/// smaller than A's threshold is `within noise`.
pub fn compare(a: &BenchResult, b: &BenchResult) -> Comparison {
    compare_at(a, b, (a.time_index(), b.time_index()))
}

/// [`compare`] judged on metric `metric` (as [`find_metric`] reads a name): a count whose
/// figures agree within its read jitter on both sides is judged exactly (B − A and its
/// bounds, [`crate::rules::jitter`]), any other metric on its rounds as time is.
///
/// # Errors
/// No metric both results have answers to `metric`, or several do.
pub fn compare_on(
    a: &BenchResult,
    b: &BenchResult,
    metric: &str,
) -> Result<Comparison, BenchError> {
    let each = a.metrics.iter().enumerate();
    let both: Vec<(usize, usize)> = each
        .filter_map(|(ia, m)| Some((ia, index_of(b, &m.metric.name)?)))
        .collect();
    let names: Vec<Metric> = both
        .iter()
        .map(|&(ia, _)| a.metrics[ia].metric.clone())
        .collect();
    Ok(compare_at(a, b, both[find_metric(&names, metric)?]))
}

/// [`compare`] judged on metric `ia` of `a` and `ib` of `b`.
fn compare_at(a: &BenchResult, b: &BenchResult, at: (usize, usize)) -> Comparison {
    let metrics = a.metrics.iter().filter_map(|ma| {
        let mb = b.metric(&ma.metric.name)?;
        Some(diff_metric(a, b, ma, mb))
    });
    let design = design_of(a, b);
    let (change, verdict, steady) = judge(a, b, at, design);
    // A result against itself is one side.
    let sides: &[&BenchResult] = match core::ptr::eq(a, b) {
        true => &[a],
        false => &[a, b],
    };
    let mut c = Comparison {
        a: a.name.clone(),
        b: b.name.clone(),
        operation: a.conditions.operation.clone(),
        metrics: metrics.collect(),
        design,
        rounds: (a.rounds.len(), b.rounds.len()),
        metric: a.metrics[at.0].metric.clone(),
        ratio: 1.0 + change.estimate / 100.0,
        noise_floor: change.half_width(),
        threshold: a.threshold,
        verdict,
        warnings: [
            unoptimized_warnings(a, b),
            drift_warnings(a, b, design),
            floor_warnings(sides),
        ]
        .concat(),
        caveat: verdict_caveat(sides),
        change,
        apart: None,
        builds: None,
        steady,
        rates: None,
        throughput_differs: None,
        looks: None,
    };
    c.set_rates(a.work(), b.work());
    c
}

impl Comparison {
    /// Each side's rate where A and B declare the same work per operation (`a` and `b`: each
    /// side's throughput and its rate), else what each declares
    /// ([`Comparison::throughput_differs`]): a rate of other work beside B's would read as a
    /// change of speed. The verdict stays on time either way.
    pub fn set_rates(&mut self, a: Work, b: Work) {
        (self.rates, self.throughput_differs) = match a.0 == b.0 {
            true => (a.1.zip(b.1), None),
            false => (None, Some((a.0, b.0))),
        };
    }
}
