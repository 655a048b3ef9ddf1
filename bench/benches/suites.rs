//! How true a suite's `--against` verdicts are on this machine, between two live processes
//! of two builds: `cargo bench -p picollo-bench --bench suites` copies its own program (a
//! second build of identical source, byte for byte) and runs `--against` between the two,
//! then against a base whose `spin 500` does 5 % less work, and prints
//!
//!   bench suites: aa_false=a/n detect5=b/m wrong_way=w median_s=s
//!
//! `aa_false`: comparisons of identical builds called faster or slower; `detect5`: the
//! head's 5 % more work found slower; `median_s`: the median wall time a benchmark of a
//! run took (the run's wall time over its verdicts: opening the workers, choosing the batch,
//! and the rounds until the verdict settled or the budget ended). A rate of the machine, not of the code: printed, never
//! asserted (the simulated machine's exact rates are the `verdicts` test's). Run as a worker
//! (`--picollo-worker`) or with `--bench --against`, the program is the suite itself.
//!
//!   PICOLLO_SUITES_RUNS     A/A runs of the suite's 4 benchmarks (default 25: 100 comparisons)
//!   PICOLLO_SUITES_DETECT   runs of the 5 % change (default 20)
//!   PICOLLO_SUITES_BUDGET   seconds a comparison (default: the suite's 5 s, for both)
//!   PICOLLO_SUITES_PROCESSES  worker processes a build (`--processes`; else the suite's 6)

use std::path::Path;
use std::process::{Command, ExitCode};

use picollo_bench::black_box;
use picollo_bench::suite::{Mode, Suite, WORKER_FLAG};

/// The variable that makes this build's `spin 500` do 5 % more work (a head build).
const MORE: &str = "PICOLLO_SUITES_MORE";

fn spin(n: u64) {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_add(i));
    }
    black_box(x);
}

fn setting(var: &str, default: f64) -> f64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The suite: four functions of different lengths.
fn suite() -> Suite<'static> {
    let mut s = Suite::new("suites");
    let values: Vec<u64> = (0..1_000).collect();
    let unsorted: Vec<u32> = (0..100u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let more = setting(MORE, 0.0) as u64;
    s.bench("spin 50", || spin(50));
    s.bench("spin 500", move || spin(500 * (100 + more) / 100));
    s.bench("sum 1000", move || {
        black_box(black_box(&values).iter().sum::<u64>());
    });
    s.bench("sort 100", move || {
        let mut v = unsorted.clone();
        v.sort_unstable();
        black_box(v);
    });
    s
}

/// `--against base` run by this program in a new process (with `env`): its verdict lines,
/// and the seconds each benchmark took (the run's wall time over its verdicts).
fn against(base: &Path, budget: f64, filter: &[&str], env: &[(&str, &str)]) -> Vec<(String, f64)> {
    let me = std::env::current_exe().expect("this program's path");
    let budget = budget.to_string();
    let processes = std::env::var("PICOLLO_SUITES_PROCESSES").ok();
    let mut c = Command::new(me);
    c.args([
        "--bench",
        "--against",
        base.to_str().unwrap(),
        "--budget",
        &budget,
    ])
    .args(["--counters", "none"])
    .args(processes.iter().flat_map(|n| ["--processes", n]))
    .args(filter)
    .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        c.env(k, v);
    }
    let started = std::time::Instant::now();
    let out = c.output().expect("run --against");
    let wall = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        matches!(out.status.code(), Some(0 | 7)),
        "--against failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("verdict: "))
        .map(String::from)
        .collect();
    let each = wall / lines.len().max(1) as f64;
    lines.into_iter().map(|l| (l, each)).collect()
}

fn different(line: &str) -> bool {
    line.contains(" is slower than ") || line.contains(" is faster than ")
}

/// The experiment: a copy of this program as the other build.
fn experiment() -> ExitCode {
    let dir = std::env::temp_dir().join(format!("picollo-suites-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let copy = dir.join("suites-base");
    std::fs::copy(std::env::current_exe().expect("this program"), &copy).expect("copy");
    let base = dir.join("base.sh");
    let script = format!("#!/bin/sh\nunset {MORE}\nexec {} \"$@\"\n", copy.display());
    std::fs::write(&base, script).expect("write the base's script");
    let _ = Command::new("chmod").arg("+x").arg(&base).status();
    let budget = setting("PICOLLO_SUITES_BUDGET", 5.0);
    let aa: Vec<(String, f64)> = (0..setting("PICOLLO_SUITES_RUNS", 25.0) as usize)
        .flat_map(|_| against(&base, budget, &[], &[]))
        .collect();
    let detect: Vec<(String, f64)> = (0..setting("PICOLLO_SUITES_DETECT", 20.0) as usize)
        .flat_map(|_| against(&base, budget, &["--exact", "spin 500"], &[(MORE, "5")]))
        .collect();
    let mut seconds: Vec<f64> = aa.iter().chain(&detect).map(|(_, s)| *s).collect();
    seconds.sort_by(f64::total_cmp);
    let median_s = seconds.get(seconds.len() / 2).copied().unwrap_or(f64::NAN);
    let aa: Vec<String> = aa.into_iter().map(|(l, _)| l).collect();
    let detect: Vec<String> = detect.into_iter().map(|(l, _)| l).collect();
    let false_aa = aa.iter().filter(|l| different(l)).count();
    let found = detect
        .iter()
        .filter(|l| l.contains(" is slower than "))
        .count();
    let wrong_way = detect
        .iter()
        .filter(|l| l.contains(" is faster than "))
        .count();
    println!(
        "bench suites: aa_false={false_aa}/{} detect5={found}/{} wrong_way={wrong_way} \
         median_s={median_s:.1}",
        aa.len(),
        detect.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let as_suite = args
        .iter()
        .any(|a| a == WORKER_FLAG || a == "--against" || a == "--list");
    match as_suite {
        true => {
            let status = suite().main_args(&args, Mode::Measure);
            ExitCode::from(status as u8)
        }
        false => experiment(),
    }
}
