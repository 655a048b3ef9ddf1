//! `picollo bench` in interleaved rounds: A/A comparisons of identical commands, the runs of
//! each round side by side in time, commands without a shell, the shell's start
//! subtracted, and the CI gate of a saved baseline judged on runs apart (exit 7 only for a
//! slower command; no verdict from one run apart; identical code gated in later processes).

mod common;

use common::{assert_has, bench, bench_json, fresh_temp, json_of, serial, temp};

/// A command that keeps a CPU busy for about 10 ms (awk's own loop, no sleep).
const BUSY: &str = "awk 'BEGIN { for (i = 0; i < 200000; i++) s += i }'";

#[test]
fn identical_commands_compared_twenty_times_see_no_difference() {
    let _serial = serial();
    // A 99 % interval misses 0 about once in 100; the exact rate is tested on a simulated
    // meter (bench/tests/verdicts.rs). On the real machine this test only catches a broken
    // method (20 of 20, as once): at most 9 of 20 not "no difference" (interleaved, p_max
    // 0.10), so correct code fails with P = 7.2e-6 (docs/testing.md).
    let mut verdicts = Vec::new();
    for _ in 0..20 {
        let (run, json) = bench_json("aa.json", &["--runs", "10", BUSY, BUSY]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let v = json_of(&json);
        assert_eq!(v["comparisons"][0]["paired"], true);
        verdicts.push(v["comparisons"][0]["verdict"].as_str().unwrap().to_string());
    }
    println!("20 A/A comparisons of commands: {verdicts:?}");
    let same = verdicts.iter().filter(|v| *v == "no difference").count();
    assert!(same >= 11, "{verdicts:?}");
}

#[test]
fn each_round_runs_every_command_before_the_next_round_starts() {
    let _serial = serial();
    let args = ["--runs", "8", "--warmup", "0", "true", "sleep 0.01"];
    let (run, json) = bench_json("rounds.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v = json_of(&json);
    let rounds = |i: usize| {
        v["commands"][i]["result"]["rounds"]
            .as_array()
            .unwrap()
            .clone()
    };
    let (a, b) = (rounds(0), rounds(1));
    assert_eq!((a.len(), b.len()), (8, 8));
    let start = |r: &serde_json::Value| r["start"].as_f64().unwrap();
    let end = |r: &serde_json::Value| start(r) + r["length"].as_f64().unwrap();
    for i in 0..7 {
        let this_round_ends = end(&a[i]).max(end(&b[i]));
        assert!(
            this_round_ends <= start(&a[i + 1]).min(start(&b[i + 1])),
            "round {i}"
        );
    }
    let pairing = &v["commands"][0]["result"]["pairing"];
    assert!(pairing.is_string() && *pairing == v["commands"][1]["result"]["pairing"]);
    assert!(run
        .stdout
        .contains("Method: 8 interleaved rounds, true and sleep 0.01"));
    assert!(run
        .stdout
        .contains("- baseline: the medians of `sh -c ''` (the shell's start) subtracted"));
}

#[test]
fn a_command_runs_without_a_shell_with_n() {
    let _serial = serial();
    let run = bench(&["-N", "--runs", "3", "sleep 0.01", "sleep 0.02"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stdout.contains("- baseline:"), "nothing to subtract");
    assert!(run.stdout.contains("##### sleep 0.02 against sleep 0.01"));
    assert!(run.stdout.contains("verdict: not enough rounds to judge"));
    let shell = bench(&["--shell", "none", "--runs", "1", "printf '%s' 'a b'"]);
    assert_eq!(shell.code, Some(0), "{}", shell.stderr);
    let missing = bench(&["-N", "--runs", "2", "--warmup", "0", "no-such-program-here"]);
    assert_eq!(missing.code, Some(6), "{}", missing.stderr);
    assert_has(
        &missing.stdout,
        "measured run 1 of 2 could not start: no-such-program-here: No such file or directory",
    );
    let (_, json) = bench_json(
        "missing.json",
        &["-N", "--runs", "1", "no-such-program-here"],
    );
    let failed = &json_of(&json)["commands"][0]["failed"];
    assert_eq!(failed["code"], 127);
    assert_has(
        failed["notStarted"].as_str().unwrap(),
        "No such file or directory",
    );
    assert!(
        !missing.stderr.contains("--show-output"),
        "{}",
        missing.stderr
    );
    // A file that is not executable: EACCES, named.
    let plain = temp("not-executable");
    std::fs::write(&plain, "true\n").unwrap();
    let denied = bench(&["-N", "--runs", "1", plain.to_str().unwrap()]);
    assert_eq!(denied.code, Some(6), "{}", denied.stderr);
    assert_has(&denied.stdout, "could not start: ");
    assert_has(&denied.stdout, "Permission denied");
    // A shell that is not there: a usage error that names it, before any run.
    let shell = bench(&["--shell", "no-such-shell-here", "--runs", "1", "true"]);
    assert_eq!(shell.code, Some(2), "{}", shell.stderr);
    assert_has(
        &shell.stderr,
        "--shell no-such-shell-here: not found in PATH",
    );
    let plain_shell = format!("--shell={}", plain.display());
    let not_a_shell = bench(&[&plain_shell, "--runs", "1", "true"]);
    assert_eq!(not_a_shell.code, Some(2), "{}", not_a_shell.stderr);
    assert_has(
        &not_a_shell.stderr,
        "not-executable: not an executable file",
    );
    let failing = bench(&["--runs", "1", "--warmup", "0", "exit 3"]);
    assert_eq!(failing.code, Some(6), "{}", failing.stderr);
    assert_has(
        &failing.stdout,
        "measured run 1 of 1 ended with exit status: 3",
    );
    let unclosed = bench(&["-N", "--runs", "2", "sleep '1"]);
    unclosed.assert_exit(2, "its quotes do not close");
    assert_eq!(bench(&["-N", "--shell", "bash", "true"]).code, Some(2));
}

#[test]
fn names_stand_for_commands_in_the_reports_verdicts_log_and_json() {
    let _serial = serial();
    let log = temp("named.hlog");
    let args = [
        "-N",
        "--runs",
        "3",
        "-n",
        "short",
        "--name",
        "long",
        "sleep 0.001",
        "sleep 0.002",
        "true",
        "--export-log",
        log.to_str().unwrap(),
    ];
    let (run, json) = bench_json("named.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_has(&run.stdout, "##### short\n");
    assert_has(&run.stdout, "##### long against short");
    // A command without a name goes by its text.
    assert_has(&run.stdout, "##### true against short");
    assert!(!run.stdout.contains("##### sleep"), "{}", run.stdout);
    let v = json_of(&json);
    let command = |i: usize, key: &str| v["commands"][i][key].as_str().unwrap().to_string();
    assert_eq!(
        (command(0, "name"), command(0, "command")),
        ("short".into(), "sleep 0.001".into())
    );
    assert_eq!(
        (command(2, "name"), command(2, "command")),
        ("true".into(), "true".into())
    );
    let line = v["comparisons"][0]["line"].as_str().unwrap();
    assert_has(line, "long against short");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_has(&text, "#cmd1: short (sleep 0.001)");
    assert_has(&text, "#cmd3: true\n");
    // More names than commands, or an empty one: usage errors.
    let many = bench(&["-n", "a", "-n", "b", "--runs", "1", "true"]);
    many.assert_exit(2, "2 names (--name) for 1 commands");
    let empty = bench(&["-n", " ", "--runs", "1", "true"]);
    empty.assert_exit(2, "--name: a name cannot be empty");
}

#[test]
fn a_bench_log_starts_at_0_and_report_names_the_tag_to_pass() {
    let _serial = serial();
    let log = temp("starts.hlog");
    for seed in ["1", "2", "3", "4"] {
        let args = [
            "-N",
            "--runs",
            "3",
            "--seed",
            seed,
            "sleep 0.01",
            "sleep 0.02",
        ];
        let run = bench(&[&args[..], &["--export-log", log.to_str().unwrap()]].concat());
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        // Whichever command ran first, the log's times start at 0: none before it.
        let untagged = common::picollo(&["report", log.to_str().unwrap()], None);
        untagged.assert_exit(5, "spanning 0–");
        assert_has(
            &untagged.stderr,
            "; pass --tag cmd1:time (or another tag above)",
        );
        let cmd2 = common::picollo(
            &[
                "report",
                log.to_str().unwrap(),
                "--tag",
                "cmd2:time",
                "--from",
                "0",
            ],
            None,
        );
        assert_eq!(cmd2.code, Some(0), "seed {seed}: {}", cmd2.stderr);
    }
}

/// Saves `command` `runs` times into `path` (`--save --append`): `runs` runs apart.
fn save_runs_apart(path: &str, command: &str, runs: usize) {
    for _ in 0..runs {
        let saved = bench(&["--runs", "10", "--save", path, "--append", command]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    }
    let v = json_of(std::path::Path::new(path));
    assert_eq!(
        v["commands"][0]["runsApart"].as_array().unwrap().len(),
        runs
    );
}

#[test]
fn a_saved_baseline_gates_only_a_slower_command() {
    let _serial = serial();
    let base = fresh_temp("base.json");
    let path = base.to_str().unwrap();
    // Commands 10x and 5x apart, against 8 runs apart: on a loaded machine the scheduler
    // adds milliseconds to every sleep, differently in each run apart (a spread of 18 % was
    // seen between 5 runs apart, whose interval then held +128 %); these verdicts hold to a
    // spread of about 35 %.
    save_runs_apart(path, "sleep 0.05", 8);
    let slower = bench(&["--runs", "10", "--baseline", path, "sleep 0.5"]);
    assert_eq!(slower.code, Some(7), "{}", slower.stdout);
    assert_has(
        &slower.stderr,
        "command 1 is slower than its baseline: verdict: sleep 0.5 is slower than sleep 0.05 [",
    );
    assert_has(&slower.stdout, "Method: runs apart as the unit");
    assert_has(
        &slower.stdout,
        "against the median round times of 8 runs apart of sleep 0.05 [",
    );
    assert_has(&slower.stdout, "] (their spread between runs ");
    assert_has(
        &slower.stdout,
        "The table above compares the two runs' rounds.",
    );
    // 10 ms, not 1: a loaded machine's shell start varies by milliseconds, and a run below
    // the shell's median start is floored at 0, which has no change to judge.
    let faster = bench(&["--runs", "10", "--baseline", path, "sleep 0.01"]);
    assert_eq!(faster.code, Some(0), "{}", faster.stderr);
    assert_has(&faster.stdout, "is faster than sleep 0.05 [");
    let args = [
        "--runs",
        "10",
        "--threshold",
        "10",
        "--baseline",
        path,
        "sleep 0.05",
    ];
    // The same command gated: not slower in one of up to 12 gates (runs apart, p_max 0.40:
    // correct code fails with P = 1.7e-5, docs/testing.md); a gate that calls identical code
    // slower every time fails.
    let mut verdicts = Vec::new();
    for _ in 0..12 {
        let (same, json) = bench_json("gate.json", &args);
        assert!(matches!(same.code, Some(0 | 7)), "{}", same.stderr);
        let v = json_of(&json);
        assert_eq!(v["comparisons"][0]["baseline"], "saved:cmd1");
        assert_eq!(v["comparisons"][0]["paired"], false);
        assert_eq!(v["comparisons"][0]["threshold"], 10.0);
        let verdict = v["comparisons"][0]["verdict"].as_str().unwrap().to_string();
        assert_eq!(same.code == Some(7), verdict == "slower", "{}", same.stdout);
        verdicts.push(verdict);
        if verdicts.last().unwrap() != "slower" {
            break;
        }
    }
    assert_ne!(verdicts.last().unwrap(), "slower", "{verdicts:?}");
}

#[test]
fn a_baseline_of_one_run_apart_is_not_judged() {
    let _serial = serial();
    let base = temp("one-run.json");
    let path = base.to_str().unwrap();
    let saved = bench(&["--runs", "10", "--save", path, "sleep 0.01"]);
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    // Three times slower, but one saved run says nothing of the spread between runs.
    let run = bench(&["--runs", "10", "--baseline", path, "sleep 0.03"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_has(
        &run.stdout,
        "verdict: not enough runs apart to judge sleep 0.03 against sleep 0.01 [",
    );
    assert_has(
        &run.stdout,
        "the baseline holds 1 and the spread between runs needs 2",
    );
    assert_has(
        &run.stderr,
        "command 1 not judged against its baseline: it holds 1 run(s)",
    );
    // --append adds to the file only for the same commands.
    let other = bench(&["--runs", "2", "--save", path, "--append", "sleep 0.02"]);
    assert_eq!(other.code, Some(2), "{}", other.stderr);
    assert_has(
        &other.stderr,
        "was saved from the commands [\"sleep 0.01\"]",
    );
    assert_eq!(bench(&["--runs", "2", "--append", "true"]).code, Some(2));
    let v = json_of(&base);
    assert_eq!(v["commands"][0]["runsApart"].as_array().unwrap().len(), 1);
    let mut broken = v.clone();
    broken["commands"][0]["runsApart"] = serde_json::json!([1.0, -3.0]);
    let bad = temp("bad-runs.json");
    std::fs::write(&bad, broken.to_string()).unwrap();
    let run = bench(&["--runs", "2", "--baseline", bad.to_str().unwrap(), "true"]);
    run.assert_exit(4, "not a median time of 0 or more");
}

#[test]
fn identical_code_gated_in_later_processes_rarely_fails() {
    let _serial = serial();
    // The identical command gated twenty times, each a new process, against a baseline that
    // grows as a CI job's does: one run apart appended every third gate, from the first on.
    // How often such gates call identical code slower is a figure of the machine, not of the
    // code (on a 2-core VM whose speed steps 1.8x for seconds at a time, a few runs saved
    // within seconds can all catch one level): scripts/measure.sh prints it, and the gate's
    // rate is tested on simulated runs apart (bench/tests/apart.rs). Here only a broken
    // method fails (the old gate on one run's rounds: 20 of 20): at most 16 slower of 20
    // (runs apart, p_max 0.40), so correct code fails with P = 4.7e-5 (docs/testing.md).
    // The gates against one run apart are not judged, nor counted.
    let base = fresh_temp("aa-apart.json");
    let path = base.to_str().unwrap();
    let mut verdicts = Vec::new();
    for gate in 0..23 {
        if gate % 3 == 0 && gate <= 18 {
            let saved = bench(&["--runs", "10", "--save", path, "--append", BUSY]);
            assert_eq!(saved.code, Some(0), "{}", saved.stderr);
        }
        let (run, json) = bench_json("aa-gate.json", &["--runs", "10", "--baseline", path, BUSY]);
        assert!(matches!(run.code, Some(0 | 7)), "{}", run.stderr);
        let verdict = json_of(&json)["comparisons"][0]["verdict"]
            .as_str()
            .unwrap()
            .to_string();
        match gate {
            0..=2 => assert_eq!(verdict, "not enough runs apart"),
            _ => verdicts.push(verdict),
        }
    }
    let slower = verdicts.iter().filter(|v| *v == "slower").count();
    println!("20 gates of identical code against 2 to 7 runs apart: {verdicts:?}");
    assert!(slower <= 16, "{verdicts:?}");
}

#[test]
fn a_baseline_that_is_not_a_saved_run_is_refused() {
    let _serial = serial();
    let bad = temp("not-json.json");
    std::fs::write(&bad, "{\"commands\": 3}").unwrap();
    let run = bench(&["--runs", "2", "--baseline", bad.to_str().unwrap(), "true"]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert_has(
        &run.stderr,
        "not the JSON picollo bench writes: not a picollo-bench document",
    );
    // Of the schema, but its commands are no list: serde names what it found.
    std::fs::write(&bad, "{\"schema\":\"picollo-bench\",\"commands\": 3}").unwrap();
    let run = bench(&["--runs", "2", "--baseline", bad.to_str().unwrap(), "true"]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert_has(
        &run.stderr,
        "invalid type: integer `3`, expected a sequence",
    );
    let missing = bench(&[
        "--runs",
        "2",
        "--baseline",
        "/nonexistent/base.json",
        "true",
    ]);
    assert_eq!(missing.code, Some(3), "{}", missing.stderr);
    for threshold in ["-1", "nan", "x"] {
        assert_eq!(
            bench(&["--threshold", threshold, "true"]).code,
            Some(2),
            "{threshold}"
        );
    }
}
