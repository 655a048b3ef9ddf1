//! How often the drift warning fires where nothing changes: 40 A/A comparisons (one
//! function against itself, interleaved, 20 rounds of 0.1 s each), each side's rounds
//! judged for drift as `compare` judges them. Prints each comparison's drift sizes and a
//! last line `bench drift: warned W of 40 A/A comparisons (...)`.
//!
//! `cargo run --release -p picollo-bench --example aa_drift [-- COMPARISONS]`

use std::time::Duration;

use picollo_bench::rules::{drift, drift_size, ordered};
use picollo_bench::{black_box, Bench, BenchError, BenchResult};

/// Each round's median time of `r`, in ns.
fn medians(r: &BenchResult) -> Vec<f64> {
    let values = r.rounds.iter().filter_map(|x| x.value(0, 50.0));
    values.map(|v| v as f64).collect()
}

fn main() -> Result<(), BenchError> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40);
    let values: Vec<u64> = (0..1_000).collect();
    let work = || {
        black_box(black_box(&values).iter().sum::<u64>());
    };
    let (mut warned, mut ordered_sides, mut sizes) = (0, 0, Vec::new());
    for i in 0..n {
        let pair = Bench::new("A/A")
            .with_counters(&[])
            .with_rounds(20)
            .with_time_budget(Duration::from_secs(2))
            .with_warmup(Duration::from_millis(100))
            .compare_fns(("A", work), ("B", work))?;
        let sides = [medians(&pair.a), medians(&pair.b)];
        ordered_sides += sides.iter().filter(|s| ordered(s).is_some()).count();
        let size: Vec<f64> = sides.iter().map(|s| drift_size(s).unwrap_or(0.0)).collect();
        let warns = pair
            .comparison
            .warnings
            .iter()
            .any(|w| w.contains("drifted"));
        assert_eq!(warns, sides.iter().any(|s| drift(s).is_some()));
        warned += usize::from(warns);
        println!(
            "A/A {i:2}: drift {:.1} % and {:.1} %, warned: {warns}",
            size[0], size[1]
        );
        sizes.extend(size);
    }
    sizes.sort_by(f64::total_cmp);
    let median = sizes[sizes.len() / 2];
    println!(
        "bench drift: warned {warned} of {n} A/A comparisons ({ordered_sides} of {} sides not \
         in random order at 99 %; median drift {median:.1} %, largest {:.1} %)",
        2 * n,
        sizes[sizes.len() - 1]
    );
    Ok(())
}
