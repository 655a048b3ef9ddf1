//! The smallest observable step of each clock: spin until the clock changes, record the
//! step, 1,000,000 times, and print the summary line and P0/P50/P99 per clock.
//!
//! `cargo run --release -p picollo-perf --example clock_resolution`

use picollo::{Config, Histogram};
use picollo_perf::time::{monotonic_nanos, tick_frequency, tick_source, ticks, ticks_begin};

const STEPS: u64 = 1_000_000;

fn resolution(name: &str, unit_nanos: f64, clock: impl Fn() -> u64) {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().expect("default config");
    let mut last = clock();
    for _ in 0..STEPS {
        let mut now = clock();
        while now == last {
            now = clock();
        }
        h.record(now.wrapping_sub(last));
        last = now;
    }
    let s = h.view().summary();
    let mut line = String::new();
    let _ = s.write_line(&mut line, name);
    println!("{line}");
    println!("  {}", s.percentiles[0]);
    println!("  {}", s.p50());
    println!("  {}", s.p99());
    println!(
        "  P50 measurable nanos: {:.1}\n",
        s.p50().value as f64 * unit_nanos
    );
}

fn main() {
    let freq = tick_frequency();
    println!("tick source: {:?}, frequency: {freq} Hz\n", tick_source());
    let tick_nanos = 1e9 / freq as f64;
    resolution("CLOCK_MONOTONIC (ns)", 1.0, monotonic_nanos);
    resolution("rdtsc (ticks)", tick_nanos, ticks);
    resolution("lfence; rdtsc (ticks)", tick_nanos, ticks_begin);
    let origin = std::time::Instant::now();
    resolution("std::time::Instant (ns)", 1.0, || {
        origin.elapsed().as_nanos() as u64
    });
}
