//! A benchmark's metric over ordered runs (one run a commit): each run's replicates, each
//! replicate its quantiles at [`RANKS`]. Built from the harness's documents
//! ([`from_documents`]), read and written as JSON, judged by [`super::detect`].

use std::format;
use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::model::document::{Document, EntryRecord, ResultRecord, Summary};

/// The ranks a series keeps of each replicate: the body, the shoulder and the tail.
pub const RANKS: [f64; 3] = [50.0, 90.0, 99.0];

/// One benchmark's metric over runs, oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// The benchmark's name.
    pub benchmark: String,
    /// The metric's name (`time`, a counter's).
    pub metric: String,
    /// The ranks each replicate's values are at, increasing.
    pub ranks: Vec<f64>,
    /// Each run, in the order of its commits.
    pub points: Vec<Point>,
}

/// One run: where it ran and its replicates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The commit it measured.
    pub commit: String,
    /// When it ran (any text the caller keeps, as an RFC 3339 time).
    #[serde(default)]
    pub time: String,
    /// Per replicate (a round of the run; its rounds span its processes), the values at the
    /// series' ranks, in thousandths of the metric's unit.
    pub replicates: Vec<Vec<f64>>,
}

/// A commit as words show it: its first 12 characters (all of a shorter one).
pub fn short(commit: &str) -> &str {
    commit
        .char_indices()
        .nth(12)
        .map_or(commit, |(i, _)| &commit[..i])
}

/// Which run a document holds: its commit and when it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunKey {
    /// The commit.
    pub commit: String,
    /// When it ran.
    pub time: String,
}

/// The series of `benchmark`'s `metric` over `runs` (in their order), each run's rounds as
/// its replicates (its summary's percentiles, one replicate, where it kept no rounds). A run
/// without that benchmark, or whose result lacks the metric, is left out. Errors: no run
/// holds them.
pub fn from_documents(
    runs: &[(RunKey, &Document)],
    benchmark: &str,
    metric: &str,
) -> Result<Series, String> {
    let points: Vec<Point> = runs
        .iter()
        .filter_map(|(key, doc)| {
            let entry = doc.commands.iter().find(|e| e.name == benchmark)?;
            let replicates = replicates(entry, metric)?;
            Some(Point {
                commit: key.commit.clone(),
                time: key.time.clone(),
                replicates,
            })
        })
        .collect();
    if points.is_empty() {
        return Err(format!(
            "no run holds benchmark `{benchmark}` with metric `{metric}`"
        ));
    }
    Ok(Series {
        benchmark: benchmark.into(),
        metric: metric.into(),
        ranks: RANKS.to_vec(),
        points,
    })
}

/// A benchmark's replicates of `metric`: its rounds' values at [`RANKS`], else its
/// summary's; `None` where it has neither.
fn replicates(entry: &EntryRecord, metric: &str) -> Option<Vec<Vec<f64>>> {
    let result = entry.result.as_ref()?;
    let m = result.metrics.iter().position(|r| r.name == metric)?;
    let rounds = from_rounds(result, m);
    if !rounds.is_empty() {
        return Some(rounds);
    }
    let summary: Summary = serde_json::from_str(result.metrics[m].summary.get()).ok()?;
    let at = |rank: f64| summary.percentiles.iter().find(|p| p.rank == rank);
    let values: Option<Vec<f64>> = RANKS.iter().map(|&r| at(r).map(|p| p.value)).collect();
    Some(std::vec![values?])
}

/// Metric `m`'s values at [`RANKS`] in each of the result's rounds (none where its rounds
/// were not kept at those ranks).
fn from_rounds(result: &ResultRecord, m: usize) -> Vec<Vec<f64>> {
    let at: Option<Vec<usize>> = RANKS
        .iter()
        .map(|&r| result.round_ranks.iter().position(|&x| x == r))
        .collect();
    let Some(at) = at else {
        return Vec::new();
    };
    let values = |round: &crate::model::document::RoundRecord| {
        let v = round.values.get(m)?;
        at.iter().map(|&i| v.get(i).map(|&x| x as f64)).collect()
    };
    result.rounds.iter().filter_map(values).collect()
}

impl Series {
    /// The series `text` holds (JSON); why not, where it is not one or breaks
    /// [`Series::check`].
    pub fn read(text: &str) -> Result<Series, String> {
        let series: Series =
            serde_json::from_str(text).map_err(|e| format!("not a series: {e}"))?;
        series.check()?;
        Ok(series)
    }

    /// Its JSON text, one line and a newline.
    pub fn text(&self) -> String {
        // Plain strings and numbers: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }

    /// Whether it can be judged: at least one rank, increasing; every run with at least one
    /// replicate, each with a positive finite value at every rank.
    pub fn check(&self) -> Result<(), String> {
        if self.ranks.is_empty() || self.ranks.windows(2).any(|w| w[0] >= w[1]) {
            return Err("a series' ranks must be at least one, increasing".into());
        }
        for (i, p) in self.points.iter().enumerate() {
            if p.replicates.is_empty() {
                return Err(format!("run {i} ({}) has no replicate", p.commit));
            }
            let bad = |r: &Vec<f64>| {
                r.len() != self.ranks.len() || r.iter().any(|v| !(v.is_finite() && *v > 0.0))
            };
            if p.replicates.iter().any(bad) {
                let n = self.ranks.len();
                return Err(format!(
                    "run {i} ({}): each replicate needs {n} positive finite values",
                    p.commit
                ));
            }
        }
        Ok(())
    }

    /// Each run's figure at each rank: the log of its replicates' median there, by rank
    /// (`[rank][run]`). The median keeps one slow round from moving its run.
    pub fn log_medians(&self) -> Vec<Vec<f64>> {
        (0..self.ranks.len())
            .map(|q| {
                let run = |p: &Point| {
                    let mut v: Vec<f64> = p.replicates.iter().map(|r| r[q]).collect();
                    crate::stats::median(&mut v).ln()
                };
                self.points.iter().map(run).collect()
            })
            .collect()
    }
}
