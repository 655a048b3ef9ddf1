//! The sample suite (sample/main.rs, divan's idioms) run as `cargo bench` runs it: listed,
//! run once, filtered, skipped, and compared with itself.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The benchmarks the sample registers (its ignored ones aside), as divan names them.
const NAMES: [&str; 19] = [
    "allocates",
    "args::1",
    "args::2",
    "args::3",
    "both::u8::2",
    "consts::1",
    "consts::4",
    "counted",
    "group::local",
    "group::local_refs",
    "group::nested_renamed::values",
    "group::refs",
    "items",
    "plain",
    "renamed",
    "strs::a",
    "strs::bc",
    "types::u8",
    "types::u32",
];

fn sample(args: &[&str]) -> Output {
    sample_with(args, None)
}

fn sample_with(args: &[&str], trace: Option<&PathBuf>) -> Output {
    sample_env(args, trace, &[])
}

/// The sample run with `args` and divan's variables `vars` alone (none of this process's).
fn sample_env(args: &[&str], trace: Option<&PathBuf>, vars: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_picollo-divan-sample"));
    command.args(args).env_remove("PICOLLO_DIVAN_SAMPLE_TRACE");
    for (name, _) in std::env::vars().filter(|(n, _)| n.starts_with("DIVAN_")) {
        command.env_remove(name);
    }
    command.envs(vars.iter().copied());
    command.env_remove("PICOLLO_DIVAN_SAMPLE_PANIC");
    if let Some(t) = trace {
        command.env("PICOLLO_DIVAN_SAMPLE_TRACE", t);
    }
    command.output().expect("the sample runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The names `--list` printed.
fn listed(o: &Output) -> Vec<String> {
    assert!(o.status.success(), "{o:?}");
    let lines = stdout(o);
    let each = lines
        .lines()
        .map(|l| l.strip_suffix(": benchmark").expect(l));
    each.map(String::from).collect()
}

/// A fresh folder for one test's outputs.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("picollo-divan")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn list_names_each_benchmark_as_divan_does() {
    assert_eq!(listed(&sample(&["--list"])), NAMES);
    let ignored = listed(&sample(&["--list", "--ignored"]));
    assert_eq!(ignored, ["ignored_attr", "ignored_opt", "slow_inputs"]);
    let all = listed(&sample(&["--list", "--include-ignored"]));
    assert_eq!(all.len(), NAMES.len() + 3);
}

#[test]
fn test_mode_runs_each_body_once() {
    let trace = scratch("test_mode").join("trace");
    let out = sample_with(&["--test"], Some(&trace));
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    for name in NAMES {
        assert!(
            text.contains(&format!("bench {name} ... ok\n")),
            "{name}: {text}"
        );
    }
    let trace = std::fs::read_to_string(&trace).expect("the trace");
    let mut ran: Vec<&str> = trace.lines().collect();
    ran.sort_unstable();
    let mut want = NAMES.to_vec();
    want.sort_unstable();
    assert_eq!(ran, want);
}

#[test]
fn filters_skips_and_divan_flags_select_as_divan_does() {
    let args = listed(&sample(&["--list", "args"]));
    assert_eq!(args, ["args::1", "args::2", "args::3"]);
    let exact = listed(&sample(&["--list", "--exact", "args::2"]));
    assert_eq!(exact, ["args::2"]);
    let out = sample(&[
        "--list",
        "--skip",
        "^(group|args)",
        "--sample-count=3",
        "--timer",
        "os",
    ]);
    let kept = listed(&out);
    assert_eq!(kept.len(), NAMES.len() - 7);
    assert!(kept
        .iter()
        .all(|n| !n.starts_with("group") && !n.starts_with("args")));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--sample-count is accepted and ignored"),
        "{err}"
    );
    assert!(err.contains("--timer is accepted and ignored"), "{err}");
}

#[test]
fn bad_flags_are_usage_errors() {
    let out = sample(&["--list", "--skip"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--skip needs a value"));
    let out = sample(&["--list", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown flag --no-such-flag"));
}

#[test]
fn a_measured_run_carries_each_counter_as_throughput() {
    let dir = scratch("measured");
    let dir = dir.to_str().expect("a UTF-8 path");
    let args = [
        "--bench",
        "--budget",
        "0.05",
        "--warmup",
        "0.01",
        "--counters",
        "none",
    ];
    let names = ["--exact", "counted", "strs::bc", "plain"];
    let out = sample(&[&args[..], &["--out", dir], &names[..]].concat());
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let line = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or("");
    assert!(line("counted:").contains("B/s at P50"), "{text}");
    assert!(line("strs::bc:").contains("elem/s at P50"), "{text}");
    assert!(line("plain:").contains("B/s at P50"), "{text}");
}

#[test]
fn divans_variables_set_the_budget_and_the_counter_unless_a_flag_does() {
    let args = [
        "--bench",
        "--warmup",
        "0.01",
        "--counters",
        "none",
        "--exact",
        "plain",
    ];
    let vars = [("DIVAN_MAX_TIME", "0.05"), ("DIVAN_ITEMS_COUNT", "5")];
    let out = sample_env(&args, None, &vars);
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DIVAN_MAX_TIME=0.05 read as --max-time 0.05"),
        "{err}"
    );
    // `plain` counts bytes itself; DIVAN_ITEMS_COUNT gives every benchmark 5 items.
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("plain:"));
    assert!(line.unwrap_or("").ends_with(" elem/s at P50"), "{text}");
    // The command line's flag wins over its variable.
    let out = sample_env(
        &[&args[..], &["--bytes-count", "4"]].concat(),
        None,
        &[vars[0], ("DIVAN_BYTES_COUNT", "5")],
    );
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("plain:"));
    assert!(line.unwrap_or("").ends_with("B/s at P50"), "{text}");
    // A value divan would not read is a usage error that names its variable.
    let out = sample_env(&["--list"], None, &[("DIVAN_MIN_TIME", "abc")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: DIVAN_MIN_TIME=\"abc\""), "{err}");
}

/// The P50 of each metric of benchmark `name` in the run's document under `dir`, in
/// thousandths of its unit, by the metric's name.
fn medians(dir: &str, name: &str) -> Vec<(String, f64)> {
    let path = PathBuf::from(dir)
        .join("picollo-divan-sample")
        .join("results.json");
    let text = std::fs::read_to_string(path).expect("the run's document");
    let doc = picollo_bench::model::document::Document::read(&text).expect("a document");
    let command = doc.commands.into_iter().find(|c| c.name == name);
    let result = command
        .and_then(|c| c.result)
        .expect("a measured benchmark");
    let each = result
        .metrics
        .iter()
        .map(|m| (m.name.clone(), m.median().unwrap()));
    each.collect()
}

#[test]
fn the_alloc_profiler_counts_each_operations_allocations_beside_time() {
    let dir = scratch("alloc");
    let dir = dir.to_str().expect("a UTF-8 path");
    let args = [
        "--bench",
        "--budget",
        "0.05",
        "--warmup",
        "0.01",
        "--counters",
        "none",
    ];
    let names = ["--exact", "allocates", "items", "plain"];
    let out = sample(&[&args[..], &["--out", dir], &names[..]].concat());
    assert!(out.status.success(), "{out:?}");
    // `allocates` makes one Vec of 100 bytes an operation (figures in thousandths, within
    // the histogram's precision); `items` allocates only its inputs, which are not counted,
    // and `plain` nothing.
    let near = |v: f64, want: f64| (v - want).abs() <= want * 0.005;
    let figures = medians(dir, "allocates");
    let got = |m: &str| figures.iter().find(|(n, _)| n == m).map(|f| f.1);
    assert!(near(got("alloc:count").unwrap(), 1_000.0), "{figures:?}");
    assert!(near(got("alloc:bytes").unwrap(), 100_000.0), "{figures:?}");
    for name in ["items", "plain"] {
        let figures = medians(dir, name);
        let counts = figures.iter().filter(|(n, _)| n.starts_with("alloc:"));
        assert!(
            counts.clone().count() == 2 && counts.clone().all(|f| f.1 == 0.0),
            "{name}: {figures:?}"
        );
    }
}

#[test]
fn against_itself_each_benchmark_is_judged() {
    let dir = scratch("against");
    let me = env!("CARGO_BIN_EXE_picollo-divan-sample");
    let (dir, budget) = (dir.to_str().expect("a UTF-8 path"), "0.2");
    let args = [
        "--bench",
        "--against",
        me,
        "--budget",
        budget,
        "--processes",
        "1",
    ];
    let more = [
        "--counters",
        "none",
        "--threshold",
        "25",
        "--out",
        dir,
        "plain",
    ];
    let out = sample(&[&args[..], &more[..]].concat());
    // The exit status the verdict calls for: 7 where it says slower (an A/A of one process a
    // side and 0.2 s is now and then; the gate's A/A rate has its bounded tests in
    // bench/tests/suite.rs and bench/tests/verdicts.rs).
    let text = stdout(&out);
    let verdicts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("verdict: "))
        .collect();
    assert_eq!(verdicts.len(), 1, "{out:?}");
    assert!(verdicts[0].contains("plain"), "{out:?}");
    let slower = verdicts[0].contains(" is slower than ");
    assert_eq!(
        out.status.code(),
        Some(if slower { 7 } else { 0 }),
        "{out:?}"
    );
}

#[test]
fn a_benchmark_that_panics_fails_the_run() {
    let dir = scratch("panics");
    let dir = dir.to_str().expect("a UTF-8 path");
    let me = env!("CARGO_BIN_EXE_picollo-divan-sample");
    for mode in [
        &["--test"][..],
        &["--bench", "--budget", "0.05", "--out", dir],
    ] {
        let mut command = Command::new(me);
        command
            .args(mode)
            .args(["--ignored", "--exact", "ignored_opt"]);
        let out = command
            .env("PICOLLO_DIVAN_SAMPLE_PANIC", "1")
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(6), "{out:?}");
        let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        assert!(all.contains("asked to panic"), "{all}");
    }
}

/// `with_inputs` makes its inputs paused: inputs of 1 ms each, for an operation of almost
/// nothing, leave a median far below 1 ms (it fails for correct code only where the few
/// timed instructions took 100 µs at the median).
#[test]
fn inputs_are_made_outside_the_time() {
    let args = ["--bench", "--ignored", "--exact", "slow_inputs"];
    let more = ["--budget", "0.1", "--warmup", "0.02", "--counters", "none"];
    let out = sample(&[&args[..], &more[..]].concat());
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let p50: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("slow_inputs: time P50="))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no P50 in {text}"));
    assert!(p50 < 100_000.0, "P50 {p50} ns: the inputs' 1 ms was timed");
}
