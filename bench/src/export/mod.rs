//! Every format a result is written in, by name: the forms of one result (the report, the
//! summaries, JSON, the interval log, the line, the HTML page) and the formats the tools of
//! CI read (Bencher's metric format, github-action-benchmark's custom JSON, Google
//! Benchmark's JSON, Picollo's own JSON document with a schema,
//! `docs/schema/picollo-bench.schema.json`, and JUnit XML); and the Markdown summary a CI
//! job shows ([`Findings::write_summary`]). One file per format, one line each in [`FORMATS`]:
//! the CLI, the C ABI and the bindings reach a format by its name through that table, so a
//! new format is its file, its `mod` line and its line of [`FORMATS`]; and where they go
//! ([`Outputs`]: each format to its file, the summary to its file and to the step
//! summary's).

mod bmf;
mod document;
mod gbench;
mod github;
mod junit;
pub mod merged;
mod records;
mod result;
mod route;
mod summary;

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

pub(crate) use bmf::write_file as write_bmf;
pub use bmf::Bencher;
pub use document::PicolloDocument;
pub use gbench::GoogleBenchmark;
pub use github::GithubAction;
pub use result::{HtmlForm, JsonForm, LineForm, LogForm, ReportForm, SummariesForm};
pub use route::{emit, step_summary, OutputError, Outputs, STEP_SUMMARY};
pub use summary::{verdict_mark, SUMMARY_LIMIT};

use super::error::BenchError;
use super::SCALE;
use crate::judge::verdict::Comparison;
use crate::measure::result::BenchResult;
use crate::model::document::{Emulated, Members};
use crate::stats::{quantile_interval, Z_99};

/// What a format writes: one result alone, or all the findings: every result and comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One result (findings of one measured benchmark): the report, the line, its HTML page.
    Result,
    /// Every benchmark and comparison of the findings (`--export`).
    All,
}

/// A format a [`Findings`] is written in.
pub trait ResultFormat: Sync {
    /// The name it goes by (`report`, `bmf`, `github`, `gbench`, `picollo`, …).
    fn name(&self) -> &'static str;
    /// What it is, in a few words.
    fn title(&self) -> &'static str;
    /// What it writes: all the findings unless it says one result.
    fn scope(&self) -> Scope {
        Scope::All
    }
    /// The findings in this format.
    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result;
}

/// Every format, by name: the forms of one result, then the formats of all the findings.
pub static FORMATS: &[&dyn ResultFormat] = &[
    &ReportForm,
    &SummariesForm,
    &JsonForm,
    &LogForm,
    &LineForm,
    &HtmlForm,
    &Bencher,
    &GithubAction,
    &GoogleBenchmark,
    &PicolloDocument,
    &junit::Junit,
];

/// The format named `name` among those of [`FORMATS`] that `scope` admits (`None`: all);
/// an error that names them.
fn named(name: &str, scope: Option<Scope>) -> Result<&'static dyn ResultFormat, BenchError> {
    let admitted = || {
        let kept = FORMATS.iter().copied();
        kept.filter(move |f| scope.is_none_or(|s| f.scope() == s))
    };
    if let Some(f) = admitted().find(|f| f.name() == name) {
        return Ok(f);
    }
    let names: Vec<&str> = admitted().map(|f| f.name()).collect();
    let why = match FORMATS.iter().any(|f| f.name() == name) {
        true => std::format!("format {name:?} writes one result, not a suite"),
        false => std::format!("unknown format {name:?}"),
    };
    Err(BenchError::invalid(&std::format!(
        "{why}: the formats are {}",
        names.join(", ")
    )))
}

/// The format of a suite named `name` (`--export`, a suite's exports); an error that names
/// the formats of a suite there are.
pub fn format_named(name: &str) -> Result<&'static dyn ResultFormat, BenchError> {
    named(name, Some(Scope::All))
}

/// Any format named `name`, of one result or of a suite (the C ABI's and the bindings'
/// calls by name); an error that names them all.
pub fn any_format_named(name: &str) -> Result<&'static dyn ResultFormat, BenchError> {
    named(name, None)
}

/// The names of [`FORMATS`] that `scope` admits (`None`: all), in the table's order.
pub fn format_names(scope: Option<Scope>) -> Vec<&'static str> {
    let kept = FORMATS
        .iter()
        .filter(|f| scope.is_none_or(|s| f.scope() == s));
    kept.map(|f| f.name()).collect()
}

/// One benchmark of the findings: its name and its result (`None`: it was not measured).
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    /// The name it goes by.
    pub name: String,
    /// Its result, where it was measured.
    pub result: Option<&'a BenchResult>,
    /// Why it has no result, where it has none (the summary says it).
    pub failed: Option<String>,
    /// Further members of its object in the JSON document (a command's tag and text, a
    /// saved baseline's runs apart).
    pub members: Members,
}

/// One comparison of the findings.
#[derive(Clone, Debug)]
pub struct Compared {
    /// B against A.
    pub comparison: Comparison,
    /// What A is, where a command line names it (`cmd1`, `saved:cmd2`): the document's
    /// `baseline` member.
    pub baseline: Option<String>,
    /// What B is (`cmd2`): the document's `tag` member.
    pub tag: Option<String>,
    /// It fails a gate (a CI job that fails on a slower benchmark).
    pub fails_gate: bool,
}

/// A benchmark measured on two sides, as the dashboard formats (`bmf`, `github`, `gbench`)
/// chart it: the head's result under the benchmark's name, so that a history fed from every
/// commit holds one series per benchmark; the base's only where [`Findings::with_bases`]
/// asks for it, under the base's own name.
#[derive(Clone, Debug)]
pub struct Paired<'a> {
    /// The name the head's result is charted under (a suite's benchmark, without ` (head)`).
    pub name: String,
    /// The base's result, where it is one of the findings' results (a saved run is not).
    pub base: Option<&'a BenchResult>,
    /// The head's result: one of the findings' results.
    pub head: &'a BenchResult,
}

/// What a set of benchmarks measured and how they compared: what every format writes.
#[derive(Clone, Debug, Default)]
pub struct Findings<'a> {
    /// The benchmarks, in order.
    pub entries: Vec<Entry<'a>>,
    /// Where the entries are not the units compared, the units each benchmark of the
    /// formats other than the document stands for, in order: the sides of `picollo bench
    /// --builds K`, each its builds' pooled result, compared with builds as the unit. Empty:
    /// the entries. The document lists the entries (each build) either way.
    pub sides: Vec<Entry<'a>>,
    /// The comparisons, in order.
    pub comparisons: Vec<Compared>,
    /// The results measured as a base and a head of one benchmark, which the dashboard
    /// formats chart as one series ([`Findings::charted`]); the document, JUnit and the
    /// summary list both sides under their own names either way.
    pub paired: Vec<Paired<'a>>,
    /// The dashboard formats chart each base as well (`--export-base`).
    pub with_bases: bool,
    /// The document's `builds` member: the builds a side of `picollo bench --builds K`.
    pub builds: Option<u64>,
    /// The document's `emulated` member: how an emulated run's programs started.
    pub emulated: Option<Emulated>,
}

impl<'a> Findings<'a> {
    /// The findings of `results`, without comparisons.
    pub fn of_results(results: &[&'a BenchResult]) -> Self {
        let entries = results.iter().map(|r| Entry {
            name: r.name.clone(),
            result: Some(*r),
            failed: None,
            members: Members::default(),
        });
        Findings {
            entries: entries.collect(),
            ..Findings::default()
        }
    }

    /// The findings of each `b` compared with its `a` ([`crate::compare`]): every result once,
    /// in order, then each comparison. An error when there is no pair.
    pub fn of_pairs(pairs: &[(&'a BenchResult, &'a BenchResult)]) -> Result<Self, BenchError> {
        if pairs.is_empty() {
            return Err(BenchError::invalid(
                "no comparison: give at least one pair of results (A, B)",
            ));
        }
        let mut results: Vec<&BenchResult> = Vec::new();
        for r in pairs.iter().flat_map(|&(a, b)| [a, b]) {
            if !results.iter().any(|x| core::ptr::eq(*x, r)) {
                results.push(r);
            }
        }
        let mut findings = Findings::of_results(&results);
        let compared = pairs.iter().map(|&(a, b)| Compared {
            comparison: crate::compare(a, b),
            baseline: None,
            tag: None,
            fails_gate: false,
        });
        findings.comparisons = compared.collect();
        Ok(findings)
    }

    /// Each measured benchmark (each side, where there are [`Findings::sides`]) under a name of
    /// its own: its name, or where an earlier one has it, the name with ` (2)`, ` (3)`… (a
    /// key of a JSON object, a series of a chart).
    pub fn measured(&self) -> Vec<(String, &'a BenchResult)> {
        unique(self.listed().iter().map(|e| (e.name.clone(), e.result)))
    }

    /// The benchmarks of the formats other than the document: the sides, where there are
    /// [`Findings::sides`], else the entries.
    fn listed(&self) -> &[Entry<'a>] {
        match self.sides.is_empty() {
            true => &self.entries,
            false => &self.sides,
        }
    }

    /// What the dashboard formats (`bmf`, `github`, `gbench`) chart: each measured benchmark
    /// as [`Findings::measured`] names it, except that a head of [`Findings::paired`] goes by
    /// its benchmark's name, and a base that is no head is left out unless
    /// [`Findings::with_bases`].
    pub fn charted(&self) -> Vec<(String, &'a BenchResult)> {
        let each = self.listed().iter().filter_map(|e| {
            let Some(r) = e.result else {
                return Some((e.name.clone(), None));
            };
            let is = |side: &BenchResult| core::ptr::eq(side, r);
            if let Some(p) = self.paired.iter().find(|p| is(p.head)) {
                return Some((p.name.clone(), Some(r)));
            }
            let base = self.paired.iter().any(|p| p.base.is_some_and(is));
            (!base || self.with_bases).then(|| (e.name.clone(), Some(r)))
        });
        unique(each)
    }

    /// The metrics other than time its comparisons judge (each once, in order).
    pub fn judged_metrics(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for c in self.comparisons.iter().map(|x| &x.comparison) {
            let name = c.metric.name.as_str();
            if c.metric.kind != crate::MetricKind::Time && !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// The findings in `format`, as text; an error for a format of one result where they
    /// do not hold exactly one measured benchmark.
    pub fn to_text(&self, format: &dyn ResultFormat) -> Result<String, BenchError> {
        let measured = self.measured().len();
        if format.scope() == Scope::Result && measured != 1 {
            return Err(BenchError::argument(std::format!(
                "format {:?} writes one result: this suite has {measured} measured",
                format.name()
            )));
        }
        let mut out = String::new();
        format.write(self, &mut out)?;
        Ok(out)
    }
}

/// Each measured one of `listed` under a name of its own: its name, or where an earlier one
/// (measured or not) has it, the name with ` (2)`, ` (3)`…
fn unique<'a>(
    listed: impl Iterator<Item = (String, Option<&'a BenchResult>)>,
) -> Vec<(String, &'a BenchResult)> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (plain, result) in listed {
        let mut name = plain.clone();
        let mut k = 1;
        while seen.contains(&name) {
            k += 1;
            name = std::format!("{plain} ({k})");
        }
        seen.push(name.clone());
        if let Some(r) = result {
            out.push((name, r));
        }
    }
    out
}

/// The metrics of `r` that are benchmarks of their own in the formats a chart or a
/// comparison script reads (`github`, `gbench`): time, then each exact metric (an emulated
/// count, which a chart and an alert judge as well as time) and each one named in `judged`
/// (the metrics the comparisons judge); the other counters vary with the machine and
/// would alert on noise.
pub(crate) fn charted<'a>(
    r: &'a BenchResult,
    judged: &'a [&str],
) -> impl Iterator<Item = usize> + 'a {
    let time = r.time_index();
    let shown = move |i: usize| {
        let m = &r.metrics[i].metric;
        i != time && (m.is_exact() || judged.contains(&m.name.as_str()))
    };
    core::iter::once(time).chain((0..r.metrics.len()).filter(move |&i| shown(i)))
}

/// Metric `index` of `r` at its median, in its unit, with the 99 % interval of the median
/// (from the ranks around it, bucket bounds included; the figure itself for an exact metric
/// that never varied): `None` for the interval where the samples are too few for one.
pub fn median_with_interval(r: &BenchResult, index: usize) -> (f64, Option<(f64, f64)>) {
    let median = r.percentile_at(index, 50.0).unwrap_or(f64::NAN);
    let m = &r.metrics[index];
    if m.metric.is_exact() && r.constant(&m.metric.name).is_some() {
        return (median, Some((median, median)));
    }
    let unit = |v: u64| v as f64 / SCALE as f64;
    let interval = quantile_interval(&m.histogram.view(), 0.5, Z_99);
    (median, interval.map(|(lo, hi)| (unit(lo), unit(hi))))
}

/// Results the formats' own tests write: `parse`, time with a task-clock, an exact count
/// (the same in every sample) and a counter, 12 samples, a throughput; then one sample of
/// time alone, whose median has no interval, under a name JSON must escape.
#[cfg(test)]
pub(crate) fn results_for_tests() -> Vec<BenchResult> {
    use crate::{Bench, Metric, MetricKind, Throughput, Unit, WarmUp};
    let metrics = std::vec![
        Metric::time(),
        Metric::new(
            "Software:TaskClock",
            Unit::parse("ns").unwrap(),
            MetricKind::OnCpuTime
        ),
        Metric::new("Emulated:Instructions", Unit::Events, MetricKind::Exact),
        Metric::new("Hardware:CpuCycles", Unit::Events, MetricKind::Counter),
    ];
    let rows = (0..12u64).flat_map(|k| [120_000 + 750 * k, 110_000 + 500 * k, 4_000, 1_000 * k]);
    let warm_up = WarmUp::default();
    let parse = BenchResult::from_rows(
        &Bench::new("parse"),
        metrics,
        rows.collect(),
        "test".into(),
        warm_up,
    );
    let mut parse = parse.unwrap();
    parse.throughput = Some(Throughput::Bytes(64));
    let one = Bench::new("one \"sample\" \\ \u{1}");
    let one = BenchResult::from_rows(
        &one,
        std::vec![Metric::time()],
        std::vec![9_500],
        "test".into(),
        warm_up,
    );
    std::vec![parse, one.unwrap()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_writes_the_same_results_as_the_same_text_every_time() {
        // The C ABI asks for a text's size, then writes it: the two must agree, whatever
        // the clock, the load or the date did in between (Google Benchmark's context reads
        // them once a process).
        let results = results_for_tests();
        // One result: the forms of one result write no more.
        let findings = Findings::of_results(&[&results[0]]);
        let all = || FORMATS.iter().map(|f| findings.to_text(*f).unwrap());
        let first: Vec<String> = all().collect();
        std::thread::sleep(std::time::Duration::from_millis(1100));
        for ((f, a), b) in FORMATS.iter().zip(&first).zip(all()) {
            assert_eq!(*a, b, "format {}", f.name());
        }
    }
}
