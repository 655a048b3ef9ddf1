//! `picollo_bench_*`: the benchmark harness (`picollo::bench`) over the C ABI. A run takes a
//! `picollo_bench_config` and the measured work as a C callback, and gives a
//! `picollo_bench_result` whose per-metric histograms C reads with the `picollo_histogram_*`
//! queries: each is a `picollo_histogram` (64-bit counters, single writer) filled from the
//! core result's counts when the run ends, owned by the result and lent out.
#![cfg(target_os = "linux")]

pub(crate) mod args;
pub(crate) mod export;
pub(crate) mod floor;
pub(crate) mod format;
pub(crate) mod suite;
pub(crate) mod text;

pub use args::{picollo_bench_config, picollo_bench_config_default, picollo_bench_result};
pub use export::*;
pub use floor::*;
pub use format::*;
pub use suite::*;
pub use text::*;

use std::ffi::{c_char, c_void};

use picollo_bench::{Bench, BenchResult};
use picollo_core::concurrent::{CounterBits, Mode};

use crate::args::{out, query, read_sized, str_from};
use crate::bench::args::{bench_failure, bench_of};
use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref};
use crate::histogram::any::{config_error, merge_error, Histogram, HistogramHandle};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

crate::handle::boxed!(picollo_bench_result => BenchRun);

/// The Rust value behind a `picollo_bench_result`: the core result and, per metric, the
/// histogram lent to C.
pub(crate) struct BenchRun {
    pub(crate) result: BenchResult,
    histograms: Vec<HistogramHandle>,
}

impl BenchRun {
    fn new(result: BenchResult) -> Result<Self, Failure> {
        let histograms = result.metrics.iter().map(|m| {
            let h = Histogram::new(m.histogram.config(), CounterBits::U64, Mode::SingleWriter)
                .map_err(config_error)?;
            h.add_view(&m.histogram.view()).map_err(merge_error)?;
            Ok(HistogramHandle::lent(h, "a bench result", true))
        });
        Ok(BenchRun {
            histograms: histograms.collect::<Result<_, Failure>>()?,
            result,
        })
    }

    /// Metric `index`, or `OUT_OF_RANGE`.
    fn metric(&self, index: usize) -> Result<usize, Failure> {
        let n = self.result.metrics.len();
        if index >= n {
            return Err(Failure::out_of_range(format_args!(
                "metric {index} does not exist: the result has {n}"
            )));
        }
        Ok(index)
    }
}

/// `bench` with the config's baseline result, if it names one.
pub(crate) fn with_baseline(bench: Bench, config: &picollo_bench_config) -> Result<Bench, Failure> {
    if config.baseline.is_null() {
        return Ok(bench);
    }
    let baseline = try_ref!(config.baseline, "config->baseline")?;
    Ok(bench.with_baseline(&baseline.result))
}

/// The measured work: runs `iterations` operations with the caller's `ctx`; it must not
/// unwind or longjmp out.
pub type picollo_bench_work = Option<unsafe extern "C" fn(ctx: *mut c_void, iterations: u64)>;

/// Measures `work(ctx, k)` (k operations a call) on the calling thread as `config` says, into a
/// new result in `*out` for `picollo_bench_result_free` (docs/c-api.md, "Benchmarks"). Errors:
/// NULL `config`, `work` or `out`; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT` for a bad
/// setting or counter name; `UNSUPPORTED`, `PERMISSION_DENIED` or `OS_ERROR` for a counter.
/// Safety: `work` may be called with `ctx` during the call and never unwinds or longjmps out.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_run(
    config: *const picollo_bench_config,
    work: picollo_bench_work,
    ctx: *mut c_void,
    out: *mut *mut picollo_bench_result,
) -> picollo_status {
    boundary!({
        let config = read_sized!(config)?;
        let work = work.ok_or_else(|| Failure::null("work"))?;
        let out = try_mut!(out)?;
        // SAFETY: the strings of `config` are NULL or NUL-terminated, per the caller.
        let bench = with_baseline(unsafe { bench_of(&config) }?, &config)?;
        // SAFETY: the caller promises `work` may be called with `ctx`, on this thread.
        let result = bench.run_batched(|k| unsafe { work(ctx, k) });
        set_boxed(out, BenchRun::new(result.map_err(bench_failure)?)?);
        Ok(())
    })
}

/// Compares `work_a(ctx_a, k)` with `work_b(ctx_b, k)` interleaved, on the calling thread as
/// `config` says: both warm up, then every round runs both back to back in a random order;
/// the two results, named `name_a` and `name_b` (NULL: "A", "B"), go to `*out_a` and
/// `*out_b` for `picollo_bench_result_free`, and `picollo_bench_compare` of the two judges
/// round against round (docs/c-api.md, "Benchmarks"). Errors: as `picollo_bench_run`; the
/// outputs are written only on success. Safety: as `picollo_bench_run`, for both callbacks.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_compare_run(
    config: *const picollo_bench_config,
    name_a: *const c_char,
    work_a: picollo_bench_work,
    ctx_a: *mut c_void,
    name_b: *const c_char,
    work_b: picollo_bench_work,
    ctx_b: *mut c_void,
    out_a: *mut *mut picollo_bench_result,
    out_b: *mut *mut picollo_bench_result,
) -> picollo_status {
    boundary!({
        let config = read_sized!(config)?;
        let work_a = work_a.ok_or_else(|| Failure::null("work_a"))?;
        let work_b = work_b.ok_or_else(|| Failure::null("work_b"))?;
        let (out_a, out_b) = (try_mut!(out_a)?, try_mut!(out_b)?);
        // SAFETY: the names are NULL or NUL-terminated, per the caller.
        let name_a = unsafe { str_from(name_a, "name_a", Some("A")) }?;
        // SAFETY: as above.
        let name_b = unsafe { str_from(name_b, "name_b", Some("B")) }?;
        // SAFETY: the strings of `config` are NULL or NUL-terminated, per the caller.
        let bench = with_baseline(unsafe { bench_of(&config) }?, &config)?;
        // SAFETY: the caller promises each callback may be called with its `ctx`, here.
        let a = (name_a, |k| unsafe { work_a(ctx_a, k) });
        // SAFETY: as above.
        let b = (name_b, |k| unsafe { work_b(ctx_b, k) });
        let pair = bench.compare_batched(a, b).map_err(bench_failure)?;
        let (a, b) = (BenchRun::new(pair.a)?, BenchRun::new(pair.b)?);
        set_boxed(out_a, a);
        set_boxed(out_b, b);
        Ok(())
    })
}

/// Frees a result and the histograms it lends; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_free(r: *mut picollo_bench_result) {
    free_boxed!(r)
}

/// Writes the number of metrics to `*out`: time (metric 0) then each counter. Errors: NULL
/// `r` or `out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_metric_count(
    r: *const picollo_bench_result,
    out: *mut usize,
) -> picollo_status {
    query!(r, |r| r.result.metrics.len() => out)
}

/// Writes the name of metric `index` (`time`, `Software:TaskClock`…) into `buf`. Errors: NULL
/// `r`; `OUT_OF_RANGE`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_metric_name(
    r: *const picollo_bench_result,
    index: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    query!(r, |r| &r.result.metrics[r.metric(index)?].metric.name => text(buf, len, needed))
}

/// Writes the unit of metric `index` (`ns` or `events`, per operation) into `buf`. Errors:
/// NULL `r`; `OUT_OF_RANGE`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_metric_unit(
    r: *const picollo_bench_result,
    index: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    query!(r, |r| r.result.metrics[r.metric(index)?].metric.unit.as_str() => text(buf, len, needed))
}

/// Writes to `*out` 1 when metric `index` counts exactly (an emulated counter,
/// `Emulated:*`: the same work always gives the same figure), else 0. Errors: NULL `r` or
/// `out`; `OUT_OF_RANGE`. ABI 1.16.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_metric_exact(
    r: *const picollo_bench_result,
    index: usize,
    out: *mut u32,
) -> picollo_status {
    query!(r, |r| u32::from(r.result.metrics[r.metric(index)?].metric.is_exact()) => out)
}

/// Writes the `rank` percentile (0 to 100) of metric `index` per operation, in its unit, to
/// `*out`: for an exact metric the figure of the sample at that rank itself, else the
/// histogram's bucket value (as `picollo_bench_result_histogram` gives it, divided by 1000).
/// Errors: NULL `r` or `out`; `OUT_OF_RANGE`; `INVALID_ARGUMENT` for a rank outside 0..100
/// or NaN. ABI 1.16.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_percentile(
    r: *const picollo_bench_result,
    index: usize,
    rank: f64,
    out: *mut f64,
) -> picollo_status {
    query!(
        r,
        out = |r| {
            let index = r.metric(index)?;
            if !(0.0..=100.0).contains(&rank) {
                return Err(Failure::invalid(format_args!(
                    "rank {rank} is not a percentile: 0 to 100"
                )));
            }
            r.result.percentile_at(index, rank).unwrap_or(f64::NAN)
        }
    )
}

/// Writes to `*out` the figure per operation (in its unit) that every sample of exact metric
/// `index` gave, or NaN when they differ. Two results' constants differ by exactly the work
/// between them. Errors: NULL `r` or `out`; `OUT_OF_RANGE`; `INVALID_ARGUMENT` for a metric
/// that is not exact. ABI 1.16.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_constant(
    r: *const picollo_bench_result,
    index: usize,
    out: *mut f64,
) -> picollo_status {
    query!(
        r,
        out = |r| {
            let metric = &r.result.metrics[r.metric(index)?].metric;
            if !metric.is_exact() {
                return Err(Failure::invalid(format_args!(
                    "metric {index} ({}) is not exact: its figures vary with the machine",
                    metric.name
                )));
            }
            r.result.constant(&metric.name).unwrap_or(f64::NAN)
        }
    )
}

/// Lends in `*out` the histogram of metric `index` (per operation, in thousandths of its unit):
/// BORROWED and read-only until `picollo_bench_result_free`. Errors: NULL `r` or `out`;
/// `OUT_OF_RANGE`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_histogram(
    r: *const picollo_bench_result,
    index: usize,
    out: *mut *const picollo_histogram,
) -> picollo_status {
    boundary!({
        let r = try_ref!(r)?;
        let h: *const HistogramHandle = &r.histograms[r.metric(index)?];
        out!(out, h.cast::<picollo_histogram>())
    })
}

#[cfg(test)]
mod tests {
    use std::ptr;

    use super::*;
    use crate::bench::args::picollo_bench_config_default;
    use crate::testing::last_error;

    unsafe extern "C" fn count_calls(ctx: *mut c_void, iterations: u64) {
        // SAFETY: the tests pass a `u64` counter as `ctx`.
        unsafe { *ctx.cast::<u64>() += iterations };
    }

    fn quick_config() -> picollo_bench_config {
        picollo_bench_config {
            counters: c"".as_ptr(),
            samples: 50,
            batch: 3,
            warmup: 0.0,
            ..picollo_bench_config_default()
        }
    }

    fn run(
        config: &picollo_bench_config,
        ops: &mut u64,
    ) -> (picollo_status, *mut picollo_bench_result) {
        let mut out = ptr::null_mut();
        let ctx = (ops as *mut u64).cast::<c_void>();
        // SAFETY: a valid config (static strings), a callback that takes a `u64` as ctx.
        let st = unsafe { picollo_bench_run(config, Some(count_calls), ctx, &mut out) };
        (st, out)
    }

    #[test]
    fn the_lent_histogram_holds_exactly_the_results_counts() {
        let mut ops = 0;
        let (st, r) = run(&quick_config(), &mut ops);
        assert_eq!(st, picollo_status::Ok, "{}", last_error());
        // SAFETY: a live result from the run, freed below.
        let run = unsafe { &*r.cast::<BenchRun>() };
        let core = run.result.time().histogram.view().summary();
        let lent = run.histograms[0].with_view(|v| v.summary()).unwrap();
        assert_eq!(lent, core);
        assert!(ops > 0 && ops % 3 == 0 && core.total <= 50);
        // SAFETY: the result is live and freed once.
        unsafe { picollo_bench_result_free(r) };
    }

    #[test]
    fn bad_settings_fail_before_any_work() {
        type Spoil = fn(&mut picollo_bench_config);
        let cases: [(Spoil, &str); 6] = [
            (|c| c.samples = 0, "samples"),
            (|c| c.batch = (1 << 24) + 1, "batch"),
            (|c| c.time_budget = f64::NAN, "time_budget"),
            (|c| c.pinned_cpu = -2, "pinned_cpu"),
            (|c| c.set_nice = 2, "set_nice"),
            (|c| (c.set_nice, c.nice) = (1, 20), "nice"),
        ];
        for (spoil, needle) in cases {
            let mut config = quick_config();
            spoil(&mut config);
            let mut ops = 0;
            let (st, r) = run(&config, &mut ops);
            assert_eq!(st, picollo_status::InvalidArgument, "{needle}");
            assert!(last_error().contains(needle), "{}", last_error());
            assert!(r.is_null() && ops == 0, "{needle}");
        }
    }
}
