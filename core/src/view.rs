//! A read-only view of a histogram's counts, and every query on it.
//!
//! All histogram kinds hand out a `View` (the concurrent ones over a consistent copy), so
//! percentiles, statistics, summaries and reports are written once, here.

use crate::config::ValueSelection;
use crate::counter::Counter;
pub use crate::counter::Counts;
use crate::layout::{Bucket, Layout};
use crate::percentile::{check_ranks, rank_to_count, single, Percentile, QueryError};
use crate::scan::Scan;
use crate::shape::{Shape, OVER, SAT, UNDER};
use crate::summary::{Summary, STANDARD_RANKS};

/// A borrowed view of a histogram: its shape, counts and outside counts. Views of a
/// histogram or of a copy (`S = [C]`, the default) are consistent; a view of live cells
/// (`S = Cells`) reads each bucket when a query reaches it.
pub struct View<'a, C, S: ?Sized = [C]> {
    pub(crate) shape: Shape,
    pub(crate) counts: &'a S,
    /// Underflow, overflow and saturated counts (indexed by `UNDER`, `OVER`, `SAT`).
    pub(crate) outside: [u64; 3],
    pub(crate) resets: u64,
    pub(crate) _counter: core::marker::PhantomData<C>,
}

impl<C, S: ?Sized> Clone for View<'_, C, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C, S: ?Sized> Copy for View<'_, C, S> {}

impl<C, S: ?Sized> core::fmt::Debug for View<'_, C, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("View")
            .field("config", &self.shape.config())
            .field("outside", &self.outside)
            .field("resets", &self.resets)
            .finish_non_exhaustive()
    }
}

impl<'a, C: Counter> View<'a, C> {
    /// A view of `counts` (length `shape.len()`, which the caller guarantees).
    pub(crate) fn new(shape: Shape, counts: &'a [C], outside: [u64; 3], resets: u64) -> Self {
        Self::over(shape, counts, outside, resets)
    }

    /// The raw counters, one per storage bucket.
    pub fn counts(&self) -> &'a [C] {
        self.counts
    }
}

impl<'a, C: Counter, S: Counts<C> + ?Sized> View<'a, C, S> {
    /// A view of any count storage of length `shape.len()`.
    pub(crate) fn over(shape: Shape, counts: &'a S, outside: [u64; 3], resets: u64) -> Self {
        debug_assert_eq!(counts.len(), shape.len());
        View {
            shape,
            counts,
            outside,
            resets,
            _counter: core::marker::PhantomData,
        }
    }

    /// The count of storage bucket `storage_index`, `None` past the end.
    pub fn count(&self, storage_index: usize) -> Option<u64> {
        (storage_index < self.counts.len()).then(|| self.counts.get(storage_index).to_u64())
    }

    /// The checked shape: layout, range, storage length, value selection.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The bucket layout.
    pub fn layout(&self) -> Layout {
        self.shape.layout()
    }

    /// Logical index of storage bucket 0.
    pub fn first_index(&self) -> usize {
        self.shape.first_index()
    }

    /// The trackable range as configured.
    pub fn range(&self) -> (u64, u64) {
        self.shape.range()
    }

    /// Count of values below the range.
    pub fn underflow_count(&self) -> u64 {
        self.outside[UNDER]
    }

    /// Count of values above the range.
    pub fn overflow_count(&self) -> u64 {
        self.outside[OVER]
    }

    /// Counts dropped by full buckets under `record_n`.
    pub fn saturated_count(&self) -> u64 {
        self.outside[SAT]
    }

    /// Underflow, overflow and saturated counts, in that order.
    pub fn outside(&self) -> [u64; 3] {
        self.outside
    }

    /// Completed resets of the source when this view was taken (wrapping).
    pub fn reset_count(&self) -> u64 {
        self.resets
    }

    /// The value selection used for percentiles.
    pub fn value_selection(&self) -> ValueSelection {
        self.shape.value_selection()
    }

    /// The same counts, reporting values with `selection`.
    pub fn with_value_selection(mut self, selection: ValueSelection) -> Self {
        self.shape = self.shape.with_value_selection(selection);
        self
    }

    /// Sum of the bucket counts, saturating at `u64::MAX`.
    pub fn total_count(&self) -> u64 {
        saturate(self.total_wide())
    }

    pub(crate) fn total_wide(&self) -> u128 {
        self.counts.sum(0, self.counts.len())
    }

    /// One pass over the counts: block totals, and with `MOMENTS` the sums the mean and
    /// stdev need (see [`crate::scan`]).
    fn scan<const MOMENTS: bool>(&self) -> Scan {
        Scan::new::<C, S, MOMENTS>(&self.shape, self.counts)
    }

    /// The bucket at a storage index.
    pub fn bucket(&self, storage_index: usize) -> Option<Bucket> {
        (storage_index < self.counts.len()).then(|| self.shape.bucket(storage_index))
    }

    /// The percentile at `rank` (in percent, `0..=100`).
    pub fn percentile(&self, rank: f64) -> Result<Percentile, QueryError> {
        single(rank, |ranks, out| self.percentiles(ranks, out))
    }

    /// The value at `rank`.
    pub fn percentile_value(&self, rank: f64) -> Result<u64, QueryError> {
        self.percentile(rank).map(|p| p.value)
    }

    /// Many percentiles in one walk over the buckets. `ranks` must be strictly increasing
    /// numbers in `[0, 100]` and `out` as long as `ranks`; the results agree with each other
    /// and with one total.
    pub fn percentiles(&self, ranks: &[f64], out: &mut [Percentile]) -> Result<(), QueryError> {
        check_ranks(ranks, out.len())?;
        if ranks.is_empty() {
            return Ok(()); // nothing asked, nothing to refuse, even when empty
        }
        let scan = self.scan::<false>();
        if scan.total == 0 {
            return Err(QueryError::Empty);
        }
        self.walk(&scan, ranks, |k, p| out[k] = p);
        Ok(())
    }

    /// Values only, for many ranks in one walk (same rules as [`View::percentiles`]).
    pub fn percentile_values(&self, ranks: &[f64], out: &mut [u64]) -> Result<(), QueryError> {
        check_ranks(ranks, out.len())?;
        if ranks.is_empty() {
            return Ok(());
        }
        let scan = self.scan::<false>();
        if scan.total == 0 {
            return Err(QueryError::Empty);
        }
        self.walk(&scan, ranks, |k, p| out[k] = p.value);
        Ok(())
    }

    /// The walk behind every percentile query: ranks are valid and `scan.total > 0`.
    ///
    /// Whole blocks are passed over by their totals from the scan; buckets are read only
    /// inside the blocks the ranks land in, each at most once per walk. Over live cells
    /// that writers keep adding to, a bucket may hold more than it did when the scan read
    /// it: a bucket's count is taken only up to what its block's total leaves, so the
    /// results still agree with each other and with the scan's total (cumulative counts
    /// never pass it; P100's is exactly it).
    fn walk(&self, scan: &Scan, ranks: &[f64], mut emit: impl FnMut(usize, Percentile)) {
        let blocks = scan.blocks();
        let mut b = 0;
        // The cumulative count before block `b`, and the walk's place inside it.
        let mut before_block = 0u128;
        let mut i = blocks[0].first;
        let mut cumulative = 0u128;
        let mut count = 0u64;
        for (k, &rank) in ranks.iter().enumerate() {
            let target = rank_to_count(rank, scan.total);
            if cumulative < target {
                // Jump to the block whose total reaches the target.
                while b + 1 < blocks.len() && before_block + blocks[b].count < target {
                    before_block += blocks[b].count;
                    b += 1;
                    (i, cumulative) = (blocks[b].first, before_block);
                }
                // Then past the runs of it that stay below the target (a run's sum
                // below the target keeps the walk below the block's total), and to the
                // first bucket whose cumulative count reaches it.
                let block_total = before_block + blocks[b].count;
                let end = blocks[b].end;
                for run in RUNS {
                    while i + run <= end {
                        let sum = self.counts.sum(i, i + run);
                        if cumulative + sum >= target {
                            break;
                        }
                        (cumulative, i) = (cumulative + sum, i + run);
                    }
                }
                while cumulative < target && i < end {
                    let left = block_total - cumulative;
                    count = (self.counts.get(i).to_u64() as u128).min(left) as u64;
                    cumulative += count as u128;
                    i += 1;
                }
            }
            let at = i - 1;
            let before = cumulative - count as u128;
            emit(k, self.make_percentile(rank, at, count, before, target));
        }
    }

    /// A percentile for storage bucket `at`, holding `count` after `before` smaller values.
    /// The value a percentile reports of bucket `b` (`count` values, `before` below it)
    /// for the `target`-th value, per the value selection.
    #[inline]
    pub(crate) fn selected_value(&self, b: Bucket, count: u64, before: u128, target: u128) -> u64 {
        match self.shape.value_selection() {
            ValueSelection::Midpoint => b.midpoint(),
            ValueSelection::Lower => b.lower,
            ValueSelection::Upper => b.highest,
            ValueSelection::Interpolated => {
                // The target is the k-th of the bucket's `count` values: place it at the
                // centre of the k-th of `count` equal slices of the bucket.
                let k = target.saturating_sub(before).clamp(1, count.max(1) as u128);
                let width = b.width() as u128;
                let offset = ((2 * k - 1) * width) / (2 * count.max(1) as u128);
                b.lower + (offset as u64).min(b.width() - 1)
            }
        }
    }

    pub(crate) fn make_percentile(
        &self,
        rank: f64,
        at: usize,
        count: u64,
        before: u128,
        target: u128,
    ) -> Percentile {
        let logical = self.shape.first_index() + at;
        let b = self.shape.bucket(at);
        let value = self.selected_value(b, count, before, target);
        Percentile {
            rank,
            value,
            plus_minus: (value - b.lower).max(b.highest - value),
            storage_index: at as u64,
            logical_index: logical as u64,
            lower: b.lower,
            upper: b.highest.saturating_add(1),
            highest: b.highest,
            count,
            cumulative_count: saturate(before + count as u128),
            rank_count: saturate(target),
        }
    }

    /// Mean of the recorded values, taking each bucket at its midpoint; `NaN` when empty.
    pub fn mean(&self) -> f64 {
        self.moments().0
    }

    /// Population standard deviation over bucket midpoints; `NaN` when empty.
    pub fn stdev(&self) -> f64 {
        self.moments().1
    }

    /// `(mean, population stdev)` from one pass: exact integer sums within each block of
    /// the layout, blocks combined pairwise (Chan, Golub and LeVeque), which stays accurate
    /// when the spread is tiny next to the mean.
    pub fn moments(&self) -> (f64, f64) {
        self.scan::<true>().moments(&self.shape)
    }

    /// The lowest non-empty bucket's smallest value (values below the range not included).
    pub fn min_recorded(&self) -> Option<u64> {
        let i = self.counts.first_nonzero()?;
        Some(self.shape.bucket(i).lower)
    }

    /// The highest non-empty bucket's largest value (values above the range not included).
    pub fn max_recorded(&self) -> Option<u64> {
        let i = self.counts.last_nonzero()?;
        Some(self.shape.bucket(i).highest)
    }

    /// The standard summary: 16 ranks, counts, mean, stdev, precision, range.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        self.summary_into(&mut s);
        s
    }

    /// Fill a caller-owned summary in place (no allocation). An empty histogram gives
    /// percentiles with zero counts and values, and NaN mean/stdev.
    pub fn summary_into(&self, s: &mut Summary) {
        // One pass for the total, the moments and the block totals the walk jumps by.
        let scan = self.scan::<true>();
        let total = scan.total;
        if total == 0 {
            s.percentiles = Summary::default().percentiles;
        } else {
            let percentiles = &mut s.percentiles;
            self.walk(&scan, &STANDARD_RANKS, |k, p| percentiles[k] = p);
        }
        let (mean, stdev) = scan.moments(&self.shape);
        s.total = saturate(total);
        [s.underflow, s.overflow, s.saturated] = self.outside;
        s.mean = mean;
        s.stdev = stdev;
        s.precision = self.layout().relative_error();
        (s.min_trackable, s.max_trackable) = self.shape.range();
    }
}

/// Buckets a percentile walk sums at a time inside the block a rank lands in: runs of
/// 64 until the next would reach the target, then of 8, then single buckets.
const RUNS: [usize; 2] = [64, 8];

pub(crate) fn saturate(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}
