//! Metrics pipelines: interval collection (`picollo_histogram_collect`,
//! `picollo_snapshot_collect`), the OpenMetrics text exposition (one-shot, or a
//! `picollo_openmetrics_writer` for several families), the cumulative buckets a Prometheus
//! client library wants (`picollo_histogram_prometheus_buckets`) and OTLP exponential
//! histograms (`picollo_histogram_otlp`).

use std::cell::Cell;
use std::ffi::c_char;
use std::fmt;

use picollo_core::concurrent::{CounterBits, Mode};
use picollo_core::openmetrics::{
    check_unit_ratio, cumulative_buckets, Bounds, CumulativeBuckets, Family, HistogramOptions,
    OpenMetricsError, OpenMetricsWriter, STANDARD_QUANTILES,
};
use picollo_core::otlp::{
    check_scale, DataPoint, ExponentialHistogram, Metric, Request, Temporality,
};
use picollo_core::Shape;

use crate::any_histogram::{config_error, merge_error, AnyView, Histogram};
use crate::args::{out, read_sized, str_from, try_slice, try_str, StructSized};
use crate::boundary::boundary;
use crate::buffer::{copy_bytes, copy_text, write_text};
use crate::error::Failure;
use crate::handle::{caller_owned, free_boxed, set_boxed, try_mut, try_ref, Boxed, Castable};
use crate::histogram::picollo_histogram;
use crate::snapshot::{picollo_snapshot, Snapshot};
use crate::status::picollo_status;

caller_owned!(
    picollo_label,
    picollo_openmetrics_options,
    picollo_otlp_options
);

// ---------------------------------------------------------------------------------------
// Collect

/// Takes the interval: the counts recorded into `h` since its previous collect or reset
/// (underflow, overflow and saturated counts included) move into a new histogram, and `h`
/// goes on counting from zero. On success `*out` holds a new handle (64-bit counters,
/// single-writer mode, `h`'s layout, range and value selection) for
/// `picollo_histogram_free`. Writers never wait for a collect. What a concurrent record
/// sees, by mode:
/// - interlocked and thread-local: exact; each record lands in exactly one interval, so the
///   intervals plus what is left add up to everything recorded, whatever writers do.
/// - single writer: exact from the writing thread (or while it does not record); from
///   another thread the record in flight when a bucket is taken may count in this interval
///   and again in the next.
/// - approximate: each counter update lands in exactly one interval; an interval's bucket is
///   an estimate with the counter's error for that interval's count.
///
/// A collect counts as a reset for snapshots taken with deltas.
///
/// Errors: NULL `h` or `out`; `OUT_OF_MEMORY` (nothing is taken from `h`).
///
/// # Safety
/// `h` is NULL or a live handle (writers may keep recording); `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_collect(
    h: *mut picollo_histogram,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        // The new handle first: once counts are taken, nothing may fail and lose them.
        let interval = Histogram::with_shape(h.shape(), CounterBits::U64, Mode::SingleWriter)
            .map_err(config_error)?;
        let taken = h.collect()?;
        interval.add_view(&taken.view()).map_err(merge_error)?;
        interval.set_value_selection(h.value_selection());
        set_boxed(out, interval);
        Ok(())
    })
}

/// Takes the interval of `h` (as `picollo_histogram_collect`) into the snapshot `s`,
/// allocating nothing: `s` then holds the counts since the previous collect or reset, and
/// `h` counts from zero. `h` must have the configuration and counter width of the
/// histogram `s` was made from.
///
/// Errors: NULL `s` or `h`; `LAYOUT_MISMATCH` (nothing taken) for another configuration or
/// counter width.
///
/// # Safety
/// `s` is NULL or a live snapshot not used by another thread; `h` is NULL or a live handle
/// (writers may keep recording).
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_collect(
    s: *mut picollo_snapshot,
    h: *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let s = try_mut!(s)?;
        let h = try_ref!(h)?;
        s.collect(h).map_err(|_| crate::snapshot::mismatch())
    })
}

// ---------------------------------------------------------------------------------------
// Labels and options

/// A label (OpenMetrics) or attribute (OTLP): a name and a value, both NUL-terminated UTF-8
/// strings, neither NULL.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_label {
    /// The name.
    pub name: *const c_char,
    /// The value.
    pub value: *const c_char,
}

/// The labels of an array as string pairs, checked: no NULL, valid UTF-8.
///
/// # Safety
/// Every name and value of `labels` is NULL or a NUL-terminated string valid for `'a`.
unsafe fn label_pairs<'a>(
    labels: &[picollo_label],
    what: &str,
) -> Result<Vec<(&'a str, &'a str)>, Failure> {
    let mut pairs = Vec::new();
    pairs
        .try_reserve_exact(labels.len())
        .map_err(|_| picollo_core::OutOfMemory {
            bytes: labels.len() * std::mem::size_of::<(&str, &str)>(),
        })?;
    for (i, label) in labels.iter().enumerate() {
        let (name, value) = (format!("{what}[{i}].name"), format!("{what}[{i}].value"));
        // SAFETY: NULL or NUL-terminated for 'a, per the caller.
        let name = unsafe { str_from(label.name, &name, None) }?;
        // SAFETY: as above.
        let value = unsafe { str_from(label.value, &value, None) }?;
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// `try_labels!(labels, count)`: the label array argument of an exported function.
macro_rules! try_labels {
    ($p:expr, $len:expr) => {
        try_slice!($p, $len).and_then(|labels| {
            // SAFETY: the exported function's `# Safety` section makes the caller promise that
            // every name and value of the array is a NUL-terminated string.
            unsafe { label_pairs(labels, stringify!($p)) }
        })
    };
}

/// Options of the OpenMetrics functions and of `picollo_histogram_prometheus_buckets`.
/// Start from `picollo_openmetrics_options_default` (which sets `struct_size`), then change
/// fields.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_openmetrics_options {
    /// `sizeof(picollo_openmetrics_options)` as the caller knows it (rules as
    /// `picollo_histogram_config.struct_size`).
    pub struct_size: u32,
    /// 0: a `histogram` family (cumulative buckets); 1: a `summary` family with the
    /// quantiles 0.5, 0.9, 0.95, 0.99, 0.999 and 1 (the bounds are not used then).
    pub summary: u32,
    /// Explicit `le` bounds in recorded units, strictly increasing (`bound_count` of them);
    /// NULL with 0: bounds derived from the layout at `coarse_relative_error`, each a
    /// bucket's highest value so every count is exact, the same at every scrape.
    pub bounds: *const u64,
    /// The number of `bounds`.
    pub bound_count: usize,
    /// With no explicit bounds: the relative error the derived bounds keep, in (0, 1);
    /// default 0.05.
    pub coarse_relative_error: f64,
    /// Recorded units per exported unit (1e9 shows nanoseconds as seconds): `le`, `_sum`
    /// and quantile values are divided by it. Finite and above 0; default 1.
    pub unit_ratio: f64,
    /// The `_created` time of the points, nanoseconds since the Unix epoch; 0 leaves
    /// `_created` out (the default).
    pub created_unix_nanos: u64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers, floats and a raw pointer (every
// bit pattern is a valid raw pointer; it is only read through `try_slice!`).
unsafe impl StructSized for picollo_openmetrics_options {
    const NAME: &'static str = "picollo_openmetrics_options";
}

/// Returns the default OpenMetrics options: a histogram family, bounds derived at a 5 %
/// relative error, unit ratio 1, no `_created`.
#[no_mangle]
pub extern "C" fn picollo_openmetrics_options_default() -> picollo_openmetrics_options {
    picollo_openmetrics_options {
        struct_size: std::mem::size_of::<picollo_openmetrics_options>() as u32,
        summary: 0,
        bounds: std::ptr::null(),
        bound_count: 0,
        coarse_relative_error: 0.05,
        unit_ratio: 1.0,
        created_unix_nanos: 0,
    }
}

/// Checked OpenMetrics options: the family kind and the core's options.
#[derive(Clone, Copy)]
struct OmOptions<'a> {
    summary: bool,
    options: HistogramOptions<'a>,
}

/// Check the options as the core would, with messages naming the fields.
///
/// # Safety
/// `o.bounds` is NULL or points to `o.bound_count` readable `uint64_t` valid for `'a`.
unsafe fn om_options<'a>(o: &picollo_openmetrics_options) -> Result<OmOptions<'a>, Failure> {
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
        read_sized!($p).and_then(|o| {
            // SAFETY: the exported function's `# Safety` section makes the caller promise that
            // `bounds` points to `bound_count` readable values (or is NULL with 0).
            unsafe { om_options(&o) }
        })
    };
}

/// An OpenMetrics failure as a status: a point whose histogram has another layout or range
/// than its family's first point is a `LAYOUT_MISMATCH`; everything else is a bad argument.
fn om_error(e: OpenMetricsError, family: &Family<'_>) -> Failure {
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

/// One consistent copy of `h`'s counts (the exporters read plain counts, not live cells).
fn copy_of(h: &Histogram) -> Result<Snapshot, Failure> {
    Snapshot::new(h).map_err(config_error)
}

/// `copied_view!(copy, v => expr)`: `Ok(expr)` on the view of a copy from [`copy_of`],
/// whatever its counter width.
macro_rules! copied_view {
    ($copy:expr, $v:ident => $e:expr) => {
        match $copy.view() {
            AnyView::U32($v) => Ok($e),
            AnyView::U64($v) => Ok($e),
            // A snapshot's view is a copy, never live cells.
            AnyView::LiveU32(_) | AnyView::LiveU64(_) => Err(Failure::new(
                picollo_status::Panic,
                "internal error: a snapshot gave a view of live cells",
            )),
        }
    };
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
fn family_text(
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
        (|| -> Result<_, Failure> {
            Ok((
                try_str!($name)?,
                try_str!($help, or "")?,
                try_str!($unit, or "")?,
            ))
        })()
        .map(|(name, help, unit)| Family { name, help, unit })
    };
}

/// The `# EOF` line that ends an exposition, as the core writes it.
fn eof() -> String {
    OpenMetricsWriter::new(String::new())
        .finish()
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// OpenMetrics, one shot

/// Writes an OpenMetrics text exposition of `h` alone: one family (`# TYPE`, `# UNIT` when
/// `unit` is not NULL or "", `# HELP` when `help` is not NULL or ""), one point with these
/// `labels` (`label_count` of them; NULL with 0 for none) and `# EOF`.
///
/// A histogram family (`opts->summary` 0) writes `<name>_bucket{…,le="…"}` at each bound
/// (cumulative; values below the range count in every bucket, values above it and
/// saturated counts only in `le="+Inf"`), then `<name>_count`, `<name>_sum` (buckets at their
/// midpoints) and `<name>_created` when `opts->created_unix_nanos` is set. A summary family
/// writes `<name>{…,quantile="…"}` (NaN with no value in range), `_count`, `_sum`,
/// `_created`. OpenMetrics histograms are cumulative: expose a read of the histogram, not a
/// collected interval. `h` is read as one consistent copy. Buffer rules as
/// `picollo_summary_table`.
///
/// Errors: NULL `h`, `name` or `opts`; NULL `labels` with a non-zero count, or a NULL label
/// name or value; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT` for a name outside
/// `[a-zA-Z_:][a-zA-Z0-9_:]*` or ending with a suffix of the family's samples (`_bucket`,
/// `_count`, `_sum`, `_created`, `_total`, `_info`), a unit with other characters than
/// `[a-zA-Z0-9_:]` or that the name does not end with (`_<unit>`), a label name outside
/// `[a-zA-Z_][a-zA-Z0-9_]*`, starting with `__`, equal to `le` (histogram) or `quantile`
/// (summary) or given twice, and bad options (`summary` not 0 or 1; bounds not strictly
/// increasing; `coarse_relative_error` outside (0, 1) when there are no bounds; a
/// `unit_ratio` that is not finite and above 0); `OUT_OF_MEMORY`; `BUFFER_TOO_SMALL`.
///
/// # Safety
/// `h` is NULL or a live handle; `name`, `help` and `unit` are NULL or NUL-terminated;
/// `labels` is NULL or has `label_count` labels whose strings are NUL-terminated; `opts` is
/// NULL or has `opts->struct_size` readable bytes and `bound_count` readable bounds; `buf` is
/// NULL or has `len` writable bytes; `needed` is NULL or writable.
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

// ---------------------------------------------------------------------------------------
// OpenMetrics writer

/// An OpenMetrics exposition writer (opaque) for several families and points: create with
/// `picollo_openmetrics_writer_new`, start each family with `picollo_openmetrics_writer_family`
/// and add its points with `picollo_openmetrics_writer_point`, end with
/// `picollo_openmetrics_writer_finish` (`# EOF`), move the text out with
/// `picollo_openmetrics_writer_take` (as often as wanted), free with
/// `picollo_openmetrics_writer_free`. A writer is used by one thread at a time.
#[allow(non_camel_case_types)]
pub struct picollo_openmetrics_writer {
    _private: [u8; 0],
}

impl Castable for picollo_openmetrics_writer {
    type Ownership = Boxed;
    type RustType = MetricsWriter;
}

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

/// Creates an OpenMetrics writer with nothing written: on success `*out` holds a handle for
/// `picollo_openmetrics_writer_free`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_new(
    out: *mut *mut picollo_openmetrics_writer,
) -> picollo_status {
    boundary!({
        set_boxed(try_mut!(out)?, MetricsWriter::default());
        Ok(())
    })
}

/// Frees an OpenMetrics writer and the text it still holds. NULL is accepted and ignored.
///
/// # Safety
/// `w` is NULL or a handle from `picollo_openmetrics_writer_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_free(w: *mut picollo_openmetrics_writer) {
    free_boxed!(w)
}

/// Starts a family: writes its metadata (`# TYPE`, `# UNIT` and `# HELP` as
/// `picollo_histogram_openmetrics`) and makes it the family the next points go to. The
/// options (copied, bounds included) apply to every point of the family.
///
/// Errors: NULL `w`, `name` or `opts`; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT`
/// (nothing written) for a name, unit or option `picollo_histogram_openmetrics` refuses, a
/// name already used in this exposition, or a finished writer; `OUT_OF_MEMORY`.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `name`, `help` and
/// `unit` are NULL or NUL-terminated; `opts` as in `picollo_histogram_openmetrics`.
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
        let mut text = String::new();
        let mut scratch = OpenMetricsWriter::new(&mut text);
        match o.summary {
            false => scratch.histogram(&family, &o.options).map(drop),
            true => scratch
                .summary(&family, &STANDARD_QUANTILES, &o.options)
                .map(drop),
        }
        .map_err(|e| om_error(e, &family))?;
        let (bounds, coarse) = match o.options.bounds {
            Bounds::Explicit(b) => (b.to_vec(), 0.0),
            Bounds::Coarse(e) => (Vec::new(), e),
        };
        w.text.push_str(&text);
        w.names.push(family.name.to_string());
        w.family = Some(OwnedFamily {
            name: family.name.to_string(),
            help: family.help.to_string(),
            unit: family.unit.to_string(),
            summary: o.summary,
            bounds,
            coarse,
            unit_ratio: o.options.unit_ratio,
            created: o.options.created_unix_nanos,
            shape: None,
        });
        Ok(())
    })
}

/// Writes one point of the current family: `h` (read as one consistent copy) with these
/// labels, as `picollo_histogram_openmetrics` writes it. Every point of a family must have
/// the layout and range of its first (the bounds are the family's); label sets are not
/// compared between points: giving the same one twice is the caller's error.
///
/// Errors: NULL `w` or `h`; NULL `labels` with a non-zero count, or a NULL label name or
/// value; `INVALID_UTF8`; `INVALID_ARGUMENT` (nothing written) for a label
/// `picollo_histogram_openmetrics` refuses, no family started, or a finished writer;
/// `LAYOUT_MISMATCH` for a histogram of another layout or range than the family's first
/// point; `OUT_OF_MEMORY`.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `h` is NULL or a
/// live handle; `labels` is NULL or has `label_count` labels whose strings are
/// NUL-terminated.
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

/// Ends the exposition with `# EOF`; no family or point can follow.
///
/// Errors: NULL `w`; `INVALID_ARGUMENT` when already finished.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call.
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

/// Moves the text written so far into `buf` and clears it from the writer, as
/// `picollo_log_writer_take` does: at most `len − 1` bytes and a NUL; `*needed` (if not
/// NULL) receives the pending length without the NUL, so `(NULL, 0)` asks for the size. On
/// `BUFFER_TOO_SMALL` nothing is taken (`buf` holds a truncated copy). With nothing pending,
/// a buffer of at least 1 byte receives "".
///
/// Errors: NULL `w`; `BUFFER_TOO_SMALL`; `NULL_POINTER` for a NULL `buf` with a non-zero
/// `len`.
///
/// # Safety
/// `w` is NULL or a live handle used by no other thread during the call; `buf` is NULL or
/// has `len` writable bytes; `needed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_openmetrics_writer_take(
    w: *mut picollo_openmetrics_writer,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let w = try_mut!(w)?;
        write_text!(&w.text, buf, len, needed)?;
        w.text.clear();
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Prometheus buckets

/// Writes the cumulative buckets of `h` as a Prometheus client library wants them (e.g.
/// Python `prometheus_client`'s `HistogramMetricFamily`), those of the histogram family
/// `picollo_histogram_openmetrics` writes with the same options: `le[i]` (exported units;
/// the last is `+INFINITY`) and `cumulative[i]` for each of the `*count` buckets, and `*sum`
/// (exported units; skipped when `sum` is NULL). `h` is read as one consistent copy.
///
/// Sizes: when `capacity` is below the bucket count, `BUFFER_TOO_SMALL` with `*count` set and
/// nothing else written, so `(NULL, NULL, 0)` asks for the size (always at least 1, the
/// `+Inf` bucket). With derived bounds the count depends only on the layout, range and
/// `coarse_relative_error`.
///
/// Errors: NULL `h`, `opts` or `count`; NULL `le` or `cumulative` with a non-zero `capacity`;
/// `STRUCT_SIZE`; `INVALID_ARGUMENT` for bad options (as `picollo_histogram_openmetrics`) or
/// `opts->summary` set (a summary has no buckets); `BUFFER_TOO_SMALL`; `OUT_OF_MEMORY`.
///
/// # Safety
/// `h` is NULL or a live handle; `opts` as in `picollo_histogram_openmetrics`; `le` and
/// `cumulative` are NULL or have `capacity` writable elements; `count` and `sum` are NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_prometheus_buckets(
    h: *const picollo_histogram,
    opts: *const picollo_openmetrics_options,
    le: *mut f64,
    cumulative: *mut u64,
    capacity: usize,
    count: *mut usize,
    sum: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let o = read_om_options!(opts)?;
        crate::args::require(le, capacity, "le")?;
        crate::args::require(cumulative, capacity, "cumulative")?;
        if count.is_null() {
            return Err(Failure::null("count"));
        }
        if o.summary {
            return Err(Failure::invalid(
                "summary is 1: a summary family has no buckets (set it to 0)",
            ));
        }
        let copy = copy_of(h)?;
        let CumulativeBuckets {
            buckets,
            sum: total,
        } = copied_view!(copy, v => cumulative_buckets(&v, &o.options))?
            .map_err(|e| Failure::invalid(format_args!("options: {e}")))?;
        out!(count, buckets.len())?;
        if capacity < buckets.len() {
            return Err(Failure::new(
                picollo_status::BufferTooSmall,
                format_args!(
                    "capacity {capacity} is too small: {} buckets needed",
                    buckets.len()
                ),
            ));
        }
        let le = crate::args::try_slice_mut!(le, buckets.len())?;
        let cumulative = crate::args::try_slice_mut!(cumulative, buckets.len())?;
        for (k, &(bound, c)) in buckets.iter().enumerate() {
            le[k] = bound;
            cumulative[k] = c;
        }
        out!(sum?, total)
    })
}

// ---------------------------------------------------------------------------------------
// OTLP

/// The `scale` of `picollo_otlp_options` that picks the scale from the histogram's relative
/// error (the coarsest whose buckets are at least as fine).
pub const PICOLLO_OTLP_SCALE_AUTO: i32 = -2147483647 - 1;

/// How the points of an OTLP metric relate in time (`picollo_otlp_options.temporality`).
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_otlp_temporality {
    /// The point holds only its interval (`start_time_unix_nano` to `time_unix_nano`):
    /// export a collected interval (`picollo_histogram_collect`).
    Delta = 1,
    /// The point holds everything since a fixed start: export a read of the histogram.
    Cumulative = 2,
}

/// The encoding `picollo_histogram_otlp` writes.
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_otlp_format {
    /// The protobuf bytes of an `ExportMetricsServiceRequest` (OTLP/HTTP and gRPC payload).
    Protobuf = 0,
    /// OTLP/JSON: the protobuf JSON mapping, lowerCamelCase names, 64-bit integers as
    /// strings, enums as integers.
    Json = 1,
}

/// Options of `picollo_histogram_otlp`. Start from `picollo_otlp_options_default` (which sets
/// `struct_size`), then change fields. Strings are NUL-terminated UTF-8; NULL means "".
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_otlp_options {
    /// `sizeof(picollo_otlp_options)` as the caller knows it (rules as
    /// `picollo_histogram_config.struct_size`).
    pub struct_size: u32,
    /// A `picollo_otlp_temporality`: 1 delta, 2 cumulative (the default).
    pub temporality: u32,
    /// The metric name: required, not empty.
    pub name: *const c_char,
    /// The metric description.
    pub description: *const c_char,
    /// The metric unit (UCUM, e.g. "s").
    pub unit: *const c_char,
    /// Start of the point's interval (delta) or of the counting (cumulative), nanoseconds
    /// since the Unix epoch.
    pub start_time_unix_nano: u64,
    /// End of the point's interval, nanoseconds since the Unix epoch; not before the start
    /// (0 leaves both unchecked and unset as the protobuf default).
    pub time_unix_nano: u64,
    /// The point's attributes (`attribute_count`; NULL with 0 for none): names not empty,
    /// each once.
    pub attributes: *const picollo_label,
    /// The number of `attributes`.
    pub attribute_count: usize,
    /// The resource's attributes (e.g. `service.name`), as `attributes`.
    pub resource: *const picollo_label,
    /// The number of `resource` attributes.
    pub resource_count: usize,
    /// The instrumentation scope's name.
    pub scope_name: *const c_char,
    /// The instrumentation scope's version.
    pub scope_version: *const c_char,
    /// The exponential histogram's scale, -10..20, or `PICOLLO_OTLP_SCALE_AUTO` (the
    /// default): the coarsest scale whose buckets keep the histogram's relative error.
    pub scale: i32,
    /// Reserved: must be zero.
    pub reserved: u32,
    /// Recorded units per exported unit (1e9 exports nanoseconds as seconds): finite and
    /// above 0; default 1.
    pub unit_ratio: f64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers, floats and raw pointers (every
// bit pattern is a valid raw pointer; they are only read through the checked helpers).
unsafe impl StructSized for picollo_otlp_options {
    const NAME: &'static str = "picollo_otlp_options";
}

/// Returns the default OTLP options: cumulative, no name (set one), no times, attributes or
/// resource, the scale from the relative error, unit ratio 1.
#[no_mangle]
pub extern "C" fn picollo_otlp_options_default() -> picollo_otlp_options {
    picollo_otlp_options {
        struct_size: std::mem::size_of::<picollo_otlp_options>() as u32,
        temporality: picollo_otlp_temporality::Cumulative as u32,
        name: std::ptr::null(),
        description: std::ptr::null(),
        unit: std::ptr::null(),
        start_time_unix_nano: 0,
        time_unix_nano: 0,
        attributes: std::ptr::null(),
        attribute_count: 0,
        resource: std::ptr::null(),
        resource_count: 0,
        scope_name: std::ptr::null(),
        scope_version: std::ptr::null(),
        scale: PICOLLO_OTLP_SCALE_AUTO,
        reserved: 0,
        unit_ratio: 1.0,
    }
}

/// Attribute names must be non-empty and unique within a set.
fn check_attributes(set: &[(&str, &str)], what: &str) -> Result<(), Failure> {
    for (k, (name, _)) in set.iter().enumerate() {
        if name.is_empty() {
            return Err(Failure::invalid(format_args!("{what}[{k}].name is empty")));
        }
        if set[..k].iter().any(|(other, _)| other == name) {
            return Err(Failure::invalid(format_args!(
                "{what}[{k}].name {name:?} is given twice"
            )));
        }
    }
    Ok(())
}

/// Writes `h` as an OTLP `ExportMetricsServiceRequest` holding one resource, one scope and
/// one exponential-histogram metric of one point, in `format` (a `picollo_otlp_format`). `h`
/// is read as one consistent copy and re-binned into exponential buckets: each bucket whole
/// into the exponential bucket of its midpoint, values below or above the range at the
/// range's ends, saturated counts left out; with the automatic scale a value is reported
/// within about twice the histogram's relative error.
///
/// - `PICOLLO_OTLP_FORMAT_PROTOBUF`: bytes, no NUL. `*needed` (if not NULL) receives the byte
///   count; when `len` is smaller, `BUFFER_TOO_SMALL` and nothing is written. `(NULL, 0)`
///   asks for the size.
/// - `PICOLLO_OTLP_FORMAT_JSON`: NUL-terminated text, buffer rules as
///   `picollo_summary_table`.
///
/// Errors: NULL `h` or `o`, a NULL `o->name`; NULL attribute arrays with a non-zero count or
/// a NULL attribute name or value; `STRUCT_SIZE`; `INVALID_UTF8`; `INVALID_ARGUMENT` for an
/// unknown format or temporality, an empty name, an empty or repeated attribute name, a
/// scale outside -10..20 (other than `PICOLLO_OTLP_SCALE_AUTO`), a `unit_ratio` that is not
/// finite and above 0, a start after the time, a non-zero `reserved`; `OUT_OF_MEMORY`;
/// `BUFFER_TOO_SMALL`; `NULL_POINTER` for a NULL `buf` with a non-zero `len`.
///
/// # Safety
/// `h` is NULL or a live handle; `o` is NULL or has `o->struct_size` readable bytes, with
/// strings NULL or NUL-terminated and attribute arrays of their counts; `buf` is NULL or has
/// `len` writable bytes; `needed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_otlp(
    h: *const picollo_histogram,
    o: *const picollo_otlp_options,
    format: u32,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let o = read_sized!(o)?;
        let format = match format {
            0 => picollo_otlp_format::Protobuf,
            1 => picollo_otlp_format::Json,
            _ => {
                return Err(Failure::invalid(format_args!(
                    "format {format} is unknown: it must be a picollo_otlp_format (0 \
                     protobuf, 1 JSON)"
                )))
            }
        };
        let temporality = match o.temporality {
            1 => Temporality::Delta,
            2 => Temporality::Cumulative,
            t => {
                return Err(Failure::invalid(format_args!(
                    "temporality is {t}: it must be 1 (delta) or 2 (cumulative)"
                )))
            }
        };
        let (name, description, unit, scope_name, scope_version) =
            (o.name, o.description, o.unit, o.scope_name, o.scope_version);
        let name = try_str!(name)?;
        if name.is_empty() {
            return Err(Failure::invalid(
                "name is empty: an OTLP metric needs a name",
            ));
        }
        let (description, unit) = (try_str!(description, or "")?, try_str!(unit, or "")?);
        let scope_name = try_str!(scope_name, or "")?;
        let scope_version = try_str!(scope_version, or "")?;
        let (attributes, attribute_count) = (o.attributes, o.attribute_count);
        let (resource, resource_count) = (o.resource, o.resource_count);
        let attributes = try_labels!(attributes, attribute_count)?;
        let resource = try_labels!(resource, resource_count)?;
        check_attributes(&attributes, "attributes")?;
        check_attributes(&resource, "resource")?;
        let scale = o.scale;
        if scale != PICOLLO_OTLP_SCALE_AUTO {
            check_scale(scale)
                .map_err(|e| Failure::invalid(format_args!("{e} or PICOLLO_OTLP_SCALE_AUTO")))?;
        }
        let ratio = check_unit_ratio(o.unit_ratio).map_err(Failure::invalid)?;
        let (start, time) = (o.start_time_unix_nano, o.time_unix_nano);
        if time != 0 && start > time {
            return Err(Failure::invalid(format_args!(
                "start_time_unix_nano {start} is after time_unix_nano {time}"
            )));
        }
        if o.reserved != 0 {
            return Err(Failure::invalid("reserved must be zero"));
        }
        let copy = copy_of(h)?;
        let histogram = copied_view!(copy, v => match scale {
            PICOLLO_OTLP_SCALE_AUTO => ExponentialHistogram::from_view(&v, ratio),
            s => ExponentialHistogram::with_scale(&v, s, ratio),
        })?
        .map_err(Failure::invalid)?;
        let points = [DataPoint {
            attributes: &attributes,
            start_time_unix_nano: start,
            time_unix_nano: time,
            histogram: &histogram,
        }];
        let metrics = [Metric {
            name,
            description,
            unit,
            temporality,
            points: &points,
        }];
        let request = Request {
            resource: &resource,
            scope_name,
            scope_version,
            metrics: &metrics,
        };
        match format {
            picollo_otlp_format::Protobuf => {
                // SAFETY: the caller promises that `buf` is NULL or has `len` writable bytes
                // and `needed` is NULL or writable (this function's `# Safety`).
                unsafe { copy_bytes(&request.to_protobuf(), buf, len, needed, "buf") }
            }
            picollo_otlp_format::Json => {
                // SAFETY: as above.
                unsafe { copy_text(&request.to_json(), buf.cast(), len, needed, "buf") }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::CString;
    use std::ptr;

    use picollo_core::ValueSelection;

    use super::*;
    use crate::any_histogram::dispatch_view;
    use crate::histogram::{picollo_histogram_record, picollo_histogram_record_n};
    use crate::snapshot::{picollo_snapshot_free, picollo_snapshot_new};
    use crate::testing::{last_error, text_of, Handle, THREE_DIGITS};

    fn histogram(bits: u32, mode: u32, values: impl IntoIterator<Item = u64>) -> Handle {
        let h = Handle::new(bits, THREE_DIGITS, mode);
        for v in values {
            // SAFETY: a live handle.
            unsafe { picollo_histogram_record(h.0, v) };
        }
        h
    }

    fn collect(h: &Handle) -> Handle {
        let mut out = ptr::null_mut();
        // SAFETY: a live handle and a writable slot.
        let status = unsafe { picollo_histogram_collect(h.0, &mut out) };
        assert_eq!(status, picollo_status::Ok, "{}", last_error());
        Handle::adopt(out)
    }

    /// Owned C strings for labels, and the `picollo_label` array pointing into them.
    struct Labels {
        _strings: Vec<CString>,
        labels: Vec<picollo_label>,
    }

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        let strings: Vec<CString> = pairs
            .iter()
            .flat_map(|(n, v)| [CString::new(*n).unwrap(), CString::new(*v).unwrap()])
            .collect();
        let labels = strings
            .chunks(2)
            .map(|c| picollo_label {
                name: c[0].as_ptr(),
                value: c[1].as_ptr(),
            })
            .collect();
        Labels {
            _strings: strings,
            labels,
        }
    }

    /// A point: its labels and histogram.
    type Point<'a> = (&'a [(&'a str, &'a str)], &'a Handle);
    /// A family: its metadata, options and points.
    type FamilySpec<'a> = (Family<'a>, &'a OmOptions<'a>, &'a [Point<'a>]);
    /// A change to the OpenMetrics options, the status it causes and a word of the message.
    type OmCase = (
        fn(&mut picollo_openmetrics_options),
        picollo_status,
        &'static str,
    );
    /// A change to the OTLP options, the format, the status and a word of the message.
    type OtlpCase<'a> = (
        Box<dyn Fn(&mut picollo_otlp_options) + 'a>,
        u32,
        picollo_status,
        &'static str,
    );

    /// What the core writes for these families (each point through a copy).
    fn core_openmetrics(families: &[FamilySpec<'_>]) -> String {
        let mut w = OpenMetricsWriter::new(String::new());
        for (family, o, points) in families {
            let mut f = match o.summary {
                false => w.histogram(family, &o.options),
                true => w.summary(family, &STANDARD_QUANTILES, &o.options),
            }
            .unwrap();
            for (labels, h) in points.iter() {
                let copy = copy_of(h.rust()).unwrap();
                copied_view!(copy, v => f.point(labels, &v).map(drop))
                    .unwrap()
                    .unwrap();
            }
        }
        w.finish().unwrap()
    }

    fn openmetrics(
        h: &Handle,
        name: &str,
        help: Option<&str>,
        unit: Option<&str>,
        pairs: &[(&str, &str)],
        o: &picollo_openmetrics_options,
    ) -> Result<String, (picollo_status, String)> {
        let name = CString::new(name).unwrap();
        let help = help.map(|s| CString::new(s).unwrap());
        let unit = unit.map(|s| CString::new(s).unwrap());
        let l = labels(pairs);
        let call = |buf, len, needed| {
            // SAFETY: live handle, NUL-terminated strings or NULL, a label array of its
            // length, sized options and the buffer arguments of the caller.
            unsafe {
                picollo_histogram_openmetrics(
                    h.0,
                    name.as_ptr(),
                    help.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
                    unit.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
                    l.labels.as_ptr(),
                    l.labels.len(),
                    o,
                    buf,
                    len,
                    needed,
                )
            }
        };
        match call(ptr::null_mut(), 0, ptr::null_mut()) {
            picollo_status::BufferTooSmall => Ok(text_of(call)),
            status => Err((status, last_error())),
        }
    }

    const MODES: [u32; 4] = [0, 1, 2, 3];

    #[test]
    fn collect_returns_the_interval_and_restarts_the_source_in_every_mode() {
        for bits in [32, 64] {
            for mode in MODES {
                let h = histogram(bits, mode, (1..=500).map(|v| v * 37));
                // SAFETY: live handles.
                unsafe {
                    picollo_histogram_record_n(h.0, 3, 7);
                    crate::histogram::picollo_histogram_set_value_selection(h.0, 2);
                }
                let before = h.buckets();
                let first = collect(&h);
                assert_eq!(first.buckets(), before, "bits {bits} mode {mode}");
                assert_eq!(first.total(), 507);
                assert_eq!(first.rust().value_selection(), ValueSelection::Upper);
                assert_eq!(first.rust().shape(), h.rust().shape());
                assert_eq!(h.total(), 0, "bits {bits} mode {mode}");
                // The next interval holds only what came after.
                // SAFETY: a live handle.
                unsafe { picollo_histogram_record(h.0, 1_000_000) };
                let second = collect(&h);
                assert_eq!(second.total(), 1);
                assert_eq!(second.buckets(), histogram(64, 0, [1_000_000]).buckets());
                assert_eq!(collect(&h).total(), 0);
            }
        }
        let mut out = ptr::null_mut();
        let h = histogram(64, 0, [1]);
        // SAFETY: NULL arguments are refused.
        unsafe {
            assert_eq!(
                picollo_histogram_collect(ptr::null_mut(), &mut out),
                picollo_status::NullPointer
            );
            assert_eq!(
                picollo_histogram_collect(h.0, ptr::null_mut()),
                picollo_status::NullPointer
            );
        }
        assert!(out.is_null());
        assert_eq!(h.total(), 1, "a refused collect takes nothing");
    }

    #[test]
    fn snapshot_collect_takes_the_interval_into_the_snapshot() {
        for bits in [32, 64] {
            for mode in MODES {
                let h = histogram(bits, mode, [5, 50, 500, 5_000]);
                let mut s = ptr::null_mut();
                // SAFETY: a live handle and a writable slot.
                let status = unsafe { picollo_snapshot_new(h.0, &mut s) };
                assert_eq!(status, picollo_status::Ok);
                // SAFETY: live handles.
                unsafe { picollo_histogram_record(h.0, 77) };
                let expected = h.buckets();
                // SAFETY: a live snapshot and handle.
                let status = unsafe { picollo_snapshot_collect(s, h.0) };
                assert_eq!(status, picollo_status::Ok, "{}", last_error());
                // SAFETY: a live snapshot points to a `Snapshot` (`Castable`).
                let snap = unsafe { &*s.cast::<Snapshot>() };
                let got: Vec<(u64, u64)> = dispatch_view!(snap.view(), v => v
                    .buckets()
                    .filter(|b| b.count != 0)
                    .map(|b| (b.lower, b.count))
                    .collect());
                assert_eq!((got, 0, 0), expected, "bits {bits} mode {mode}");
                assert_eq!(h.total(), 0);
                // Another configuration is refused and nothing is taken.
                let other = histogram(bits, mode, [1]);
                let coarse = Handle::new(bits, 0.01, mode);
                // SAFETY: live handles.
                unsafe { picollo_histogram_record(coarse.0, 1) };
                // SAFETY: a live snapshot and handles.
                unsafe {
                    assert_eq!(picollo_snapshot_collect(s, other.0), picollo_status::Ok);
                    assert_eq!(
                        picollo_snapshot_collect(s, coarse.0),
                        picollo_status::LayoutMismatch
                    );
                    assert_eq!(
                        picollo_snapshot_collect(s, ptr::null_mut()),
                        picollo_status::NullPointer
                    );
                    assert_eq!(
                        picollo_snapshot_collect(ptr::null_mut(), h.0),
                        picollo_status::NullPointer
                    );
                    picollo_snapshot_free(s);
                }
                assert_eq!(coarse.total(), 1);
            }
        }
    }

    #[test]
    fn one_shot_openmetrics_is_the_core_text() {
        let h = histogram(32, 1, (0..2_000).map(|v| v * v));
        let bounds = [100u64, 10_000, 1_000_000];
        let mut explicit = picollo_openmetrics_options_default();
        explicit.bounds = bounds.as_ptr();
        explicit.bound_count = bounds.len();
        explicit.unit_ratio = 1e3;
        explicit.created_unix_nanos = 1_700_000_000_123_000_000;
        let mut summary = picollo_openmetrics_options_default();
        summary.summary = 1;
        let mut coarse = picollo_openmetrics_options_default();
        coarse.coarse_relative_error = 0.2;
        let pairs = [("method", "get"), ("path", "a\"b\\c\nd")];
        for o in [
            picollo_openmetrics_options_default(),
            explicit,
            summary,
            coarse,
        ] {
            // SAFETY: the options' bounds are live for the test.
            let parsed = unsafe { om_options(&o) }.unwrap();
            let text = openmetrics(
                &h,
                "rpc_latency_seconds",
                Some("RPC latency"),
                Some("seconds"),
                &pairs,
                &o,
            )
            .unwrap();
            let family = Family::new("rpc_latency_seconds")
                .with_help("RPC latency")
                .with_unit("seconds");
            assert_eq!(
                text,
                core_openmetrics(&[(family, &parsed, &[(&pairs, &h)])])
            );
            assert!(text.ends_with("# EOF\n"), "{text}");
            assert!(text.contains("# UNIT rpc_latency_seconds seconds\n"));
        }
        // No help, no unit, no labels.
        let o = picollo_openmetrics_options_default();
        let text = openmetrics(&h, "plain", None, Some(""), &[], &o).unwrap();
        assert!(
            text.starts_with("# TYPE plain histogram\nplain_bucket{le="),
            "{text}"
        );
        assert!(text.contains("\nplain_count 2000\n"), "{text}");
    }

    struct Writer(*mut picollo_openmetrics_writer);

    impl Writer {
        fn new() -> Writer {
            let mut w = ptr::null_mut();
            // SAFETY: a writable slot.
            let status = unsafe { picollo_openmetrics_writer_new(&mut w) };
            assert_eq!(status, picollo_status::Ok);
            Writer(w)
        }

        fn family(
            &self,
            name: &str,
            help: &str,
            o: &picollo_openmetrics_options,
        ) -> picollo_status {
            let name = CString::new(name).unwrap();
            let help = CString::new(help).unwrap();
            // SAFETY: a live writer, NUL-terminated strings, sized options.
            unsafe {
                picollo_openmetrics_writer_family(
                    self.0,
                    name.as_ptr(),
                    help.as_ptr(),
                    ptr::null(),
                    o,
                )
            }
        }

        fn point(&self, h: &Handle, pairs: &[(&str, &str)]) -> picollo_status {
            let l = labels(pairs);
            // SAFETY: live handles and a label array of its length.
            unsafe {
                picollo_openmetrics_writer_point(self.0, h.0, l.labels.as_ptr(), l.labels.len())
            }
        }

        fn finish(&self) -> picollo_status {
            // SAFETY: a live writer.
            unsafe { picollo_openmetrics_writer_finish(self.0) }
        }

        fn take(&self) -> String {
            // SAFETY: the buffer arguments come from `text_of`.
            text_of(|buf, len, needed| unsafe {
                picollo_openmetrics_writer_take(self.0, buf, len, needed)
            })
        }
    }

    impl Drop for Writer {
        fn drop(&mut self) {
            // SAFETY: freed once, here.
            unsafe { picollo_openmetrics_writer_free(self.0) }
        }
    }

    #[test]
    fn the_writer_writes_several_families_then_eof() {
        let (a, b) = (
            histogram(64, 0, [3, 30, 300]),
            histogram(64, 2, [7, 70_000]),
        );
        let c = histogram(32, 3, 1..1_000);
        let hist = picollo_openmetrics_options_default();
        let mut summary = picollo_openmetrics_options_default();
        summary.summary = 1;
        summary.unit_ratio = 1e6;
        let w = Writer::new();
        assert_eq!(
            w.family("db_latency", "Database latency", &hist),
            picollo_status::Ok
        );
        // The metadata is pending before any point.
        let head = w.take();
        assert_eq!(
            head,
            "# TYPE db_latency histogram\n# HELP db_latency Database latency\n"
        );
        assert_eq!(w.point(&a, &[("db", "users")]), picollo_status::Ok);
        assert_eq!(w.point(&b, &[("db", "orders")]), picollo_status::Ok);
        assert_eq!(w.family("queue_wait", "", &summary), picollo_status::Ok);
        assert_eq!(w.point(&c, &[]), picollo_status::Ok);
        assert_eq!(w.finish(), picollo_status::Ok);
        let text = head + &w.take();
        // SAFETY: no bounds to read.
        let (h_opts, s_opts) =
            unsafe { (om_options(&hist).unwrap(), om_options(&summary).unwrap()) };
        let expected = core_openmetrics(&[
            (
                Family::new("db_latency").with_help("Database latency"),
                &h_opts,
                &[(&[("db", "users")], &a), (&[("db", "orders")], &b)],
            ),
            (Family::new("queue_wait"), &s_opts, &[(&[], &c)]),
        ]);
        assert_eq!(text, expected);
        assert!(text.contains("\nqueue_wait_count 999\n"), "{text}");
        assert!(text.ends_with("\n# EOF\n") && text.matches("# EOF").count() == 1);
        // Nothing may follow # EOF, and the text was taken.
        assert_eq!(w.finish(), picollo_status::InvalidArgument);
        assert_eq!(w.family("late", "", &hist), picollo_status::InvalidArgument);
        assert!(last_error().contains("finished"), "{}", last_error());
        assert_eq!(w.point(&a, &[]), picollo_status::InvalidArgument);
        assert_eq!(w.take(), "");
    }

    #[test]
    fn the_writer_refuses_bad_families_and_points_writing_nothing() {
        let w = Writer::new();
        let o = picollo_openmetrics_options_default();
        let a = histogram(64, 0, [1]);
        assert_eq!(w.point(&a, &[]), picollo_status::InvalidArgument);
        assert!(last_error().contains("no family"), "{}", last_error());
        assert_eq!(w.family("x", "", &o), picollo_status::Ok);
        assert_eq!(w.family("x", "", &o), picollo_status::InvalidArgument);
        assert!(last_error().contains("already"), "{}", last_error());
        for bad in ["", "1x", "x_bucket", "x-y", "x_total"] {
            assert_eq!(
                w.family(bad, "", &o),
                picollo_status::InvalidArgument,
                "{bad:?}"
            );
        }
        for bad in [
            &[("le", "1")][..],
            &[("__x", "1")],
            &[("a", "1"), ("a", "2")],
            &[("1a", "")],
        ] {
            assert_eq!(w.point(&a, bad), picollo_status::InvalidArgument, "{bad:?}");
        }
        assert_eq!(w.point(&a, &[("a", "1")]), picollo_status::Ok);
        // Another layout in the same family.
        let coarse = Handle::new(64, 0.01, 0);
        assert_eq!(
            w.point(&coarse, &[("a", "2")]),
            picollo_status::LayoutMismatch
        );
        // A NULL label value.
        let name = c"a";
        let label = picollo_label {
            name: name.as_ptr(),
            value: ptr::null(),
        };
        // SAFETY: live handles and one label.
        let status = unsafe { picollo_openmetrics_writer_point(w.0, a.0, &label, 1) };
        assert_eq!(status, picollo_status::NullPointer);
        assert!(last_error().contains("labels[0].value"), "{}", last_error());
        let text = w.take();
        assert_eq!(text.matches("x_count").count(), 1, "{text}");
        assert_eq!(text.matches("# TYPE").count(), 1, "{text}");
    }

    /// `picollo_histogram_prometheus_buckets` filled to `capacity`.
    fn buckets(
        h: &Handle,
        o: &picollo_openmetrics_options,
        capacity: usize,
    ) -> (picollo_status, usize, Vec<f64>, Vec<u64>, f64) {
        let (mut le, mut cum) = (vec![-1.0; capacity], vec![u64::MAX; capacity]);
        let (mut count, mut sum) = (usize::MAX, -1.0);
        // SAFETY: arrays of `capacity` elements, writable outputs.
        let status = unsafe {
            picollo_histogram_prometheus_buckets(
                h.0,
                o,
                if capacity == 0 {
                    ptr::null_mut()
                } else {
                    le.as_mut_ptr()
                },
                if capacity == 0 {
                    ptr::null_mut()
                } else {
                    cum.as_mut_ptr()
                },
                capacity,
                &mut count,
                &mut sum,
            )
        };
        (status, count, le, cum, sum)
    }

    #[test]
    fn prometheus_buckets_are_the_texts_cumulative_counts() {
        let h = histogram(64, 1, (1..5_000).map(|v| v * 13));
        let bounds = [1_000u64, 20_000, 50_000];
        let mut explicit = picollo_openmetrics_options_default();
        explicit.bounds = bounds.as_ptr();
        explicit.bound_count = bounds.len();
        explicit.unit_ratio = 1e3;
        let mut coarse = picollo_openmetrics_options_default();
        coarse.coarse_relative_error = 0.1;
        for o in [picollo_openmetrics_options_default(), explicit, coarse] {
            let (status, n, ..) = buckets(&h, &o, 0);
            assert_eq!(status, picollo_status::BufferTooSmall);
            assert!(n >= 2, "{n}");
            // One short: nothing written but the count.
            let (status, again, le, cum, sum) = buckets(&h, &o, n - 1);
            assert_eq!((status, again), (picollo_status::BufferTooSmall, n));
            assert!(le.iter().all(|&x| x == -1.0) && cum.iter().all(|&c| c == u64::MAX));
            assert_eq!(sum, -1.0);
            let (status, again, le, cum, sum) = buckets(&h, &o, n + 3);
            assert_eq!((status, again), (picollo_status::Ok, n), "{}", last_error());
            assert_eq!(le[n - 1], f64::INFINITY);
            assert_eq!(cum[n - 1], 4_999);
            assert_eq!(le[n], -1.0, "nothing past the count");
            // The text's lines, one for one.
            let text = openmetrics(&h, "m", None, None, &[], &o).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("m_bucket")).collect();
            assert_eq!(lines.len(), n);
            for (k, line) in lines.iter().enumerate() {
                let le_text = match le[k] {
                    x if x.is_infinite() => "+Inf".to_string(),
                    x => format!("{x:?}"),
                };
                assert_eq!(*line, format!("m_bucket{{le=\"{le_text}\"}} {}", cum[k]));
            }
            assert!(text.contains(&format!("\nm_sum {sum:?}\n")), "{text}");
            assert!(cum.windows(2).take(n - 1).all(|p| p[0] <= p[1]));
        }
        // Explicit bounds are exported in exported units.
        let (_, n, le, ..) = buckets(&h, &explicit, 4);
        assert_eq!((n, &le[..3]), (4, &[1.0, 20.0, 50.0][..]));
        // A summary has no buckets; count is required.
        let mut summary = picollo_openmetrics_options_default();
        summary.summary = 1;
        assert_eq!(buckets(&h, &summary, 0).0, picollo_status::InvalidArgument);
        let o = picollo_openmetrics_options_default();
        // SAFETY: NULL count is refused before anything is written.
        let status = unsafe {
            picollo_histogram_prometheus_buckets(
                h.0,
                &o,
                ptr::null_mut(),
                ptr::null_mut(),
                0,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, picollo_status::NullPointer);
    }

    fn otlp(
        h: &Handle,
        o: &picollo_otlp_options,
        format: u32,
    ) -> Result<Vec<u8>, (picollo_status, String)> {
        let mut needed = usize::MAX;
        // SAFETY: sized options whose pointers are live; a size query.
        let status =
            unsafe { picollo_histogram_otlp(h.0, o, format, ptr::null_mut(), 0, &mut needed) };
        if status != picollo_status::BufferTooSmall {
            return Err((status, last_error()));
        }
        let mut buf = vec![0xaa_u8; needed + 1];
        let mut again = 0;
        // SAFETY: `buf` has `buf.len()` writable bytes.
        let status = unsafe {
            picollo_histogram_otlp(h.0, o, format, buf.as_mut_ptr(), buf.len(), &mut again)
        };
        assert_eq!((status, again), (picollo_status::Ok, needed));
        buf.truncate(needed);
        Ok(buf)
    }

    #[test]
    fn otlp_is_the_core_request_in_both_formats() {
        let h = histogram(64, 2, (1..3_000).map(|v| v * 1_000));
        let attrs = labels(&[("method", "GET"), ("route", "/a\"b")]);
        let resource = labels(&[("service.name", "picollo-test")]);
        let (name, unit, scope) = (c"rpc.duration", c"s", c"picollo");
        for (scale, temporality) in [(PICOLLO_OTLP_SCALE_AUTO, 2), (3, 1), (-2, 2)] {
            let mut o = picollo_otlp_options_default();
            o.temporality = temporality;
            o.name = name.as_ptr();
            o.unit = unit.as_ptr();
            o.scope_name = scope.as_ptr();
            o.start_time_unix_nano = 1_700_000_000_000_000_000;
            o.time_unix_nano = 1_700_000_010_000_000_000;
            o.attributes = attrs.labels.as_ptr();
            o.attribute_count = attrs.labels.len();
            o.resource = resource.labels.as_ptr();
            o.resource_count = resource.labels.len();
            o.scale = scale;
            o.unit_ratio = 1e9;
            let copy = copy_of(h.rust()).unwrap();
            let eh = copied_view!(copy, v => match scale {
                PICOLLO_OTLP_SCALE_AUTO => ExponentialHistogram::from_view(&v, 1e9),
                s => ExponentialHistogram::with_scale(&v, s, 1e9),
            })
            .unwrap()
            .unwrap();
            let attributes = [("method", "GET"), ("route", "/a\"b")];
            let points = [DataPoint {
                attributes: &attributes,
                start_time_unix_nano: o.start_time_unix_nano,
                time_unix_nano: o.time_unix_nano,
                histogram: &eh,
            }];
            let metrics = [Metric {
                name: "rpc.duration",
                description: "",
                unit: "s",
                temporality: if temporality == 1 {
                    Temporality::Delta
                } else {
                    Temporality::Cumulative
                },
                points: &points,
            }];
            let request = Request {
                resource: &[("service.name", "picollo-test")],
                scope_name: "picollo",
                scope_version: "",
                metrics: &metrics,
            };
            assert_eq!(otlp(&h, &o, 0).unwrap(), request.to_protobuf());
            let json = otlp(&h, &o, 1).unwrap();
            assert_eq!(String::from_utf8(json).unwrap(), request.to_json());
            assert_eq!(eh.count, 2_999);
        }
        // Protobuf too small: nothing written.
        let mut o = picollo_otlp_options_default();
        o.name = name.as_ptr();
        let mut small = [0x5a_u8; 4];
        let mut needed = 0;
        // SAFETY: `small` has 4 writable bytes.
        let status =
            unsafe { picollo_histogram_otlp(h.0, &o, 0, small.as_mut_ptr(), 4, &mut needed) };
        assert_eq!(status, picollo_status::BufferTooSmall);
        assert!(needed > 4 && small == [0x5a; 4]);
    }

    #[test]
    fn bad_options_are_refused_with_their_field_named() {
        let h = histogram(64, 0, [1, 2, 3]);
        let bounds = [10u64, 10];
        let cases: [OmCase; 8] = [
            (
                |o| o.summary = 2,
                picollo_status::InvalidArgument,
                "summary",
            ),
            (
                |o| o.unit_ratio = 0.0,
                picollo_status::InvalidArgument,
                "unit_ratio",
            ),
            (
                |o| o.unit_ratio = f64::NAN,
                picollo_status::InvalidArgument,
                "unit_ratio",
            ),
            (
                |o| o.coarse_relative_error = 0.0,
                picollo_status::InvalidArgument,
                "coarse",
            ),
            (
                |o| o.coarse_relative_error = 1.0,
                picollo_status::InvalidArgument,
                "coarse",
            ),
            (|o| o.bound_count = 1, picollo_status::NullPointer, "bounds"),
            (
                |o| o.struct_size -= 8,
                picollo_status::StructSize,
                "struct_size",
            ),
            (
                |o| o.struct_size = 5000,
                picollo_status::StructSize,
                "struct_size",
            ),
        ];
        for (change, status, word) in cases {
            let mut o = picollo_openmetrics_options_default();
            change(&mut o);
            let (got, message) = openmetrics(&h, "m", None, None, &[], &o).err().unwrap();
            assert_eq!(got, status, "{message}");
            assert!(message.contains(word), "{message}");
            assert_eq!(buckets(&h, &o, 0).0, status);
        }
        let mut o = picollo_openmetrics_options_default();
        o.bounds = bounds.as_ptr();
        o.bound_count = 2;
        let (status, message) = openmetrics(&h, "m", None, None, &[], &o).err().unwrap();
        assert_eq!(status, picollo_status::InvalidArgument);
        assert!(message.contains("strictly increasing"), "{message}");
        let o = picollo_openmetrics_options_default();
        for (name, unit) in [("m_seconds", "ms"), ("m", "s-s"), ("m_count", "")] {
            let (status, message) = openmetrics(&h, name, None, Some(unit), &[], &o)
                .err()
                .unwrap();
            assert_eq!(status, picollo_status::InvalidArgument, "{name} {unit}");
            assert!(message.contains(name), "{message}");
        }
        let (status, _) = openmetrics(&h, "m", None, None, &[("quantile", "x")], &{
            let mut s = o;
            s.summary = 1;
            s
        })
        .err()
        .unwrap();
        assert_eq!(status, picollo_status::InvalidArgument);

        let name = c"m";
        let empty = c"";
        let dup = labels(&[("a", "1"), ("a", "2")]);
        let unnamed = labels(&[("", "1")]);
        let otlp_cases: [OtlpCase<'_>; 11] = [
            (
                Box::new(|_| {}),
                2,
                picollo_status::InvalidArgument,
                "format",
            ),
            (
                Box::new(|o| o.temporality = 0),
                0,
                picollo_status::InvalidArgument,
                "temporality",
            ),
            (
                Box::new(|o| o.temporality = 3),
                1,
                picollo_status::InvalidArgument,
                "temporality",
            ),
            (
                Box::new(|o| o.scale = 21),
                0,
                picollo_status::InvalidArgument,
                "scale",
            ),
            (
                Box::new(|o| o.scale = -11),
                0,
                picollo_status::InvalidArgument,
                "scale",
            ),
            (
                Box::new(|o| o.unit_ratio = -1.0),
                0,
                picollo_status::InvalidArgument,
                "unit_ratio",
            ),
            (
                Box::new(|o| o.name = ptr::null()),
                0,
                picollo_status::NullPointer,
                "name",
            ),
            (
                Box::new(|o| o.name = empty.as_ptr()),
                0,
                picollo_status::InvalidArgument,
                "name",
            ),
            (
                Box::new(|o| {
                    o.attributes = dup.labels.as_ptr();
                    o.attribute_count = 2;
                }),
                0,
                picollo_status::InvalidArgument,
                "twice",
            ),
            (
                Box::new(|o| {
                    o.resource = unnamed.labels.as_ptr();
                    o.resource_count = 1;
                }),
                1,
                picollo_status::InvalidArgument,
                "resource[0].name",
            ),
            (
                Box::new(|o| {
                    o.start_time_unix_nano = 2;
                    o.time_unix_nano = 1;
                }),
                0,
                picollo_status::InvalidArgument,
                "start_time",
            ),
        ];
        for (change, format, status, word) in otlp_cases {
            let mut o = picollo_otlp_options_default();
            o.name = name.as_ptr();
            change(&mut o);
            let (got, message) = otlp(&h, &o, format).err().unwrap();
            assert_eq!(got, status, "{message}");
            assert!(message.contains(word), "{message}");
        }
        let mut o = picollo_otlp_options_default();
        o.name = name.as_ptr();
        o.reserved = 1;
        assert_eq!(
            otlp(&h, &o, 0).err().unwrap().0,
            picollo_status::InvalidArgument
        );
        o.reserved = 0;
        o.attribute_count = 1;
        assert_eq!(
            otlp(&h, &o, 0).err().unwrap().0,
            picollo_status::NullPointer
        );
    }
}
