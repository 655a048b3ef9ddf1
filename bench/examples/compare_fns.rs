//! The first example of docs/benchmarks.md, as written there, in a `main`:
//! `cargo run --release -p picollo-bench --example compare_fns`. Without `--release` every
//! report and the comparison warn that the measured code is unoptimized (scripts/build_note.sh
//! runs it both ways).

fn main() -> Result<(), picollo_bench::BenchError> {
    use picollo_bench::{black_box, Bench};

    let values: Vec<u64> = (0..1_000).collect();
    let pair = Bench::new("sum against fold").compare_fns(
        ("sum", || {
            black_box(black_box(&values).iter().sum::<u64>());
        }),
        ("fold", || {
            black_box(
                black_box(&values)
                    .iter()
                    .fold(0u64, |s, v| s.wrapping_add(*v)),
            );
        }),
    )?;
    println!("{}\n{}\n{pair}", pair.a, pair.b); // both reports, then the comparison and its verdict
    Ok(())
}
