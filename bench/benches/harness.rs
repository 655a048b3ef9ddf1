//! The benchmark harness against a bare timed loop: the cost of its read pair, what a
//! batch of one measures, and how far its median (automatic batch) lands from a ~10 ns
//! operation timed by the loop. Figures, not assertions.
//!
//! `cargo bench -p picollo-bench --bench harness`
//!
//! The last line: `bench harness: overhead_ns=<read pair> per_op_ns=<median at k=1>
//! op10_error=<%>` (goal for op10_error: within ±5 %).

#[path = "../../core/benches/report/mod.rs"]
mod report;

use std::hint::black_box;
use std::time::{Duration, Instant};

use picollo_bench::{Bench, SCALE};

/// A chain of `n` dependent multiplies (3 cycles each on current x86-64 cores), in
/// registers, continuing from `x`: the loops below feed each call the previous result, so
/// calls cannot overlap and the cost per call is the chain's latency, the same in any loop.
#[inline(never)]
fn op(x: u64, n: u64) -> u64 {
    let mut x = x;
    for i in 0..n {
        x = (x ^ i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    x
}

/// ns per call of `op(n)` from a bare loop: the best of five rounds of 2,000,000 calls.
fn bare(n: u64) -> f64 {
    const CALLS: u32 = 2_000_000;
    let best = (0..5).map(|_| {
        let (start, mut x) = (Instant::now(), 1);
        for _ in 0..CALLS {
            x = op(x, black_box(n));
        }
        black_box(x);
        start.elapsed().as_secs_f64() * 1e9 / CALLS as f64
    });
    best.fold(f64::MAX, f64::min)
}

/// The `n` whose call costs about 10 ns here.
fn ten_ns() -> u64 {
    (1..200).find(|&n| bare(n) >= 10.0).unwrap_or(200)
}

fn bench(name: &str) -> Bench {
    let b = Bench::new(name)
        .with_samples(3_000)
        .with_time_budget(Duration::from_secs(3));
    #[cfg(feature = "perf")]
    let b = b.with_counters(&[]);
    b
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let n = ten_ns();
    let before = bare(n);
    let mut x = 1;
    let auto = bench("op10").run(|| x = op(x, black_box(n)));
    let middle = bare(n);
    let single = bench("op10 k=1")
        .with_batch(1)
        .run(|| x = op(x, black_box(n)));
    black_box(x);
    let (Ok(auto), Ok(single)) = (auto, single) else {
        println!("bench harness: the harness failed to run");
        return;
    };
    // The least disturbed of three bare measurements, taken around the harness runs.
    let reference = [before, middle, bare(n)]
        .into_iter()
        .fold(f64::MAX, f64::min);
    let median = auto.time().percentile(50.0).unwrap_or(f64::NAN);
    println!("{auto}");
    println!(
        "op10: bare loop {reference:.3} ns, harness median {median:.3} ns (batch {})",
        auto.conditions.batch
    );
    report(&format!(
        "bench harness: overhead_ns={:.1} per_op_ns={:.1} op10_error={:+.1}",
        single.time().overhead as f64 / SCALE as f64,
        single.time().percentile(50.0).unwrap_or(f64::NAN),
        (median - reference) / reference * 100.0
    ));
}

fn report(line: &str) {
    report::report(line);
}
