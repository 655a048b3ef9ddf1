//! `picollo bench`: whole commands measured, compared with a verdict; failing commands
//! reported and not measured; usage errors; the log and the JSON it writes.

mod common;

use common::{assert_has, bench, bench_json, fresh_temp, json_of, serial, temp, Run};
use picollo::hdr::LogReader;

// Five times longer: on a machine loaded with other work the rounds' noise floor reached 61 %,
// and a sleep twice as long (+100 %) was then held within it.
#[test]
fn a_five_times_longer_sleep_is_called_slower() {
    let _serial = serial();
    let run = bench(&["--runs", "15", "sleep 0.01", "sleep 0.05"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let last = run.stdout.lines().rev().find(|l| !l.is_empty()).unwrap();
    assert!(
        last.starts_with("verdict: sleep 0.05 is slower than sleep 0.01 by "),
        "{last}"
    );
    assert!(last.ends_with("% (99 % confidence)"), "{last}");
    assert!(
        run.stdout.starts_with("##### sleep 0.01\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\n##### sleep 0.05\n"));
    assert!(run.stdout.contains("##### sleep 0.05 against sleep 0.01"));
    assert!(run
        .stdout
        .contains("15 runs measured, after 1 warm-up run(s)"));
    assert!(
        run.stderr.is_empty(),
        "no progress bar off a terminal: {}",
        run.stderr
    );
}

#[test]
fn a_command_that_exits_non_zero_is_reported_not_timed() {
    let _serial = serial();
    let run = bench(&["--runs", "3", "--warmup", "0", "true", "exit 3"]);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    assert_has(
        &run.stdout,
        "##### exit 3\n- not measured: measured run 1 of 3 ended with exit status: 3\n",
    );
    assert_eq!(
        run.stdout.matches("\n| time (").count(),
        1,
        "true alone is timed"
    );
    assert!(!run.stdout.contains("verdict:"), "nothing to compare");
    assert_has(
        &run.stderr,
        "picollo: command 2 (\"exit 3\") not measured: measured run 1 of 3 ended with \
             exit status: 3",
    );
}

#[test]
fn the_run_that_failed_is_named_warm_up_or_measured() {
    let _serial = serial();
    let flag = fresh_temp("ran-once");
    let script = format!(
        "test -e {0} || {{ touch {0}; exit 0; }}; exit 4",
        flag.display()
    );
    let run = bench(&["--runs", "3", "--warmup", "0", &script]);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    assert!(run
        .stdout
        .contains("- not measured: measured run 2 of 3 ended with exit status: 4"));
    let run = bench(&["--runs", "3", "--warmup", "2", "kill -9 $$"]);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    assert_has(
        &run.stdout,
        "warm-up run 1 of 2 ended with signal: 9 (SIGKILL)",
    );
    assert!(!run.stdout.contains("| time ("));
}

#[test]
fn bad_options_exit_2() {
    for args in [
        &["--runs", "0", "true"][..],
        &["--runs", "many", "true"],
        &["--warmup", "-1", "true"],
        &["--bogus", "true"],
        &[],
    ] {
        let run = bench(args);
        assert_eq!(run.code, Some(2), "bench {args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "bench {args:?}: {}", run.stdout);
        assert!(
            run.stderr.starts_with("error: "),
            "bench {args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn the_log_has_one_tagged_interval_per_command_and_metric() {
    let _serial = serial();
    let log = temp("two.hlog");
    let path = log.to_str().unwrap();
    let run = bench(&["--runs", "4", "--export-log", path, "true", "sleep 0.01"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    let entries: Vec<_> = LogReader::new(&text).collect::<Result<_, _>>().unwrap();
    let tags: Vec<&str> = entries.iter().filter_map(|e| e.tag.as_deref()).collect();
    for tag in [
        "cmd1:time",
        "cmd1:user",
        "cmd1:system",
        "cmd2:time",
        "cmd2:Software:TaskClock",
    ] {
        assert!(tags.contains(&tag), "{tag} in {tags:?}");
    }
    assert_eq!(tags.len(), entries.len(), "every interval is tagged");
    assert!(entries.iter().all(|e| e.histogram.total_count() == 4));
    assert!(text.contains("#cmd2: sleep 0.01\n"));
    let report = common::ok(&["report", "--tag", "cmd2:time", "--unit-ratio", "1e9", path]);
    assert!(report.contains("tag cmd2:time, 1 interval"), "{report}");
    let median = report.lines().find(|l| l.starts_with("| 50 ")).unwrap();
    let ms: f64 = median
        .split('|')
        .nth(2)
        .unwrap()
        .trim()
        .replace(',', "")
        .parse()
        .unwrap();
    // The log's unit is the report's (ms here): 10 ms of sleep less the shell's start, which
    // a loaded machine moves by a few ms either way, is far inside 1–1,000 ms, and a unit
    // off by 1,000 either way is far outside.
    assert!(
        (1.0..1_000.0).contains(&ms),
        "sleep 0.01, less the shell's start, in ms: {median}"
    );
}

#[test]
fn the_json_holds_every_command_its_counters_and_the_comparisons() {
    let _serial = serial();
    let args = ["--runs", "10", "true", "exit 7", "sleep 0.05"];
    let (run, json) = bench_json("three.json", &args);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    let v = json_of(&json);
    let commands = v["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 3);
    assert_eq!(commands[1]["tag"], "cmd2");
    assert_eq!(commands[1]["failed"]["code"], 7);
    assert_eq!(commands[1]["failed"]["warmUp"], true);
    let third = &commands[2]["result"];
    assert_eq!(third["samples"], 10);
    let metrics = third["metrics"].as_array().unwrap();
    let faults = metrics
        .iter()
        .find(|m| m["name"] == "Software:PageFaults")
        .expect("software counters open on any Linux");
    let p0 = faults["summary"]["percentiles"][0]["value"]
        .as_f64()
        .unwrap();
    assert!(
        p0 > 0.0,
        "every run of the command faults in pages: {faults}"
    );
    let comparisons = v["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 1, "the failed command is not compared");
    assert_eq!(comparisons[0]["tag"], "cmd3");
    assert_eq!(comparisons[0]["verdict"], "slower");
}

#[test]
fn without_its_baseline_nothing_is_compared() {
    let _serial = serial();
    let run = bench(&["--runs", "2", "--warmup", "0", "exit 1", "true", "true"]);
    assert_eq!(run.code, Some(6), "{}", run.stderr);
    assert!(run
        .stdout
        .contains("No comparison: the first command, the baseline, was not measured."));
    assert!(!run.stdout.contains("verdict:"), "{}", run.stdout);
    assert_eq!(run.stdout.matches("\n| time (").count(), 2);
}

#[test]
fn what_the_commands_write_is_discarded_unless_shown() {
    let _serial = serial();
    let echo = "echo out-of-the-command; echo err-of-the-command >&2";
    let quiet = bench(&["--runs", "2", echo]);
    assert_eq!(quiet.code, Some(0), "{}", quiet.stderr);
    let lines = |text: &str, line: &str| text.lines().filter(|l| *l == line).count();
    assert_eq!(lines(&quiet.stdout, "out-of-the-command"), 0);
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let shown = bench(&["--runs", "2", "--show-output", echo]);
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    assert_eq!(
        lines(&shown.stdout, "out-of-the-command"),
        3,
        "a warm-up and 2 runs"
    );
    assert_eq!(lines(&shown.stderr, "err-of-the-command"), 3);
    let failed = bench(&["--runs", "2", "exit 1"]);
    assert!(failed
        .stderr
        .contains("(--show-output shows what the commands write)"));
}

/// A shell (at a temporary path named `name`) whose start alone (`-c ''`) takes 250 ms
/// longer than any command it runs: every run of a command lies below the shell's median,
/// and the subtraction floors it, unless that run stalls for longer than 250 ms (a loaded
/// VM's stalls of tens of milliseconds leave every run floored).
fn slow_to_start_shell(name: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = fresh_temp(name);
    std::fs::write(&path, "#!/bin/sh\n[ -n \"$2\" ] || sleep 0.25\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The metric `name` of command `i`'s result in the JSON `v`.
fn metric<'a>(v: &'a serde_json::Value, i: usize, name: &str) -> &'a serde_json::Value {
    let metrics = v["commands"][i]["result"]["metrics"].as_array().unwrap();
    let found = metrics.iter().find(|m| m["name"] == name);
    found.unwrap_or_else(|| panic!("no {name} in {metrics:?}"))
}

#[test]
fn runs_below_the_shells_start_are_flagged_as_floored_not_shown_as_zero() {
    let _serial = serial();
    let shell = slow_to_start_shell("slow-sh");
    let shell = shell.to_str().unwrap();
    let html = temp("floored.html");
    let html = html.to_str().unwrap();
    let args = [
        "--runs", "6", "--warmup", "0", "--shell", shell, "--html", html, "true", ":",
    ];
    let (run, json) = bench_json("floored.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v = json_of(&json);
    let base = format!("`{shell} -c ''` (the shell's start)");
    for i in 0..2 {
        assert_eq!(v["commands"][i]["result"]["baseline"], base.as_str());
        let time = metric(&v, i, "time");
        assert_eq!(time["floored"], 6, "every run floored: {time}");
        assert_eq!(time["flagged"], true, "{time}");
        assert!(
            time["baseline"].as_u64().unwrap() >= 250_000_000_000,
            "{time}"
        );
    }
    // The report's row and warning, and the comparison's verdict line in the JSON.
    assert_has(&run.stdout, "floored 100.0 %");
    assert_has(
        &run.stdout,
        &format!(
            "- warning: time: floored at 0 in 6 of 6 runs (100.0 %): what was subtracted (the \
             median of {base}) exceeded what the run measured"
        ),
    );
    let line = v["comparisons"][0]["line"].as_str().unwrap();
    for side in [
        "[true's time: floored 100.0 %",
        "[:'s time: floored 100.0 %",
    ] {
        assert!(line.contains(side), "{line}");
    }
    // The page: the verdict's notes, and the warning above the time figures.
    let page = std::fs::read_to_string(html).unwrap();
    assert_has(&page, "[true&#39;s time: floored 100.0 %");
    assert_has(&page, "true: time: floored at 0 in 6 of 6 runs (100.0 %)");
}

#[test]
fn true_through_the_shell_floors_at_the_shells_start() {
    let _serial = serial();
    // `sh -c true` runs a builtin: it costs what the shell's start costs, give or take the
    // runs' noise, so about half its runs lie below the shell's median. All 60 above it
    // would take a cost well beyond the shell's own spread.
    let (run, json) = bench_json("true.json", &["--runs", "60", "true"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let time = metric(&json_of(&json), 0, "time").clone();
    assert!(time["floored"].as_u64().unwrap() > 0, "{time}");
    assert_eq!(time["flagged"], true, "{time}");
    let row = run
        .stdout
        .lines()
        .find(|l| l.starts_with("| time"))
        .unwrap();
    assert!(row.contains("floored"), "{row}");
    assert_has(&run.stdout, "- warning: time: floored at 0 in ");
}

#[test]
fn a_command_of_a_few_milliseconds_is_not_flagged() {
    let _serial = serial();
    let (run, json) = bench_json("sleep.json", &["--runs", "8", "sleep 0.005"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let time = metric(&json_of(&json), 0, "time").clone();
    assert_eq!(time["floored"], 0, "{time}");
    assert_eq!(time["belowResolution"], false, "{time}");
    assert_eq!(time["flagged"], false, "{time}");
    assert!(
        time["resolution"].as_u64().unwrap() > 0,
        "the shell's spread: {time}"
    );
    let row = run
        .stdout
        .lines()
        .find(|l| l.starts_with("| time"))
        .unwrap();
    assert!(
        !row.contains("floored") && !row.contains("resolution"),
        "{row}"
    );
    assert!(
        !run.stdout.contains("- warning: time: floored"),
        "{}",
        run.stdout
    );
}

/// `picollo bench --runs 3 --warmup 0 [--shell SHELL] MORE… true`.
fn true_3_runs(shell: Option<&str>, more: &[&str]) -> Run {
    let mut args = vec!["--runs", "3", "--warmup", "0"];
    args.extend(shell.map(|s| ["--shell", s]).into_iter().flatten());
    args.extend_from_slice(more);
    args.push("true");
    bench(&args)
}

#[test]
fn a_baseline_whose_runs_were_floored_at_0_has_nothing_to_judge() {
    let _serial = serial();
    let shell = slow_to_start_shell("slow-sh-saved");
    let shell = Some(shell.to_str().unwrap());
    let base = fresh_temp("floored-base.json");
    let path = base.to_str().unwrap();
    // Two runs apart saved, every run of each floored: their medians are 0, and say so.
    for _ in 0..2 {
        let saved = true_3_runs(shell, &["--save", path, "--append"]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    }
    let v = json_of(&base);
    let runs = v["commands"][0]["runsApart"].as_array().unwrap();
    let runs: Vec<f64> = runs.iter().map(|r| r.as_f64().unwrap()).collect();
    assert_eq!(runs, [0.0, 0.0]);
    let time = metric(&v, 0, "time");
    assert_eq!(time["floored"], 3, "{time}");
    assert_eq!(time["flagged"], true, "{time}");
    // The gate reads the file, judges nothing, says why, and passes (exit 0).
    let json = temp("floored-gate.json");
    let run = true_3_runs(
        shell,
        &["--baseline", path, "--json", json.to_str().unwrap()],
    );
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_has(
        &run.stderr,
        "command 1 not judged against its baseline: floored at 0, nothing to judge",
    );
    assert_has(&run.stdout, "verdict: nothing to judge true against true [");
    let v = json_of(&json);
    let line = v["comparisons"][0]["line"].as_str().unwrap();
    assert!(line.contains("a run's median was floored at 0"), "{line}");
    // A baseline saved through the usual shell (whatever its medians) against a new run that
    // is floored: nothing to judge either.
    let usual = fresh_temp("usual-shell-base.json");
    let usual = usual.to_str().unwrap();
    for _ in 0..2 {
        let saved = true_3_runs(None, &["--save", usual, "--append"]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    }
    let run = true_3_runs(shell, &["--baseline", usual]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_has(&run.stderr, "floored at 0, nothing to judge");
}

#[test]
fn a_baseline_whose_speed_probes_the_machine_does_not_match_is_not_judged() {
    let _serial = serial();
    let base = fresh_temp("probed-base.json");
    let path = base.to_str().unwrap();
    for _ in 0..2 {
        let saved = true_3_runs(Some("none"), &["--save", path, "--append"]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    }
    let mut v = json_of(&base);
    let probe = &mut v["commands"][0]["speedProbe"];
    assert_eq!(probe["workload"], "mul-xor-chain-100000", "{probe}");
    let runs = probe["runs"].as_array_mut().unwrap();
    assert_eq!(runs.len(), 2, "{probe}");
    // The saved runs as if the machine had run a thousand times slower then: no change of
    // `true` could clear a factor that large, so the gate cannot judge, and passes.
    for r in runs.iter_mut() {
        let ns = r.as_f64().unwrap();
        assert!(ns > 0.0, "{ns}");
        *r = serde_json::json!(ns * 1000.0);
    }
    std::fs::write(&base, v.to_string()).unwrap();
    let run = true_3_runs(Some("none"), &["--baseline", path]);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_has(
        &run.stderr,
        "command 1 not judged against its baseline (the gate passes it): verdict: not judged: ",
    );
    assert_has(
        &run.stderr,
        "the machine ran faster than in the saved runs: the speed probe took ",
    );
}
