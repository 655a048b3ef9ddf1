//! Results of figures measured elsewhere (each run of a command, say): one histogram per
//! metric of the rows given, each run a round of its own, less a baseline's medians by the
//! harness's own rule where the bench has one.

use std::string::String;
use std::vec::Vec;

use super::conditions::WarmUp;
use super::floor::resolution;
use super::meter::Metric;
use super::plan::Plan;
use super::result::{BenchResult, MetricResult, Parts};
use super::rounds::Span;
use super::run::net;
use crate::error::BenchError;
use picollo::Histogram;

/// `samples` rounds of one sample each, with no time.
fn one_round_each(samples: usize) -> Vec<Span> {
    let span = |i| Span {
        first_sample: i,
        samples: 1,
        ..Span::default()
    };
    (0..samples).map(span).collect()
}

/// Each figure of `rows` (samples of `baseline.len()` figures) less its metric's `baseline`
/// by the harness's rule ([`net`](crate::rules::net) of one operation, nothing else
/// subtracted), and per metric the figures that rule floored at 0.
fn less_baseline(mut rows: Vec<u64>, baseline: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let mut floored = std::vec![0; baseline.len()];
    for sample in rows.chunks_exact_mut(baseline.len()) {
        for ((v, &b), f) in sample.iter_mut().zip(baseline).zip(&mut floored) {
            let (less, was) = net(*v, 0, 1, b);
            (*v, *f) = (less, *f + u64::from(was));
        }
    }
    (rows, floored)
}

/// Per metric, the resolution of figures measured elsewhere less `plan`'s baseline: its
/// spread ([`resolution`](crate::rules::resolution) of one operation); without a baseline
/// nothing noisy was subtracted, and there is none to speak of (0).
fn rows_resolution(plan: &Plan, metrics: &[Metric]) -> Vec<u64> {
    let spreads = plan.baseline_spreads(metrics);
    match plan.baseline {
        Some(_) => metrics
            .iter()
            .zip(spreads)
            .map(|(m, s)| resolution(m, 0, 1, s))
            .collect(),
        None => std::vec![0; metrics.len()],
    }
}

/// One histogram per metric of `rows` (samples of `n` figures), as `plan` configures them.
fn histograms(
    plan: &Plan,
    rows: &[u64],
    n: usize,
) -> Result<Vec<Histogram<u64, Vec<u64>>>, BenchError> {
    let config = picollo::Config::new().with_relative_error(plan.relative_error);
    let each = (0..n).map(|i| {
        let mut histogram = config.build()?;
        rows.iter()
            .skip(i)
            .step_by(n)
            .for_each(|&v| histogram.record(v));
        Ok(histogram)
    });
    each.collect()
}

impl BenchResult {
    /// [`BenchResult::from_rows`] with the bench's settings resolved into `plan`: the plan's
    /// baseline (where it has one) subtracted from every figure by the harness's own rule
    /// ([`net`](crate::rules::net): floored at 0, each floor counted), its spread the
    /// resolution.
    pub(crate) fn from_plan_rows(
        plan: Plan,
        metrics: Vec<Metric>,
        rows: Vec<u64>,
        clock: String,
        warm_up: WarmUp,
    ) -> Result<Self, BenchError> {
        let n = metrics.len();
        if n == 0 || rows.is_empty() || rows.len() % n != 0 {
            return Err(BenchError::invalid(
                "rows must hold whole samples of every metric",
            ));
        }
        let baseline = plan.baseline_of(&metrics);
        let (rows, floored) = less_baseline(rows, &baseline);
        let resolution = rows_resolution(&plan, &metrics);
        let histograms = histograms(&plan, &rows, n)?;
        let each = metrics.into_iter().zip(histograms).enumerate();
        let results = each.map(|(i, (metric, histogram))| MetricResult {
            metric,
            histogram,
            overhead: 0,
            baseline: baseline[i],
            multiplexed: false,
            times: (0, 0),
            floored: floored[i],
            resolution: resolution[i],
        });
        let results = results.collect();
        let spans = one_round_each(rows.len() / n);
        let parts = Parts {
            clock,
            counters_read: None,
            batch: 1,
            warm_up,
            pairing: None,
            resolution,
        };
        let mut r = Self::new(&plan, parts, results, rows, &spans);
        r.conditions.operation = "run".into();
        r.warn_of_floors();
        Ok(r)
    }
}
