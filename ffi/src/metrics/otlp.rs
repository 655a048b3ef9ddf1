//! OTLP exponential histograms over the C ABI: one histogram as an
//! `ExportMetricsServiceRequest` (one resource, one scope, one metric of one point), in
//! protobuf or OTLP/JSON.
//!
//! The histogram is read as one consistent copy and re-binned into exponential buckets by the
//! core (`ExponentialHistogram`): each bucket whole into the exponential bucket of its
//! midpoint, values below or above the range at the range's ends, saturated counts left out;
//! with the automatic scale a value is reported within about twice the histogram's relative
//! error. The scale, unit ratio, name, attribute names and times are checked by the core's
//! rules (`picollo::otlp::check_*`); the format, the temporality and `reserved` are the C
//! encoding's own.

use std::ffi::c_char;

use picollo_core::otlp::{
    check_attributes, check_name, check_scale, check_times, check_unit_ratio, Attribute,
    AttributeSet, DataPoint, ExponentialHistogram, Metric, Request, Temporality,
};

use super::labels::{picollo_label, try_labels};
use super::{copied_view, copy_of};
use crate::args::{read_sized, try_str, StructSized};
use crate::boundary::boundary;
use crate::buffer::{copy_bytes, copy_text, CallerBuffer};
use crate::choice::choice;
use crate::enums::{picollo_otlp_format, picollo_otlp_temporality};
use crate::error::Failure;
use crate::handle::{caller_owned, try_ref};
use crate::histogram::any::Histogram;
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

caller_owned!(picollo_otlp_options);

/// `picollo_otlp_options.scale`: the coarsest scale at least as fine as the relative error.
pub const PICOLLO_OTLP_SCALE_AUTO: i32 = -2147483647 - 1;

/// Options of `picollo_histogram_otlp`, from `picollo_otlp_options_default`; NULL strings are "".
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_otlp_options {
    /// `sizeof(picollo_otlp_options)` as the caller knows it.
    pub struct_size: u32,
    /// A `picollo_otlp_temporality`: 1 delta, 2 cumulative (the default).
    pub temporality: u32,
    /// The metric name: required, not empty.
    pub name: *const c_char,
    /// The metric description.
    pub description: *const c_char,
    /// The metric unit (UCUM, e.g. "s").
    pub unit: *const c_char,
    /// Start of the interval (delta) or of the counting (cumulative), ns since the Unix epoch.
    pub start_time_unix_nano: u64,
    /// End of the interval, ns since the Unix epoch, not before the start; 0: both unset.
    pub time_unix_nano: u64,
    /// The point's attributes (`attribute_count` of them), names not empty and each once.
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
    /// The scale, -10..20, or `PICOLLO_OTLP_SCALE_AUTO` (the default).
    pub scale: i32,
    /// Reserved: must be zero.
    pub reserved: u32,
    /// Recorded units per exported unit (1e9: ns as seconds), finite and above 0; default 1.
    pub unit_ratio: f64,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers, floats and raw pointers (every
// bit pattern is a valid raw pointer; they are only read through the checked helpers).
crate::args::struct_sized!(picollo_otlp_options);

/// Returns the default OTLP options: cumulative, no name (set one), no times, attributes or
/// resource, the scale from the relative error, unit ratio 1.
#[no_mangle]
pub extern "C" fn picollo_otlp_options_default() -> picollo_otlp_options {
    picollo_otlp_options {
        temporality: picollo_otlp_temporality::Cumulative as u32,
        scale: PICOLLO_OTLP_SCALE_AUTO,
        unit_ratio: 1.0,
        ..picollo_otlp_options::sized()
    }
}

/// A `picollo_otlp_temporality` from its number, as the core's.
fn temporality(t: u32) -> Result<Temporality, Failure> {
    Ok(match choice(t, "temporality")? {
        picollo_otlp_temporality::Delta => Temporality::Delta,
        picollo_otlp_temporality::Cumulative => Temporality::Cumulative,
    })
}

/// The checked contents of a `picollo_otlp_options`.
struct OtlpArgs<'a> {
    temporality: Temporality,
    /// The metric's name, description and unit.
    metric: [&'a str; 3],
    /// The instrumentation scope's name and version.
    scope: [&'a str; 2],
    attributes: Vec<Attribute<'a>>,
    resource: Vec<Attribute<'a>>,
    /// `None`: the scale from the histogram's relative error.
    scale: Option<i32>,
    unit_ratio: f64,
    start: u64,
    time: u64,
}

impl<'a> OtlpArgs<'a> {
    /// Every field of `o` checked, in the order the errors are documented.
    ///
    /// # Safety
    /// The strings of `o` are NULL or NUL-terminated and its attribute arrays have their
    /// counts of labels with NUL-terminated strings, all valid for `'a`.
    unsafe fn read(o: &picollo_otlp_options) -> Result<Self, Failure> {
        let temporality = temporality(o.temporality)?;
        let (name, description, unit, scope_name, scope_version) =
            (o.name, o.description, o.unit, o.scope_name, o.scope_version);
        let name = check_name(try_str!(name)?).map_err(Failure::invalid)?;
        let (description, unit) = (try_str!(description, or "")?, try_str!(unit, or "")?);
        let scope = [
            try_str!(scope_name, or "")?,
            try_str!(scope_version, or "")?,
        ];
        let (attributes, attribute_count) = (o.attributes, o.attribute_count);
        let (resource, resource_count) = (o.resource, o.resource_count);
        let attributes = try_labels!(attributes, attribute_count)?;
        let resource = try_labels!(resource, resource_count)?;
        check_attributes(&attributes, AttributeSet::Point).map_err(Failure::invalid)?;
        check_attributes(&resource, AttributeSet::Resource).map_err(Failure::invalid)?;
        let (scale, unit_ratio) = scale_and_ratio(o)?;
        let (start, time) = times(o)?;
        Ok(OtlpArgs {
            temporality,
            metric: [name, description, unit],
            scope,
            attributes,
            resource,
            scale,
            unit_ratio,
            start,
            time,
        })
    }

    /// The histogram of the point: a consistent copy of `h` re-binned by the core.
    fn histogram(&self, h: &Histogram) -> Result<ExponentialHistogram, Failure> {
        let copy = copy_of(h)?;
        copied_view!(copy, v => match self.scale {
            None => ExponentialHistogram::from_view(&v, self.unit_ratio),
            Some(s) => ExponentialHistogram::with_scale(&v, s, self.unit_ratio),
        })?
        .map_err(Failure::invalid)
    }

    /// `f` on the request of one metric with one point holding `histogram`.
    fn with_request<R>(
        &self,
        histogram: &ExponentialHistogram,
        f: impl FnOnce(&Request) -> R,
    ) -> R {
        let points = [DataPoint {
            attributes: &self.attributes,
            start_time_unix_nano: self.start,
            time_unix_nano: self.time,
            histogram,
        }];
        let [name, description, unit] = self.metric;
        let metrics = [Metric {
            name,
            description,
            unit,
            temporality: self.temporality,
            points: &points,
        }];
        let [scope_name, scope_version] = self.scope;
        f(&Request {
            resource: &self.resource,
            scope_name,
            scope_version,
            metrics: &metrics,
        })
    }
}

/// The scale (`None`: automatic) and unit ratio of `o`, checked by the core's rules.
fn scale_and_ratio(o: &picollo_otlp_options) -> Result<(Option<i32>, f64), Failure> {
    let scale = match o.scale {
        PICOLLO_OTLP_SCALE_AUTO => None,
        s => Some(
            check_scale(s)
                .map_err(|e| Failure::invalid(format_args!("{e} or PICOLLO_OTLP_SCALE_AUTO")))?,
        ),
    };
    Ok((
        scale,
        check_unit_ratio(o.unit_ratio).map_err(Failure::invalid)?,
    ))
}

/// The start and end of `o`'s point: the start not after the end (unless the end is 0); then
/// `reserved` zero.
fn times(o: &picollo_otlp_options) -> Result<(u64, u64), Failure> {
    let (start, time) = (o.start_time_unix_nano, o.time_unix_nano);
    check_times(start, time).map_err(Failure::invalid)?;
    if o.reserved != 0 {
        return Err(Failure::invalid("reserved must be zero"));
    }
    Ok((start, time))
}

/// Writes `h` as an OTLP `ExportMetricsServiceRequest` with one exponential-histogram point, in
/// `format` (a `picollo_otlp_format`: protobuf bytes, or JSON text), into `buf` (docs/c-api.md,
/// "Metrics export"). Errors: NULL `h`, `o`, `o->name` or an attribute string; `STRUCT_SIZE`;
/// `INVALID_UTF8`; `INVALID_ARGUMENT` for a format or option OTLP refuses (the message names
/// it); `OUT_OF_MEMORY`; `BUFFER_TOO_SMALL` (protobuf: nothing written).
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
        let format: picollo_otlp_format = choice(format, "format")?;
        // SAFETY: the caller promises that the strings of `o` are NULL or NUL-terminated and
        // its attribute arrays have their counts (this function's `# Safety`).
        let args = unsafe { OtlpArgs::read(&o) }?;
        let histogram = args.histogram(h)?;
        let out = CallerBuffer::new(buf, len, needed, "buf");
        args.with_request(&histogram, |request| match format {
            // SAFETY: the caller promises that `buf` is NULL or has `len` writable bytes and
            // `needed` is NULL or writable (this function's `# Safety`).
            picollo_otlp_format::Protobuf => unsafe { copy_bytes(&request.to_protobuf(), out) },
            // SAFETY: as above.
            picollo_otlp_format::Json => unsafe { copy_text(&request.to_json(), out.cast()) },
        })
    })
}
