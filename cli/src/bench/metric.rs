//! `--metric NAME`: the metric every comparison judges and a `--baseline` gate fails on.
//! Time by default (under `--emulate`, `Emulated:Instructions`: the emulator's time does not
//! gate); a count whose runs agree within its read jitter is judged exactly, any other
//! metric on its runs as time is ([`picollo_bench::compare_on`]). A name that this run's
//! metrics or a baseline's do not have is refused before any run.

use picollo_bench::{find_metric, Metric};

use super::saved::Baseline;
use super::BenchArgs;
use crate::error::Failure;

/// The metric judged under `--emulate` unless another is named: the guest's instructions.
pub const EMULATED: &str = "Emulated:Instructions";

/// The metric named by `--metric`, or the default: time, or under `--emulate` the guest's
/// instructions.
pub fn judged(args: &BenchArgs) -> &str {
    match (&args.judge.metric, args.emulate) {
        (Some(name), _) => name,
        (None, Some(_)) => EMULATED,
        (None, None) => "time",
    }
}

/// Refuse a `--metric` that `metrics` do not have, naming those they do and saying
/// `whose` they are.
fn check(args: &BenchArgs, metrics: &[Metric], whose: &str) -> Result<(), Failure> {
    match find_metric(metrics, judged(args)) {
        Ok(_) => Ok(()),
        Err(e) => Err(Failure::usage(format!("--metric: {e}, {whose}"))),
    }
}

/// Refuse a `--metric` this run's counters do not give (a hardware event where the PMU has
/// none, say), with `notes`, why counters are missing: before the runs.
pub fn check_run(args: &BenchArgs, metrics: &[Metric], notes: &[String]) -> Result<(), Failure> {
    let whose = match notes {
        [] => "the metrics of this run".to_string(),
        _ => format!("the metrics of this run ({})", notes.join("; ")),
    };
    check(args, metrics, &whose)
}

/// Refuse a `--metric` that a command saved in `baseline` (read from `path`) was not
/// measured with.
pub fn check_saved(args: &BenchArgs, baseline: &Baseline, path: &str) -> Result<(), Failure> {
    let saved = baseline.commands.iter().enumerate();
    for (i, c) in saved.filter(|(_, c)| !c.metrics.is_empty()) {
        let whose = format!("those {path} saved of command {}", i + 1);
        check(args, &c.metrics, &whose)?;
    }
    Ok(())
}
