//! What the interchange benches share: the latency-like workload and the best-of timing.

use std::time::Instant;

/// Values per workload.
pub const N: usize = 1_000_000;
/// Batches timed; the best one counts.
pub const REPS: usize = 7;
/// Calls per batch.
pub const BATCH: usize = 20;

/// SplitMix64: a fixed, seedable stream, the same in every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
}

/// `N` log-normal latencies: median 50 µs, sigma 1.2 (in ns), capped at 10 s.
pub fn values() -> Vec<u64> {
    let mut rng = Rng(7);
    (0..N)
        .map(|_| {
            let (a, b) = (rng.unit(), rng.unit());
            let z = (-2.0 * a.ln()).sqrt() * (2.0 * std::f64::consts::PI * b).cos();
            ((50_000.0 * (1.2 * z).exp()) as u64).clamp(1, 10_000_000_000)
        })
        .collect()
}

/// Best of `REPS` batches of `BATCH` calls, in µs per call.
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
