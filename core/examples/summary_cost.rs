//! What the standard summary costs beside iop's `histogram` crate, in one run.
//!
//! 1,000,000 log-normal latencies (median 50 µs, σ 1.2, 1 ns..10 s; the workload of
//! `bench ops`) in Picollo at relative error 0.0005 (`u64` counters) and in iop's
//! `histogram` at grouping power 10. The contenders take turns, a batch of 20 calls each
//! per round, for 21 rounds; each prints the median of its rounds in µs per call:
//!
//! - `summary_into`: `View::summary_into`, the 16 standard ranks with their buckets,
//!   counts and ±, the counts, mean and standard deviation;
//! - `p16`: `View::percentiles` of the same 16 ranks; `moments`: `View::moments`;
//! - `iop_percentiles`: iop's `Histogram::percentiles(&quantiles)` (the ranks as fractions; a `Vec` of
//!   `(percentile, Bucket)` pairs); `iop_buckets`: its `quantile_buckets_into`, the same
//!   buckets without allocating.
//!
//! The last line: `summary_cost: summary_into=<µs> p16=<µs> moments=<µs>
//! iop_percentiles=<µs> iop_buckets=<µs> ratio=<r>`, `ratio` being the median over the
//! rounds of iop's `percentiles` over `summary_into` (above 1: Picollo faster).
//!
//! `cargo run --release -p picollo --example summary_cost`

#[path = "../benches/common/mod.rs"]
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::time::Instant;

use picollo::{Config, Histogram, Percentile, Summary, STANDARD_RANKS};

const ROUNDS: usize = 21;
const BATCH: usize = 20;

/// A named call to time.
type Contender<'a> = (&'static str, Box<dyn FnMut() + 'a>);

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let values = common::values();
    let config = Config::new()
        .with_relative_error(0.0005)
        .with_range(1, 10_000_000_000);
    let mut ours: Histogram<u64, Vec<u64>> = config.build().expect("valid config");
    let mut iop = histogram::Histogram::new(10, 34).expect("valid iop config");
    for &v in &values {
        ours.record(v);
        iop.increment(v).expect("in iop's range");
    }
    let quantiles: Vec<f64> = STANDARD_RANKS.iter().map(|r| r / 100.0).collect();
    let mut summary = Summary::default();
    let mut p16 = [Percentile::default(); 16];
    let mut buckets = [const { None }; 16];
    let view = ours.view();
    // The same buckets from both before anything is timed (iop rounds q·n in f64 first,
    // so only the ranks whose counts agree are compared).
    view.summary_into(&mut summary);
    #[allow(deprecated)]
    let pairs = iop.percentiles(&quantiles).unwrap().unwrap();
    for ((p, (_, b)), q) in summary.percentiles.iter().zip(&pairs).zip(&quantiles) {
        let iop_count = ((q * summary.total as f64).ceil() as u64).max(1);
        if iop_count == p.rank_count {
            assert!(p.lower <= b.end() && b.start() <= p.highest, "P{}", p.rank);
        }
    }
    let mut work: Vec<Contender<'_>> = vec![
        (
            "summary_into",
            Box::new(|| black_box(view).summary_into(black_box(&mut summary))),
        ),
        (
            "p16",
            Box::new(|| {
                black_box(view)
                    .percentiles(&STANDARD_RANKS, black_box(&mut p16))
                    .unwrap()
            }),
        ),
        (
            "moments",
            Box::new(|| {
                black_box(black_box(view).moments());
            }),
        ),
        #[allow(deprecated)]
        (
            "iop_percentiles",
            Box::new(|| {
                black_box(black_box(&iop).percentiles(&quantiles).unwrap());
            }),
        ),
        (
            "iop_buckets",
            Box::new(|| {
                black_box(&iop)
                    .quantile_buckets_into(&quantiles, black_box(&mut buckets))
                    .unwrap();
            }),
        ),
    ];
    let mut rounds = vec![Vec::new(); work.len()];
    for round in 0..ROUNDS {
        for k in 0..work.len() {
            let k = (k + round) % work.len();
            let t = Instant::now();
            for _ in 0..BATCH {
                (work[k].1)();
            }
            rounds[k].push(t.elapsed().as_secs_f64() * 1e6 / BATCH as f64);
        }
    }
    let ratio = median(
        rounds[3]
            .iter()
            .zip(&rounds[0])
            .map(|(i, p)| i / p)
            .collect(),
    );
    let mut line = String::from("summary_cost:");
    for ((name, _), times) in work.iter().zip(rounds) {
        line += &format!(" {name}={:.2}", median(times));
    }
    println!("{line} ratio={ratio:.2}");
}
