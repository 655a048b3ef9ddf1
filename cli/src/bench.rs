//! `picollo bench`: whole commands measured like hyperfine, with every figure's
//! distribution, interleaved: after the warm-ups, each round runs every command once in a
//! random order (through `sh -c`, or without a shell), beside the shell alone, whose start
//! is subtracted; per run the wall time, user and system time and the counters of the
//! command (and of everything it spawns) go into one histogram per metric; then one report
//! per command and, with two or more, each compared with the first round against round;
//! with `--baseline`, each compared with its saved result, a CI gate.

mod ci;
mod command;
mod metric;
mod output;
mod rounds;
mod saved;
#[cfg(test)]
mod shared_flags;
mod sides;
mod stage;

use std::io::IsTerminal;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use picollo_bench::draws::Draws;
use picollo_bench::export::PicolloDocument;
use picollo_bench::flags::{CiFlags, GateFlags};
use picollo_bench::probe;
use picollo_bench::rules::median_round_at;
use picollo_bench::{compare_on, judge_apart, Bench, BenchResult, Comparison, Verdict, WarmUp};

use crate::emulate::{Counted, EmulateWhat, Emulator, EmulatorPaths};
use crate::error::Failure;
use command::Counters;
use rounds::Track;
use stage::Stage;

/// `picollo bench --help`'s notes.
pub const BENCH_HELP: &str = "\
Runs:
  Each CMD is one shell string, run as `sh -c CMD` (--shell picks another shell; -N or
  --shell=none runs its words without a shell, split at blanks with quotes and backslashes
  as a shell does) with stdin, stdout and stderr on /dev/null (--show-output keeps
  picollo's stdout and stderr). The runs are interleaved: --warmup rounds first (not
  measured), then --runs measured rounds, each running every command once in a random
  order, and beside them the shell alone (`sh -c ''`), whose median figures are
  subtracted from every command's (not with --shell=none): a run below the shell's
  median is floored at 0, counted and flagged in the report, the JSON and the HTML, not
  shown as a silent 0. Each run forks a child held at
  a gate while its counters open, then lets it exec. Wall time runs from that release to
  the reap; user and system time are wait4's (the command and the children it waited
  for). Counters (task-clock, page faults, context switches; cycles, instructions and
  branch misses where the PMU has them) are a perf group on the child, enabled by its
  exec and inherited by all it spawns, kernel work included where perf_event_paranoid
  allows. What cannot be counted is said, with the reason, in each report's warnings.
  Each run's environment holds PICOLLO_ENV_PAD of a length drawn per run below
  --env-pad (4096 bytes by default; 0 leaves the environment as it is): the size of the
  environment moves where the stack starts, which can bias a command by a few percent;
  drawn anew per run, it spreads over the runs of every command alike.

Output:
  One report per command (conditions, a table per metric, what the slow runs did
  differently); with two or more commands, each compared with the first, round against
  round: Δ% per percentile with a 99 % interval of the difference, Cohen's d and Cliff's
  delta, the method (the Wilcoxon signed-rank test on the rounds' paired differences of wall
  time), warnings where the rounds drifted, and a last line `verdict: B is slower|faster than
  A by x % [lo %, hi %], noise floor f % (99 % confidence)`; a change below --threshold percent is
  `within noise`, an interval holding 0 `no difference`, fewer than 8 rounds `not enough
  rounds`. A command that exits non-zero (or is killed) is reported with its status and the
  run that failed, one whose program cannot start (not found, not executable) with the
  reason its exec gave, and is not measured nor compared; the exit status is then 6.
  --export-log writes one interval per command and metric, tagged cmdN:METRIC (cmd1 is
  the first command; METRIC is time, user, system or the counter's name, e.g.
  cmd2:Software:TaskClock), values in thousandths of the unit (picoseconds for times):
  `picollo report --tag cmd1:time --unit-ratio 1e6 LOG` shows microseconds.
  --json writes {\"commands\": [...], \"comparisons\": [...]}: per command its tag, the
  command, and its result (the harness's JSON, with its rounds) or its failure.
  --html writes one self-contained page (inline SVG, nothing fetched): every verdict, then
  per comparison its table, and per metric the shift of each percentile with its 99 %
  interval, both percentile spectra and both sides' round medians in run order.
  --export FORMAT=PATH writes the commands' results for another tool (repeat it for
  several), FORMAT one of the formats listed under --export above (docs/ci.md describes
  each). --summary PATH writes a Markdown summary: the verdicts first (colour, symbol and
  word), what changed with its percentiles, the rest in <details>, the method and
  conditions last; where GITHUB_STEP_SUMMARY names a file, the summary is appended to it
  too. A path that cannot be written exits 3 before any run; an
  unknown format is a usage error (exit 2).

Builds:
  --builds K reads the commands as sides of K builds each, the builds of one commit that
  differ only in code layout (`picollo layouts` makes them): the first K are side 1, the
  next K side 2, and so on. Every build of every side runs in each round. Each side gets
  one report, its builds pooled round against round, and a table of its builds' medians;
  each side after the first is compared with side 1 with builds as the unit: each build's
  median log run time less each round's mean over all builds, the two sides' means of
  those compared by Student's t on their spread inside each side (2K − 2 degrees of
  freedom), so that what layout alone moves is in the interval. Its verdict line adds the
  layout spread (the spread between builds beyond the rounds' noise) and the noise floor
  the rounds alone would leave: `...; layout spread ±3.2 %, noise floor 0.4 % (99 %, 6
  builds a side)`. With --save, each build keeps its runs apart; with --baseline, each
  side is compared with its saved side, on runs apart and builds as the units (the new
  builds' mean log median against the saved runs' means; the interval adds the spread
  between runs and that between the saved builds, Welch–Satterthwaite degrees of freedom).
  Commands that do not split into sides of K, or a baseline or --append file saved with
  another --builds, are usage errors (exit 2); a baseline whose builds of one side hold
  different counts of runs apart is a format error (exit 4); a side with a failed build is
  not compared.

Exact counts (--emulate):
  --emulate[=instructions|memory|l1d] runs each command's words (no shell, no environment
  padding) under QEMU's user mode with Picollo's plugin (picollo emulate) and adds each
  run's exact guest counts, every thread summed: Emulated:Instructions, with memory
  Emulated:Loads and Emulated:Stores, with l1d Emulated:L1DMisses of a modelled 32 KiB
  8-way L1D. Time, user and system are then the emulator's. The length of the path a
  program starts from moves its start-up's count (tens of instructions), so a program
  named by its path (./app, ../base/app) starts as one link, the same for every command
  and run ($TMPDIR/picollo-emulate-<pid, 10 digits>/program, pointed at it before each
  run; _ in the environment names it); a program named alone starts from where PATH finds
  it. Each comparison ends with an exact: line per counted metric (B − A per run, exactly,
  when every run of each side counted the same), and judges Emulated:Instructions unless
  --metric names another (Metric, below): with --baseline, more by --threshold percent or
  more exits 7 (--threshold 0: any rise); one saved run suffices. The saved file records
  how its programs started (the link's length; the environment's variables, bytes and a
  digest of their names and values' lengths): a gate whose programs start otherwise says
  so, on stderr and in the comparison's warnings.
  --qemu and --plugin name the emulator and the plugin, as for picollo emulate. QEMU
  (Debian's qemu-user) or the plugin missing exits 8.

Metric:
  --metric NAME judges every comparison, and a --baseline gate, on that metric instead of
  wall time: Hardware:Instructions, Software:PageFaults, or the part after `:` in any case
  where one metric has it (instructions, page-faults). A metric this run or a baseline's
  commands do not have is a usage error naming those they have (exit 2). A count whose runs
  on each side spread no more than its read jitter (2 counts or 0.01 % of the median,
  whichever is wider; an Emulated:* count not at all) is judged exactly: B − A, the
  difference of the medians, bounded by [min B − max A, max B − min A] (99 % from 5 runs a
  side; an emulated count from one), and gated where that excludes 0 with the change at
  the threshold or more; it needs no runs apart. Any other metric (cycles, task-clock,
  user) is judged on its runs like time, against a baseline on its runs apart (--save
  keeps each metric's median per run apart). The verdict line names the metric (`B counts
  more Hardware:Instructions than A by …`), the JSON comparison holds \"metric\" and
  \"withinJitter\" (judged exactly, {difference, low, high, spread}; else null), and the
  summary names the metric in its head and rows.

CI gate:
  --save FILE writes the JSON to FILE, with each command's median run time as one run
  apart; --save FILE --append keeps the runs apart FILE holds (of the same commands) and
  adds this one. A later `picollo bench --baseline FILE CMD...` compares each command with
  the saved command of the same position, after the comparisons with the first command:
  its table compares the two measurements' runs, and its verdict is judged on runs apart
  (a process started later runs apart by more than the spread inside one run shows): the
  new median run time against the 99 % prediction interval of the saved ones (Student's t
  on their logs). It exits with 7 when a command is slower by the threshold or more (with
  --metric: counts more of it by the threshold or more). A baseline of fewer than 2 runs
  apart is not judged (`not enough runs apart`, a note on stderr, exit 0): save the base 3
  to 5 times with --append. Saved runs apart that spread so far that the noise floor
  reaches 100 % (a machine that steps between speeds) are not judged either (`not judged`,
  a note on stderr, exit 0): save runs that span the machine's states, or compare the two
  builds interleaved. A baseline that holds no measured result at the place of any
  command of the run compares nothing: exit 5.
  --gate gates the comparisons of this run too: two builds run interleaved (`picollo bench
  --gate base/app head/app`, each round runs both) exit 7 when the second is slower than
  the first by the threshold or more (with --builds: a side than side 1). Interleaved, it
  needs no runs apart, and the machine's drift lands on both sides.";

#[derive(Args)]
pub struct BenchArgs {
    /// The commands to measure, each one shell string (quote it)
    #[arg(required = true, value_name = "CMD")]
    pub commands: Vec<String>,
    /// A name for a command in its report, the comparisons, the log and the JSON, in place
    /// of its text: once per command, in order (with --builds K: once per side); commands
    /// after the last name go by their text
    #[arg(short = 'n', long = "name", value_name = "NAME")]
    pub names: Vec<String>,
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
    /// Write an HTML report to this file: every comparison's verdict, then each
    /// comparison's figures (with one command, its result's); one file, nothing fetched
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    // For CI, as a suite's: --export FORMAT=PATH and --summary PATH.
    #[command(flatten)]
    pub ci: CiFlags,
    /// Let the commands write to picollo's stdout and stderr (default: /dev/null)
    #[arg(long)]
    pub show_output: bool,
    /// The shell that runs each command with -c; `none`: run its words without a shell
    #[arg(short = 'S', long, value_name = "SHELL", default_value = "sh")]
    pub shell: String,
    /// Run each command without a shell (--shell=none)
    #[arg(short = 'N', conflicts_with = "shell")]
    pub no_shell: bool,
    /// Write the results as JSON to this file, for a later --baseline
    #[arg(long, value_name = "FILE")]
    pub save: Option<String>,
    /// Compare each command with the result saved in FILE (--save) at its position, judged
    /// on the runs apart FILE holds; exit with 7 when one is slower by the threshold or more
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<String>,
    /// Exit with 7 also when a command is slower than the first command of this run (with
    /// --builds: a side than side 1) by the threshold or more: a gate on two builds run
    /// interleaved (base first, head second)
    #[arg(long)]
    pub gate: bool,
    // The gate's flags, a suite's too: --threshold, --metric, --seed, --append.
    #[command(flatten)]
    pub judge: GateFlags,
    /// The commands are sides of K builds each (the builds of one commit in different code
    /// layouts, e.g. from `picollo layouts`): the first K are side 1, the next K side 2, …;
    /// each side after the first is compared with side 1 with builds as the unit
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub builds: u32,
    /// Each run's environment gets PICOLLO_ENV_PAD of a random length below BYTES, drawn
    /// per run, so that what the environment's size moves (the stack's placement) spreads
    /// over the runs instead of biasing one command; 0: the environment as it is
    #[arg(long, value_name = "BYTES", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub env_pad: u32,
    /// Run each command under QEMU's user mode with Picollo's plugin: its guest's exact
    /// counts per run (instructions; with `=memory` loads and stores too; with `=l1d` also
    /// the misses of a modelled L1D). Its value follows `=` only, so that `--emulate CMD`
    /// reads CMD as a command. Implies -N and --env-pad 0; the comparisons and a --baseline
    /// gate judge Emulated:Instructions unless --metric names another
    #[arg(long, value_name = "WHAT", value_enum, num_args = 0..=1, require_equals = true,
          default_missing_value = "instructions")]
    pub emulate: Option<EmulateWhat>,
    // With --emulate: which QEMU and which plugin (--qemu, --plugin).
    #[command(flatten)]
    pub emulator: EmulatorPaths,
}

impl BenchArgs {
    /// What command `i` (0-based) is called: its `--name`, or its text (with `--builds`
    /// the names are the sides', and a build goes by its text).
    pub fn name_of(&self, i: usize) -> &str {
        match (self.builds, self.names.get(i)) {
            (1, Some(name)) => name,
            _ => &self.commands[i],
        }
    }

    /// What side `s` (0-based) of `--builds` is called: its `--name`, or `side N`.
    pub fn side_name(&self, s: usize) -> String {
        match self.names.get(s) {
            Some(name) => name.clone(),
            None => format!("side {}", s + 1),
        }
    }

    /// Refuse a shell that is not an executable file (by its path, or found in `PATH`):
    /// before any run, as a usage error that names it.
    fn check_shell(&self) -> Result<(), Failure> {
        let Some(shell) = self.shell() else {
            return Ok(());
        };
        match command::find_program(shell) {
            Ok(_) => Ok(()),
            Err(why) => Err(Failure::usage(format!(
                "--shell {shell}: {why} (give a shell's name or path, or -N to run the \
                 commands without one)"
            ))),
        }
    }

    /// Refuse more names than commands (or sides), and an empty name.
    fn check_names(&self) -> Result<(), Failure> {
        let (units, what) = match self.builds {
            1 => (self.commands.len(), "commands"),
            k => (self.commands.len() / k as usize, "sides"),
        };
        if self.names.len() > units {
            return Err(Failure::usage(format!(
                "{} names (--name) for {units} {what}: give at most one name per {}",
                self.names.len(),
                what.trim_end_matches('s')
            )));
        }
        match self.names.iter().any(|n| n.trim().is_empty()) {
            true => Err(Failure::usage("--name: a name cannot be empty")),
            false => Ok(()),
        }
    }

    /// Refuse a command that is a value of `--emulate` written after a blank (`--emulate
    /// memory CMD`) where no program has that name: the value follows `=` only, and the
    /// word would otherwise run as a command and fail.
    fn check_emulate(&self) -> Result<(), Failure> {
        use clap::ValueEnum;
        if self.emulate.is_none() {
            return Ok(());
        }
        let names = EmulateWhat::value_variants()
            .iter()
            .filter_map(|w| w.to_possible_value().map(|v| v.get_name().to_string()));
        let stray =
            |c: &&String| names.clone().any(|n| n == **c) && command::find_program(c).is_err();
        match self.commands.iter().find(stray) {
            Some(word) => Err(Failure::usage(format!(
                "--emulate {word}: there is no program {word:?} to run; --emulate takes its \
                 value after `=` (--emulate={word})"
            ))),
            None => Ok(()),
        }
    }

    /// The shell the commands run through (`None`: none, as always under `--emulate`: a
    /// shell would be emulated, and the command it execs would run natively).
    fn shell(&self) -> Option<&str> {
        match self.no_shell || self.shell == "none" || self.emulate.is_some() {
            true => None,
            false => Some(&self.shell),
        }
    }

    /// The environment padding's bound: none under `--emulate`, where a count must not
    /// depend on the environment's size.
    pub fn env_pad(&self) -> u32 {
        match self.emulate {
            Some(_) => 0,
            None => self.env_pad,
        }
    }
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
    /// Run `run` (1-based, of the warm-ups when `warm_up`) ended so.
    Failed {
        run: u32,
        warm_up: bool,
        ended: command::Ended,
    },
}

/// One command and what became of it.
pub struct Measurement {
    pub command: String,
    /// Its `--name`, or its text.
    pub name: String,
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
/// a failed command makes the exit status 6, and a slower one against `--baseline` 7, once
/// everything else is written.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    args.check_emulate()?;
    sides::check(args)?;
    args.check_names()?;
    args.check_shell()?;
    let earlier = earlier_runs(args)?;
    create_outputs(args)?;
    ci::check(&args.ci)?;
    let baseline = match &args.baseline {
        Some(path) => Some((
            sides::same_builds(saved::load(path, None)?, path, args)?,
            path,
        )),
        None => None,
    };
    // The run's metrics first: where both lack --metric, why the run does says more.
    let (counters, emulator) = counters(args)?;
    metric::check_run(args, &counters.metrics(), &counters.notes)?;
    if let Some((baseline, path)) = &baseline {
        metric::check_saved(args, baseline, path)?;
    }
    drop(baseline);
    let probing = args.save.is_some() || args.baseline.is_some();
    let (measured, probe) = probe::around(probing, || measure(args, &counters, emulator.as_ref()));
    let measured = measured?;
    let saved = match &args.baseline {
        Some(path) => Some(saved::load(path, Some(args.judge.threshold()))?),
        None => None,
    };
    let mut comparisons = comparisons(&measured, args)?;
    let gated = match (&saved, &args.baseline) {
        (Some(saved), Some(path)) => gate(&measured, saved, path, args, probe)?,
        _ => Vec::new(),
    };
    comparisons.extend(gated.iter().cloned());
    crate::emit(&output::text(&measured, &comparisons, args), None)?;
    let done = Done {
        measured: &measured,
        comparisons: &comparisons,
        saved: saved.as_ref(),
        probe,
    };
    write_files(&done, args, &earlier)?;
    if let Some(message) = output::failures(&measured, args) {
        return Err(Failure::command(message));
    }
    output::nothing_compared(&gated, args.baseline.as_deref())?;
    output::unjudged(&gated);
    match output::slower(&comparisons, args.gate) {
        Some(message) => Err(Failure::slower(message)),
        None => Ok(()),
    }
}

/// Create every output file asked for: one that cannot be written fails now, not after the
/// runs.
fn create_outputs(args: &BenchArgs) -> Result<(), Failure> {
    let paths = [&args.export_log, &args.json, &args.save, &args.html];
    for path in paths.into_iter().flatten().filter(|p| *p != "-") {
        std::fs::File::create(path).map_err(|e| Failure::io(path, &e))?;
    }
    Ok(())
}

/// What a run measured and compared, and the baseline it was compared with.
struct Done<'a> {
    measured: &'a [Measurement],
    comparisons: &'a [(Against, Comparison)],
    saved: Option<&'a saved::Baseline>,
    /// The run's speed probe, in ns (NaN: none taken).
    probe: f64,
}

/// The files asked for: `--export-log`, `--html`, `--json`, `--save`, each `--export` and
/// the summary.
fn write_files(done: &Done<'_>, args: &BenchArgs, earlier: &[saved::Saved]) -> Result<(), Failure> {
    if let Some(path) = &args.export_log {
        crate::emit(&output::log(done.measured)?, Some(path))?;
    }
    if let Some(path) = &args.html {
        let page = output::html(done.measured, done.comparisons, done.saved, args);
        crate::emit(&page, Some(path))?;
    }
    // With --builds, the formats list the sides (each its builds pooled), the units compared.
    let sides = match args.builds {
        1 => Vec::new(),
        _ => sides::sides(done.measured, args),
    };
    let suite = output::suite(
        (done.measured, done.comparisons, done.probe),
        &sides,
        args,
        earlier,
    );
    for path in [&args.json, &args.save].into_iter().flatten() {
        let json = suite.to_text(&PicolloDocument);
        crate::emit(
            &json.map_err(|e| Failure::format(e.to_string()))?,
            Some(path),
        )?;
    }
    ci::write(&suite, &args.ci)
}

/// With `--save FILE --append`, the commands FILE holds with their runs apart (none when it
/// does not exist yet); a file saved from other commands is refused.
fn earlier_runs(args: &BenchArgs) -> Result<Vec<saved::Saved>, Failure> {
    let path = match (&args.save, args.judge.append) {
        (Some(path), true) if std::path::Path::new(path).exists() => path,
        _ => return Ok(Vec::new()),
    };
    let saved = sides::same_builds(saved::load(path, None)?, path, args)?.commands;
    let commands: Vec<&str> = saved
        .iter()
        .map(|s| s.command.as_deref().unwrap_or("?"))
        .collect();
    if commands != args.commands.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(Failure::usage(format!(
            "--append: {path} was saved from the commands {commands:?}, not these: runs apart \
             of other commands do not add up (save to another file)"
        )));
    }
    Ok(saved)
}

/// The tracks of the commands (under `emulator`, when given, each program started as the
/// stage's link) and, through a shell, of the shell alone (last).
fn tracks(args: &BenchArgs, emulator: Option<(&Emulator, &Stage)>) -> Result<Vec<Track>, Failure> {
    let shell = args.shell();
    let each = args.commands.iter().enumerate();
    let mut all = each.map(|(i, c)| {
        let t = Track::new(c, shell, emulator.map(|(e, s)| (e, s, i)))?;
        Ok(t.named(args.name_of(i)))
    });
    let mut tracks: Vec<Track> = all.by_ref().collect::<Result<_, _>>()?;
    if shell.is_some() {
        tracks.push(Track::new("", shell, None)?);
    }
    Ok(tracks)
}

/// The counters every run opens, and the emulator under `--emulate`.
fn counters(args: &BenchArgs) -> Result<(Counters, Option<Emulator>), Failure> {
    let Some(what) = args.emulate else {
        let EmulatorPaths { qemu, plugin } = &args.emulator;
        return match qemu.is_some() || plugin.is_some() {
            true => Err(Failure::usage("--qemu and --plugin go with --emulate")),
            false => Ok((Counters::choose(), None)),
        };
    };
    let emulator = Emulator::new(Counted::from(what), args.emulator.clone())?;
    let counters = Counters::emulated(emulator.counted().events());
    Ok((counters, Some(emulator)))
}

/// Run the rounds, reading `counters` (under `emulator`, when given), and make each
/// command's outcome.
fn measure(
    args: &BenchArgs,
    counters: &Counters,
    emulator: Option<&Emulator>,
) -> Result<Vec<Measurement>, Failure> {
    let stage = emulator.map(|_| Stage::new()).transpose()?;
    let mut tracks = tracks(args, emulator.zip(stage.as_ref()))?;
    let per_round = tracks.len() as u64;
    let bar = progress_bar(per_round * u64::from(args.warmup + args.runs));
    let mut draws = Draws::new(args.judge.seed);
    let pairing = Some(draws.pairing());
    rounds::interleave(&mut tracks, args, counters, (&bar, &mut draws))?;
    bar.finish_and_clear();
    let probe = match args.shell() {
        Some(_) => tracks
            .pop()
            .map(|t| shell_alone(&t, counters, args))
            .transpose()?,
        None => None,
    };
    let outcome = |t: &Track| outcome(t, counters, args, (probe.as_ref(), pairing));
    let measured = tracks.iter().map(|t| Measurement {
        command: t.command.clone(),
        name: t.name.clone(),
        outcome: outcome(t),
    });
    Ok(measured.collect())
}

/// The runs of the shell alone as a result of their own, the baseline of every command's
/// (its medians are subtracted from each of their figures).
fn shell_alone(
    probe: &Track,
    counters: &Counters,
    args: &BenchArgs,
) -> Result<BenchResult, Failure> {
    let shell = args.shell().unwrap_or("sh");
    if let Some((run, _, ended)) = &probe.failed {
        return Err(Failure::io(
            &format!("the shell alone ({shell} -c '')"),
            &std::io::Error::other(format!("run {run} {ended}")),
        ));
    }
    let bench = Bench::new(&format!("`{shell} -c ''` (the shell's start)"));
    let rows = probe.rows.clone();
    let r = BenchResult::from_rows(&bench, counters.metrics(), rows, clock(args), warm_up(args));
    Ok(r.expect("every run gives one figure per metric, and there is at least one run"))
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

/// What became of a track: its failure, or its result.
fn outcome(
    t: &Track,
    counters: &Counters,
    args: &BenchArgs,
    (probe, pairing): (Option<&BenchResult>, Option<u64>),
) -> Outcome {
    if let Some((run, warm_up, ended)) = &t.failed {
        return Outcome::Failed {
            run: *run,
            warm_up: *warm_up,
            ended: ended.clone(),
        };
    }
    let mut result = Box::new(result(t, counters, args, probe));
    result.pairing = pairing;
    let start = t.runs.first().map_or(0.0, |r| r.0);
    let end = t.runs.last().map_or(0.0, |r| r.0 + r.1);
    Outcome::Measured {
        result,
        start,
        length: end - start,
    }
}

/// The result of one command's runs, less the medians of the shell alone (`probe`), by the
/// harness's rule: floored at 0, each floor counted and flagged. The counters' notes and
/// multiplexing in its warnings, each run a round at the time it ran.
fn result(
    t: &Track,
    counters: &Counters,
    args: &BenchArgs,
    probe: Option<&BenchResult>,
) -> BenchResult {
    let bench = Bench::new(&t.name).with_threshold(args.judge.threshold());
    let bench = match probe {
        Some(shell) => bench.with_baseline(shell),
        None => bench,
    };
    let rows = t.rows.clone();
    let r = BenchResult::from_rows(&bench, counters.metrics(), rows, clock(args), warm_up(args));
    let mut r = r.expect("every run gives one figure per metric, and there is at least one run");
    for (round, &(start, length, first)) in r.rounds.iter_mut().zip(&t.runs) {
        (round.start, round.length, round.first) = (start, length, first);
    }
    note_counters(&mut r, counters, &t.times);
    r
}

/// The warm-up runs, as a result states them.
fn warm_up(args: &BenchArgs) -> WarmUp {
    WarmUp {
        batches: args.warmup.into(),
        converged: true,
        last_change: 0.0,
    }
}

/// How a command's runs were timed, and how their environment was padded.
fn clock(args: &BenchArgs) -> String {
    let clock = "wall time by the monotonic clock, from the release of the held child (just \
         before its exec) to its reap; user and system time by wait4";
    match args.env_pad() {
        0 => format!("{clock}; the environment as picollo's"),
        n => format!("{clock}; each run's environment padded by PICOLLO_ENV_PAD of 0 to {} bytes, drawn per run", n - 1),
    }
}

/// The counters' notes in `r`'s warnings; each counter's times enabled and running in its
/// metric, and where it was multiplexed, the harness's warning.
fn note_counters(r: &mut BenchResult, counters: &Counters, times: &[(u64, u64)]) {
    r.conditions.warnings.extend(counters.notes.iter().cloned());
    let counted = r.metrics.iter_mut().skip(3);
    for (m, &(enabled, running)) in counted.zip(times) {
        (m.times, m.multiplexed) = ((enabled, running), running < enabled);
        r.conditions.warnings.extend(m.multiplexed_warning());
    }
}

/// Each measured command after the first against the first (none when it failed); with
/// `--builds`, each side after the first against side 1; judged on `--metric`.
fn comparisons(
    measured: &[Measurement],
    args: &BenchArgs,
) -> Result<Vec<(Against, Comparison)>, Failure> {
    let k = args.builds as usize;
    if k > 1 {
        let sides = sides::sides(measured, args);
        let compared = sides::comparisons(&sides, k, metric::judged(args))?.into_iter();
        return Ok(compared.map(|(s, c)| (Against::Side(s), c)).collect());
    }
    let Some(first) = measured.first().and_then(Measurement::result) else {
        return Ok(Vec::new());
    };
    let others = measured.iter().enumerate().skip(1);
    let compared = others.filter_map(|(i, m)| {
        let c = compare_on(first, m.result()?, metric::judged(args));
        Some(c.map(|c| (Against::First(i), c)))
    });
    compared.collect::<Result<_, _>>().map_err(unjudgeable)
}

/// A comparison that cannot judge `--metric` (checked before the runs, so a sign that the
/// results lost it), as a usage error.
pub fn unjudgeable(e: picollo_bench::BenchError) -> Failure {
    Failure::usage(format!("--metric: {e}"))
}

/// Each measured command (or side) against its saved one (`saved`, read from `path`),
/// checked against the machine's speed (`probe`: this run's speed probe, in ns); a note in
/// each comparison's warnings and on stderr where the emulated programs started otherwise
/// than the saved ones.
fn gate(
    measured: &[Measurement],
    saved: &saved::Baseline,
    path: &str,
    args: &BenchArgs,
    probe: f64,
) -> Result<Vec<(Against, Comparison)>, Failure> {
    let metric = metric::judged(args);
    let mut gated = match args.builds {
        1 => against_saved(measured, &saved.commands, metric)?,
        _ => sides::against_saved(measured, &saved.commands, args)?,
    };
    for (against, c) in &mut gated {
        let first = match *against {
            Against::Saved(i) => i,
            Against::SavedSide(s) => s * args.builds as usize,
            _ => continue,
        };
        let probes = saved.commands.get(first).map(|s| s.probes.as_slice());
        probe::judge_speed(c, probes.unwrap_or_default(), probe);
    }
    let note = args.emulate.and_then(|_| saved::note(saved, path));
    if let Some(note) = note {
        eprintln!("picollo bench: {note}");
        gated
            .iter_mut()
            .for_each(|(_, c)| c.warnings.push(note.clone()));
    }
    Ok(gated)
}

/// Each measured command against its saved result (the same position), where both exist,
/// judged on `metric`: on the runs apart the baseline holds of it, or exactly where its runs
/// agree within their read jitter.
fn against_saved(
    measured: &[Measurement],
    saved: &[saved::Saved],
    metric: &str,
) -> Result<Vec<(Against, Comparison)>, Failure> {
    let pairs = measured.iter().zip(saved).enumerate();
    let compared = pairs.filter_map(|(i, (m, s))| {
        let new = m.result()?;
        let judged = compare_on(s.result.as_ref()?, new, metric).map(|mut c| {
            let at = new.metrics.iter().position(|x| x.metric == c.metric);
            let figure = at.map_or(f64::NAN, |at| median_round_at(new, at));
            let runs = s.runs_of(&c.metric);
            judge_apart(&mut c, &runs, figure);
            (Against::Saved(i), c)
        });
        Some(judged)
    });
    compared.collect::<Result<_, _>>().map_err(unjudgeable)
}

/// What a command (by index) is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The first command of this run.
    First(usize),
    /// Its own saved result (`--baseline`).
    Saved(usize),
    /// Side 1, with `--builds` (the index is the side's).
    Side(usize),
    /// Its own saved side, with `--builds` and `--baseline` (the index is the side's).
    SavedSide(usize),
}

impl Against {
    /// The command's index.
    pub fn index(self) -> usize {
        match self {
            Against::First(i) | Against::Saved(i) | Against::Side(i) | Against::SavedSide(i) => i,
        }
    }

    /// This comparison fails the gate: against a saved result (or, with `--gate`, against
    /// the first command or side of this run), more of the judged metric by the threshold
    /// or more (a `slower` verdict, on time or another metric, exact or not).
    pub fn gates(self, c: &Comparison, interleaved: bool) -> bool {
        let saved = matches!(self, Against::Saved(_) | Against::SavedSide(_));
        (saved || interleaved) && matches!(c.verdict, Verdict::Slower(_))
    }

    /// `command N` or `side N`.
    pub fn label(self) -> String {
        match self {
            Against::Side(i) | Against::SavedSide(i) => format!("side {}", i + 1),
            Against::First(i) | Against::Saved(i) => format!("command {}", i + 1),
        }
    }

    /// What it is compared with, in a sentence: `its baseline`, `command 1`, `side 1`.
    pub fn base_label(self) -> &'static str {
        match self {
            Against::Saved(_) | Against::SavedSide(_) => "its baseline",
            Against::First(_) => "command 1",
            Against::Side(_) => "side 1",
        }
    }
}
