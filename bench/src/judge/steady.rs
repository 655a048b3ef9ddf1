//! Counts whose runs agree within their read jitter, judged without statistics. An emulated
//! count (`Emulated:*`) is exact: the same work gives the same figure. A perf counter of
//! work that does the same thing each time (instructions retired, branches) is nearly so:
//! what moves it from run to run is the read itself — a counter read lands an event either
//! side of the work (±1), and a process's start-up varies by a few instructions with its
//! environment and placement, a few parts in a million of a real program. Where every
//! figure of each side lies within that jitter of the side's others, the two sides differ
//! by B − A with no noise to test against: the difference of their medians, bounded by the
//! least and the largest difference of any two figures, `[min B − max A, max B − min A]`.
//!
//! That bound is the Mann–Whitney interval with no difference dropped at either end: under
//! no change every figure of B lies above every figure of A with probability
//! `1 / C(m + n, m)` at most, so it holds at 99 % from 5 figures a side (as the rank-sum
//! test needs, [`rank_sum_critical`]); an exact count needs no figures for it, having no
//! jitter at all. A metric that spreads more (cycles, page faults, anything timed) is judged
//! on its rounds, like time.

use std::vec::Vec;

use super::shift::{rank_sum_critical, Shift};
use super::verdict::Steady;
use crate::measure::meter::{MetricKind, Unit, SCALE};
use crate::measure::result::BenchResult;
use crate::stats::median;

/// The most the figures of one side may spread, in counts: a read lands an event either
/// side of the work (±1), so two reads of the same work may differ by 2.
pub const JITTER_COUNTS: u64 = 2;
/// The most the figures of one side may spread, relative to their median: one part in ten
/// thousand, what a process's start-up moves a program's instructions by (a few hundred in
/// millions) and far below any change a gate is set to find.
pub const JITTER_RELATIVE: f64 = 1e-4;

/// The widest spread (largest less least figure, in thousandths of the unit) the figures of
/// metric `index` of `r`, whose median is `median` (thousandths), may have and still be
/// judged exactly: none for an exact count, [`JITTER_COUNTS`] or [`JITTER_RELATIVE`] of the
/// median, whichever is wider, for any other count; `None` for a metric that is never
/// judged so (time, anything in nanoseconds).
pub fn jitter(r: &BenchResult, index: usize, median: u64) -> Option<u64> {
    let metric = &r.metrics.get(index)?.metric;
    match (metric.kind, metric.unit) {
        (MetricKind::Exact, _) => Some(0),
        (MetricKind::Counter, Unit::Events | Unit::Bytes) => {
            let relative = (median as f64 * JITTER_RELATIVE).round() as u64;
            Some((JITTER_COUNTS * SCALE).max(relative))
        }
        _ => None,
    }
}

/// Metric `index`'s figures in `r`: least, median and largest (thousandths of the unit),
/// when they lie within its jitter ([`jitter`]).
fn within_jitter(r: &BenchResult, index: usize) -> Option<(u64, f64, u64)> {
    let figures: Vec<u64> = r.figures(index).collect();
    let (&least, &most) = (figures.iter().min()?, figures.iter().max()?);
    let mut sorted: Vec<f64> = figures.iter().map(|&v| v as f64).collect();
    let mid = median(&mut sorted);
    (most - least <= jitter(r, index, mid as u64)?).then_some((least, mid, most))
}

/// Metric `ia` of `a` against metric `ib` of `b` judged exactly, where both sides' figures
/// lie within the metric's jitter; `None` where either side spreads more.
pub(crate) fn steady(a: &BenchResult, b: &BenchResult, (ia, ib): (usize, usize)) -> Option<Steady> {
    let (a_least, a_mid, a_most) = within_jitter(a, ia)?;
    let (b_least, b_mid, b_most) = within_jitter(b, ib)?;
    let unit = |v: f64| v / SCALE as f64;
    let exact = a.metrics[ia].metric.is_exact();
    let enough = exact || rank_sum_critical(a.samples as usize, b.samples as usize).is_some();
    Some(Steady {
        spread: (
            unit((a_most - a_least) as f64),
            unit((b_most - b_least) as f64),
        ),
        median: unit(a_mid),
        figures: (a.samples as usize, b.samples as usize),
        difference: Shift {
            estimate: unit(b_mid - a_mid),
            low: unit(b_least as f64 - a_most as f64),
            high: unit(b_most as f64 - a_least as f64),
        },
        enough,
    })
}
