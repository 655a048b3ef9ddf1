//! Protobuf's wire format by hand (no code generation): the few primitives the OTLP and
//! Prometheus encoders are written with. Every function writes its field whatever the
//! value; an encoder that leaves defaults out (proto3) decides that itself.

use alloc::vec::Vec;

/// Wire type of varints (`int*`, `uint*`, `sint*`, `bool`, enums).
pub(crate) const VARINT: u8 = 0;
/// Wire type of `fixed64` and `double`.
pub(crate) const I64: u8 = 1;
/// Wire type of strings, bytes, messages and packed repeated scalars.
pub(crate) const LEN: u8 = 2;

/// `v` in base 128, low group first, the top bit of each byte saying another follows.
pub(crate) fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A field's key: its number and wire type.
pub(crate) fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

/// `sint32`/`sint64`'s mapping to unsigned: 0, −1, 1, −2, … become 0, 1, 2, 3, … (the same
/// number for either width).
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// A varint field.
pub(crate) fn varint_field(out: &mut Vec<u8>, field: u32, v: u64) {
    tag(out, field, VARINT);
    varint(out, v);
}

/// A `fixed64` field.
pub(crate) fn fixed64_field(out: &mut Vec<u8>, field: u32, v: u64) {
    tag(out, field, I64);
    out.extend_from_slice(&v.to_le_bytes());
}

/// A `double` field.
pub(crate) fn double_field(out: &mut Vec<u8>, field: u32, v: f64) {
    fixed64_field(out, field, v.to_bits());
}

/// A string (or bytes) field.
pub(crate) fn bytes_field(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    tag(out, field, LEN);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// A length-delimited field whose body `body` writes.
pub(crate) fn message(out: &mut Vec<u8>, field: u32, body: impl FnOnce(&mut Vec<u8>)) {
    tag(out, field, LEN);
    delimited(out, body);
}

/// The bytes `body` writes, after their length as a varint: a field's payload, or one
/// message of a length-delimited stream.
pub(crate) fn delimited(out: &mut Vec<u8>, body: impl FnOnce(&mut Vec<u8>)) {
    let mut inner = Vec::new();
    body(&mut inner);
    varint(out, inner.len() as u64);
    out.extend_from_slice(&inner);
}
