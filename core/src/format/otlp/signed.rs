//! A histogram of doubles re-binned into exponential buckets of both signs: what an
//! exponential-bucket export of a [`FloatCounts`] (Prometheus' native histograms) needs.

use alloc::vec::Vec;

use super::{add_count, check_scale, check_unit_ratio, index_of, scale_for, OptionError};
use crate::float::{FloatCounts, Side};

/// A run of consecutive exponential buckets: `counts[k]` is the count of bucket
/// `offset + k` (OTLP's indices: bucket `i` holds `(base^i, base^(i+1)]`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExponentialBuckets {
    /// Index of the first bucket of `counts`.
    pub offset: i32,
    /// Counts of the buckets `offset, offset + 1, …` (from the first non-empty one to the
    /// last; empty when there are none).
    pub counts: Vec<u64>,
}

impl ExponentialBuckets {
    /// Adds `n` to bucket `index`, growing the run either way.
    pub fn add(&mut self, index: i32, n: u64) {
        add_count(&mut self.offset, &mut self.counts, index, n);
    }

    /// Every count of the run.
    pub fn total(&self) -> u64 {
        self.counts.iter().fold(0u64, |t, &c| t.saturating_add(c))
    }
}

/// The counts of a histogram of doubles in exponential buckets: positive values by value,
/// negative ones by magnitude, and a zero bucket `[−zero_threshold, zero_threshold]`.
///
/// Each Picollo bucket goes whole into the exponential bucket that holds its midpoint
/// (divided by the unit ratio), as [`super::ExponentialHistogram`] re-bins integers, with the
/// same stated error. The zero bucket holds `±0`, the values whose magnitude is below the
/// range (underflow: their magnitude is below the threshold) and every bucket whose midpoint's
/// magnitude is at or below the threshold. Values above the range (overflow, of either sign),
/// NaN, the infinities and saturated counts have no bucket and are left out of every field.
#[derive(Clone, Debug, PartialEq)]
pub struct SignedExponentialHistogram {
    /// The scale: `base = 2^(2^-scale)`.
    pub scale: i32,
    /// The zero bucket's half-width, in exported units: above 0, at least the range's
    /// lowest magnitude.
    pub zero_threshold: f64,
    /// Count of the zero bucket.
    pub zero_count: u64,
    /// Positive values.
    pub positive: ExponentialBuckets,
    /// Negative values, by magnitude.
    pub negative: ExponentialBuckets,
    /// Every value counted: `zero_count` plus both runs.
    pub count: u64,
    /// Sum of the values in buckets (the histogram's exact sum), in exported units.
    pub sum: f64,
}

impl SignedExponentialHistogram {
    /// Re-bin `counts` at the scale [`scale_for`] picks for its layout's relative error;
    /// values are divided by `unit_ratio`; the zero threshold is at least `zero_threshold`.
    ///
    /// # Errors
    /// [`OptionError::UnitRatio`] unless `unit_ratio` is a finite number above 0.
    pub fn from_counts(
        counts: &FloatCounts,
        unit_ratio: f64,
        zero_threshold: f64,
    ) -> Result<Self, OptionError> {
        let scale = scale_for(counts.shape().layout().relative_error());
        Self::with_scale(counts, scale, unit_ratio, zero_threshold)
    }

    /// Re-bin `counts` at `scale`; values are divided by `unit_ratio`. The zero threshold is
    /// the larger of `zero_threshold` and the range's lowest magnitude (exported), and
    /// positive in any case.
    ///
    /// # Errors
    /// [`OptionError::Scale`] for a scale outside `MIN_SCALE..=MAX_SCALE`;
    /// [`OptionError::UnitRatio`] unless `unit_ratio` is a finite number above 0.
    pub fn with_scale(
        counts: &FloatCounts,
        scale: i32,
        unit_ratio: f64,
        zero_threshold: f64,
    ) -> Result<Self, OptionError> {
        let scale = check_scale(scale)?;
        let unit_ratio = check_unit_ratio(unit_ratio)?;
        let lowest = counts.shape().range().0 / unit_ratio;
        let mut out = SignedExponentialHistogram {
            scale,
            // The smallest positive double when both are 0 (a threshold of 0 would make an
            // empty export read as a classic histogram).
            zero_threshold: zero_threshold.max(lowest).max(f64::from_bits(1)),
            zero_count: 0,
            positive: ExponentialBuckets::default(),
            negative: ExponentialBuckets::default(),
            count: 0,
            sum: counts.sum() / unit_ratio,
        };
        out.add(counts.underflow_count(), Side::Zero, 0.0);
        for b in counts.buckets() {
            // Halves first: the midpoint of the largest buckets stays finite.
            let midpoint = (b.lowest / 2.0 + b.highest / 2.0) / unit_ratio;
            out.add(b.count, b.side, midpoint.abs());
        }
        Ok(out)
    }

    /// Counts `n` values on `side` at `magnitude` (exported units).
    fn add(&mut self, n: u64, side: Side, magnitude: f64) {
        if n == 0 {
            return;
        }
        self.count = self.count.saturating_add(n);
        if magnitude <= self.zero_threshold {
            self.zero_count = self.zero_count.saturating_add(n);
            return;
        }
        let run = match side {
            Side::Negative => &mut self.negative,
            _ => &mut self.positive,
        };
        run.add(index_of(magnitude, self.scale), n);
    }
}
