//! `picollo history`: two processes adding 100 runs each at once lose none and tear none;
//! list, show and export read the runs back; a file that is not a run is named on standard
//! error and skipped; bad arguments end with the CLI's exit statuses.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{picollo, temp};

/// The saved suite run of the harness's tests: two benchmarks.
fn document() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/tests/golden/documents/suite-saved-2-runs.json")
}

/// A fresh, empty folder named `name` for a store.
fn fresh_store(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The commit of writer `w`'s run `i`: 40 hexadecimal digits, the first 12 (what `list`
/// shows) of each run its own.
fn commit(w: usize, i: usize) -> String {
    format!("{w:x}{i:03x}{:036x}", 0)
}

/// `picollo history add` of [`document`] to `store` as commit `i` of writer `w`, outside
/// any repository (git names no branch nor parents).
fn add(store: &Path, w: usize, i: usize) -> std::process::ExitStatus {
    Command::new(env!("CARGO_BIN_EXE_picollo"))
        .args(["history", "add", "--store"])
        .arg(store)
        .args([
            "--commit",
            &commit(w, i),
            "--machine",
            &format!("writer-{w}"),
        ])
        .args(["--time", &format!("2026-11-29T05:{:02}:00Z", i % 60)])
        .args(["--git", "/"])
        .arg(document())
        .stdout(Stdio::null())
        .status()
        .expect("picollo runs")
}

#[test]
fn two_processes_adding_100_runs_each_lose_none() {
    let store = fresh_store("history-writers");
    std::thread::scope(|s| {
        for w in 1..=2 {
            let store = &store;
            s.spawn(move || {
                for i in 0..100 {
                    assert!(add(store, w, i).success(), "writer {w}, run {i}");
                }
            });
        }
    });
    let s = store.to_str().unwrap();
    let run = picollo(&["history", "list", "--store", s], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stderr, "", "no file is skipped: none is torn");
    let mut keys: Vec<(String, String)> = run
        .stdout
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[3..5], ["2", "benchmarks"], "{l}");
            (w[1].to_string(), w[2].to_string())
        })
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 200, "{}", run.stdout);
    for w in 1..=2 {
        let mine = keys.iter().filter(|(_, m)| *m == format!("writer-{w}"));
        assert_eq!(mine.count(), 100);
    }
    let files = std::fs::read_dir(store.join("runs")).unwrap().count();
    assert_eq!(files, 200, "no temporary file is left behind");
}

#[test]
fn show_and_export_read_the_runs_back() {
    let store = fresh_store("history-show");
    let s = store.to_str().unwrap();
    assert!(add(&store, 1, 5).success());
    let commit = commit(1, 5);
    let show = picollo(&["history", "show", "--store", s, &commit[..8]], None);
    assert_eq!(show.code, Some(0), "{}", show.stderr);
    common::assert_has(
        &show.stdout,
        &format!("commit {commit}, 2026-11-29T05:05:00Z"),
    );
    common::assert_has(&show.stdout, "| sum 1000 | 279.152 ns | 280.432 ns |");
    let csv = picollo(
        &[
            "history",
            "export",
            "--store",
            s,
            "--format",
            "otava-csv",
            "--benchmark",
            "spin 200",
        ],
        None,
    );
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "time,commit,branch,machine,run,spin 200.time.p50,spin 200.time.p90,spin 200.time.p99"
    );
    assert!(lines[1].starts_with(&format!("2026-11-29T05:05:00Z,{commit},,writer-1,")));
    // A file that is not a run: named, skipped, the run still exported.
    std::fs::write(store.join("runs/torn.json"), "{\"format\":\"picollo-hist").unwrap();
    let bmf = picollo(
        &["history", "export", "--store", s, "--format", "bmf"],
        None,
    );
    assert_eq!(bmf.code, Some(0), "{}", bmf.stderr);
    common::assert_has(&bmf.stderr, "torn.json: skipped: not JSON");
    let line: serde_json::Value = serde_json::from_str(&bmf.stdout).unwrap();
    assert!(
        line["sum 1000"]["latency"]["value"].as_f64().unwrap() > 0.0,
        "{line}"
    );
}

#[test]
fn bad_arguments_end_with_the_clis_statuses() {
    let store = fresh_store("history-errors");
    let s = store.to_str().unwrap();
    let doc = document();
    let doc = doc.to_str().unwrap();
    let not_a_document = common::data_dir().join("latency.hlog");
    let cases: [(Vec<&str>, i32, &str); 6] = [
        (
            vec![
                "add",
                "--store",
                s,
                "--commit",
                "abcd",
                not_a_document.to_str().unwrap(),
            ],
            4,
            "not JSON",
        ),
        (
            vec![
                "add", "--store", s, "--commit", "abcd", "--time", "noon", doc,
            ],
            2,
            "--time: \"noon\" is not an ISO 8601 time",
        ),
        (
            vec!["add", "--store", s, "--git", "/", doc],
            2,
            "no --commit, and git cannot name HEAD's",
        ),
        (
            vec!["add", "--store", s, "--commit", "main~1", "--git", "/", doc],
            2,
            "\"main~1\" is not a commit id",
        ),
        (
            vec!["list", "--store", "/nonexistent/store"],
            3,
            "/nonexistent/store",
        ),
        (vec!["show", "--store", s, "beef"], 3, "history-errors"),
    ];
    for (args, code, message) in cases {
        let mut all = vec!["history"];
        all.extend(args);
        picollo(&all, None).assert_exit(code, message);
    }
    std::fs::create_dir_all(&store).unwrap();
    let show = picollo(&["history", "show", "--store", s, "beef"], None);
    show.assert_exit(5, "no run and no commit \"beef\"");
    let export = picollo(
        &["history", "export", "--store", s, "--format", "bmf"],
        None,
    );
    export.assert_exit(5, "no run to export");
}
