//! Text of a summary and of a percentile into caller buffers, snprintf-style: the Markdown
//! table, the diff table, the one-line summary, JSON, and a percentile's one-line form, for
//! integer and float summaries alike.

pub(crate) mod format;
pub(crate) mod hdr;
pub(crate) mod histogram;
pub(crate) mod log;

pub use format::*;
pub use hdr::*;
pub use histogram::*;
pub use log::*;

use std::ffi::c_char;
use std::fmt::Write;

use picollo_core::float::FloatSummary;
use picollo_core::{Percentile, Summary};

use crate::args::{str_from, try_str};
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::enums::picollo_text_format;
use crate::error::Failure;
use crate::handle::{try_ref, Castable};
use crate::histogram::types::{picollo_float_summary, picollo_percentile, picollo_summary};
use crate::status::picollo_status;

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

/// A core summary that a caller's C struct holds, for the text functions: `Summary` in a
/// `picollo_summary`, `FloatSummary` in a `picollo_float_summary`. Both kinds follow the
/// same rules: a struct that does not render is `INVALID_ARGUMENT`, and an empty column name
/// of a diff stands for "A" or "B" as NULL does.
pub(crate) trait CallerSummary: Sized {
    /// The C struct.
    type C: Castable<RustType = Self::C>;
    /// The summary `c` holds.
    fn from_c(c: &Self::C) -> Self;
}

impl CallerSummary for Summary {
    type C = picollo_summary;
    fn from_c(c: &picollo_summary) -> Self {
        c.into()
    }
}

impl CallerSummary for FloatSummary {
    type C = picollo_float_summary;
    fn from_c(c: &picollo_float_summary) -> Self {
        c.into()
    }
}

/// A writer of a summary's text under a title (or name).
pub(crate) type Render<S> = fn(&S, &mut dyn Write, &str) -> std::fmt::Result;

/// A summary whose text forms `picollo_*histogram_text` and the `picollo_*summary_*` calls
/// write: every form of a `picollo_text_format`.
pub(crate) trait TextForms: Sized {
    /// The writer of `format`.
    fn writer(format: picollo_text_format) -> Render<Self>;
}

/// The [`TextForms`] of summary types with `write_table`, `write_line` and `write_json`.
macro_rules! text_forms {
    ($($summary:ident),+) => {
        $(impl TextForms for $summary {
            fn writer(format: picollo_text_format) -> Render<$summary> {
                match format {
                    picollo_text_format::Table => $summary::write_table,
                    picollo_text_format::OneLine => $summary::write_line,
                    picollo_text_format::Json => |s, out, _| s.write_json(out),
                }
            }
        })+
    };
}

text_forms!(Summary, FloatSummary);

/// The body of the text functions of a caller's summary: `render` of `*summary` with the
/// string argument `title` (called `title_name`; NULL as "") into the buffer arguments.
///
/// # Safety
/// The exported function's pointer contract for `summary`, `title` and the buffer.
pub(crate) unsafe fn summary_text<S: CallerSummary>(
    summary: *const S::C,
    (title, title_name): (*const c_char, &str),
    (buf, len, needed): (*mut c_char, usize, *mut usize),
    render: Render<S>,
) -> picollo_status {
    boundary!({
        let s = S::from_c(try_ref!(summary)?);
        // SAFETY: the exported function's contract: `title` is NULL or NUL-terminated.
        let title = unsafe { str_from(title, title_name, Some("")) }?;
        let text = rendered(|out| render(&s, out, title)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
}

/// A diff column's heading: the caller's name, or `default` for an empty one.
fn column_name<'a>(given: &'a str, default: &'a str) -> &'a str {
    if given.is_empty() {
        default
    } else {
        given
    }
}

/// The write_diff of a summary type: `a.diff(b, w, title, name_a, name_b)`.
pub(crate) type Diff<S> = fn(&S, &S, &mut dyn Write, &str, &str, &str) -> std::fmt::Result;

/// The body of the diff functions: `diff` of `*b` against `*a`, headed by `title`, the
/// columns by `name_a` and `name_b` (NULL or empty: "A" and "B").
///
/// # Safety
/// The exported function's pointer contract for every argument.
pub(crate) unsafe fn summary_diff<S: CallerSummary>(
    (a, b): (*const S::C, *const S::C),
    title: *const c_char,
    (name_a, name_b): (*const c_char, *const c_char),
    (buf, len, needed): (*mut c_char, usize, *mut usize),
    diff: Diff<S>,
) -> picollo_status {
    boundary!({
        let (a, b) = (S::from_c(try_ref!(a)?), S::from_c(try_ref!(b)?));
        let title = try_str!(title, or "")?;
        let name_a = column_name(try_str!(name_a, or "")?, "A");
        let name_b = column_name(try_str!(name_b, or "")?, "B");
        let text = rendered(|out| diff(&a, &b, out, title, name_a, name_b)).map_err(fmt_failed)?;
        write_text!(&text, buf, len, needed)
    })
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
    // SAFETY: forwarded contract.
    unsafe {
        summary_text(
            summary,
            (title, "title"),
            (buf, len, needed),
            Summary::write_table,
        )
    }
}

/// Writes the diff table of `b` against `a` into `buf`: percentiles with Δ%, mean, stdev,
/// precision, total and Cohen's d; `name_a`/`name_b` (NULL or "": "A"/"B") head the columns.
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
    let (names, out) = ((name_a, name_b), (buf, len, needed));
    // SAFETY: forwarded contract.
    unsafe { summary_diff((a, b), title, names, out, Summary::write_diff) }
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
    // SAFETY: forwarded contract.
    unsafe {
        summary_text(
            summary,
            (name, "name"),
            (buf, len, needed),
            Summary::write_line,
        )
    }
}

/// Writes a summary as a JSON object into `buf` (fields: docs/c-api.md, "Text").
#[no_mangle]
pub unsafe extern "C" fn picollo_summary_json(
    summary: *const picollo_summary,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe { summary_json::<Summary>(summary, (buf, len, needed)) }
}

/// Writes a float summary as a JSON object into `buf`, as `picollo_summary_json` does.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_json(
    summary: *const picollo_float_summary,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe { summary_json::<FloatSummary>(summary, (buf, len, needed)) }
}

/// The body of the JSON calls: `*summary` as JSON into the buffer arguments.
///
/// # Safety
/// The exported function's pointer contract for `summary` and the buffer.
unsafe fn summary_json<S: CallerSummary + TextForms>(
    summary: *const S::C,
    out: (*mut c_char, usize, *mut usize),
) -> picollo_status {
    let json = S::writer(picollo_text_format::Json);
    // SAFETY: forwarded contract; a NULL title is not read.
    unsafe { summary_text(summary, (std::ptr::null(), "title"), out, json) }
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

/// Writes the Markdown table of a float summary into `buf` (`##### title` unless NULL or empty).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_table(
    summary: *const picollo_float_summary,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let table = FloatSummary::write_table;
    // SAFETY: forwarded contract.
    unsafe { summary_text(summary, (title, "title"), (buf, len, needed), table) }
}

/// Writes the diff table of float summary `b` against `a` into `buf` (Δ%, moments, extremes,
/// Cohen's d); `name_a`/`name_b` (NULL or "": "A"/"B") head the columns.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_diff(
    a: *const picollo_float_summary,
    b: *const picollo_float_summary,
    title: *const c_char,
    name_a: *const c_char,
    name_b: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let (names, out) = ((name_a, name_b), (buf, len, needed));
    // SAFETY: forwarded contract.
    unsafe { summary_diff((a, b), title, names, out, FloatSummary::write_diff) }
}

/// Writes the one-line float summary `name: Total=…, Mean=…, Min=…, P50=…, …, Max=…` into
/// `buf`, with the counts beside the buckets that are not zero (`name` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_line(
    summary: *const picollo_float_summary,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let line = FloatSummary::write_line;
    // SAFETY: forwarded contract.
    unsafe { summary_text(summary, (name, "name"), (buf, len, needed), line) }
}
