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
        let mut out = Vec::new();
        message(&mut out, 1, |rm| {
            message(rm, 1, |r| {
                for a in self.resource {
                    key_value(r, 1, a);
                }
            });
            message(rm, 2, |sm| {
                message(sm, 1, |scope| {
                    string(scope, 1, self.scope_name);
                    string(scope, 2, self.scope_version);
                });
                for m in self.metrics {
                    message(sm, 2, |mb| encode_metric(mb, m));
                }
            });
        });
        out
    }
}

fn encode_metric(out: &mut Vec<u8>, m: &Metric<'_>) {
    string(out, 1, m.name);
    string(out, 2, m.description);
    string(out, 3, m.unit);
    message(out, 10, |eh| {
        for p in m.points {
            message(eh, 1, |dp| encode_point(dp, p));
        }
        varint_field(eh, 2, m.temporality as u64);
    });
}

fn encode_point(out: &mut Vec<u8>, p: &DataPoint<'_>) {
    let h = p.histogram;
    for a in p.attributes {
        key_value(out, 1, a);
    }
    fixed64_field(out, 2, p.start_time_unix_nano);
    fixed64_field(out, 3, p.time_unix_nano);
    fixed64_field(out, 4, h.count);
    double_field(out, 5, h.sum);
    if h.scale != 0 {
        varint_field(out, 6, zigzag(h.scale));
    }
    fixed64_field(out, 7, h.zero_count);
    if !h.bucket_counts.is_empty() {
        message(out, 8, |b| {
            if h.offset != 0 {
                varint_field(b, 1, zigzag(h.offset));
            }
            // Packed repeated uint64.
            message(b, 2, |packed| {
                for &c in &h.bucket_counts {
                    varint(packed, c);
                }
            });
        });
    }
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
fn varint_field(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        wire::varint_field(out, field, v);
    }
}

/// A `fixed64` field, left out at 0.
fn fixed64_field(out: &mut Vec<u8>, field: u32, v: u64) {
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
fn key_value(out: &mut Vec<u8>, field: u32, (k, v): &Attribute<'_>) {
    message(out, field, |kv| {
        string(kv, 1, k);
        message(kv, 2, |any| {
            // string_value = 1, written even when empty (it is a oneof member).
            wire::bytes_field(any, 1, v.as_bytes());
        });
    });
}
