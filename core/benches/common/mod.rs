//! What the interchange benches share: the latency-like workload and the best-of timing.

use std::time::Instant;

/// Values per workload.
pub const N: usize = 1_000_000;
/// Batches timed; the best one counts.
pub const REPS: usize = 7;
/// Calls per batch.
pub const BATCH: usize = 20;

#[path = "../splitmix/mod.rs"]
mod splitmix;
use splitmix::SplitMix64;

/// Uniform in (0, 1): the middle of one of 2^53 equal steps (never 0, for the logarithm).
fn unit(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// `N` log-normal latencies: median 50 µs, sigma 1.2 (in ns), capped at 10 s.
pub fn values() -> Vec<u64> {
    let mut rng = SplitMix64(7);
    (0..N)
        .map(|_| {
            let (a, b) = (unit(&mut rng), unit(&mut rng));
            let z = (-2.0 * a.ln()).sqrt() * (2.0 * std::f64::consts::PI * b).cos();
            ((50_000.0 * (1.2 * z).exp()) as u64).clamp(1, 10_000_000_000)
        })
        .collect()
}

/// `n` ranks in percent, uniform in (0, 100): computed values, not short decimals, as a
/// report or a plot of the whole distribution asks them, in an order no branch predictor
/// learns.
#[allow(dead_code)]
pub fn random_ranks(n: usize) -> Vec<f64> {
    let mut rng = SplitMix64(11);
    (0..n).map(|_| unit(&mut rng) * 100.0).collect()
}

/// Best of `REPS` batches of `BATCH` calls, in µs per call.
#[allow(dead_code)]
pub fn best(mut f: impl FnMut()) -> f64 {
    (0..REPS)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..BATCH {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / BATCH as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Rounds of [`turns`]: each contender times one batch per round.
pub const ROUNDS: usize = 21;

/// The contenders take turns, one batch of `batch` calls each per round for `ROUNDS`
/// rounds: every round's times, in µs per call, in the order given (so a ratio can be
/// taken within a round, where the machine's drift lands on both sides). Each round
/// takes them in an order of its own (drawn, the same in every run), and each batch
/// follows one untimed call of its own: a call pays for what came before it (measured on
/// `record` in a fixed order: whichever histogram followed DDSketch's 15–22 ms call, or a
/// 22 ms sleep or spin in its place, took 1.4–1.5 ns a value where it took 1.05–1.2
/// after a short call, Picollo's and iop's alike; an untimed call first takes back most
/// of it, not all).
#[allow(dead_code)]
pub fn rounds(contenders: &mut [&mut dyn FnMut()], batch: usize) -> Vec<Vec<f64>> {
    let n = contenders.len();
    let mut rng = SplitMix64(0x5eed);
    (0..ROUNDS)
        .map(|_| {
            let mut times = vec![0.0; n];
            for k in rng.shuffled(n) {
                contenders[k]();
                let t = Instant::now();
                for _ in 0..batch {
                    contenders[k]();
                }
                times[k] = t.elapsed().as_secs_f64() * 1e6 / batch as f64;
            }
            times
        })
        .collect()
}

/// The median of `xs` (the mean of the middle two for an even count); NaN when empty.
#[allow(dead_code)]
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => xs[n / 2],
        _ => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}
