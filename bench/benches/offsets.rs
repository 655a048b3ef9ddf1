//! What the random stack and heap offsets of an interleaved comparison do: A/A comparisons
//! of an operation with itself, `PICOLLO_OFFSET_TRIALS` (default 20) with the offsets drawn
//! per slot and as many with one placement kept, on an operation whose time depends on
//! where its stack frame and its allocation land (a 2 KiB local buffer filled and summed,
//! and a fresh 1,000-element vector). Figures, not assertions.
//!
//! `cargo bench -p picollo-bench --bench offsets` (`PICOLLO_OFFSET_BUDGET` in seconds,
//! default 1, per comparison). The last line: `bench offsets: on_false=<n>/<n>
//! off_false=<n>/<n> on_spread=<sd of the A/A estimates, %> off_spread=<%>
//! on_floor=<median noise floor, %> off_floor=<%>`.

use std::hint::black_box;
use std::time::Duration;

use picollo_bench::{Bench, Comparison, Verdict};

/// Work on a stack buffer and a fresh heap block.
#[inline(never)]
fn op(seed: u64) -> u64 {
    let mut local = [0u64; 256];
    for (i, x) in local.iter_mut().enumerate() {
        *x = seed.wrapping_mul(i as u64 + 1);
    }
    let heap: Vec<u64> = (0..1000).map(|i| i ^ seed).collect();
    black_box(&local).iter().sum::<u64>() ^ black_box(&heap).iter().sum::<u64>()
}

fn env_or(name: &str, default: f64) -> f64 {
    let v = std::env::var(name).ok().and_then(|v| v.parse().ok());
    v.unwrap_or(default)
}

/// `trials` A/A comparisons with the offsets `on` or off.
fn series(trials: usize, budget: f64, on: bool) -> Vec<Comparison> {
    let bench = Bench::new("offsets")
        .with_time_budget(Duration::from_secs_f64(budget))
        .with_warmup(Duration::from_secs_f64(budget / 5.0))
        .with_random_offsets(on);
    let run = |_| {
        let (mut xa, mut xb) = (1u64, 1u64);
        let a = || xa = op(black_box(xa));
        let b = || xb = op(black_box(xb));
        let pair = bench.compare_fns(("A", a), ("B", b)).expect("it runs");
        let mut line = String::new();
        let _ = pair.comparison.write_verdict(&mut line);
        println!("  offsets {}: {line}", if on { "on" } else { "off" });
        pair.comparison
    };
    (0..trials).map(run).collect()
}

/// Verdicts other than `no difference`, the standard deviation of the estimates and the
/// median noise floor.
fn figures(c: &[Comparison]) -> (usize, f64, f64) {
    let wrong = c
        .iter()
        .filter(|c| c.verdict != Verdict::NoDifference)
        .count();
    let est: Vec<f64> = c.iter().map(|c| c.change.estimate).collect();
    let mean = est.iter().sum::<f64>() / est.len() as f64;
    let var = est.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (est.len() - 1) as f64;
    let mut floors: Vec<f64> = c.iter().map(|c| c.noise_floor).collect();
    floors.sort_by(f64::total_cmp);
    (wrong, var.sqrt(), floors[floors.len() / 2])
}

fn main() {
    let trials = env_or("PICOLLO_OFFSET_TRIALS", 20.0) as usize;
    let budget = env_or("PICOLLO_OFFSET_BUDGET", 1.0);
    let (mut on, mut off) = (Vec::new(), Vec::new());
    // Alternate so that the machine's drift falls on both alike.
    for _ in 0..trials {
        on.extend(series(1, budget, true));
        off.extend(series(1, budget, false));
    }
    let (a, b) = (figures(&on), figures(&off));
    println!(
        "bench offsets: on_false={}/{trials} off_false={}/{trials} on_spread={:.2}% \
         off_spread={:.2}% on_floor={:.2}% off_floor={:.2}%",
        a.0, b.0, a.1, b.1, a.2, b.2
    );
}
