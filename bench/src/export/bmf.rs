//! Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`, one
//! measure per metric at its median, its 99 % interval as the lower and upper values. Time
//! is Bencher's built-in `latency` measure (nanoseconds); every other metric a measure of
//! its own, by slug (`hardware-instructions`), which Bencher creates where it is new.

use core::fmt::{self, Write};

use picollo::text::{comma_separated, json_f64, json_string};

use super::{median_with_interval, Export, Suite};
use crate::measure::result::BenchResult;

/// Bencher's JSON (`bmf`).
pub struct Bencher;

/// The longest measure slug Bencher takes.
const SLUG_LIMIT: usize = 64;

/// The measure a metric is written as: `latency` for the time, else its name in lower case
/// with each run of other characters than letters and digits as one `-`.
pub fn measure_slug(r: &BenchResult, index: usize) -> std::string::String {
    if index == r.time_index() {
        return "latency".into();
    }
    let name = r.metrics[index].metric.name.to_lowercase();
    let words = name.split(|c: char| !c.is_ascii_alphanumeric());
    let slug: std::vec::Vec<&str> = words.filter(|w| !w.is_empty()).collect();
    slug.join("-").chars().take(SLUG_LIMIT).collect()
}

/// `{"value": v, "lower_value": lo, "upper_value": hi}` of metric `index` (no interval: the
/// value alone).
fn write_measure(w: &mut dyn Write, r: &BenchResult, index: usize) -> fmt::Result {
    let (value, interval) = median_with_interval(r, index);
    w.write_str("{\"value\":")?;
    json_f64(w, value)?;
    if let Some((lo, hi)) = interval {
        w.write_str(",\"lower_value\":")?;
        json_f64(w, lo)?;
        w.write_str(",\"upper_value\":")?;
        json_f64(w, hi)?;
    }
    w.write_str("}")
}

impl Export for Bencher {
    fn name(&self) -> &'static str {
        "bmf"
    }

    fn title(&self) -> &'static str {
        "Bencher Metric Format (JSON)"
    }

    fn write(&self, suite: &Suite<'_>, w: &mut dyn Write) -> fmt::Result {
        w.write_str("{")?;
        comma_separated(w, suite.measured(), |w, (name, r)| {
            json_string(w, &name)?;
            w.write_str(":{")?;
            comma_separated(w, 0..r.metrics.len(), |w, i| {
                json_string(w, &measure_slug(r, i))?;
                w.write_str(":")?;
                write_measure(w, r, i)
            })?;
            w.write_str("}")
        })?;
        w.write_str("}\n")
    }
}
