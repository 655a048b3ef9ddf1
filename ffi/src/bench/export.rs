//! A suite of benchmark results in the formats of CI tools (`picollo_bench_results_text`)
//! and the Markdown summary of comparisons (`picollo_bench_summary`): the harness's
//! writers (`picollo_bench::export`), over C arrays of result handles.
#![cfg(target_os = "linux")]

use std::ffi::c_char;

use picollo_bench::export::{Findings, Scope};
use picollo_bench::BenchResult;

use crate::args::slice_from;
use crate::bench::args::{bench_failure, picollo_bench_result};
use crate::bench::format::suite_text;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::choice::choice;
use crate::error::Failure;
use crate::handle::ref_from;
use crate::linux_enums::picollo_bench_format;
use crate::status::picollo_status;
use crate::text::{fmt_internal, rendered};

/// The results of the C array `handles` of `n` result handles (`name` in messages).
///
/// # Safety
/// `handles` is NULL or points to `n` pointers, each NULL or a live result not freed
/// during the call.
pub(crate) unsafe fn results_of<'a>(
    handles: *const *const picollo_bench_result,
    n: usize,
    name: &str,
) -> Result<Vec<&'a BenchResult>, Failure> {
    if n == 0 {
        return Err(Failure::invalid(format_args!(
            "{name}: no result (n is 0): give at least one"
        )));
    }
    // SAFETY: the caller promises `handles` points to `n` readable pointers (or is NULL,
    // which `slice_from` refuses for n > 0).
    let handles = unsafe { slice_from(handles, n, name) }?;
    let each = handles.iter().enumerate().map(|(i, &h)| {
        // SAFETY: the caller promises each element is NULL or a live result.
        let run = unsafe { ref_from(h, &format!("{name}[{i}]")) }?;
        Ok(&run.result)
    });
    each.collect()
}

/// Writes results `results[0..n]` in `format` into `buf`: one benchmark per result, by its
/// name (a name given again gets ` (2)`). `format` is a suite's: `BENCHER`,
/// `GITHUB_ACTION`, `GOOGLE_BENCHMARK` or `DOCUMENT` (`picollo_bench_result_text` writes
/// the others, of one result). Errors: NULL `results` or an element of it;
/// `INVALID_ARGUMENT` for `n` of 0 or a format of one result; `BUFFER_TOO_SMALL`. Safety:
/// `results` points to `n` result handles, none freed during the call. ABI 1.19.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_results_text(
    results: *const *const picollo_bench_result,
    n: usize,
    format: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let export = choice::<picollo_bench_format>(format, "format")?.format()?;
        if export.scope() != Scope::All {
            return Err(Failure::invalid(format_args!(
                "format {format} writes one result: use picollo_bench_result_text (a suite \
                 is BMF 6, github-action-benchmark 7, Google Benchmark 8 or the document 9)"
            )));
        }
        // SAFETY: as this function's Safety section says.
        let results = unsafe { results_of(results, n, "results") }?;
        write_text!(&suite_text(&results, export)?, buf, len, needed)
    })
}

/// Writes the Markdown summary for CI of each `b[i]` against `a[i]` (`i` < `n`, judged as
/// `picollo_bench_compare` judges them) into `buf`: a head line counting the verdicts, one
/// table of every verdict (each with a colour, a symbol and a word), what changed with its
/// percentiles, the rest in `<details>`, the method and conditions last; at most 1 MiB
/// (GitHub's limit of a step's summary) but for the conditions of very many machines.
/// Errors: NULL `a`, `b` or an element; `INVALID_ARGUMENT` for `n` of 0;
/// `BUFFER_TOO_SMALL`. Safety: `a` and `b` each point to `n` result handles, none freed
/// during the call. ABI 1.19.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_summary(
    a: *const *const picollo_bench_result,
    b: *const *const picollo_bench_result,
    n: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        // SAFETY: as this function's Safety section says.
        let a = unsafe { results_of(a, n, "a") }?;
        // SAFETY: as above.
        let b = unsafe { results_of(b, n, "b") }?;
        let pairs: Vec<(&BenchResult, &BenchResult)> = a.into_iter().zip(b).collect();
        let findings = Findings::of_pairs(&pairs).map_err(bench_failure)?;
        let text = rendered(|w| findings.write_summary(w));
        write_text!(&text.map_err(fmt_internal)?, buf, len, needed)
    })
}
