//! A suite as a crate's bench target holds it (`[[bench]] name = "…" harness = false` in
//! Cargo.toml, this file under `benches/`): `cargo bench -- FILTER` measures the
//! benchmarks whose name holds FILTER, `cargo test --benches` runs each once, and
//! `cargo bench -- --against OTHER` judges each against another build's. The suite tests
//! run this example as a program: `PICOLLO_SUITE_SLOWER=P` makes `spin 200` P % more work
//! (a slower build), `PICOLLO_SUITE_PANIC=1` adds a benchmark that panics,
//! `PICOLLO_SUITE_ELEMENTS=N` declares N elements an operation of `sum 1000` instead of 1000.

use picollo_bench::{black_box, suite::Suite, Throughput};

/// `n` dependent additions.
fn spin(n: u64) {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_add(i));
    }
    black_box(x);
}

/// A variable's number, 0 where it is not set.
fn number(var: &str) -> u64 {
    let v = std::env::var(var).ok();
    v.and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn sums(s: &mut Suite) {
    let values: Vec<u64> = (0..1_000).collect();
    s.bench("sum 1000", move || {
        black_box(black_box(&values).iter().sum::<u64>());
    });
    // Its rate: 1000 elements an operation (PICOLLO_SUITE_ELEMENTS=N: N, a declaration
    // changed since a baseline was saved).
    let elements = match number("PICOLLO_SUITE_ELEMENTS") {
        0 => 1000,
        n => n,
    };
    s.set_throughput("sum 1000", Throughput::Elements(elements))
        .expect("a benchmark of that name");
    let n = 200 * (100 + number("PICOLLO_SUITE_SLOWER")) / 100;
    s.bench("spin 200", move || spin(n));
}

fn failing(s: &mut Suite) {
    if number("PICOLLO_SUITE_PANIC") > 0 {
        s.bench("panics", || panic!("as the test asked"));
    }
}

picollo_bench::main!(sums, failing);
