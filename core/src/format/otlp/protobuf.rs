//! The protobuf bytes of an OTLP request, encoded by hand (no code generation): proto3's wire
//! format for the few messages an `ExportMetricsServiceRequest` of exponential histograms
//! needs.

use alloc::vec::Vec;

use super::{Attribute, DataPoint, Metric, Request};

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

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

fn zigzag(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

/// A varint field, left out at 0 (proto3 default).
fn varint_field(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        tag(out, field, 0);
        varint(out, v);
    }
}

/// A `fixed64` field, left out at 0.
fn fixed64_field(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        tag(out, field, 1);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// A `double` field with explicit presence (always written).
fn double_field(out: &mut Vec<u8>, field: u32, v: f64) {
    tag(out, field, 1);
    out.extend_from_slice(&v.to_bits().to_le_bytes());
}

/// A string field, left out when empty.
fn string(out: &mut Vec<u8>, field: u32, s: &str) {
    if !s.is_empty() {
        tag(out, field, 2);
        varint(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    }
}

/// A length-delimited field whose body `body` writes (always written, even empty).
fn message(out: &mut Vec<u8>, field: u32, body: impl FnOnce(&mut Vec<u8>)) {
    let mut inner = Vec::new();
    body(&mut inner);
    tag(out, field, 2);
    varint(out, inner.len() as u64);
    out.extend_from_slice(&inner);
}

/// A `KeyValue` with an `AnyValue` holding a string.
fn key_value(out: &mut Vec<u8>, field: u32, (k, v): &Attribute<'_>) {
    message(out, field, |kv| {
        string(kv, 1, k);
        message(kv, 2, |any| {
            // string_value = 1, written even when empty (it is a oneof member).
            tag(any, 1, 2);
            varint(any, v.len() as u64);
            any.extend_from_slice(v.as_bytes());
        });
    });
}
