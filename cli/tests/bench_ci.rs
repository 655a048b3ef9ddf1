//! `picollo bench` in CI: `--export FORMAT=PATH` and `--summary PATH` for a gate of three
//! commands (each format holds the three, the summary's table one row each, the step summary
//! appended to, not replaced); the dashboards chart every command; bad outputs refused before any run with their exit status; a
//! command not measured is named in the summary; a baseline that compares nothing exits 5. The formats are read by each peer's own reader or
//! schema in scripts/ci_check.py (the html stage) and python-demo/tests/test_ci_formats.py.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_has, bench, fresh_temp, json_of, serial, Run};

/// `picollo bench ARGS` with `GITHUB_STEP_SUMMARY` set to `step` (or unset).
fn bench_with_step(args: &[&str], step: Option<&Path>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_picollo"));
    command
        .arg("bench")
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY");
    if let Some(path) = step {
        command.env("GITHUB_STEP_SUMMARY", path);
    }
    let out = command.output().expect("picollo runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

const COMMANDS: [&str; 3] = ["sleep 0.001", "sleep 0.002", "sleep 0.003"];

#[test]
fn a_gate_of_three_commands_is_written_in_every_format_and_summarized() {
    let _serial = serial();
    let base = fresh_temp("ci-base.json");
    let base = base.to_str().unwrap();
    for _ in 0..2 {
        let mut args = vec!["-r", "8", "--save", base, "--append"];
        args.extend(COMMANDS);
        assert_eq!(bench(&args).code, Some(0));
    }
    let files =
        ["bmf", "github", "gbench", "picollo"].map(|f| (f, fresh_temp(&format!("ci.{f}.json"))));
    let step = fresh_temp("ci-step.md");
    std::fs::write(&step, "earlier step\n").unwrap();
    let summary = fresh_temp("ci-summary.md");
    let mut args = vec![
        "-r".to_string(),
        "8".into(),
        "--baseline".into(),
        base.into(),
    ];
    for (format, path) in &files {
        args.extend(["--export".into(), format!("{format}={}", path.display())]);
    }
    let junit = fresh_temp("ci.junit.xml");
    args.extend(["--export".into(), format!("junit={}", junit.display())]);
    args.extend(["--summary".into(), summary.display().to_string()]);
    args.extend(COMMANDS.map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = bench_with_step(&args, Some(&step));
    // An A/A gate of runs apart passes but for its 1 % of false alarms a comparison.
    assert!(matches!(run.code, Some(0 | 7)), "{}", run.stderr);
    let [bmf, github, gbench, document] = files.map(|(_, p)| json_of(&p));
    assert_eq!(bmf.as_object().unwrap().len(), 3, "{bmf}");
    assert!(COMMANDS
        .iter()
        .all(|c| bmf[c]["latency"]["value"].as_f64().unwrap() > 0.0));
    let names: Vec<&str> = github
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, COMMANDS);
    let runs = gbench["benchmarks"].as_array().unwrap();
    assert_eq!(
        runs.len(),
        3 * (8 + 4),
        "8 repetitions and 4 aggregates each"
    );
    assert_eq!(
        (document["schema"].as_str(), document["version"].as_u64()),
        (Some("picollo-bench"), Some(1))
    );
    // Each command after the first against the first, then each against its saved self.
    assert_eq!(document["comparisons"].as_array().unwrap().len(), 2 + 3);
    let junit = std::fs::read_to_string(&junit).unwrap();
    assert_has(&junit, "<testsuite name=\"picollo\" tests=\"8\" ");
    assert_eq!(
        junit.matches("<testcase classname=\"comparison\"").count(),
        5
    );
    assert_eq!(junit.contains("<failure "), run.code == Some(7), "{junit}");
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.starts_with("### Picollo: 5 comparisons: "), "{text}");
    for c in COMMANDS {
        assert_has(&text, &format!("| {c} vs {c} \\["));
    }
    assert_eq!(
        text.contains("**✗ The gate fails:**"),
        run.code == Some(7),
        "{text}"
    );
    let step = std::fs::read_to_string(&step).unwrap();
    assert_eq!(
        step,
        format!("earlier step\n{text}"),
        "appended to, not replaced"
    );
}

#[test]
fn one_command_is_summarized_without_a_verdict_and_printed_with_dash() {
    let _serial = serial();
    let run = bench_with_step(
        &["-r", "3", "--summary", "-", "--export", "bmf=-", "true"],
        None,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_has(&run.stdout, "### Picollo: 1 measured, no comparison\n");
    assert_has(&run.stdout, "| true | ");
    assert_has(&run.stdout, "{\"true\":{\"latency\":{\"value\":");
}

#[test]
fn the_dashboards_chart_every_command_compared_with_the_first() {
    let _serial = serial();
    // Two commands are two benchmarks: both charted, with or without --export-base (only
    // the base side of --builds is left out: tests/bench_builds.rs).
    for (extra, names) in [
        (None, vec!["new", "old"]),
        (Some("--export-base"), vec!["new", "old"]),
    ] {
        let mut args = vec!["-r", "3", "-n", "old", "-n", "new", "--export", "bmf=-"];
        args.extend(extra);
        args.extend(["sleep 0.001", "sleep 0.002"]);
        let run = bench_with_step(&args, None);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let line = run.stdout.lines().find(|l| l.starts_with("{\"")).unwrap();
        let bmf: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).unwrap();
        // The map's keys come sorted.
        let keys: Vec<&str> = bmf.keys().map(String::as_str).collect();
        assert_eq!(keys, names, "{line}");
    }
}

#[test]
fn outputs_that_cannot_be_written_and_unknown_formats_are_refused_before_any_run() {
    let refused = [
        (
            &["--export", "csv=x.csv", "true"][..],
            2,
            "unknown format \"csv\": the formats are bmf, github, gbench, picollo, junit",
        ),
        (
            &["--export", "bmf", "true"],
            2,
            "\"bmf\" is not FORMAT=PATH",
        ),
        (&["--export", "bmf=", "true"], 2, "names no file after '='"),
        (
            &["--summary", "/nonexistent/dir/s.md", "true"],
            3,
            "/nonexistent/dir/s.md: No such file or directory",
        ),
        (
            &["--export", "gbench=/nonexistent/g.json", "true"],
            3,
            "/nonexistent/g.json: No such file",
        ),
    ];
    for (args, code, message) in refused {
        let run = bench_with_step(args, None);
        assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
        assert_has(&run.stderr, message);
        assert!(run.stdout.is_empty(), "no run: {}", run.stdout);
    }
    let run = bench_with_step(&["true"], Some(Path::new("/nonexistent/step.md")));
    run.assert_exit(
        3,
        "GITHUB_STEP_SUMMARY (/nonexistent/step.md): No such file or directory",
    );
    assert!(run.stdout.is_empty(), "no run: {}", run.stdout);
}

#[test]
fn a_baseline_that_compares_nothing_exits_5() {
    let _serial = serial();
    let base = fresh_temp("ci-failed-base.json");
    let base = base.to_str().unwrap();
    let saved = bench(&["-r", "2", "--save", base, "--summary", "-", "exit 3"]);
    assert_eq!(saved.code, Some(6), "{}", saved.stderr);
    assert_has(
        &saved.stdout,
        "**✗ Not measured:**\n\n- exit 3: warm-up run 1 of 1 ended with exit status: 3\n",
    );
    let run = bench(&["-r", "2", "--baseline", base, "true"]);
    run.assert_exit(
        5,
        &format!("{base} holds no measured result at the place of any command of this run"),
    );
}
