//! SplitMix64: a small, fast, well-mixed deterministic generator, a fixed stream for a seed,
//! the same in every run. Shared by the packages' benches and tests (the core crate's tests
//! add their own draws from it in tests/common).

/// The generator's state; `SplitMix64(seed)` starts a stream.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)` (`n > 0`); the tiny modulo bias does not matter here.
    #[allow(dead_code)]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// `0..n` in a drawn order (Fisher–Yates): the order contenders take their turns
    /// in, drawn afresh each round so that none always follows the same one.
    #[allow(dead_code)]
    pub fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, self.below(i as u64 + 1) as usize);
        }
        order
    }

    /// Uniform in [0, 1) with 53 bits.
    #[allow(dead_code)]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// How many values [`latencies`] draws.
#[allow(dead_code)]
pub const LATENCIES: usize = 1_000_000;
/// The largest value [`latencies`] can draw (about 7.7 s in nanoseconds).
#[allow(dead_code)]
pub const LATENCY_MAX: u64 = 7_716_549_600;

/// [`LATENCIES`] latency-like values `r³ · LATENCY_MAX` (`r` uniform in [0, 1)) from the
/// stream of `seed`, then shuffled (Fisher–Yates, each index drawn by Lemire's
/// multiply-shift; the bias is below 2^-40 here): the record benches' workload.
#[allow(dead_code)]
pub fn latencies(seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64(seed);
    let mut values: Vec<u64> = (0..LATENCIES)
        .map(|_| {
            let r = rng.next_f64();
            (r * r * r * LATENCY_MAX as f64) as u64
        })
        .collect();
    for i in (1..values.len()).rev() {
        let j = (rng.next_u64() as u128 * (i as u128 + 1)) >> 64;
        values.swap(i, j as usize);
    }
    values
}
