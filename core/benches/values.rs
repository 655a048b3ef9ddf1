//! What recording a double costs next to recording an integer, and sparse storage next to
//! dense, in one run; and the footprints.
//!
//! Workload: 1,000,000 latency-like values `r³ · 7,716,549,600` (`r` uniform in [0, 1)),
//! shuffled, as integers and as doubles. Contenders, each recording every value through
//! `black_box(&h).record(v)` (single writer, `u32` counters, relative error 0.0005):
//! - `u64`: the integer single-writer histogram over atomic cells (`SharedHistogram`, the
//!   same kind of cells the float histogram uses), range 0..=7,716,549,600;
//! - `f64`: the float histogram, dense, magnitudes 1e-9..=1e12 (both signs), keeping its
//!   exact extremes and exact sum;
//! - `dense` / `sparse`: the float histogram over every finite magnitude, dense counters
//!   (about 17 MB) or blocks allocated per octave on first touch;
//! - `int dense` / `int sparse`: the integer single-writer histogram at 0.01 % over the
//!   whole `u64` range, dense cells (1.7 MB of `u32`) or `SparseCells` (blocks of 4,096
//!   cells made on first touch).
//!
//! The contenders take turns within each pass; each reports its best of `PASSES` in ns per
//! record. The line before last: `bench values int: sparse=<ns> dense=<ns> sparse_bytes=<n>
//! dense_bytes=<n>`; the last line: `bench values: f64=<ns> u64=<ns> sparse=<ns>
//! dense=<ns> sparse_bytes=<n> dense_bytes=<n>` (the float histogram's storage kinds).

mod report;
mod splitmix;

use std::hint::black_box;
use std::time::Instant;

use picollo::concurrent::{Shaped, SharedHistogram, Source, SparseCells};
use picollo::float::{FloatConfig, FloatHistogram, Storage};
use picollo::Config;

use splitmix::{LATENCIES as N, LATENCY_MAX as MAX};

const PASSES: usize = 15;
const ERROR: f64 = 0.0005;

// Not inlined: each contender's loop is compiled in a function of its own (one `time` per
// closure), so the registers a loop gets do not depend on the other loops beside it in `main`.
#[inline(never)]
fn time(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64() * 1e9 / N as f64
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let ints = splitmix::latencies(0x5EED_0005);
    let floats: Vec<f64> = ints.iter().map(|&v| v as f64).collect();
    let int =
        SharedHistogram::<u32>::new(Config::new().with_relative_error(ERROR).with_range(0, MAX))
            .unwrap();
    let float = FloatHistogram::<u32>::new(
        FloatConfig::new()
            .with_relative_error(ERROR)
            .with_range(1e-9, 1e12)
            .with_storage(Storage::Dense),
    )
    .unwrap();
    let dense = FloatHistogram::<u32>::new(
        FloatConfig::new()
            .with_relative_error(ERROR)
            .with_storage(Storage::Dense),
    )
    .unwrap();
    let sparse = FloatHistogram::<u32>::new(
        FloatConfig::new()
            .with_relative_error(ERROR)
            .with_storage(Storage::Sparse),
    )
    .unwrap();
    let full = Config::new()
        .with_relative_error(0.0001)
        .validate()
        .unwrap();
    let int_dense = SharedHistogram::<u32>::new(full.config()).unwrap();
    let int_sparse =
        SharedHistogram::<u32, _>::from_shape(full, SparseCells::new(full).unwrap()).unwrap();
    // The float contenders and the integer storage kinds in separate rounds, so that
    // neither pair's memory evicts the other's between turns.
    let mut best = [f64::INFINITY; 6];
    for _ in 0..PASSES {
        let runs = [
            time(|| ints.iter().for_each(|&v| black_box(&int).record(v))),
            time(|| floats.iter().for_each(|&x| black_box(&float).record(x))),
            time(|| floats.iter().for_each(|&x| black_box(&dense).record(x))),
            time(|| floats.iter().for_each(|&x| black_box(&sparse).record(x))),
        ];
        for (b, r) in best.iter_mut().zip(runs) {
            *b = b.min(r);
        }
    }
    for _ in 0..PASSES {
        let runs = [
            time(|| ints.iter().for_each(|&v| black_box(&int_dense).record(v))),
            time(|| ints.iter().for_each(|&v| black_box(&int_sparse).record(v))),
        ];
        for (b, r) in best[4..].iter_mut().zip(runs) {
            *b = b.min(r);
        }
    }
    let total = (PASSES * N) as u64;
    assert_eq!(int.with_copy(|v| v.total_count()), total);
    assert_eq!(int_dense.with_copy(|v| v.total_count()), total);
    assert_eq!(int_sparse.with_copy(|v| v.total_count()), total);
    for h in [&float, &dense, &sparse] {
        assert_eq!(
            h.counts().unwrap().total_count(),
            total,
            "every value counted"
        );
    }
    let [u64_ns, f64_ns, dense_ns, sparse_ns, int_dense_ns, int_sparse_ns] = best;
    println!(
        "values: {N} latency-like values r^3 * {MAX}, relative error {ERROR}, u32 counters, \
         best of {PASSES}"
    );
    println!("  u64 (integer, atomic cells)         {u64_ns:6.2} ns");
    println!(
        "  f64 (float, dense 1e-9..1e12)       {f64_ns:6.2} ns   {:.2}x u64",
        f64_ns / u64_ns
    );
    println!(
        "  f64 dense, every magnitude          {dense_ns:6.2} ns   {:>10} B",
        dense.footprint_in_bytes()
    );
    println!(
        "  f64 sparse, every magnitude         {sparse_ns:6.2} ns   {:>10} B   {:.2}x dense",
        sparse.footprint_in_bytes(),
        sparse_ns / dense_ns
    );
    println!(
        "  u64 dense, 0.01 %, whole u64 range   {int_dense_ns:6.2} ns   {:>10} B",
        int_dense.footprint_in_bytes()
    );
    println!(
        "  u64 sparse, 0.01 %, whole u64 range  {int_sparse_ns:6.2} ns   {:>10} B   {:.2}x dense",
        int_sparse.footprint_in_bytes(),
        int_sparse_ns / int_dense_ns
    );
    report::report(&format!(
        "bench values int: sparse={int_sparse_ns:.2} dense={int_dense_ns:.2} sparse_bytes={} \
         dense_bytes={}",
        int_sparse.footprint_in_bytes(),
        int_dense.footprint_in_bytes()
    ));
    report::report(&format!(
        "bench values: f64={f64_ns:.2} u64={u64_ns:.2} sparse={sparse_ns:.2} dense={dense_ns:.2} \
         sparse_bytes={} dense_bytes={}",
        sparse.footprint_in_bytes(),
        dense.footprint_in_bytes()
    ));
}
