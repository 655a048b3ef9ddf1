//! A small protobuf decoder for the tests that read exports back (OTLP, Prometheus): written
//! here from the wire format, independent of the encoders it checks.

/// A protobuf field: (number, value).
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Varint(u64),
    Fixed64(u64),
    Bytes(Vec<u8>),
}

pub fn read_varint(b: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let byte = b[*at];
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return v;
        }
        shift += 7;
    }
}

pub fn decode(b: &[u8]) -> Vec<(u32, Field)> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < b.len() {
        let key = read_varint(b, &mut at);
        let (field, wire) = ((key >> 3) as u32, key & 7);
        let value = match wire {
            0 => Field::Varint(read_varint(b, &mut at)),
            1 => {
                let v = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
                at += 8;
                Field::Fixed64(v)
            }
            2 => {
                let n = read_varint(b, &mut at) as usize;
                at += n;
                Field::Bytes(b[at - n..at].to_vec())
            }
            w => panic!("wire type {w}"),
        };
        out.push((field, value));
    }
    assert_eq!(at, b.len());
    out
}

pub fn all(fields: &[(u32, Field)], n: u32) -> Vec<Field> {
    fields
        .iter()
        .filter(|(f, _)| *f == n)
        .map(|(_, v)| v.clone())
        .collect()
}

pub fn one(fields: &[(u32, Field)], n: u32) -> Option<Field> {
    let found = all(fields, n);
    assert!(found.len() <= 1, "field {n} repeated");
    found.into_iter().next()
}

pub fn msg(fields: &[(u32, Field)], n: u32) -> Vec<(u32, Field)> {
    match one(fields, n) {
        Some(Field::Bytes(b)) => decode(&b),
        other => panic!("field {n}: {other:?}"),
    }
}

pub fn text(fields: &[(u32, Field)], n: u32) -> String {
    match one(fields, n) {
        Some(Field::Bytes(b)) => String::from_utf8(b).unwrap(),
        None => String::new(),
        other => panic!("field {n}: {other:?}"),
    }
}

pub fn fixed(fields: &[(u32, Field)], n: u32) -> u64 {
    match one(fields, n) {
        Some(Field::Fixed64(v)) => v,
        None => 0,
        other => panic!("field {n}: {other:?}"),
    }
}

pub fn double(fields: &[(u32, Field)], n: u32) -> Option<f64> {
    one(fields, n).map(|f| match f {
        Field::Fixed64(v) => f64::from_bits(v),
        other => panic!("field {n}: {other:?}"),
    })
}

pub fn varint(fields: &[(u32, Field)], n: u32) -> u64 {
    match one(fields, n) {
        Some(Field::Varint(v)) => v,
        other => panic!("field {n}: {other:?}"),
    }
}

/// A zigzag-encoded signed integer (sint32, sint64).
pub fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// A metric of a Prometheus MetricFamily: its label pairs and its histogram message.
pub type MetricMessage = (Vec<(String, String)>, Vec<(u32, Field)>);

/// The MetricFamily messages of a length-delimited stream (a varint length before each):
/// (name, help, type, metrics).
pub fn metric_families(bytes: &[u8]) -> Vec<(String, String, u64, Vec<MetricMessage>)> {
    let (mut at, mut families) = (0, Vec::new());
    while at < bytes.len() {
        let n = read_varint(bytes, &mut at) as usize;
        let f = decode(&bytes[at..at + n]);
        at += n;
        let metrics = all(&f, 4)
            .into_iter()
            .map(|m| {
                let Field::Bytes(m) = m else { panic!() };
                let m = decode(&m);
                let labels = all(&m, 1)
                    .into_iter()
                    .map(|p| {
                        let Field::Bytes(p) = p else { panic!() };
                        let p = decode(&p);
                        (text(&p, 1), text(&p, 2))
                    })
                    .collect();
                (labels, msg(&m, 7))
            })
            .collect();
        families.push((text(&f, 1), text(&f, 2), varint(&f, 3), metrics));
    }
    families
}
