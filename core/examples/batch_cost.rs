//! What a batch record costs in each concurrency mode beside the plain histogram's, in
//! one run.
//!
//! 1,000,000 values `r³ · 7,716,549,600` (`r` uniform, shuffled: the record benches'
//! workload) into histograms at relative error 0.001, range 0..=7,716,549,600,
//! `u32` counters, dense: the plain [`Histogram`] and a [`DynHistogram`] of each mode (the
//! handle the C ABI, Python and C# hold). Beside them the same values as doubles into a
//! [`FloatHistogram`] (relative error 0.001, every magnitude, `u32` counters, sparse: what
//! Python's `FloatHistogram` makes), single-writer and interlocked. Each contender records
//! the whole array with one `record_many` and then with a loop of `record`, taking turns,
//! each call timed after an untimed one of its own, best of 7 passes, in ns a value. The
//! last line: `batch_cost: plain=<ns> single=<ns> interlocked=<ns> local=<ns> approx=<ns>
//! single_record=<ns> interlocked_record=<ns> float=<ns> float_record=<ns>
//! float_interlocked=<ns> float_interlocked_record=<ns>`.
//!
//! `cargo run --release -p picollo --all-features --example batch_cost`

#[path = "../benches/splitmix/mod.rs"]
#[allow(dead_code)]
mod splitmix;

use std::hint::black_box;
use std::time::Instant;

use picollo::concurrent::{CounterBits, DynHistogram, Mode};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::Config;

const PASSES: usize = 7;

/// `f`'s best time over the passes, in ns a value of `n`.
fn best(n: usize, times: &[f64]) -> f64 {
    times.iter().copied().fold(f64::INFINITY, f64::min) / n as f64 * 1e9
}

/// Seconds `f` takes once, timed right after an untimed call of its own: so that it finds
/// its own counts in the caches, not what the contender before it left there (timed cold,
/// the plain batch read 0.58–1.07 ns after the float batch, 0.47–0.53 warm).
fn timed(mut f: impl FnMut()) -> f64 {
    f();
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn main() {
    let values = splitmix::latencies(0x5EED);
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(0, splitmix::LATENCY_MAX);
    let mut plain = config.build::<u32>().expect("config");
    let modes = [
        ("single", Mode::SingleWriter),
        ("interlocked", Mode::Interlocked),
        ("local", Mode::ThreadLocal),
        ("approx", Mode::Approximate(Default::default())),
    ];
    let dyns: Vec<DynHistogram> = modes
        .iter()
        .map(|&(_, m)| DynHistogram::new(config, CounterBits::U32, m).expect("config"))
        .collect();
    let doubles: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    let floats = [Mode::SingleWriter, Mode::Interlocked].map(|m| {
        let config = FloatConfig::new().with_relative_error(0.001).with_mode(m);
        FloatHistogram::<u32>::new(config).expect("config")
    });
    let mut times = vec![Vec::new(); 2 + modes.len() + 2 * (1 + floats.len())];
    for _ in 0..PASSES {
        times[0].push(timed(|| plain.record_many(black_box(&values))));
        for (k, d) in dyns.iter().enumerate() {
            times[1 + k].push(timed(|| d.record_many(black_box(&values))));
        }
        let each =
            |d: &DynHistogram| timed(|| black_box(&values).iter().for_each(|&v| d.record(v)));
        times[1 + modes.len()].push(each(&dyns[0]));
        times[2 + modes.len()].push(each(&dyns[1]));
        for (k, float) in floats.iter().enumerate() {
            let at = 3 + modes.len() + 2 * k;
            times[at].push(timed(|| float.record_many(black_box(&doubles))));
            let each = || black_box(&doubles).iter().for_each(|&x| float.record(x));
            times[at + 1].push(timed(each));
        }
    }
    let ns: Vec<f64> = times.iter().map(|t| best(values.len(), t)).collect();
    println!(
        "batch_cost: plain={:.2} single={:.2} interlocked={:.2} local={:.2} approx={:.2} \
         single_record={:.2} interlocked_record={:.2} float={:.2} float_record={:.2} \
         float_interlocked={:.2} float_interlocked_record={:.2}",
        ns[0], ns[1], ns[2], ns[3], ns[4], ns[5], ns[6], ns[7], ns[8], ns[9], ns[10]
    );
}
