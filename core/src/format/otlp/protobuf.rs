//! The protobuf bytes of an OTLP request, encoded by hand (no code generation): proto3's wire
//! format for the few messages an `ExportMetricsServiceRequest` of exponential histograms
//! needs.

use alloc::vec::Vec;

use super::{Attribute, DataPoint, Metric, Request};
use crate::format::protobuf::{self as wire, double_field, message, varint};

impl Request<'_> {
    /// The request as protobuf bytes (the binary OTLP/HTTP and gRPC payload). Fields at
    /// their default values are left out, as proto3 encoders do; `sum`, `min` and `max`
    /// (explicitly optional) are written when set.
    pub fn to_protobuf(&self) -> Vec<u8> {
        envelope(self.resource, self.scope_name, self.scope_version, |sm| {
            for m in self.metrics {
                message(sm, 2, |mb| encode_metric(mb, m));
            }
        })
    }
}

/// An `ExportMetricsServiceRequest` of one resource and one scope, whose `ScopeMetrics`
/// body after the scope `metrics` writes (each metric as field 2).
pub(super) fn envelope(
    resource: &[Attribute<'_>],
    scope_name: &str,
    scope_version: &str,
    metrics: impl FnOnce(&mut Vec<u8>),
) -> Vec<u8> {
    let mut out = Vec::new();
    message(&mut out, 1, |rm| {
        message(rm, 1, |r| {
            for a in resource {
                key_value(r, 1, a);
            }
        });
        message(rm, 2, |sm| {
            message(sm, 1, |scope| {
                string(scope, 1, scope_name);
                string(scope, 2, scope_version);
            });
            metrics(sm);
        });
    });
    out
}

fn encode_metric(out: &mut Vec<u8>, m: &Metric<'_>) {
    metric_names(out, m.name, m.description, m.unit);
    histogram_body(out, m);
}

/// The `exponential_histogram` field (10) of a metric of integer histograms.
pub(super) fn histogram_body(out: &mut Vec<u8>, m: &Metric<'_>) {
    message(out, 10, |eh| {
        for p in m.points {
            message(eh, 1, |dp| encode_point(dp, p));
        }
        varint_field(eh, 2, m.temporality as u64);
    });
}

/// A metric's name, description and unit (fields 1 to 3 of `Metric`).
pub(super) fn metric_names(out: &mut Vec<u8>, name: &str, description: &str, unit: &str) {
    string(out, 1, name);
    string(out, 2, description);
    string(out, 3, unit);
}

/// The fields an `ExponentialHistogramDataPoint` of either kind shares: attributes, times,
/// count, sum, scale and zero count.
pub(super) fn point_head(out: &mut Vec<u8>, head: PointHead<'_>) {
    for a in head.attributes {
        key_value(out, 1, a);
    }
    fixed64_field(out, 2, head.start_time_unix_nano);
    fixed64_field(out, 3, head.time_unix_nano);
    fixed64_field(out, 4, head.count);
    double_field(out, 5, head.sum);
    if head.scale != 0 {
        varint_field(out, 6, zigzag(head.scale));
    }
    fixed64_field(out, 7, head.zero_count);
}

/// What [`point_head`] writes.
pub(super) struct PointHead<'a> {
    pub(super) attributes: &'a [Attribute<'a>],
    pub(super) start_time_unix_nano: u64,
    pub(super) time_unix_nano: u64,
    pub(super) count: u64,
    pub(super) sum: f64,
    pub(super) scale: i32,
    pub(super) zero_count: u64,
}

/// A `Buckets` message (`positive` = 8, `negative` = 9), left out when it has no counts.
pub(super) fn buckets(out: &mut Vec<u8>, field: u32, offset: i32, counts: &[u64]) {
    if counts.is_empty() {
        return;
    }
    message(out, field, |b| {
        if offset != 0 {
            varint_field(b, 1, zigzag(offset));
        }
        // Packed repeated uint64.
        message(b, 2, |packed| {
            for &c in counts {
                varint(packed, c);
            }
        });
    });
}

fn encode_point(out: &mut Vec<u8>, p: &DataPoint<'_>) {
    let h = p.histogram;
    point_head(
        out,
        PointHead {
            attributes: p.attributes,
            start_time_unix_nano: p.start_time_unix_nano,
            time_unix_nano: p.time_unix_nano,
            count: h.count,
            sum: h.sum,
            scale: h.scale,
            zero_count: h.zero_count,
        },
    );
    buckets(out, 8, h.offset, &h.bucket_counts);
    if let Some(min) = h.min {
        double_field(out, 12, min);
    }
    if let Some(max) = h.max {
        double_field(out, 13, max);
    }
}

fn zigzag(v: i32) -> u64 {
    wire::zigzag(i64::from(v))
}

/// A varint field, left out at 0 (proto3 default).
pub(super) fn varint_field(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        wire::varint_field(out, field, v);
    }
}

/// A `fixed64` field, left out at 0.
pub(super) fn fixed64_field(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        wire::fixed64_field(out, field, v);
    }
}

/// A string field, left out when empty.
fn string(out: &mut Vec<u8>, field: u32, s: &str) {
    if !s.is_empty() {
        wire::bytes_field(out, field, s.as_bytes());
    }
}

/// A `KeyValue` with an `AnyValue` holding a string.
pub(super) fn key_value(out: &mut Vec<u8>, field: u32, (k, v): &Attribute<'_>) {
    message(out, field, |kv| {
        string(kv, 1, k);
        message(kv, 2, |any| {
            // string_value = 1, written even when empty (it is a oneof member).
            wire::bytes_field(any, 1, v.as_bytes());
        });
    });
}
