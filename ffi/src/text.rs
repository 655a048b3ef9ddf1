//! Text of a summary and of a percentile into caller buffers, snprintf-style: the Markdown
//! table, the diff table, the one-line summary, JSON, and a percentile's one-line form.

use std::ffi::c_char;
use std::fmt::Write;

use picollo_core::{Percentile, Summary};

use crate::args::try_str;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::error::Failure;
use crate::handle::try_ref;
use crate::status::picollo_status;
use crate::types::{picollo_percentile, picollo_summary};

/// The text `write` produces.
pub(crate) fn rendered(
    write: impl FnOnce(&mut String) -> std::fmt::Result,
) -> Result<String, std::fmt::Error> {
    let mut text = String::new();
    write(&mut text)?;
    Ok(text)
}

/// A report over a caller-filled struct failed to render. The report cells have a fixed
/// capacity that every summary a histogram produces fits, so this means the caller passed
/// fields no histogram yields (e.g. a mean of 1e100, or Δ% between 1e-300 and 1): an
/// invalid argument, not an internal error.
fn fmt_failed(_: std::fmt::Error) -> Failure {
    Failure::invalid(
        "the summary or percentile holds values no histogram produces (mean, stdev, \
         precision or a ratio between two summaries too large to render)",
    )
}

/// A report over a summary the library computed itself failed to render: a bug.
pub(crate) fn fmt_internal(_: std::fmt::Error) -> Failure {
    Failure::new(picollo_status::Panic, "formatting failed unexpectedly")
}

/// Writes the Markdown table of a summary into `buf`, headed `##### title` unless `title` is NULL
/// or "". Errors: NULL `summary`; `INVALID_UTF8`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_table(
    summary: *const picollo_summary,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let s = Summary::from(try_ref!(summary)?);
        let title = try_str!(title, or "")?;
        let text = rendered(|out| s.write_table(out, title)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes the diff table of `b` against `a` into `buf`: percentiles with Δ%, mean, stdev,
/// precision, total and Cohen's d; `name_a`/`name_b` (NULL: "A"/"B") head the columns.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_diff(
    a: *const picollo_summary,
    b: *const picollo_summary,
    title: *const c_char,
    name_a: *const c_char,
    name_b: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let (a, b) = (Summary::from(try_ref!(a)?), Summary::from(try_ref!(b)?));
        let title = try_str!(title, or "")?;
        let name_a = Some(try_str!(name_a, or "")?).filter(|n| !n.is_empty());
        let name_b = Some(try_str!(name_b, or "")?).filter(|n| !n.is_empty());
        let (name_a, name_b) = (name_a.unwrap_or("A"), name_b.unwrap_or("B"));
        let text =
            rendered(|out| a.write_diff(&b, out, title, name_a, name_b)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes the one-line summary `name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…` into `buf`.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_line(
    summary: *const picollo_summary,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let s = Summary::from(try_ref!(summary)?);
        let name = try_str!(name, or "")?;
        let text = rendered(|out| s.write_line(out, name)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes a summary as a JSON object into `buf`.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_json(
    summary: *const picollo_summary,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let s = Summary::from(try_ref!(summary)?);
        let text = rendered(|out| s.write_json(out)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes a percentile as `P99=24,960 [83 / 609]: [24,832, 25,088) 14,190` into `buf`.
#[no_mangle]
pub unsafe extern "C" fn picollo_percentile_format(
    p: *const picollo_percentile,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let p = Percentile::from(try_ref!(p)?);
        let text = rendered(|out| write!(out, "{p}")).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}
