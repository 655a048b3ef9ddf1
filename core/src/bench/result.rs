//! A benchmark's result: per metric, the histogram of its per-operation figures, and each
//! sample's figures for the tail attribution.

use std::string::String;
use std::vec::Vec;

use super::attribution::Attribution;
use super::conditions::Conditions;
use super::meter::{Metric, SCALE};
use super::{Bench, WarmUp};
use crate::Histogram;

/// One metric's figures: per operation, in thousandths of its unit.
#[derive(Clone, Debug)]
pub struct MetricResult {
    /// What it measures.
    pub metric: Metric,
    /// The per-operation figures of every sample.
    pub histogram: Histogram<u64, Vec<u64>>,
    /// The read-pair overhead subtracted from every batch (thousandths of the unit).
    pub overhead: u64,
    /// The counter was multiplexed in some batch (its figures are scaled estimates).
    pub multiplexed: bool,
}

impl MetricResult {
    /// The `rank` percentile (`0..=100`) in the metric's unit; `None` when empty.
    pub fn percentile(&self, rank: f64) -> Option<f64> {
        let v = self.histogram.view().percentile_value(rank).ok()?;
        Some(v as f64 / SCALE as f64)
    }

    /// The mean in the metric's unit (NaN when empty).
    pub fn mean(&self) -> f64 {
        self.histogram.view().mean() / SCALE as f64
    }
}

/// What [`Bench::run`](super::Bench::run) measured.
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
    rows: Vec<u64>,
}

impl BenchResult {
    pub(crate) fn new(
        bench: &Bench,
        clock: String,
        batch: u64,
        warm_up: WarmUp,
        metrics: Vec<MetricResult>,
        rows: Vec<u64>,
    ) -> Self {
        let mut conditions = Conditions::of_machine(bench.pin);
        conditions.clock = clock;
        conditions.batch = batch;
        conditions.warm_up = warm_up;
        conditions.warn_about_machine();
        for m in metrics.iter().filter(|m| m.multiplexed) {
            conditions.warnings.push(std::format!(
                "{} was multiplexed: its figures are scaled by time enabled / running",
                m.metric.name
            ));
        }
        BenchResult {
            name: bench.name.clone(),
            conditions,
            samples: (rows.len() / metrics.len().max(1)) as u64,
            metrics,
            rows,
        }
    }

    /// The metric of this name (`time`, `Hardware:Instructions`, …).
    pub fn metric(&self, name: &str) -> Option<&MetricResult> {
        self.metrics.iter().find(|m| m.metric.name == name)
    }

    /// The time per operation.
    pub fn time(&self) -> &MetricResult {
        &self.metrics[0]
    }

    /// Each sample's per-operation figures, one slice per sample in metric order.
    pub fn rows(&self) -> impl Iterator<Item = &[u64]> {
        self.rows.chunks_exact(self.metrics.len().max(1))
    }

    /// The mean of every metric in each band of time per operation.
    pub fn attribution(&self) -> Attribution {
        Attribution::of(self)
    }
}
