//! `picollo bench` in CI: `--export FORMAT=PATH` writes the run in a format another tool
//! reads (Bencher's, github-action-benchmark's, Google Benchmark's, or Picollo's JSON
//! document), and `--summary PATH` the Markdown summary a CI job shows; where the
//! environment names `GITHUB_STEP_SUMMARY`, the summary is appended to that file too. Each
//! format is the harness's ([`picollo_bench::export`]); this module only routes them.

use std::io::Write as _;

use clap::Args;
use picollo_bench::export::{format_named, Export, Suite};

use crate::error::Failure;

/// The variable that names the file of a GitHub Actions step's summary.
pub const STEP_SUMMARY: &str = "GITHUB_STEP_SUMMARY";

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

#[derive(Args)]
pub struct CiArgs {
    /// Write the run in FORMAT to PATH (- for stdout), once per format: bmf (Bencher Metric
    /// Format), github (github-action-benchmark, customSmallerIsBetter), gbench (Google
    /// Benchmark's JSON, for its compare.py), picollo (the JSON document --json writes)
    #[arg(long = "export", value_name = "FORMAT=PATH", value_parser = target)]
    pub exports: Vec<Target>,
    /// Write a Markdown summary for CI to PATH (- for stdout): the verdicts first, what
    /// changed, the method and conditions last. Where GITHUB_STEP_SUMMARY names a file, the
    /// summary is appended to it as well
    #[arg(long, value_name = "PATH")]
    pub summary: Option<String>,
}

/// The file `GITHUB_STEP_SUMMARY` names, where it names one.
fn step_summary() -> Option<String> {
    std::env::var(STEP_SUMMARY).ok().filter(|p| !p.is_empty())
}

/// Refuse, before any run, an output that cannot be written: each export's file and the
/// summary's are created (emptied), the step summary is opened to append (kept).
pub fn check(ci: &CiArgs) -> Result<(), Failure> {
    let paths = ci.exports.iter().map(|t| &t.path).chain(&ci.summary);
    for path in paths.filter(|p| *p != "-") {
        std::fs::File::create(path).map_err(|e| Failure::io(path, &e))?;
    }
    if let Some(path) = step_summary() {
        append_to(&path, "").map_err(|e| Failure::io(&format!("{STEP_SUMMARY} ({path})"), &e))?;
    }
    Ok(())
}

/// `text` appended to the file at `path` (made where missing).
fn append_to(path: &str, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

/// Every export and the summary of `suite`, as `ci` asks.
pub fn write(suite: &Suite<'_>, ci: &CiArgs) -> Result<(), Failure> {
    let failed = |e: picollo_bench::BenchError| Failure::format(format!("writing: {e}"));
    for t in &ci.exports {
        crate::emit(&suite.to_text(t.format).map_err(failed)?, Some(&t.path))?;
    }
    let step = step_summary();
    if ci.summary.is_none() && step.is_none() {
        return Ok(());
    }
    let mut text = String::new();
    suite
        .write_summary(&mut text)
        .map_err(|e| failed(e.into()))?;
    if let Some(path) = &ci.summary {
        crate::emit(&text, Some(path))?;
    }
    if let Some(path) = step {
        let what = format!("{STEP_SUMMARY} ({path})");
        append_to(&path, &text).map_err(|e| Failure::io(&what, &e))?;
    }
    Ok(())
}
