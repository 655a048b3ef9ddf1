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
    Bounds, Family, HistogramOptions, OpenMetricsError, OpenMetricsWriter, STANDARD_QUANTILES,
};
use picollo_core::otlp::{
    DataPoint, ExponentialHistogram, Metric, Request, Temporality, MAX_SCALE, MIN_SCALE,
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
    let ratio = o.unit_ratio;
    if !(ratio.is_finite() && ratio > 0.0) {
        return Err(Failure::invalid(format_args!(
            "unit_ratio is {ratio}: it must be a finite number above 0"
        )));
    }
    // SAFETY: forwarded contract.
    let bounds = unsafe { crate::args::slice_from(o.bounds, o.bound_count, "bounds") }?;
    let bounds = if bounds.is_empty() {
        let e = o.coarse_relative_error;
        if !(e > 0.0 && e < 1.0) {
            return Err(Failure::invalid(format_args!(
                "coarse_relative_error is {e}: it must be in (0, 1)"
            )));
        }
        Bounds::Coarse(e)
    } else {
        if let Some(k) = bounds.windows(2).position(|p| p[0] >= p[1]) {
            return Err(Failure::invalid(format_args!(
                "bounds[{}] = {} is not above bounds[{k}] = {}: bounds must be strictly \
                 increasing",
                k + 1,
                bounds[k + 1],
                bounds[k]
            )));
        }
        Bounds::Explicit(bounds)
    };
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

/// The cumulative buckets of a histogram family, read back from the exposition the core
/// writes, so they are the text's: `(le, cumulative)` pairs ending with `+Inf`, and `_sum`.
fn exposition_buckets(text: &str) -> Option<(Vec<(f64, u64)>, f64)> {
    const BUCKET: &str = "m_bucket{le=\"";
    let mut buckets = Vec::new();
    let mut sum = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix(BUCKET) {
            let (le, count) = rest.split_once("\"} ")?;
            let le = match le {
                "+Inf" => f64::INFINITY,
                _ => le.parse().ok()?,
            };
            buckets.push((le, count.parse().ok()?));
        } else if let Some(s) = line.strip_prefix("m_sum ") {
            sum = Some(s.parse().ok()?);
        }
    }
    Some((buckets, sum?))
}

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
        let text = family_text(&Family::new("m"), &o, &[], h, false)?;
        let (buckets, total) = exposition_buckets(&text).ok_or_else(|| {
            Failure::new(
                picollo_status::Panic,
                "internal error: the exposition's buckets could not be read back",
            )
        })?;
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
        if scale != PICOLLO_OTLP_SCALE_AUTO && !(MIN_SCALE..=MAX_SCALE).contains(&scale) {
            return Err(Failure::invalid(format_args!(
                "scale is {scale}: it must be in {MIN_SCALE}..{MAX_SCALE} or \
                 PICOLLO_OTLP_SCALE_AUTO"
            )));
        }
        let ratio = o.unit_ratio;
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(Failure::invalid(format_args!(
                "unit_ratio is {ratio}: it must be a finite number above 0"
            )));
        }
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
        })?;
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
