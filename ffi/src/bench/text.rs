//! Text of benchmark results into caller buffers (`picollo_bench_result_text`, by a
//! `picollo_bench_format`, which names a format of the harness's table) and the comparison of two results with its verdict
//! (`picollo_bench_compare`, on time; `picollo_bench_compare_metric`, on a metric named), and
//! a result judged on runs apart (`picollo_bench_judge_apart`).
#![cfg(target_os = "linux")]

use std::ffi::c_char;
use std::fmt::Write;

use picollo_bench::rules::median_round;
use picollo_bench::shift::Design;
use picollo_bench::{compare, compare_on, judge_apart, BenchResult, Comparison, Verdict, SCALE};

use crate::args::{out, query, sized_out, try_slice, try_str};
use crate::bench::args::{bench_failure, picollo_bench_result};
use crate::bench::format::suite_text;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::choice::choice;
use crate::error::Failure;
use crate::handle::try_ref;
use crate::linux_enums::{picollo_bench_format, picollo_bench_verdict};
use crate::status::picollo_status;
use crate::text::{fmt_internal, rendered};

impl From<Verdict> for picollo_bench_verdict {
    fn from(v: Verdict) -> Self {
        match v {
            Verdict::NoDifference => picollo_bench_verdict::NoDifference,
            Verdict::Faster(_) => picollo_bench_verdict::Faster,
            Verdict::Slower(_) => picollo_bench_verdict::Slower,
            Verdict::WithinNoise(_) => picollo_bench_verdict::WithinNoise,
            Verdict::NotEnoughRounds => picollo_bench_verdict::NotEnoughRounds,
            Verdict::NotEnoughRunsApart => picollo_bench_verdict::NotEnoughRunsApart,
            Verdict::NotJudged => picollo_bench_verdict::NotJudged,
            Verdict::NotSettled => picollo_bench_verdict::NotSettled,
        }
    }
}

/// The figures behind a comparison's verdict (`picollo_bench_compare_info`); set
/// `struct_size` to `sizeof(picollo_bench_comparison)` before the call. Percentages are of
/// A's median round; an interval end is ±infinity when the rounds are too few. ABI 1.13.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_bench_comparison {
    /// `sizeof(picollo_bench_comparison)`, set by the caller.
    pub struct_size: u32,
    /// The verdict (a `picollo_bench_verdict`).
    pub verdict: u32,
    /// B's time per operation over A's: `1 + change / 100`.
    pub ratio: f64,
    /// B's change against A in percent: the estimate of the shift of the rounds' medians.
    pub change: f64,
    /// The 99 % interval of `change`: its lower end.
    pub change_low: f64,
    /// Its upper end.
    pub change_high: f64,
    /// The smallest change the comparison could tell from noise: half the interval, in %.
    pub noise_floor: f64,
    /// The threshold in percent below which a difference is within noise (0: none).
    pub threshold: f64,
    /// The rounds of A.
    pub rounds_a: u64,
    /// The rounds of B.
    pub rounds_b: u64,
    /// 1: the rounds were interleaved and judged in pairs; 0: measured apart.
    pub paired: u32,
    /// How many warnings the comparison's text gives about its rounds (drift).
    pub warnings: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, then integers and floats only.
crate::args::struct_sized!(picollo_bench_comparison);

/// The comparison's figures in the C struct (with the caller's `struct_size`).
fn comparison_info(c: &Comparison, struct_size: u32) -> picollo_bench_comparison {
    picollo_bench_comparison {
        struct_size,
        verdict: picollo_bench_verdict::from(c.verdict) as u32,
        ratio: c.ratio,
        change: c.change.estimate,
        change_low: c.change.low,
        change_high: c.change.high,
        noise_floor: c.noise_floor,
        threshold: c.threshold,
        rounds_a: c.rounds.0 as u64,
        rounds_b: c.rounds.1 as u64,
        paired: u32::from(c.design == Design::Paired),
        warnings: c.warnings.len() as u32,
    }
}

/// Writes result `r` in `format` (a `picollo_bench_format`: the format of that name in
/// `picollo_bench_format_names`, as `picollo_bench_result_format` writes it) into `buf`.
/// Errors: NULL `r`; `INVALID_ARGUMENT` for an unknown format; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_text(
    r: *const picollo_bench_result,
    format: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let r = try_ref!(r)?;
        let format = choice::<picollo_bench_format>(format, "format")?.format()?;
        write_text!(&suite_text(&[&r.result], format)?, buf, len, needed)
    })
}

/// Writes result `b` against `a`, round against round (diff tables, method, warnings, `verdict:
/// …` line), into `buf`, then the verdict to `*verdict` and B's time over A's (`1 + change/100`)
/// to `*ratio`, each unless NULL. Errors: NULL `a` or `b`; `BUFFER_TOO_SMALL` (`verdict`,
/// `ratio` unwritten).
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_compare(
    a: *const picollo_bench_result,
    b: *const picollo_bench_result,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    verdict: *mut picollo_bench_verdict,
    ratio: *mut f64,
) -> picollo_status {
    boundary!({
        let (a, b) = (try_ref!(a)?, try_ref!(b)?);
        let c = compare(&a.result, &b.result);
        let text = rendered(|out| write!(out, "{c}")).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)?;
        out!(verdict?, c.verdict.into())?;
        out!(ratio?, c.ratio)
    })
}

/// Writes result `b` against `a` (as `picollo_bench_compare` judges them) as one
/// self-contained HTML page into `buf`: the verdict and a table of every metric's change,
/// the warnings, per metric the shift of each percentile with its 99 % interval, both
/// percentile spectra and both sides' rounds in run order, the method, each side's tail
/// attribution and conditions. Errors: NULL `a` or `b`; `BUFFER_TOO_SMALL`. ABI 1.17.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_compare_html(
    a: *const picollo_bench_result,
    b: *const picollo_bench_result,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let (a, b) = (&try_ref!(a)?.result, &try_ref!(b)?.result);
        let c = compare(a, b);
        let page = rendered(|out| c.write_html(a, b, out)).map_err(fmt_internal)?;
        write_text!(&page, buf, len, needed)
    })
}

/// Writes result `b` against `a` judged on metric `metric` into `buf`, as
/// `picollo_bench_compare` writes a comparison on time: `time`, a counter's name
/// (`Hardware:Instructions`), or its part after `:` in any case where one metric of both
/// answers to it (`instructions`). A count whose figures agree within its read jitter on
/// both sides (2 counts or 0.01 % of the median; an emulated count exactly) is judged
/// without statistics: B − A, bounded by the least and the largest difference of a figure
/// of B and one of A; any other metric on its rounds, as time is. Then, each unless NULL:
/// the figures to `*out` (percentages of A's median of the metric), the judged metric's
/// index in `a` to `*metric_index`, and to `*exact` 1 where it was judged without
/// statistics, else 0. Errors: NULL `a`, `b` or `metric`; `INVALID_UTF8`;
/// `INVALID_ARGUMENT` for a metric both results do not have, or a name that several
/// answer to (the message names them); `STRUCT_SIZE`; `BUFFER_TOO_SMALL` (no output
/// written). ABI 1.19.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_compare_metric(
    a: *const picollo_bench_result,
    b: *const picollo_bench_result,
    metric: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    out: *mut picollo_bench_comparison,
    metric_index: *mut usize,
    exact: *mut u32,
) -> picollo_status {
    boundary!({
        let (a, b) = (&try_ref!(a)?.result, &try_ref!(b)?.result);
        let metric = try_str!(metric)?;
        let sized = match out.is_null() {
            true => None,
            false => Some(sized_out!(out)?),
        };
        let c = compare_on(a, b, metric).map_err(bench_failure)?;
        let text = rendered(|w| write!(w, "{c}")).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)?;
        if let Some((out, struct_size)) = sized {
            out!(out, comparison_info(&c, struct_size))?;
        }
        let index = a.metrics.iter().position(|m| m.metric == c.metric);
        out!(metric_index?, index.unwrap_or(a.time_index()))?;
        out!(exact?, u32::from(c.steady.is_some()))
    })
}

/// Writes the figures of result `b` against `a` (as `picollo_bench_compare` judges them) to
/// `*out`. Errors: NULL `a`, `b` or `out`; `STRUCT_SIZE` when `out->struct_size` is smaller
/// than this library's struct. Safety: `out->struct_size` is set by the caller.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_compare_info(
    a: *const picollo_bench_result,
    b: *const picollo_bench_result,
    out: *mut picollo_bench_comparison,
) -> picollo_status {
    boundary!({
        let (a, b) = (try_ref!(a)?, try_ref!(b)?);
        let (out, struct_size) = sized_out!(out)?;
        let c = compare(&a.result, &b.result);
        out!(out, comparison_info(&c, struct_size))
    })
}

/// Writes the figure of result `r` as one run apart to `*out`: the median of its rounds'
/// median time per operation, in nanoseconds (NaN without rounds). Save it per run (each a
/// fresh process) for `picollo_bench_judge_apart`. Errors: NULL `r` or `out`. ABI 1.15.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_median_round(
    r: *const picollo_bench_result,
    out: *mut f64,
) -> picollo_status {
    query!(r, |r| median_round(&r.result) / SCALE as f64 => out)
}

/// Judges result `b` against runs measured apart: `runs_apart[0..k]` holds the
/// `picollo_bench_result_median_round` of each earlier run (e.g. saved from earlier
/// processes). B's figure against the 99 % prediction interval of theirs (Student's t on
/// the logs): the method and the `verdict: …` line into `buf`, the figures to `*out`
/// unless NULL (`rounds_a` is `k`); fewer than 2 runs: `NOT_ENOUGH_RUNS_APART`; runs whose
/// noise floor reaches 100 %: `NOT_JUDGED` (ABI 1.26). Errors:
/// NULL `b`, or `runs_apart` with `k` > 0; `INVALID_ARGUMENT` for a run apart that is not
/// a positive finite time; `STRUCT_SIZE`; `BUFFER_TOO_SMALL` (`*out` unwritten). ABI 1.15.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_judge_apart(
    b: *const picollo_bench_result,
    runs_apart: *const f64,
    k: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    out: *mut picollo_bench_comparison,
) -> picollo_status {
    boundary!({
        let b = try_ref!(b)?;
        let runs = try_slice!(runs_apart, k)?;
        if let Some(bad) = runs.iter().find(|m| !(m.is_finite() && **m > 0.0)) {
            return Err(Failure::invalid(format_args!(
                "runs_apart holds {bad}: each must be a positive finite time in nanoseconds"
            )));
        }
        let c = judged_apart(&b.result, runs);
        let text = rendered(|w| {
            c.write_method(w)?;
            w.write_str("\n")?;
            c.write_verdict(w)?;
            w.write_str("\n")
        });
        write_text!(&text.map_err(fmt_internal)?, buf, len, needed)?;
        if out.is_null() {
            return Ok(());
        }
        let (out, struct_size) = sized_out!(out)?;
        out!(out, comparison_info(&c, struct_size))
    })
}

/// `b` judged against runs apart given in nanoseconds.
fn judged_apart(b: &BenchResult, runs: &[f64]) -> Comparison {
    let mut c = compare(b, b);
    c.design = Design::Unpaired;
    c.a = "the baseline".into();
    (c.metrics, c.warnings) = (Vec::new(), Vec::new());
    // The baseline is runs apart in nanoseconds: no rate of its own.
    c.rates = None;
    c.rounds.0 = runs.len();
    let saved: Vec<f64> = runs.iter().map(|m| m * SCALE as f64).collect();
    judge_apart(&mut c, &saved, median_round(b));
    c
}
