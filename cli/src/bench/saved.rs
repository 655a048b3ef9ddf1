//! `--baseline FILE`: the results a `picollo bench --save FILE` (or `--json FILE`) wrote,
//! rebuilt run by run from their rounds, so that a new measurement is judged against them
//! round against round.

use picollo_bench::baseline::{self, SavedEntry};
use picollo_bench::model::Document;
use picollo_bench::saved::SavedRounds;

use super::stage::Start;
use crate::error::Failure;

/// One saved command: its entry of the baseline (its command, result, metrics and the
/// median of each run apart it was saved from).
pub type Saved = SavedEntry;

/// A saved file: its commands, in command order, the builds a side they were saved with
/// (`--builds`; 1 in a file saved without), and under `--emulate` how their programs
/// started (`None` in a file saved without, or by a picollo that did not record it).
pub struct Baseline {
    pub commands: Vec<Saved>,
    pub builds: usize,
    pub start: Option<Start>,
}

/// The saved file at `path`, its results rebuilt (`Some(threshold)`: after the runs, for the
/// comparisons), or only its commands and runs apart (`None`: before the runs, which then
/// fork from a process without the saved histograms: a parent of a few hundred MB makes
/// each child's exec, and so its wall time, measurably slower).
pub fn load(path: &str, threshold: Option<f64>) -> Result<Baseline, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::io(path, &e))?;
    let bad = |why: String| Failure::format(format!("{path}: {why}"));
    let doc = Document::read(&text)
        .map_err(|e| bad(format!("not the JSON picollo bench writes: {e}")))?;
    let read = baseline::Baseline::of(&doc, path, threshold, SavedRounds::OneRun).map_err(bad)?;
    let start = read.emulated.as_ref().map(Start::of_record).transpose();
    Ok(Baseline {
        commands: read.entries,
        builds: read.builds,
        start: start.map_err(bad)?,
    })
}

/// What an emulated gate against `saved` (read from `path`) should know of how its
/// programs started: in another environment or temporary folder than this run's, or
/// (saved by an earlier picollo) each from the path its command gave.
pub fn note(saved: &Baseline, path: &str) -> Option<String> {
    let counted = |s: &Saved| {
        let metrics = s.result.as_ref().map_or(&[][..], |r| &r.metrics[..]);
        metrics.iter().any(|m| m.metric.is_exact())
    };
    match &saved.start {
        Some(then) => then.differences(&Start::here()).map(|d| {
            format!(
                "{path} was saved where the programs started otherwise: {d}; the start-up's \
                 count moves with them (gate where the baseline was saved)"
            )
        }),
        None if saved.commands.iter().any(counted) => Some(format!(
            "{path} was saved by an earlier picollo, which started each program from the path \
             its command gave: the start-up's count differs with the path's length (save the \
             baseline again)"
        )),
        None => None,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use picollo_bench::{compare, Bench, BenchResult, Metric, MetricKind, Unit, WarmUp, SCALE};

    /// A command's result of runs of `times` ns, less a shell's start of 1,000 ns.
    pub(in crate::bench) fn less_the_shell(name: &str, times: &[u64]) -> BenchResult {
        let metrics = || vec![Metric::new("time", Unit::Nanoseconds, MetricKind::Time)];
        let rows = |t: &[u64]| t.iter().map(|v| v * SCALE).collect();
        let made = |bench: &Bench, t: &[u64]| {
            let warm_up = WarmUp::default();
            BenchResult::from_rows(bench, metrics(), rows(t), "test".into(), warm_up).unwrap()
        };
        let shell = made(&Bench::new("the shell"), &[1_000, 1_000, 1_000]);
        made(&Bench::new(name).with_baseline(&shell), times)
    }

    #[test]
    fn a_saved_result_keeps_the_floors_it_was_saved_with() {
        let r = less_the_shell("cmd", &[900, 5_000, 800, 7_000, 6_000]);
        assert_eq!(r.time().floored, 2);
        let entry = picollo_bench::model::EntryRecord {
            result: Some(r.record()),
            ..Default::default()
        };
        let saved = picollo_bench::saved::Saved::read(
            "cmd [saved.json]",
            &entry,
            Some(1.0),
            SavedRounds::OneRun,
        );
        let saved = saved.unwrap().result.unwrap();
        let (t, was) = (saved.time(), r.time());
        assert_eq!((t.floored, t.baseline), (2, 1_000 * SCALE));
        assert_eq!(t.resolution, was.resolution);
        assert_eq!(saved.conditions.baseline.as_deref(), Some("the shell"));
        // A comparison against it says that the saved side's time was floored.
        let new = less_the_shell("cmd", &[5_000, 6_000, 7_000, 5_500, 6_500]);
        let mut line = String::new();
        compare(&saved, &new).write_verdict(&mut line).unwrap();
        assert!(
            line.ends_with("[cmd [saved.json]'s time: floored 40.0 %]"),
            "{line}"
        );
    }
}
