//! The change points of a store's runs, benchmark by benchmark: each benchmark's series
//! over the runs ([`series_of`]), judged ([`judge`]), and said in words ([`summary`],
//! [`change_line`]) — the words `picollo history detect` prints and the timeline page shows.

use core::fmt::Write;
use std::string::String;
use std::vec::Vec;

use super::detect::{detect, Change, Options, Report, Size};
use super::series::{from_documents, short, RunKey, Series};
use super::store::StoredRun;

/// A benchmark's series and its change points.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The series judged.
    pub series: Series,
    /// What the detector found in it.
    pub report: Report,
}

/// The benchmarks `runs` hold, each once, in the order it first appears.
pub fn benchmarks(runs: &[StoredRun]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in runs.iter().flat_map(|r| &r.document.commands) {
        if !names.contains(&c.name) {
            names.push(c.name.clone());
        }
    }
    names
}

/// The series of each of `benchmarks`' `metric` over `runs`, in the runs' order. Errors:
/// a benchmark that no run holds with that metric.
pub fn series_of(
    runs: &[StoredRun],
    benchmarks: &[String],
    metric: &str,
) -> Result<Vec<Series>, String> {
    let keyed: Vec<(RunKey, _)> = runs
        .iter()
        .map(|r| {
            let key = RunKey {
                commit: r.key.commit.clone(),
                time: r.key.time.clone(),
            };
            (key, &r.document)
        })
        .collect();
    benchmarks
        .iter()
        .map(|b| from_documents(&keyed, b, metric))
        .collect()
}

/// Each of `series` judged with `options`. Errors: a series the detector refuses.
pub fn judge(series: Vec<Series>, options: &Options) -> Result<Vec<Judged>, String> {
    series
        .into_iter()
        .map(|series| {
            let report = detect(&series, options)?;
            Ok(Judged { series, report })
        })
        .collect()
}

/// The fewest runs in which a change can be found: [`Options::min_segment`] on each side.
pub fn least_runs(options: &Options) -> usize {
    2 * options.min_segment
}

/// A size in words: `+4.9 % [+4.1 %, +5.6 %]`.
pub fn said(s: &Size) -> String {
    std::format!("{:+.1} % [{:+.1} %, {:+.1} %]", s.percent, s.low, s.high)
}

/// One change in words: its kind, commit (its first 12 characters) and run (counted from
/// 1), its size at each rank and the width's, and its p-value.
pub fn change_line(c: &Change) -> String {
    let commit = short(&c.commit);
    let mut line = std::format!("{} at {commit} (run {}):", c.kind.name(), c.index + 1);
    for s in &c.sizes {
        let _ = write!(line, " P{} {},", s.rank, said(s));
    }
    let _ = match c.p_value < 1e-4 {
        true => write!(line, " width {} (p < 0.0001)", said(&c.width)),
        false => write!(line, " width {} (p = {:.4})", said(&c.width), c.p_value),
    };
    line
}

/// A benchmark's judgement in words: a head line (its runs, its changes, the level and the
/// tests; or that it has too few runs for `options`), then a line per change.
pub fn summary(judged: &Judged, options: &Options) -> String {
    let (s, r) = (&judged.series, &judged.report);
    let mut text = std::format!("{} ({}): {} runs, ", s.benchmark, s.metric, r.runs);
    let least = least_runs(options);
    if r.runs < least {
        let min = options.min_segment;
        let _ = writeln!(
            text,
            "too few to judge (a change needs {min} runs on each side: {least} at least)"
        );
        return text;
    }
    let n = r.changes.len();
    let points = if n == 1 { "point" } else { "points" };
    let _ = writeln!(
        text,
        "{n} change {points} (level {} a test, {} tests)",
        r.alpha, r.tests
    );
    for c in &r.changes {
        let _ = writeln!(text, "  {}", change_line(c));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::detect::Kind;

    /// A report of `runs` runs with a change at each of `at`.
    fn report(runs: usize, at: &[usize]) -> Report {
        let size = |rank| Size {
            rank,
            percent: 10.0,
            low: 9.0,
            high: 11.0,
        };
        let change = |&index: &usize| Change {
            index,
            commit: std::format!("{index:040x}"),
            kind: Kind::Shift,
            found_at: 50.0,
            p_value: 0.001,
            sizes: std::vec![size(50.0), size(90.0), size(99.0)],
            width: size(99.0),
        };
        Report {
            benchmark: "b".into(),
            metric: "time".into(),
            runs,
            alpha: 0.005,
            tests: 1,
            changes: at.iter().map(change).collect(),
        }
    }

    #[test]
    fn the_last_n_runs_hold_a_change_from_run_runs_minus_n_on() {
        let r = report(30, &[10, 20]);
        let within = |n| r.within_last(n).map(|c| c.index).collect::<Vec<_>>();
        assert_eq!(within(10), [20]);
        assert_eq!(within(9), [0usize; 0]);
        assert_eq!(within(20), [10, 20]);
        assert_eq!(within(100), [10, 20]);
    }

    #[test]
    fn a_change_is_said_with_its_short_commit_run_and_sizes() {
        let r = report(30, &[20]);
        let line = change_line(&r.changes[0]);
        let want = "shift at 000000000000 (run 21): P50 +10.0 % [+9.0 %, +11.0 %],";
        assert!(line.starts_with(want), "{line}");
        assert!(line.ends_with("(p = 0.0010)"), "{line}");
    }

    #[test]
    fn a_kinds_name_is_its_json() {
        for k in [Kind::Shift, Kind::Tail, Kind::Spread] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
    }
}
