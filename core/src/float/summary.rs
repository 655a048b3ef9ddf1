//! The standard summary of a floating-point histogram.

use super::counts::FloatPercentile;
use crate::summary::STANDARD_RANKS;

/// The standard summary of a [`super::FloatHistogram`]: 16 percentiles, the counts beside
/// the buckets, the exact sum and extremes, mean and stdev. Renders as a Markdown table
/// ([`FloatSummary::write_table`], also `Display`), a diff table
/// ([`FloatSummary::write_diff`]) and a one-line summary ([`FloatSummary::write_line`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatSummary {
    /// One percentile per entry of [`STANDARD_RANKS`].
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

impl Default for FloatSummary {
    fn default() -> Self {
        let mut percentiles = [FloatPercentile::default(); 16];
        for (p, &rank) in percentiles.iter_mut().zip(STANDARD_RANKS.iter()) {
            p.rank = rank;
        }
        FloatSummary {
            percentiles,
            total: 0,
            zero: 0,
            nan: 0,
            positive_infinity: 0,
            negative_infinity: 0,
            underflow: 0,
            overflow: 0,
            saturated: 0,
            sum: 0.0,
            min: f64::NAN,
            max: f64::NAN,
            mean: f64::NAN,
            stdev: f64::NAN,
            precision: 0.0,
            min_magnitude: f64::from_bits(1),
            max_magnitude: f64::MAX,
        }
    }
}

impl FloatSummary {
    /// The percentile for one of the standard ranks (`None` for any other rank).
    pub fn get(&self, rank: f64) -> Option<&FloatPercentile> {
        let k = STANDARD_RANKS.iter().position(|&r| r == rank)?;
        Some(&self.percentiles[k])
    }

    /// The median.
    pub fn p50(&self) -> &FloatPercentile {
        &self.percentiles[5]
    }

    /// The 99th percentile.
    pub fn p99(&self) -> &FloatPercentile {
        &self.percentiles[11]
    }

    /// Cohen's d of `other` against `self`, as [`crate::Summary::cohens_d`].
    pub fn cohens_d(&self, other: &FloatSummary) -> Option<f64> {
        let (na, nb) = (self.total as f64, other.total as f64);
        if na < 1.0 || nb < 1.0 || na + nb < 3.0 {
            return None;
        }
        let ss_a = na * self.stdev * self.stdev;
        let ss_b = nb * other.stdev * other.stdev;
        let pooled = crate::fmath::sqrt((ss_a + ss_b) / (na + nb - 2.0));
        let d = (other.mean - self.mean) / pooled;
        (pooled > 0.0 && d.is_finite()).then_some(d)
    }
}
