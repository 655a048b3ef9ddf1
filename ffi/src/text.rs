//! Text output into caller buffers, snprintf-style: the Markdown table, the diff table,
//! the one-line summary, JSON, and a percentile's one-line form.

use std::ffi::c_char;

use picollo::{Percentile, Summary};

use crate::histogram::{dispatch_view, picollo_histogram, Failure};
use crate::status::{as_ref, as_str, fail, guard, picollo_status, write_text};
use crate::types::{picollo_percentile, picollo_summary};

/// Render with `render`, then copy into the caller's buffer.
///
/// # Safety
/// `buf` is NULL or has `len` writable bytes; `needed` is NULL or writable.
unsafe fn emit(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    render: impl FnOnce(&mut String) -> Result<(), Failure>,
) -> picollo_status {
    guard(|| {
        let mut text = String::new();
        match render(&mut text) {
            // SAFETY: forwarded from the caller's contract.
            Ok(()) => unsafe { write_text(&text, buf, len, needed) },
            Err((s, m)) => fail(s, m),
        }
    })
}

/// A report over a caller-filled struct failed to render. The report cells have a fixed
/// capacity that every summary a histogram produces fits, so this means the caller passed
/// fields no histogram yields (e.g. a mean of 1e100, or Δ% between 1e-300 and 1): an
/// invalid argument, not an internal error.
fn fmt_failed(_: std::fmt::Error) -> Failure {
    (
        picollo_status::InvalidArgument,
        "the summary or percentile holds values no histogram produces (mean, stdev, \
         precision or a ratio between two summaries too large to render)"
            .to_string(),
    )
}

/// A report over a summary the library computed itself failed to render: a bug.
fn fmt_internal(_: std::fmt::Error) -> Failure {
    (
        picollo_status::Panic,
        "formatting failed unexpectedly".to_string(),
    )
}

/// The Markdown summary table (`##### title` heading unless `title` is NULL or empty).
///
/// Writes at most `len − 1` bytes plus a NUL into `buf`, never splitting a UTF-8 character;
/// `*needed` (if not NULL) receives the full length without the NUL, so a call with
/// `(NULL, 0)` asks for the size. Returns `BUFFER_TOO_SMALL` when the text was truncated.
///
/// # Safety
/// `summary` is NULL or readable; `title` is NULL or a NUL-terminated UTF-8 string; `buf`
/// is NULL or has `len` writable bytes; `needed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_table(
    summary: *const picollo_summary,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let s = Summary::from(as_ref(summary, "summary")?);
            let title = as_str(title, "title")?;
            s.write_table(out, title).map_err(fmt_failed)
        })
    }
}

/// The diff table of `b` against `a`: percentiles side by side with Δ%, Mean, StDev,
/// Precision, Total and the D-value (Cohen's d, "n/a" when undefined). `name_a`/`name_b`
/// head the columns (NULL means "A"/"B"). Buffer rules as `picollo_summary_table`.
///
/// # Safety
/// `a`, `b` are NULL or readable; the strings are NULL or NUL-terminated UTF-8; `buf` is
/// NULL or has `len` writable bytes; `needed` is NULL or writable.
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
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let a = Summary::from(as_ref(a, "a")?);
            let b = Summary::from(as_ref(b, "b")?);
            let title = as_str(title, "title")?;
            let name_a = as_str(name_a, "name_a")?;
            let name_b = as_str(name_b, "name_b")?;
            let name_a = if name_a.is_empty() { "A" } else { name_a };
            let name_b = if name_b.is_empty() { "B" } else { name_b };
            a.write_diff(&b, out, title, name_a, name_b)
                .map_err(fmt_failed)
        })
    }
}

/// The one-line summary `name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…` (no newline).
/// Buffer rules as `picollo_summary_table`.
///
/// # Safety
/// As `picollo_summary_table`.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_line(
    summary: *const picollo_summary,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let s = Summary::from(as_ref(summary, "summary")?);
            let name = as_str(name, "name")?;
            s.write_line(out, name).map_err(fmt_failed)
        })
    }
}

/// The summary as a JSON object. Buffer rules as `picollo_summary_table`.
///
/// # Safety
/// `summary` is NULL or readable; `buf` is NULL or has `len` writable bytes; `needed` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_json(
    summary: *const picollo_summary,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let s = Summary::from(as_ref(summary, "summary")?);
            s.write_json(out).map_err(fmt_failed)
        })
    }
}

/// A percentile as `P99=24,960 [83 / 609]: [24,832, 25,088) 14,190`. Buffer rules as
/// `picollo_summary_table`.
///
/// # Safety
/// `p` is NULL or readable; `buf` is NULL or has `len` writable bytes; `needed` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_percentile_format(
    p: *const picollo_percentile,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let p = Percentile::from(as_ref(p, "p")?);
            use std::fmt::Write;
            write!(out, "{p}").map_err(fmt_failed)
        })
    }
}

/// Shortcut: the Markdown table of a histogram's summary. Buffer rules as
/// `picollo_summary_table`.
///
/// # Safety
/// `h` is NULL or a live handle; other arguments as `picollo_summary_table`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_table(
    h: *const picollo_histogram,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: per this function's contract.
    unsafe {
        emit(buf, len, needed, |out| {
            let h = as_ref(h, "h")?;
            let title = as_str(title, "title")?;
            let s = h.with_view(|view| dispatch_view!(view, v => v.summary()));
            s.write_table(out, title).map_err(fmt_internal)
        })
    }
}
