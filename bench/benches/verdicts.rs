//! How often the harness's verdicts are right on this machine: interleaved comparisons of
//! an operation with itself (A/A: every verdict but `no difference` is false), and of an
//! operation with one doing 5 % and 2 % more work (each should be `slower`), all within the
//! default budget; then A/A comparisons of runs measured apart, each judged on five earlier
//! runs apart (as a saved baseline), each with that budget.
//! Figures, not assertions.
//!
//! `cargo bench -p picollo-bench --bench verdicts` (`PICOLLO_VERDICT_TRIALS`, default 20,
//! `PICOLLO_VERDICT_APART`, default 50, and `PICOLLO_VERDICT_BUDGET` in seconds, default the
//! harness's 5, shorten it).
//!
//! The last line: `bench verdicts: aa_false=<n>/<trials> detect5=<n>/<trials>
//! detect2=<n>/<trials> floor=<median noise floor of the A/A comparisons, %>
//! aa_within_noise=<n> wrong_way=<faster verdicts of the 5 % and 2 % series>
//! apart_false=<n>/<pairs> apart_within_noise=<n>`.

use std::hint::black_box;
use std::time::Duration;

use picollo_bench::rules::median_round;
use picollo_bench::{compare, judge_apart, Bench, Comparison, Verdict};

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

/// `pairs` runs of `chain(n)`, each judged on runs apart against five earlier runs of it
/// (as a saved baseline is): a run measured apart never gets a verdict from its rounds
/// alone.
fn apart(bench: &Bench, pairs: usize, n: u64) -> Vec<Verdict> {
    let run = || {
        let mut x = 1u64;
        bench
            .run(|| x = chain(x, black_box(n)))
            .expect("the run runs")
    };
    let saved: Vec<_> = (0..5).map(|_| run()).collect();
    let medians: Vec<f64> = saved.iter().map(median_round).collect();
    let verdicts = (0..pairs).map(|_| {
        let b = run();
        let mut c = compare(&saved[0], &b);
        judge_apart(&mut c, &medians, median_round(&b));
        let mut line = String::new();
        let _ = c.write_verdict(&mut line);
        println!("  {line}");
        c.verdict
    });
    verdicts.collect()
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let trials = env_or("PICOLLO_VERDICT_TRIALS", 20.0) as usize;
    let pairs = env_or("PICOLLO_VERDICT_APART", 50.0) as usize;
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
    println!("apart: runs of chain({n}) judged against five runs apart");
    let apart = apart(&bench, pairs, n);
    floors.sort_by(f64::total_cmp);
    let slower = |v: &Verdict| matches!(v, Verdict::Slower(_));
    let faster = |v: &Verdict| matches!(v, Verdict::Faster(_));
    let differs = |v: &Verdict| matches!(v, Verdict::Faster(_) | Verdict::Slower(_));
    let noise = |v: &Verdict| matches!(v, Verdict::WithinNoise(_));
    println!(
        "bench verdicts: aa_false={}/{trials} detect5={}/{trials} detect2={}/{trials} \
         floor={:.2} aa_within_noise={} wrong_way={} apart_false={}/{pairs} \
         apart_within_noise={}",
        count(&aa, differs),
        count(&five, slower),
        count(&two, slower),
        floors[floors.len() / 2],
        count(&aa, noise),
        count(&five, faster) + count(&two, faster),
        count(&apart, differs),
        count(&apart, noise),
    );
}
