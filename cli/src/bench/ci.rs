//! `picollo bench` in CI: `--export FORMAT=PATH` writes the run in a format another tool
//! reads (Bencher's, github-action-benchmark's, Google Benchmark's, or Picollo's JSON
//! document), and `--summary PATH` the Markdown summary a CI job shows; where the
//! environment names `GITHUB_STEP_SUMMARY`, the summary is appended to that file too. Each
//! format, and where it goes, is the harness's ([`picollo_bench::export`]); this module only
//! reads the flags.

use std::path::PathBuf;

use clap::Args;
use picollo_bench::export::{format_named, step_summary, Export, Outputs, Scope, Suite, FORMATS};

use crate::error::Failure;

/// A format and the path it goes to.
#[derive(Clone)]
pub struct Target {
    pub format: &'static dyn Export,
    pub path: String,
}

/// `FORMAT=PATH`, FORMAT one of the harness's formats.
fn target(text: &str) -> Result<Target, String> {
    let (name, path) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?} is not FORMAT=PATH (e.g. bmf=results.json)"))?;
    if path.is_empty() {
        return Err(format!("{text:?} names no file after '=' (- is stdout)"));
    }
    let format = format_named(name).map_err(|e| e.message().replace("invalid setting: ", ""))?;
    Ok(Target {
        format,
        path: path.into(),
    })
}

/// The help of `--export`: each format of a suite in the harness's table, with its title.
fn export_help() -> String {
    let suite = FORMATS.iter().filter(|f| f.scope() == Scope::Suite);
    let each: Vec<String> = suite
        .map(|f| format!("{}: {}", f.name(), f.title()))
        .collect();
    format!(
        "Write the run in FORMAT to PATH (- for stdout), once per format: {}",
        each.join("; ")
    )
}

#[derive(Args)]
pub struct CiArgs {
    #[arg(long = "export", value_name = "FORMAT=PATH", value_parser = target, help = export_help())]
    pub exports: Vec<Target>,
    /// Write a Markdown summary for CI to PATH (- for stdout): the verdicts first, what
    /// changed, the method and conditions last. Where GITHUB_STEP_SUMMARY names a file, the
    /// summary is appended to it as well
    #[arg(long, value_name = "PATH")]
    pub summary: Option<String>,
}

/// Where `ci` sends the run: its exports, its summary, and the step summary's file where
/// the environment names one.
fn outputs(ci: &CiArgs) -> Outputs {
    let exports = ci
        .exports
        .iter()
        .map(|t| (t.format, PathBuf::from(&t.path)));
    Outputs {
        exports: exports.collect(),
        summary: ci.summary.as_ref().map(PathBuf::from),
        step: step_summary(),
    }
}

/// Refuse, before any run, an output that cannot be written: each export's file and the
/// summary's are created (emptied), the step summary is opened to append (kept).
pub fn check(ci: &CiArgs) -> Result<(), Failure> {
    outputs(ci).check().map_err(Failure::output)
}

/// Every export and the summary of `suite`, as `ci` asks.
pub fn write(suite: &Suite<'_>, ci: &CiArgs) -> Result<(), Failure> {
    outputs(ci).write(suite).map_err(Failure::output)
}
