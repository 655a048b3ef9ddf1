//! Text of benchmark results into caller buffers (`picollo_bench_result_text`, by a
//! `picollo_bench_format`) and the comparison of two results with its verdict
//! (`picollo_bench_compare`).
#![cfg(target_os = "linux")]

use std::ffi::c_char;
use std::fmt::Write;

use picollo_core::bench::{compare, Verdict};

use crate::args::{out, query};
use crate::bench::BenchRun;
use crate::bench_args::picollo_bench_result;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::choice::choice;
use crate::error::Failure;
use crate::handle::try_ref;
use crate::linux_enums::{picollo_bench_format, picollo_bench_verdict};
use crate::status::picollo_status;
use crate::text::{fmt_internal, rendered};

impl picollo_bench_format {
    /// `run` in this format.
    fn render(self, run: &BenchRun) -> Result<String, Failure> {
        let r = &run.result;
        let text = rendered(|out| match self {
            picollo_bench_format::Report => r.write_report(out),
            picollo_bench_format::Summaries => r.write_summaries(out),
            picollo_bench_format::Json => r.write_json(out),
            picollo_bench_format::Log => r.write_log(out).map_err(|_| std::fmt::Error),
            picollo_bench_format::Line => r.write_line(out),
        });
        text.map_err(fmt_internal)
    }
}

impl From<Verdict> for picollo_bench_verdict {
    fn from(v: Verdict) -> Self {
        match v {
            Verdict::NoDifference => picollo_bench_verdict::NoDifference,
            Verdict::Faster(_) => picollo_bench_verdict::Faster,
            Verdict::Slower(_) => picollo_bench_verdict::Slower,
        }
    }
}

/// Writes result `r` in `format` (a `picollo_bench_format`) into `buf`. Errors: NULL `r`;
/// `INVALID_ARGUMENT` for an unknown format; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_text(
    r: *const picollo_bench_result,
    format: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    query!(r, |r| &choice::<picollo_bench_format>(format, "format")?.render(r)? => text(buf, len, needed))
}

/// Writes result `b` against `a` (diff tables, rank test, `verdict: …` line) into `buf`, then the
/// verdict to `*verdict` and B's median time over A's to `*ratio`, each unless NULL. Errors: NULL
/// `a` or `b`; `BUFFER_TOO_SMALL` (`verdict`, `ratio` unwritten).
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
