//! A bench file written for criterion 0.5, every call the compat crate offers used at least
//! once; its Cargo.toml switches to picollo-criterion in one line. Each benchmark's body
//! writes `ran NAME` to the standard error when `CRITERION_SAMPLE_TELL=1` (the tests check
//! that each ran); `CRITERION_SAMPLE_PANIC=1` adds `setups/panics`, whose setup panics, and
//! `CRITERION_SAMPLE_MISUSE=1` a group of an empty name and a top-level `bench_with_input` of
//! a parameter alone, both of which criterion refuses too.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use criterion::async_executor::FuturesExecutor;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::profiler::Profiler;
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
    group.throughput(Throughput::ElementsAndBytes {
        elements: 1000,
        bytes: 8000,
    });
    let values: Vec<u64> = (0..1000).collect();
    group.bench_function("both", |b| {
        tell("sum/both");
        b.iter(|| black_box(&values).iter().sum::<u64>())
    });
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

/// A future that is ready once it has spun 1 ms, waking itself at each poll (the
/// executor polls it again at once).
struct Spin(Option<Instant>);

impl Future for Spin {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        let start = *self.0.get_or_insert_with(Instant::now);
        if start.elapsed() >= Duration::from_millis(1) {
            return Poll::Ready(1);
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

fn asyncs(c: &mut Criterion) {
    let mut group = c.benchmark_group("async");
    group.bench_function("spin", |b| {
        tell("async/spin");
        b.to_async(FuturesExecutor).iter(|| Spin(None))
    });
    group.bench_function("batched", |b| {
        tell("async/batched");
        b.to_async(FuturesExecutor).iter_batched(
            || vec![3u32, 1, 2],
            |mut v| async move {
                v.sort();
                v
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("batched_ref", |b| {
        tell("async/batched_ref");
        b.to_async(&FuturesExecutor).iter_batched_ref(
            || vec![3u32, 1, 2],
            |v| {
                v.sort();
                async { 1 }
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("with_setup", |b| {
        tell("async/with_setup");
        b.to_async(FuturesExecutor)
            .iter_with_setup(|| 5u64, |n| async move { fibonacci(n) })
    });
    group.bench_function("large_drop", |b| {
        tell("async/large_drop");
        b.to_async(FuturesExecutor)
            .iter_with_large_drop(|| async { vec![0u8; 4096] })
    });
    group.bench_function("custom", |b| {
        tell("async/custom");
        b.to_async(FuturesExecutor).iter_custom(|iters| async move {
            let start = Instant::now();
            for _ in 0..iters {
                Spin(None).await;
            }
            start.elapsed()
        })
    });
    group.finish();
}

/// A measurement of the work a routine does, in calls of [`work`]: each stretch's value is
/// the calls made in it.
struct Calls;

thread_local! {
    static CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One call of the work [`Calls`] counts: 3 units.
fn work(x: u64) -> u64 {
    CALLS.set(CALLS.get() + 3);
    black_box(x).wrapping_mul(31)
}

impl Measurement for Calls {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        CALLS.get()
    }

    fn end(&self, i: u64) -> u64 {
        CALLS.get() - i
    }

    fn add(&self, v1: &u64, v2: &u64) -> u64 {
        v1 + v2
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CallsFormatter
    }
}

struct CallsFormatter;

impl ValueFormatter for CallsFormatter {
    fn scale_values(&self, _: f64, _: &mut [f64]) -> &'static str {
        "calls"
    }

    fn scale_throughputs(&self, _: f64, _: &Throughput, _: &mut [f64]) -> &'static str {
        "calls"
    }

    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "calls"
    }
}

/// A profiler a bench installs: Picollo never starts it.
struct NoisyProfiler;

impl Profiler for NoisyProfiler {
    fn start_profiling(&mut self, id: &str, _: &Path) {
        panic!("profiling {id}: a profiler is never started here")
    }

    fn stop_profiling(&mut self, _: &str, _: &Path) {}
}

fn measured(c: &mut Criterion<Calls>) {
    c.bench_function("calls/iter", |b| {
        tell("calls/iter");
        b.iter(|| work(black_box(2)))
    });
    c.bench_function("calls/custom", |b| {
        tell("calls/custom");
        b.iter_custom(|iters| (0..iters).map(|_| 3).sum())
    });
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
criterion_group! {
    name = awaited;
    config = Criterion::default()
        .with_profiler(NoisyProfiler)
        .profile_time(Some(Duration::from_secs(1)));
    targets = asyncs
}
criterion_group! {
    name = counted;
    config = Criterion::default().with_measurement(Calls);
    targets = measured
}
criterion_main!(benches, configured, awaited, counted);
