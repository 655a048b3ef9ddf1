//! The standard summary: 16 percentiles and the aggregates, fixed size, no allocation.

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
/// ([`Summary::write_line`]) and JSON ([`Summary::write_json`]).
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

impl Default for Summary {
    fn default() -> Self {
        let mut percentiles = [Percentile::default(); 16];
        for (p, &rank) in percentiles.iter_mut().zip(STANDARD_RANKS.iter()) {
            p.rank = rank;
        }
        Summary {
            percentiles,
            total: 0,
            underflow: 0,
            overflow: 0,
            saturated: 0,
            mean: f64::NAN,
            stdev: f64::NAN,
            precision: 0.0,
            min_trackable: 0,
            max_trackable: u64::MAX,
        }
    }
}

impl Summary {
    /// The percentile for one of the standard ranks (`None` for any other rank).
    pub fn get(&self, rank: f64) -> Option<&Percentile> {
        let k = STANDARD_RANKS.iter().position(|&r| r == rank)?;
        Some(&self.percentiles[k])
    }

    /// The median.
    pub fn p50(&self) -> &Percentile {
        &self.percentiles[5]
    }

    /// The 99th percentile.
    pub fn p99(&self) -> &Percentile {
        &self.percentiles[11]
    }

    /// The 99.9th percentile.
    pub fn p999(&self) -> &Percentile {
        &self.percentiles[12]
    }

    /// The largest value (P100).
    pub fn max(&self) -> &Percentile {
        &self.percentiles[15]
    }

    /// Sample variance (n − 1 in the denominator), from the population stdev.
    pub fn sample_variance(&self) -> Option<f64> {
        let n = self.total as f64;
        (n > 1.0 && self.stdev.is_finite()).then(|| self.stdev * self.stdev * n / (n - 1.0))
    }

    /// Cohen's d of `other` against `self`: `(mean_b − mean_a) / s_pooled`, with
    /// `s_pooled = sqrt(((n_a − 1)·s_a² + (n_b − 1)·s_b²) / (n_a + n_b − 2))` over *sample*
    /// variances. `None` when it is undefined: fewer than 3 values in all, an empty side, or
    /// no spread at all.
    pub fn cohens_d(&self, other: &Summary) -> Option<f64> {
        let (na, nb) = (self.total as f64, other.total as f64);
        if na < 1.0 || nb < 1.0 || na + nb < 3.0 {
            return None;
        }
        // (n − 1)·s² = n·σ² with the population σ; this also covers n = 1 (σ = 0).
        let ss_a = na * self.stdev * self.stdev;
        let ss_b = nb * other.stdev * other.stdev;
        let pooled = crate::fmath::sqrt((ss_a + ss_b) / (na + nb - 2.0));
        let d = (other.mean - self.mean) / pooled;
        (pooled > 0.0 && d.is_finite()).then_some(d)
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
