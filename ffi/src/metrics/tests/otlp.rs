//! OTLP: the core's request in both formats, and the options' checks.

use std::ptr;

use picollo_core::otlp::{DataPoint, ExponentialHistogram, Metric, Request, Temporality};

use super::{copied_view, copy_of, histogram, labels};
use crate::metrics::{
    picollo_histogram_otlp, picollo_otlp_options, picollo_otlp_options_default,
    PICOLLO_OTLP_SCALE_AUTO,
};
use crate::status::picollo_status;
use crate::testing::{last_error, Handle};

fn otlp(
    h: &Handle,
    o: &picollo_otlp_options,
    format: u32,
) -> Result<Vec<u8>, (picollo_status, String)> {
    let mut needed = usize::MAX;
    // SAFETY: sized options whose pointers are live; a size query.
    let status = unsafe { picollo_histogram_otlp(h.0, o, format, ptr::null_mut(), 0, &mut needed) };
    if status != picollo_status::BufferTooSmall {
        return Err((status, last_error()));
    }
    let mut buf = vec![0xaa_u8; needed + 1];
    let mut again = 0;
    // SAFETY: `buf` has `buf.len()` writable bytes.
    let status =
        unsafe { picollo_histogram_otlp(h.0, o, format, buf.as_mut_ptr(), buf.len(), &mut again) };
    assert_eq!((status, again), (picollo_status::Ok, needed));
    buf.truncate(needed);
    Ok(buf)
}

/// What core makes of the export `o` (named "rpc.duration" in "s" by scope "picollo") of
/// `eh`: protobuf bytes and JSON text.
fn core_request(eh: &ExponentialHistogram, o: &picollo_otlp_options) -> (Vec<u8>, String) {
    let attributes = [("method", "GET"), ("route", "/a\"b")];
    let points = [DataPoint {
        attributes: &attributes,
        start_time_unix_nano: o.start_time_unix_nano,
        time_unix_nano: o.time_unix_nano,
        histogram: eh,
    }];
    let metrics = [Metric {
        name: "rpc.duration",
        description: "",
        unit: "s",
        temporality: if o.temporality == 1 {
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
    (request.to_protobuf(), request.to_json())
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
        let (protobuf, json) = core_request(&eh, &o);
        assert_eq!(otlp(&h, &o, 0).unwrap(), protobuf);
        let text = otlp(&h, &o, 1).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), json);
        assert_eq!(eh.count, 2_999);
    }
    // Protobuf too small: nothing written.
    let mut o = picollo_otlp_options_default();
    o.name = name.as_ptr();
    let mut small = [0x5a_u8; 4];
    let mut needed = 0;
    // SAFETY: `small` has 4 writable bytes.
    let status = unsafe { picollo_histogram_otlp(h.0, &o, 0, small.as_mut_ptr(), 4, &mut needed) };
    assert_eq!(status, picollo_status::BufferTooSmall);
    assert!(needed > 4 && small == [0x5a; 4]);
}

/// Asserts that the options `change` makes from the defaults (named "m") are refused in
/// `format` with `status` and a message containing `word`.
fn refused(
    h: &Handle,
    change: impl FnOnce(&mut picollo_otlp_options),
    format: u32,
    status: picollo_status,
    word: &str,
) {
    let mut o = picollo_otlp_options_default();
    o.name = c"m".as_ptr();
    change(&mut o);
    let (got, message) = otlp(h, &o, format).err().unwrap();
    assert_eq!(got, status, "{message}");
    assert!(message.contains(word), "{message}");
}

#[test]
fn bad_otlp_options_are_refused_with_their_field_named() {
    use picollo_status::{InvalidArgument as Invalid, NullPointer};
    let h = histogram(64, 0, [1, 2, 3]);
    let name = c"m";
    let empty = c"";
    let dup = labels(&[("a", "1"), ("a", "2")]);
    let unnamed = labels(&[("", "1")]);
    refused(&h, |_| {}, 2, Invalid, "format");
    refused(&h, |o| o.temporality = 0, 0, Invalid, "temporality");
    refused(&h, |o| o.temporality = 3, 1, Invalid, "temporality");
    refused(&h, |o| o.scale = 21, 0, Invalid, "scale");
    refused(&h, |o| o.scale = -11, 0, Invalid, "scale");
    refused(&h, |o| o.unit_ratio = -1.0, 0, Invalid, "unit_ratio");
    refused(&h, |o| o.name = ptr::null(), 0, NullPointer, "name");
    refused(&h, |o| o.name = empty.as_ptr(), 0, Invalid, "name");
    let attributes = |o: &mut picollo_otlp_options| {
        o.attributes = dup.labels.as_ptr();
        o.attribute_count = 2;
    };
    refused(&h, attributes, 0, Invalid, "twice");
    let resource = |o: &mut picollo_otlp_options| {
        o.resource = unnamed.labels.as_ptr();
        o.resource_count = 1;
    };
    refused(&h, resource, 1, Invalid, "resource[0].name");
    let times = |o: &mut picollo_otlp_options| {
        o.start_time_unix_nano = 2;
        o.time_unix_nano = 1;
    };
    refused(&h, times, 0, Invalid, "start_time");
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
