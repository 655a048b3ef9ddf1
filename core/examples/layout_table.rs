//! The layout's own answers, as a table other languages test their copies of its arithmetic
//! against (the C header's inline recorder, the C# binding's bucket layout): one row per
//! (configuration, value) with the value's logical index and its bucket's bounds.
//!
//! `cargo run -p picollo --example layout_table -- [CONFIGS] [RANDOM_VALUES] [SEED]` prints
//! tab-separated rows `relative_error lowest_discernible block_size unit value index lower
//! highest` (a `#` header line first). Configurations: relative errors from 1e-6 to 0.1 (the
//! ends and common ones first, then drawn log-uniformly), lowest discernible values 1 or drawn
//! from 1 to 2^23 (any integer: the unit is its power of two); values: 0, u64::MAX, every power
//! of two and its neighbours, the edges of the unit-wide and exact buckets, and random ones.

use picollo::Config;

#[path = "../benches/splitmix/mod.rs"]
mod splitmix;
use splitmix::SplitMix64;

/// The table's draws, from the generator the benches and tests share.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Log-uniform in `[lo, hi]`.
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = self.0.next_f64();
        (lo.ln() + u * (hi.ln() - lo.ln())).exp()
    }

    /// A value of random magnitude: a random word shifted right by 0..=63.
    fn value(&mut self) -> u64 {
        let shift = self.next() % 64;
        self.next() >> shift
    }
}

/// Configuration `k`: the common relative errors and unit 1 first, then random ones.
fn config(k: usize, rng: &mut Rng) -> (f64, u64) {
    const FIXED: [f64; 6] = [1e-6, 0.1, 0.001, 0.0005, 0.01, 0.05];
    let e = FIXED
        .get(k)
        .copied()
        .unwrap_or_else(|| rng.log_uniform(1e-6, 0.1));
    let lowest = if k < FIXED.len() || rng.next() % 4 == 0 {
        1
    } else {
        rng.log_uniform(1.0, (1u64 << 23) as f64) as u64
    };
    (e, lowest.max(1))
}

/// The values of one configuration: the edges, then `random` drawn ones.
fn values(block: u64, unit: u64, random: usize, rng: &mut Rng) -> Vec<u64> {
    let mut v = vec![0, u64::MAX];
    for bit in 0..64 {
        let p = 1u64 << bit;
        v.extend([p - 1, p, p.wrapping_add(1)]);
    }
    for edge in [unit, block * unit, 2 * block * unit, 4 * block * unit] {
        v.extend([edge - 1, edge, edge + 1]);
    }
    v.extend((0..random).map(|_| rng.value()));
    v
}

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args().nth(i).map_or(default, |a| {
            a.parse()
                .expect("arguments: [CONFIGS] [RANDOM_VALUES] [SEED]")
        })
    };
    let (configs, random, seed) = (arg(1, 300) as usize, arg(2, 200) as usize, arg(3, 1));
    let mut rng = Rng(SplitMix64(seed));
    println!(
        "# relative_error\tlowest_discernible\tblock_size\tunit\tvalue\tindex\tlower\thighest"
    );
    for k in 0..configs {
        let (e, lowest) = config(k, &mut rng);
        let shape = Config::new()
            .with_relative_error(e)
            .with_lowest_discernible(lowest)
            .validate()
            .expect("every drawn configuration is valid");
        let layout = shape.layout();
        let (block, unit) = (layout.block_size(), layout.unit());
        for v in values(block, unit, random, &mut rng) {
            let i = layout.index(v);
            let b = layout.bucket_of_index(i);
            println!(
                "{e:e}\t{lowest}\t{block}\t{unit}\t{v}\t{i}\t{}\t{}",
                b.lower, b.highest
            );
        }
    }
}
