//! The examples' values: log-normal latencies from a fixed seed.

/// Log-normal values in seconds: `exp(mu + 0.6·z)`, `z` about a standard normal from 12
/// uniforms of a xorshift generator (Irwin–Hall), so any platform draws the same values.
pub fn log_normal(seed: u64, mu: f64, n: usize) -> Vec<f64> {
    let mut x = seed;
    let mut uniform = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let z: f64 = (0..12).map(|_| uniform()).sum::<f64>() - 6.0;
            (mu + 0.6 * z).exp()
        })
        .collect()
}
