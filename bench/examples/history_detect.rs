//! Change points of series files (bench/src/history), from the command line; a store's
//! runs are judged by `picollo history detect`, which shares this code:
//!
//!   history_detect --series FILE [--seed N] [--alpha A] [--html PAGE]
//!       FILE holds one series (JSON) or a list of them; prints one report (JSON) a line,
//!       and with --html writes their timeline page (each change point marked and said).
//!   history_detect --record OUT --benchmark NAME [--metric time] DOC...
//!       the series of NAME's metric over the documents DOC (a suite's results.json or a
//!       `picollo bench --json` file), in the order given, each named by its file's stem.

use std::process::ExitCode;

use picollo_bench::history::changes::{judge, Judged};
use picollo_bench::history::detect::Options;
use picollo_bench::history::series::{from_documents, RunKey, Series};
use picollo_bench::html::timeline;
use picollo_bench::model::document::Document;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let done = match args.first().map(String::as_str) {
        Some("--series") => run_series(&args[1..]),
        Some("--record") => record(&args[1..]),
        _ => Err(
            "usage: history_detect --series FILE [--seed N] [--alpha A] [--html PAGE] | \
                  --record OUT --benchmark NAME [--metric M] DOC..."
                .into(),
        ),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("history_detect: {why}");
            ExitCode::from(2)
        }
    }
}

/// The value after flag `name` in `args`, if given.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// Flag `name`'s value parsed, or `default`.
fn number<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match flag(args, name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("{name}: not a number: {v}")),
    }
}

fn run_series(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("--series needs a file")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let texts: Vec<String> = match value {
        serde_json::Value::Array(list) => list.iter().map(|v| v.to_string()).collect(),
        one => vec![one.to_string()],
    };
    let defaults = Options::default();
    let options = Options {
        seed: number(args, "--seed", defaults.seed)?,
        alpha: number(args, "--alpha", defaults.alpha)?,
        ..defaults
    };
    let series: Result<Vec<Series>, String> = texts.iter().map(|t| Series::read(t)).collect();
    let judged = judge(series.map_err(|e| format!("{path}: {e}"))?, &options)?;
    for j in &judged {
        let line = serde_json::to_string(&j.report).map_err(|e| e.to_string())?;
        println!("{line}");
    }
    match flag(args, "--html") {
        None => Ok(()),
        Some(page) => write_page(page, &format!("Change points: {path}"), &judged),
    }
}

/// The timeline page of `judged`, written to `path`.
fn write_page(path: &str, title: &str, judged: &[Judged]) -> Result<(), String> {
    let pairs: Vec<_> = judged.iter().map(|j| (&j.series, &j.report)).collect();
    let mut html = String::new();
    timeline(title, &pairs)
        .write(&mut html)
        .map_err(|e| e.to_string())?;
    std::fs::write(path, html).map_err(|e| format!("{path}: {e}"))
}

fn record(args: &[String]) -> Result<(), String> {
    let out = args.first().ok_or("--record needs an output file")?;
    let benchmark = flag(args, "--benchmark").ok_or("--record needs --benchmark NAME")?;
    let metric = flag(args, "--metric").unwrap_or("time");
    let flags = ["--benchmark", "--metric"];
    let mut files = Vec::new();
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match flags.contains(&a.as_str()) {
            true => drop(rest.next()),
            false => files.push(a.clone()),
        }
    }
    let mut docs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let stem = std::path::Path::new(f)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        let key = RunKey {
            commit: stem.unwrap_or_default(),
            time: String::new(),
        };
        docs.push((key, Document::read(&text).map_err(|e| format!("{f}: {e}"))?));
    }
    let runs: Vec<(RunKey, &Document)> = docs.iter().map(|(k, d)| (k.clone(), d)).collect();
    let series = from_documents(&runs, benchmark, metric)?;
    std::fs::write(out, series.text()).map_err(|e| format!("{out}: {e}"))
}
