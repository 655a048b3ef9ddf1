//! `picollo history detect`: a store filled by `picollo history add` with runs drawn from
//! real runs of this machine's sample suite (bench/tests/data/history-runs.json), the
//! whole distribution 10 % slower from a known run on: the change is found at its commit
//! (±1), `--last N` exits 10 where the last N runs hold it and 0 where they do not, the
//! timeline page names it; with --git the runs follow the commits rather than the clock; a
//! flat store exits 0, too few runs are said so, and bad arguments end with the CLI's
//! statuses.

mod common;

use std::path::{Path, PathBuf};

use common::{picollo, temp, Run};
use picollo_bench::history::detect::Report;
use picollo_bench::history::series::Series;
use picollo_bench::model::Document;

/// The first run of the slower code in [`STEP_RUNS`] runs.
const STEP_AT: usize = 20;
/// Runs of the store with a step.
const STEP_RUNS: usize = 36;

/// The real runs of `sum 1000`: 60 runs of the sample suite, each its rounds' P50, P90
/// and P99.
fn real() -> Series {
    #[derive(serde::Deserialize)]
    struct Fixture {
        series: Vec<Series>,
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/tests/data/history-runs.json");
    let text = std::fs::read_to_string(path).expect("the fixture");
    let f: Fixture = serde_json::from_str(&text).expect("a fixture of series");
    f.series.into_iter().next().expect("a series")
}

/// The commit of run `i`: 40 hexadecimal digits whose first 12 are its own.
fn commit(i: usize) -> String {
    format!("c0ffee{i:06x}{:028x}", 0)
}

/// The saved suite run of the harness's tests, `sum 1000` alone, its rounds those of
/// `real`'s run `from` (each value × `factor`).
fn document(template: &Document, real: &Series, from: usize, factor: f64) -> String {
    let mut doc = template.clone();
    doc.commands.truncate(1);
    let result = doc.commands[0].result.as_mut().expect("a result");
    // Each rank kept takes the nearest of P50, P90 and P99 at or above it (P99 above).
    let of = |rank: f64| [50.0, 90.0].iter().take_while(|&&r| rank > r).count();
    let pick: Vec<usize> = result.round_ranks.iter().map(|&r| of(r)).collect();
    let round = result.rounds[0].clone();
    result.rounds = real.points[from]
        .replicates
        .iter()
        .map(|rep| {
            let mut r = round.clone();
            r.values[0] = pick
                .iter()
                .map(|&q| (rep[q] * factor).round() as u64)
                .collect();
            r
        })
        .collect();
    serde_json::to_string(&doc).expect("a document")
}

/// A fresh store named `name` of `runs` runs of machine `machine`, the whole distribution
/// × 1.10 from run `step` on (where given), run `i` of [`commit`] `i` and `i` minutes after
/// midnight.
fn store(name: &str, runs: usize, step: Option<usize>, machine: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    fill(&dir, runs, step, machine);
    dir
}

/// The key of run `i` of [`store`]: its commit and time.
fn key(i: usize) -> (String, String) {
    (
        commit(i),
        format!("2026-11-29T{:02}:{:02}:00Z", i / 60, i % 60),
    )
}

/// `picollo history add` of `runs` runs to `dir` (see [`store`]).
fn fill(dir: &Path, runs: usize, step: Option<usize>, machine: &str) {
    let keys: Vec<(String, String)> = (0..runs).map(key).collect();
    add(dir, &keys, step, machine);
}

/// `picollo history add` to `dir` of a run of each key (commit, time) of `keys`, the
/// whole distribution × 1.10 from the key `step` on (where given). Run `i` is drawn from
/// the real run `7 i + 3` (mod 60): the real runs in an order of their own, none twice.
fn add(dir: &Path, keys: &[(String, String)], step: Option<usize>, machine: &str) {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/tests/golden/documents/suite-saved-2-runs.json");
    let template = Document::read(&std::fs::read_to_string(golden).unwrap()).unwrap();
    let real = real();
    for (i, (c, time)) in keys.iter().enumerate() {
        let slower = step.is_some_and(|s| i >= s);
        let factor = if slower { 1.10 } else { 1.0 };
        let doc = document(&template, &real, (7 * i + 3) % real.points.len(), factor);
        let s = dir.to_str().unwrap();
        let args = [
            "history", "add", "--store", s, "--commit", c, "--time", time,
        ];
        let mut all = args.to_vec();
        all.extend(["--machine", machine, "--git", "/", "-"]);
        let run = picollo(&all, Some(doc.as_bytes()));
        assert_eq!(run.code, Some(0), "add run {i}: {}", run.stderr);
    }
}

/// `picollo history detect --store DIR ARGS`.
fn detect(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["history", "detect", "--store", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    picollo(&all, None)
}

#[test]
fn a_step_is_found_at_its_commit_and_gates_the_last_runs_that_hold_it() {
    let dir = store("history-detect-step", STEP_RUNS, Some(STEP_AT), "ci-x64");
    let json = temp("history-detect-step.json");
    let page = temp("history-detect-step.html");
    let (j, p) = (json.to_str().unwrap(), page.to_str().unwrap());
    let run = detect(&dir, &["--json", j, "--html", p]);
    assert_eq!(run.code, Some(0), "no --last, no gate: {}", run.stderr);
    let reports: Vec<Report> =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(reports.len(), 1);
    let changes = &reports[0].changes;
    assert_eq!(changes.len(), 1, "{}", run.stdout);
    let c = &changes[0];
    assert!(c.index.abs_diff(STEP_AT) <= 1, "{}", run.stdout);
    assert_eq!(c.commit, commit(c.index));
    // +10 % at P50 inside its 99 % interval (give or take the rounding of the values to
    // whole thousandths of a nanosecond), which excludes no change.
    let p50 = c.sizes[0];
    assert!(p50.low <= 10.01 && 9.99 <= p50.high, "{p50:?}");
    assert!(p50.low > 0.0, "{p50:?}");
    let short = &c.commit[..12];
    let said = format!("at {short} (run {}): P50 +", c.index + 1);
    assert!(run.stdout.contains(&said), "{said} in:\n{}", run.stdout);
    assert!(run
        .stdout
        .starts_with("sum 1000 (time): 36 runs, 1 change point"));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(short), "the page names the change's commit");
    assert!(html.contains("<figure>"));

    // The last 20 runs (16 on) hold the change; the last 10 (26 on) do not.
    let run = detect(&dir, &["--last", "20"]);
    run.assert_exit(10, "a change point in the last 20 runs: sum 1000: ");
    assert!(run.stderr.contains(short), "{}", run.stderr);
    let run = detect(&dir, &["--last", "10"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run
        .stdout
        .ends_with("no change point in the last 10 runs\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flat_store_exits_0_and_too_few_runs_are_said_so() {
    let dir = store("history-detect-flat", 30, None, "ci-x64");
    fill(&dir, 6, None, "ci-arm");
    // Two machines' runs make no one series.
    let run = detect(&dir, &["--last", "30"]);
    run.assert_exit(
        2,
        "runs of 2 machines (ci-arm, ci-x64): pick one with --machine",
    );
    let run = detect(&dir, &["--machine", "ci-x64", "--last", "30"]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(run
        .stdout
        .starts_with("sum 1000 (time): 30 runs, 0 change points"));
    let run = detect(&dir, &["--machine", "ci-arm", "--last", "6"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let want = "sum 1000 (time): 6 runs, too few to judge (a change needs 5 runs on each \
                side: 10 at least)\nno change point in the last 6 runs\n";
    assert_eq!(run.stdout, want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_end_with_the_clis_statuses() {
    let dir = store("history-detect-bad", 2, None, "ci-x64");
    detect(&dir, &["--last", "4"]).assert_exit(2, "--last 4: a change is found only once 5");
    detect(&dir, &["--last", "x"]).assert_exit(2, "invalid value 'x'");
    detect(&dir, &["--seed", "x"]).assert_exit(2, "--seed");
    detect(&dir, &["--rev", "HEAD"]).assert_exit(2, "--git");
    detect(&dir, &["--benchmark", "nope"]).assert_exit(5, "benchmark `nope`");
    detect(&dir, &["--metric", "nope"]).assert_exit(5, "metric `nope`");
    let gone = dir.join("no-such-store");
    detect(&gone, &[]).assert_exit(3, "no-such-store");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `git ARGS` in `dir`, which must succeed: its output, trimmed.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "git {args:?}: {err}");
    String::from_utf8(out.stdout).unwrap().trim().into()
}

#[test]
fn with_git_the_runs_follow_the_commits_not_the_clock() {
    let dir = temp("history-detect-git");
    let _ = std::fs::remove_dir_all(&dir);
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    // 20 commits, each measured in the reverse order of time (the newest first), the
    // 11th and later 10 % slower.
    let keys: Vec<(String, String)> = (0..20)
        .map(|i| {
            git(
                &repo,
                &["commit", "-q", "--allow-empty", "-m", &format!("{i}")],
            );
            let time = format!("2026-11-29T00:{:02}:00Z", 59 - i);
            (git(&repo, &["rev-parse", "HEAD"]), time)
        })
        .collect();
    let store = dir.join("store");
    add(&store, &keys, Some(10), "ci-x64");
    let json = dir.join("changes.json");
    let j = json.to_str().unwrap();
    let change = |args: &[&str]| {
        let mut all = vec!["--json", j];
        all.extend_from_slice(args);
        let run = detect(&store, &all);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let text = std::fs::read_to_string(&json).unwrap();
        let reports: Vec<Report> = serde_json::from_str(&text).unwrap();
        let c = reports[0].changes.first().cloned();
        c.unwrap_or_else(|| panic!("no change point in:\n{}", run.stdout))
    };
    // Along the commits: slower from the 11th on.
    let r = repo.to_str().unwrap();
    let c = change(&["--git", r]);
    assert_eq!((c.index, c.commit.as_str()), (10, keys[10].0.as_str()));
    assert!(c.sizes[0].percent > 9.0, "{:?}", c.sizes[0]);
    // By time: the same runs backwards, faster from the 10th commit (the 11th run) on.
    let c = change(&[]);
    assert_eq!((c.index, c.commit.as_str()), (10, keys[9].0.as_str()));
    assert!(c.sizes[0].percent < -8.0, "{:?}", c.sizes[0]);
    let _ = std::fs::remove_dir_all(&dir);
}
