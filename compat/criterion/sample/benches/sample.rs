//! A bench file written for criterion 0.5, every call the compat crate offers used at least
//! once; its Cargo.toml switches to picollo-criterion in one line. Each benchmark's body
//! writes `ran NAME` to the standard error when `CRITERION_SAMPLE_TELL=1` (the tests check
//! that each ran); `CRITERION_SAMPLE_PANIC=1` adds `setups/panics`, whose setup panics, and
//! `CRITERION_SAMPLE_MISUSE=1` a group of an empty name and a top-level `bench_with_input` of
//! a parameter alone, both of which criterion refuses too.

use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, AxisScale, BatchSize, Bencher, BenchmarkId,
    Criterion, PlotConfiguration, SamplingMode, Throughput,
};

/// `name` ran, told when the test asks.
fn tell(name: &str) {
    if std::env::var_os("CRITERION_SAMPLE_TELL").is_some() {
        eprintln!("ran {name}");
    }
}

fn fibonacci(n: u64) -> u64 {
    (0..n)
        .fold((0u64, 1u64), |(a, b), _| (b, a.wrapping_add(b)))
        .0
}

fn top_level(c: &mut Criterion) {
    c.bench_function("fib 20", |b| {
        tell("fib 20");
        b.iter(|| fibonacci(black_box(20)))
    });
    let n = 30u64;
    c.bench_with_input(BenchmarkId::new("fib", n), &n, |b, &n| {
        tell("fib/30");
        b.iter(|| fibonacci(black_box(n)))
    });
}

fn sizes(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(100))
        .noise_threshold(0.03)
        .confidence_level(0.9)
        .significance_level(0.1)
        .sampling_mode(SamplingMode::Flat)
        .plot_config(PlotConfiguration::default().summary_scale(AxisScale::Logarithmic));
    for size in [100u64, 1000] {
        let values: Vec<u64> = (0..size).collect();
        group.throughput(Throughput::Elements(size));
        group.bench_with_input(BenchmarkId::from_parameter(size), &values, |b, v| {
            tell(&format!("sum/{size}"));
            b.iter(|| v.iter().sum::<u64>())
        });
        group.throughput(Throughput::Bytes(size * 8));
        group.bench_with_input(BenchmarkId::new("bytes", size), &values, |b, v| {
            tell(&format!("sum/bytes/{size}"));
            b.iter(|| black_box(v).iter().sum::<u64>())
        });
    }
    group.throughput(Throughput::BytesDecimal(64));
    group.bench_function("decimal", |b| {
        tell("sum/decimal");
        b.iter(|| {
            black_box([1u8; 64])
                .iter()
                .map(|&x| u64::from(x))
                .sum::<u64>()
        })
    });
    group.finish();
}

/// A bench function written generically over criterion's Bencher, as some crates do.
fn sort_copy(b: &mut Bencher<'_, WallTime>, batch: BatchSize) {
    b.iter_batched(
        || (0..256u32).rev().collect::<Vec<_>>(),
        |mut v| {
            v.sort();
            v
        },
        batch,
    )
}

fn setups(c: &mut Criterion) {
    let mut group = c.benchmark_group("setups");
    for (name, batch) in [
        ("small", BatchSize::SmallInput),
        ("large", BatchSize::LargeInput),
        ("per", BatchSize::PerIteration),
        ("batches", BatchSize::NumBatches(3)),
        ("iterations", BatchSize::NumIterations(7)),
    ] {
        group.bench_function(BenchmarkId::new("batched", name), |b| {
            tell(&format!("setups/batched/{name}"));
            sort_copy(b, batch)
        });
    }
    group.bench_function("batched_ref", |b| {
        tell("setups/batched_ref");
        b.iter_batched_ref(|| vec![3u32, 1, 2], |v| v.sort(), BatchSize::SmallInput)
    });
    group.bench_function("with_setup", |b| {
        tell("setups/with_setup");
        b.iter_with_setup(|| String::from("criterion"), |s| s.len())
    });
    group.bench_function("large_drop", |b| {
        tell("setups/large_drop");
        b.iter_with_large_drop(|| vec![0u8; 4096])
    });
    group.bench_function("custom", |b| {
        tell("setups/custom");
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                black_box(fibonacci(black_box(i % 16)));
            }
            start.elapsed()
        })
    });
    if std::env::var_os("CRITERION_SAMPLE_PANIC").is_some() {
        group.bench_function("panics", |b| {
            b.iter_batched(
                || panic!("the setup failed"),
                |()| (),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn misuse(c: &mut Criterion) {
    if std::env::var_os("CRITERION_SAMPLE_MISUSE").is_some() {
        c.benchmark_group("").bench_function("f", |b| b.iter(|| 1));
        c.bench_with_input(BenchmarkId::from_parameter(1), &1, |b, &i| b.iter(|| i));
    }
}

criterion_group!(benches, top_level, sizes, misuse);
criterion_group! {
    name = configured;
    config = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .nresamples(1000)
        .noise_threshold(0.02)
        .confidence_level(0.95)
        .significance_level(0.05)
        .with_output_color(false)
        .with_plots()
        .without_plots();
    targets = setups
}
criterion_main!(benches, configured);
