//! A suite's benchmarks of parameters with a throughput, measured on a simulated clock: each
//! parameter is a benchmark of its own (listed, filtered, run once), and its line and its
//! JSON carry the rate the library computes at the median time the same JSON reports, and
//! Google Benchmark's file each round's rate as its `bytes_per_second`.
#![cfg(target_os = "linux")]

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use common::Clock;
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

/// The median time per operation, in ns, that the result's JSON summary of time reports.
fn reported_median(result: &serde_json::Value) -> f64 {
    let time = &result["metrics"][0];
    assert_eq!(time["name"], "time");
    let ranks = time["summary"]["percentiles"].as_array().unwrap();
    let p50 = ranks.iter().find(|p| p["rank"] == 50.0).expect("a P50");
    p50["value"].as_f64().unwrap() / result["scale"].as_f64().unwrap()
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
    let dir = std::env::temp_dir().join(format!("picollo-throughput-{}", std::process::id()));
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
    let _ = std::fs::remove_dir_all(&dir);
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
