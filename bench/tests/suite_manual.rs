//! A benchmark of manual time (`Suite::set_manual_time`, Google Benchmark's
//! `->UseManualTime()`): its time is what its work tells ([`add_manual_time`]), summed over
//! each batch and divided by its operations, whatever the clock reads; the suite's other
//! benchmarks keep the clock, and a name no benchmark has is refused.
#![cfg(target_os = "linux")]

use picollo_bench::suite::{Exit, Mode, Suite};
use picollo_bench::{add_manual_time, black_box};

#[test]
fn a_benchmark_of_manual_time_reports_the_time_its_work_tells() {
    let mut s = Suite::new("manual");
    // 250 ns told an operation, while the operation itself takes a few ns of the clock.
    s.bench("told", || {
        black_box(add_manual_time(250e-9)).unwrap();
    });
    s.bench("clocked", || {
        black_box(1u64);
    });
    s.set_manual_time("told").unwrap();
    let args: Vec<String> = [
        "--bench",
        "--budget",
        "0.05",
        "--warmup",
        "0.01",
        "--counters",
        "none",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let mut out = Vec::new();
    let report = s.run_args(&args, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(report.exit, Exit::Ok, "{out}");
    let median = |name: &str| {
        let r = report.results.iter().find(|r| r.name == name).unwrap();
        (
            r.percentile("time", 50.0).unwrap(),
            r.conditions.clock.clone(),
        )
    };
    let (told, clock) = median("told");
    // Within the histogram's relative error (0.01 % by default) of 250 ns.
    assert!((told - 250.0).abs() <= 0.025, "{told} {out}");
    assert!(clock.starts_with("manual"), "{clock}");
    let (_, clock) = median("clocked");
    assert!(!clock.starts_with("manual"), "{clock}");
    let e = s.set_manual_time("other").err().expect("refused");
    assert_eq!(
        e.message,
        "manual time of \"other\": no benchmark of that name is registered"
    );
}
