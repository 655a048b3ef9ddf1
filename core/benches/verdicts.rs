//! How often the harness's verdicts are right on this machine: interleaved comparisons of
//! an operation with itself (A/A: every verdict but `no difference` is false), and of an
//! operation with one doing 5 % and 2 % more work (each should be `slower`), all within the
//! default budget. Figures, not assertions.
//!
//! `cargo bench -p picollo --bench verdicts` (`PICOLLO_VERDICT_TRIALS`, default 20, and
//! `PICOLLO_VERDICT_BUDGET` in seconds, default the harness's 5, shorten it).
//!
//! The last line: `bench verdicts: aa_false=<n>/<trials> detect5=<n>/<trials>
//! detect2=<n>/<trials> floor=<median noise floor of the A/A comparisons, %>
//! aa_within_noise=<n> wrong_way=<faster verdicts of the 5 % and 2 % series>`.

use std::hint::black_box;
use std::time::Duration;

use picollo::bench::{Bench, Comparison, Verdict};

/// `n` dependent multiplies continuing from `x` (the chain's latency is the cost).
#[inline(never)]
fn chain(x: u64, n: u64) -> u64 {
    let mut x = x;
    for i in 0..n {
        x = (x ^ i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    x
}

fn env_or(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One interleaved comparison of `chain(n_a)` against `chain(n_b)`.
fn trial(bench: &Bench, n_a: u64, n_b: u64) -> Comparison {
    let (mut xa, mut xb) = (1u64, 1u64);
    let a = || xa = chain(xa, black_box(n_a));
    let b = || xb = chain(xb, black_box(n_b));
    let pair = bench
        .compare_fns(("A", a), ("B", b))
        .expect("the comparison runs");
    pair.comparison
}

/// `trials` comparisons of `n_a` against `n_b`: the verdicts' words, the noise floors.
fn series(bench: &Bench, trials: usize, n_a: u64, n_b: u64) -> (Vec<Verdict>, Vec<f64>) {
    let runs: Vec<Comparison> = (0..trials).map(|_| trial(bench, n_a, n_b)).collect();
    for c in &runs {
        let mut line = String::new();
        let _ = c.write_verdict(&mut line);
        println!("  {line}");
    }
    let floors = runs.iter().map(|c| c.noise_floor).collect();
    (runs.into_iter().map(|c| c.verdict).collect(), floors)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let trials = env_or("PICOLLO_VERDICT_TRIALS", 20.0) as usize;
    let budget = env_or("PICOLLO_VERDICT_BUDGET", 5.0);
    let bench = Bench::new("verdicts").with_time_budget(Duration::from_secs_f64(budget));
    #[cfg(feature = "perf")]
    let bench = bench.with_counters(&[]);
    let n = 1_000;
    let count = |v: &[Verdict], f: fn(&Verdict) -> bool| v.iter().filter(|x| f(x)).count();
    println!("A/A: chain({n}) against itself");
    let (aa, mut floors) = series(&bench, trials, n, n);
    println!("5 %: chain({n}) against chain({})", n * 105 / 100);
    let (five, _) = series(&bench, trials, n, n * 105 / 100);
    println!("2 %: chain({n}) against chain({})", n * 102 / 100);
    let (two, _) = series(&bench, trials, n, n * 102 / 100);
    floors.sort_by(f64::total_cmp);
    let slower = |v: &Verdict| matches!(v, Verdict::Slower(_));
    println!(
        "bench verdicts: aa_false={}/{trials} aa_within_noise={} detect5={}/{trials} \
         detect2={}/{trials} wrong_way={} floor={:.2}",
        count(&aa, |v| matches!(
            v,
            Verdict::Faster(_) | Verdict::Slower(_)
        )),
        count(&aa, |v| matches!(v, Verdict::WithinNoise(_))),
        count(&five, slower),
        count(&two, slower),
        count(&five, |v| matches!(v, Verdict::Faster(_)))
            + count(&two, |v| matches!(v, Verdict::Faster(_))),
        floors[floors.len() / 2]
    );
}
