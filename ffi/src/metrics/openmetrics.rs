//! The OpenMetrics text exposition of one histogram (`picollo_histogram_openmetrics`), and
//! what the writer (`openmetrics_writer`) and the Prometheus buckets (`prometheus`) share with
//! it: the options struct, its check, the failures as statuses and one family's text.
//!
//! A histogram family (`summary` 0) writes `<name>_bucket{…,le="…"}` at each bound
//! (cumulative; values below the range count in every bucket, values above it and saturated
//! counts only in `le="+Inf"`), then `<name>_count`, `<name>_sum` (buckets at their
//! midpoints) and `<name>_created` when `created_unix_nanos` is set. A summary family writes
//! `<name>{…,quantile="…"}` (NaN with no value in range), `_count`, `_sum`, `_created`.
//! OpenMetrics histograms are cumulative: expose a read of the histogram, not a collected
//! interval.
//!
//! Refused names: a family name outside `[a-zA-Z_:][a-zA-Z0-9_:]*` or ending with a suffix of
//! the family's samples (`_bucket`, `_count`, `_sum`, `_created`, `_total`, `_info`); a unit
//! with other characters than `[a-zA-Z0-9_:]` or that the name does not end with
//! (`_<unit>`); a label name outside `[a-zA-Z_][a-zA-Z0-9_]*`, starting with `__`, equal to
//! `le` (histogram) or `quantile` (summary), or given twice. Refused options: `summary` not 0
//! or 1, and what the core's `HistogramOptions::check` refuses (bounds not strictly
//! increasing; `coarse_relative_error` outside (0, 1) when there are no bounds; a
//! `unit_ratio` that is not finite and above 0).

use std::cell::Cell;
use std::ffi::c_char;
use std::fmt;

use picollo_core::openmetrics::{
    check_unit_ratio, Bounds, Family, HistogramOptions, OpenMetricsError, OpenMetricsWriter,
    STANDARD_QUANTILES,
};

use super::labels::{picollo_label, try_labels};
use super::{copied_view, copy_of};
use crate::args::StructSized;
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::error::Failure;
use crate::handle::{caller_owned, try_ref};
use crate::histogram::any::Histogram;
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

caller_owned!(picollo_openmetrics_options);

/// Options of the OpenMetrics functions and `picollo_histogram_prometheus_buckets`, from
/// `picollo_openmetrics_options_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_openmetrics_options {
    /// `sizeof(picollo_openmetrics_options)` as the caller knows it.
    pub struct_size: u32,
    /// 0: a `histogram` family; 1: a `summary` of quantiles 0.5 … 0.999 and 1 (no bounds).
    pub summary: u32,
    /// `le` bounds in recorded units, increasing; NULL with 0: derived from the layout.
    pub bounds: *const u64,
    /// The number of `bounds`.
    pub bound_count: usize,
    /// The relative error of derived bounds, in (0, 1); default 0.05.
    pub coarse_relative_error: f64,
    /// Recorded units per exported unit (1e9: ns as seconds), finite and above 0; default 1.
    pub unit_ratio: f64,
    /// The points' `_created`, nanoseconds since the Unix epoch; 0 (the default): none.
    pub created_unix_nanos: u64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers, floats and a raw pointer (every
// bit pattern is a valid raw pointer; it is only read through `try_slice!`).
crate::args::struct_sized!(picollo_openmetrics_options);

/// Returns the default OpenMetrics options: a histogram family, bounds derived at a 5 %
/// relative error, unit ratio 1, no `_created`.
#[no_mangle]
pub extern "C" fn picollo_openmetrics_options_default() -> picollo_openmetrics_options {
    picollo_openmetrics_options {
        coarse_relative_error: 0.05,
        unit_ratio: 1.0,
        ..picollo_openmetrics_options::sized()
    }
}

/// Checked OpenMetrics options: the family kind and the core's options.
#[derive(Clone, Copy)]
pub(crate) struct OmOptions<'a> {
    pub(crate) summary: bool,
    pub(crate) options: HistogramOptions<'a>,
}

/// Check the options as the core would, with messages naming the fields.
///
/// # Safety
/// `o.bounds` is NULL or points to `o.bound_count` readable `uint64_t` valid for `'a`.
pub(crate) unsafe fn om_options<'a>(
    o: &picollo_openmetrics_options,
) -> Result<OmOptions<'a>, Failure> {
    let summary = match o.summary {
        0 => false,
        1 => true,
        other => {
            return Err(Failure::invalid(format_args!(
                "summary is {other}: it must be 0 (histogram family) or 1 (summary family)"
            )))
        }
    };
    let ratio = check_unit_ratio(o.unit_ratio).map_err(Failure::invalid)?;
    // SAFETY: forwarded contract.
    let bounds = unsafe { crate::args::slice_from(o.bounds, o.bound_count, "bounds") }?;
    let bounds = match bounds.is_empty() {
        true => Bounds::Coarse(o.coarse_relative_error),
        false => Bounds::Explicit(bounds),
    };
    bounds.check().map_err(Failure::invalid)?;
    Ok(OmOptions {
        summary,
        options: HistogramOptions {
            bounds,
            unit_ratio: ratio,
            created_unix_nanos: (o.created_unix_nanos != 0).then_some(o.created_unix_nanos),
        },
    })
}

/// `read_om_options!(opts)`: the checked options argument of an exported function.
macro_rules! read_om_options {
    ($p:expr) => {
        $crate::args::read_sized!($p).and_then(|o| {
            // SAFETY: the exported function's `# Safety` section makes the caller promise that
            // `bounds` points to `bound_count` readable values (or is NULL with 0).
            unsafe { $crate::metrics::openmetrics::om_options(&o) }
        })
    };
}
pub(crate) use read_om_options;

/// An OpenMetrics failure as a status: a point whose histogram has another layout or range
/// than its family's first point is a `LAYOUT_MISMATCH`; everything else is a bad argument.
pub(crate) fn om_error(e: OpenMetricsError, family: &Family<'_>) -> Failure {
    let what = match e {
        OpenMetricsError::InvalidMetricName | OpenMetricsError::DuplicateFamily => {
            format!("name {:?}", family.name)
        }
        OpenMetricsError::InvalidUnit => {
            format!("unit {:?} of family {:?}", family.unit, family.name)
        }
        _ => format!("family {:?}", family.name),
    };
    let status = match e {
        OpenMetricsError::ShapeMismatch => picollo_status::LayoutMismatch,
        OpenMetricsError::Write => picollo_status::Panic,
        _ => picollo_status::InvalidArgument,
    };
    Failure::new(status, format_args!("{what}: {e}"))
}

/// A sink that drops what is written while its gate is closed: the family's metadata lines
/// when only a point is wanted.
struct Gated<'a> {
    out: &'a mut String,
    open: &'a Cell<bool>,
}

impl fmt::Write for Gated<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.open.get() {
            self.out.push_str(s);
        }
        Ok(())
    }
}

/// The text of one family with one point: the metadata lines when `metadata`, then the
/// point. Fails (writing nothing) as the core's writer does.
pub(crate) fn family_text(
    family: &Family<'_>,
    o: &OmOptions<'_>,
    labels: &[(&str, &str)],
    h: &Histogram,
    metadata: bool,
) -> Result<String, Failure> {
    let copy = copy_of(h)?;
    let mut text = String::new();
    let open = Cell::new(metadata);
    {
        let mut w = OpenMetricsWriter::new(Gated {
            out: &mut text,
            open: &open,
        });
        let mut f = match o.summary {
            false => w.histogram(family, &o.options),
            true => w.summary(family, &STANDARD_QUANTILES, &o.options),
        }
        .map_err(|e| om_error(e, family))?;
        open.set(true);
        copied_view!(copy, v => f.point(labels, &v).map(drop))?.map_err(|e| om_error(e, family))?;
    }
    Ok(text)
}

/// A family's metadata from the C strings (help and unit: NULL means none).
macro_rules! try_family {
    ($name:expr, $help:expr, $unit:expr) => {
        (|| -> Result<_, $crate::error::Failure> {
            Ok((
                $crate::args::try_str!($name)?,
                $crate::args::try_str!($help, or "")?,
                $crate::args::try_str!($unit, or "")?,
            ))
        })()
        .map(|(name, help, unit)| picollo_core::openmetrics::Family { name, help, unit })
    };
}
pub(crate) use try_family;

/// The `# EOF` line that ends an exposition, as the core writes it.
pub(crate) fn eof() -> String {
    OpenMetricsWriter::new(String::new())
        .finish()
        .unwrap_or_default()
}

/// Writes an OpenMetrics exposition of `h` alone (one family, one point with `labels`, `# EOF`)
/// into `buf` (docs/c-api.md, "Metrics export"). Errors: NULL `h`, `name` or `opts`, or a NULL
/// label string; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT` for a name, unit, label or
/// option OpenMetrics refuses (the message names it); `OUT_OF_MEMORY`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_openmetrics(
    h: *const picollo_histogram,
    name: *const c_char,
    help: *const c_char,
    unit: *const c_char,
    labels: *const picollo_label,
    label_count: usize,
    opts: *const picollo_openmetrics_options,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let family = try_family!(name, help, unit)?;
        let labels = try_labels!(labels, label_count)?;
        let o = read_om_options!(opts)?;
        let mut text = family_text(&family, &o, &labels, h, true)?;
        text.push_str(&eof());
        write_text!(&text, buf, len, needed)
    })
}
