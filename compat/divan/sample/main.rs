//! A suite in divan's idioms, each form picollo-divan takes used at least once; the
//! tests (tests/sample.rs) list it, run it once and compare it with itself. Where
//! `PICOLLO_DIVAN_SAMPLE_TRACE` names a file, each benchmark's body appends its name to it.
//! `forbid(unsafe_code)` holds: the attributes need no `unsafe` of the crate that uses them.

#![forbid(unsafe_code)]

use std::io::Write;

use divan::counter::{BytesCount, CharsCount, CyclesCount, ItemsCount};
use divan::{black_box, black_box_drop, Bencher};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

/// Append `name` to the trace file, where one is asked for.
fn ran(name: &str) {
    let Some(path) = std::env::var_os("PICOLLO_DIVAN_SAMPLE_TRACE") else {
        return;
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    writeln!(file.expect("the trace file"), "{name}").expect("a line of the trace");
}

#[divan::bench(counters = [CyclesCount::new(100u32), BytesCount::new(8u8)])]
fn plain() -> u64 {
    ran("plain");
    black_box(20u64) + 22
}

/// One allocation of 100 bytes an operation: what `AllocProfiler` counts.
#[divan::bench]
fn allocates() -> Vec<u8> {
    ran("allocates");
    Vec::with_capacity(black_box(100))
}

#[divan::bench]
fn counted(bencher: Bencher) {
    let data = [7u8; 64];
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        ran("counted");
        black_box(&data).iter().map(|&b| u64::from(b)).sum::<u64>()
    });
}

#[divan::bench(args = [1, 2, 3])]
fn args(n: usize) -> usize {
    ran(&format!("args::{n}"));
    (0..black_box(n)).sum()
}

#[divan::bench(args = ["a", "bc"])]
fn strs(bencher: Bencher, s: &str) {
    bencher.counter(CharsCount::of_str(s)).bench(|| {
        ran(&format!("strs::{s}"));
        black_box(s).chars().count()
    });
}

#[divan::bench(consts = [1, 4])]
fn consts<const N: usize>() -> [u8; N] {
    ran(&format!("consts::{N}"));
    black_box([0; N])
}

#[divan::bench(types = [u8, u32])]
fn types<T: Default + std::fmt::Debug>() -> T {
    ran(&format!("types::{}", std::any::type_name::<T>()));
    black_box(T::default())
}

#[divan::bench(types = [u8], consts = [2])]
fn both<T: Default + Copy, const N: usize>() -> [T; N] {
    ran(&format!("both::{}::{N}", std::any::type_name::<T>()));
    black_box([T::default(); N])
}

#[divan::bench(
    name = "renamed",
    sample_count = 10,
    sample_size = 2,
    min_time = 0.1,
    max_time = 1,
    skip_ext_time = true,
    threads = [1, 4]
)]
fn options_accepted() {
    ran("renamed");
    black_box_drop(vec![1u8; 8]);
}

/// Panics where `PICOLLO_DIVAN_SAMPLE_PANIC` is set: a benchmark that fails.
#[divan::bench(ignore)]
fn ignored_opt(bencher: Bencher) {
    if std::env::var_os("PICOLLO_DIVAN_SAMPLE_PANIC").is_some() {
        panic!("asked to panic");
    }
    bencher.bench(|| ran("ignored_opt"));
}

#[divan::bench]
#[ignore]
fn ignored_attr() {
    ran("ignored_attr");
}

/// Inputs that take 1 ms each to make, for an operation of almost nothing: `with_inputs`
/// makes them paused, so the figure leaves the 1 ms out (run with `--ignored`).
#[divan::bench(ignore)]
fn slow_inputs(bencher: Bencher) {
    bencher
        .with_inputs(|| {
            let start = std::time::Instant::now();
            while start.elapsed() < std::time::Duration::from_millis(1) {}
            7u64
        })
        .bench_values(|x| x + 1);
}

#[divan::bench_group(sample_count = 10)]
mod group {
    use super::ran;
    use divan::Bencher;

    #[divan::bench]
    fn local(bencher: Bencher) {
        let mut count = 0u64;
        bencher.bench_local(|| {
            ran("group::local");
            count += 1;
            divan::black_box(count)
        });
    }

    #[divan::bench(items_count = 3u32)]
    fn refs(bencher: Bencher) {
        bencher
            .with_inputs(|| vec![3u32, 1, 2])
            .bench_refs(|v: &mut Vec<u32>| {
                ran("group::refs");
                v.sort_unstable();
            });
    }

    #[divan::bench]
    fn local_refs(bencher: Bencher) {
        let mut sorted = 0usize;
        bencher
            .with_inputs(|| vec![2u8, 1])
            .bench_local_refs(|v: &mut Vec<u8>| {
                ran("group::local_refs");
                v.sort();
                sorted += 1;
            });
    }

    #[divan::bench_group(name = "nested_renamed")]
    mod nested {
        use divan::counter::ItemsCount;

        #[divan::bench(name = "values")]
        fn by_value(bencher: divan::Bencher) {
            let mut total = 0usize;
            bencher
                .with_inputs(|| vec![1u8; 16])
                .input_counter(|v: &Vec<u8>| ItemsCount::new(v.len()))
                .bench_local_values(|v: Vec<u8>| {
                    super::ran("group::nested_renamed::values");
                    total += v.len();
                    total
                });
        }
    }
}

#[divan::bench]
fn items(bencher: Bencher) {
    bencher
        .counter(ItemsCount::new(8u8))
        .with_inputs(|| [1u64; 8])
        .bench_values(|a| {
            ran("items");
            a.iter().sum::<u64>()
        });
}
