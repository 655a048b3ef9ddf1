//! `picollo bench --builds K`: sides of several builds each, every build in every round, a
//! pooled report per side, a table of the builds, and a verdict with builds as the unit that
//! states the layout spread; groupings that do not split, a failing build and a baseline
//! with builds are refused with their exit status.

mod common;

use common::{assert_has, bench_json, fails, json_of, serial};

/// A command that keeps a CPU busy for a few milliseconds (awk's own loop).
const BUSY: &str = "awk 'BEGIN { for (i = 0; i < 60000; i++) s += i }'";

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
    let line = run
        .stdout
        .lines()
        .rfind(|l| l.starts_with("verdict:"))
        .unwrap();
    assert!(line.contains("; layout spread ±"), "{line}");
    assert!(line.ends_with("(99 %, 2 builds a side)"), "{line}");
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
    fails(
        &[
            "bench",
            "--builds",
            "2",
            "--baseline",
            "x.json",
            "true",
            "true",
        ],
        None,
        2,
        &["--builds with --baseline"],
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
    let file = common::temp(&format!("pads{}.txt", extra.len()));
    let _ = std::fs::remove_file(&file);
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
