//! The metrics functions called as C calls them, compared with what the core writes.

mod collect;
mod openmetrics;
mod openmetrics_writer;
mod otlp;

use std::ffi::CString;
use std::ptr;

use picollo_core::openmetrics::{Family, OpenMetricsWriter, STANDARD_QUANTILES};

use super::labels::picollo_label;
use super::openmetrics::{picollo_histogram_openmetrics, picollo_openmetrics_options, OmOptions};
use super::prometheus::picollo_histogram_prometheus_buckets;
use super::{copied_view, copy_of};
use crate::histogram::picollo_histogram_record;
use crate::status::picollo_status;
use crate::testing::{last_error, text_of, Handle, THREE_DIGITS};

pub(super) fn histogram(bits: u32, mode: u32, values: impl IntoIterator<Item = u64>) -> Handle {
    let h = Handle::new(bits, THREE_DIGITS, mode);
    for v in values {
        // SAFETY: a live handle.
        unsafe { picollo_histogram_record(h.0, v) };
    }
    h
}

/// Owned C strings for labels, and the `picollo_label` array pointing into them.
pub(super) struct Labels {
    _strings: Vec<CString>,
    pub(super) labels: Vec<picollo_label>,
}

pub(super) fn labels(pairs: &[(&str, &str)]) -> Labels {
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
pub(super) type Point<'a> = (&'a [(&'a str, &'a str)], &'a Handle);
/// A family: its metadata, options and points.
pub(super) type FamilySpec<'a> = (Family<'a>, &'a OmOptions<'a>, &'a [Point<'a>]);

/// What the core writes for these families (each point through a copy).
pub(super) fn core_openmetrics(families: &[FamilySpec<'_>]) -> String {
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

pub(super) fn openmetrics(
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

/// `picollo_histogram_prometheus_buckets` filled to `capacity`.
pub(super) fn buckets(
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
