//! Two results compared: per metric, each percentile's change with a 99 % interval of the
//! difference, and Cohen's d; overall, a Mann–Whitney test on time per operation gives the
//! verdict at 99 % confidence.

use std::string::String;
use std::vec::Vec;

use super::meter::SCALE;
use super::result::{BenchResult, MetricResult};
use super::stats::{difference_interval, mann_whitney, RankTest, Z_99};

/// The ranks a comparison shows.
pub const COMPARED_RANKS: [f64; 6] = [0.0, 50.0, 90.0, 99.0, 99.9, 100.0];

/// The overall answer about time per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// B takes less time than A; by this many percent at the median.
    Faster(f64),
    /// B takes more time than A; by this many percent at the median.
    Slower(f64),
    /// The rank test finds no difference at 99 %.
    NoDifference,
}

impl Verdict {
    /// `faster`, `slower` or `no difference`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Faster(_) => "faster",
            Verdict::Slower(_) => "slower",
            Verdict::NoDifference => "no difference",
        }
    }
}

/// One percentile of one metric in both results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffRow {
    /// The rank, in percent.
    pub rank: f64,
    /// A's value, in the metric's unit.
    pub a: f64,
    /// B's value.
    pub b: f64,
    /// `(b − a) / a` in percent (NaN where `a` is 0).
    pub change: f64,
    /// A 99 % interval of `b − a` (ranks strictly between 0 and 100 only).
    pub interval: Option<(f64, f64)>,
}

impl DiffRow {
    /// The interval lies wholly on one side of 0.
    pub fn excludes_zero(&self) -> bool {
        self.interval.is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }
}

/// One metric in both results.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDiff {
    /// The metric's name.
    pub name: String,
    /// Its unit.
    pub unit: &'static str,
    /// One row per rank of [`COMPARED_RANKS`].
    pub rows: Vec<DiffRow>,
    /// Means in the unit, A then B.
    pub means: (f64, f64),
    /// Cohen's d of B against A.
    pub cohens_d: Option<f64>,
}

/// Result B against result A.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// What one operation is called (A's: `op` or `run`).
    pub operation: String,
    /// The metrics both results have, in A's order.
    pub metrics: Vec<MetricDiff>,
    /// The rank test on time per operation (`None` if either is empty).
    pub rank_test: Option<RankTest>,
    /// B's median time over A's.
    pub ratio: f64,
    /// The verdict at 99 % confidence.
    pub verdict: Verdict,
}

fn diff_metric(a: &MetricResult, b: &MetricResult) -> MetricDiff {
    let (va, vb) = (a.histogram.view(), b.histogram.view());
    let unit = |v: u64| v as f64 / SCALE as f64;
    let rows = COMPARED_RANKS.iter().map(|&rank| {
        let pa = unit(va.percentile_value(rank).unwrap_or(0));
        let pb = unit(vb.percentile_value(rank).unwrap_or(0));
        let interval = (rank > 0.0 && rank < 100.0)
            .then(|| difference_interval(&va, &vb, rank / 100.0))
            .flatten()
            .map(|(lo, hi)| (lo / SCALE as f64, hi / SCALE as f64));
        DiffRow {
            rank,
            a: pa,
            b: pb,
            change: (pb - pa) / pa * 100.0,
            interval,
        }
    });
    MetricDiff {
        name: a.metric.name.clone(),
        unit: a.metric.unit,
        rows: rows.collect(),
        means: (a.mean(), b.mean()),
        cohens_d: va.summary().cohens_d(&vb.summary()),
    }
}

/// Compare result `b` with result `a`.
pub fn compare(a: &BenchResult, b: &BenchResult) -> Comparison {
    let metrics = a.metrics.iter().filter_map(|ma| {
        let mb = b.metric(&ma.metric.name)?;
        Some(diff_metric(ma, mb))
    });
    let (ta, tb) = (a.time().histogram.view(), b.time().histogram.view());
    let rank_test = mann_whitney(&ta, &tb);
    let ratio = b.time().percentile(50.0).unwrap_or(f64::NAN)
        / a.time().percentile(50.0).unwrap_or(f64::NAN);
    let verdict = match rank_test {
        Some(t) if t.z > Z_99 => Verdict::Slower((ratio - 1.0) * 100.0),
        Some(t) if t.z < -Z_99 => Verdict::Faster((1.0 - ratio) * 100.0),
        _ => Verdict::NoDifference,
    };
    Comparison {
        a: a.name.clone(),
        b: b.name.clone(),
        operation: a.conditions.operation.clone(),
        metrics: metrics.collect(),
        rank_test,
        ratio,
        verdict,
    }
}
