//! The getting-started of the Picollo announcement: record a million values, print P99 and
//! the table, then a second distribution and the diff table.

use picollo::{Config, Histogram, Summary};

/// A small deterministic generator (SplitMix64) so the example needs no dependency.
struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() {
    let mut h: Histogram<u32, Vec<u32>> = Config::new()
        .with_relative_error(0.01)
        .with_range(10_000, 30_000)
        .build()
        .expect("valid configuration");
    let mut rng = Rng(0);
    for _ in 0..1_000_000 {
        // As in the original: the deviation is cast to an unsigned integer, so negative
        // deviations become 0 (Rust's `as` saturates).
        let dev = (0.5 - rng.next_f64()) * 1000.0 + rng.next_f64().powi(2) * 5000.0;
        let v = 20_000 + dev as u64;
        h.record(v);
    }
    h.record(40_000); // outside the range: counted as overflow

    let before: Summary = h.view().summary();
    println!("P99: {}", before.p99());

    h.reset();
    for _ in 0..2_000_000 {
        let dev = (0.5 - rng.next_f64()) * 500.0 + rng.next_f64().powi(3) * 10_000.0;
        let v = 19_000 + dev as u64;
        h.record(v);
    }
    let after = h.view().summary();

    let mut out = String::new();
    before.write_table(&mut out, "Histogram Before").unwrap();
    out.push('\n');
    before
        .write_diff(&after, &mut out, "Getting Started Diff", "Before", "After")
        .unwrap();
    out.push('\n');
    after.write_line(&mut out, "After").unwrap();
    println!("{out}");
    for p in h.view().bucket_percentiles_with_values().take(3) {
        println!("{p}");
    }
}
