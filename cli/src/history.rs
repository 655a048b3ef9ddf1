//! `picollo history`: a store of runs over commits (`add`, `list`, `show`, `export`), each
//! run a document the harness wrote, kept with its commit, time and machine, and where each
//! benchmark's distribution changed over them (`detect`).

mod detect;

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use picollo_bench::history::series::short;
use picollo_bench::history::store::export::{
    bmf_lines, figures, otava_csv, Exported, Selection, RANKS,
};
use picollo_bench::history::store::{
    commit_order, format_time, heads, now, parse_time, Git, Machine, RunKey, Skipped, Store,
    StoreError, StoredRun,
};
use picollo_bench::model::Document;

use crate::error::Failure;

/// The help that follows `picollo history`'s commands.
pub const HISTORY_HELP: &str = "\
A store is a folder: each run one file under DIR/runs/, added whole and never changed, so
that two jobs may add at once and a git branch of the folder merges without conflicts
(docs/history.md). A file that is not a run (truncated, of a later version, not JSON) is
named on standard error with the reason and skipped; the other runs are read.

Order: by time, or with --git REPO along the commits of --rev (default HEAD), parents
first (git rev-list --topo-order; --first-parent: the branch's own commits only); runs of
commits off that history are named and skipped.

Exit status: 2 a bad argument (a time, a commit, git unable to name one; detect: runs of
several machines without --machine, --last under 5); 3 a file or the store cannot be read
or written; 4 DOCUMENT is not a Picollo document, or detect cannot judge a series (a value
not positive); 5 no run matches (show, export, detect); 10 detect --last N: a change
point in the last N runs.";

/// `picollo history COMMAND`.
#[derive(Args)]
pub struct HistoryArgs {
    #[command(subcommand)]
    command: HistoryCommand,
}

#[derive(Subcommand)]
enum HistoryCommand {
    /// Add a run: a document of picollo bench (--json, --save) or of a suite (--save,
    /// --export picollo=FILE), under its commit, time and machine
    Add(AddArgs),
    /// One line per run: its time, commit, machine, benchmarks and name
    List(ListArgs),
    /// A run's benchmarks (or those of each run of a commit) with P50, P90 and P99
    Show(ShowArgs),
    /// The runs as Apache Otava's CSV or as Bencher's metric format (a line per run)
    Export(ExportArgs),
    /// Each benchmark's change points over the runs: where its P50, P90 or P99 moved and
    /// stayed moved, by how much; with --last N, status 10 where one is in the last N runs
    Detect(detect::DetectArgs),
}

/// The store every command reads or writes.
#[derive(Args)]
struct StoreArg {
    /// The store's folder (made by add where it is not yet)
    #[arg(long, value_name = "DIR")]
    store: PathBuf,
}

#[derive(Args)]
struct AddArgs {
    #[command(flatten)]
    store: StoreArg,
    /// The commit measured (default: git rev-parse HEAD)
    #[arg(long, value_name = "SHA")]
    commit: Option<String>,
    /// When it ran, ISO 8601 (default: now)
    #[arg(long, value_name = "ISO")]
    time: Option<String>,
    /// The machine's name, a label such as a CI runner's kind (default: the host name)
    #[arg(long, value_name = "NAME")]
    machine: Option<String>,
    /// The branch (default: the branch checked out, where there is one)
    #[arg(long, value_name = "NAME")]
    branch: Option<String>,
    /// The repository git asks about the commit (default: the current folder)
    #[arg(long, value_name = "REPO", default_value = ".")]
    git: PathBuf,
    /// Keep each comparison's head alone, under its benchmark's name (a gate's document:
    /// `NAME (base)` against `NAME` or `NAME (head)`)
    #[arg(long)]
    heads: bool,
    /// The document, - for standard input
    #[arg(value_name = "DOCUMENT")]
    document: String,
}

/// Which runs, in which order.
#[derive(Args)]
struct Order {
    /// Order the runs along this repository's commits (default: by time)
    #[arg(long, value_name = "REPO")]
    git: Option<PathBuf>,
    /// The revision whose history orders them (with --git)
    #[arg(long, value_name = "REV", default_value = "HEAD", requires = "git")]
    rev: String,
    /// Only the first parent of each merge (with --git)
    #[arg(long, requires = "git")]
    first_parent: bool,
    /// Only the runs of the machine of this name
    #[arg(long, value_name = "NAME")]
    machine: Option<String>,
}

#[derive(Args)]
struct ListArgs {
    #[command(flatten)]
    store: StoreArg,
    #[command(flatten)]
    order: Order,
}

#[derive(Args)]
struct ShowArgs {
    #[command(flatten)]
    store: StoreArg,
    /// A run's name (or its start), or a commit (4 digits or more)
    #[arg(value_name = "RUN|COMMIT")]
    run: String,
    /// The metric shown
    #[arg(long, value_name = "NAME", default_value = "time")]
    metric: String,
}

/// The formats of `picollo history export`.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Apache Otava's CSV: time, commit, branch, machine, run, then NAME.METRIC.pRANK columns
    OtavaCsv,
    /// Bencher's metric format: a line per run
    Bmf,
}

#[derive(Args)]
struct ExportArgs {
    #[command(flatten)]
    store: StoreArg,
    #[command(flatten)]
    order: Order,
    /// What to write
    #[arg(long, value_name = "FORMAT")]
    format: Format,
    /// Only this benchmark (default: every one)
    #[arg(long, value_name = "NAME")]
    benchmark: Option<String>,
    /// The metric exported
    #[arg(long, value_name = "NAME", default_value = "time")]
    metric: String,
    /// Only this run, or the runs of this commit
    #[arg(long, value_name = "RUN|COMMIT")]
    run: Option<String>,
    /// Write to PATH (default: standard output)
    #[arg(long, value_name = "PATH")]
    out: Option<String>,
}

/// Run `picollo history` as `args` say.
pub fn run(args: &HistoryArgs) -> Result<(), Failure> {
    match &args.command {
        HistoryCommand::Add(a) => add(a),
        HistoryCommand::List(a) => list(a),
        HistoryCommand::Show(a) => show(a),
        HistoryCommand::Export(a) => export(a),
        HistoryCommand::Detect(a) => detect::detect(a),
    }
}

/// A store's failure as the CLI's: I/O (3), else a bad argument (2).
fn failure(e: StoreError) -> Failure {
    match e {
        StoreError::Io(path, cause) => Failure::io(&path.display().to_string(), &cause),
        e => Failure::usage(e.to_string()),
    }
}

/// `history add`.
fn add(args: &AddArgs) -> Result<(), Failure> {
    let mut document = read_document(&args.document)?;
    if args.heads {
        document = heads(&document);
    }
    let key = key_of(args)?;
    // The key checked before the store is made: a refused run leaves no folder behind.
    key.seconds().map_err(failure)?;
    let store = Store::create(&args.store.store).map_err(failure)?;
    let path = store.add(&key, &document).map_err(failure)?;
    println!("{}", path.display());
    Ok(())
}

/// The document at `path` (- for standard input); a format failure where it is not one.
fn read_document(path: &str) -> Result<Document, Failure> {
    let text = match path {
        "-" => std::io::read_to_string(std::io::stdin()),
        _ => std::fs::read_to_string(path),
    };
    let text = text.map_err(|e| Failure::io(path, &e))?;
    Document::read(&text).map_err(|why| Failure::format(format!("{path}: {why}")))
}

/// The key `args` give, git filling in the commit (its full id, its parents) and branch.
fn key_of(args: &AddArgs) -> Result<RunKey, Failure> {
    let git = Git::at(&args.git);
    let commit = match &args.commit {
        // A commit git does not know (a shallow clone's, another repository's) is kept as
        // given.
        Some(c) => git.commit(c).unwrap_or_else(|_| c.to_lowercase()),
        None => git
            .commit("HEAD")
            .map_err(|e| Failure::usage(format!("no --commit, and git cannot name HEAD's: {e}")))?,
    };
    let seconds = match &args.time {
        Some(t) => parse_time(t).map_err(|e| Failure::usage(format!("--time: {e}")))?,
        None => now(),
    };
    Ok(RunKey {
        parents: git.parents(&commit).unwrap_or_default(),
        commit,
        time: format_time(seconds),
        machine: Machine::this(args.machine.as_deref()),
        branch: args.branch.clone().or_else(|| git.branch()),
    })
}

/// The runs of `store` in `order`, each file skipped named on standard error.
fn read_runs(store: &StoreArg, order: Option<&Order>) -> Result<Vec<StoredRun>, Failure> {
    let store = Store::open(&store.store).map_err(failure)?;
    let (mut runs, skipped) = match order.and_then(|o| Some((o, o.git.as_ref()?))) {
        Some((o, repo)) => {
            let commits = commit_order(&Git::at(repo), &o.rev, o.first_parent);
            store.runs_along(&commits.map_err(failure)?)
        }
        None => store.runs(),
    }
    .map_err(failure)?;
    report_skipped(&skipped);
    if let Some(name) = order.and_then(|o| o.machine.as_deref()) {
        runs.retain(|r| r.key.machine.name == name);
    }
    Ok(runs)
}

/// Each skipped file, on standard error.
fn report_skipped(skipped: &[Skipped]) {
    for s in skipped {
        eprintln!("picollo history: {s}");
    }
}

/// `history list`.
fn list(args: &ListArgs) -> Result<(), Failure> {
    let runs = read_runs(&args.store, Some(&args.order))?;
    let mut text = String::new();
    for r in &runs {
        let commit = short(&r.key.commit);
        let n = r.document.commands.len();
        let benchmarks = if n == 1 { "benchmark" } else { "benchmarks" };
        text += &format!(
            "{}  {commit:<12}  {}  {n} {benchmarks}  {}\n",
            r.key.time, r.key.machine.name, r.id
        );
    }
    crate::emit(&text, None)
}

/// Whether `run` is the one `what` names: its name or the start of it, or its commit's
/// start (4 digits or more).
fn names(run: &StoredRun, what: &str) -> bool {
    let commit = what.len() >= 4 && run.key.commit.starts_with(&what.to_lowercase());
    run.id.starts_with(what) || commit
}

/// The runs of `runs` that `what` names; a no-data failure where none is.
fn chosen(runs: Vec<StoredRun>, what: &str, store: &StoreArg) -> Result<Vec<StoredRun>, Failure> {
    let chosen: Vec<StoredRun> = runs.into_iter().filter(|r| names(r, what)).collect();
    match chosen.is_empty() {
        true => Err(Failure::no_data(format!(
            "no run and no commit {what:?} in {}",
            store.store.display()
        ))),
        false => Ok(chosen),
    }
}

/// `history show`.
fn show(args: &ShowArgs) -> Result<(), Failure> {
    let runs = chosen(read_runs(&args.store, None)?, &args.run, &args.store)?;
    let mut text = String::new();
    for r in &runs {
        text += &run_table(r, &args.metric);
    }
    crate::emit(&text, None)
}

/// A run's key, then a table of each benchmark's figures of `metric` at [`RANKS`].
fn run_table(r: &StoredRun, metric: &str) -> String {
    let (k, m) = (&r.key, &r.key.machine);
    let branch = k
        .branch
        .as_deref()
        .map_or(String::new(), |b| format!(" on {b}"));
    let mut text = format!(
        "run {}\ncommit {}{branch}, {}, machine {} ({}, {} cores)\n\n",
        r.id, k.commit, k.time, m.name, m.cpu, m.cores
    );
    let ranks: Vec<String> = RANKS.iter().map(|r| format!("P{r}")).collect();
    text += &format!("| benchmark | {} |\n|---|--:|--:|--:|\n", ranks.join(" | "));
    for c in &r.document.commands {
        let unit = c.result.as_ref().and_then(|res| {
            let m = res.metrics.iter().find(|m| m.name == metric)?;
            Some(m.unit.to_string())
        });
        let cells = match (figures(c, metric), unit) {
            (Some(f), Some(unit)) => f.map(|v| format!("{v:.3} {unit}")).join(" | "),
            _ => format!("no {metric} | | "),
        };
        text += &format!("| {} | {cells} |\n", c.name.replace('|', "\\|"));
    }
    text + "\n"
}

/// `history export`.
fn export(args: &ExportArgs) -> Result<(), Failure> {
    let mut runs = read_runs(&args.store, Some(&args.order))?;
    if let Some(what) = &args.run {
        runs = chosen(runs, what, &args.store)?;
    }
    let selection = Selection {
        benchmark: args.benchmark.as_deref(),
        metric: &args.metric,
    };
    let exported: Exported = match args.format {
        Format::OtavaCsv => otava_csv(&runs, &selection),
        Format::Bmf => bmf_lines(&runs, &selection),
    };
    for why in &exported.left_out {
        eprintln!("picollo history: {why}: left out");
    }
    if exported.runs == 0 {
        let store = args.store.store.display();
        return Err(Failure::no_data(format!("{store}: no run to export")));
    }
    crate::emit(&exported.text, args.out.as_deref())
}
