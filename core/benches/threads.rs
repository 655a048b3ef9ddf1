//! Multi-threaded recording: ns per record and per thread for every concurrent mode, at 1
//! and 2 threads, with values spread over the range and with every thread hitting a narrow
//! range (the contended case), next to `hdrhistogram`'s `SyncHistogram`/`Recorder`.
//!
//! Workload (as the foundation benchmark): 1,000,000 pre-generated values
//! `r³ · 7,716,549,600` shuffled, `u32` counters, relative error 0.0005, range
//! `0..=7,716,549,600`. The contended values are `20,000 + r · 1,000`: about 63 buckets,
//! four cache lines. Each thread records `ROUNDS` passes over the values (starting at its
//! own offset); each figure is the best of `REPS` runs, as the mean over threads of
//! elapsed / records. The last line is the contended case.
//!
//! `cargo bench -p picollo --bench threads` (add `-- 4 8 16` for more thread counts).

mod report;
mod splitmix;

use picollo::concurrent::Source;
use std::hint::black_box;
use std::sync::Barrier;
use std::time::Instant;

use picollo::concurrent::{
    ApproxHistogram, ApproxPolicy, AtomicHistogram, LocalHistogram, SharedHistogram,
};
use picollo::Config;
use splitmix::SplitMix64;

const MAX: u64 = 7_716_549_600;
const N: usize = 1_000_000;
const ROUNDS: usize = 8;
const REPS: usize = 3;

fn config() -> Config {
    Config::new().with_relative_error(0.0005).with_range(0, MAX)
}

fn values(contended: bool) -> Vec<u64> {
    let mut rng = SplitMix64(42);
    let mut v: Vec<u64> = (0..N)
        .map(|_| {
            let r = rng.next_f64();
            if contended {
                20_000 + (r * 1_000.0) as u64
            } else {
                (r * r * r * MAX as f64) as u64
            }
        })
        .collect();
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

/// ns per record per thread: `threads` threads each run `work(thread, values)`.
fn run(threads: usize, values: &[u64], work: &(dyn Fn(usize, &[u64]) + Sync)) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..REPS {
        let barrier = Barrier::new(threads);
        let per_thread: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        // Each thread starts at its own offset (same values, another order).
                        let start = t * N / threads.max(1);
                        let rotated: Vec<u64> = values[start..]
                            .iter()
                            .chain(&values[..start])
                            .copied()
                            .collect();
                        barrier.wait();
                        let t0 = Instant::now();
                        for _ in 0..ROUNDS {
                            work(t, &rotated);
                        }
                        t0.elapsed().as_nanos() as f64 / (ROUNDS * N) as f64
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        best = best.min(per_thread.iter().sum::<f64>() / threads as f64);
    }
    best
}

#[derive(Default)]
struct Figures {
    single1: f64,
    interlocked: Vec<f64>,
    local: Vec<f64>,
    approx: Vec<f64>,
    hdr_sync: Vec<f64>,
}

fn measure(contended: bool, thread_counts: &[usize]) -> Figures {
    let values = values(contended);
    let case = if contended { "contended" } else { "spread" };
    let mut f = Figures::default();
    let single = SharedHistogram::<u32>::new(config()).unwrap();
    f.single1 = run(1, &values, &|_, vs| {
        vs.iter().for_each(|&v| single.record(black_box(v)))
    });
    println!("{case:>9} single      1 thread : {:6.2} ns", f.single1);
    for &threads in thread_counts {
        let h = AtomicHistogram::<u32>::new(config()).unwrap();
        let ns = run(threads, &values, &|_, vs| {
            vs.iter().for_each(|&v| h.record(black_box(v)))
        });
        println!("{case:>9} interlocked {threads} threads: {ns:6.2} ns");
        f.interlocked.push(ns);

        let h = LocalHistogram::<u32>::new(config()).unwrap();
        let ns = run(threads, &values, &|_, vs| {
            vs.iter().for_each(|&v| h.record(black_box(v)))
        });
        println!(
            "{case:>9} local       {threads} threads: {ns:6.2} ns (shards {})",
            h.shard_count()
        );
        f.local.push(ns);

        let variants = [
            ("approx", ApproxPolicy::new()),
            (
                "approx-uncapped",
                ApproxPolicy::new().with_max_shift(u32::MAX),
            ),
            (
                "approx-cas",
                ApproxPolicy::new().with_exact_when_uncontended(true),
            ),
        ];
        for (k, (name, policy)) in variants.into_iter().enumerate() {
            let h = ApproxHistogram::<u32>::with_policy(config(), policy).unwrap();
            let ns = run(threads, &values, &|_, vs| {
                vs.iter().for_each(|&v| h.record(black_box(v)))
            });
            let rel = h.total_count() as f64 / (threads * ROUNDS * REPS * N) as f64 - 1.0;
            println!(
                "{case:>9} {name:<15} {threads} threads: {ns:6.2} ns (total off by {:+.3}%)",
                rel * 100.0
            );
            if k == 0 {
                f.approx.push(ns);
            }
        }

        // The same, with a generator owned by the recording loop (kept in a register).
        let h = ApproxHistogram::<u32>::new(config()).unwrap();
        let ns = run(threads, &values, &|t, vs| {
            let mut rng = picollo::concurrent::XorShift64::new(t as u64);
            vs.iter()
                .for_each(|&v| h.record_with(black_box(v), &mut rng))
        });
        println!("{case:>9} approx-own-rng  {threads} threads: {ns:6.2} ns");

        let hdr = hdrhistogram::Histogram::<u32>::new_with_bounds(1, MAX, 3).unwrap();
        let mut sync: hdrhistogram::sync::SyncHistogram<u32> = hdr.into_sync();
        let recorders: Vec<_> = (0..threads)
            .map(|_| std::sync::Mutex::new(sync.recorder()))
            .collect();
        let ns = run(threads, &values, &|t, vs| {
            let mut r = recorders[t].lock().unwrap();
            vs.iter().for_each(|&v| {
                let _ = r.record(black_box(v));
            })
        });
        drop(recorders);
        sync.refresh();
        println!(
            "{case:>9} hdr sync    {threads} threads: {ns:6.2} ns (total {})",
            sync.len()
        );
        f.hdr_sync.push(ns);
    }
    f
}

fn main() {
    let mut thread_counts = vec![1, 2];
    thread_counts.extend(
        std::env::args()
            .skip(1)
            .filter_map(|a| a.parse::<usize>().ok()),
    );
    let _spread = measure(false, &thread_counts);
    let c = measure(true, &thread_counts);
    println!(
        "ratios (contended): local2/local1={:.2} interlocked2/approx2={:.1} hdr_sync2/local2={:.1}",
        c.local[1] / c.local[0],
        c.interlocked[1] / c.approx[1],
        c.hdr_sync[1] / c.local[1]
    );
    report::report(&format!("bench threads: single1={:.2} interlocked1={:.2} interlocked2={:.2} local1={:.2} local2={:.2} approx2={:.2} hdr_sync2={:.2}",
        c.single1, c.interlocked[0], c.interlocked[1], c.local[0], c.local[1], c.approx[1], c.hdr_sync[1]
    ));
}
