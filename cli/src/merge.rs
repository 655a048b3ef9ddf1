//! `picollo merge`: the documents of a suite's shards (`--shard I/N`, each run on its own
//! machine or job) read back as one run: one document, one summary, one set of exports, one
//! HTML page, and the exit status the run would have ended with.

use clap::Args;
use picollo_bench::export::merged::{merge, Rebuilt};
use picollo_bench::flags::CiFlags;
use picollo_bench::model::Document;
use picollo_bench::suite::Exit as SuiteExit;

use crate::error::Failure;

/// The help that follows `picollo merge`'s options.
pub const MERGE_HELP: &str = "\
Each DOC is the results.json a suite's run wrote under <out>/<suite>/ (one per --shard I/N);
their benchmarks and comparisons are joined in the order given, each comparison keeping
the verdict its shard judged. A benchmark named in two documents is refused (exit 4), as
is a file that is not a suite's document. The exports and the summary chart each result
rebuilt from its rounds' medians, as a saved baseline is read back.

Exit status: as the run of every shard together would have ended: 6 where a benchmark has
no result (it failed), else 7 where a comparison is slower by the threshold or more, else 0;
3 where a file cannot be read or written, 4 as above.";

/// `picollo merge DOC...`.
#[derive(Args)]
pub struct MergeArgs {
    /// The shards' documents (each a suite's results.json), - for standard input
    #[arg(value_name = "DOC", required = true)]
    pub docs: Vec<String>,
    /// Write the merged document to PATH (default: standard output)
    #[arg(long, value_name = "PATH")]
    pub out: Option<String>,
    /// Write one self-contained HTML page to PATH: every verdict, then each comparison with
    /// both sides' figures
    #[arg(long, value_name = "PATH")]
    pub html: Option<String>,
    #[command(flatten)]
    pub ci: CiFlags,
}

/// Read, merge and write as `args` say; the run's status as a failure where it is not 0.
pub fn run(args: &MergeArgs) -> Result<(), Failure> {
    if args.docs.iter().filter(|d| *d == "-").count() > 1 {
        return Err(Failure::usage("standard input (-) can be read once only"));
    }
    args.ci.outputs().check().map_err(Failure::output)?;
    let documents: Vec<(String, Document)> = args
        .docs
        .iter()
        .map(|path| Ok((path.clone(), read(path)?)))
        .collect::<Result<_, Failure>>()?;
    let merged = merge(&documents).map_err(Failure::format)?;
    let text = merged.text();
    let rebuilt = Rebuilt::of(merged).map_err(|e| Failure::format(format!("merged: {e}")))?;
    crate::emit(&text, args.out.as_deref())?;
    args.ci
        .outputs()
        .write(&rebuilt.findings())
        .map_err(Failure::output)?;
    if let Some(path) = &args.html {
        let title = format!("picollo merge: {}", args.docs.join(", "));
        crate::emit(&rebuilt.html(&title), Some(path))?;
    }
    status(&rebuilt)
}

/// The document at `path` (- for standard input); a format failure where it is not a
/// suite's.
fn read(path: &str) -> Result<Document, Failure> {
    let text = match path {
        "-" => std::io::read_to_string(std::io::stdin()),
        _ => std::fs::read_to_string(path),
    };
    let text = text.map_err(|e| Failure::io(path, &e))?;
    Document::read(&text).map_err(|why| match why.starts_with("not ") {
        true => Failure::format(format!(
            "{path}: not a document a suite writes (results.json): {why}"
        )),
        false => Failure::format(format!("{path}: {why}")),
    })
}

/// The merged run's ending: nothing where it passed, else a failure naming the benchmarks
/// without a result or the slower comparisons.
fn status(rebuilt: &Rebuilt) -> Result<(), Failure> {
    let findings = rebuilt.findings();
    match rebuilt.exit() {
        SuiteExit::Failed => {
            let failed = findings.entries.iter().filter(|e| e.result.is_none());
            let names: Vec<&str> = failed.map(|e| e.name.as_str()).collect();
            Err(Failure::command(format!(
                "without a result (failed in its shard): {}",
                names.join(", ")
            )))
        }
        SuiteExit::Slower => {
            let slower = findings.comparisons.iter().filter(|c| {
                c.fails_gate || matches!(c.comparison.verdict, picollo_bench::Verdict::Slower(_))
            });
            let lines: Vec<String> = slower
                .map(|c| {
                    let mut line = String::new();
                    let _ = c.comparison.write_verdict(&mut line);
                    line
                })
                .collect();
            Err(Failure::slower(format!("slower:\n{}", lines.join("\n"))))
        }
        _ => Ok(()),
    }
}
