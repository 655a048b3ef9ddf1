//! Record throughput: Picollo, its C ABI and two peers, in the same run, on the same values.
//!
//! The workload: 1,000,000 pre-generated values `r³ · 7,716,549,600` with `r`
//! uniform in [0, 1), shuffled; relative error 0.0005 (block size 1024), range
//! 0..=7,716,549,600, `u32` counters. With grouping power 10 and max value power 33 the
//! `histogram` crate has the same buckets; `hdrhistogram` with 3 significant digits has the
//! same bucket widths too.
//!
//! Each measurement records every value `ROUNDS` times, after one untimed pass; the
//! contenders take turns within a run (in an order drawn for each run), and each reports
//! its best of `RUNS` runs in ns per record. The
//! last line is the one scripts read:
//! `bench record: picollo=<ns> hdrhistogram=<ns> histogram=<ns> ffi=<ns> call=<ns> fn=<ns>
//! portable=<ns> many=<ns> many_path=<name> many_portable=<ns> c=<ns> c_fn=<ns> c_ffi=<ns>
//! c_inline=<ns>` (`call`: an empty `extern "C"` function called the way `ffi` is, the
//! floor of any record behind a call; `fn` and `portable`: the histogram's record function
//! called directly, the one chosen for this CPU and the one for any x86-64; `many`:
//! `Histogram::record_many` of the whole array, its offsets a vector at a time on the path
//! `many_path` (chosen for this CPU, or forced by `PICOLLO_RECORD_PATH`), and
//! `many_portable` the same call on the portable path; `c`:
//! `picollo_histogram_record(h, v)` in a C loop as the header compiles it; `c_fn` and `c_ffi`
//! one C loop calling a function it holds, the record function or the exported
//! `picollo_histogram_record`; `c_inline` the header's inline recorder in a C loop (no call):
//! the four C loops built together by the package's build script and linked into this
//! binary beside the Rust loops; `NaN` when no C compiler could build them).
//!
//! The ABI comes from this package's rlib, named `picollo` like `libpicollo.so` (the core
//! crate is `picollo_core` here); `picollo_histogram_record` is called through a
//! `black_box`ed `extern "C" fn` pointer, so every call really crosses the C ABI.

#[path = "../../core/benches/report/mod.rs"]
mod report;
#[path = "../../core/benches/splitmix/mod.rs"]
mod splitmix;

use std::hint::black_box;
use std::time::Instant;

use picollo::{
    picollo_histogram, picollo_histogram_config_default, picollo_histogram_free,
    picollo_histogram_get_info, picollo_histogram_get_recorder, picollo_histogram_info,
    picollo_histogram_new, picollo_histogram_record, picollo_recorder, picollo_status,
    PICOLLO_RECORDER_VERSION,
};

use splitmix::{LATENCIES as VALUES, LATENCY_MAX as MAX_VALUE};

const RELATIVE_ERROR: f64 = 0.0005;
/// Passes over the values in one measurement (5,000,000 records).
const ROUNDS: usize = 5;
/// Measurements per contender; the best one is reported.
const RUNS: usize = 25;

/// Records each value with `record` (true: refused), counting the refusals.
#[inline(always)]
fn refused(values: &[u64], mut record: impl FnMut(u64) -> bool) -> u64 {
    let mut refused = 0;
    for &v in values {
        refused += record(v) as u64;
    }
    refused
}

/// One histogram under test.
trait Contender {
    fn name(&self) -> &'static str;
    /// Record every value once.
    fn record_all(&mut self, values: &[u64]);
    /// Sum of the counts, to check that every contender saw every value.
    fn total(&self) -> u64;
    fn footprint_bytes(&self) -> usize;
}

/// The plain histogram; `EXACT`: keeping the exact extremes too.
struct Picollo<const EXACT: bool>(picollo_core::Histogram<u32, Vec<u32>, EXACT>);

impl<const EXACT: bool> Contender for Picollo<EXACT> {
    fn name(&self) -> &'static str {
        if EXACT {
            "picollo (exact)"
        } else {
            "picollo"
        }
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        for &v in values {
            self.0.record(v);
        }
    }
    fn total(&self) -> u64 {
        let h = &self.0;
        h.total_count() + h.underflow_count() + h.overflow_count()
    }
    fn footprint_bytes(&self) -> usize {
        self.0.footprint_in_bytes()
    }
}

/// The plain histogram's batch record, `record_many_on(path, values)`: the offsets
/// computed a vector at a time on `path`, then the adds.
struct Many(
    picollo_core::Histogram<u32, Vec<u32>>,
    picollo_core::BatchPath,
);

impl Contender for Many {
    fn name(&self) -> &'static str {
        match self.1 {
            picollo_core::BatchPath::Portable => "many (portable)",
            picollo_core::BatchPath::Avx2 => "many (avx2)",
            picollo_core::BatchPath::Avx512 => "many (avx512)",
            picollo_core::BatchPath::Neon => "many (neon)",
        }
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        self.0.record_many_on(self.1, values);
    }
    fn total(&self) -> u64 {
        let h = &self.0;
        h.total_count() + h.underflow_count() + h.overflow_count()
    }
    fn footprint_bytes(&self) -> usize {
        self.0.footprint_in_bytes()
    }
}

/// `hdrhistogram::Histogram<u32>` through `record` (which returns a `Result`; failures are
/// counted, and must stay at zero).
struct Hdr {
    h: hdrhistogram::Histogram<u32>,
    failed: u64,
}

impl Contender for Hdr {
    fn name(&self) -> &'static str {
        "hdrhistogram"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        self.failed += refused(values, |v| self.h.record(v).is_err());
    }
    fn total(&self) -> u64 {
        self.h.len() + self.failed
    }
    fn footprint_bytes(&self) -> usize {
        self.h.distinct_values() * std::mem::size_of::<u32>()
    }
}

/// The `histogram` crate with `u32` counters (`Histogram32`), through `increment`.
struct Iop32 {
    h: ::histogram::Histogram32,
    failed: u64,
}

impl Contender for Iop32 {
    fn name(&self) -> &'static str {
        "histogram"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        self.failed += refused(values, |v| self.h.increment(v).is_err());
    }
    fn total(&self) -> u64 {
        self.h.as_slice().iter().map(|&c| c as u64).sum::<u64>() + self.failed
    }
    fn footprint_bytes(&self) -> usize {
        std::mem::size_of_val(self.h.as_slice())
    }
}

/// The `histogram` crate with `u64` counters (`Histogram`), for reference.
struct Iop64 {
    h: ::histogram::Histogram,
    failed: u64,
}

impl Contender for Iop64 {
    fn name(&self) -> &'static str {
        "histogram (u64)"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        self.failed += refused(values, |v| self.h.increment(v).is_err());
    }
    fn total(&self) -> u64 {
        self.h.as_slice().iter().sum::<u64>() + self.failed
    }
    fn footprint_bytes(&self) -> usize {
        std::mem::size_of_val(self.h.as_slice())
    }
}

type RecordFn = unsafe extern "C" fn(*mut picollo_histogram, u64);

/// `picollo_histogram_record` through a function pointer the optimiser cannot see through.
struct Ffi {
    h: *mut picollo_histogram,
    record: RecordFn,
}

impl Ffi {
    fn new() -> Ffi {
        let mut config = picollo_histogram_config_default();
        config.counter_bits = 32;
        config.relative_error = RELATIVE_ERROR;
        config.min_trackable = 0;
        config.max_trackable = MAX_VALUE;
        let mut h = std::ptr::null_mut();
        // SAFETY: both pointers are valid for the call.
        let status = unsafe { picollo_histogram_new(&config, &mut h) };
        assert_eq!(status, picollo_status::Ok);
        Ffi {
            h,
            record: black_box(picollo_histogram_record as RecordFn),
        }
    }

    fn info(&self) -> picollo_histogram_info {
        let mut info = picollo_histogram_info::default();
        // SAFETY: `self.h` is live; `info` is writable.
        let status = unsafe { picollo_histogram_get_info(self.h, &mut info) };
        assert_eq!(status, picollo_status::Ok);
        info
    }
}

impl Drop for Ffi {
    fn drop(&mut self) {
        // SAFETY: `self.h` came from `picollo_histogram_new` and is freed once.
        unsafe { picollo_histogram_free(self.h) }
    }
}

impl Contender for Ffi {
    fn name(&self) -> &'static str {
        "ffi"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        let (h, record) = (self.h, self.record);
        for &v in values {
            // SAFETY: `h` is a live handle used by this thread only.
            unsafe { record(h, v) };
        }
    }
    fn total(&self) -> u64 {
        let info = self.info();
        info.total + info.underflow + info.overflow
    }
    fn footprint_bytes(&self) -> usize {
        self.info().footprint_bytes as usize
    }
}

/// The histogram's own record function called directly (`picollo_histogram_record_fn`, no
/// NULL test or dispatch): `portable` picks the one for any x86-64 instead of the one chosen
/// for this CPU (built for `lzcnt` and BMI2 where it has them), side by side.
struct FfiFn {
    ffi: Ffi,
    portable: bool,
}

impl FfiFn {
    fn new(portable: bool) -> FfiFn {
        let mut ffi = Ffi::new();
        // SAFETY: a `picollo_histogram *` points to the `DynHistogram` behind the handle
        // (the C ABI's own `picollo_histogram_record_fn` reads it so), live until `ffi` is
        // dropped; the function is called only with this handle.
        let h = unsafe { &*(ffi.h as *const picollo_core::concurrent::DynHistogram) };
        let f = if portable {
            h.portable_record_fn()
        } else {
            h.record_fn()
        };
        // SAFETY: `&DynHistogram` and `*mut picollo_histogram` pass alike (a pointer), as
        // in `picollo_histogram_record_fn`.
        ffi.record = black_box(unsafe {
            std::mem::transmute::<picollo_core::concurrent::RecordFn, RecordFn>(f)
        });
        FfiFn { ffi, portable }
    }
}

impl Contender for FfiFn {
    fn name(&self) -> &'static str {
        if self.portable {
            "ffi fn, portable"
        } else {
            "ffi fn"
        }
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        self.ffi.record_all(values)
    }
    fn total(&self) -> u64 {
        self.ffi.total()
    }
    fn footprint_bytes(&self) -> usize {
        self.ffi.footprint_bytes()
    }
}

/// An empty `extern "C"` function called as [`Ffi`] calls `picollo_histogram_record`: what
/// the call alone costs (the floor of any record behind a call). It counts the calls it
/// makes in the loop's caller, so its total is checked like the others'.
struct EmptyCall {
    call: RecordFn,
    calls: u64,
}

/// Does nothing (never inlined: it is called through a pointer the optimiser cannot see).
extern "C" fn empty(_: *mut picollo_histogram, _: u64) {}

impl Contender for EmptyCall {
    fn name(&self) -> &'static str {
        "empty call"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        let call = self.call;
        for &v in values {
            // SAFETY: `empty` reads nothing.
            unsafe { call(std::ptr::null_mut(), v) };
        }
        self.calls += values.len() as u64;
    }
    fn total(&self) -> u64 {
        self.calls
    }
    fn footprint_bytes(&self) -> usize {
        0
    }
}

/// A loop of `c/header_record.c`: `(h, values, len, record function)`.
type CLoop = unsafe extern "C" fn(*mut picollo_histogram, *const u64, usize, RecordFn);

// The loops of `c/header_record.c`, linked into this binary by the package's build script.
// The handle is opaque to C: only its address crosses.
#[cfg(picollo_bench_c_loops)]
#[allow(improper_ctypes)]
extern "C" {
    fn picollo_bench_header_record_all(
        h: *mut picollo_histogram,
        values: *const u64,
        n: usize,
        f: RecordFn,
    );
    fn picollo_bench_fn_record_all(
        h: *mut picollo_histogram,
        values: *const u64,
        n: usize,
        f: RecordFn,
    );
    fn picollo_bench_inline_record_all(rec: *const picollo_recorder, values: *const u64, n: usize);
}

/// The inline recorder's loop of `c/header_record.c`: `(recorder, values, len)`.
type InlineLoop = unsafe extern "C" fn(*const picollo_recorder, *const u64, usize);

/// The loops of `c/header_record.c`, compiled by the package's build script at -O2 and
/// linked into this binary beside the Rust loops: the header's call and a held record
/// function's, or why there are none.
fn c_loops() -> Result<([CLoop; 2], InlineLoop), String> {
    #[cfg(picollo_bench_c_loops)]
    return Ok((
        [picollo_bench_header_record_all, picollo_bench_fn_record_all],
        picollo_bench_inline_record_all,
    ));
    #[cfg(not(picollo_bench_c_loops))]
    Err("the build script found no C compiler for the C loops".into())
}

/// A loop of `c/header_record.c` over a handle of its own: `c (header)` calls
/// `picollo_histogram_record(h, v)` as the header compiles it in C; `c fn` and `c ffi` call a
/// function the caller holds: the handle's record function, or the exported
/// `picollo_histogram_record`.
struct CCaller {
    ffi: Ffi,
    run: CLoop,
    name: &'static str,
}

impl CCaller {
    /// The three C contenders over `loops` (the header's and the held function's).
    fn all(loops: [CLoop; 2]) -> Vec<CCaller> {
        let fn_held = FfiFn::new(false).ffi;
        vec![
            CCaller {
                ffi: Ffi::new(),
                run: loops[0],
                name: "c (header)",
            },
            CCaller {
                ffi: fn_held,
                run: loops[1],
                name: "c fn",
            },
            CCaller {
                ffi: Ffi::new(),
                run: loops[1],
                name: "c ffi",
            },
        ]
    }
}

/// `c inline`: the header's inline recorder (`picollo_recorder_record`) in a C loop, over the
/// recorder of a handle of its own.
struct CInline {
    ffi: Ffi,
    recorder: picollo_recorder,
    run: InlineLoop,
}

impl CInline {
    fn new(run: InlineLoop) -> CInline {
        let ffi = Ffi::new();
        let mut recorder = std::mem::MaybeUninit::<picollo_recorder>::uninit();
        // SAFETY: a live handle and room for a recorder of this header's version.
        let status = unsafe {
            picollo_histogram_get_recorder(ffi.h, PICOLLO_RECORDER_VERSION, recorder.as_mut_ptr())
        };
        assert_eq!(status, picollo_status::Ok, "picollo_histogram_get_recorder");
        // SAFETY: written on success.
        let recorder = unsafe { recorder.assume_init() };
        CInline { ffi, recorder, run }
    }
}

impl Contender for CInline {
    fn name(&self) -> &'static str {
        "c inline"
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        // SAFETY: the recorder of a live single-writer handle that only this thread records
        // into; `values` has `len` values.
        unsafe { (self.run)(&self.recorder, values.as_ptr(), values.len()) };
    }
    fn total(&self) -> u64 {
        self.ffi.total()
    }
    fn footprint_bytes(&self) -> usize {
        self.ffi.footprint_bytes()
    }
}

impl Contender for CCaller {
    fn name(&self) -> &'static str {
        self.name
    }
    #[inline(never)]
    fn record_all(&mut self, values: &[u64]) {
        let (h, f) = (self.ffi.h, self.ffi.record);
        // SAFETY: a live handle used by this thread only, a record function for it (the
        // header's loop calls its own); `values` has `len` values.
        unsafe { (self.run)(h, values.as_ptr(), values.len(), f) };
    }
    fn total(&self) -> u64 {
        self.ffi.total()
    }
    fn footprint_bytes(&self) -> usize {
        self.ffi.footprint_bytes()
    }
}

/// Best ns per record of each contender over `RUNS` runs of `ROUNDS` passes.
fn measure(contenders: &mut [&mut dyn Contender], values: &[u64]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; contenders.len()];
    let mut rng = splitmix::SplitMix64(0x5eed);
    for _ in 0..RUNS {
        // A drawn order each run, so that no contender always follows the same one (a
        // rotation keeps who follows whom), and an untimed pass of its own first.
        for i in rng.shuffled(contenders.len()) {
            let c = &mut *contenders[i];
            c.record_all(black_box(values));
            let start = Instant::now();
            for _ in 0..ROUNDS {
                c.record_all(black_box(values));
            }
            let ns = start.elapsed().as_nanos() as f64 / (ROUNDS * values.len()) as f64;
            black_box(&mut *c);
            best[i] = best[i].min(ns);
        }
    }
    best
}

/// What the `many` rows are, and their ratios to the `histogram` crate's per-value record
/// in this run (`best`: the contenders' figures in `main`'s order).
fn many_note(path: picollo_core::BatchPath, best: &[f64]) {
    let env = picollo_core::BatchPath::ENV;
    println!(
        "many: Histogram::record_many_on, the offsets on the path chosen for this CPU ({}; \
         {env}={:?} forces one) and on the portable path; many / histogram: {:.2}x, \
         many (portable) / histogram: {:.2}x",
        path.name(),
        std::env::var(env).unwrap_or_default(),
        best[9] / best[2],
        best[10] / best[2],
    );
}

fn main() {
    let values = splitmix::latencies(0x5EED_0000_0000_0002);
    let config = picollo_core::Config::new()
        .with_relative_error(RELATIVE_ERROR)
        .with_range(0, MAX_VALUE);

    let mut picollo = Picollo(config.build::<u32>().expect("picollo config"));
    let mut hdr = Hdr {
        h: hdrhistogram::Histogram::new_with_bounds(1, MAX_VALUE, 3).expect("hdr config"),
        failed: 0,
    };
    let mut iop32 = Iop32 {
        h: ::histogram::Histogram32::new(10, 33).expect("histogram config"),
        failed: 0,
    };
    let mut iop64 = Iop64 {
        h: ::histogram::Histogram::new(10, 33).expect("histogram config"),
        failed: 0,
    };
    let mut ffi = Ffi::new();
    let mut exact = Picollo(
        config
            .build::<u32>()
            .expect("picollo config")
            .with_exact_extremes(),
    );

    let mut call = EmptyCall {
        call: black_box(empty as RecordFn),
        calls: 0,
    };

    let (mut ffi_fn, mut portable_fn) = (FfiFn::new(false), FfiFn::new(true));
    let path = picollo_core::BatchPath::chosen();
    let batch = |path| Many(config.build::<u32>().expect("picollo config"), path);
    let (mut many, mut many_portable) = (batch(path), batch(picollo_core::BatchPath::Portable));
    let (mut c_callers, mut c_inline) = match c_loops() {
        Ok((loops, inline)) => (CCaller::all(loops), Some(CInline::new(inline))),
        Err(why) => {
            println!(
                "c (header), c fn, c ffi, c inline: SKIPPED, the C loops could not be built: \
                 {why}"
            );
            (Vec::new(), None)
        }
    };

    let mut contenders: Vec<&mut dyn Contender> = vec![
        &mut picollo,
        &mut hdr,
        &mut iop32,
        &mut iop64,
        &mut ffi,
        &mut exact,
        &mut call,
        &mut ffi_fn,
        &mut portable_fn,
        &mut many,
        &mut many_portable,
    ];
    for c in &mut c_callers {
        contenders.push(c);
    }
    if let Some(c) = c_inline.as_mut() {
        contenders.push(c);
    }

    // Warm up: page in the counters and the values, settle the clock.
    for c in contenders.iter_mut() {
        c.record_all(&values);
    }
    let best = measure(&mut contenders, &values);

    let expected = ((1 + RUNS * (ROUNDS + 1)) * VALUES) as u64;
    println!(
        "record: {VALUES} values r^3 * {MAX_VALUE}, shuffled; relative error {RELATIVE_ERROR}, \
         u32 counters; best of {RUNS} runs x {ROUNDS} passes"
    );
    // Every contender finds a bucket with a count-leading-zeros: `bsr` on the x86-64 baseline
    // (about 4 cycles per instruction on AMD Zen 1-3), `lzcnt` with x86-64-v3 or native.
    println!(
        "built for {} with lzcnt: {}, bmi2: {}",
        std::env::consts::ARCH,
        cfg!(target_feature = "lzcnt"),
        cfg!(target_feature = "bmi2"),
    );
    println!(
        "{:<16} {:>10} {:>12} {:>12} {:>14}",
        "histogram", "ns/record", "vs picollo", "footprint", "total"
    );
    for (c, ns) in contenders.iter().zip(&best) {
        let total = black_box(c.total());
        println!(
            "{:<16} {:>10.2} {:>11.2}x {:>10} B {:>14}",
            c.name(),
            ns,
            ns / best[0],
            c.footprint_bytes(),
            total,
        );
        assert_eq!(total, expected, "{} lost values", c.name());
    }
    println!("hdrhistogram uses record(); histogram uses Histogram32::increment (u32 counters)");
    println!("picollo (exact) keeps the exact smallest and largest value too");
    println!("empty call: an empty extern \"C\" function called as ffi calls the record");
    println!(
        "ffi fn: picollo_histogram_record_fn's function, built for lzcnt and BMI2, chosen where \
         the CPU has them; ffi fn, portable: the one for any x86-64; the plain histogram takes \
         its log2 with {} here",
        if picollo_core::Log2::for_this_cpu().uses_lzcnt() {
            "lzcnt"
        } else {
            "bsr"
        }
    );
    println!(
        "c (header): picollo_histogram_record(h, v) in C as the header compiles it (an inline \
         call of the handle's record function); c fn: the same C loop calling the record \
         function it holds; c ffi: that C loop calling picollo_histogram_record; c inline: \
         the header's inline recorder (picollo_recorder_record) in a C loop, no call"
    );
    many_note(path, &best);
    report::report(&format!(
        "bench record: picollo={:.2} hdrhistogram={:.2} histogram={:.2} ffi={:.2} call={:.2} \
         fn={:.2} portable={:.2} many={:.2} many_path={} many_portable={:.2} c={:.2} c_fn={:.2} \
         c_ffi={:.2} c_inline={:.2}",
        best[0],
        best[1],
        best[2],
        best[4],
        best[6],
        best[7],
        best[8],
        best[9],
        path.name(),
        best[10],
        best.get(11).copied().unwrap_or(f64::NAN),
        best.get(12).copied().unwrap_or(f64::NAN),
        best.get(13).copied().unwrap_or(f64::NAN),
        best.get(14).copied().unwrap_or(f64::NAN)
    ));
}
