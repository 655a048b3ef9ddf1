//! The flags a suite's command line and `picollo bench` share, each defined once with its
//! help and its checks: the gate's ([`GateFlags`]) and the CI outputs' ([`CiFlags`]). Both
//! commands flatten them into their own parser (clap's derive), so a flag reads, checks and
//! is explained alike in every language's suite and in the CLI.
//!
//! `--save`, `--baseline` and `--warmup` are not here: a suite saves under a name in its
//! output folder where `picollo bench` writes a file, and a suite's warm-up is a duration
//! where `picollo bench`'s is a count of runs.

use core::fmt;
use std::path::PathBuf;
use std::string::String;
use std::vec::Vec;

use clap::Args;

use crate::export::{format_named, step_summary, Outputs, ResultFormat, Scope, FORMATS};
use crate::DEFAULT_THRESHOLD;

/// The flags of a comparison and its gate.
#[derive(Args, Clone, Debug, Default, PartialEq)]
pub struct GateFlags {
    /// A change below this percentage is `within noise`, and a gate fails on a slowdown of
    /// this much or more (default 1, a suite's --against 3; 0: every difference at 99 % is
    /// faster or slower)
    #[arg(long, value_name = "PERCENT", value_parser = percent, allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// The metric every comparison judges and a --baseline gate fails on: time (the
    /// default) or a counter's name (Hardware:Instructions, Software:PageFaults, or the part
    /// after `:` in any case where one metric has it: instructions, page-faults)
    #[arg(long, value_name = "NAME")]
    pub metric: Option<String>,
    /// The seed of the rounds' random orders (default: from the clock)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// With --save: keep the runs apart already saved there (of the same benchmarks) and add
    /// this run as one more
    #[arg(long, requires = "save")]
    pub append: bool,
}

impl GateFlags {
    /// `--threshold`, else [`DEFAULT_THRESHOLD`].
    pub fn threshold(&self) -> f64 {
        self.threshold.unwrap_or(DEFAULT_THRESHOLD)
    }
}

/// A threshold: a finite percentage, 0 or more.
fn percent(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(std::format!("{s:?} is not a percentage of 0 or more")),
    }
}

/// The flags of a run's outputs for CI: other tools' formats and the Markdown summary.
#[derive(Args, Clone, Debug, Default)]
pub struct CiFlags {
    #[arg(long = "export", value_name = "FORMAT=PATH", value_parser = target, help = export_help())]
    pub exports: Vec<Target>,
    /// Write a Markdown summary for CI to PATH (- for stdout): the verdicts first, what
    /// changed, the method and conditions last. Where GITHUB_STEP_SUMMARY names a file, the
    /// summary is appended to it as well
    #[arg(long, value_name = "PATH")]
    pub summary: Option<PathBuf>,
    /// With --export: the dashboard formats (bmf, github, gbench) carry each comparison's
    /// base as well, under its own name (NAME (base), the first command). Without it they
    /// carry the head alone, under the benchmark's name: one series per benchmark
    #[arg(long)]
    pub export_base: bool,
}

impl CiFlags {
    /// Where the run goes: each export, the summary, and the step summary's file where the
    /// environment names one.
    pub fn outputs(&self) -> Outputs {
        Outputs {
            exports: self
                .exports
                .iter()
                .map(|t| (t.format, t.path.clone()))
                .collect(),
            summary: self.summary.clone(),
            step: step_summary(),
        }
    }
}

/// `--export`'s value: a format and the path it goes to.
#[derive(Clone)]
pub struct Target {
    pub format: &'static dyn ResultFormat,
    pub path: PathBuf,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.format.name(), self.path.display())
    }
}

impl PartialEq for Target {
    fn eq(&self, other: &Self) -> bool {
        self.format.name() == other.format.name() && self.path == other.path
    }
}

/// The help of `--export`: each format of a suite in the harness's table, with its title.
fn export_help() -> String {
    let suite = FORMATS.iter().filter(|f| f.scope() == Scope::All);
    let each: Vec<String> = suite
        .map(|f| std::format!("{}: {}", f.name(), f.title()))
        .collect();
    std::format!(
        "Write the run in FORMAT to PATH (- for stdout), once per format: {}",
        each.join("; ")
    )
}

/// `FORMAT=PATH`, FORMAT one of the harness's formats.
fn target(text: &str) -> Result<Target, String> {
    let (name, path) = text
        .split_once('=')
        .ok_or_else(|| std::format!("{text:?} is not FORMAT=PATH (e.g. bmf=results.json)"))?;
    if path.is_empty() {
        return Err(std::format!(
            "{text:?} names no file after '=' (- is stdout)"
        ));
    }
    let format = format_named(name).map_err(|e| e.message().replace("invalid setting: ", ""))?;
    Ok(Target {
        format,
        path: path.into(),
    })
}
