//! A suite's benchmarks of parameters with a throughput, measured on a simulated clock: each
//! parameter is a benchmark of its own (listed, filtered, run once), and its line and its
//! JSON carry the rate the library computes at the median time the same JSON reports, and
//! Google Benchmark's file each round's rate as its `bytes_per_second`; judged against a
//! saved baseline (`--baseline`), each comparison carries the saved rate beside this run's,
//! an older baseline without throughputs takes this run's, and work declared otherwise
//! since is named instead of compared.
#![cfg(target_os = "linux")]

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use common::{reported_median, Clock, TempDir};
use picollo_bench::suite::{Exit, Mode, Suite};
use picollo_bench::{Bench, Throughput};

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// `copy/N` for N of 1024 and 4096 bytes, each costing N/4 ns plus a seeded jitter of up to
/// ±3 %, with N bytes an operation; and `other`, without a throughput.
fn copies(now: &Rc<Cell<f64>>) -> Suite<'static> {
    let settings = Bench::new("sim")
        .with_batch(10)
        .with_samples(400)
        .with_rounds(4)
        .with_warmup(Duration::ZERO);
    let clock = Rc::clone(now);
    let mut s = Suite::new("throughput")
        .with_settings(settings)
        .with_meter(move || Box::new(Clock::new(&clock)));
    let (t, mut seed) = (Rc::clone(now), 0x9e37_79b9_7f4a_7c15u64);
    s.bench_params_throughput(
        "copy",
        [1024u64, 4096],
        |&n| Throughput::Bytes(n),
        move |&n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let jitter = 1.0 + ((seed >> 33) % 61) as f64 / 1000.0 - 0.03;
            t.set(t.get() + n as f64 / 4.0 * jitter);
        },
    );
    s.bench("other", || {});
    s
}

#[test]
fn each_parameter_is_listed_filtered_and_run_once_by_its_own_name() {
    let now = Rc::new(Cell::new(0.0));
    let mut s = copies(&now);
    let mut listed = Vec::new();
    s.run_args(&args(&["--list"]), Mode::Once, &mut listed)
        .unwrap();
    let listed = String::from_utf8(listed).unwrap();
    assert_eq!(
        listed,
        "copy/1024: benchmark\ncopy/4096: benchmark\nother: benchmark\n"
    );
    let mut out = Vec::new();
    let args = args(&["--test", "--exact", "copy/4096"]);
    s.run_args(&args, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out,
        "bench copy/4096 ... ok\nbench result: 1 ran once, 0 failed\n"
    );
    // One operation of 4096 bytes ran: 1024 ns, within the jitter.
    assert!(
        (1024.0 * 0.97..=1024.0 * 1.03).contains(&now.get()),
        "{}",
        now.get()
    );
}

/// Google Benchmark's file (`--export gbench=`) of the run whose Picollo JSON is `doc`: each
/// repetition of `copy/N` (a round) has `bytes_per_second`, the library's rate at the median
/// time of the JSON's round, and no entry of `other` has a rate.
fn google_benchmark_has_each_rounds_rate(doc: &serde_json::Value, gbench: &serde_json::Value) {
    let runs = gbench["benchmarks"].as_array().unwrap();
    let p50 = doc["commands"][0]["result"]["roundRanks"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r == 50.0)
        .unwrap();
    for (i, n) in [(0, 1024u64), (1, 4096)] {
        let result = &doc["commands"][i]["result"];
        let scale = result["scale"].as_f64().unwrap();
        let rounds = result["rounds"].as_array().unwrap();
        let reps: Vec<&serde_json::Value> = runs
            .iter()
            .filter(|x| x["run_name"] == format!("copy/{n}") && x["run_type"] == "iteration")
            .collect();
        assert_eq!(reps.len(), rounds.len());
        for (rep, round) in reps.iter().zip(rounds) {
            let median = round["values"][0][p50].as_f64().unwrap() / scale;
            let rate = rep["bytes_per_second"].as_f64().expect("bytes_per_second");
            let expected = Throughput::Bytes(n).per_second(median);
            assert!(
                (rate / expected - 1.0).abs() < 1e-12,
                "{rate} against {expected}"
            );
            assert!(rep.get("items_per_second").is_none(), "{rep}");
        }
        let mean = runs
            .iter()
            .find(|x| x["name"] == format!("copy/{n}_mean"))
            .unwrap();
        assert!(mean["bytes_per_second"].is_f64(), "{mean}");
    }
    let other = runs.iter().filter(|x| x["run_name"] == "other");
    assert!(
        other.clone().count() > 0
            && other.into_iter().all(|x| x.get("bytes_per_second").is_none()
                && x.get("items_per_second").is_none()),
        "{gbench}"
    );
}

#[test]
fn a_measured_line_and_its_json_carry_the_rate_at_the_reported_median() {
    let now = Rc::new(Cell::new(0.0));
    let mut s = copies(&now);
    let dir = TempDir::new("throughput");
    let gbench = dir.join("gbench.json");
    let export = format!("gbench={}", gbench.display());
    let a = args(&[
        "--bench",
        "--seed",
        "7",
        "--out",
        dir.to_str().unwrap(),
        "--export",
        &export,
    ]);
    let mut out = Vec::new();
    let report = s.run_args(&a, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(report.exit, Exit::Ok, "{out}");
    let doc = std::fs::read_to_string(dir.join("throughput").join("results.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    for (i, n) in [(0, 1024u64), (1, 4096)] {
        let result = &doc["commands"][i]["result"];
        assert_eq!(result["name"], format!("copy/{n}"));
        let t = &result["throughput"];
        assert_eq!(
            (t["unit"].as_str(), t["perOperation"].as_u64()),
            (Some("bytes"), Some(n))
        );
        let median = reported_median(result);
        let rate = t["perSecond"].as_f64().unwrap();
        let expected = n as f64 / (median * 1e-9);
        assert!(
            (rate / expected - 1.0).abs() < 1e-12,
            "{rate} against {expected}"
        );
        // N bytes in N/4 ns ± 3 %: 4 GB/s, within the jitter and the histogram's buckets.
        assert!((3.8e9..4.2e9).contains(&rate), "{rate}");
        let shown = Throughput::Bytes(n).rate(median).to_string();
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("copy/{n}: ")))
            .unwrap();
        assert!(line.contains(&format!("; {shown} at P50")), "{line}");
    }
    assert!(
        doc["commands"][2]["result"]["throughput"].is_null(),
        "{doc}"
    );
    let gbench: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&gbench).unwrap()).unwrap();
    google_benchmark_has_each_rounds_rate(&doc, &gbench);
    // --verbose: the report's conditions say it.
    let mut out = Vec::new();
    let a = args(&[
        "--bench",
        "--verbose",
        "--exact",
        "copy/1024",
        "--out",
        dir.to_str().unwrap(),
    ]);
    s.run_args(&a, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("- throughput: 1024 bytes an operation, "),
        "{out}"
    );
}

/// A JSON file, read.
fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `copies` on a clock of its own, run as `a` says with its outputs in `dir`: what it
/// printed, and its document.
fn run_copies(dir: &std::path::Path, a: &[&str]) -> (String, serde_json::Value) {
    let now = Rc::new(Cell::new(0.0));
    let mut a = args(a);
    a.extend(args(&[
        "--bench",
        "--seed",
        "7",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let mut out = Vec::new();
    let report = copies(&now).run_args(&a, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(matches!(report.exit, Exit::Ok | Exit::Slower), "{out}");
    (out, json(&dir.join("throughput").join("results.json")))
}

/// The comparison of benchmark `name` in `doc`.
fn compared<'d>(doc: &'d serde_json::Value, name: &str) -> &'d serde_json::Value {
    let all = doc["comparisons"].as_array().unwrap();
    all.iter().find(|c| c["b"] == name).unwrap()
}

#[test]
fn a_baseline_compares_each_sides_rate_and_names_work_declared_otherwise_since() {
    let dir = TempDir::new("saved-rates");
    // Two runs apart, so that the verdict judges.
    run_copies(&dir, &["--save", "main"]);
    run_copies(&dir, &["--save", "main", "--append"]);
    let file = dir.join("baselines").join("main.json");
    let kept = json(&file);
    let (out, doc) = run_copies(&dir, &["--baseline", "main"]);
    for (i, n) in [(0, 1024u64), (1, 4096)] {
        let name = format!("copy/{n}");
        let (saved, head) = (
            &kept["commands"][i]["result"],
            &doc["commands"][i]["result"],
        );
        let t = &compared(&doc, &name)["throughput"];
        // Each side's rate: N bytes over the median its own result reports.
        let (a, b) = (t["a"].as_f64().unwrap(), t["b"].as_f64().unwrap());
        for (rate, result) in [(a, saved), (b, head)] {
            let expected = n as f64 / (reported_median(result) * 1e-9);
            assert!(
                (rate / expected - 1.0).abs() < 1e-12,
                "{rate} against {expected}"
            );
        }
        assert_eq!(
            (t["unit"].as_str(), t["a"].clone()),
            (Some("bytes"), saved["throughput"]["perSecond"].clone())
        );
        let line = format!(
            "  throughput at P50: {name} [saved {}] {}, {name} {}\n",
            file.display(),
            Throughput::Bytes(n).rate(reported_median(saved)),
            Throughput::Bytes(n).rate(reported_median(head))
        );
        assert!(out.contains(&line), "{line:?} in {out}");
    }
    assert!(compared(&doc, "other")["throughput"].is_null(), "{doc}");
    assert!(
        compared(&doc, "other")["throughputDiffers"].is_null(),
        "{doc}"
    );

    // The same baseline saved by an older picollo (no throughput) takes this run's
    // declarations: the same rates.
    let mut old = kept.clone();
    for c in old["commands"].as_array_mut().unwrap() {
        c["result"].as_object_mut().unwrap().remove("throughput");
    }
    std::fs::write(dir.join("baselines").join("old.json"), old.to_string()).unwrap();
    let (_, older) = run_copies(&dir, &["--baseline", "old"]);
    for name in ["copy/1024", "copy/4096", "other"] {
        let (now, then) = (compared(&older, name), compared(&doc, name));
        assert_eq!(now["throughput"], then["throughput"], "{name}");
        assert!(now["throughputDiffers"].is_null(), "{name}");
    }

    // Saved with other work than declared now: 512 bytes for copy/1024, 10 elements for
    // `other`, which declares none now. Neither has a rate compared, each declaration is
    // named, and the verdicts, on time, are those of the baseline as it was.
    let mut other = kept.clone();
    other["commands"][0]["result"]["throughput"]["perOperation"] = 512.into();
    other["commands"][2]["result"]["throughput"] =
        serde_json::json!({"unit": "elements", "perOperation": 10, "perSecond": 1.0});
    std::fs::write(dir.join("baselines").join("other.json"), other.to_string()).unwrap();
    let (out, changed) = run_copies(&dir, &["--baseline", "other"]);
    let declared = |unit: &str, n: u64| serde_json::json!({"unit": unit, "perOperation": n});
    let differs = [
        ("copy/1024", declared("bytes", 512), declared("bytes", 1024)),
        ("other", declared("elements", 10), serde_json::Value::Null),
    ];
    for (name, a, b) in differs {
        let c = compared(&changed, name);
        assert!(c["throughput"].is_null(), "{c}");
        assert_eq!(
            c["throughputDiffers"],
            serde_json::json!({"a": a, "b": b}),
            "{c}"
        );
    }
    let saved = format!(
        "[saved {}]",
        dir.join("baselines").join("other.json").display()
    );
    let notes = [
        format!("  throughput not compared: copy/1024 {saved} declares 512 bytes an operation, copy/1024 declares 1024 bytes an operation (the verdict is on time)\n"),
        format!("  throughput not compared: other {saved} declares 10 elements an operation, other declares no throughput (the verdict is on time)\n"),
    ];
    for note in notes {
        assert!(out.contains(&note), "{note:?} in {out}");
    }
    assert_eq!(
        compared(&changed, "copy/4096")["throughput"],
        compared(&doc, "copy/4096")["throughput"]
    );
    for name in ["copy/1024", "copy/4096", "other"] {
        let (now, then) = (compared(&changed, name), compared(&doc, name));
        // (`other` does nothing: its time, 0, is not judged.)
        if name != "other" {
            assert_ne!(then["verdict"], "not enough runs apart", "{then}");
        }
        for key in [
            "verdict",
            "percent",
            "change",
            "changeLow",
            "changeHigh",
            "noiseFloor",
        ] {
            assert_eq!(now[key], then[key], "{name}: {key}");
        }
    }
    // A saved throughput the library cannot read: the file is refused, naming it.
    other["commands"][0]["result"]["throughput"]["unit"] = "bits".into();
    std::fs::write(dir.join("baselines").join("bad.json"), other.to_string()).unwrap();
    let now = Rc::new(Cell::new(0.0));
    let a = args(&[
        "--bench",
        "--out",
        dir.to_str().unwrap(),
        "--baseline",
        "bad",
    ]);
    let e = copies(&now).run_args(&a, Mode::Once, &mut Vec::new());
    let e = e.err().unwrap();
    assert_eq!(e.exit, Exit::Format, "{e}");
    assert!(
        e.message
            .contains("\"throughput\": unknown throughput unit \"bits\""),
        "{e}"
    );
}

#[test]
fn a_throughput_of_zero_or_of_a_name_not_registered_is_refused() {
    let mut s = Suite::new("bad");
    s.bench("a", || {});
    let e = s.set_throughput("b", Throughput::Bytes(8)).err().unwrap();
    assert_eq!(e.exit, Exit::Usage);
    assert!(
        e.message.contains("throughput of \"b\": no benchmark"),
        "{e}"
    );
    let e = s
        .set_throughput("a", Throughput::Elements(0))
        .err()
        .unwrap();
    assert!(e.message.contains("a throughput of 0 elements"), "{e}");
    s.set_throughput("a", Throughput::Elements(3)).unwrap();
    s.bench_params_throughput("p", [0u64], |&n| Throughput::Bytes(n), |_| {});
    let e = s
        .run_args(&args(&["--list"]), Mode::Once, &mut Vec::new())
        .unwrap_err();
    assert_eq!(e.exit, Exit::Usage);
    assert!(
        e.message
            .contains("benchmark \"p/0\": a throughput of 0 bytes"),
        "{e}"
    );
}
