//! Prometheus native histograms over the C ABI: one histogram (integer or double) as one
//! `MetricFamily` of type HISTOGRAM with one series, in the protobuf exposition (a
//! length-delimited message; several such bodies concatenated are one scrape's body).
//!
//! The histogram is read as one consistent copy and re-binned by the core
//! (`picollo::prometheus::NativeHistogram`); the schema, unit ratio, classic bounds, name and
//! label names are checked by the core's rules.

use std::ffi::c_char;

use picollo_core::prometheus::{
    Bounds, NativeFamily, NativeHistogram, NativeMetric, NativeOptions,
};

use super::labels::{picollo_label, try_labels};
use super::{copied_view, copy_of};
use crate::args::{read_sized, try_str, StructSized};
use crate::boundary::boundary;
use crate::buffer::write_bytes;
use crate::error::Failure;
use crate::float::picollo_float_histogram;
use crate::handle::{caller_owned, try_ref, Castable};
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

caller_owned!(picollo_prometheus_native_options);

/// The `schema` of `picollo_prometheus_native_options` that picks the schema from the
/// histogram's relative error (the coarsest whose buckets are at least as fine; 8 at most).
pub const PICOLLO_PROMETHEUS_SCHEMA_AUTO: i32 = -2147483647 - 1;

/// Options of `picollo_histogram_prometheus_native` and
/// `picollo_float_histogram_prometheus_native`. Start from
/// `picollo_prometheus_native_options_default` (which sets `struct_size`), then change fields.
/// Strings are NUL-terminated UTF-8; NULL means "".
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_prometheus_native_options {
    /// `sizeof(picollo_prometheus_native_options)` as the caller knows it (rules as
    /// `picollo_histogram_config.struct_size`).
    pub struct_size: u32,
    /// The schema, -4..8 (bucket bounds are powers of `2^(2^-schema)`), or
    /// `PICOLLO_PROMETHEUS_SCHEMA_AUTO` (the default).
    pub schema: i32,
    /// The family name: required, `[a-zA-Z_:][a-zA-Z0-9_:]*`, not ending with `_bucket`,
    /// `_count`, `_sum`, `_created`, `_total` or `_info`.
    pub name: *const c_char,
    /// The help text.
    pub help: *const c_char,
    /// The series' labels (`label_count`; NULL with 0 for none): names
    /// `[a-zA-Z_][a-zA-Z0-9_]*`, not `__`-prefixed, not `le`, each once.
    pub labels: *const picollo_label,
    /// The number of `labels`.
    pub label_count: usize,
    /// Recorded units per exported unit (1e9 exports nanoseconds as seconds): finite and
    /// above 0; default 1.
    pub unit_ratio: f64,
    /// Integer histograms: 0 (the default) for native buckets only; in (0, 1) to add the
    /// classic buckets too, at bounds derived at this coarse relative error (as
    /// `picollo_openmetrics_options.coarse_relative_error`). Must be 0 for doubles.
    pub classic_coarse_relative_error: f64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers, floats and raw pointers (every
// bit pattern is a valid raw pointer; they are only read through the checked helpers).
crate::args::struct_sized!(picollo_prometheus_native_options);

/// Returns the default options: no name (set one), no help or labels, the schema from the
/// relative error, unit ratio 1, native buckets only.
#[no_mangle]
pub extern "C" fn picollo_prometheus_native_options_default() -> picollo_prometheus_native_options {
    picollo_prometheus_native_options {
        schema: PICOLLO_PROMETHEUS_SCHEMA_AUTO,
        unit_ratio: 1.0,
        ..picollo_prometheus_native_options::sized()
    }
}

/// The checked strings and labels of the options, and the core's options.
struct NativeArgs<'a> {
    name: &'a str,
    help: &'a str,
    labels: Vec<(&'a str, &'a str)>,
    options: NativeOptions<'static>,
}

impl<'a> NativeArgs<'a> {
    /// Every field of `o` read, then checked by the core's rules (options, name, labels).
    ///
    /// # Safety
    /// The strings of `o` are NULL or NUL-terminated and its label array has its count of
    /// labels with NUL-terminated strings, all valid for `'a`.
    unsafe fn read(o: &picollo_prometheus_native_options) -> Result<Self, Failure> {
        let (name, help) = (o.name, o.help);
        let (name, help) = (try_str!(name)?, try_str!(help, or "")?);
        let (labels, label_count) = (o.labels, o.label_count);
        let labels = try_labels!(labels, label_count)?;
        let options = NativeOptions {
            schema: (o.schema != PICOLLO_PROMETHEUS_SCHEMA_AUTO).then_some(o.schema),
            unit_ratio: o.unit_ratio,
            classic: (o.classic_coarse_relative_error != 0.0)
                .then_some(Bounds::Coarse(o.classic_coarse_relative_error)),
        };
        options.check().map_err(Failure::invalid)?;
        let args = NativeArgs {
            name,
            help,
            labels,
            options,
        };
        args.family(&[]).check().map_err(Failure::invalid)?;
        Ok(args)
    }

    fn family<'m>(&'m self, metrics: &'m [NativeMetric<'m>]) -> NativeFamily<'m> {
        NativeFamily {
            name: self.name,
            help: self.help,
            metrics,
        }
    }

    /// The delimited `MetricFamily` of `histogram` with these labels.
    fn body(&self, histogram: &NativeHistogram) -> Result<Vec<u8>, Failure> {
        let metrics = [NativeMetric {
            labels: &self.labels,
            histogram,
        }];
        let mut out = Vec::new();
        self.family(&metrics)
            .write_delimited(&mut out)
            .map_err(Failure::invalid)?;
        Ok(out)
    }
}

/// Writes `h` as Prometheus' protobuf exposition (one length-delimited `MetricFamily` holding
/// one native histogram; bytes, no NUL) into `buf` (docs/c-api.md, "Metrics export"). Errors:
/// NULL `h`, `o`, `o->name` or a label string; `STRUCT_SIZE`; `INVALID_UTF8`;
/// `INVALID_ARGUMENT` for an option Prometheus refuses (the message names it);
/// `OUT_OF_MEMORY`; `BUFFER_TOO_SMALL` (nothing written).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_prometheus_native(
    h: *const picollo_histogram,
    o: *const picollo_prometheus_native_options,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        write_native(h, o, (buf, len, needed), |h, options| {
            let copy = copy_of(h)?;
            copied_view!(copy, v => NativeHistogram::from_view(&v, options))?
                .map_err(Failure::invalid)
        })
    }
}

/// Writes the histogram of doubles `h` as `picollo_histogram_prometheus_native` does, with
/// negative buckets and the zero bucket. Errors: as that function, and `INVALID_ARGUMENT` for
/// a non-zero `classic_coarse_relative_error`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_prometheus_native(
    h: *const picollo_float_histogram,
    o: *const picollo_prometheus_native_options,
    buf: *mut u8,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        write_native(h, o, (buf, len, needed), |h, options| {
            NativeHistogram::from_float(&h.counts()?, options).map_err(Failure::invalid)
        })
    }
}

/// The body of both `*_prometheus_native` functions: the options `o` read and checked, the
/// handle `h` re-binned with them by `native`, the family written into `buf` whole.
///
/// # Safety
/// The exported functions' pointer contract for every pointer: `h` NULL or live, `o` NULL or a
/// sized struct whose strings and label array follow docs/c-api.md, `buf` NULL or `len`
/// writable bytes, `needed` NULL or writable.
unsafe fn write_native<H: Castable>(
    h: *const H,
    o: *const picollo_prometheus_native_options,
    (buf, len, needed): (*mut u8, usize, *mut usize),
    native: impl FnOnce(&H::RustType, &NativeOptions) -> Result<NativeHistogram, Failure>,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let o = read_sized!(o)?;
        // SAFETY: the caller promises that the strings of `o` are NULL or NUL-terminated and
        // its label array has its count (the pointer convention of docs/c-api.md).
        let args = unsafe { NativeArgs::read(&o) }?;
        let histogram = native(h, &args.options)?;
        write_bytes!(&args.body(&histogram)?, buf, len, needed)
    })
}
