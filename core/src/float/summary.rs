//! The standard summary of a floating-point histogram.

use core::fmt::{self, Write};

use super::counts::FloatPercentile;
use crate::format::domain::{self, Domain};
use crate::format::numbers::{significant_digits, Grouped, Rank, Significant};
use crate::format::table::Table;

/// The standard summary of a [`super::FloatHistogram`]: 16 percentiles, the counts beside
/// the buckets, the exact sum and extremes, mean and stdev. Renders as a Markdown table
/// ([`FloatSummary::write_table`], also `Display`), a diff table
/// ([`FloatSummary::write_diff`]), a one-line summary ([`FloatSummary::write_line`]) and
/// JSON ([`FloatSummary::write_json`]: `minMagnitude`, `maxMagnitude`, `totalCount`,
/// `zeroCount`, `nanCount`, `positiveInfinityCount`, `negativeInfinityCount`,
/// `underflowCount`, `overflowCount`, `saturatedCount`, `sum`, `min`, `max`, `mean`,
/// `stDev`, `precision`, and percentiles with `lowest` and `highest` as their bounds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatSummary {
    /// One percentile per entry of [`crate::STANDARD_RANKS`].
    pub percentiles: [FloatPercentile; 16],
    /// Values in buckets (zero included): what the percentiles cover.
    pub total: u64,
    /// `±0.0` values (in `total`).
    pub zero: u64,
    /// NaN values.
    pub nan: u64,
    /// `+∞` values.
    pub positive_infinity: u64,
    /// `−∞` values.
    pub negative_infinity: u64,
    /// Nonzero values with a magnitude below the range.
    pub underflow: u64,
    /// Finite values with a magnitude above the range.
    pub overflow: u64,
    /// Records that found their bucket full.
    pub saturated: u64,
    /// Sum of the values in buckets.
    pub sum: f64,
    /// Smallest value in buckets, exact (NaN when empty).
    pub min: f64,
    /// Largest value in buckets, exact (NaN when empty).
    pub max: f64,
    /// `sum / total` (NaN when empty).
    pub mean: f64,
    /// Population standard deviation over bucket midpoints (NaN when empty).
    pub stdev: f64,
    /// The layout's relative error.
    pub precision: f64,
    /// Smallest magnitude kept in buckets, to bucket resolution.
    pub min_magnitude: f64,
    /// Largest magnitude kept in buckets, to bucket resolution.
    pub max_magnitude: f64,
}

domain::summary_default!(
    FloatSummary,
    FloatPercentile,
    with {
        zero: 0,
        nan: 0,
        positive_infinity: 0,
        negative_infinity: 0,
        sum: 0.0,
        min: f64::NAN,
        max: f64::NAN,
        min_magnitude: f64::from_bits(1),
        max_magnitude: f64::MAX,
    }
);

domain::summary_methods!(FloatSummary, FloatPercentile);

impl FloatSummary {
    /// The Markdown table: a `##### title` line (omitted when `title` is empty), a row per
    /// standard rank (`| Percentile | Value | ± | Count |`), rows for NaN, ±∞,
    /// underflow, overflow and saturated counts when not zero, then Mean/StDev, Min/Max
    /// (exact), Sum/Zero, Precision/Total.
    pub fn write_table(&self, w: &mut dyn Write, title: &str) -> fmt::Result {
        crate::format::markdown::write_table(self, w, title, 1.0)
    }

    /// One line: `name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…`,
    /// with NaN and ±∞ counts when not zero.
    pub fn write_line(&self, w: &mut dyn Write, name: &str) -> fmt::Result {
        let digits = significant_digits(self.precision);
        if !name.is_empty() {
            write!(w, "{name}: ")?;
        }
        write!(w, "Total={}", Grouped(self.total))?;
        if self.total == 0 {
            return Ok(());
        }
        write!(
            w,
            ", Mean={}, Min={}",
            Significant(self.mean, digits),
            Significant(self.min, digits)
        )?;
        for k in [5, 7, 11, 12] {
            let p = &self.percentiles[k];
            write!(w, ", P{}={}", Rank(p.rank), Significant(p.value, digits))?;
        }
        write!(w, ", Max={}", Significant(self.max, digits))?;
        for (label, _, n) in self.outside() {
            if n != 0 {
                write!(w, ", {label}={}", Grouped(n))?;
            }
        }
        Ok(())
    }
}

/// Doubles print to the significant digits the layout resolves (the finer layout's, in a
/// diff); a statistic a summary does not know (NaN) prints as `-`.
impl Domain for FloatSummary {
    type Value = f64;
    /// Significant digits of a value.
    type Style = usize;

    fn style(summaries: &[&Self], _unit_ratio: f64) -> Result<usize, fmt::Error> {
        let finest = summaries.iter().map(|s| s.precision).reduce(f64::min);
        Ok(significant_digits(finest.unwrap_or(f64::NAN)))
    }
    fn write_value(digits: usize, w: &mut dyn Write, v: f64) -> fmt::Result {
        write!(w, "{}", Significant(v, digits))
    }
    fn write_plus_minus(_: usize, w: &mut dyn Write, v: f64) -> fmt::Result {
        write!(w, "{}", Significant(v, 3))
    }
    fn write_stat(digits: usize, w: &mut dyn Write, x: f64) -> fmt::Result {
        match x.is_nan() {
            true => w.write_str("-"),
            false => write!(w, "{}", Significant(x, digits + 2)),
        }
    }
    fn as_f64(v: f64) -> f64 {
        v
    }
    domain::common_fields!();
    fn outside(&self) -> impl Iterator<Item = (&'static str, &'static str, u64)> {
        [
            ("NaN", "nanCount", self.nan),
            ("+Infinity", "positiveInfinityCount", self.positive_infinity),
            ("-Infinity", "negativeInfinityCount", self.negative_infinity),
            ("Underflow", "underflowCount", self.underflow),
            ("Overflow", "overflowCount", self.overflow),
            ("Saturated", "saturatedCount", self.saturated),
        ]
        .into_iter()
    }
    fn stats(&self) -> impl Iterator<Item = [(&'static str, f64); 2]> {
        [
            [("Mean:", self.mean), ("StDev:", self.stdev)],
            [("Min:", self.min), ("Max:", self.max)],
        ]
        .into_iter()
    }
    /// Sum/Zero, then Precision/Total.
    fn table_tail(&self, t: &mut Table<'_>, digits: usize) -> fmt::Result {
        t.row([
            &|c| c.write_str("Sum:"),
            &|c| write!(c, "{}", Significant(self.sum, digits + 2)),
            &|c| c.write_str("Zero:"),
            &|c| write!(c, "{}", Grouped(self.zero)),
        ])?;
        crate::format::markdown::precision_total_row(t, self.precision, self.total)
    }
    fn write_json_value(w: &mut dyn Write, v: f64) -> fmt::Result {
        crate::format::json::json_f64(w, v)
    }
    /// `minMagnitude` and `maxMagnitude`.
    fn json_range(&self) -> [(&'static str, f64); 2] {
        [
            ("minMagnitude", self.min_magnitude),
            ("maxMagnitude", self.max_magnitude),
        ]
    }
    /// `zeroCount`: the values in the zero bucket.
    fn json_counts(&self) -> impl Iterator<Item = (&'static str, u64)> {
        [("zeroCount", self.zero)].into_iter()
    }
    /// The exact `sum`, `min` and `max`.
    fn json_stats(&self) -> impl Iterator<Item = (&'static str, f64)> {
        [("sum", self.sum), ("min", self.min), ("max", self.max)].into_iter()
    }
    /// `lowest` and `highest`, signed.
    fn json_bounds(&self, k: usize) -> [(&'static str, f64); 2] {
        let p = &self.percentiles[k];
        [("lowest", p.lowest), ("highest", p.highest)]
    }
}
