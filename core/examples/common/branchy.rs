//! The sorted-vs-unsorted workload, shared by the `perf_sorted` and `hw_check` examples.

/// `n` random bytes from xorshift64*: enough randomness for branch prediction to fail half
/// the time.
pub fn random_bytes(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

/// The branch: taken for half of the random bytes, unpredictable until they are sorted.
/// black_box in one arm keeps the compiler from turning the branch into a select.
pub fn branchy(values: &[u8], mut acc: f64) -> f64 {
    for &v in values {
        if v >= 128 {
            acc += 100.0;
        } else {
            acc = std::hint::black_box(acc * 0.9999);
        }
    }
    acc
}
