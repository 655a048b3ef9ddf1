//! What a measurement keeps while it runs: every metric's histogram, each sample's per-op
//! figures, and the rounds the samples fall into.

use std::vec;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use super::plan::Plan;
use super::rounds::Span;
use crate::error::BenchError;
use picollo::{Config, Histogram};

/// The measured samples: every metric's histogram, each sample's per-op figures, and the
/// rounds they fall into.
pub struct Samples {
    /// One histogram per metric.
    pub histograms: Vec<Histogram<u64, Vec<u64>>>,
    /// Per-op figures, metric after metric for each sample.
    pub rows: Vec<u64>,
    /// Per metric: multiplexed in some batch.
    pub multiplexed: Vec<bool>,
    /// Per metric: nanoseconds enabled and running, summed over the batches.
    pub times: Vec<(u64, u64)>,
    /// Per metric: the samples whose figure was floored at 0.
    pub floored: Vec<u64>,
    /// The rounds, in the order they ran.
    pub spans: Vec<Span>,
}

/// The figures of one turn of a side measured elsewhere (another process's, the worker
/// protocol's turn reply): per-op figures
/// metric after metric for each sample, and per metric its floors, whether it was
/// multiplexed, and its nanoseconds enabled and running.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnFigures {
    /// Per sample, its figure of each metric.
    pub rows: Vec<u64>,
    /// Per metric: the samples whose figure was floored at 0.
    pub floored: Vec<u64>,
    /// Per metric: whether the counter shared the PMU.
    pub multiplexed: Vec<bool>,
    /// Per metric: nanoseconds enabled and running, as `[enabled, running]`.
    pub times: Vec<(u64, u64)>,
}

impl Samples {
    pub(crate) fn new(plan: &Plan, metrics: usize) -> Result<Self, BenchError> {
        let config = Config::new().with_relative_error(plan.relative_error);
        Ok(Samples {
            histograms: (0..metrics)
                .map(|_| config.build())
                .collect::<Result<_, _>>()?,
            rows: Vec::with_capacity(plan.samples.min(1 << 12) * metrics),
            multiplexed: vec![false; metrics],
            times: vec![(0, 0); metrics],
            floored: vec![0; metrics],
            spans: Vec::new(),
        })
    }

    /// Add the figures of a turn measured elsewhere, as if recorded here; why not, where
    /// they do not fit the metrics.
    pub(crate) fn append(&mut self, f: &TurnFigures) -> Result<(), &'static str> {
        let n = self.multiplexed.len();
        let per_metric = [f.floored.len(), f.multiplexed.len(), f.times.len()];
        if n == 0 || f.rows.len() % n != 0 || per_metric.iter().any(|&x| x != n) {
            return Err("not one figure per metric");
        }
        for (i, &v) in f.rows.iter().enumerate() {
            self.histograms[i % n].record(v);
        }
        self.rows.extend_from_slice(&f.rows);
        for i in 0..n {
            self.floored[i] += f.floored[i];
            self.multiplexed[i] |= f.multiplexed[i];
            let (e, r) = &mut self.times[i];
            *e = e.saturating_add(f.times[i].0);
            *r = r.saturating_add(f.times[i].1);
        }
        Ok(())
    }

    /// Samples recorded so far.
    fn count(&self) -> usize {
        self.rows.len() / self.multiplexed.len().max(1)
    }

    /// Start a round at `start` seconds (`first`: this side ran first in it).
    pub(crate) fn open_round(&mut self, start: f64, first: bool) {
        self.spans.push(Span {
            first_sample: self.count(),
            start,
            first,
            ..Span::default()
        });
    }

    /// End the open round at `end` seconds.
    pub(crate) fn close_round(&mut self, end: f64) {
        let count = self.count();
        if let Some(s) = self.spans.last_mut() {
            s.samples = count - s.first_sample;
            s.length = end - s.start;
        }
        self.spans.retain(|s| s.samples > 0);
    }
}
