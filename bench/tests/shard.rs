//! `--shard I/N` through a suite's command line: `--list` lists each share and the shares
//! partition what the filters select; an empty share measures nothing and passes; `--save`
//! and `--baseline` keep and judge the share alone; a bad value is a usage error.
#![cfg(target_os = "linux")]

mod common;

use common::TempDir;
use picollo_bench::black_box;
use picollo_bench::model::Document;
use picollo_bench::suite::{share_of, Exit, Mode, Suite};

/// A suite of `n` cheap benchmarks `add/0`…
fn suite(n: usize) -> Suite<'static> {
    let mut s = Suite::new("shard");
    for i in 0..n {
        s.bench(&format!("add/{i}"), move || {
            black_box(black_box(i as u64) + 1);
        });
    }
    s
}

/// The run of `s` with `args`: its exit status (or error) and what it printed.
fn run(s: &mut Suite<'_>, args: &[&str], mode: Mode) -> (Result<Exit, Exit>, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut out = Vec::new();
    let ran = s.run_args(&args, mode, &mut out);
    let text = String::from_utf8(out).unwrap();
    (ran.map(|o| o.exit).map_err(|e| e.exit), text)
}

/// The names a `--list` printed.
fn listed(text: &str) -> Vec<String> {
    let each = text.lines().filter_map(|l| l.strip_suffix(": benchmark"));
    each.map(String::from).collect()
}

#[test]
fn the_shares_of_a_list_partition_what_the_filters_select() {
    let mut s = suite(60);
    let (_, all) = run(&mut s, &["--list", "add/1"], Mode::Once);
    let all = listed(&all);
    assert_eq!(all.len(), 11); // add/1, add/10..add/19
    let mut union = Vec::new();
    for i in 1..=4 {
        let (status, text) = run(
            &mut s,
            &["--list", "add/1", "--shard", &format!("{i}/4")],
            Mode::Once,
        );
        assert_eq!(status, Ok(Exit::Ok));
        let share = listed(&text);
        assert!(share.iter().all(|n| share_of(n, 4) == i), "{share:?}");
        union.extend(share);
    }
    union.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(union, expected);
}

#[test]
fn a_bad_share_is_a_usage_error() {
    let mut s = suite(3);
    for bad in ["0/2", "3/2", "1/1025", "x"] {
        assert_eq!(
            run(&mut s, &["--list", "--shard", bad], Mode::Once).0,
            Err(Exit::Usage)
        );
    }
}

#[test]
fn an_empty_share_measures_nothing_and_passes_and_a_filter_matching_none_still_fails() {
    let dir = TempDir::new("shard-empty");
    let mut s = suite(1);
    let empty = if share_of("add/0", 2) == 1 {
        "2/2"
    } else {
        "1/2"
    };
    let out = dir.to_str().unwrap();
    let (status, _) = run(
        &mut s,
        &["--shard", empty, "--out", out, "--counters", "none"],
        Mode::Measure,
    );
    assert_eq!(status, Ok(Exit::Ok));
    let text = std::fs::read_to_string(dir.join("shard/results.json")).unwrap();
    assert!(Document::read(&text).unwrap().commands.is_empty());
    let (status, _) = run(&mut s, &["--shard", empty, "nothere"], Mode::Measure);
    assert_eq!(status, Err(Exit::NoMatch));
}

#[test]
fn save_and_baseline_keep_and_judge_the_share_alone() {
    let dir = TempDir::new("shard-save");
    let mut s = suite(8);
    let mine: Vec<String> = (0..8)
        .map(|i| format!("add/{i}"))
        .filter(|n| share_of(n, 2) == 2)
        .collect();
    let tiny = [
        "--shard",
        "2/2",
        "--out",
        dir.to_str().unwrap(),
        "--budget",
        "0.02",
        "--warmup",
        "0",
        "--counters",
        "none",
    ];
    let (status, _) = run(
        &mut s,
        &[&tiny[..], &["--save", "main"]].concat(),
        Mode::Measure,
    );
    assert_eq!(status, Ok(Exit::Ok));
    let saved = std::fs::read_to_string(dir.join("baselines/main.json")).unwrap();
    let saved: Vec<String> = Document::read(&saved)
        .unwrap()
        .commands
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(saved, mine);
    let args: Vec<String> = [&tiny[..], &["--baseline", "main"]]
        .concat()
        .iter()
        .map(|a| a.to_string())
        .collect();
    let outcome = s.run_args(&args, Mode::Measure, &mut Vec::new()).unwrap();
    let judged: Vec<&str> = outcome.against_saved.iter().map(|c| c.b.as_str()).collect();
    assert_eq!(judged, mine);
}
