//! Tail attribution: what the slow operations did differently. Samples are split into
//! bands of time per operation (≤ P50, P50–P90, P90–P99, > P99, the boundaries being the
//! highest value of each percentile's bucket), and every metric's mean is taken per band.

use std::string::String;
use std::vec;
use std::vec::Vec;

use crate::measure::meter::{MetricKind, SCALE};
use crate::measure::result::BenchResult;

impl BenchResult {
    /// The mean of every metric in each band of time per operation.
    pub fn attribution(&self) -> Attribution {
        Attribution::of(self)
    }
}

/// The bands' names and the ranks that close them.
const BANDS: [(&str, f64); 4] = [
    ("≤ P50", 50.0),
    ("P50–P90", 90.0),
    ("P90–P99", 99.0),
    ("> P99", 100.0),
];

/// One band of samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// `≤ P50`, `P50–P90`, `P90–P99` or `> P99`.
    pub label: &'static str,
    /// Samples in the band.
    pub samples: u64,
    /// Per metric, the mean per operation in its unit (NaN for an empty band).
    pub means: Vec<f64>,
}

/// Every metric's mean per band of time per operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribution {
    /// The metrics' names, time first.
    pub metrics: Vec<String>,
    /// The metrics' kinds, in the same order: the bands are of [`MetricKind::Time`], and
    /// [`MetricKind::OnCpuTime`] against it tells time off the CPU.
    pub kinds: Vec<MetricKind>,
    /// The four bands, fastest first.
    pub bands: Vec<Band>,
}

impl Attribution {
    /// The attribution of a result's samples.
    pub fn of(r: &BenchResult) -> Self {
        let time = r.time_index();
        let view = r.metrics[time].histogram.view();
        let bound = |rank: f64| {
            let p = view.percentile(rank).ok()?;
            Some(p.highest)
        };
        let limits: Vec<u64> = BANDS[..3]
            .iter()
            .map(|&(_, rank)| bound(rank).unwrap_or(u64::MAX))
            .collect();
        let n = r.metrics.len();
        let mut sums = vec![vec![0f64; n]; 4];
        let mut counts = [0u64; 4];
        for row in r.rows() {
            let band = limits.iter().position(|&l| row[time] <= l).unwrap_or(3);
            counts[band] += 1;
            for (s, &v) in sums[band].iter_mut().zip(row) {
                *s += v as f64;
            }
        }
        let bands = BANDS
            .iter()
            .zip(sums)
            .zip(counts)
            .map(|((&(label, _), s), c)| Band {
                label,
                samples: c,
                means: s.iter().map(|x| x / c as f64 / SCALE as f64).collect(),
            });
        Attribution {
            metrics: r.metrics.iter().map(|m| m.metric.name.clone()).collect(),
            kinds: r.metrics.iter().map(|m| m.metric.kind).collect(),
            bands: bands.collect(),
        }
    }

    /// How the slowest non-empty band compares with `≤ P50`: its time, then each counter
    /// that moved by 10 % or more, largest ratio first (`"> P99: 14.0× the Hardware:BranchMisses of ≤ P50"`), and where
    /// task-clock was counted and the band spent most of its time off the CPU, that share.
    pub fn findings(&self) -> Vec<String> {
        let fast = &self.bands[0];
        let Some(slow) = self.bands[1..].iter().rev().find(|b| b.samples > 0) else {
            return Vec::new();
        };
        let ratio = |i: usize| slow.means[i] / fast.means[i];
        let says = |i: usize| {
            let (r, name) = (ratio(i), &self.metrics[i]);
            std::format!("{}: {r:.1}× the {name} of {}", slow.label, fast.label)
        };
        let shown = |i: &usize| fast.means[*i] > 0.0 && slow.means[*i].is_finite();
        // Counters that moved by less than 10 % say nothing about the slow operations.
        let moved = |i: &usize| shown(i) && (ratio(*i) - 1.0).abs() >= 0.1;
        let time = self.index_of(MetricKind::Time).unwrap_or(0);
        let others = (0..self.metrics.len()).filter(|&i| i != time);
        let mut counters: Vec<usize> = others.filter(moved).collect();
        counters.sort_by(|&a, &b| ratio(b).total_cmp(&ratio(a)));
        let mut found: Vec<String> = [time].into_iter().filter(shown).map(says).collect();
        found.extend(counters.into_iter().map(says));
        found.extend(self.off_cpu(slow));
        found
    }

    /// The index of the first metric of `kind`.
    fn index_of(&self, kind: MetricKind) -> Option<usize> {
        self.kinds.iter().position(|&k| k == kind)
    }

    /// The share of `band`'s time spent off the CPU, from task-clock
    /// ([`MetricKind::OnCpuTime`]), when above half.
    fn off_cpu(&self, band: &Band) -> Option<String> {
        let clock = self.index_of(MetricKind::OnCpuTime)?;
        let time = self.index_of(MetricKind::Time).unwrap_or(0);
        let (time, on_cpu) = (band.means[time], band.means[clock]);
        let off = 1.0 - on_cpu / time;
        (off > 0.5).then(|| {
            std::format!(
                "{}: {:.0} % of the time off the CPU (task-clock {:.0} % of the time): \
                 preemption or waiting, not work",
                band.label,
                off * 100.0,
                on_cpu / time * 100.0
            )
        })
    }
}
