//! `picollo history detect`: each benchmark's change points over a store's runs, in words,
//! as JSON and as the timeline page, and a nightly gate on the last runs.

use clap::Args;
use picollo_bench::history::changes::{benchmarks, change_line, judge, series_of, summary, Judged};
use picollo_bench::history::detect::{Options, Report};
use picollo_bench::history::store::StoredRun;
use picollo_bench::html::timeline;

use super::{read_runs, Order, StoreArg};
use crate::error::Failure;

#[derive(Args)]
pub(super) struct DetectArgs {
    #[command(flatten)]
    store: StoreArg,
    #[command(flatten)]
    order: Order,
    /// Only this benchmark (again for more; default: every one the runs hold)
    #[arg(long, value_name = "NAME")]
    benchmark: Vec<String>,
    /// The metric judged
    #[arg(long, value_name = "NAME", default_value = "time")]
    metric: String,
    /// Exit with status 10 where a change point's first run is among a benchmark's last N
    /// runs (at least 5: a change is found once 5 runs follow it)
    #[arg(long, value_name = "N")]
    last: Option<usize>,
    /// The seed of the permutations: a seed gives the same change points every time
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Write each benchmark's report (its change points, their sizes) as JSON to OUT
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
    /// Write the timeline page (each benchmark's runs over commits, its change points
    /// marked) to PAGE
    #[arg(long, value_name = "PAGE")]
    html: Option<String>,
}

/// `history detect`.
pub(super) fn detect(args: &DetectArgs) -> Result<(), Failure> {
    let options = Options {
        seed: args.seed,
        ..Options::default()
    };
    check_last(args.last, &options)?;
    let runs = read_runs(&args.store, Some(&args.order))?;
    one_machine(&runs)?;
    let judged = judged(args, &runs, &options)?;
    let mut text: String = judged.iter().map(|j| summary(j, &options)).collect();
    let recent = args.last.map(|n| (n, recent(&judged, n)));
    if let Some((n, lines)) = &recent {
        if lines.is_empty() {
            text += &format!("no change point in the last {n} runs\n");
        }
    }
    crate::emit(&text, None)?;
    write_outputs(args, &judged)?;
    match recent {
        Some((n, lines)) if !lines.is_empty() => Err(Failure::changed(format!(
            "a change point in the last {n} runs: {}",
            lines.join("; ")
        ))),
        _ => Ok(()),
    }
}

/// A usage failure where `--last` is too short to ever hold a change.
fn check_last(last: Option<usize>, options: &Options) -> Result<(), Failure> {
    match last {
        Some(n) if n < options.min_segment => Err(Failure::usage(format!(
            "--last {n}: a change is found only once {} runs follow it, so the last {n} runs \
             never hold one; give {} or more",
            options.min_segment, options.min_segment
        ))),
        _ => Ok(()),
    }
}

/// A usage failure where `runs` come from more than one machine: a series mixes no
/// machines.
fn one_machine(runs: &[StoredRun]) -> Result<(), Failure> {
    let mut names: Vec<&str> = runs.iter().map(|r| r.key.machine.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    match names.len() {
        0 | 1 => Ok(()),
        n => Err(Failure::usage(format!(
            "runs of {n} machines ({}): pick one with --machine NAME",
            names.join(", ")
        ))),
    }
}

/// The series of the benchmarks `args` names (else of every one) over `runs`, judged.
/// Errors: no run (no data), a benchmark or metric no run holds (no data), a series the
/// detector refuses (format).
fn judged(
    args: &DetectArgs,
    runs: &[StoredRun],
    options: &Options,
) -> Result<Vec<Judged>, Failure> {
    let names = match args.benchmark.is_empty() {
        true => benchmarks(runs),
        false => args.benchmark.clone(),
    };
    if names.is_empty() {
        let store = args.store.store.display();
        return Err(Failure::no_data(format!("{store}: no run to judge")));
    }
    let series = series_of(runs, &names, &args.metric).map_err(Failure::no_data)?;
    judge(series, options).map_err(Failure::format)
}

/// Each change among the last `n` runs of its benchmark, in words, with the benchmark.
fn recent(judged: &[Judged], n: usize) -> Vec<String> {
    let of = |j: &Judged| -> Vec<String> {
        let b = &j.series.benchmark;
        j.report
            .within_last(n)
            .map(|c| format!("{b}: {}", change_line(c)))
            .collect()
    };
    judged.iter().flat_map(of).collect()
}

/// The JSON of the reports and the timeline page, where asked for.
fn write_outputs(args: &DetectArgs, judged: &[Judged]) -> Result<(), Failure> {
    if let Some(path) = &args.json {
        let reports: Vec<&Report> = judged.iter().map(|j| &j.report).collect();
        // Plain strings and numbers: serializing cannot fail.
        let json = serde_json::to_string_pretty(&reports).unwrap_or_default() + "\n";
        crate::emit(&json, Some(path))?;
    }
    if let Some(path) = &args.html {
        let pairs: Vec<_> = judged.iter().map(|j| (&j.series, &j.report)).collect();
        let title = format!("Change points: {}", args.store.store.display());
        let mut page = String::new();
        let _ = timeline(&title, &pairs).write(&mut page);
        crate::emit(&page, Some(path))?;
    }
    Ok(())
}
