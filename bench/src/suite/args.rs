//! A suite's command line: the flags of the runners users know (a filter, `--exact`,
//! `--list`, cargo's `--bench`), the harness's settings, the outputs, the gates, and
//! `--against` for two builds.

use std::path::PathBuf;
use std::string::{String, ToString};
use std::time::Duration;
use std::vec::Vec;

use super::endpoint::WORKER_FLAG;
use super::exit::SuiteError;

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
    /// `--export FORMAT=PATH`, each.
    pub exports: Vec<(String, PathBuf)>,
    /// `--summary PATH`.
    pub summary: Option<PathBuf>,
    /// Each benchmark's whole report, not only its line.
    pub verbose: bool,
    /// How long a worker may take to answer beyond the time it was given.
    pub worker_timeout: Option<Duration>,
    /// `--processes N`: each build of `--against` (and of this side) started as N worker
    /// processes, judged with the processes as the unit (default [`super::PROCESSES`] for
    /// one build a side, 1 for several).
    pub processes: Option<usize>,
}

/// Flags the runners of `cargo test` and `cargo bench` pass or users type out of habit,
/// each with whether it takes a value: read and ignored.
const IGNORED: [(&str, bool); 7] = [
    ("--nocapture", false),
    ("--show-output", false),
    ("--quiet", false),
    ("-q", false),
    ("--test-threads", true),
    ("--color", true),
    ("--format", true),
];

fn seconds(flag: &str, v: &str) -> Result<Duration, SuiteError> {
    let s: f64 = number(flag, v)?;
    Duration::try_from_secs_f64(s)
        .map_err(|_| SuiteError::usage(std::format!("{flag} {v}: not a duration in seconds")))
}

fn number<T: core::str::FromStr>(flag: &str, v: &str) -> Result<T, SuiteError> {
    v.parse()
        .map_err(|_| SuiteError::usage(std::format!("{flag} {v}: not a number")))
}

impl Args {
    /// The arguments after the program's name.
    pub fn parse(args: &[String]) -> Result<Args, SuiteError> {
        let mut a = Args::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            if a.switch(flag) {
                continue;
            }
            let takes = IGNORED.iter().find(|(f, _)| *f == flag);
            if let Some((_, value)) = takes {
                if *value && inline.is_none() {
                    it.next();
                }
                continue;
            }
            if !flag.starts_with('-') {
                a.filters.push(arg.clone());
                continue;
            }
            let value = match inline {
                Some(v) => v,
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| SuiteError::usage(std::format!("{flag} needs a value")))?,
            };
            a.valued(flag, &value)?;
        }
        Ok(a)
    }

    /// A flag without a value; false where `flag` is not one.
    fn switch(&mut self, flag: &str) -> bool {
        match flag {
            "--exact" => self.exact = true,
            "--list" => self.mode = Some(Mode::List),
            "--bench" => self.mode = self.mode.or(Some(Mode::Measure)),
            "--test" => self.mode = Some(Mode::Once),
            "--append" => self.append = true,
            "--verbose" | "-v" => self.verbose = true,
            f if f == WORKER_FLAG => self.mode = Some(Mode::Worker),
            _ => return false,
        }
        true
    }

    /// A flag with `value`.
    fn valued(&mut self, flag: &str, value: &str) -> Result<(), SuiteError> {
        match flag {
            "--regex" => self.regex = Some(regex(value)?),
            "--against" => self.against.push(value.into()),
            "--head" => self.heads.push(value.into()),
            "--save" => self.save = Some(name_of(flag, value)?),
            "--baseline" => self.baseline = Some(name_of(flag, value)?),
            "--budget" => self.budget = Some(seconds(flag, value)?),
            "--warmup" => self.warmup = Some(seconds(flag, value)?),
            "--counters" => self.counters = Some(counters(value)),
            "--read-path" => self.read_path = Some(value.into()),
            "--rounds" => self.rounds = Some(number(flag, value)?),
            "--seed" => self.seed = Some(number(flag, value)?),
            "--threshold" => self.threshold = Some(number(flag, value)?),
            "--metric" => self.metric = Some(value.into()),
            "--out" => self.out = Some(value.into()),
            "--summary" => self.summary = Some(value.into()),
            "--worker-timeout" => self.worker_timeout = Some(seconds(flag, value)?),
            "--processes" => self.processes = Some(processes(value)?),
            "--export" => self.exports.push(export(value)?),
            _ => return Err(SuiteError::usage(std::format!(
                "unknown flag {flag}: the flags are [FILTER...] --exact --regex RE --list --bench --test \
                 --against SUITE [--head SUITE] --processes N --save NAME [--append] --baseline NAME --budget SECS --warmup SECS \
                 --counters LIST|none --read-path auto|user|syscall --rounds N --seed N --threshold PCT --metric NAME --out DIR \
                 --export FORMAT=PATH --summary PATH --verbose --worker-timeout SECS"
            ))),
        }
        Ok(())
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

    /// Whether benchmark `name` is selected.
    pub fn selects(&self, name: &str) -> bool {
        let by_filter = self.filters.is_empty()
            || self.filters.iter().any(|f| match self.exact {
                true => name == f,
                false => name.contains(f.as_str()),
            });
        by_filter && self.regex.as_ref().is_none_or(|r| r.is_match(name))
    }
}

/// A saved baseline's name: a file name, without a path.
fn name_of(flag: &str, v: &str) -> Result<String, SuiteError> {
    let ok = !v.is_empty() && !v.contains('/') && v != "." && v != "..";
    match ok {
        true => Ok(v.into()),
        false => Err(SuiteError::usage(std::format!(
            "{flag} {v:?}: a name (saved under the output folder's baselines/), not a path"
        ))),
    }
}

/// `--regex RE`.
fn regex(v: &str) -> Result<regex_lite::Regex, SuiteError> {
    regex_lite::Regex::new(v)
        .map_err(|e| SuiteError::usage(std::format!("--regex {v}: not a regular expression: {e}")))
}

/// `--counters a,b` (`none`: time only).
fn counters(v: &str) -> Vec<String> {
    match v {
        "none" | "" => Vec::new(),
        _ => v.split(',').map(|c| c.trim().to_string()).collect(),
    }
}

/// `--export FORMAT=PATH`.
fn export(v: &str) -> Result<(String, PathBuf), SuiteError> {
    match v.split_once('=') {
        Some((f, p)) if !f.is_empty() && !p.is_empty() => Ok((f.into(), p.into())),
        _ => Err(SuiteError::usage(std::format!(
            "--export {v}: write it FORMAT=PATH (bmf, github, gbench, picollo)"
        ))),
    }
}

/// `--processes N`: 1 to 16 worker processes a build.
fn processes(value: &str) -> Result<usize, SuiteError> {
    match value.parse::<usize>() {
        Ok(n @ 1..=16) => Ok(n),
        _ => Err(SuiteError::usage(std::format!(
            "--processes {value}: a count of worker processes a build, 1 to 16"
        ))),
    }
}
