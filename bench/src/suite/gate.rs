//! A suite's gate against runs apart, as `picollo bench` gates commands: `--save NAME`
//! keeps each benchmark's result and its median round figures of this run in
//! `<out>/baselines/NAME.json` (Picollo's JSON document), `--append` adds this run apart to
//! those already there, and `--baseline NAME` judges each benchmark against its saved runs
//! apart ([`crate::judge::saved::judge_saved`]): slower by the threshold fails the run (exit 7).

use std::path::PathBuf;
use std::string::{String, ToString};
use std::vec::Vec;

use super::args::Args;
use super::exit::{Exit, SuiteError};
use super::outputs::{out_dir, Outcome};
use crate::export::{Findings, PicolloDocument};
use crate::judge::baseline::Baseline;
use crate::judge::saved::{judge_saved, runs_apart_members, SavedRounds};
use crate::model::Document;

/// Where the baseline `name` is kept.
pub fn baseline_path(args: &Args, name: &str) -> PathBuf {
    out_dir(args)
        .join("baselines")
        .join(std::format!("{name}.json"))
}

/// The baseline saved at `path`, each result rebuilt where `threshold` is given. A file
/// that is not a suite's saved document is refused (exit 4).
pub fn load(path: &std::path::Path, threshold: Option<f64>) -> Result<Baseline, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|e| SuiteError::io(path, &e))?;
    let bad =
        |why: String| SuiteError::new(Exit::Format, std::format!("{}: {why}", path.display()));
    let document = Document::read(&text).map_err(|why| match why.starts_with("not a ") {
        true => bad("not a document a suite's --save wrote".into()),
        false => bad(why),
    })?;
    let source = std::format!("saved {}", path.display());
    Baseline::of(&document, &source, threshold, SavedRounds::Medians).map_err(bad)
}

/// Each measured benchmark of `outcome` judged against its saved runs apart in `saved`
/// (on `metric`); those the file does not hold are listed.
pub fn judge(
    outcome: &mut Outcome,
    saved: &Baseline,
    args: &Args,
    name: &str,
) -> Result<(), SuiteError> {
    for r in &outcome.results {
        let Some(s) = saved.named(&r.name) else {
            outcome.only.push((
                r.name.clone(),
                std::format!("this run (not in baseline {name})"),
            ));
            continue;
        };
        let c = judge_saved(s, r, args.metric.as_deref(), outcome.probe_of(&r.name));
        let c = c.map_err(|e| SuiteError::usage(std::format!("--baseline {name}: {e}")))?;
        outcome.against_saved.push(c);
    }
    Ok(())
}

/// `outcome`'s results saved as baseline `name`: this run apart, after those already there
/// with `--append`.
pub fn save(outcome: &Outcome, args: &Args, name: &str) -> Result<PathBuf, SuiteError> {
    let path = baseline_path(args, name);
    let earlier = match args.append && path.exists() {
        true => Some(load(&path, None)?),
        false => None,
    };
    let results: Vec<_> = outcome.results.iter().collect();
    let mut written = Findings::of_results(&results);
    for e in &mut written.entries {
        let before = earlier.as_ref().and_then(|b| b.named(&e.name));
        if let Some(r) = e.result {
            e.members = runs_apart_members(r, before, outcome.probe_of(&r.name));
        }
    }
    let text = written
        .to_text(&PicolloDocument)
        .map_err(|e| SuiteError::new(Exit::Io, e.to_string()))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| SuiteError::io(dir, &e))?;
    }
    std::fs::write(&path, text).map_err(|e| SuiteError::io(&path, &e))?;
    Ok(path)
}
