//! The OpenMetrics writer handle: several families and points in one exposition, the text
//! taken out as it grows.

use std::ffi::c_char;

use picollo_core::openmetrics::{
    Bounds, Family, HistogramOptions, OpenMetricsError, OpenMetricsWriter, STANDARD_QUANTILES,
};
use picollo_core::Shape;

use super::labels::{picollo_label, try_labels};
use super::openmetrics::{
    eof, family_text, om_error, picollo_openmetrics_options, read_om_options, try_family, OmOptions,
};
use crate::boundary::boundary;
use crate::buffer::take_text;
use crate::error::Failure;
use crate::handle::{free_boxed, set_boxed, try_mut, try_ref};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

/// An OpenMetrics exposition writer (opaque): `_new`, per family `_family` and its `_point`s,
/// `_finish`; `_take` moves the text out (docs/c-api.md, "Metrics export").
pub struct picollo_openmetrics_writer {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_openmetrics_writer => MetricsWriter);

/// The Rust value behind a `picollo_openmetrics_writer`.
#[derive(Default)]
pub(crate) struct MetricsWriter {
    /// Text not yet taken.
    text: String,
    /// Every family name written, for the duplicate check.
    names: Vec<String>,
    /// The family points go to.
    family: Option<OwnedFamily>,
    /// `# EOF` written.
    finished: bool,
}

/// A family being written, owned by the writer between calls.
struct OwnedFamily {
    name: String,
    help: String,
    unit: String,
    summary: bool,
    bounds: Vec<u64>,
    coarse: f64,
    unit_ratio: f64,
    created: Option<u64>,
    /// The first point's shape: every point of a family must share it.
    shape: Option<Shape>,
}

impl OwnedFamily {
    /// A copy of the family's metadata and options (bounds included).
    fn new(family: &Family<'_>, o: &OmOptions<'_>) -> OwnedFamily {
        let (bounds, coarse) = match o.options.bounds {
            Bounds::Explicit(b) => (b.to_vec(), 0.0),
            Bounds::Coarse(e) => (Vec::new(), e),
        };
        OwnedFamily {
            name: family.name.to_string(),
            help: family.help.to_string(),
            unit: family.unit.to_string(),
            summary: o.summary,
            bounds,
            coarse,
            unit_ratio: o.options.unit_ratio,
            created: o.options.created_unix_nanos,
            shape: None,
        }
    }

    fn family(&self) -> Family<'_> {
        Family {
            name: &self.name,
            help: &self.help,
            unit: &self.unit,
        }
    }

    fn options(&self) -> OmOptions<'_> {
        OmOptions {
            summary: self.summary,
            options: HistogramOptions {
                bounds: match self.bounds.is_empty() {
                    true => Bounds::Coarse(self.coarse),
                    false => Bounds::Explicit(&self.bounds),
                },
                unit_ratio: self.unit_ratio,
                created_unix_nanos: self.created,
            },
        }
    }
}

impl MetricsWriter {
    fn check_open(&self) -> Result<(), Failure> {
        match self.finished {
            true => Err(Failure::invalid(
                "the exposition is finished (# EOF written): nothing can follow it",
            )),
            false => Ok(()),
        }
    }
}

/// The metadata lines of a family as the core writes them, or its refusal.
fn metadata(family: &Family<'_>, o: &OmOptions<'_>) -> Result<String, Failure> {
    let mut text = String::new();
    let mut scratch = OpenMetricsWriter::new(&mut text);
    match o.summary {
        false => scratch.histogram(family, &o.options).map(drop),
        true => scratch
            .summary(family, &STANDARD_QUANTILES, &o.options)
            .map(drop),
    }
    .map_err(|e| om_error(e, family))?;
    Ok(text)
}

/// Creates an empty OpenMetrics writer in `*out`, for `picollo_openmetrics_writer_free`.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_new(
    out: *mut *mut picollo_openmetrics_writer,
) -> picollo_status {
    boundary!({
        set_boxed(try_mut!(out)?, MetricsWriter::default());
        Ok(())
    })
}

/// Frees an OpenMetrics writer and the text it still holds; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_free(w: *mut picollo_openmetrics_writer) {
    free_boxed!(w)
}

/// Starts a family: writes its metadata as `picollo_histogram_openmetrics` does, and keeps a copy
/// of `opts` for its points. Errors: NULL `w`, `name` or `opts`; `STRUCT_SIZE`; `INVALID_UTF8`;
/// `INVALID_ARGUMENT` (nothing written) for what `picollo_histogram_openmetrics` refuses, a name
/// used already, or a finished writer; `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_family(
    w: *mut picollo_openmetrics_writer,
    name: *const c_char,
    help: *const c_char,
    unit: *const c_char,
    opts: *const picollo_openmetrics_options,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        let family = try_family!(name, help, unit)?;
        let o = read_om_options!(opts)?;
        w.check_open()?;
        if w.names.iter().any(|n| n == family.name) {
            return Err(om_error(OpenMetricsError::DuplicateFamily, &family));
        }
        let text = metadata(&family, &o)?;
        w.text.push_str(&text);
        w.names.push(family.name.to_string());
        w.family = Some(OwnedFamily::new(&family, &o));
        Ok(())
    })
}

/// Writes one point of the current family: `h` with `labels` (a label set given twice is not
/// detected). Errors: NULL `w` or `h`, or a NULL label string; `INVALID_UTF8`; `INVALID_ARGUMENT`
/// (nothing written) for a refused label, no family, or a finished writer; `LAYOUT_MISMATCH` for
/// a layout or range other than the family's first point's; `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_point(
    w: *mut picollo_openmetrics_writer,
    h: *const picollo_histogram,
    labels: *const picollo_label,
    label_count: usize,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        let h = try_ref!(h)?;
        let labels = try_labels!(labels, label_count)?;
        w.check_open()?;
        let Some(f) = w.family.as_mut() else {
            return Err(Failure::invalid(
                "no family started: call picollo_openmetrics_writer_family first",
            ));
        };
        let shape = h.shape();
        if f.shape.is_some_and(|s| !s.same_buckets(&shape)) {
            return Err(om_error(OpenMetricsError::ShapeMismatch, &f.family()));
        }
        let text = family_text(&f.family(), &f.options(), &labels, h, false)?;
        f.shape = Some(shape);
        w.text.push_str(&text);
        Ok(())
    })
}

/// Ends the exposition with `# EOF`. Errors: NULL `w`; `INVALID_ARGUMENT` when finished already.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_finish(
    w: *mut picollo_openmetrics_writer,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        w.check_open()?;
        w.text.push_str(&eof());
        w.family = None;
        w.finished = true;
        Ok(())
    })
}

/// Moves the text written so far into `buf`, as `picollo_log_writer_take` does. Errors: NULL
/// `w`; `BUFFER_TOO_SMALL` (nothing taken).
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_take(
    w: *mut picollo_openmetrics_writer,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({ take_text!(&mut try_mut!(w)?.text, buf, len, needed) })
}
