//! A suite as its users run it: the sample suite (`examples/suite.rs`, which `cargo test`
//! builds) run as a program — its list, its filters, its test mode, a measurement and its
//! outputs (the document, an export, the summary, the step summary) — and two builds of it compared through `--against`, with workers that fail in
//! every way the protocol knows (each a clear message and exit status 9, never a hang).
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

mod common;

use common::{reported_median, TempDir};
use picollo_bench::suite::{Exit, Mode, Suite};
use picollo_bench::Throughput;

/// One process test at a time: the measurements must not share the two CPUs.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The sample suite cargo built beside this test (`target/<profile>/examples/suite`).
fn sample() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(Path::parent).unwrap();
    let path = profile.join("examples").join("suite");
    assert!(
        path.exists(),
        "{}: cargo test builds the examples",
        path.display()
    );
    path
}

/// A folder of this test's own, removed when the test ends.
fn temp(name: &str) -> TempDir {
    TempDir::new(&format!("suite-{name}"))
}

fn run(program: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(program);
    c.args(args).env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A short measurement's flags, with the outputs in `dir`.
fn short(dir: &Path) -> Vec<String> {
    let flags = [
        "--budget",
        "0.3",
        "--warmup",
        "0.05",
        "--counters",
        "none",
        "--out",
    ];
    let mut v: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    v.push(dir.to_str().unwrap().into());
    v
}

#[test]
fn the_list_the_filters_and_the_test_mode_are_the_runners_users_know() {
    let s = sample();
    let list = run(&s, &["--list"], &[]);
    let listed = String::from_utf8_lossy(&list.stdout).to_string();
    assert_eq!(listed, "sum 1000: benchmark\nspin 200: benchmark\n");
    let one = run(&s, &["--list", "spin"], &[]);
    assert_eq!(
        String::from_utf8_lossy(&one.stdout),
        "spin 200: benchmark\n"
    );
    let exact = run(&s, &["--list", "--exact", "spin"], &[]);
    assert_eq!(
        exact.status.code(),
        Some(Exit::NoMatch as i32),
        "{}",
        text(&exact)
    );
    assert!(text(&exact)
        .contains("no benchmark matches the filter (the benchmarks: sum 1000, spin 200)"));
    let regex = run(&s, &["--list", "--regex", "^s(um|pin) [0-9]+$"], &[]);
    assert_eq!(String::from_utf8_lossy(&regex.stdout), listed);
    let bad = run(&s, &["--regex", "(", "--list"], &[]);
    assert_eq!(bad.status.code(), Some(Exit::Usage as i32));
    assert!(
        text(&bad).contains("invalid value '(' for '--regex <RE>': not a regular expression"),
        "{}",
        text(&bad)
    );
    // cargo test --benches passes no --bench: each benchmark once, nothing timed.
    let once = run(&s, &[], &[]);
    assert_eq!(once.status.code(), Some(0), "{}", text(&once));
    assert!(text(&once).contains("bench spin 200 ... ok\nbench result: 2 ran once, 0 failed"));
    let panics = run(&s, &["--test"], &[("PICOLLO_SUITE_PANIC", "1")]);
    assert_eq!(panics.status.code(), Some(Exit::Failed as i32));
    assert!(text(&panics).contains("bench panics ... FAILED: as the test asked"));
    let path = run(&s, &["--bench", "--read-path", "fast"], &[]);
    assert_eq!(path.status.code(), Some(Exit::Usage as i32));
    assert!(text(&path).contains("--read-path fast: auto, user (rdpmc) or syscall (read)"));
    let unknown = run(&s, &["--bench", "--budgte", "1"], &[]);
    assert_eq!(unknown.status.code(), Some(Exit::Usage as i32));
    assert!(text(&unknown).contains("unknown flag --budgte"));
}

#[test]
fn a_measurement_prints_a_line_a_benchmark_and_writes_the_document() {
    let _serial = serial();
    let dir = temp("measure");
    let mut args = vec!["--bench".to_string(), "sum".into()];
    args.extend(short(&dir));
    let (bmf, summary, step) = (
        dir.join("bmf.json"),
        dir.join("summary.md"),
        dir.join("step.md"),
    );
    args.extend(["--export".into(), format!("bmf={}", bmf.display())]);
    args.extend(["--summary".into(), summary.display().to_string()]);
    std::fs::write(&step, "an earlier step\n").unwrap();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(
        &sample(),
        &args,
        &[("GITHUB_STEP_SUMMARY", step.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).starts_with("sum 1000: time P50="), "{}", text(&o));
    let doc = std::fs::read_to_string(dir.join("suite").join("results.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(v["schema"], "picollo-bench");
    assert_eq!(v["commands"][0]["name"], "sum 1000");
    assert!(v["commands"][0]["result"]["metrics"].is_array(), "{v}");
    // The export and the summary, and the summary appended to the step's.
    let bmf: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(bmf).unwrap())
        .expect("the bmf export is JSON");
    assert!(
        bmf["sum 1000"]["latency"]["value"].as_f64().unwrap() > 0.0,
        "{bmf}"
    );
    let summary = std::fs::read_to_string(summary).unwrap();
    assert!(summary.contains("| sum 1000 |"), "{summary}");
    let step = std::fs::read_to_string(step).unwrap();
    assert_eq!(step, format!("an earlier step\n{summary}"));
}

#[test]
fn two_benchmarks_of_one_name_and_a_name_with_a_newline_are_refused() {
    let mut s = Suite::new("dup");
    s.bench("a", || {}).bench("a", || {});
    let e = s
        .run_args(&["--list".into()], Mode::Once, &mut Vec::new())
        .unwrap_err();
    assert_eq!(e.exit, Exit::Usage);
    assert!(e.message.contains("two benchmarks are named \"a\""), "{e}");
    let mut s = Suite::new("newline");
    s.bench("a\nb", || {});
    let e = s.run_args(&[], Mode::Once, &mut Vec::new()).unwrap_err();
    assert!(
        e.message.contains("empty or with a control character"),
        "{e}"
    );
}

/// A copy of the sample suite in `dir` (byte-identical: a second build of the same source),
/// run through a script that leaves `PICOLLO_SUITE_SLOWER` out of its environment.
fn other_build(dir: &Path) -> PathBuf {
    let copy = dir.join("suite-base");
    std::fs::copy(sample(), &copy).unwrap();
    script(
        dir,
        "base.sh",
        &format!("unset PICOLLO_SUITE_SLOWER\nexec {} \"$@\"", copy.display()),
    )
}

/// An executable shell script at `dir/name`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `--against other` with a short measurement's flags and `more`.
fn against(other: &Path, dir: &Path, more: &[&str], env: &[(&str, &str)]) -> Output {
    let mut args = vec![
        "--bench".to_string(),
        "--against".into(),
        other.to_str().unwrap().into(),
    ];
    args.extend(short(dir));
    args.extend(more.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&sample(), &args, env)
}

#[test]
fn two_identical_builds_rarely_differ_and_a_build_eight_times_as_slow_fails_the_gate() {
    let _serial = serial();
    let dir = temp("against");
    let base = other_build(&dir);
    // Eight times the work in the head build: found slower, exit 7, in every round's pair
    // rather than by odds: a machine's speed step (a busy neighbour on the core's other
    // hardware thread) halves a round's speed at most, which hid twice the work in half the
    // rounds of one loaded run, and leaves eight times the work at least 4x. One process a
    // side: with the default three, judged on 2 x 3 processes, the 0.3 s budget leaves 5 ms
    // turns whose spread on a loaded machine is a measurement's matter.
    let bmf = dir.join("bmf.json");
    let export = format!("bmf={}", bmf.display());
    let slower = against(
        &base,
        &dir,
        &["--processes", "1", "--export", &export, "spin"],
        &[("PICOLLO_SUITE_SLOWER", "700")],
    );
    assert_eq!(
        slower.status.code(),
        Some(Exit::Slower as i32),
        "{}",
        text(&slower)
    );
    assert!(text(&slower).contains("verdict: spin 200 (head) is slower than spin 200 (base) by"));
    // A dashboard charts the benchmark once, under its name: the head; the document lists
    // both sides.
    let bmf: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(bmf).unwrap())
        .expect("the bmf export is JSON");
    let charted: Vec<&String> = bmf.as_object().unwrap().keys().collect();
    assert_eq!(charted, ["spin 200"], "{bmf}");
    let doc = std::fs::read_to_string(dir.join("suite").join("results.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    let commands = doc["commands"].as_array().unwrap().iter();
    let listed: Vec<&str> = commands.map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(listed, ["spin 200 (base)", "spin 200 (head)"], "{doc}");
    // Identical builds: 6 runs of 2 benchmarks; a broken method calls most of them
    // different. Rounds are interleaved between the two processes (the machine's speed
    // steps fall on both sides), but each process has a placement of its own (ASLR, its
    // environment), a bias no round averages: p_max 0.25, between one process's 0.10 and
    // runs apart's 0.40. At most 9 of 12 called different: correct code fails with
    // P = 3.8e-5 (binomial, docs/testing.md); the exact rate is the simulated test's
    // (verdicts.rs), the machine's `bench suites` line's.
    let mut different = 0;
    for _ in 0..6 {
        let aa = against(&base, &dir, &[], &[]);
        assert!(matches!(aa.status.code(), Some(0 | 7)), "{}", text(&aa));
        let t = text(&aa);
        assert_eq!(t.matches("verdict: ").count(), 2, "{t}");
        // The base is a script that runs a copy: another file, no warning.
        assert!(!t.contains("the two builds are the same file"), "{t}");
        // "not settled" claims no difference and none: only slower or faster is one.
        different += t.matches(" is slower than ").count() + t.matches(" is faster than ").count();
    }
    println!("bench suites: identical builds called different in {different} of 12 comparisons");
    assert!(different <= 9, "{different} of 12");
    // The copy itself holds this program's bytes: the run is told it is an A/A.
    let copy = dir.join("suite-base");
    let aa = against(&copy, &dir, &["--processes", "1", "spin"], &[]);
    let t = text(&aa);
    assert!(
        t.contains("warning: the two builds are the same file"),
        "{t}"
    );
    assert!(t.contains("this is an A/A comparison"), "{t}");
}

#[test]
fn a_comparison_of_builds_carries_each_sides_rate_in_its_line_and_its_json() {
    let _serial = serial();
    let dir = temp("rates");
    let base = other_build(&dir);
    let o = against(&base, &dir, &["--processes", "1"], &[]);
    assert!(matches!(o.status.code(), Some(0 | 7)), "{}", text(&o));
    let doc = std::fs::read_to_string(dir.join("suite").join("results.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    let rate_of = |name: &str| {
        let commands = doc["commands"].as_array().unwrap();
        let c = commands.iter().find(|c| c["name"] == name).unwrap();
        c["result"]["throughput"]["perSecond"].clone()
    };
    let comparisons = doc["comparisons"].as_array().unwrap();
    let of = |name: &str| comparisons.iter().find(|c| c["b"] == name).unwrap();
    // `sum 1000` declares 1000 elements an operation: each side's rate is its result's.
    let sum = &of("sum 1000 (head)")["throughput"];
    assert_eq!(sum["unit"], "elements", "{doc}");
    assert_eq!(sum["a"], rate_of("sum 1000 (base)"));
    assert_eq!(sum["b"], rate_of("sum 1000 (head)"));
    assert!(sum["a"].as_f64().unwrap() > 0.0, "{sum}");
    assert!(of("spin 200 (head)")["throughput"].is_null(), "{doc}");
    let t = text(&o);
    assert_eq!(t.matches("throughput at P50: ").count(), 1, "{t}");
    assert!(t.contains("throughput at P50: sum 1000 (base) "), "{t}");
}

#[test]
fn a_worker_that_fails_is_a_clear_error_never_a_hang_or_a_verdict() {
    let _serial = serial();
    let dir = temp("workers");
    let hello = |benchmarks: &str, protocol: u32| {
        format!("read line\necho '@picollo {{\"reply\":\"hello\",\"protocol\":{protocol},\"suite\":\"x\",\"benchmarks\":[{benchmarks}]}}'\nexec sleep 30")
    };
    let cases = [
        // However the pipes notice an exit (the request cannot be written, or no reply
        // can come), the message is the exit's.
        (
            "exits.sh",
            "exit 3".to_string(),
            "base: the worker exited: exit status: 3",
        ),
        (
            "closes.sh",
            "exec 0<&-\nsleep 0.2\nexit 4".to_string(),
            "base: the worker exited: exit status: 4",
        ),
        (
            "mute.sh",
            "exec 1>&-\nexec sleep 30".to_string(),
            "base: the worker closed its output and runs on",
        ),
        (
            "hangs.sh",
            "exec sleep 30".to_string(),
            "base: no reply within 1.0 s: killed",
        ),
        (
            "garbage.sh",
            "read line\necho '@picollo {not json'\nexec sleep 30".into(),
            "base: not a reply: key must be a string",
        ),
        (
            "version.sh",
            hello("\"sum 1000\"", 7),
            "base: the worker speaks protocol 7 and this suite 1",
        ),
        (
            "none.sh",
            hello("\"other\"", 1),
            "the two builds share no selected benchmark",
        ),
    ];
    for (name, body, message) in cases {
        let worker = script(&dir, name, &body);
        // Only the hung worker waits out its timeout: the others answer or exit at once, and
        // a loaded machine's stall of a second must not turn their message into a timeout's.
        let timeout: &[&str] = if name == "hangs.sh" {
            &["--worker-timeout", "1"]
        } else {
            &[]
        };
        let o = against(&worker, &dir, timeout, &[]);
        let code = if name == "none.sh" {
            Exit::NoMatch
        } else {
            Exit::Worker
        };
        assert_eq!(o.status.code(), Some(code as i32), "{name}: {}", text(&o));
        assert!(text(&o).contains(message), "{name}: {}", text(&o));
        assert!(!text(&o).contains("verdict"), "{name}: {}", text(&o));
        assert!(!text(&o).contains("same file"), "{name}: {}", text(&o));
    }
    // A worker that says hello and then answers nothing to the first benchmark.
    let silent = script(&dir, "silent.sh", &hello("\"sum 1000\"", 1));
    let o = against(&silent, &dir, &["--worker-timeout", "1"], &[]);
    assert_eq!(o.status.code(), Some(Exit::Worker as i32), "{}", text(&o));
    assert!(text(&o).contains("no reply within"), "{}", text(&o));
}

#[test]
fn a_benchmark_that_panics_in_either_build_fails_alone_and_the_rest_are_judged() {
    let _serial = serial();
    let dir = temp("panics");
    let base = other_build(&dir);
    let o = against(&base, &dir, &[], &[("PICOLLO_SUITE_PANIC", "1")]);
    assert_eq!(o.status.code(), Some(Exit::Failed as i32), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("panics: FAILED: base: benchmark \"panics\" panicked: as the test asked"),
        "{t}"
    );
    assert_eq!(t.matches("verdict: ").count(), 2, "{t}");
    // A benchmark the head has and the base does not is listed, not judged.
    let only = script(
        &dir,
        "only.sh",
        &format!("PICOLLO_SUITE_PANIC=0 exec {} \"$@\"", sample().display()),
    );
    let o = against(&only, &dir, &[], &[("PICOLLO_SUITE_PANIC", "1")]);
    assert!(
        text(&o).contains("panics: only in head: not judged"),
        "{}",
        text(&o)
    );
}

#[test]
fn functions_are_saved_run_apart_by_run_apart_and_a_baseline_file_is_checked() {
    let _serial = serial();
    let dir = temp("saved");
    let measure = |more: &[&str]| {
        let mut args = vec!["--bench".to_string(), "spin".into()];
        args.extend(short(&dir));
        args.extend(more.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&sample(), &args, &[])
    };
    let saved = measure(&["--save", "main"]);
    assert_eq!(saved.status.code(), Some(0), "{}", text(&saved));
    let file = dir.join("baselines").join("main.json");
    assert!(text(&saved).contains(&format!("saved as baseline main: {}", file.display())));
    let runs = |f: &Path| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        v["commands"][0]["runsApart"].as_array().unwrap().len()
    };
    assert_eq!(runs(&file), 1);
    // One run apart says nothing of the spread between runs: not judged, the gate passes.
    let one = measure(&["--baseline", "main"]);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one));
    assert!(text(&one)
        .contains("verdict: not enough runs apart to judge spin 200 against spin 200 [saved "));
    let appended = measure(&["--save", "main", "--append"]);
    assert_eq!(appended.status.code(), Some(0), "{}", text(&appended));
    assert_eq!(runs(&file), 2);
    std::fs::write(
        dir.join("baselines").join("bad.json"),
        "{\"schema\":\"other\"}",
    )
    .unwrap();
    let bad = measure(&["--baseline", "bad"]);
    assert_eq!(
        bad.status.code(),
        Some(Exit::Format as i32),
        "{}",
        text(&bad)
    );
    assert!(text(&bad).contains("not a document a suite's --save wrote"));
    let missing = measure(&["--baseline", "nothere"]);
    assert_eq!(
        missing.status.code(),
        Some(Exit::Io as i32),
        "{}",
        text(&missing)
    );
    let path = measure(&["--save", "../x"]);
    assert_eq!(path.status.code(), Some(Exit::Usage as i32));
    let both = measure(&["--save", "main", "--against", "/bin/true"]);
    assert_eq!(both.status.code(), Some(Exit::Usage as i32));
    assert!(text(&both).contains("--save and --baseline measure this build alone"));
}

/// A JSON file, read.
fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_baseline_run_shows_the_saved_rate_beside_its_own_and_names_a_changed_declaration() {
    let _serial = serial();
    let dir = temp("saved-rates");
    let measure = |more: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["--bench".to_string(), "--exact".into(), "sum 1000".into()];
        args.extend(short(&dir));
        args.extend(more.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&sample(), &args, env);
        // One run apart: not judged, exit 0.
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let doc = json(&dir.join("suite").join("results.json"));
        (text(&o), doc)
    };
    measure(&["--save", "main"], &[]);
    let file = dir.join("baselines").join("main.json");
    // The baseline keeps the throughput, and its rate at the median it reports.
    let kept = json(&file)["commands"][0]["result"].clone();
    let saved = &kept["throughput"];
    assert_eq!(
        (saved["unit"].as_str(), saved["perOperation"].as_u64()),
        (Some("elements"), Some(1000))
    );
    let saved_median = reported_median(&kept);
    let shown = |n: u64, ns: f64| Throughput::Elements(n).rate(ns).to_string();
    let saved_name = format!("sum 1000 [saved {}]", file.display());

    // Judged against it: each side's rate is its result's, the saved one as saved.
    let (out, doc) = measure(&["--baseline", "main"], &[]);
    let head = &doc["commands"][0]["result"];
    let c = &doc["comparisons"][0];
    assert_eq!(c["a"], saved_name.as_str(), "{doc}");
    assert_eq!(c["throughput"]["unit"], "elements", "{doc}");
    assert_eq!(c["throughput"]["a"], saved["perSecond"], "{doc}");
    assert_eq!(
        c["throughput"]["b"], head["throughput"]["perSecond"],
        "{doc}"
    );
    assert!(c["throughputDiffers"].is_null(), "{doc}");
    let line = format!(
        "\n  throughput at P50: {saved_name} {}, sum 1000 {}\n",
        shown(1000, saved_median),
        shown(1000, reported_median(head))
    );
    assert!(out.contains(&line), "{line:?} in {out}");

    // A file saved before the throughput was kept takes this run's declaration.
    let mut old = json(&file);
    let removed = old["commands"][0]["result"]
        .as_object_mut()
        .unwrap()
        .remove("throughput");
    assert!(removed.is_some());
    std::fs::write(dir.join("baselines").join("old.json"), old.to_string()).unwrap();
    let (_, doc) = measure(&["--baseline", "old"], &[]);
    let c = &doc["comparisons"][0];
    assert_eq!(c["throughput"]["a"], saved["perSecond"], "{doc}");
    assert_eq!(
        c["throughput"]["b"], doc["commands"][0]["result"]["throughput"]["perSecond"],
        "{doc}"
    );

    // Declared as 100 elements since: no rate compared, each declaration named.
    let (out, doc) = measure(
        &["--baseline", "main"],
        &[("PICOLLO_SUITE_ELEMENTS", "100")],
    );
    let c = &doc["comparisons"][0];
    assert!(c["throughput"].is_null(), "{doc}");
    let declared = |n: u64| serde_json::json!({"unit": "elements", "perOperation": n});
    assert_eq!(
        c["throughputDiffers"],
        serde_json::json!({"a": declared(1000), "b": declared(100)}),
        "{doc}"
    );
    let note = format!(
        "\n  throughput not compared: {saved_name} declares 1000 elements an operation, \
         sum 1000 declares 100 elements an operation (the verdict is on time)\n"
    );
    assert!(out.contains(&note), "{note:?} in {out}");
    assert!(!out.contains("throughput at P50"), "{out}");
    // This run's own line carries its own rate, of 100 elements.
    let head = &doc["commands"][0]["result"];
    let own = format!("; {} at P50", shown(100, reported_median(head)));
    assert!(out.contains(&own), "{own:?} in {out}");
}

#[test]
fn builds_a_side_and_processes_a_build_run_as_workers_each_and_are_judged_as_units() {
    let _serial = serial();
    let dir = temp("builds");
    let copy = |name: &str| {
        let path = dir.join(name);
        std::fs::copy(sample(), &path).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (b1, b2, h1, h2) = (copy("base1"), copy("base2"), copy("head1"), copy("head2"));
    let o = against(
        Path::new(&b1),
        &dir,
        &["--against", &b2, "--head", &h1, "--head", &h2, "spin"],
        &[],
    );
    assert!(matches!(o.status.code(), Some(0 | 7)), "{}", text(&o));
    let line = text(&o)
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .unwrap_or_default()
        .to_string();
    assert!(
        line.contains("spin 200 (base)") && line.contains("(99 %, 2 builds a side)"),
        "{line}"
    );
    let processes = against(Path::new(&b1), &dir, &["--processes", "2", "spin"], &[]);
    assert!(
        matches!(processes.status.code(), Some(0 | 7)),
        "{}",
        text(&processes)
    );
    assert!(
        text(&processes).lines().any(|l| l.starts_with("verdict: ")
            && l.contains("spin 200 (head)")
            && l.contains("(99 %, 2 processes a side)")),
        "{}",
        text(&processes)
    );
    let none = against(Path::new(&b1), &dir, &["--processes", "0"], &[]);
    assert_eq!(none.status.code(), Some(Exit::Usage as i32));
    assert!(text(&none).contains(
        "invalid value '0' for '--processes <N>': a count of worker processes a build, 1 to 16"
    ));
    let unbalanced = against(Path::new(&b1), &dir, &["--against", &b2], &[]);
    assert_eq!(unbalanced.status.code(), Some(Exit::Usage as i32));
    assert!(
        text(&unbalanced).contains("--against names 2 builds and this side has 1: give a --head")
    );
}

#[test]
fn the_head_worker_is_the_command_a_suite_names_when_its_program_is_not_the_suite() {
    use picollo_bench::suite::WorkerCommand;
    let _serial = serial();
    let dir = temp("command");
    let base = other_build(&dir);
    // This test's own program is no suite: without a command, the head would be it.
    let mut args = vec!["--against".to_string(), base.to_str().unwrap().into()];
    args.extend(short(&dir));
    args.push("sum 1000".into());
    let command = |program: &str| WorkerCommand {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), format!("exec {program} \"$@\""), "sh".into()],
    };
    let mut suite = Suite::new("command").with_worker(command(sample().to_str().unwrap()));
    suite.bench("sum 1000", || {
        panic!("the head is measured in its worker, not here")
    });
    let report = suite
        .run_args(&args, Mode::Measure, &mut Vec::new())
        .unwrap();
    assert_eq!(report.compared.len(), 1, "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let mut missing = Suite::new("command").with_worker(WorkerCommand {
        program: "/nonexistent/worker".into(),
        args: Vec::new(),
    });
    missing.bench("sum 1000", || {});
    let e = missing
        .run_args(&args, Mode::Measure, &mut Vec::new())
        .unwrap_err();
    assert_eq!(e.exit, Exit::Worker);
    assert!(
        e.message.contains("head: cannot start /nonexistent/worker"),
        "{e}"
    );
}

#[test]
fn a_benchmark_of_parameters_is_one_benchmark_a_parameter_each_filtered_and_run() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut suite = Suite::new("params");
    let log = Rc::clone(&seen);
    suite.bench_params("sum", [10u64, 1_000], move |&n| {
        log.borrow_mut().push(n);
        std::hint::black_box((0..n).sum::<u64>());
    });
    suite.bench("other", || {});
    assert_eq!(suite.names(), ["sum/10", "sum/1000", "other"]);
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();
    suite
        .run_args(&args(&["--test", "sum"]), Mode::Once, &mut out)
        .unwrap();
    assert_eq!(
        *seen.borrow(),
        [10, 1_000],
        "{}",
        String::from_utf8_lossy(&out)
    );
    seen.borrow_mut().clear();
    suite
        .run_args(
            &args(&["--test", "--exact", "sum/1000"]),
            Mode::Once,
            &mut out,
        )
        .unwrap();
    assert_eq!(*seen.borrow(), [1_000]);
    let mut listed = Vec::new();
    suite
        .run_args(&args(&["--list"]), Mode::Once, &mut listed)
        .unwrap();
    let listed = String::from_utf8(listed).unwrap();
    assert_eq!(
        listed,
        "sum/10: benchmark\nsum/1000: benchmark\nother: benchmark\n"
    );
}

/// Each flag a suite shares with `picollo bench` ([`picollo_bench::flags`]): its `--long
/// <VALUE>` as help shows it, and its help text.
fn shared_flags() -> Vec<(String, String)> {
    use clap::Args;
    use picollo_bench::flags::{CiFlags, GateFlags};
    let command = CiFlags::augment_args(GateFlags::augment_args(clap::Command::new("flags")));
    let each = command.get_arguments().map(|a| {
        let long = format!("--{}", a.get_long().unwrap());
        let shown = match (a.get_action().takes_values(), a.get_value_names()) {
            (true, Some(v)) => format!("{long} <{}>", v[0]),
            _ => long,
        };
        (shown, a.get_help().unwrap().to_string())
    });
    each.collect()
}

#[test]
fn help_and_h_print_the_suites_flags_with_those_picollo_bench_shares_and_exit_0() {
    for flag in ["--help", "-h"] {
        let o = run(&sample(), &[flag, "--list", "--budgte"], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let help = String::from_utf8_lossy(&o.stdout);
        assert!(
            help.contains("Usage: suite [OPTIONS] [FILTER]..."),
            "{help}"
        );
        assert!(help.contains("--against <SUITE>") && help.contains("--save <NAME>"));
        assert!(help.contains("  2  a bad argument"), "{help}");
        assert!(!help.contains("picollo-worker") && !help.contains("nocapture"));
        let shared = shared_flags();
        assert_eq!(shared.len(), 7);
        for (shown, says) in shared {
            assert!(help.contains(&shown), "{shown} not in {flag}: {help}");
            assert!(help.contains(&says), "{says:?} not in {flag}: {help}");
        }
    }
}

#[test]
fn the_guides_flag_list_is_a_suites_help() {
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/suites.md");
    let guide = std::fs::read_to_string(guide).unwrap();
    let marker = "<!-- snippet: skip a suite's --help";
    let after = &guide[guide.find(marker).expect("docs/suites.md shows --help")..];
    let block = after
        .split("```text\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert_eq!(
        block,
        picollo_bench::suite::Args::help("sums"),
        "docs/suites.md: paste `--help` of a suite named sums"
    );
}

#[test]
fn a_comparison_its_budget_ends_unsettled_says_what_it_could_see_and_the_gate_rule_decides() {
    let _serial = serial();
    let dir = temp("unsettled");
    let base = other_build(&dir);
    // Threshold 0: an identical build never settles "not slower" (its interval would have
    // to lie below 0), so each comparison ends not settled unless noise calls it different
    // (at most 1 in 100 each): of four comparisons, none unsettled has odds below 10⁻⁸.
    let junit = dir.join("junit.xml");
    let export = format!("junit={}", junit.display());
    let mut unsettled = 0;
    for rule in ["pass", "fail"] {
        let flags = ["--processes", "2", "--threshold", "0", "--unsettled", rule];
        let o = against(
            &base,
            &dir,
            &[&flags[..], &["--export", &export]].concat(),
            &[],
        );
        let t = text(&o);
        let lines = t
            .lines()
            .filter(|l| l.starts_with("verdict: not settled in "));
        let here = lines.clone().count();
        unsettled += here;
        for line in lines {
            assert!(line.contains(", this run could see changes of "), "{line}");
        }
        let slower = t.contains(" is slower than ");
        let xml = std::fs::read_to_string(&junit).unwrap();
        let expected = match (slower, here > 0, rule) {
            (true, ..) => Exit::Slower,
            (false, true, "fail") => Exit::Unsettled,
            _ => Exit::Ok,
        };
        assert_eq!(o.status.code(), Some(expected as i32), "{t}");
        if here > 0 {
            assert!(t.contains("not settled in their budget"), "{t}");
            let marked = if rule == "fail" {
                "<failure"
            } else {
                "<skipped"
            };
            assert!(xml.contains(marked), "{xml}");
        }
    }
    assert!(unsettled >= 1, "no comparison of four ended unsettled");
}
