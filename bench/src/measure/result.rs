//! A benchmark's result: per metric, the histogram of its per-operation figures, and each
//! sample's figures for the tail attribution.

use std::string::String;
use std::vec::Vec;

use super::conditions::{Conditions, WarmUp};
use super::meter::{Metric, MetricKind, Unit, SCALE};
use super::plan::Plan;
use super::rounds::{Round, Span};
use super::samples::Samples;
use super::throughput::{Rate, Throughput, Work};
use picollo::Histogram;

/// One metric's figures: per operation, in thousandths of its unit.
#[derive(Clone, Debug)]
pub struct MetricResult {
    /// What it measures.
    pub metric: Metric,
    /// The per-operation figures of every sample.
    pub histogram: Histogram<u64, Vec<u64>>,
    /// The read-pair overhead subtracted from every batch (thousandths of the unit).
    pub overhead: u64,
    /// The baseline's median subtracted from every per-operation figure (thousandths of
    /// the unit; 0 without a baseline).
    pub baseline: u64,
    /// The counter was multiplexed in some batch (its figures are scaled estimates).
    pub multiplexed: bool,
    /// Nanoseconds the counter was enabled over its samples, and of them those it ran on
    /// the PMU (`(0, 0)` where unknown: time, an exact count, figures measured elsewhere).
    pub times: (u64, u64),
    /// The samples whose figure was floored at 0: what was subtracted (the overhead, the
    /// baseline) exceeded what the batch measured.
    pub floored: u64,
    /// The smallest per-operation figure the measurement tells from nothing, in thousandths
    /// of the unit ([`crate::rules::resolution`]; 0: what was subtracted had no spread, or the
    /// metric is exact).
    pub resolution: u64,
}

impl MetricResult {
    /// Every figure is a whole count: events, one operation a sample (`batch` 1), nothing
    /// fractional subtracted; its percentiles are then whole numbers too.
    pub fn whole(&self, batch: u64) -> bool {
        let integral = |v: u64| v % SCALE == 0;
        self.metric.unit == Unit::Events
            && batch == 1
            && integral(self.overhead)
            && integral(self.baseline)
    }

    /// The `rank` percentile (`0..=100`) in the metric's unit; `None` when empty.
    pub fn percentile(&self, rank: f64) -> Option<f64> {
        let v = self.histogram.view().percentile_value(rank).ok()?;
        Some(v as f64 / SCALE as f64)
    }

    /// The mean in the metric's unit (NaN when empty).
    pub fn mean(&self) -> f64 {
        self.histogram.view().mean() / SCALE as f64
    }

    /// The share of the time enabled that the counter ran on the PMU and counted, 0 to 1
    /// (`None` where its times are unknown).
    pub fn running_share(&self) -> Option<f64> {
        let (enabled, running) = self.times;
        (enabled > 0).then(|| running as f64 / enabled as f64)
    }

    /// The warning of a multiplexed metric (`None` for one that was not): its figures are
    /// the kernel's count scaled by time enabled / running, and with its times, from what
    /// share of the time they were counted.
    pub fn multiplexed_warning(&self) -> Option<String> {
        if !self.multiplexed {
            return None;
        }
        let counted = match self.running_share() {
            Some(share) => std::format!(
                ", from the {:.1} % of the time it was counted",
                share * 100.0
            ),
            None => String::new(),
        };
        Some(std::format!(
            "{} was multiplexed: its figures are scaled by time enabled / running{counted}; \
             the hardware check (scripts/hw-check.sh) measures how far the kernel's scaling \
             strays on a machine",
            self.metric.name
        ))
    }
}

/// What [`Bench::run`](crate::Bench::run) measured.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// The benchmark's name.
    pub name: String,
    /// The conditions of the run.
    pub conditions: Conditions,
    /// Samples recorded.
    pub samples: u64,
    /// One entry per metric, time first.
    pub metrics: Vec<MetricResult>,
    /// The samples cut into rounds of time, in the order they ran.
    pub rounds: Vec<Round>,
    /// Shared by the two results of one interleaved comparison, whose rounds pair up
    /// one to one; `None` for a result measured on its own.
    pub pairing: Option<u64>,
    /// The change in percent below which a comparison against this result calls a
    /// difference `within noise` (0: never).
    pub threshold: f64,
    /// The work one operation does, where its benchmark declares it: the rate at the median
    /// time ([`BenchResult::rate`]).
    pub throughput: Option<Throughput>,
    rows: Vec<u64>,
}

/// How a result's samples were taken, beside the samples themselves.
pub(crate) struct Parts {
    pub clock: String,
    /// How the meter's counters were read and why ([`crate::Meter::counters_read`]).
    pub counters_read: Option<String>,
    pub batch: u64,
    pub warm_up: WarmUp,
    pub pairing: Option<u64>,
    /// Per metric, the resolution of its figures ([`MetricResult::resolution`]).
    pub resolution: Vec<u64>,
}

impl BenchResult {
    /// The result of measured samples `s` of `metrics`, less `overhead` and `baseline`.
    pub(crate) fn measured(
        plan: &Plan,
        parts: Parts,
        metrics: Vec<Metric>,
        overhead: &[u64],
        baseline: &[u64],
        s: Samples,
    ) -> Self {
        let results = metrics.into_iter().zip(s.histograms).enumerate();
        let results = results.map(|(i, (metric, histogram))| MetricResult {
            metric,
            histogram,
            overhead: overhead[i],
            baseline: baseline[i],
            multiplexed: s.multiplexed[i],
            times: s.times[i],
            floored: s.floored[i],
            resolution: parts.resolution[i],
        });
        let results = results.collect();
        let mut r = Self::new(plan, parts, results, s.rows, &s.spans);
        r.warn_of_floors();
        r
    }

    /// Each flagged metric's sentences (figures floored at 0, a median below the
    /// resolution) in the warnings.
    pub(crate) fn warn_of_floors(&mut self) {
        let c = &self.conditions;
        let floors = self.metrics.iter().flat_map(|m| m.floor_warnings(c));
        let floors: Vec<String> = floors.collect();
        self.conditions.warnings.extend(floors);
    }

    pub(crate) fn new(
        plan: &Plan,
        parts: Parts,
        metrics: Vec<MetricResult>,
        rows: Vec<u64>,
        spans: &[Span],
    ) -> Self {
        let mut conditions = Conditions::of_machine(plan.pin);
        conditions.clock = parts.clock;
        if let Some(read) = parts.counters_read {
            conditions.pmu = std::format!("{}; counters read by {read}", conditions.pmu);
        }
        conditions.batch = parts.batch;
        conditions.warm_up = parts.warm_up;
        conditions.unoptimized = plan.unoptimized.clone();
        conditions.warn_about_machine();
        conditions.baseline = plan.baseline.as_ref().map(|(name, _)| name.clone());
        let multiplexed = metrics.iter().filter_map(MetricResult::multiplexed_warning);
        conditions.warnings.extend(multiplexed);
        let n = metrics.len().max(1);
        BenchResult {
            name: plan.name.clone(),
            conditions,
            samples: (rows.len() / n) as u64,
            rounds: spans.iter().map(|&s| Round::of(&rows, n, s)).collect(),
            pairing: parts.pairing,
            threshold: plan.threshold,
            throughput: None,
            metrics,
            rows,
        }
    }

    /// The metric of this name (`time`, `Hardware:Instructions`, …).
    pub fn metric(&self, name: &str) -> Option<&MetricResult> {
        self.metrics.iter().find(|m| m.metric.name == name)
    }

    /// Metric `index`'s figure in every sample, in thousandths of its unit, in the order
    /// measured.
    pub fn figures(&self, index: usize) -> impl Iterator<Item = u64> + '_ {
        let n = self.metrics.len().max(1);
        self.rows.iter().skip(index).step_by(n).copied()
    }

    /// The `rank` percentile (`0..=100`) of metric `name` in its unit: for an exact metric
    /// ([`Metric::is_exact`]) the sample at that rank itself, else its histogram's bucket
    /// value. `None` for a metric it does not have, or no samples.
    pub fn percentile(&self, name: &str, rank: f64) -> Option<f64> {
        let i = self.metrics.iter().position(|m| m.metric.name == name)?;
        self.percentile_at(i, rank)
    }

    /// The largest figure of the metric at `index`, in its unit, as the report's Max and
    /// the comparison's P100 both show it: an exact metric's largest sample, else the
    /// highest value of the top bucket (`None` when empty).
    pub fn max_at(&self, index: usize) -> Option<f64> {
        let m = self.metrics.get(index)?;
        let max = match m.metric.is_exact() {
            true => self.figures(index).max()?,
            false => m.histogram.view().max_recorded()?,
        };
        Some(max as f64 / SCALE as f64)
    }

    /// [`BenchResult::percentile`] of the metric at `index`.
    pub fn percentile_at(&self, index: usize, rank: f64) -> Option<f64> {
        let m = self.metrics.get(index)?;
        if !m.metric.is_exact() {
            return m.percentile(rank);
        }
        Some(self.sample_at(index, rank)? as f64 / SCALE as f64)
    }

    /// The sample at the `rank` percentile (`0..=100`) of the metric at `index`, in
    /// thousandths of its unit, whatever its kind: the figure itself, not its histogram's
    /// bucket (`None` when missing or empty).
    pub(crate) fn sample_at(&self, index: usize, rank: f64) -> Option<u64> {
        self.metrics.get(index)?;
        let mut values: Vec<u64> = self.figures(index).collect();
        if values.is_empty() {
            return None;
        }
        // The nearest rank, as every percentile of Picollo's takes it.
        let at = picollo::rank_to_count(rank, values.len() as u128).max(1) as usize;
        let (_, v, _) = values.select_nth_unstable(at - 1);
        Some(*v)
    }

    /// [`BenchResult::percentile_at`] at each of `ranks` (strictly increasing, in
    /// `[0, 100]`), in one walk over the histogram (one sort of an exact metric's figures);
    /// `None` when the metric is missing or empty, or the ranks are not increasing.
    pub fn percentiles_at(&self, index: usize, ranks: &[f64]) -> Option<Vec<f64>> {
        let m = self.metrics.get(index)?;
        let unit = |v: u64| v as f64 / SCALE as f64;
        if !m.metric.is_exact() {
            let mut out = std::vec![0u64; ranks.len()];
            m.histogram.view().percentile_values(ranks, &mut out).ok()?;
            return Some(out.into_iter().map(unit).collect());
        }
        let mut values: Vec<u64> = self.figures(index).collect();
        if values.is_empty() || ranks.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        values.sort_unstable();
        let n = values.len() as u128;
        let at = |rank: f64| values[picollo::rank_to_count(rank, n).max(1) as usize - 1];
        Some(ranks.iter().map(|&rank| unit(at(rank))).collect())
    }

    /// The mean of the metric at `index` in its unit: of the samples themselves for an
    /// exact metric, else of its histogram's buckets (NaN when empty).
    pub fn mean_at(&self, index: usize) -> f64 {
        let Some(m) = self.metrics.get(index) else {
            return f64::NAN;
        };
        if !m.metric.is_exact() {
            return m.mean();
        }
        let (sum, n) = self
            .figures(index)
            .fold((0u128, 0u64), |(s, n), v| (s + u128::from(v), n + 1));
        sum as f64 / n as f64 / SCALE as f64
    }

    /// An exact metric's figure per operation when every sample gave the same (in its
    /// unit); `None` for a metric that varies, is not exact, or is missing.
    pub fn constant(&self, name: &str) -> Option<f64> {
        let i = self.metrics.iter().position(|m| m.metric.name == name)?;
        let mut figures = self.figures(i);
        let first = figures.next()?;
        let exact = self.metrics[i].metric.is_exact();
        (exact && figures.all(|v| v == first)).then_some(first as f64 / SCALE as f64)
    }

    /// The time per operation: the metric of kind [`MetricKind::Time`] (the first metric
    /// where none is).
    pub fn time(&self) -> &MetricResult {
        &self.metrics[self.time_index()]
    }

    /// The index of [`BenchResult::time`] among the metrics.
    pub fn time_index(&self) -> usize {
        let time = self
            .metrics
            .iter()
            .position(|m| m.metric.kind == MetricKind::Time);
        time.unwrap_or(0)
    }

    /// Metric `index`'s resolution as a share of its median (0 where either is 0 or
    /// unknown): how far the median may lie from the true one for the clock's step, the
    /// read pairs' spread or the subtracted baseline's alone, which no count of rounds
    /// narrows. A comparison's interval is never narrower than the two sides' shares.
    pub fn resolution_share(&self, index: usize) -> f64 {
        let Some(m) = self.metrics.get(index) else {
            return 0.0;
        };
        match m.median_thousandths() {
            Some(median) if median > 0 => m.resolution as f64 / median as f64,
            _ => 0.0,
        }
    }

    /// The rate of its [`BenchResult::throughput`] at the median time per operation (`None`
    /// without one, or without samples).
    pub fn rate(&self) -> Option<Rate> {
        let median = self.percentile_at(self.time_index(), 50.0)?;
        Some(self.throughput?.rate(median))
    }

    /// Its throughput and the rate it gives ([`BenchResult::rate`]): its side of a
    /// comparison's rates.
    pub fn work(&self) -> Work {
        (self.throughput, self.rate())
    }

    /// Each sample's per-operation figures, one slice per sample in metric order.
    pub fn rows(&self) -> impl Iterator<Item = &[u64]> {
        self.rows.chunks_exact(self.metrics.len().max(1))
    }
}
