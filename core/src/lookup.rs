//! Queries by value, the inverse of percentiles: how many values lie at or below a value
//! (its rank, or quantile), how many lie between two values, and the bucket any value
//! shares (its lowest, highest and median equivalent values).

use crate::counter::Counter;
use crate::layout::Layout;
use crate::percentile::{quantile_of_rank, QueryError};
use crate::view::{Counts, View};

impl<C: Counter, S: Counts<C> + ?Sized> View<'_, C, S> {
    /// The number of values in the range at or below `v`: the buckets below `v`'s count
    /// fully; `v`'s own bucket counts in part, as if its values were spread evenly over
    /// it: `count · (v − lower + 1) / width` (all of it at its highest value, which makes
    /// the answer exact for the width-1 buckets below twice the block size). Values
    /// outside the range (underflow, overflow) are not counted, as in percentiles.
    pub fn rank_of(&self, v: u64) -> f64 {
        let shape = self.shape();
        let len = self.counts.len();
        // Below the first bucket the offset wraps to a huge number, as above the last.
        let o = shape.offset(v);
        let (full, partial) = if o < len {
            (o, Some(o))
        } else if v < shape.range().0 {
            (0, None)
        } else {
            (len, None)
        };
        let mut rank = self.counts.sum(0, full) as f64;
        if let Some(o) = partial {
            let b = shape.bucket(o);
            let count = self.counts.get(o).to_u64() as f64;
            rank += count * ((v - b.lower) as f64 + 1.0) / b.width() as f64;
        }
        rank
    }

    /// The fraction of the values in the range at or below `v` ([`View::rank_of`] over
    /// the total), in `[0, 1]`. `Err(Empty)` when the range holds no value.
    pub fn quantile_of(&self, v: u64) -> Result<f64, QueryError> {
        quantile_of_rank(self.total_wide(), || Ok(self.rank_of(v)))
    }

    /// The count of every bucket that holds a value in `lo..=hi` (whole buckets, as
    /// HdrHistogram's `getCountBetweenValues`: exact when `lo` and `hi` are bucket bounds,
    /// and for the width-1 buckets). Values outside the range are not counted.
    /// `Err(InvalidValue)` when `lo > hi`.
    pub fn count_between(&self, lo: u64, hi: u64) -> Result<u64, QueryError> {
        if lo > hi {
            return Err(QueryError::InvalidValue(hi as f64));
        }
        let shape = self.shape();
        let len = self.counts.len();
        let (min, max) = shape.range();
        if hi < min || lo > max {
            return Ok(0);
        }
        let first = shape.offset(lo.max(min)).min(len - 1);
        let last = shape.offset(hi.min(max)).min(len - 1);
        Ok(crate::view::saturate(self.counts.sum(first, last + 1)))
    }
}

impl Layout {
    /// The smallest value of the bucket holding `v` (HdrHistogram's
    /// `lowestEquivalentValue`).
    pub const fn lowest_equivalent(&self, v: u64) -> u64 {
        self.bucket_of(v).lower
    }

    /// The largest value of the bucket holding `v` (`highestEquivalentValue`).
    pub const fn highest_equivalent(&self, v: u64) -> u64 {
        self.bucket_of(v).highest
    }

    /// The midpoint of the bucket holding `v` (`medianEquivalentValue`): the value a
    /// histogram reports for it by default.
    pub const fn median_equivalent(&self, v: u64) -> u64 {
        self.bucket_of(v).midpoint()
    }

    /// The first value of the next bucket (`nextNonEquivalentValue`), `None` past the
    /// last one.
    pub const fn next_non_equivalent(&self, v: u64) -> Option<u64> {
        self.bucket_of(v).highest.checked_add(1)
    }

    /// How many values share `v`'s bucket (`sizeOfEquivalentValueRange`): a power of two.
    pub const fn equivalent_range_size(&self, v: u64) -> u64 {
        self.bucket_of(v).width()
    }

    /// Whether `a` and `b` share a bucket (`valuesAreEquivalent`).
    pub const fn equivalent(&self, a: u64, b: u64) -> bool {
        self.index(a) == self.index(b)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use crate::Config;

    /// The `values` the histogram of range 100 ..= 1,000,000 counts in its buckets: those in
    /// range and those in the buckets of its bounds.
    fn in_range(values: &[u64], layout: &crate::Layout) -> alloc::vec::Vec<u64> {
        let kept = |v: u64| {
            (100..=1_000_000).contains(&v)
                || layout.equivalent(v, 100)
                || layout.equivalent(v, 1_000_000)
        };
        values.iter().copied().filter(|&v| kept(v)).collect()
    }

    #[test]
    fn ranks_and_counts_match_exact_counts_to_bucket_resolution() {
        let config = Config::new()
            .with_relative_error(0.01)
            .with_range(100, 1_000_000);
        let mut h = config.build::<u64>().unwrap();
        let values: alloc::vec::Vec<u64> = (0..5_000u64).map(|i| (i * i) % 2_000_000).collect();
        for &v in &values {
            h.record(v);
        }
        let view = h.view();
        let layout = config.layout();
        let in_range = in_range(&values, &layout);
        let at_or_below = |x: u64| in_range.iter().filter(|&&v| v <= x).count() as f64;
        for x in [0, 99, 100, 150, 1_000, 65_537, 999_999, 1_000_000, u64::MAX] {
            let r = view.rank_of(x);
            let outside = x < 100 || (x > 1_000_000 && !layout.equivalent(x, 1_000_000));
            let (lo, hi) = if outside {
                (at_or_below(x), at_or_below(x))
            } else {
                let b = layout.bucket_of(x);
                (
                    at_or_below(b.lower.saturating_sub(1)),
                    at_or_below(b.highest),
                )
            };
            assert!(
                lo <= r + 1e-9 && r <= hi + 1e-9,
                "x {x}: {r} not in [{lo}, {hi}]"
            );
        }
        // Exact in the width-1 buckets (below twice the block size).
        assert_eq!(view.rank_of(110), at_or_below(110));
        assert_eq!(view.quantile_of(u64::MAX), Ok(1.0));
        assert!(view.count_between(5, 4).is_err());
        // Whole buckets between bounds.
        let b = layout.bucket_of(200_000);
        let exact = in_range
            .iter()
            .filter(|&&v| (b.lower..=b.highest).contains(&v))
            .count();
        assert_eq!(view.count_between(b.lower, b.highest), Ok(exact as u64));
        assert_eq!(view.count_between(0, u64::MAX), Ok(view.total_count()));
        assert_eq!(view.count_between(2_000_000, 3_000_000), Ok(0));
        let empty = config.build::<u32>().unwrap();
        assert!(empty.view().quantile_of(5).is_err());
    }

    #[test]
    fn equivalent_values_are_the_bucket_bounds() {
        let layout = crate::Layout::clamped(0.01);
        for v in [
            0,
            1,
            127,
            128,
            129,
            1_000,
            123_456_789,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let b = layout.bucket_of(v);
            assert_eq!(layout.lowest_equivalent(v), b.lower);
            assert_eq!(layout.highest_equivalent(v), b.highest);
            assert_eq!(layout.median_equivalent(v), b.midpoint());
            assert_eq!(layout.equivalent_range_size(v), b.width());
            assert!(layout.equivalent(v, b.lower) && layout.equivalent(v, b.highest));
            match layout.next_non_equivalent(v) {
                Some(n) => {
                    assert_eq!(n, b.highest + 1);
                    assert!(!layout.equivalent(v, n));
                }
                None => assert_eq!(b.highest, u64::MAX),
            }
        }
    }
}
