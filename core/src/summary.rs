//! The standard summary: 16 percentiles and the aggregates, fixed size, no allocation.

use core::fmt::{self, Write};

use crate::format::domain::{self, Domain};
use crate::format::table::{Table, Units};
use crate::percentile::Percentile;

/// The ranks of a summary. 92.5 and 97.5 mirror 25 and 75 inside the last 10 %, and give
/// the eye anchors when scanning a table's tail.
pub const STANDARD_RANKS: [f64; 16] = [
    0.0, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 92.5, 95.0, 97.5, 99.0, 99.9, 99.99, 99.999, 100.0,
];

/// A histogram summary, filled by [`crate::View::summary_into`] without allocating.
///
/// It renders as the Markdown table ([`Summary::write_table`], also `Display`), the diff
/// table against another summary ([`Summary::write_diff`]), a one-line log entry
/// ([`Summary::write_line`]) and JSON ([`Summary::write_json`]: `minTrackableValue`,
/// `maxTrackableValue`, `totalCount`, `underflowCount`, `overflowCount`, `saturatedCount`,
/// `mean`, `stDev`, `precision`, and percentiles with `lower` and `upper` as their bounds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// One percentile per entry of [`STANDARD_RANKS`].
    pub percentiles: [Percentile; 16],
    /// Count of values inside the range.
    pub total: u64,
    /// Count of values below the range.
    pub underflow: u64,
    /// Count of values above the range.
    pub overflow: u64,
    /// Counts dropped by full buckets (`record_n` on a saturated counter).
    pub saturated: u64,
    /// Mean over bucket midpoints (NaN when empty).
    pub mean: f64,
    /// Population standard deviation over bucket midpoints (NaN when empty).
    pub stdev: f64,
    /// The layout's relative error (0.0078125 for 0.7813 %).
    pub precision: f64,
    /// Smallest trackable value.
    pub min_trackable: u64,
    /// Largest trackable value.
    pub max_trackable: u64,
}

domain::summary_default!(
    Summary,
    Percentile,
    with {
        min_trackable: 0,
        max_trackable: u64::MAX,
    }
);

/// One percentile per standard rank, each made by `at_rank`.
pub(crate) fn ranked<P>(at_rank: impl Fn(f64) -> P) -> [P; 16] {
    core::array::from_fn(|k| at_rank(STANDARD_RANKS[k]))
}

/// The position of `rank` in [`STANDARD_RANKS`], `None` for any other rank.
pub(crate) fn standard_position(rank: f64) -> Option<usize> {
    STANDARD_RANKS.iter().position(|&r| r == rank)
}

/// Position of P50 in [`STANDARD_RANKS`].
pub(crate) const P50: usize = 5;
/// Position of P99 in [`STANDARD_RANKS`].
pub(crate) const P99: usize = 11;
/// Position of P99.9 in [`STANDARD_RANKS`].
pub(crate) const P999: usize = 12;
/// Position of P100 in [`STANDARD_RANKS`].
pub(crate) const P100: usize = 15;

domain::summary_methods!(Summary, Percentile);

impl Summary {
    /// The 99.9th percentile.
    pub fn p999(&self) -> &Percentile {
        &self.percentiles[P999]
    }

    /// The largest value (P100).
    pub fn max(&self) -> &Percentile {
        &self.percentiles[P100]
    }

    /// Sample variance (n − 1 in the denominator), from the population stdev.
    pub fn sample_variance(&self) -> Option<f64> {
        let n = self.total as f64;
        (n > 1.0 && self.stdev.is_finite()).then(|| self.stdev * self.stdev * n / (n - 1.0))
    }

    /// The Markdown table: a `##### title` line (omitted when `title` is empty), one row
    /// per standard rank (`| Percentile | Value | ± | Count |`, Count being the count the
    /// rank points at), Underflow/Overflow/Saturated rows when non-zero, then Mean/StDev,
    /// Precision/Total and Range Min/Max (omitted for the full `0..=u64::MAX` range).
    pub fn write_table(&self, w: &mut dyn Write, title: &str) -> fmt::Result {
        self.write_table_scaled(w, title, 1.0)
    }

    /// [`Summary::write_table`] with every value (percentiles, ±, mean, stdev, range) divided
    /// by `unit_ratio` (1000 shows nanoseconds as microseconds), with as many decimals as
    /// the ratio has digits (3 for 1000, so nothing recorded is lost; mean and stdev get 2
    /// more). A ratio of exactly 1 prints integers, as `write_table` does. Counts are not
    /// scaled. A ratio that is not finite and above 0 is refused with `fmt::Error`.
    pub fn write_table_scaled(
        &self,
        w: &mut dyn Write,
        title: &str,
        unit_ratio: f64,
    ) -> fmt::Result {
        crate::format::markdown::write_table(self, w, title, unit_ratio)
    }

    /// [`Summary::write_diff`] with every value divided by `unit_ratio`, as
    /// [`Summary::write_table_scaled`] divides them (Δ% and the D-value do not change). A
    /// ratio that is not finite and above 0 is refused with `fmt::Error`.
    pub fn write_diff_scaled(
        &self,
        other: &Summary,
        w: &mut dyn Write,
        title: &str,
        [name_a, name_b]: [&str; 2],
        unit_ratio: f64,
    ) -> fmt::Result {
        crate::format::diff::write_diff(self, other, w, title, [name_a, name_b], unit_ratio)
    }
}

/// Integer values print with thousands separators, or divided by a unit ratio.
impl Domain for Summary {
    type Value = u64;
    type Style = Units;

    fn style(_: &[&Self], unit_ratio: f64) -> Result<Units, fmt::Error> {
        Units::new(unit_ratio)
    }
    fn write_value(style: Units, w: &mut dyn Write, v: u64) -> fmt::Result {
        style.value(w, v)
    }
    fn write_plus_minus(style: Units, w: &mut dyn Write, v: u64) -> fmt::Result {
        style.value(w, v)
    }
    fn write_stat(style: Units, w: &mut dyn Write, x: f64) -> fmt::Result {
        style.stat(w, x)
    }
    fn as_f64(v: u64) -> f64 {
        v as f64
    }
    domain::common_fields!();
    fn outside(&self) -> impl Iterator<Item = (&'static str, &'static str, u64)> {
        [
            ("Underflow", "underflowCount", self.underflow),
            ("Overflow", "overflowCount", self.overflow),
            ("Saturated", "saturatedCount", self.saturated),
        ]
        .into_iter()
    }
    fn stats(&self) -> impl Iterator<Item = [(&'static str, f64); 2]> {
        [[("Mean:", self.mean), ("StDev:", self.stdev)]].into_iter()
    }
    /// Precision/Total, and the range unless it is the full `u64` one.
    fn table_tail(&self, t: &mut Table<'_>, style: Units) -> fmt::Result {
        crate::format::markdown::precision_total_row(t, self.precision, self.total)?;
        // The full u64 range says nothing (and its 26-digit maximum would widen the table).
        if self.min_trackable == 0 && self.max_trackable == u64::MAX {
            return Ok(());
        }
        t.row([
            &|c| c.write_str("Range Min:"),
            &|c| style.value(c, self.min_trackable),
            &|c| c.write_str("Max:"),
            &|c| style.value(c, self.max_trackable),
        ])
    }
    fn write_json_value(w: &mut dyn Write, v: u64) -> fmt::Result {
        write!(w, "{v}")
    }
    /// `minTrackableValue` and `maxTrackableValue`.
    fn json_range(&self) -> [(&'static str, u64); 2] {
        [
            ("minTrackableValue", self.min_trackable),
            ("maxTrackableValue", self.max_trackable),
        ]
    }
    fn json_counts(&self) -> impl Iterator<Item = (&'static str, u64)> {
        core::iter::empty()
    }
    fn json_stats(&self) -> impl Iterator<Item = (&'static str, f64)> {
        core::iter::empty()
    }
    /// `lower` and `upper` (exclusive, `u64::MAX` for the topmost bucket).
    fn json_bounds(&self, k: usize) -> [(&'static str, u64); 2] {
        let p = &self.percentiles[k];
        [("lower", p.lower), ("upper", p.upper)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(total: u64, mean: f64, stdev: f64) -> Summary {
        Summary {
            total,
            mean,
            stdev,
            ..Summary::default()
        }
    }

    #[test]
    fn cohens_d_uses_sample_variances() {
        // a = {1, 2, 3, 4, 5}: mean 3, σ² = 2, s² = 2.5
        // b = {3, 4, 5, 6, 7, 8, 9}: mean 6, σ² = 4, s² = 14/3
        // s_pooled = sqrt((4·2.5 + 6·14/3) / 10) = sqrt(3.8); d = 3 / sqrt(3.8)
        let a = with(5, 3.0, 2f64.sqrt());
        let b = with(7, 6.0, 2.0);
        let d = a.cohens_d(&b).unwrap();
        assert!((d - 3.0 / 3.8f64.sqrt()).abs() < 1e-12, "{d}");
        // Mixing in population variances (the reference's mistake) gives 3 / sqrt(3.2).
        assert!((d - 3.0 / 3.2f64.sqrt()).abs() > 0.05);
        assert!((b.cohens_d(&a).unwrap() + d).abs() < 1e-12);
    }

    #[test]
    fn cohens_d_is_undefined_rather_than_wrong_for_tiny_samples() {
        assert_eq!(with(1, 3.0, 0.0).cohens_d(&with(1, 5.0, 0.0)), None);
        assert_eq!(
            with(0, f64::NAN, f64::NAN).cohens_d(&with(5, 5.0, 1.0)),
            None
        );
        assert_eq!(with(3, 5.0, 0.0).cohens_d(&with(3, 5.0, 0.0)), None);
        // n = 1 on one side is fine when the other has spread.
        let d = with(1, 10.0, 0.0)
            .cohens_d(&with(3, 13.0, 2f64.sqrt()))
            .unwrap();
        // ss = 0 + 3·2 = 6 over 2 → pooled sqrt(3): d = 3 / sqrt(3)
        assert!((d - 3f64.sqrt()).abs() < 1e-12);
    }
}
