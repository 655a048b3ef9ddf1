//! `picollo bench`: whole commands measured like hyperfine, with every figure's
//! distribution: each command runs its warm-ups, then its measured runs, each through
//! `sh -c`; per run the wall time, user and system time and the counters of the command
//! (and of everything it spawns) go into one histogram per metric; then one report per
//! command and, with two or more, each compared with the first and a verdict.

mod command;
mod output;

use std::io::IsTerminal;
use std::process::ExitStatus;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use picollo::bench::{compare, Bench, BenchResult, Comparison, WarmUp};

use crate::error::Failure;
use command::{run_once, Counters, Ran};

/// `picollo bench --help`'s notes.
pub const BENCH_HELP: &str = "\
Runs:
  Each CMD is one shell string, run as `sh -c CMD` with stdin, stdout and stderr on
  /dev/null (--show-output keeps picollo's stdout and stderr): --warmup runs first (not measured), then --runs measured runs, one command
  after the other. Each run forks a child held at a gate while its counters open, then
  lets it exec. Wall time runs from that release to the reap (the shell's exec and start
  included); user and system time are wait4's (the command and the children it waited
  for). Counters (task-clock, page faults, context switches; cycles, instructions and
  branch misses where the PMU has them) are a perf group on the child, enabled by its
  exec and inherited by all it spawns, kernel work included where perf_event_paranoid
  allows. What cannot be counted is said, with the reason, in each report's warnings.

Output:
  One report per command (conditions, a table per metric, what the slow runs did
  differently); with two or more commands, each compared with the first: Δ% per
  percentile with a 99 % interval of the difference, Cohen's d, a Mann-Whitney test on
  wall time and a last line `verdict: B is slower|faster than A by x% (99 % confidence)`
  or `verdict: no difference between A and B (99 % confidence)`. A command that exits
  non-zero (or is killed) is reported with its status and the run that failed, and is
  not measured nor compared; the exit status is then 6.
  --export-log writes one interval per command and metric, tagged cmdN:METRIC (cmd1 is
  the first command; METRIC is time, user, system or the counter's name, e.g.
  cmd2:Software:TaskClock), values in thousandths of the unit (picoseconds for times):
  `picollo report --tag cmd1:time --unit-ratio 1e6 LOG` shows microseconds.
  --json writes {\"commands\": [...], \"comparisons\": [...]}: per command its tag, the
  command, and its result (the harness's JSON) or its failure.";

#[derive(Args)]
pub struct BenchArgs {
    /// The commands to measure, each one shell string (quote it)
    #[arg(required = true, value_name = "CMD")]
    pub commands: Vec<String>,
    /// Measured runs of each command
    #[arg(short, long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub runs: u32,
    /// Runs of each command before its measured runs (not measured)
    #[arg(short, long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub warmup: u32,
    /// Write the interval log (tags cmdN:METRIC) to this file
    #[arg(long, value_name = "FILE")]
    pub export_log: Option<String>,
    /// Write the results and comparisons as JSON to this file
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Let the commands write to picollo's stdout and stderr (default: /dev/null)
    #[arg(long)]
    pub show_output: bool,
}

/// What became of one command.
pub enum Outcome {
    /// Every run succeeded: the result, and when its measured runs began and how long they
    /// took (seconds after the first command's start).
    Measured {
        result: Box<BenchResult>,
        start: f64,
        length: f64,
    },
    /// Run `run` (1-based, of the warm-ups when `warm_up`) ended with `status`.
    Failed {
        run: u32,
        warm_up: bool,
        status: ExitStatus,
    },
}

/// One command and what became of it.
pub struct Measurement {
    pub command: String,
    pub outcome: Outcome,
}

impl Measurement {
    fn result(&self) -> Option<&BenchResult> {
        match &self.outcome {
            Outcome::Measured { result, .. } => Some(result),
            Outcome::Failed { .. } => None,
        }
    }
}

/// Measure every command, print the reports and comparisons, write the files asked for;
/// a failed command makes the exit status 6 once everything else is written.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    // An output that cannot be written fails now, not after the runs.
    for path in [&args.export_log, &args.json].into_iter().flatten() {
        if path != "-" {
            std::fs::File::create(path).map_err(|e| Failure::io(path, &e))?;
        }
    }
    let counters = Counters::choose();
    let per_command = u64::from(args.warmup) + u64::from(args.runs);
    let bar = progress_bar(per_command * args.commands.len() as u64);
    let t0 = Instant::now();
    let mut measured = Vec::new();
    for (i, command) in args.commands.iter().enumerate() {
        bar.set_message(command.clone());
        let outcome = measure(command, args, &counters, &bar, t0)?;
        bar.set_position(per_command * (i as u64 + 1));
        measured.push(Measurement {
            command: command.clone(),
            outcome,
        });
    }
    bar.finish_and_clear();
    let comparisons = comparisons(&measured);
    crate::emit(&output::text(&measured, &comparisons, args), None)?;
    if let Some(path) = &args.export_log {
        crate::emit(&output::log(&measured)?, Some(path))?;
    }
    if let Some(path) = &args.json {
        crate::emit(&output::json(&measured, &comparisons, args), Some(path))?;
    }
    match output::failures(&measured, args) {
        Some(message) => Err(Failure::command(message)),
        None => Ok(()),
    }
}

/// A bar on stderr when it is a terminal; hidden otherwise.
fn progress_bar(runs: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(runs.max(1));
    let style = ProgressStyle::with_template("[{bar:40}] {pos}/{len} runs ({eta}) {msg}")
        .expect("the template is valid")
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// The warm-ups, then the measured runs of one command; the first failed run ends it.
fn measure(
    command: &str,
    args: &BenchArgs,
    counters: &Counters,
    bar: &ProgressBar,
    t0: Instant,
) -> Result<Outcome, Failure> {
    let once = |counters: &Counters| {
        run_once(command, counters, args.show_output)
            .map_err(|e| Failure::io(&format!("sh -c {command:?}"), &e))
    };
    for run in 1..=args.warmup {
        if let Ran::Failed(status) = once(counters)? {
            let warm_up = true;
            return Ok(Outcome::Failed {
                run,
                warm_up,
                status,
            });
        }
        bar.inc(1);
    }
    let start = t0.elapsed().as_secs_f64();
    let (mut rows, mut multiplexed) = (Vec::new(), Vec::new());
    for run in 1..=args.runs {
        match once(counters)? {
            Ran::Failed(status) => {
                let warm_up = false;
                return Ok(Outcome::Failed {
                    run,
                    warm_up,
                    status,
                });
            }
            Ran::Measured(row, m) => {
                rows.extend(row);
                multiplexed.resize(m.len(), false);
                multiplexed.iter_mut().zip(m).for_each(|(a, b)| *a |= b);
            }
        }
        bar.inc(1);
    }
    let length = t0.elapsed().as_secs_f64() - start;
    let result = Box::new(result(command, counters, rows, &multiplexed, args.warmup));
    Ok(Outcome::Measured {
        result,
        start,
        length,
    })
}

/// The result of one command's rows: the counters' notes and multiplexing in its warnings.
fn result(
    command: &str,
    counters: &Counters,
    rows: Vec<u64>,
    multiplexed: &[bool],
    warmup: u32,
) -> BenchResult {
    let warm_up = WarmUp {
        batches: warmup.into(),
        converged: true,
        last_change: 0.0,
    };
    let clock = "wall time by the monotonic clock, from the release of the held child (just \
         before its exec) to its reap; user and system time by wait4";
    let mut r = BenchResult::from_rows(
        &Bench::new(command),
        counters.metrics(),
        rows,
        clock.into(),
        warm_up,
    )
    .expect("every run gives one figure per metric, and there is at least one run");
    r.conditions.warnings.extend(counters.notes.iter().cloned());
    let counted = r.metrics.iter_mut().skip(3);
    for (m, _) in counted.zip(multiplexed).filter(|(_, &x)| x) {
        m.multiplexed = true;
        r.conditions.warnings.push(format!(
            "{} was multiplexed: its figures are scaled by time enabled / running",
            m.metric.name
        ));
    }
    r
}

/// Each measured command after the first against the first (none when it failed).
fn comparisons(measured: &[Measurement]) -> Vec<(usize, Comparison)> {
    let Some(first) = measured.first().and_then(Measurement::result) else {
        return Vec::new();
    };
    let others = measured.iter().enumerate().skip(1);
    others
        .filter_map(|(i, m)| Some((i, compare(first, m.result()?))))
        .collect()
}
