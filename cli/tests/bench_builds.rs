//! `picollo bench --builds K`: sides of several builds each, every build in every round, a
//! pooled report per side, a table of the builds, and a verdict with builds as the unit that
//! states the layout spread; sides saved apart and gated later; groupings that do not split,
//! another grouping than the baseline's and a failing build are refused with their exit
//! status; each run's environment padded to a length of its own; the exports and the summary
//! list the sides, not the builds.

mod common;

use std::path::Path;

use common::{assert_has, bench_json, fails, fresh_temp, json_of, serial};

/// A command that keeps a CPU busy for a few milliseconds (awk's own loop).
const BUSY: &str = "awk 'BEGIN { for (i = 0; i < 60000; i++) s += i }'";

/// A verdict line without the notes that end it where a side's time was floored by the
/// shell's start (` [side 1's time: floored 6.2 %]`), as a run on a busy machine can be.
fn without_floor_notes(line: &str) -> &str {
    match line.find("'s time: ") {
        Some(at) => line[..at].rfind(" [").map_or(line, |i| &line[..i]),
        None => line,
    }
}

#[test]
fn sides_of_builds_are_compared_with_builds_as_the_unit() {
    let _serial = serial();
    let args = ["--runs", "8", "--builds", "2", BUSY, BUSY, BUSY, BUSY];
    let (run, json) = bench_json("builds.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_has(&run.stdout, "##### Builds of side 1");
    assert_has(&run.stdout, "##### Builds of side 2");
    assert_has(
        &run.stdout,
        "Method: builds as the unit: 2 builds of side 1 and 2 of side 2",
    );
    let line = run.last_line("verdict:");
    assert!(line.contains("; layout spread ±"), "{line}");
    assert!(
        without_floor_notes(line).ends_with("(99 %, 2 builds a side)"),
        "{line}"
    );
    let v = json_of(&json);
    // Every build is a command with its own rounds; one comparison, side 2 against side 1.
    assert_eq!(v["commands"].as_array().unwrap().len(), 4);
    let comparisons = v["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 1);
    let c = &comparisons[0];
    assert_eq!(
        (c["baseline"].as_str(), c["tag"].as_str()),
        (Some("side1"), Some("side2"))
    );
    assert_eq!(c["builds"]["perSide"], 2);
    assert!(c["builds"]["layoutSpread"].as_f64().unwrap() >= 0.0);
    // The pooled sides pair round against round: 2 builds × 8 rounds each.
    assert_eq!(c["rounds"], serde_json::json!([16, 16]));
    assert_eq!(c["paired"], true);
}

/// The benchmarks' names of each export (bmf keys, github entries, gbench families).
fn exported_names(bmf: &Path, github: &Path, gbench: &Path) -> [Vec<String>; 3] {
    let bmf = json_of(bmf).as_object().unwrap().keys().cloned().collect();
    let github = json_of(github).as_array().unwrap().clone();
    let github = github
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string());
    let gbench = json_of(gbench)["benchmarks"].as_array().unwrap().clone();
    let mut families: Vec<String> = Vec::new();
    for run in &gbench {
        let name = run["run_name"].as_str().unwrap().to_string();
        if !families.contains(&name) {
            families.push(name);
        }
    }
    [bmf, github.collect(), families]
}

#[test]
fn the_exports_and_the_summary_list_the_sides_not_the_builds() {
    let _serial = serial();
    let files = ["bmf", "github", "gbench"].map(|f| fresh_temp(&format!("sides.{f}.json")));
    let summary = fresh_temp("sides-summary.md");
    let mut args: Vec<String> = ["--runs", "8", "--builds", "2", "-n", "base", "-n", "head"]
        .map(String::from)
        .into();
    for (f, path) in ["bmf", "github", "gbench"].iter().zip(&files) {
        args.extend(["--export".into(), format!("{f}={}", path.display())]);
    }
    args.extend(["--summary".into(), summary.display().to_string()]);
    args.extend([BUSY; 4].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (run, json) = bench_json("sides.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The dashboards chart the head alone (side 1 only with --export-base).
    for names in exported_names(&files[0], &files[1], &files[2]) {
        assert_eq!(names, ["head"]);
    }
    // Each side's rounds are its builds' pooled: 2 builds × 8 rounds.
    let gbench = json_of(&files[2]);
    let head = gbench["benchmarks"].as_array().unwrap().iter();
    let head: Vec<_> = head.filter(|r| r["name"] == "head").collect();
    assert_eq!(head.len(), 16);
    // The document keeps every build, and its one comparison is the summary's one row, with
    // the verdict of builds as the unit.
    let doc = json_of(&json);
    assert_eq!(doc["commands"].as_array().unwrap().len(), 4);
    let verdict = doc["comparisons"][0]["verdict"]
        .as_str()
        .unwrap()
        .to_string();
    let md = std::fs::read_to_string(&summary).unwrap();
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| head vs base |"))
        .collect();
    assert_eq!(rows.len(), 1, "{md}");
    assert!(rows[0].contains(&format!(" {verdict}")), "{verdict}: {md}");
    assert!(
        !md.contains("awk"),
        "no build is a benchmark of the summary: {md}"
    );
    assert_has(&md, "builds as the unit");
}

#[test]
fn groupings_that_do_not_split_are_usage_errors() {
    fails(
        &["bench", "--builds", "3", "true", "true", "true", "true"],
        None,
        2,
        &["--builds 3: 4 commands do not split into sides of 3 builds each"],
    );
    fails(
        &["bench", "--builds", "0", "true", "true"],
        None,
        2,
        &["--builds"],
    );
}

#[test]
fn sides_saved_apart_gate_a_later_run_of_the_same_builds() {
    let _serial = serial();
    let base = common::fresh_temp("builds-base.json");
    let b = base.to_str().unwrap();
    let side = [BUSY, BUSY];
    let mut save = vec!["--runs", "8", "--builds", "2", "--save", b, "--append"];
    save.extend(side);
    for _ in 0..3 {
        let (run, _) = bench_json("builds-save.json", &save);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let saved = json_of(&base);
    assert_eq!(saved["builds"], 2);
    let runs = saved["commands"][1]["runsApart"].as_array().unwrap().len();
    assert_eq!(runs, 3);
    let mut gate = vec!["--runs", "8", "--builds", "2", "--baseline", b];
    gate.extend(side);
    let (run, json) = bench_json("builds-gate.json", &gate);
    assert!(matches!(run.code, Some(0 | 7)), "{}", run.stderr);
    let line = run.last_line("verdict:");
    assert!(line.contains("saved side 1"), "{line}");
    assert!(
        without_floor_notes(line).ends_with("(99 %, 2 builds a side, 3 runs apart)"),
        "{line}"
    );
    assert_has(&run.stdout, "Method: runs apart and builds as the units");
    let c = &json_of(&json)["comparisons"][0];
    assert_eq!(
        (c["baseline"].as_str(), c["tag"].as_str()),
        (Some("saved:side1"), Some("side1"))
    );
    // Another grouping than the saved one is refused before anything runs.
    let mut other = vec!["bench", "--runs", "8", "--baseline", b];
    other.extend(side);
    fails(
        &other,
        None,
        2,
        &["was saved with --builds 2 and this run has --builds 1"],
    );
    let mut append = vec!["bench", "--runs", "8", "--save", b, "--append"];
    append.extend(side);
    fails(&append, None, 2, &["was saved with --builds 2"]);
    // A file whose builds hold different runs apart is not a baseline (a format error).
    let mut uneven = json_of(&base);
    uneven["commands"][0]["runsApart"]
        .as_array_mut()
        .unwrap()
        .pop();
    let bad = common::temp("builds-uneven.json");
    std::fs::write(&bad, uneven.to_string()).unwrap();
    let mut gate = vec!["bench", "--runs", "8", "--builds", "2", "--baseline"];
    gate.push(bad.to_str().unwrap());
    gate.extend(side);
    fails(
        &gate,
        None,
        4,
        &["the builds of side 1 hold [2, 3] runs apart"],
    );
}

#[test]
fn a_failing_build_leaves_its_side_unmeasured_and_exits_6() {
    let _serial = serial();
    let args = [
        "--runs", "8", "--builds", "2", "true", "true", "true", "exit 3",
    ];
    let (run, json) = bench_json("builds-failed.json", &args);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    assert_has(&run.stderr, "command 4 (\"exit 3\") not measured");
    assert_has(&run.stdout, "##### side 2\n- not measured: a build failed");
    assert_eq!(json_of(&json)["comparisons"].as_array().unwrap().len(), 0);
}

/// The lengths of PICOLLO_ENV_PAD the runs of one command saw (a warm-up and 8 runs).
fn pads(extra: &[&str]) -> Vec<usize> {
    let file = common::fresh_temp(&format!("pads{}.txt", extra.len()));
    let command = format!("echo ${{#PICOLLO_ENV_PAD}} >> {}", file.display());
    let mut args = vec!["bench", "--runs", "8"];
    args.extend(extra);
    args.push(&command);
    let run = common::picollo(&args, None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    text.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn each_run_gets_an_environment_of_its_own_size() {
    let _serial = serial();
    let drawn = pads(&[]);
    assert_eq!(drawn.len(), 9);
    assert!(drawn.iter().all(|&n| n < 4096), "{drawn:?}");
    let mut distinct = drawn.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() >= 5, "{drawn:?}");
    assert!(pads(&["--env-pad", "10"]).iter().all(|&n| n < 10));
    assert_eq!(pads(&["--env-pad", "0", "-w", "1"]), vec![0; 9]);
}

/// The resident memory (kB) of picollo while its command ran, as the command read it.
fn parent_rss(extra: &[&str], name: &str) -> u64 {
    let file = common::fresh_temp(name);
    let command = format!("grep VmRSS /proc/$PPID/status >> {}", file.display());
    let mut args = vec!["bench", "--runs", "1", "--warmup", "0"];
    args.extend(extra);
    args.push(&command);
    let run = common::picollo(&args, None);
    assert!(matches!(run.code, Some(0 | 7)), "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let kb = text.split_whitespace().nth(1).unwrap();
    kb.parse().unwrap()
}

#[test]
fn commands_run_from_a_process_without_the_saved_results() {
    // A saved result rebuilt holds its histograms (tens of MB); forked from a parent that
    // large, a child's exec takes measurably longer (an 11 ms loop ran 25 % slower under a
    // 285 MB parent). The baseline is read after the runs.
    let _serial = serial();
    let base = common::temp("rss-base.json");
    let b = base.to_str().unwrap();
    let save = ["--runs", "8", "--save", b, BUSY, BUSY, BUSY];
    assert_eq!(
        common::picollo(&[&["bench"], &save[..]].concat(), None).code,
        Some(0)
    );
    let plain = parent_rss(&[], "rss-plain.txt");
    let gated = parent_rss(&["--baseline", b], "rss-gated.txt");
    println!("picollo's resident memory while a command ran: {plain} kB alone, {gated} kB with --baseline");
    assert!(gated < plain + 16 * 1024, "{gated} kB against {plain} kB");
}
