//! Sorted vs unsorted through the benchmark harness: one pass of a branchy loop over
//! 100,000 random bytes is the operation, on the bytes as drawn and on a sorted copy,
//! compared in interleaved rounds. Each side reports the distribution of time (and of
//! cycles, instructions, branch misses and L1D misses where the PMU allows; task-clock,
//! faults and context switches where it does not) with the tail attribution; the
//! comparison ends with the verdict.
//!
//! `cargo run --release -p picollo-bench --example bench_sorted`

use std::time::Duration;

use picollo_bench::{black_box, Bench, BenchError};

#[path = "../../core/examples/common/branchy.rs"]
mod branchy;

fn main() -> Result<(), BenchError> {
    let values = branchy::random_bytes(100_000, 0x9e37_79b9_7f4a_7c15);
    let mut ordered = values.clone();
    ordered.sort_unstable();
    let pair = Bench::new("sorted against unsorted")
        .with_samples(600)
        .with_time_budget(Duration::from_secs(3))
        .compare_fns(
            ("unsorted", || {
                black_box(branchy::branchy(black_box(&values), 0.0));
            }),
            ("sorted", || {
                black_box(branchy::branchy(black_box(&ordered), 0.0));
            }),
        )?;
    println!("{}\n{}", pair.a, pair.b);
    print!("{pair}");
    Ok(())
}
