//! `picollo_bench_config` (and the opaque `picollo_bench_result` it may name as a baseline),
//! read into the harness's settings; harness errors turned into statuses.
#![cfg(target_os = "linux")]

use std::ffi::c_char;
use std::time::Duration;

use picollo_bench::{Bench, BenchError, BenchErrorKind};
use picollo_perf::{Event, ReadPolicy};

use crate::args::{optional_str, str_from, StructSized};
use crate::choice::{choice, flag};
use crate::error::Failure;
use crate::linux_enums::picollo_perf_read_path;
use crate::perf::args::perf_status;
use crate::perf::parse_event;
use crate::status::picollo_status;

/// How to run a benchmark (`picollo_bench_run`); take it from `picollo_bench_config_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_bench_config {
    /// `sizeof(picollo_bench_config)`, set by `picollo_bench_config_default`.
    pub struct_size: u32,
    /// The CPU to pin the calling thread to (it stays pinned after the run); -1: no pinning.
    pub pinned_cpu: i32,
    /// The name the report shows (NUL-terminated UTF-8, read during the call); NULL: "bench".
    pub name: *const c_char,
    /// Counters beside time, comma-separated `picollo_perf_session_add_named` names; "": none.
    /// NULL: a default set the PMU allows (docs/c-api.md, "Benchmarks").
    pub counters: *const c_char,
    /// The most samples (batches) to record, at least 1; default 1,000,000 (the time budget
    /// ends the run first).
    pub samples: u64,
    /// Operations per sample, 1 to 2^24; 0 (the default): the read pair at most 1 % of a batch,
    /// and a batch at least a thousand steps of the clock.
    pub batch: u64,
    /// The most seconds the samples may take (at least one is taken); default 5.
    pub time_budget: f64,
    /// The most seconds the warm-up may take; default 1.
    pub warmup: f64,
    /// The histograms' relative error; default 0.0001.
    pub relative_error: f64,
    /// The nice value (-20 to 19) to run at when `set_nice` is 1 (the thread keeps it).
    pub nice: i32,
    /// 1: run at `nice`; 0 (the default): leave the thread's priority as it is.
    pub set_nice: u32,
    /// A result (borrowed) whose median per operation is subtracted; NULL: none. ABI 1.10.
    pub baseline: *const picollo_bench_result,
    /// The change in percent below which a comparison against the result calls a
    /// difference within noise; 0: the default, 1 %; negative: none (every difference
    /// at 99 % is faster or slower). ABI 1.13.
    pub threshold: f64,
    /// Rounds to cut the samples into (a run), or to run both sides in (an interleaved
    /// comparison), 1 to 1,000,000; 0: 10 for a run, one per 0.1 s of `time_budget` (10 to
    /// 100) for a comparison. ABI 1.13.
    pub rounds: u64,
    /// The seed of each interleaved round's order; 0: drawn from the clock. ABI 1.13.
    pub seed: u64,
    /// 0 (the default): each turn of an interleaved comparison runs at a random stack depth
    /// with a random heap block held, so that no one placement favours a side; 1: one
    /// placement for the whole comparison. ABI 1.15.
    pub fixed_offsets: u32,
    /// Why the measured code is known to be unoptimized (NUL-terminated UTF-8, read during
    /// the call), or NULL: every result then warns that its figures are not an optimized
    /// build's. The header's `picollo_bench_config_default()` sets it for a GCC or Clang
    /// caller compiled without optimization (`__OPTIMIZE__` undefined). ABI 1.16.
    pub unoptimized: *const c_char,
    /// The read path the counters are forced onto, a `picollo_perf_read_path`: `SYSCALL` or
    /// `RDPMC` (user space wherever the page allows); `NONE` (0, the default): the cheaper,
    /// both timed when the counters open. The result's PMU line says which was taken and
    /// why. ABI 1.19.
    pub force_read_path: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, then integers, floats and raw pointers,
// which take every bit pattern (the pointers are checked when read). ABI 1.9 ended the
// struct before `baseline`, ABI 1.10 to 1.12 before `threshold`, ABI 1.13 and 1.14 before
// `fixed_offsets`, ABI 1.15 before `unoptimized`, ABI 1.16 to 1.18 before `force_read_path`.
crate::args::struct_sized!(
    picollo_bench_config,
    older: [baseline, threshold, fixed_offsets, unoptimized, force_read_path]
);

/// Returns the default config: no name, the default counters, samples for 5 s, an
/// automatic batch, up to 1 s of warm-up, no pinning, the priority unchanged, 0.0001, the
/// default rounds and threshold (1 %), a seed from the clock.
#[no_mangle]
pub extern "C" fn picollo_bench_config_default() -> picollo_bench_config {
    picollo_bench_config {
        pinned_cpu: -1,
        samples: 1_000_000,
        time_budget: 5.0,
        warmup: 1.0,
        relative_error: 0.0001,
        ..picollo_bench_config::sized()
    }
}

/// What a benchmark measured (opaque), from `picollo_bench_run`, for `picollo_bench_result_free`.
/// Threads: never changed after the run, read by any number at once; `_free` races none.
pub struct picollo_bench_result {
    _private: [u8; 0],
}

/// The status of a harness error.
pub(crate) fn bench_failure(e: BenchError) -> Failure {
    use std::io::ErrorKind;
    let status = match e.kind() {
        BenchErrorKind::Invalid | BenchErrorKind::Os(ErrorKind::InvalidInput) => {
            picollo_status::InvalidArgument
        }
        BenchErrorKind::Counter(kind) => perf_status(kind),
        BenchErrorKind::Os(ErrorKind::PermissionDenied) => picollo_status::PermissionDenied,
        BenchErrorKind::Format => picollo_status::Panic,
        _ => picollo_status::OsError,
    };
    Failure::new(status, e.message())
}

/// The counters of a comma-separated list ("" is none; NULL the default set).
fn counters(list: Option<&str>) -> Result<Option<Vec<Event>>, Failure> {
    let Some(list) = list else { return Ok(None) };
    if list.trim().is_empty() {
        return Ok(Some(Vec::new()));
    }
    let events = list.split(',').map(|name| parse_event(name.trim()));
    events.collect::<Result<_, _>>().map(Some)
}

/// `seconds` as a duration, or `INVALID_ARGUMENT` naming the field.
fn seconds(seconds: f64, field: &str) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        Failure::invalid(format_args!(
            "config->{field} is {seconds:e}: it must be a finite number of seconds, 0 or more"
        ))
    })
}

/// The harness's settings from a caller's config.
///
/// # Safety
/// `c.name`, `c.counters` and `c.unoptimized` are NULL or NUL-terminated strings.
pub(crate) unsafe fn bench_of(c: &picollo_bench_config) -> Result<Bench, Failure> {
    // SAFETY: the strings are NULL or NUL-terminated, per the caller.
    let name = unsafe { str_from(c.name, "config->name", Some("bench")) }?;
    // SAFETY: as above.
    let list = unsafe { optional_str(c.counters, "config->counters") }?;
    let samples = usize::try_from(c.samples)
        .map_err(|_| Failure::invalid("config->samples does not fit in memory"))?;
    let mut b = Bench::new(name)
        .with_samples(samples)
        .with_time_budget(seconds(c.time_budget, "time_budget")?)
        .with_warmup(seconds(c.warmup, "warmup")?)
        .with_relative_error(c.relative_error);
    if let Some(events) = counters(list)? {
        b = b.with_counters(&events);
    }
    if c.batch != 0 {
        b = b.with_batch(c.batch);
    }
    match c.pinned_cpu {
        -1 => {}
        cpu @ 0.. => b = b.with_pinned_cpu(cpu as usize),
        cpu => {
            return Err(Failure::invalid(format_args!(
                "config->pinned_cpu is {cpu}: it must be a CPU number or -1 (no pinning)"
            )))
        }
    }
    if flag(c.set_nice, "config->set_nice")? {
        b = b.with_nice(c.nice);
    }
    let fixed = flag(c.fixed_offsets, "config->fixed_offsets")?;
    // The caller's build, as it says (never this library's own).
    // SAFETY: as above.
    let unoptimized = unsafe { optional_str(c.unoptimized, "config->unoptimized") }?;
    let b = b.with_random_offsets(!fixed).with_unoptimized(unoptimized);
    Ok(rounds_of(b, c).with_read_path(read_path_of(c.force_read_path)?))
}

/// The read policy of `force_read_path` (a `picollo_perf_read_path`, `NONE` for the cheaper).
fn read_path_of(force: u32) -> Result<ReadPolicy, Failure> {
    Ok(match choice(force, "config->force_read_path")? {
        picollo_perf_read_path::None => ReadPolicy::Auto,
        picollo_perf_read_path::Syscall => ReadPolicy::Syscall,
        picollo_perf_read_path::Rdpmc => ReadPolicy::UserSpace,
    })
}

/// `b` with the config's rounds, threshold and seed (0: the defaults; a negative
/// threshold: none). The harness checks their ranges.
fn rounds_of(mut b: Bench, c: &picollo_bench_config) -> Bench {
    if c.rounds != 0 {
        b = b.with_rounds(usize::try_from(c.rounds).unwrap_or(usize::MAX));
    }
    match c.threshold {
        0.0 => {}
        t if t.is_finite() && t < 0.0 => b = b.with_threshold(0.0),
        t => b = b.with_threshold(t),
    }
    if c.seed != 0 {
        b = b.with_seed(c.seed);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_lists_parse_as_documented() {
        assert_eq!(counters(None).unwrap(), None);
        assert_eq!(counters(Some("")).unwrap(), Some(Vec::new()));
        let two = counters(Some(" Software:TaskClock , Software:PageFaults")).unwrap();
        assert_eq!(two.map(|e| e.len()), Some(2));
        for bad in [
            "Software:TaskClock,",
            "Hardware:Nope",
            ",Software:TaskClock",
        ] {
            let e = counters(Some(bad)).unwrap_err();
            assert_eq!(e.status, picollo_status::InvalidArgument, "{bad}");
        }
    }
}
