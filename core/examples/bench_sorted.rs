//! Sorted vs unsorted through the benchmark harness: one pass of a branchy loop over
//! 100,000 random bytes is the operation, measured before and after sorting them. Each run
//! reports the distribution of time (and of cycles, instructions, branch misses and L1D
//! misses where the PMU allows; task-clock, faults and context switches where it does not)
//! with the tail attribution; the comparison ends with the verdict.
//!
//! `cargo run --release -p picollo --features perf --example bench_sorted`

use std::time::Duration;

use picollo::bench::{black_box, compare, Bench, BenchError};

#[path = "common/branchy.rs"]
mod branchy;

fn main() -> Result<(), BenchError> {
    let mut values = branchy::random_bytes(100_000, 0x9e37_79b9_7f4a_7c15);
    let bench = |name: &str| {
        Bench::new(name)
            .with_samples(300)
            .with_time_budget(Duration::from_secs(3))
    };
    let unsorted = bench("unsorted").run(|| {
        black_box(branchy::branchy(black_box(&values), 0.0));
    })?;
    println!("{unsorted}");
    values.sort_unstable();
    let sorted = bench("sorted").run(|| {
        black_box(branchy::branchy(black_box(&values), 0.0));
    })?;
    println!("{sorted}");
    print!("{}", compare(&unsorted, &sorted));
    Ok(())
}
