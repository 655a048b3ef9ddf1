//! A suite's command line: the flags of the runners users know (a filter, `--exact`,
//! `--list`, cargo's `--bench`), the harness's settings, the outputs, the gates, and
//! `--against` for two builds. clap reads it; the gate's and the CI outputs' flags are
//! those `picollo bench` reads too ([`crate::flags`]).

use std::path::PathBuf;
use std::string::{String, ToString};
use std::time::Duration;
use std::vec::Vec;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser};

use super::endpoint::WORKER_FLAG;
use super::exit::SuiteError;
use super::shard::Shard;
use crate::flags::{CiFlags, GateFlags};

/// What a run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Name each benchmark, measure nothing.
    List,
    /// Run each benchmark once and assert nothing about time (`cargo test --benches`).
    Once,
    /// Measure each benchmark.
    Measure,
    /// Answer another suite's requests (`--picollo-worker`).
    Worker,
    /// Print the command line's help, run nothing (`--help`, `-h`).
    Help,
}

/// The command line, read.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Benchmarks whose name contains one of these (all, where there is none).
    pub filters: Vec<String>,
    /// The filters match whole names only.
    pub exact: bool,
    /// Benchmarks whose name this regular expression matches (anywhere in the name).
    pub regex: Option<regex_lite::Regex>,
    /// `--shard I/N`: only the benchmarks whose share is I of N ([`Shard`]).
    pub shard: Option<Shard>,
    /// `--list`, `--bench`, `--test`, the worker flag, or none of them.
    pub mode: Option<Mode>,
    /// `--against PATH`, each: the other build's suite, A, against which this one is judged
    /// (several: A's builds, of shuffled layouts, say).
    pub against: Vec<PathBuf>,
    /// `--head PATH`, each: this side's builds, where it has several (one per `--against`);
    /// none: this program.
    pub heads: Vec<PathBuf>,
    /// `--save NAME`, `--append`, `--baseline NAME`.
    pub save: Option<String>,
    pub append: bool,
    pub baseline: Option<String>,
    /// The harness's settings.
    pub budget: Option<Duration>,
    pub warmup: Option<Duration>,
    pub counters: Option<Vec<String>>,
    /// `--read-path auto|user|syscall`: how the counters are read (the cheaper by default).
    pub read_path: Option<String>,
    pub rounds: Option<usize>,
    pub seed: Option<u64>,
    pub threshold: Option<f64>,
    /// The metric comparisons judge (time by default).
    pub metric: Option<String>,
    /// Where the outputs go (default: cargo's `target/picollo`, else `.picollo`).
    pub out: Option<PathBuf>,
    /// `--export FORMAT=PATH`, each, and `--summary PATH`.
    pub ci: CiFlags,
    /// Each benchmark's whole report, not only its line.
    pub verbose: bool,
    /// How long a worker may take to answer beyond the time it was given.
    pub worker_timeout: Option<Duration>,
    /// `--processes N`: each build of `--against` (and of this side) started as N worker
    /// processes, judged with the processes as the unit (default [`super::PROCESSES`] for
    /// one build a side, 1 for several).
    pub processes: Option<usize>,
    /// `--unsettled fail`: a comparison not settled in its budget fails the gate (exit 8);
    /// by default it passes, said on the standard error.
    pub unsettled_fails: bool,
}

/// The command line as clap reads it; [`Args`] is what it asks.
#[derive(Parser)]
#[command(name = "suite", about = ABOUT, after_help = AFTER_HELP, args = ignored())]
#[command(args_override_self = true, allow_negative_numbers = true)]
struct Line {
    /// Run only the benchmarks whose name contains one of these (with --exact: is one of
    /// these); all where none is given
    #[arg(value_name = "FILTER")]
    filters: Vec<String>,
    /// The filters match whole names only
    #[arg(long)]
    exact: bool,
    /// Run only the benchmarks whose name this regular expression matches (anywhere in the
    /// name)
    #[arg(long, value_name = "RE", value_parser = regex)]
    regex: Option<regex_lite::Regex>,
    /// Run only the selected benchmarks whose share is I of N (1 <= I <= N <= 1024): FNV-1a
    /// 64 of the benchmark's name, modulo N, plus one, so that N jobs with 1/N..N/N run
    /// every benchmark once, whatever the build, language or machine; `picollo merge` joins
    /// their documents
    #[arg(long, value_name = "I/N", value_parser = shard)]
    shard: Option<Shard>,
    /// Name each benchmark, measure nothing
    #[arg(long, overrides_with_all = ["test", "worker"])]
    list: bool,
    /// Measure each benchmark (`cargo bench` passes it)
    #[arg(long)]
    bench: bool,
    /// Run each benchmark once and time nothing (what `cargo test --benches` runs)
    #[arg(long, overrides_with_all = ["list", "worker"])]
    test: bool,
    /// Answer another suite's requests on stdin and stdout (the runner starts its workers so)
    #[arg(long = WORKER_FLAG.trim_start_matches('-'), hide = true,
          overrides_with_all = ["list", "test"])]
    worker: bool,
    /// Judge each benchmark against the same benchmark of another build's suite (A), in
    /// interleaved rounds between worker processes; once per build of A where it has several
    #[arg(long, value_name = "SUITE")]
    against: Vec<PathBuf>,
    /// This side's builds where it has several, one per --against (default: this program)
    #[arg(long = "head", value_name = "SUITE")]
    heads: Vec<PathBuf>,
    /// Worker processes a build of --against and of this side runs as, judged with the
    /// processes as the unit, 1 to 16 (default 6 with one build a side, else 1)
    #[arg(long, value_name = "N", value_parser = processes)]
    processes: Option<usize>,
    /// Save each benchmark's result as baseline NAME (under the output folder's baselines/)
    /// for a later --baseline
    #[arg(long, value_name = "NAME", value_parser = name_of)]
    save: Option<String>,
    /// Judge each benchmark against the runs apart saved as baseline NAME (--save); exit
    /// with 7 when one is slower by the threshold or more
    #[arg(long, value_name = "NAME", value_parser = name_of)]
    baseline: Option<String>,
    #[command(flatten)]
    gate: GateFlags,
    /// What the gate does with a comparison of --against that its budget ended before it
    /// settled (neither slower by the threshold nor surely not): pass (the default, said on
    /// the standard error) or fail (exit 8)
    #[arg(long, value_name = "pass|fail", value_parser = ["pass", "fail"])]
    unsettled: Option<String>,
    /// The time each benchmark's samples may take, in seconds (default: the suite's, 5 s
    /// unless it sets another); with --against, a comparison's whole (every process's turns
    /// together), which stops sooner at the first look that settles its verdict
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    budget: Option<Duration>,
    /// The most time each benchmark's warm-up may take, in seconds (default: the suite's,
    /// 1 s unless it sets another)
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    warmup: Option<Duration>,
    /// The counters read beside time, comma-separated perf event names (none: time only;
    /// default: cycles, instructions, branch and L1D read misses where the PMU has them)
    #[arg(long, value_name = "LIST|none")]
    counters: Option<String>,
    /// How the counters are read: user (rdpmc), syscall (read), or auto, the cheaper of the
    /// two on this machine (the default)
    #[arg(long, value_name = "auto|user|syscall")]
    read_path: Option<String>,
    /// The rounds each benchmark's samples are cut into (comparisons judge round against
    /// round)
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    /// The folder the outputs go to (default: target/picollo under cargo, else .picollo)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    ci: CiFlags,
    /// Print each benchmark's whole report, not only its line
    #[arg(short, long)]
    verbose: bool,
    /// How long a worker may take to answer beyond the time a request gives it, in seconds
    /// (default 60)
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    worker_timeout: Option<Duration>,
}

/// The first lines of a suite's `--help`.
const ABOUT: &str = "\
Runs this program's benchmarks with Picollo's suite runner: each measured, run once, listed, \
or judged against another build's";

/// The last lines of a suite's `--help`.
const AFTER_HELP: &str = "\
Exit status:
  0  every benchmark ran (and none compared slower)
  2  a bad argument: an unknown flag, a value that does not parse, two benchmarks of one name
  3  a file could not be read or written
  4  a saved baseline that a suite did not write
  5  the filter matched no benchmark, or the two builds share none
  6  a benchmark failed
  7  a benchmark compared slower by the threshold or more
  8  a comparison was not settled in its budget, with --unsettled fail
  9  the other build's worker failed";

/// Flags the runners of `cargo test` and `cargo bench` pass or users type out of habit:
/// read and ignored.
fn ignored() -> [Arg; 6] {
    let switch = |name: &'static str| {
        Arg::new(name)
            .long(name)
            .hide(true)
            .action(ArgAction::SetTrue)
    };
    let valued = |name: &'static str| Arg::new(name).long(name).hide(true).num_args(1);
    [
        switch("nocapture"),
        switch("show-output"),
        switch("quiet").short('q'),
        valued("test-threads"),
        valued("color"),
        valued("format"),
    ]
}

impl From<Line> for Args {
    fn from(line: Line) -> Args {
        let mode = match (line.worker, line.test, line.list, line.bench) {
            (true, ..) => Some(Mode::Worker),
            (_, true, ..) => Some(Mode::Once),
            (_, _, true, _) => Some(Mode::List),
            (.., true) => Some(Mode::Measure),
            _ => None,
        };
        Args {
            filters: line.filters,
            exact: line.exact,
            regex: line.regex,
            shard: line.shard,
            mode,
            against: line.against,
            heads: line.heads,
            save: line.save,
            append: line.gate.append,
            baseline: line.baseline,
            budget: line.budget,
            warmup: line.warmup,
            counters: line.counters.as_deref().map(counters),
            read_path: line.read_path,
            rounds: line.rounds,
            seed: line.gate.seed,
            threshold: line.gate.threshold,
            metric: line.gate.metric,
            out: line.out,
            ci: line.ci,
            verbose: line.verbose,
            worker_timeout: line.worker_timeout,
            processes: line.processes,
            unsettled_fails: line.unsettled.as_deref() == Some("fail"),
        }
    }
}

/// The parser of a suite named `program` (its usage line names it).
fn command(program: &str) -> clap::Command {
    Line::command().bin_name(program.to_string())
}

impl Args {
    /// The arguments after the program's name, of the suite named `program`. `--help` (or
    /// `-h`) asks for [`Mode::Help`].
    pub fn parse(program: &str, args: &[String]) -> Result<Args, SuiteError> {
        let argv = std::iter::once(program).chain(args.iter().map(String::as_str));
        let matches = command(program).try_get_matches_from(argv);
        match matches.and_then(|m| Line::from_arg_matches(&m)) {
            Ok(line) => Ok(line.into()),
            Err(e) if e.kind() == ErrorKind::DisplayHelp => Ok(Args {
                mode: Some(Mode::Help),
                ..Args::default()
            }),
            Err(e) => Err(usage(&e)),
        }
    }

    /// The help of the suite named `program`: what `--help` prints.
    pub fn help(program: &str) -> String {
        command(program).render_long_help().to_string()
    }

    /// What the run does: as asked, else measuring when a gate or `--against` needs it,
    /// else `default` (cargo's convention runs each once without `--bench`).
    pub fn mode(&self, default: Mode) -> Mode {
        let measured = !self.against.is_empty() || self.save.is_some() || self.baseline.is_some();
        match self.mode {
            Some(m) => m,
            None if measured => Mode::Measure,
            None => default,
        }
    }

    /// Whether benchmark `name` is selected: by the filters, and in the `--shard` asked for.
    pub fn selects(&self, name: &str) -> bool {
        self.filters_select(name) && self.in_shard(name)
    }

    /// Whether the filters and `--regex` select benchmark `name`, whatever its shard.
    pub fn filters_select(&self, name: &str) -> bool {
        let by_filter = self.filters.is_empty()
            || self.filters.iter().any(|f| match self.exact {
                true => name == f,
                false => name.contains(f.as_str()),
            });
        by_filter && self.regex.as_ref().is_none_or(|r| r.is_match(name))
    }

    /// Whether benchmark `name` falls in the `--shard` asked for (every one, without).
    pub fn in_shard(&self, name: &str) -> bool {
        self.shard.is_none_or(|s| s.holds(name))
    }
}

/// A usage error of the suite's parser: an unknown flag named as such, any other as clap
/// tells it.
fn usage(e: &clap::Error) -> SuiteError {
    let text = e.render().to_string();
    let text = text.trim_end().trim_start_matches("error: ");
    let (ErrorKind::UnknownArgument, Some(ContextValue::String(flag))) =
        (e.kind(), e.get(ContextKind::InvalidArg))
    else {
        return SuiteError::usage(text);
    };
    let tip = match e.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(s)) => std::format!(" (did you mean {s}?)"),
        _ => String::new(),
    };
    SuiteError::usage(std::format!(
        "unknown flag {flag}{tip}: --help lists the flags"
    ))
}

/// A duration in seconds.
fn seconds(v: &str) -> Result<Duration, String> {
    let s: f64 = v
        .parse()
        .map_err(|_| "not a number of seconds".to_string())?;
    Duration::try_from_secs_f64(s).map_err(|_| "not a duration in seconds".into())
}

/// A saved baseline's name: a file name, without a path.
fn name_of(v: &str) -> Result<String, String> {
    let ok = !v.is_empty() && !v.contains('/') && v != "." && v != "..";
    match ok {
        true => Ok(v.into()),
        false => Err("a name (saved under the output folder's baselines/), not a path".into()),
    }
}

/// `--regex RE`.
fn regex(v: &str) -> Result<regex_lite::Regex, String> {
    regex_lite::Regex::new(v).map_err(|e| std::format!("not a regular expression: {e}"))
}

/// `--shard I/N`.
fn shard(v: &str) -> Result<Shard, String> {
    v.parse()
}

/// `--counters a,b` (`none`: time only).
fn counters(v: &str) -> Vec<String> {
    match v {
        "none" | "" => Vec::new(),
        _ => v.split(',').map(|c| c.trim().to_string()).collect(),
    }
}

/// `--processes N`: 1 to 16 worker processes a build.
fn processes(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n @ 1..=16) => Ok(n),
        _ => Err("a count of worker processes a build, 1 to 16".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, SuiteError> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        Args::parse("suite", &args)
    }

    #[test]
    fn the_last_of_list_test_and_the_worker_flag_wins_and_bench_yields_to_them() {
        let mode = |args: &[&str]| parse(args).unwrap().mode;
        assert_eq!(mode(&["--list", "--test"]), Some(Mode::Once));
        assert_eq!(mode(&["--test", "--list"]), Some(Mode::List));
        assert_eq!(mode(&["--list", "--bench"]), Some(Mode::List));
        assert_eq!(mode(&["--bench", "--bench"]), Some(Mode::Measure));
        assert_eq!(mode(&["--list", WORKER_FLAG]), Some(Mode::Worker));
        assert_eq!(mode(&["-h", "--list"]), Some(Mode::Help));
        assert_eq!(mode(&[]), None);
    }

    #[test]
    fn repeated_flags_add_up_or_the_last_counts_and_cargos_flags_are_ignored() {
        let a = parse(&[
            "a",
            "--against",
            "x",
            "--budget=2",
            "--nocapture",
            "--test-threads",
            "2",
            "b",
            "--against",
            "y",
            "--budget",
            "0.5",
            "-q",
            "--color=never",
            "--format",
            "terse",
            "--export",
            "bmf=b.json",
            "--export=github=g.json",
        ])
        .unwrap();
        assert_eq!(a.filters, ["a", "b"]);
        assert_eq!(a.against, [PathBuf::from("x"), PathBuf::from("y")]);
        assert_eq!(a.budget, Some(Duration::from_millis(500)));
        let formats: Vec<_> = a.ci.exports.iter().map(|t| t.format.name()).collect();
        assert_eq!(formats, ["bmf", "github"]);
    }

    #[test]
    fn a_bad_value_is_a_usage_error_that_names_the_flag() {
        for (args, says) in [
            (
                &["--budgte", "1"][..],
                "unknown flag --budgte (did you mean --budget?): --help lists the flags",
            ),
            (
                &["--processes", "17"],
                "'--processes <N>': a count of worker processes",
            ),
            (&["--save", "a/b"], "'--save <NAME>': a name (saved under"),
            (&["--warmup", "-1"], "'--warmup <SECS>'"),
            (
                &["--threshold=nan"],
                "\"nan\" is not a percentage of 0 or more",
            ),
            (&["--append"], "--save <NAME>"),
            (&["--seed"], "a value is required for '--seed <N>'"),
            (
                &["--shard", "5/4"],
                "'--shard <I/N>': I/N with 1 <= I <= N <= 1024",
            ),
            (&["--shard=0/4"], "not 0/4"),
            (&["--shard", "1/1025"], "'--shard <I/N>'"),
            (&["--shard", "2"], "not \"2\""),
        ] {
            let e = parse(args).unwrap_err();
            assert_eq!(e.exit, super::super::exit::Exit::Usage);
            assert!(e.message.contains(says), "{args:?}: {}", e.message);
            assert!(!e.message.starts_with("error:"), "{}", e.message);
        }
    }

    #[test]
    fn a_shard_keeps_its_share_of_what_the_filters_select() {
        let names: Vec<String> = (0..300).map(|i| std::format!("f/{i}")).collect();
        let all = parse(&["f/1"]).unwrap();
        let mut seen = 0;
        for i in 1..=4 {
            let a = parse(&["f/1", "--shard", &std::format!("{i}/4")]).unwrap();
            for n in &names {
                assert_eq!(a.selects(n), all.selects(n) && a.in_shard(n), "{n}");
                assert_eq!(a.filters_select(n), all.selects(n), "{n}");
            }
            seen += names.iter().filter(|n| a.selects(n)).count();
        }
        // f/1, f/10..f/19, f/100..f/199: 111 selected, each in one shard of four.
        assert_eq!(seen, names.iter().filter(|n| all.selects(n)).count());
        assert_eq!(seen, 111);
    }
}
