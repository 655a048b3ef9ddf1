//! Every result format by its name (the harness's table, `picollo_bench::export::FORMATS`):
//! one result (`picollo_bench_result_format`), results as a suite
//! (`picollo_bench_results_format`) and the names (`picollo_bench_format_names`). A
//! `picollo_bench_format` number stands for a name of the same table.
#![cfg(target_os = "linux")]

use std::ffi::c_char;

use picollo_bench::export::{any_format_named, format_names, Findings, ResultFormat};
use picollo_bench::BenchResult;

use crate::args::try_str;
use crate::bench::args::{bench_failure, picollo_bench_result};
use crate::bench::export::results_of;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::error::Failure;
use crate::handle::try_ref;
use crate::linux_enums::picollo_bench_format;
use crate::status::picollo_status;

impl picollo_bench_format {
    /// The name of the format this number stands for in the harness's table.
    pub(crate) fn name(self) -> &'static str {
        match self {
            picollo_bench_format::Report => "report",
            picollo_bench_format::Summaries => "summaries",
            picollo_bench_format::Json => "json",
            picollo_bench_format::Log => "log",
            picollo_bench_format::Line => "line",
            picollo_bench_format::Html => "html",
            picollo_bench_format::Bencher => "bmf",
            picollo_bench_format::GithubAction => "github",
            picollo_bench_format::GoogleBenchmark => "gbench",
            picollo_bench_format::Document => "picollo",
        }
    }

    /// The format of the table this number stands for.
    pub(crate) fn format(self) -> Result<&'static dyn ResultFormat, Failure> {
        any_format_named(self.name()).map_err(bench_failure)
    }
}

/// `results` as a suite in `format`, as text.
pub(crate) fn suite_text(
    results: &[&BenchResult],
    format: &dyn ResultFormat,
) -> Result<String, Failure> {
    let findings = Findings::of_results(results);
    findings.to_text(format).map_err(bench_failure)
}

/// Writes result `r` in the result format called `name` (`picollo_bench_format_names`
/// lists them) into `buf` as NUL-terminated text: a form of one result (`report`, `line`,
/// `html`, …) or a suite's format (`bmf`, `junit`, …) of `r` alone. Errors: NULL `r` or
/// `name`; `INVALID_UTF8`; `INVALID_ARGUMENT` for an unknown name (the message lists the
/// names); `BUFFER_TOO_SMALL`. ABI 1.25.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_format(
    r: *const picollo_bench_result,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let r = try_ref!(r)?;
        let name = try_str!(name)?;
        let format = any_format_named(name).map_err(bench_failure)?;
        write_text!(&suite_text(&[&r.result], format)?, buf, len, needed)
    })
}

/// Writes results `results[0..n]` as one suite in the result format called `name`
/// (`picollo_bench_format_names` lists them) into `buf`: one benchmark per result, by its
/// name (a name given again gets ` (2)`). A form of one result (`report`, `line`, …) takes
/// `n` of 1. Errors: NULL `results`, an element of it or `name`; `INVALID_UTF8`;
/// `INVALID_ARGUMENT` for `n` of 0, an unknown name (the message lists the names) or a
/// form of one result with `n` above 1; `BUFFER_TOO_SMALL`. Safety: `results` points to `n`
/// result handles, none freed during the call. ABI 1.25.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_results_format(
    results: *const *const picollo_bench_result,
    n: usize,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let name = try_str!(name)?;
        let format = any_format_named(name).map_err(bench_failure)?;
        // SAFETY: as this function's Safety section says.
        let results = unsafe { results_of(results, n, "results") }?;
        write_text!(&suite_text(&results, format)?, buf, len, needed)
    })
}

/// Writes the names of the result formats into `buf`, one per line (each line ends with
/// `\n`), in the library's order: the forms of one result, then the formats of a suite.
/// Errors: `BUFFER_TOO_SMALL`. ABI 1.25.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_format_names(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let names: String = format_names(None)
            .iter()
            .map(|f| format!("{f}\n"))
            .collect();
        write_text!(&names, buf, len, needed)
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::{c_void, CStr};
    use std::ptr;

    use super::*;
    use crate::bench::args::picollo_bench_config_default;
    use crate::bench::{picollo_bench_result_free, picollo_bench_run};
    use crate::bench::{picollo_bench_result_text, picollo_bench_results_text};
    use crate::choice::CEnum;
    use crate::testing::{last_error, text_of};

    unsafe extern "C" fn nothing(_ctx: *mut c_void, _iterations: u64) {}

    /// A result of a short run of nothing, freed by the caller.
    fn result() -> *mut picollo_bench_result {
        let config = crate::bench::picollo_bench_config {
            counters: c"".as_ptr(),
            samples: 40,
            warmup: 0.0,
            ..picollo_bench_config_default()
        };
        let mut out = ptr::null_mut();
        // SAFETY: a valid config (static strings), a callback that reads nothing.
        let st = unsafe { picollo_bench_run(&config, Some(nothing), ptr::null_mut(), &mut out) };
        assert_eq!(st, picollo_status::Ok, "{}", last_error());
        out
    }

    fn by_name(r: *const picollo_bench_result, name: &CStr) -> String {
        text_of(|buf, len, needed| {
            // SAFETY: a live result, a NUL-terminated name, the buffer arguments of `text_of`.
            unsafe { picollo_bench_result_format(r, name.as_ptr(), buf, len, needed) }
        })
    }

    #[test]
    fn every_enum_value_is_the_format_of_its_name() {
        let r = result();
        for &(format, _) in picollo_bench_format::VALUES {
            let by_number = text_of(|buf, len, needed| {
                // SAFETY: a live result, the buffer arguments of `text_of`.
                unsafe { picollo_bench_result_text(r, format as u32, buf, len, needed) }
            });
            let name = std::ffi::CString::new(format.name()).unwrap();
            assert_eq!(by_name(r, &name), by_number, "{}", format.name());
        }
        let names = text_of(|buf, len, needed| {
            // SAFETY: the buffer arguments of `text_of`.
            unsafe { picollo_bench_format_names(buf, len, needed) }
        });
        let listed: Vec<&str> = names.lines().collect();
        assert_eq!(listed, format_names(None));
        for &(format, _) in picollo_bench_format::VALUES {
            assert!(listed.contains(&format.name()), "{}", format.name());
        }
        // SAFETY: the result is live and freed once.
        unsafe { picollo_bench_result_free(r) };
    }

    #[test]
    fn a_bad_name_or_count_is_refused_with_a_message() {
        let r = result();
        let two = [r.cast_const(), r.cast_const()];
        let mut needed = 0;
        // SAFETY: a live result, NUL-terminated names or NULL, no buffer (a size query).
        unsafe {
            let st = picollo_bench_result_format(r, ptr::null(), ptr::null_mut(), 0, &mut needed);
            assert_eq!(st, picollo_status::NullPointer);
            assert!(last_error().contains("`name`"), "{}", last_error());
            let st =
                picollo_bench_result_format(r, c"csv".as_ptr(), ptr::null_mut(), 0, &mut needed);
            assert_eq!(st, picollo_status::InvalidArgument);
            let all = format_names(None).join(", ");
            assert!(
                last_error().contains("unknown format \"csv\""),
                "{}",
                last_error()
            );
            assert!(last_error().ends_with(&all), "{}", last_error());
            let (p, line) = (two.as_ptr(), c"line".as_ptr());
            let st = picollo_bench_results_format(p, 2, line, ptr::null_mut(), 0, &mut needed);
            assert_eq!(st, picollo_status::InvalidArgument);
            assert!(
                last_error().contains("writes one result"),
                "{}",
                last_error()
            );
            let st = picollo_bench_results_format(
                p,
                0,
                c"bmf".as_ptr(),
                ptr::null_mut(),
                0,
                &mut needed,
            );
            assert_eq!(st, picollo_status::InvalidArgument);
            let html = picollo_bench_format::Html as u32;
            let st = picollo_bench_results_text(p, 1, html, ptr::null_mut(), 0, &mut needed);
            assert_eq!(st, picollo_status::InvalidArgument);
            assert!(
                last_error().contains("writes one result"),
                "{}",
                last_error()
            );
            picollo_bench_result_free(r);
        }
    }
}
