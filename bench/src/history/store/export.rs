//! A store's runs in the formats of the tools that chart or judge a history: Apache Otava's
//! CSV (a row per run: its time, its key as attribute columns, then one column per
//! benchmark and percentile of a metric) and Bencher's metric format (a line per run, each
//! the file `--export bmf=FILE` writes, from the one writer of [`crate::export::Bencher`]).

use std::string::String;
use std::vec::Vec;

use super::StoredRun;
use crate::export::merged::Rebuilt;
use crate::export::write_bmf;
use crate::model::document::{EntryRecord, MetricRecord};
use crate::model::Document;

/// The percentiles a run's figure is shown and exported at: the median and two tails.
pub const RANKS: [f64; 3] = [50.0, 90.0, 99.0];

/// The columns of Otava's CSV before the figures: the time, then the attributes.
pub const OTAVA_KEY_COLUMNS: [&str; 5] = ["time", "commit", "branch", "machine", "run"];

/// What an export takes of each run: one benchmark (`None`: every one) and one metric.
#[derive(Clone, Copy, Debug)]
pub struct Selection<'a> {
    /// The benchmark, by name.
    pub benchmark: Option<&'a str>,
    /// The metric, by name (`time`).
    pub metric: &'a str,
}

/// What an export wrote: its text, how many runs it holds, and each run it left out, why.
#[derive(Clone, Debug, Default)]
pub struct Exported {
    /// The text.
    pub text: String,
    /// The runs it holds.
    pub runs: usize,
    /// Each run left out: `RUN: why`.
    pub left_out: Vec<String>,
}

/// The figures of `metric` in `entry` at [`RANKS`], in the metric's unit; `None` where the
/// entry has no result, no such metric, or a summary without those percentiles.
pub fn figures(entry: &EntryRecord, metric: &str) -> Option<[f64; 3]> {
    let result = entry.result.as_ref()?;
    let m: &MetricRecord = result.metrics.iter().find(|m| m.name == metric)?;
    let scale = result.scale.max(1) as f64;
    let mut out = [0.0; 3];
    for (o, rank) in out.iter_mut().zip(RANKS) {
        *o = m.percentile(rank)? / scale;
    }
    Some(out)
}

/// The benchmarks `selection` takes of `runs`: the one it names, else those of the last run
/// that have a figure of its metric, in that run's order (what the project measures now).
fn benchmarks<'a>(runs: &'a [StoredRun], selection: &Selection<'a>) -> Vec<&'a str> {
    if let Some(name) = selection.benchmark {
        return std::vec![name];
    }
    let last = runs
        .last()
        .map(|r| r.document.commands.as_slice())
        .unwrap_or_default();
    let measured = last
        .iter()
        .filter(|c| figures(c, selection.metric).is_some());
    measured.map(|c| c.name.as_str()).collect()
}

/// `field` as a CSV field (RFC 4180): quoted, its quotes doubled, where it holds a comma, a
/// quote or a line break.
fn csv_field(field: &str) -> String {
    match field.contains([',', '"', '\n', '\r']) {
        true => std::format!("\"{}\"", field.replace('"', "\"\"")),
        false => field.into(),
    }
}

/// The name of the column of `benchmark`'s figure at `rank`: `NAME.METRIC.pRANK`.
pub fn otava_column(benchmark: &str, metric: &str, rank: f64) -> String {
    std::format!("{benchmark}.{metric}.p{rank}")
}

/// `runs` as Otava's CSV: a header, then a row per run that holds every benchmark of the
/// selection (the others left out, saying which benchmark each lacks: Otava reads a number
/// in every cell).
pub fn otava_csv(runs: &[StoredRun], selection: &Selection<'_>) -> Exported {
    let names = benchmarks(runs, selection);
    let mut header: Vec<String> = OTAVA_KEY_COLUMNS.iter().map(|c| String::from(*c)).collect();
    for name in &names {
        header.extend(RANKS.map(|rank| otava_column(name, selection.metric, rank)));
    }
    let mut out = Exported {
        text: line(&header),
        ..Exported::default()
    };
    for run in runs {
        match otava_row(run, &names, selection.metric) {
            Ok(row) => {
                out.text += &line(&row);
                out.runs += 1;
            }
            Err(why) => out.left_out.push(std::format!("{}: {why}", run.id)),
        }
    }
    out
}

/// A CSV line of `fields`.
fn line(fields: &[String]) -> String {
    let fields: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    fields.join(",") + "\n"
}

/// `run`'s row: its key, then its figures of each of `names`; why not, where it lacks one.
fn otava_row(run: &StoredRun, names: &[&str], metric: &str) -> Result<Vec<String>, String> {
    let key = &run.key;
    let mut row = std::vec![
        key.time.clone(),
        key.commit.clone(),
        key.branch.clone().unwrap_or_default(),
        key.machine.name.clone(),
        run.id.clone(),
    ];
    for name in names {
        let entry = run.document.commands.iter().find(|c| c.name == *name);
        let Some(f) = entry.and_then(|e| figures(e, metric)) else {
            return Err(std::format!("no {metric} of benchmark {name:?}"));
        };
        row.extend(f.map(|v| std::format!("{v}")));
    }
    Ok(row)
}

/// `runs` in Bencher's metric format: a line per run, the file of its benchmarks of the
/// selection (each with the measure of the selected metric); a run with none of them, or
/// whose results cannot be rebuilt, left out.
pub fn bmf_lines(runs: &[StoredRun], selection: &Selection<'_>) -> Exported {
    let mut out = Exported::default();
    for run in runs {
        match bmf_line(&run.document, selection) {
            Ok(line) => {
                out.text += &line;
                out.runs += 1;
            }
            Err(why) => out.left_out.push(std::format!("{}: {why}", run.id)),
        }
    }
    out
}

/// One run's line of [`bmf_lines`].
fn bmf_line(document: &Document, selection: &Selection<'_>) -> Result<String, String> {
    let mut d = document.clone();
    d.comparisons.clear();
    let taken = |c: &EntryRecord| selection.benchmark.is_none_or(|b| c.name == b);
    d.commands
        .retain(|c| taken(c) && figures(c, selection.metric).is_some());
    if d.commands.is_empty() {
        let what = selection
            .benchmark
            .map_or(String::from("no benchmark"), |b| {
                std::format!("no benchmark {b:?}")
            });
        return Err(std::format!("{what} with a {} figure", selection.metric));
    }
    let rebuilt = Rebuilt::of(d)?;
    let mut text = String::new();
    write_bmf(&rebuilt.findings(), Some(selection.metric), &mut text)
        .map_err(|_| String::from("its BMF cannot be written"))?;
    Ok(text)
}
