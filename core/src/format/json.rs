//! The summary as a JSON object, and the pieces every JSON writer of the crate uses.

use core::fmt::{self, Write};

use crate::summary::Summary;

impl Summary {
    /// The summary as a JSON object (no trailing newline). Fields: `minTrackableValue`,
    /// `maxTrackableValue`, `totalCount`, `underflowCount`, `overflowCount`,
    /// `saturatedCount`, `mean`, `stDev` (null when empty), `precision`, and `percentiles`:
    /// objects with `rank`, `value`, `plusMinus`, `lower`, `upper` (exclusive, saturating),
    /// `count`, `cumulativeCount`, `rankCount`.
    pub fn write_json(&self, w: &mut dyn Write) -> fmt::Result {
        write!(
            w,
            "{{\"minTrackableValue\":{},\"maxTrackableValue\":{},\"totalCount\":{},\
             \"underflowCount\":{},\"overflowCount\":{},\"saturatedCount\":{},\"mean\":",
            self.min_trackable,
            self.max_trackable,
            self.total,
            self.underflow,
            self.overflow,
            self.saturated
        )?;
        json_f64(w, self.mean)?;
        w.write_str(",\"stDev\":")?;
        json_f64(w, self.stdev)?;
        w.write_str(",\"precision\":")?;
        json_f64(w, self.precision)?;
        w.write_str(",\"percentiles\":[")?;
        comma_separated(w, &self.percentiles, |w, p| {
            w.write_str("{\"rank\":")?;
            json_f64(w, p.rank)?;
            write!(
                w,
                ",\"value\":{},\"plusMinus\":{},\"lower\":{},\"upper\":{},\"count\":{},\
             \"cumulativeCount\":{},\"rankCount\":{}}}",
                p.value, p.plus_minus, p.lower, p.upper, p.count, p.cumulative_count, p.rank_count
            )
        })?;
        w.write_str("]}")
    }
}

/// A finite double as a JSON number that reads back as a double, not an integer: always a
/// fraction or an exponent (`5.0`, `1e300`, `1.5e-7`), the shortest digits that round-trip.
/// Non-finite values have no JSON form and are written as `null`.
fn json_f64(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_finite() {
        // Rust's `Debug` for f64 is the shortest round-trip form; it keeps `.0` on whole
        // numbers and switches to an exponent for very large or small magnitudes, and it
        // never writes anything JSON's number grammar rejects for finite input.
        write!(w, "{v:?}")
    } else {
        w.write_str("null")
    }
}

/// The items, each written by `write_item`, separated by commas.
pub(crate) fn comma_separated<T>(
    w: &mut dyn Write,
    items: impl IntoIterator<Item = T>,
    mut write_item: impl FnMut(&mut dyn Write, T) -> fmt::Result,
) -> fmt::Result {
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            w.write_char(',')?;
        }
        write_item(w, item)?;
    }
    Ok(())
}

/// A JSON string: quote, backslash and control characters escaped.
#[cfg(feature = "alloc")] // OTLP/JSON and the bench report
pub(crate) fn json_string(w: &mut dyn Write, s: &str) -> fmt::Result {
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
