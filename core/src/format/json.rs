//! The summary as a JSON object.

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
        for (k, p) in self.percentiles.iter().enumerate() {
            if k > 0 {
                w.write_char(',')?;
            }
            w.write_str("{\"rank\":")?;
            json_f64(w, p.rank)?;
            write!(
                w,
                ",\"value\":{},\"plusMinus\":{},\"lower\":{},\"upper\":{},\"count\":{},\
                 \"cumulativeCount\":{},\"rankCount\":{}}}",
                p.value, p.plus_minus, p.lower, p.upper, p.count, p.cumulative_count, p.rank_count
            )?;
        }
        w.write_str("]}")
    }
}

fn json_f64(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_finite() {
        // `{}` on f64 never uses an exponent and round-trips: valid JSON.
        write!(w, "{v}")
    } else {
        w.write_str("null")
    }
}
