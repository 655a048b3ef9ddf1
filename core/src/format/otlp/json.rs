//! OTLP/JSON: the protobuf JSON mapping of an OTLP request.

use core::fmt::{self, Write};

use super::{Attribute, DataPoint, Metric, Request};

impl Request<'_> {
    /// The request as OTLP/JSON: the protobuf JSON mapping with lowerCamelCase field names,
    /// 64-bit integers as decimal strings, enums as integers (OTLP's rule), default values
    /// left out.
    pub fn write_json(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str("{\"resourceMetrics\":[{\"resource\":{\"attributes\":")?;
        json_attributes(w, self.resource)?;
        w.write_str("},\"scopeMetrics\":[{\"scope\":{\"name\":")?;
        json_string(w, self.scope_name)?;
        w.write_str(",\"version\":")?;
        json_string(w, self.scope_version)?;
        w.write_str("},\"metrics\":[")?;
        for (k, m) in self.metrics.iter().enumerate() {
            if k > 0 {
                w.write_char(',')?;
            }
            json_metric(w, m)?;
        }
        w.write_str("]}]}]}")
    }

    /// [`Request::write_json`] into a new string.
    pub fn to_json(&self) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        // Writing to a String cannot fail.
        let _ = self.write_json(&mut s);
        s
    }
}

fn json_metric(w: &mut dyn Write, m: &Metric<'_>) -> fmt::Result {
    w.write_str("{\"name\":")?;
    json_string(w, m.name)?;
    if !m.description.is_empty() {
        w.write_str(",\"description\":")?;
        json_string(w, m.description)?;
    }
    if !m.unit.is_empty() {
        w.write_str(",\"unit\":")?;
        json_string(w, m.unit)?;
    }
    w.write_str(",\"exponentialHistogram\":{\"dataPoints\":[")?;
    for (k, p) in m.points.iter().enumerate() {
        if k > 0 {
            w.write_char(',')?;
        }
        json_point(w, p)?;
    }
    write!(
        w,
        "],\"aggregationTemporality\":{}}}}}",
        m.temporality as u8
    )
}

fn json_point(w: &mut dyn Write, p: &DataPoint<'_>) -> fmt::Result {
    let h = p.histogram;
    w.write_str("{\"attributes\":")?;
    json_attributes(w, p.attributes)?;
    write!(
        w,
        ",\"startTimeUnixNano\":\"{}\",\"timeUnixNano\":\"{}\",\"count\":\"{}\",\"sum\":",
        p.start_time_unix_nano, p.time_unix_nano, h.count
    )?;
    json_f64(w, h.sum)?;
    write!(
        w,
        ",\"scale\":{},\"zeroCount\":\"{}\",\"positive\":{{\"offset\":{},\"bucketCounts\":[",
        h.scale, h.zero_count, h.offset
    )?;
    for (k, c) in h.bucket_counts.iter().enumerate() {
        if k > 0 {
            w.write_char(',')?;
        }
        write!(w, "\"{c}\"")?;
    }
    w.write_str("]}")?;
    if let Some(min) = h.min {
        w.write_str(",\"min\":")?;
        json_f64(w, min)?;
    }
    if let Some(max) = h.max {
        w.write_str(",\"max\":")?;
        json_f64(w, max)?;
    }
    w.write_char('}')
}

fn json_attributes(w: &mut dyn Write, attributes: &[Attribute<'_>]) -> fmt::Result {
    w.write_char('[')?;
    for (k, (key, value)) in attributes.iter().enumerate() {
        if k > 0 {
            w.write_char(',')?;
        }
        w.write_str("{\"key\":")?;
        json_string(w, key)?;
        w.write_str(",\"value\":{\"stringValue\":")?;
        json_string(w, value)?;
        w.write_str("}}")?;
    }
    w.write_char(']')
}

/// A finite double as a JSON number (`5.0`, `1e-7`); non-finite ones as the strings the
/// protobuf JSON mapping uses (`"NaN"`, `"Infinity"`, `"-Infinity"`).
fn json_f64(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_nan() {
        w.write_str("\"NaN\"")
    } else if v.is_infinite() {
        w.write_str(if v > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        })
    } else {
        write!(w, "{v:?}")
    }
}

/// A JSON string: quote, backslash and control characters escaped.
fn json_string(w: &mut dyn Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            '\n' => w.write_str("\\n")?,
            '\r' => w.write_str("\\r")?,
            '\t' => w.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => w.write_char(c)?,
        }
    }
    w.write_char('"')
}
