//! The store of runs: a run reads back as added; writers at once lose none; a file that is
//! not a run (truncated, of a later version, garbage) is named and skipped while the others
//! are read; runs follow git's commits (parents first, off-history runs skipped) or time;
//! Otava's CSV reads back with Python's csv module, Bencher's lines as `--export bmf` writes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TempDir;
use picollo_bench::export::merged::Rebuilt;
use picollo_bench::export::Bencher;
use picollo_bench::history::store::export::{
    bmf_lines, figures, otava_column, otava_csv, Selection, OTAVA_KEY_COLUMNS,
};
use picollo_bench::history::store::{
    commit_order, format_time, heads, Git, Machine, RunKey, Store, StoredRun,
};
use picollo_bench::model::Document;

/// A saved suite run of two benchmarks, as a suite's `--save` wrote it.
fn document() -> Document {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/documents/suite-saved-2-runs.json");
    Document::read(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A key of `commit` at `seconds` since the epoch, on machine `machine`.
fn key(commit: &str, seconds: i64, machine: &str) -> RunKey {
    RunKey {
        commit: commit.into(),
        parents: Vec::new(),
        time: format_time(seconds),
        machine: Machine {
            name: machine.into(),
            cpu: "AMD EPYC".into(),
            cores: 2,
        },
        branch: Some("main".into()),
    }
}

/// The commit id of a run numbered `i`: 40 hexadecimal digits.
fn commit(i: usize) -> String {
    format!("{i:040x}")
}

/// 2026-11-01T00:00:00Z.
const T0: i64 = 1_793_491_200;

#[test]
fn a_run_reads_back_as_added() {
    let dir = TempDir::new("history-readback");
    let store = Store::create(dir.join("store")).unwrap();
    let k = key(&commit(7), T0, "ci x86/64");
    let path = store.add(&k, &document()).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("20261101T000000Z-000000000000-ci-x86-64-"),
        "{name}"
    );
    let (runs, skipped) = Store::open(dir.join("store")).unwrap().runs().unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].key, k);
    assert_eq!((runs[0].seconds, &runs[0].path), (T0, &path));
    assert_eq!(runs[0].document.text(), document().text());
    // The writer's temporary file is gone: the folder holds the run alone.
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn threads_adding_at_once_lose_no_run() {
    let dir = TempDir::new("history-threads");
    let store = Store::create(&*dir).unwrap();
    let doc = document();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (store, doc) = (&store, &doc);
            // Every writer at the same second and commit: the names differ in their random
            // part only.
            s.spawn(move || {
                (0..50).for_each(|i| {
                    let k = key(&commit(1), T0, &format!("w{t}-{i}"));
                    store.add(&k, doc).unwrap();
                })
            });
        }
    });
    let (runs, skipped) = store.runs().unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    let mut machines: Vec<String> = runs.iter().map(|r| r.key.machine.name.clone()).collect();
    machines.sort();
    machines.dedup();
    assert_eq!((runs.len(), machines.len()), (200, 200));
}

/// Write `bytes` to `runs/NAME` of the store at `dir`: its path.
fn plant(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join("runs").join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn files_that_are_not_runs_are_named_and_skipped() {
    let dir = TempDir::new("history-corrupt");
    let store = Store::create(&*dir).unwrap();
    let good: Vec<PathBuf> = (0..3)
        .map(|i| {
            store
                .add(&key(&commit(i), T0 + i as i64, "m"), &document())
                .unwrap()
        })
        .collect();
    let text = std::fs::read_to_string(&good[0]).unwrap();
    let later = text.replacen("\"version\":1", "\"version\":2", 1);
    let later_document = text.replacen(
        "\"schema\":\"picollo-bench\",\"version\":1",
        "\"schema\":\"picollo-bench\",\"version\":9",
        1,
    );
    let planted = [
        (
            plant(&dir, "truncated.json", &text.as_bytes()[..text.len() / 2]),
            "not JSON",
        ),
        (
            plant(&dir, "later.json", later.as_bytes()),
            "version 2, later than",
        ),
        (
            plant(&dir, "later-document.json", later_document.as_bytes()),
            "its document: version 9",
        ),
        (
            plant(&dir, "garbage.json", &[0xff, 0xfe, 0x00, 0x9c]),
            "not UTF-8",
        ),
        (
            plant(&dir, "other.json", b"{\"schema\":\"picollo-bench\"}"),
            "not a picollo-history run file",
        ),
        (
            plant(
                &dir,
                "bad-time.json",
                text.replacen("2026-11-01T00:00:00Z", "noon", 1).as_bytes(),
            ),
            "not an ISO 8601 time",
        ),
        (plant(&dir, "notes.txt", b"hello"), "does not end in .json"),
    ];
    // A writer's temporary file, not yet linked: not a run, nor a fault.
    plant(&dir, ".20261101T000000Z-x.json.tmp", &text.as_bytes()[..10]);
    let (runs, mut skipped) = store.runs().unwrap();
    let paths: Vec<&PathBuf> = runs.iter().map(|r| &r.path).collect();
    assert_eq!(paths, good.iter().collect::<Vec<_>>());
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    let mut expected: Vec<&(PathBuf, &str)> = planted.iter().collect();
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(skipped.len(), expected.len(), "{skipped:?}");
    for (s, (path, why)) in skipped.iter().zip(expected) {
        assert_eq!(&s.path, path);
        assert!(s.reason.contains(why), "{}: {why}", s);
        assert!(
            s.to_string().starts_with(&path.display().to_string()),
            "{s}"
        );
    }
}

/// `git ARGS` in `dir`, which must succeed: its output, trimmed.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().into()
}

/// A commit of nothing, named `message`, on the branch checked out: its id.
fn empty_commit(dir: &Path, message: &str) -> String {
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

#[test]
fn runs_follow_the_commits_of_git_history() {
    let dir = TempDir::new("history-git");
    let repo = dir.join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    let c1 = empty_commit(&repo, "one");
    let c2 = empty_commit(&repo, "two");
    git(&repo, &["checkout", "-q", "-b", "side"]);
    let side = empty_commit(&repo, "side");
    git(&repo, &["checkout", "-q", "main"]);
    let c3 = empty_commit(&repo, "three");
    git(&repo, &["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    let merge = git(&repo, &["rev-parse", "HEAD"]);
    git(&repo, &["checkout", "-q", "-b", "elsewhere", &c1]);
    let elsewhere = empty_commit(&repo, "elsewhere");

    let store = Store::create(dir.join("store")).unwrap();
    // Times run backwards against the commits: the order must be git's, not the clock's;
    // c2 is kept abbreviated, as a run given a short id is.
    let commits = [&merge[..], &c3, &side, &c2[..7], &c1, &elsewhere];
    for (i, c) in commits.iter().enumerate() {
        store
            .add(&key(c, T0 + i as i64 * 60, "m"), &document())
            .unwrap();
    }
    let commit_of =
        |runs: &[StoredRun]| -> Vec<String> { runs.iter().map(|r| r.key.commit.clone()).collect() };
    let (by_time, _) = store.runs().unwrap();
    assert_eq!(commit_of(&by_time), commits.map(|c| c.to_string()));

    let order = commit_order(&Git::at(&repo), "main", false).unwrap();
    let (runs, skipped) = store.runs_along(&order).unwrap();
    let (c2_short, c3_side) = (c2[..7].to_string(), [c3.clone(), side.clone()]);
    let got = commit_of(&runs);
    assert_eq!([&got[0], &got[1]], [&c1, &c2_short]);
    // Topological order: side and three after two, in either order, before the merge.
    assert!(
        got[2..4] == c3_side || got[2..4] == [side.clone(), c3.clone()],
        "{got:?}"
    );
    assert_eq!(got[4], merge);
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(skipped[0]
        .reason
        .contains(&format!("commit {elsewhere} is not in the history")));

    let first_parent = commit_order(&Git::at(&repo), "main", true).unwrap();
    let (runs, skipped) = store.runs_along(&first_parent).unwrap();
    assert_eq!(commit_of(&runs), [c1, c2_short, c3, merge]);
    assert_eq!(skipped.len(), 2, "{skipped:?}");
}

/// A store of three runs of commits 0, 1, 2, their benchmarks as in [`document`] but the
/// first renamed `sum, "1000"` (a comma and quotes, for the CSV's quoting); run 2 without
/// the second benchmark.
fn three_runs(dir: &Path) -> Vec<StoredRun> {
    let store = Store::create(dir).unwrap();
    for i in 0..3 {
        let mut d = document();
        d.commands[0].name = "sum, \"1000\"".into();
        if i == 1 {
            d.commands.truncate(1);
        }
        store.add(&key(&commit(i), T0 + i as i64, "m"), &d).unwrap();
    }
    store.runs().unwrap().0
}

/// `csv_text` read with Python's csv module: its rows, as JSON.
fn python_csv(csv_text: &str) -> Vec<Vec<String>> {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(csv_text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn otava_csv_reads_back_with_pythons_csv_module() {
    let dir = TempDir::new("history-otava");
    let runs = three_runs(&dir);
    let all = Selection {
        benchmark: None,
        metric: "time",
    };
    let exported = otava_csv(&runs, &all);
    let rows = python_csv(&exported.text);
    let names: Vec<&str> = runs[2]
        .document
        .commands
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    let mut header: Vec<String> = OTAVA_KEY_COLUMNS.map(String::from).to_vec();
    for n in &names {
        header.extend([50.0, 90.0, 99.0].map(|r| otava_column(n, "time", r)));
    }
    assert_eq!(rows[0], header);
    // Run 1 lacks the second benchmark: left out, saying so.
    assert_eq!((exported.runs, rows.len()), (2, 3));
    assert_eq!(exported.left_out.len(), 1);
    assert!(
        exported.left_out[0].starts_with(&runs[1].id),
        "{:?}",
        exported.left_out
    );
    for (row, run) in rows[1..].iter().zip([&runs[0], &runs[2]]) {
        let k = &run.key;
        assert_eq!(row[..5], [&k.time, &k.commit, "main", "m", &run.id]);
        let cells: Vec<f64> = row[5..].iter().map(|c| c.parse().unwrap()).collect();
        let f0 = figures(&run.document.commands[0], "time").unwrap();
        let f1 = figures(&run.document.commands[1], "time").unwrap();
        assert_eq!(cells, [f0, f1].concat());
        assert!(f0[0] < f0[1] && f0[1] < f0[2], "{f0:?}");
    }
    let one = Selection {
        benchmark: Some("spin 200"),
        metric: "Software:TaskClock",
    };
    let rows = python_csv(&otava_csv(&runs, &one).text);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[0][5], "spin 200.Software:TaskClock.p50");
}

#[test]
fn bmf_lines_are_what_the_bmf_export_writes_of_each_run() {
    let dir = TempDir::new("history-bmf");
    let runs = three_runs(&dir);
    let time = Selection {
        benchmark: None,
        metric: "time",
    };
    let exported = bmf_lines(&runs, &time);
    assert_eq!((exported.runs, exported.text.lines().count()), (3, 3));
    for (line, run) in exported.text.lines().zip(&runs) {
        let mut d = run.document.clone();
        d.comparisons.clear();
        let full = Rebuilt::of(d)
            .unwrap()
            .findings()
            .to_text(&Bencher)
            .unwrap();
        let full: serde_json::Value = serde_json::from_str(&full).unwrap();
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let benchmarks = line.as_object().unwrap();
        assert_eq!(benchmarks.len(), run.document.commands.len());
        for (name, measures) in benchmarks {
            // The time alone, as the whole export writes it.
            assert_eq!(measures.as_object().unwrap().len(), 1, "{measures}");
            assert_eq!(measures["latency"], full[name]["latency"]);
        }
    }
    let one = Selection {
        benchmark: Some("spin 200"),
        metric: "Software:TaskClock",
    };
    let exported = bmf_lines(&runs, &one);
    assert_eq!(exported.runs, 2);
    assert!(
        exported.left_out[0].contains("no benchmark \"spin 200\""),
        "{:?}",
        exported.left_out
    );
    let line: serde_json::Value =
        serde_json::from_str(exported.text.lines().next().unwrap()).unwrap();
    let measures = line["spin 200"].as_object().unwrap();
    assert_eq!(measures.keys().collect::<Vec<_>>(), ["software-taskclock"]);
}

#[test]
fn keys_that_are_not_keys_are_refused() {
    let dir = TempDir::new("history-keys");
    let store = Store::create(&*dir).unwrap();
    let bad = [
        RunKey {
            commit: "HEAD".into(),
            ..key(&commit(1), T0, "m")
        },
        RunKey {
            commit: "ABCDEF12".into(),
            ..key(&commit(1), T0, "m")
        },
        RunKey {
            time: "yesterday".into(),
            ..key(&commit(1), T0, "m")
        },
        RunKey {
            parents: vec!["xyz".into()],
            ..key(&commit(1), T0, "m")
        },
        key(&commit(1), T0, " "),
    ];
    for k in bad {
        let e = store.add(&k, &document()).unwrap_err();
        assert!(
            matches!(e, picollo_bench::history::store::StoreError::Invalid(_)),
            "{e}"
        );
    }
    assert!(store.runs().unwrap().0.is_empty());
    let e = Store::open(dir.join("none")).unwrap_err().to_string();
    assert!(e.contains("none"), "{e}");
}

#[test]
fn a_gates_heads_are_kept_under_their_benchmarks_names() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/documents/suite-against.json");
    let gate = Document::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    let kept = heads(&gate);
    let names: Vec<&str> = kept.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sum 1000", "spin 200"]);
    assert!(kept.comparisons.is_empty());
    for c in &kept.commands {
        let head = gate
            .commands
            .iter()
            .find(|g| g.name == format!("{} (head)", c.name));
        let (a, b) = (
            c.result.as_ref().unwrap(),
            head.unwrap().result.as_ref().unwrap(),
        );
        assert_eq!((&a.rounds, a.samples), (&b.rounds, b.samples));
    }
    // A run of one build: kept whole.
    assert_eq!(heads(&document()).text(), document().text());
}
