//! What a measurement keeps while it runs: every metric's histogram, each sample's per-op
//! figures, and the rounds the samples fall into.

use std::vec;
use std::vec::Vec;

use super::error::BenchError;
use super::plan::Plan;
use super::rounds::Span;
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
