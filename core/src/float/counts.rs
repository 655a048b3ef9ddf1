//! `FloatCounts`: one consistent copy of a floating-point histogram's non-empty buckets,
//! and every query: quantiles, ranks of values, counts between values, equivalent values,
//! moments, summaries. Snapshots (with deltas) are copies too.

use alloc::vec::Vec;

use super::config::FloatShape;
use super::histogram::{FloatHistogram, NAN, NEG_INF, OVER, POS_INF, SAT, SPECIALS, UNDER, ZERO};
use super::layout::FloatBucket;
use super::sum::{WideSum, DOWN};
use crate::concurrent::AtomicCounter;
use crate::config::ValueSelection;
use crate::merge::MergeError;
use crate::oom::OutOfMemory;
use crate::percentile::{check_ranks, quantile_of_rank, rank_to_count, single, QueryError};
use crate::summary::STANDARD_RANKS;

/// Which side of zero a bucket is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Negative values.
    Negative,
    /// The zero bucket (`±0.0`).
    Zero,
    /// Positive values.
    Positive,
}

/// One non-empty bucket of a [`FloatCounts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatBucketCount {
    /// Its side.
    pub side: Side,
    /// Its index in the layout (0 for the zero bucket).
    pub index: usize,
    /// The smallest value it holds (signed: `−highest magnitude` for a negative bucket).
    pub lowest: f64,
    /// The largest value it holds.
    pub highest: f64,
    /// The value it reports (the midpoint by default; 0 for the zero bucket).
    pub value: f64,
    /// Its count.
    pub count: u64,
}

/// A percentile of a floating-point histogram: the value at a rank and its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FloatPercentile {
    /// The rank asked for, in percent.
    pub rank: f64,
    /// The reported value (per the value selection).
    pub value: f64,
    /// The largest distance from `value` to a value of its bucket.
    pub plus_minus: f64,
    /// The smallest value of the bucket.
    pub lowest: f64,
    /// The largest value of the bucket.
    pub highest: f64,
    /// The bucket's count.
    pub count: u64,
    /// Values up to and including this bucket.
    pub cumulative_count: u64,
    /// The count the rank points at: `max(1, ceil(rank/100 · total))`.
    pub rank_count: u64,
    /// The bucket's side of zero.
    pub side: Option<Side>,
}

/// A consistent copy of a [`FloatHistogram`]'s counts (its non-empty buckets in value
/// order, the counts beside them, the sum and extremes), with every query. Made by
/// [`FloatHistogram::counts`]; a snapshot that [`FloatCounts::delta`] can subtract.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatCounts {
    shape: FloatShape,
    selection: ValueSelection,
    /// Non-empty buckets, ascending by value: (side, storage offset, count); the zero
    /// bucket has offset 0.
    buckets: Vec<(Side, usize, u64)>,
    specials: [u64; SPECIALS],
    sum: WideSum,
    min: f64,
    max: f64,
    resets: u64,
}

impl<C: AtomicCounter> FloatHistogram<C> {
    /// One consistent copy of the counts: the non-empty buckets only, so its size follows
    /// the data. [`OutOfMemory`] if it cannot be allocated.
    pub fn counts(&self) -> Result<FloatCounts, OutOfMemory> {
        let selection = self.value_selection();
        let mut buckets = Vec::new();
        let copy = self.read(|h| {
            let ok = h.copy_buckets(&mut buckets);
            let specials: [u64; SPECIALS] = core::array::from_fn(|k| u64::load(&h.specials[k]));
            let s = &h.stats;
            let (sum, min, max) = (
                h.wide_sum(),
                f64::from_bits(u64::load(&s.min)),
                f64::from_bits(u64::load(&s.max)),
            );
            let resets = u64::from(h.version.read_begin() / 2);
            Some(ok.then_some((specials, sum, min, max, resets)))
        });
        let Some((specials, sum, min, max, resets)) = copy else {
            return Err(OutOfMemory {
                bytes: (buckets.len() + 1) * core::mem::size_of::<(Side, usize, u64)>(),
            });
        };
        Ok(FloatCounts {
            shape: self.shape,
            selection,
            buckets,
            specials,
            sum,
            min,
            max,
            resets,
        })
    }
}

impl<C: AtomicCounter> FloatHistogram<C> {
    /// Copy the non-empty buckets into `buckets` (cleared first), ascending by value;
    /// false when one could not be stored.
    fn copy_buckets(&self, buckets: &mut Vec<(Side, usize, u64)>) -> bool {
        buckets.clear();
        let mut ok = true;
        let mut push = |b: &mut Vec<(Side, usize, u64)>, item| {
            if b.try_reserve(1).is_err() {
                ok = false;
            } else {
                b.push(item);
            }
        };
        self.neg.for_each_run_rev(|start, run| {
            for (k, c) in run.iter().enumerate().rev() {
                let n = C::load(c).to_u64();
                if n != 0 {
                    push(buckets, (Side::Negative, start + k, n));
                }
            }
        });
        let zero = u64::load(&self.specials[ZERO]);
        if zero != 0 {
            push(buckets, (Side::Zero, 0, zero));
        }
        self.pos.for_each_run(|start, run| {
            for (k, c) in run.iter().enumerate() {
                let n = C::load(c).to_u64();
                if n != 0 {
                    push(buckets, (Side::Positive, start + k, n));
                }
            }
        });
        ok
    }
}

impl FloatCounts {
    /// The shape of the histogram copied.
    pub fn shape(&self) -> FloatShape {
        self.shape
    }

    /// The value selection the queries use.
    pub fn value_selection(&self) -> ValueSelection {
        self.selection
    }

    /// The same counts, reporting values with `selection`.
    pub fn with_value_selection(mut self, selection: ValueSelection) -> Self {
        self.selection = selection;
        self
    }

    /// Values in buckets (the zero bucket included): what quantiles cover. Saturates at
    /// `u64::MAX`.
    pub fn total_count(&self) -> u64 {
        u64::try_from(self.total_wide()).unwrap_or(u64::MAX)
    }

    fn total_wide(&self) -> u128 {
        self.buckets.iter().map(|b| b.2 as u128).sum()
    }

    /// `±0.0` values.
    pub fn zero_count(&self) -> u64 {
        self.specials[ZERO]
    }
    /// NaN values (never in quantiles).
    pub fn nan_count(&self) -> u64 {
        self.specials[NAN]
    }
    /// `+∞` values (never in quantiles).
    pub fn positive_infinity_count(&self) -> u64 {
        self.specials[POS_INF]
    }
    /// `−∞` values (never in quantiles).
    pub fn negative_infinity_count(&self) -> u64 {
        self.specials[NEG_INF]
    }
    /// Nonzero finite values whose magnitude is below the range.
    pub fn underflow_count(&self) -> u64 {
        self.specials[UNDER]
    }
    /// Finite values whose magnitude is above the range.
    pub fn overflow_count(&self) -> u64 {
        self.specials[OVER]
    }
    /// Records that found their bucket full (or their sparse block unallocatable).
    pub fn saturated_count(&self) -> u64 {
        self.specials[SAT]
    }

    /// Completed resets of the source when copied (wrapping).
    pub fn reset_count(&self) -> u64 {
        self.resets
    }

    /// The sum of the values in buckets (see [`FloatHistogram`] for its precision); 0 when
    /// empty; `±∞` only when the true sum's magnitude is beyond `f64::MAX`.
    pub fn sum(&self) -> f64 {
        self.sum.value()
    }

    /// The sum with its part beyond a double's range.
    pub(crate) fn wide_sum(&self) -> WideSum {
        self.sum
    }

    /// The smallest value in buckets, exactly as recorded; `None` when empty (or for a
    /// delta, which cannot know it).
    pub fn min(&self) -> Option<f64> {
        self.min.is_finite().then_some(self.min)
    }

    /// The largest value in buckets, exactly as recorded; `None` when empty or for a delta.
    pub fn max(&self) -> Option<f64> {
        self.max.is_finite().then_some(self.max)
    }

    /// The sum over the count (NaN when empty).
    pub fn mean(&self) -> f64 {
        self.sum.mean(self.total_wide())
    }

    /// Population standard deviation over bucket midpoints around [`FloatCounts::mean`]
    /// (NaN when empty).
    pub fn stdev(&self) -> f64 {
        let n = self.total_wide();
        if n == 0 {
            return f64::NAN;
        }
        // Squared deviations overflow for magnitudes near f64::MAX and vanish for tiny
        // ones: every deviation is scaled by the power of two 2^-e that brings the largest
        // (at the ends) near 1, in two exact halves `s1 · s2` so that each stays a normal
        // double (`e` ranges over -1074..=1024).
        let mean = self.mean();
        let largest = [self.iter().next(), self.iter().last()]
            .iter()
            .flatten()
            .map(|b| (b.value_at(ValueSelection::Midpoint) - mean).abs())
            .fold(0.0, f64::max);
        if largest == 0.0 {
            return 0.0;
        }
        let e = if largest.is_finite() {
            exponent(largest)
        } else {
            1024
        };
        let (k1, k2) = (-e / 2, -e - (-e / 2));
        let (s1, s2) = (pow2(k1), pow2(k2));
        let mut sq = 0.0;
        let mut compensation = 0.0;
        for b in self.iter() {
            let d = (b.value_at(ValueSelection::Midpoint) * s1 - mean * s1) * s2;
            let term = b.count as f64 * d * d;
            let t = sq + term;
            compensation += if sq >= term {
                (sq - t) + term
            } else {
                (term - t) + sq
            };
            sq = t;
        }
        crate::fmath::sqrt((sq + compensation) / n as f64) * pow2(-k1) * pow2(-k2)
    }

    /// The non-empty buckets, ascending by value.
    pub fn buckets(&self) -> impl Iterator<Item = FloatBucketCount> + '_ {
        let selection = self.selection;
        self.iter().map(move |b| FloatBucketCount {
            side: b.side,
            index: b.index(&self.shape),
            lowest: b.lowest,
            highest: b.highest,
            value: b.value_at(selection),
            count: b.count,
        })
    }

    fn iter(&self) -> impl Iterator<Item = Signed> + '_ {
        self.buckets
            .iter()
            .map(|&(side, offset, count)| Signed::of(&self.shape, side, offset, count))
    }

    /// The percentile at `rank` (percent, `0..=100`).
    pub fn percentile(&self, rank: f64) -> Result<FloatPercentile, QueryError> {
        single(rank, |ranks, out| self.percentiles(ranks, out))
    }

    /// The value at `rank`.
    pub fn percentile_value(&self, rank: f64) -> Result<f64, QueryError> {
        self.percentile(rank).map(|p| p.value)
    }

    /// The value at a quantile (`0..=1`).
    pub fn quantile(&self, q: f64) -> Result<f64, QueryError> {
        self.percentile_value(q * 100.0)
    }

    /// Many percentiles in one walk: strictly increasing ranks in `[0, 100]`, `out` as
    /// long as `ranks`.
    pub fn percentiles(
        &self,
        ranks: &[f64],
        out: &mut [FloatPercentile],
    ) -> Result<(), QueryError> {
        check_ranks(ranks, out.len())?;
        if ranks.is_empty() {
            return Ok(());
        }
        let total = self.total_wide();
        if total == 0 {
            return Err(QueryError::Empty);
        }
        let mut buckets = self.iter();
        let mut current: Option<Signed> = None;
        let mut cumulative = 0u128;
        for (k, &rank) in ranks.iter().enumerate() {
            let target = rank_to_count(rank, total);
            while cumulative < target {
                match buckets.next() {
                    Some(b) => {
                        cumulative += b.count as u128;
                        current = Some(b);
                    }
                    None => break,
                }
            }
            let Some(b) = current else {
                return Err(QueryError::Empty);
            };
            let before = cumulative - b.count as u128;
            let value = b.selected(self.selection, target.saturating_sub(before));
            out[k] = FloatPercentile {
                rank,
                value,
                plus_minus: (value - b.lowest).max(b.highest - value),
                lowest: b.lowest,
                highest: b.highest,
                count: b.count,
                cumulative_count: u64::try_from(cumulative).unwrap_or(u64::MAX),
                rank_count: u64::try_from(target).unwrap_or(u64::MAX),
                side: Some(b.side),
            };
        }
        Ok(())
    }

    /// The number of values in buckets at or below `x`, counting the bucket that holds
    /// `x` in part: values are taken as spread evenly over the part of their bucket's
    /// interval that lies within the exact extremes (`[max(lowest, min), min(highest,
    /// max)]`: no value lies outside them), so it adds `count · (x − lo) / (hi − lo)` for
    /// that bucket over that part `[lo, hi]`, all of it from `hi` on (for a part of one
    /// value, all of it at that value). Whole buckets below count fully; `x` at or above
    /// the largest value gives every value. Without extremes (a delta) the part is the
    /// whole bucket. `x` may be any number but NaN (`QueryError::InvalidValue`).
    pub fn rank_of(&self, x: f64) -> Result<f64, QueryError> {
        if x.is_nan() {
            return Err(QueryError::InvalidValue(x));
        }
        let (min, max) = (
            self.min().unwrap_or(f64::NEG_INFINITY),
            self.max().unwrap_or(f64::INFINITY),
        );
        let mut rank = 0.0;
        for b in self.iter() {
            let (lo, hi) = (b.lowest.max(min), b.highest.min(max));
            if hi <= x {
                rank += b.count as f64;
            } else if lo <= x {
                // lo <= x < hi: the part holds more than one value.
                let share = (x - lo) / (hi - lo);
                rank += b.count as f64 * share.clamp(0.0, 1.0);
            } else {
                break;
            }
        }
        Ok(rank)
    }

    /// The fraction of the values in buckets at or below `x` ([`FloatCounts::rank_of`]
    /// over the total), in `[0, 1]`; `Err(Empty)` when empty.
    pub fn quantile_of(&self, x: f64) -> Result<f64, QueryError> {
        quantile_of_rank(self.total_wide(), || self.rank_of(x))
    }

    /// The count of every bucket that holds a value in `[lo, hi]` (whole buckets, as
    /// HdrHistogram counts between values: exact when `lo` and `hi` are bucket bounds).
    /// `Err(InvalidRank)` for NaN bounds or `lo > hi`.
    pub fn count_between(&self, lo: f64, hi: f64) -> Result<u64, QueryError> {
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Err(QueryError::InvalidValue(if lo.is_nan() { lo } else { hi }));
        }
        let n: u128 = self
            .iter()
            .filter(|b| b.highest >= lo && b.lowest <= hi)
            .map(|b| b.count as u128)
            .sum();
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }

    /// The standard summary: 16 ranks, counts, sum, extremes, mean, stdev.
    pub fn summary(&self) -> super::FloatSummary {
        let mut percentiles = super::FloatSummary::default().percentiles;
        if self.total_wide() != 0 {
            let _ = self.percentiles(&STANDARD_RANKS, &mut percentiles);
        }
        super::FloatSummary {
            percentiles,
            total: self.total_count(),
            zero: self.zero_count(),
            nan: self.nan_count(),
            positive_infinity: self.positive_infinity_count(),
            negative_infinity: self.negative_infinity_count(),
            underflow: self.underflow_count(),
            overflow: self.overflow_count(),
            saturated: self.saturated_count(),
            sum: self.sum.value(),
            min: self.min().unwrap_or(f64::NAN),
            max: self.max().unwrap_or(f64::NAN),
            mean: self.mean(),
            stdev: self.stdev(),
            precision: self.shape.layout().relative_error(),
            min_magnitude: self.shape.range().0,
            max_magnitude: self.shape.range().1,
        }
    }

    /// What was recorded between `earlier` (an older copy of the same histogram) and this
    /// copy: counts bucket by bucket, the counts beside them and the sum. The sum is the
    /// difference of the two running sums, unless the earlier values so outweigh the
    /// interval's that the difference could be off by more than the relative error `E`
    /// (their magnitudes about `E/ε` ≈ 4.5·10^12 times the interval's at 0.1 %, `ε` the
    /// double's rounding unit): then it is the sum of the interval's bucket midpoints,
    /// within `E` of the true one. A reset between
    /// the two gives this copy's counts (the earlier ones are gone). The extremes of an
    /// interval are not known: the delta has none. `Err(LayoutMismatch)` for copies of
    /// different layouts; `Err(WouldGoNegative)` when `earlier` has more somewhere.
    pub fn delta(&self, earlier: &FloatCounts) -> Result<FloatCounts, MergeError> {
        let (a, b) = (self.shape.layout(), earlier.shape.layout());
        if a != b || self.shape.first_index() != earlier.shape.first_index() {
            return Err(MergeError::LayoutMismatch {
                this: a.relative_error(),
                other: b.relative_error(),
            });
        }
        let mut out = self.clone();
        out.min = f64::NAN;
        out.max = f64::NAN;
        if self.resets != earlier.resets {
            return Ok(out);
        }
        out.buckets = self.bucket_deltas(earlier)?;
        for (k, o) in out.specials.iter_mut().enumerate() {
            *o = o
                .checked_sub(earlier.specials[k])
                .ok_or(MergeError::WouldGoNegative {
                    logical_index: None,
                })?;
        }
        out.sum = self.sum_delta(earlier, &out);
        Ok(out)
    }

    /// This copy's buckets less `earlier`'s, bucket by bucket (both ascending by value),
    /// keeping the non-empty ones; `Err(WouldGoNegative)` where `earlier` has more.
    fn bucket_deltas(&self, earlier: &FloatCounts) -> Result<Vec<(Side, usize, u64)>, MergeError> {
        let key = |&(side, offset, _): &(Side, usize, u64)| match side {
            Side::Negative => (0u8, usize::MAX - offset),
            Side::Zero => (1, 0),
            Side::Positive => (2, offset),
        };
        // A bucket of the earlier copy that this one no longer has, or fewer counts here.
        let negative = |logical_index| MergeError::WouldGoNegative { logical_index };
        let mut older = earlier.buckets.iter().peekable();
        let mut kept = Vec::new();
        kept.try_reserve(self.buckets.len())
            .map_err(|_| OutOfMemory {
                bytes: self.buckets.len() * core::mem::size_of::<(Side, usize, u64)>(),
            })?;
        for b in &self.buckets {
            let mut n = b.2;
            if let Some(o) = older.peek() {
                if key(o) < key(b) {
                    return Err(negative(None));
                }
                if key(o) == key(b) {
                    let logical = (self.shape.first_index() + b.1) as u64;
                    n = n.checked_sub(o.2).ok_or(negative(Some(logical)))?;
                    older.next();
                }
            }
            if n != 0 {
                kept.push((b.0, b.1, n));
            }
        }
        match older.next() {
            Some(_) => Err(negative(None)),
            None => Ok(kept),
        }
    }

    /// The sum of `out`, the delta of this copy and `earlier`: the difference of the two
    /// running sums, unless their rounding could be off by more than the relative error of
    /// what the interval's midpoints promise; then the sum of those midpoints.
    fn sum_delta(&self, earlier: &FloatCounts, out: &FloatCounts) -> WideSum {
        // The running sums' rounding, bounded through the magnitudes they have summed
        // (midpoints: within E of the values).
        let magnitude = |c: &FloatCounts| -> f64 {
            c.iter()
                .map(|b| b.count as f64 * (b.value_at(ValueSelection::Midpoint) * DOWN).abs())
                .sum()
        };
        let rounding = 2.0 * f64::EPSILON * (magnitude(self) + magnitude(earlier));
        let interval = magnitude(out);
        if rounding > self.shape.layout().relative_error() * interval {
            let parts = || {
                out.iter()
                    .map(|b| b.count as f64 * b.value_at(ValueSelection::Midpoint))
            };
            WideSum::of(parts, 0.0)
        } else {
            self.sum.minus(earlier.sum)
        }
    }
}

/// A bucket in value order, with its signed bounds.
#[derive(Clone, Copy)]
struct Signed {
    side: Side,
    offset: usize,
    count: u64,
    lowest: f64,
    highest: f64,
    magnitudes: FloatBucket,
}

impl Signed {
    fn of(shape: &FloatShape, side: Side, offset: usize, count: u64) -> Signed {
        let magnitudes = match side {
            Side::Zero => FloatBucket {
                lower: 0.0,
                upper: 0.0,
            },
            _ => shape.bucket(offset),
        };
        let (lowest, highest) = match side {
            Side::Negative => (-magnitudes.highest(), -magnitudes.lower),
            Side::Zero => (0.0, 0.0),
            Side::Positive => (magnitudes.lower, magnitudes.highest()),
        };
        Signed {
            side,
            offset,
            count,
            lowest,
            highest,
            magnitudes,
        }
    }

    fn index(&self, shape: &FloatShape) -> usize {
        match self.side {
            Side::Zero => 0,
            _ => shape.first_index() + self.offset,
        }
    }

    /// The value the bucket reports under `selection` for the `kth` of its values (what
    /// interpolation places; the others ignore it).
    fn selected(&self, selection: ValueSelection, kth: u128) -> f64 {
        match selection {
            ValueSelection::Interpolated => {
                // The k-th of the bucket's values at the centre of the k-th of `count`
                // equal slices of it.
                let kth = kth.clamp(1, self.count.max(1) as u128);
                let f = (2 * kth - 1) as f64 / (2 * self.count.max(1)) as f64;
                (self.lowest + f * (self.highest - self.lowest)).clamp(self.lowest, self.highest)
            }
            s => self.value_at(s),
        }
    }

    /// The value the bucket reports under `selection` (interpolation needs a rank: the
    /// midpoint stands in for it here).
    fn value_at(&self, selection: ValueSelection) -> f64 {
        match (self.side, selection) {
            (Side::Zero, _) => 0.0,
            (_, ValueSelection::Lower) => self.lowest,
            (_, ValueSelection::Upper) => self.highest,
            (Side::Negative, _) => -self.magnitudes.midpoint(),
            (Side::Positive, _) => self.magnitudes.midpoint(),
        }
    }
}

/// `2^k` for `k` in `-1022..=1023` (a normal double).
fn pow2(k: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `floor(log2 |x|)` of a finite nonzero `x`, subnormals included.
fn exponent(x: f64) -> i32 {
    let bits = x.to_bits() & !(1u64 << 63);
    match (bits >> 52) as i32 {
        0 => -1074 + (63 - bits.leading_zeros() as i32),
        biased => biased - 1023,
    }
}
