//! The C ABI's record cost in every mode, side by side with the Rust inline cost, and the
//! cost of queries through the ABI, in one run.
//!
//! Workload (as in `record.rs`): values `r³ · 7,716,549,600`, `r` uniform in [0, 1),
//! shuffled; relative error 0.0005, `u32` counters, range 0..=7,716,549,600. Each contender
//! records `PER_THREAD` values per thread; contenders take turns within a run and each reports
//! the best of `RUNS` in ns per record (per thread, so 2-thread figures compare directly with
//! 1-thread ones). The ABI functions come from this package's rlib and are called through
//! `black_box`ed `extern "C" fn` pointers, so every call crosses the C ABI.
//!
//! Last lines, the ones scripts read:
//! `bench abi: single=<ns> interlocked=<ns> local=<ns> approx=<ns> local2=<ns> rust_local=<ns>`
//! `bench query: summary=<µs> percentile=<µs> storage_len=<n>` (a full-range 0.1 % histogram).

use std::hint::black_box;
use std::sync::Barrier;
use std::time::Instant;

use picollo::{
    picollo_histogram, picollo_histogram_config_default, picollo_histogram_free,
    picollo_histogram_get_info, picollo_histogram_info, picollo_histogram_new,
    picollo_histogram_percentile, picollo_histogram_record, picollo_histogram_summary,
    picollo_mode, picollo_percentile, picollo_status, picollo_summary,
};
use picollo_core::concurrent::{AtomicHistogram, LocalHistogram, SharedHistogram};
use picollo_core::Config;

const PER_THREAD: usize = 4_000_000;
const MAX_VALUE: u64 = 7_716_549_600;
const RELATIVE_ERROR: f64 = 0.0005;
const RUNS: usize = 7;

type RecordFn = unsafe extern "C" fn(*mut picollo_histogram, u64);

/// Values `r³ · MAX_VALUE` from SplitMix64, one stream per seed.
fn workload(seed: u64, n: usize) -> Vec<u64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let r = ((z ^ (z >> 31)) >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            (r * r * r * MAX_VALUE as f64) as u64
        })
        .collect()
}

/// A histogram behind the C ABI, freed on drop.
struct Abi(*mut picollo_histogram);

// SAFETY: the handle is shared only in the modes whose ABI docs allow concurrent records
// (interlocked, thread-local, approximate); the single-writer one is used from one thread.
unsafe impl Send for Abi {}
// SAFETY: as above.
unsafe impl Sync for Abi {}

impl Abi {
    fn new(mode: picollo_mode, relative_error: f64, max: u64) -> Abi {
        let mut cfg = picollo_histogram_config_default();
        cfg.counter_bits = 32;
        cfg.relative_error = relative_error;
        cfg.max_trackable = max;
        cfg.mode = mode as u32;
        let mut h = std::ptr::null_mut();
        // SAFETY: a valid config and out-pointer.
        let status = unsafe { picollo_histogram_new(&cfg, &mut h) };
        assert_eq!(status, picollo_status::Ok, "picollo_histogram_new");
        Abi(h)
    }

    /// The handle (a method, so closures capture the `Sync` wrapper, not the raw pointer).
    fn ptr(&self) -> *mut picollo_histogram {
        self.0
    }

    fn info(&self) -> picollo_histogram_info {
        let mut info = picollo_histogram_info::default();
        // SAFETY: a live handle and a valid out-pointer.
        let status = unsafe { picollo_histogram_get_info(self.0, &mut info) };
        assert_eq!(status, picollo_status::Ok, "picollo_histogram_get_info");
        info
    }
}

impl Drop for Abi {
    fn drop(&mut self) {
        // SAFETY: created by picollo_histogram_new, freed once.
        unsafe { picollo_histogram_free(self.0) }
    }
}

/// Best-of-`RUNS` ns per record of `record(thread, values)` run on `threads` threads at once.
fn measure(threads: usize, values: &[Vec<u64>], record: &(dyn Fn(usize, &[u64]) + Sync)) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        let barrier = Barrier::new(threads);
        let elapsed = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let barrier = &barrier;
                    let values = &values[t];
                    s.spawn(move || {
                        barrier.wait();
                        let start = Instant::now();
                        record(t, values);
                        start.elapsed().as_secs_f64()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .fold(0.0, f64::max)
        });
        best = best.min(elapsed * 1e9 / PER_THREAD as f64);
    }
    best
}

fn abi_contender(mode: picollo_mode, threads: usize, values: &[Vec<u64>]) -> f64 {
    let h = Abi::new(mode, RELATIVE_ERROR, MAX_VALUE);
    let record: RecordFn = black_box(picollo_histogram_record);
    let ns = measure(threads, values, &|_, vs| {
        for &v in vs {
            // SAFETY: a live handle; this mode allows this many writers.
            unsafe { record(h.ptr(), v) }
        }
    });
    let info = h.info();
    let expected = (RUNS * threads * PER_THREAD) as u64;
    let seen = info.total + info.underflow + info.overflow;
    if mode != picollo_mode::Approximate {
        assert_eq!(seen, expected, "{mode:?}: every record counted");
    }
    ns
}

fn config() -> Config {
    Config::new()
        .with_relative_error(RELATIVE_ERROR)
        .with_range(0, MAX_VALUE)
}

fn rust_local(threads: usize, values: &[Vec<u64>]) -> f64 {
    let h = LocalHistogram::<u32>::new(config()).unwrap();
    measure(threads, values, &|_, vs| {
        for &v in vs {
            black_box(&h).record(v);
        }
    })
}

fn rust_single(values: &[Vec<u64>]) -> f64 {
    let h = SharedHistogram::<u32>::new(config()).unwrap();
    measure(1, values, &|_, vs| {
        for &v in vs {
            black_box(&h).record(v);
        }
    })
}

fn rust_interlocked(values: &[Vec<u64>]) -> f64 {
    let h = AtomicHistogram::<u32>::new(config()).unwrap();
    measure(1, values, &|_, vs| {
        for &v in vs {
            black_box(&h).record(v);
        }
    })
}

/// µs per call of `f`, best of `RUNS` batches of `calls`.
fn query_us(calls: usize, f: impl Fn()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        let start = Instant::now();
        for _ in 0..calls {
            f();
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }
    best
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let values: Vec<Vec<u64>> = (0..2).map(|t| workload(0x5EED + t, PER_THREAD)).collect();
    let modes = [
        ("single", picollo_mode::SingleWriter),
        ("interlocked", picollo_mode::Interlocked),
        ("local", picollo_mode::ThreadLocal),
        ("approx", picollo_mode::Approximate),
    ];
    println!("ns per record through the C ABI (best of {RUNS}, {PER_THREAD} records per thread)");
    let mut one = Vec::new();
    let mut two = Vec::new();
    for (name, mode) in modes {
        let ns1 = abi_contender(mode, 1, &values);
        let ns2 = if mode == picollo_mode::SingleWriter {
            f64::NAN
        } else {
            abi_contender(mode, 2, &values)
        };
        println!("  {name:<12} 1 thread {ns1:6.2}   2 threads {ns2:6.2}");
        one.push(ns1);
        two.push(ns2);
    }
    let rust1 = rust_local(1, &values);
    let rust2 = rust_local(2, &values);
    println!("  rust local   1 thread {rust1:6.2}   2 threads {rust2:6.2}");
    let rust_single = rust_single(&values);
    let rust_interlocked = rust_interlocked(&values);
    println!("  rust single  1 thread {rust_single:6.2}");
    println!("  rust interl. 1 thread {rust_interlocked:6.2}");
    println!(
        "  C ABI / Rust, 1 thread: single {:.2}x, interlocked {:.2}x, thread-local {:.2}x",
        one[0] / rust_single,
        one[1] / rust_interlocked,
        one[2] / rust1
    );
    println!(
        "  2 threads / 1 thread (C ABI thread-local): {:.2}x",
        two[2] / one[2]
    );

    // Queries: a full-range 0.1 % histogram holding the workload.
    let h = Abi::new(picollo_mode::SingleWriter, 0.001, u64::MAX);
    for &v in &values[0] {
        // SAFETY: a live handle, one writer.
        unsafe { picollo_histogram_record(h.0, v) }
    }
    let storage_len = h.info().storage_len;
    let summary_us = query_us(200, || {
        let mut s = std::mem::MaybeUninit::<picollo_summary>::uninit();
        // SAFETY: a live handle and room for a summary.
        let status = unsafe { picollo_histogram_summary(black_box(h.0), s.as_mut_ptr()) };
        assert_eq!(status, picollo_status::Ok);
        black_box(s);
    });
    let percentile_us = query_us(200, || {
        let mut p = picollo_percentile::default();
        // SAFETY: a live handle and a valid out-pointer.
        let status = unsafe { picollo_histogram_percentile(black_box(h.0), 99.0, &mut p) };
        assert_eq!(status, picollo_status::Ok);
        black_box(p);
    });
    println!(
        "bench abi: single={:.2} interlocked={:.2} local={:.2} approx={:.2} local2={:.2} rust_local={:.2}",
        one[0], one[1], one[2], one[3], two[2], rust1
    );
    println!("bench query: summary={summary_us:.1} percentile={percentile_us:.1} storage_len={storage_len}");
}
