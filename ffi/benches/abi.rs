//! The C ABI's record cost in every mode, through `libpicollo.so` itself, side by side
//! with the Rust inline cost of the same mode, and the cost of queries through the ABI, in
//! one run.
//!
//! The shared library is the one cargo builds beside this bench (`deps/libpicollo.so`),
//! opened with `dlopen` and called through the symbols it exports, as a C program calls
//! it: its thread-local mode pays what a shared library pays for thread-local storage,
//! and every call goes through a function pointer the compiler cannot see through. Each
//! mode is measured through `picollo_histogram_record` and through the function
//! `picollo_histogram_record_fn` hands out for the handle (`fn`).
//!
//! Workload (as in `record.rs`): values `r³ · 7,716,549,600`, `r` uniform in [0, 1), a
//! stream per thread; relative error 0.0005, `u32` counters, range 0..=7,716,549,600.
//! "Contended": every thread records one value (one bucket). Each thread records
//! `PER_THREAD` values per run; the contenders of a table take turns, one run each per
//! round, and each reports its best of `ROUNDS` in ns per record per thread, timed from
//! the first thread's start to the last one's end (so 2-thread figures compare directly
//! with 1-thread ones, and threads the machine did not run at once show as slower).
//!
//! Last lines, the ones scripts read:
//! `bench abi: single=<ns> interlocked=<ns> local=<ns> approx=<ns> local2=<ns> rust_local=<ns>`
//! `bench query: summary=<µs> percentile=<µs> storage_len=<n>` (a full-range 0.1 % histogram).
//! `bench calls: rust_percentile=<µs> ffi_percentile=<µs> rust_merge=<µs> ffi_merge=<µs>`:
//! the same percentile and merge in Rust and through the C ABI, taking turns (the
//! difference is what the boundary costs a call).

#[path = "../../core/benches/report/mod.rs"]
mod report;
#[path = "../../core/benches/splitmix/mod.rs"]
mod splitmix;
use splitmix::SplitMix64;

use std::ffi::{c_void, CStr};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::Instant;

use picollo::{
    picollo_histogram, picollo_histogram_config, picollo_histogram_info, picollo_mode,
    picollo_percentile, picollo_record_fn, picollo_status, picollo_summary,
};
use picollo_core::concurrent::{ApproxHistogram, AtomicHistogram, LocalHistogram, SharedHistogram};
use picollo_core::Config;

const PER_THREAD: usize = 4_000_000;
const MAX_VALUE: u64 = 7_716_549_600;
const RELATIVE_ERROR: f64 = 0.0005;
const ROUNDS: usize = 9;
/// The value every thread records in the contended runs.
const HOT: u64 = 1_000;

/// The exported functions the bench calls, looked up in the shared library.
struct Lib {
    config_default: extern "C" fn() -> picollo_histogram_config,
    new: unsafe extern "C" fn(
        *const picollo_histogram_config,
        *mut *mut picollo_histogram,
    ) -> picollo_status,
    free: unsafe extern "C" fn(*mut picollo_histogram),
    record: unsafe extern "C" fn(*mut picollo_histogram, u64),
    record_fn: unsafe extern "C" fn(*const picollo_histogram) -> picollo_record_fn,
    get_info: unsafe extern "C" fn(
        *const picollo_histogram,
        *mut picollo_histogram_info,
    ) -> picollo_status,
    summary: unsafe extern "C" fn(*const picollo_histogram, *mut picollo_summary) -> picollo_status,
    percentile: unsafe extern "C" fn(
        *const picollo_histogram,
        f64,
        *mut picollo_percentile,
    ) -> picollo_status,
    add: unsafe extern "C" fn(*mut picollo_histogram, *const picollo_histogram) -> picollo_status,
}

impl Lib {
    /// Open the `libpicollo.so` cargo built beside this bench.
    fn open() -> Lib {
        let exe = std::env::current_exe().expect("the bench's path");
        let dir = exe.parent().expect("the bench's folder");
        let path = [dir.join("libpicollo.so"), dir.join("../libpicollo.so")]
            .into_iter()
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no libpicollo.so beside {}", dir.display()));
        let c_path = std::ffi::CString::new(path.to_str().expect("a UTF-8 path")).unwrap();
        // SAFETY: a NUL-terminated path; the library's initialisers are Rust's own.
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            // SAFETY: dlerror returns NULL or a NUL-terminated message.
            let why = unsafe { CStr::from_ptr(libc::dlerror()) };
            panic!("dlopen {}: {}", path.display(), why.to_string_lossy());
        }
        println!("through {}", path.display());
        let sym = |name: &str| -> *mut c_void {
            let c_name = std::ffi::CString::new(name).unwrap();
            // SAFETY: a live handle and a NUL-terminated name.
            let p = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
            assert!(!p.is_null(), "{name} is not exported");
            p
        };
        // SAFETY: each symbol is the exported function of that name, whose C signature
        // (include/picollo.h) is the one it is cast to; the library stays loaded (never
        // closed) for the life of the process.
        unsafe {
            Lib {
                config_default: cast(sym("picollo_histogram_config_default")),
                new: cast(sym("picollo_histogram_new")),
                free: cast(sym("picollo_histogram_free")),
                record: cast(sym("picollo_histogram_record")),
                record_fn: cast(sym("picollo_histogram_record_fn")),
                get_info: cast(sym("picollo_histogram_get_info")),
                summary: cast(sym("picollo_histogram_summary")),
                percentile: cast(sym("picollo_histogram_percentile")),
                add: cast(sym("picollo_histogram_add")),
            }
        }
    }
}

/// A symbol's address as the function pointer type `F`.
///
/// # Safety
/// `p` is the address of a function whose signature is `F`'s.
unsafe fn cast<F: Copy>(p: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: a function pointer of the same size, per the caller.
    unsafe { std::mem::transmute_copy(&p) }
}

/// Values `r³ · MAX_VALUE` from SplitMix64, one stream per seed.
fn workload(seed: u64, n: usize) -> Vec<u64> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let r = rng.next_f64();
            (r * r * r * MAX_VALUE as f64) as u64
        })
        .collect()
}

/// A histogram behind the C ABI of the loaded library, freed on drop.
struct Abi<'l> {
    lib: &'l Lib,
    h: *mut picollo_histogram,
}

// SAFETY: the handle is shared only in the modes whose ABI docs allow concurrent records
// (interlocked, thread-local, approximate); the single-writer one is used from one thread.
unsafe impl Send for Abi<'_> {}
// SAFETY: as above.
unsafe impl Sync for Abi<'_> {}

impl<'l> Abi<'l> {
    fn new(lib: &'l Lib, mode: picollo_mode, relative_error: f64, max: u64) -> Abi<'l> {
        let mut cfg = (lib.config_default)();
        cfg.counter_bits = 32;
        cfg.relative_error = relative_error;
        cfg.max_trackable = max;
        cfg.mode = mode as u32;
        let mut h = std::ptr::null_mut();
        // SAFETY: a valid config and out-pointer.
        let status = unsafe { (lib.new)(&cfg, &mut h) };
        assert_eq!(status, picollo_status::Ok, "picollo_histogram_new");
        Abi { lib, h }
    }

    /// The handle (a method, so closures capture the `Sync` wrapper, not the raw pointer).
    fn ptr(&self) -> *mut picollo_histogram {
        self.h
    }

    fn info(&self) -> picollo_histogram_info {
        let mut info = picollo_histogram_info::default();
        // SAFETY: a live handle and a valid out-pointer.
        let status = unsafe { (self.lib.get_info)(self.h, &mut info) };
        assert_eq!(status, picollo_status::Ok, "picollo_histogram_get_info");
        info
    }

    /// Records counted, inside and outside the range.
    fn seen(&self) -> u64 {
        let info = self.info();
        info.total + info.underflow + info.overflow
    }
}

impl Drop for Abi<'_> {
    fn drop(&mut self) {
        // SAFETY: created by picollo_histogram_new, freed once.
        unsafe { (self.lib.free)(self.h) }
    }
}

/// Records one thread's values (thread index, values).
type RecordAll<'a> = Box<dyn Fn(usize, &[u64]) + Sync + 'a>;

/// One contender: records its thread's values; `check` runs after the last round.
struct Contender<'a> {
    name: &'static str,
    threads: usize,
    record: RecordAll<'a>,
    check: Box<dyn Fn(u64) + 'a>,
}

/// One run of `c`: ns per record per thread, from the first thread's start to the last
/// one's end (threads the machine did not run at once show as slower).
fn run_once(c: &Contender<'_>, values: &[Vec<u64>]) -> f64 {
    let barrier = Barrier::new(c.threads);
    let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..c.threads)
            .map(|t| {
                let (barrier, values, record) = (&barrier, &values[t], &c.record);
                s.spawn(move || {
                    barrier.wait();
                    let start = Instant::now();
                    record(t, values);
                    (start, Instant::now())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let first = spans.iter().map(|s| s.0).min().unwrap();
    let last = spans.iter().map(|s| s.1).max().unwrap();
    (last - first).as_secs_f64() * 1e9 / PER_THREAD as f64
}

/// The contenders take turns, one run each per round; each one's best of `ROUNDS`.
fn measure(contenders: &[Contender<'_>], values: &[Vec<u64>]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; contenders.len()];
    for _ in 0..ROUNDS {
        for (c, b) in contenders.iter().zip(best.iter_mut()) {
            *b = b.min(run_once(c, values));
        }
    }
    for c in contenders {
        (c.check)((ROUNDS * c.threads * PER_THREAD) as u64);
    }
    best
}

/// Through `picollo_histogram_record`, or (`via_fn`) the function
/// `picollo_histogram_record_fn` returns.
fn abi<'a>(
    lib: &'a Lib,
    name: &'static str,
    mode: picollo_mode,
    threads: usize,
    via_fn: bool,
) -> Contender<'a> {
    let h = std::sync::Arc::new(Abi::new(lib, mode, RELATIVE_ERROR, MAX_VALUE));
    let exact = mode != picollo_mode::Approximate;
    let record: RecordAll<'a> = if via_fn {
        let h = h.clone();
        // SAFETY: a live handle.
        let f = unsafe { (lib.record_fn)(h.ptr()) }.expect("never NULL");
        Box::new(move |_, vs: &[u64]| {
            for &v in vs {
                // SAFETY: the function of this handle, called with it.
                unsafe { f(h.ptr(), v) }
            }
        })
    } else {
        let h = h.clone();
        let record = lib.record;
        Box::new(move |_, vs: &[u64]| {
            for &v in vs {
                // SAFETY: a live handle; this mode allows this many writers.
                unsafe { record(h.ptr(), v) }
            }
        })
    };
    Contender {
        name,
        threads,
        record,
        check: Box::new(move |expected| {
            if exact {
                assert_eq!(h.seen(), expected, "{name}: every record counted");
            }
        }),
    }
}

fn config() -> Config {
    Config::new()
        .with_relative_error(RELATIVE_ERROR)
        .with_range(0, MAX_VALUE)
}

/// A Rust histogram recorded inline (`$record` on `black_box(&h)`), checked by `$total`.
macro_rules! rust {
    ($name:expr, $threads:expr, $h:expr, $exact:expr) => {{
        let h = std::sync::Arc::new($h);
        let h2 = h.clone();
        Contender {
            name: $name,
            threads: $threads,
            record: Box::new(move |_, vs: &[u64]| {
                for &v in vs {
                    black_box(&*h).record(v);
                }
            }),
            check: Box::new(move |expected| {
                use picollo_core::concurrent::Source;
                let seen = h2.with_copy(|v| v.total_count());
                if $exact {
                    assert_eq!(seen, expected, "{}: every record counted", $name);
                }
            }),
        }
    }};
}

/// µs per call of `f`, best of `ROUNDS` batches of `calls`.
fn query_us(calls: usize, f: impl Fn()) -> f64 {
    (0..ROUNDS)
        .map(|_| query_us_once(calls, &f))
        .fold(f64::INFINITY, f64::min)
}

fn print(title: &str, contenders: &[Contender<'_>], ns: &[f64]) {
    println!("{title}");
    for (c, ns) in contenders.iter().zip(ns) {
        println!("  {:<22} {:>2} thread(s) {ns:6.2} ns", c.name, c.threads);
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let lib = Lib::open();
    let spread: Vec<Vec<u64>> = (0..2).map(|t| workload(0x5EED + t, PER_THREAD)).collect();
    let hot: Vec<Vec<u64>> = vec![vec![HOT; PER_THREAD]; 2];
    use picollo_mode::*;
    println!(
        "ns per record per thread (best of {ROUNDS} rounds, {PER_THREAD} records per thread \
         per run; contenders take turns)"
    );

    // One thread: every mode through the ABI (both entry points) and inline.
    let one = [
        abi(&lib, "abi single", SingleWriter, 1, false),
        abi(&lib, "abi single fn", SingleWriter, 1, true),
        abi(&lib, "abi interlocked", Interlocked, 1, false),
        abi(&lib, "abi interlocked fn", Interlocked, 1, true),
        abi(&lib, "abi local", ThreadLocal, 1, false),
        abi(&lib, "abi local fn", ThreadLocal, 1, true),
        abi(&lib, "abi approx", Approximate, 1, false),
        abi(&lib, "abi approx fn", Approximate, 1, true),
        rust!(
            "rust single",
            1,
            SharedHistogram::<u32>::new(config()).unwrap(),
            true
        ),
        rust!(
            "rust interlocked",
            1,
            AtomicHistogram::<u32>::new(config()).unwrap(),
            true
        ),
        rust!(
            "rust local",
            1,
            LocalHistogram::<u32>::new(config()).unwrap(),
            true
        ),
        rust!(
            "rust approx",
            1,
            ApproxHistogram::<u32>::new(config()).unwrap(),
            false
        ),
    ];
    let ns1 = measure(&one, &spread);
    print("spread values, 1 thread", &one, &ns1);

    // Two threads on spread values.
    let two = [
        abi(&lib, "abi interlocked", Interlocked, 2, false),
        abi(&lib, "abi local", ThreadLocal, 2, false),
        abi(&lib, "abi local fn", ThreadLocal, 2, true),
        abi(&lib, "abi approx", Approximate, 2, false),
        rust!(
            "rust local",
            2,
            LocalHistogram::<u32>::new(config()).unwrap(),
            true
        ),
    ];
    let ns2 = measure(&two, &spread);
    print("spread values, 2 threads", &two, &ns2);

    // Contended: every thread records into one bucket.
    let hot_contenders = [
        abi(&lib, "abi interlocked", Interlocked, 2, false),
        abi(&lib, "abi approx", Approximate, 2, false),
        abi(&lib, "abi local", ThreadLocal, 2, false),
    ];
    let ns_hot = measure(&hot_contenders, &hot);
    print(
        "contended (one bucket), 2 threads",
        &hot_contenders,
        &ns_hot,
    );

    let ratio = |i: usize, j: usize| ns1[i] / ns1[j];
    println!(
        "C ABI / Rust inline, 1 thread: single {:.2}x (fn {:.2}x), interlocked {:.2}x (fn \
         {:.2}x), thread-local {:.2}x (fn {:.2}x), approximate {:.2}x (fn {:.2}x)",
        ratio(0, 8),
        ratio(1, 8),
        ratio(2, 9),
        ratio(3, 9),
        ratio(4, 10),
        ratio(5, 10),
        ratio(6, 11),
        ratio(7, 11),
    );
    println!(
        "thread-local through the C ABI, 2 threads / 1 thread: {:.2}x (fn {:.2}x)",
        ns2[1] / ns1[4],
        ns2[2] / ns1[5]
    );
    println!(
        "approximate / interlocked through the C ABI: uncontended {:.2}x, 2 threads spread \
         {:.2}x, contended {:.2}x",
        ns1[6] / ns1[2],
        ns2[3] / ns2[0],
        ns_hot[1] / ns_hot[0]
    );

    // Queries: a full-range 0.1 % histogram holding the workload.
    let h = Abi::new(&lib, SingleWriter, 0.001, u64::MAX);
    for &v in &spread[0] {
        // SAFETY: a live handle, one writer.
        unsafe { (lib.record)(h.ptr(), v) }
    }
    let storage_len = h.info().storage_len;
    let summary_us = query_us(200, || {
        let mut s = std::mem::MaybeUninit::<picollo_summary>::uninit();
        // SAFETY: a live handle and room for a summary.
        let status = unsafe { (lib.summary)(black_box(h.ptr()), s.as_mut_ptr()) };
        assert_eq!(status, picollo_status::Ok);
        black_box(s);
    });
    let percentile_us = query_us(200, || {
        let mut p = picollo_percentile::default();
        // SAFETY: a live handle and a valid out-pointer.
        let status = unsafe { (lib.percentile)(black_box(h.ptr()), 99.0, &mut p) };
        assert_eq!(status, picollo_status::Ok);
        black_box(p);
    });
    let calls = calls_beside_rust(&lib, &h, &spread[0]);
    report::report(&format!("bench abi: single={:.2} interlocked={:.2} local={:.2} approx={:.2} local2={:.2} rust_local={:.2}",
        ns1[0], ns1[2], ns1[4], ns1[6], ns2[1], ns1[10]
    ));
    report::report(&format!("bench query: summary={summary_us:.1} percentile={percentile_us:.1} storage_len={storage_len}"));
    report::report(&format!(
        "bench calls: rust_percentile={:.2} ffi_percentile={:.2} rust_merge={:.2} ffi_merge={:.2}",
        calls[0], calls[1], calls[2], calls[3]
    ));
}

/// µs per call of a percentile (P99.9) and of a merge (into a histogram of the same
/// buckets) in Rust (`DynHistogram`, the type behind a handle) and through the C ABI, on
/// the same counts (`values`, as `h` holds them), taking turns: `[rust, ffi]` for each.
fn calls_beside_rust(lib: &Lib, h: &Abi<'_>, values: &[u64]) -> [f64; 4] {
    use picollo_core::concurrent::{CounterBits, DynHistogram, Mode};
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(0, u64::MAX);
    let fresh = || DynHistogram::new(config, CounterBits::U32, Mode::SingleWriter).unwrap();
    let (rust, rust_dst) = (fresh(), fresh());
    values.iter().for_each(|&v| rust.record(v));
    let abi_dst = Abi::new(lib, picollo_mode::SingleWriter, 0.001, u64::MAX);
    let mut contenders: [(usize, Box<dyn Fn() + '_>); 4] = [
        (
            200,
            Box::new(|| {
                let p = rust.with_view(|v| v.as_view().percentile(99.9));
                black_box(p.unwrap().unwrap());
            }),
        ),
        (
            200,
            Box::new(|| {
                let mut p = picollo_percentile::default();
                // SAFETY: a live handle and a valid out-pointer.
                let status = unsafe { (lib.percentile)(black_box(h.ptr()), 99.9, &mut p) };
                assert_eq!(status, picollo_status::Ok);
                black_box(p);
            }),
        ),
        (20, Box::new(|| rust_dst.add(black_box(&rust)).unwrap())),
        (
            20,
            Box::new(|| {
                // SAFETY: two live handles, one writer of the receiver.
                let status = unsafe { (lib.add)(abi_dst.ptr(), black_box(h.ptr())) };
                assert_eq!(status, picollo_status::Ok);
            }),
        ),
    ];
    let mut best = [f64::INFINITY; 4];
    for _ in 0..ROUNDS {
        for ((calls, f), best) in contenders.iter_mut().zip(&mut best) {
            *best = best.min(query_us_once(*calls, f));
        }
    }
    best
}

/// µs per call of `f` over one batch of `calls`.
fn query_us_once(calls: usize, f: &dyn Fn()) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        f();
    }
    start.elapsed().as_secs_f64() * 1e6 / calls as f64
}
