//! OTLP/JSON: the protobuf JSON mapping of an OTLP request.

use core::fmt::{self, Write};

use super::{Attribute, DataPoint, Metric, Request};
use crate::format::json::{comma_separated, json_string};

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
        comma_separated(w, self.metrics, json_metric)?;
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
    comma_separated(w, m.points, json_point)?;
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
    comma_separated(w, &h.bucket_counts, |w, c| write!(w, "\"{c}\""))?;
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
    comma_separated(w, attributes, |w, (key, value)| {
        w.write_str("{\"key\":")?;
        json_string(w, key)?;
        w.write_str(",\"value\":{\"stringValue\":")?;
        json_string(w, value)?;
        w.write_str("}}")
    })?;
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
