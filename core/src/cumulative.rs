//! A read-only cumulative copy of a histogram for a reader that asks many questions of
//! one moment (a scrape, a report, a dashboard): the running totals of its counts, built
//! in one pass, then every percentile is a binary search and every count below or
//! between values two subtractions.
//!
//! The copy is a [`Counts`] storage like any other (a bucket's count is the difference of
//! two totals, a sum of buckets one difference), so its [`View`] answers every query of a
//! live histogram with the same code, and the answers agree; [`Cumulative::percentile`]
//! replaces the walk with a search of the totals.

use core::marker::PhantomData;
use core::ops::Range;

use crate::counter::{sealed::Sealed, Counter, Counts};
use crate::percentile::{check_rank, check_ranks, rank_to_count, Percentile, QueryError};
use crate::shape::Shape;
use crate::view::View;

/// The running totals of a histogram's counts: `totals[i]` is the count of storage
/// buckets `0..i`, `totals.len()` is the storage length plus one, and the last total is
/// the histogram's total.
#[derive(Clone, Debug)]
pub struct Cumulative<C: Counter, S> {
    shape: Shape,
    totals: S,
    /// The storage indices from the first bucket that holds a value to just past the last
    /// (`0..0` when empty): every percentile lands there, so only they are searched.
    occupied: Range<usize>,
    outside: [u64; 3],
    resets: u64,
    _counter: PhantomData<C>,
}

impl<C: Counter, S: AsRef<[u64]> + AsMut<[u64]>> Cumulative<C, S> {
    /// The running totals of `source` in caller storage of `source`'s storage length plus
    /// one. One pass over the counts. `Err(OutputLength)` for storage of another length;
    /// `Err(TotalTooLarge)` when the total passes `u64::MAX` (only possible with `u64`
    /// counters).
    pub fn from_storage<T: Counts<C> + ?Sized>(
        source: &View<'_, C, T>,
        mut totals: S,
    ) -> Result<Self, QueryError> {
        let len = source.counts.len();
        let out = totals.as_mut();
        if out.len() != len + 1 {
            return Err(QueryError::OutputLength {
                ranks: len + 1,
                output: out.len(),
            });
        }
        out[0] = 0;
        let mut total = 0u64;
        for (i, count) in source.counts.values(0, len).enumerate() {
            total = total
                .checked_add(count.to_u64())
                .ok_or(QueryError::TotalTooLarge)?;
            out[i + 1] = total;
        }
        Ok(Cumulative {
            shape: source.shape,
            occupied: occupied(&out[1..]),
            totals,
            outside: source.outside,
            resets: source.resets,
            _counter: PhantomData,
        })
    }
}

#[cfg(feature = "alloc")]
impl<C: Counter> Cumulative<C, alloc::vec::Vec<u64>> {
    /// The running totals of `source`, in storage of their own (see
    /// [`Cumulative::from_storage`]).
    pub fn new<T: Counts<C> + ?Sized>(source: &View<'_, C, T>) -> Result<Self, QueryError> {
        Self::from_storage(source, alloc::vec![0; source.counts.len() + 1])
    }
}

#[cfg(feature = "alloc")]
impl<C: Counter, T: Counts<C> + ?Sized> View<'_, C, T> {
    /// A cumulative copy of these counts for many queries ([`Cumulative::new`]).
    pub fn cumulative(&self) -> Result<Cumulative<C, alloc::vec::Vec<u64>>, QueryError> {
        Cumulative::new(self)
    }
}

impl<C: Counter, S> Cumulative<C, S> {
    /// The same totals read as `u64` counts: nothing changes but the type (a bucket's count
    /// of a `u32` source fits), so one type serves both widths (the C ABI's handle).
    pub fn widen(self) -> Cumulative<u64, S> {
        Cumulative {
            shape: self.shape,
            totals: self.totals,
            occupied: self.occupied,
            outside: self.outside,
            resets: self.resets,
            _counter: PhantomData,
        }
    }
}

impl<C: Counter, S: AsRef<[u64]>> Cumulative<C, S> {
    /// Every query of a live histogram, answered from the totals: counts below or between
    /// values in constant time, the rest as a view of a copy answers them.
    pub fn view(&self) -> View<'_, C, Self> {
        View::over(self.shape, self, self.outside, self.resets)
    }

    /// The count of values in the range.
    pub fn total_count(&self) -> u64 {
        let totals = self.totals.as_ref();
        totals[totals.len() - 1]
    }

    /// The percentile at `rank` (in percent, `0..=100`), found by a binary search of the
    /// totals: the same answer as the source's [`View::percentile`].
    pub fn percentile(&self, rank: f64) -> Result<Percentile, QueryError> {
        let f = self.find(rank)?;
        Ok(self
            .view()
            .make_percentile(rank, f.at, f.count, f.before, f.target))
    }

    /// The value at `rank` (that of [`Cumulative::percentile`], without the rest).
    pub fn percentile_value(&self, rank: f64) -> Result<u64, QueryError> {
        let f = self.find(rank)?;
        let bucket = self.shape.bucket(f.at);
        Ok(self
            .view()
            .selected_value(bucket, f.count, f.before, f.target))
    }

    /// The bucket the `rank` lands in, its count, the count below it and the target.
    #[inline]
    fn find(&self, rank: f64) -> Result<Found, QueryError> {
        check_rank(rank)?;
        let total = self.total_count();
        if total == 0 {
            return Err(QueryError::Empty);
        }
        let totals = self.totals.as_ref();
        let target = rank_to_count(rank, total as u128) as u64;
        let occupied = &totals[1..][self.occupied.clone()];
        let at = self.occupied.start + occupied.partition_point(|&t| t < target);
        let (before, upto) = (totals[at], totals[at + 1]);
        Ok(Found {
            at,
            before: before as u128,
            count: upto - before,
            target: target as u128,
        })
    }

    /// Many percentiles, one search each (same rules as [`View::percentiles`]).
    pub fn percentiles(&self, ranks: &[f64], out: &mut [Percentile]) -> Result<(), QueryError> {
        check_ranks(ranks, out.len())?;
        for (slot, &rank) in out.iter_mut().zip(ranks) {
            *slot = self.percentile(rank)?;
        }
        Ok(())
    }
}

/// Where a rank lands: the storage index, the count below the bucket, its count, the target.
struct Found {
    at: usize,
    before: u128,
    count: u64,
    target: u128,
}

impl<C: Counter, S> Sealed for Cumulative<C, S> {}

impl<C: Counter, S: AsRef<[u64]>> Counts<C> for Cumulative<C, S> {
    #[inline]
    fn len(&self) -> usize {
        self.totals.as_ref().len() - 1
    }
    #[inline]
    fn get(&self, i: usize) -> C {
        let totals = self.totals.as_ref();
        C::from_u64_wrapping(totals[i + 1] - totals[i])
    }
    #[inline]
    fn sum(&self, first: usize, end: usize) -> u128 {
        let totals = self.totals.as_ref();
        (totals[end] - totals[first]) as u128
    }
    fn first_nonzero(&self) -> Option<usize> {
        (!self.occupied.is_empty()).then_some(self.occupied.start)
    }
    fn last_nonzero(&self) -> Option<usize> {
        (!self.occupied.is_empty()).then(|| self.occupied.end - 1)
    }
}

/// The storage indices of the occupied buckets' span, from the running `totals` of the
/// buckets (`totals[i]`: the count of buckets `0..=i`): two binary searches.
fn occupied(totals: &[u64]) -> Range<usize> {
    let total = totals.last().copied().unwrap_or(0);
    let first = totals.partition_point(|&t| t == 0);
    let last = totals.partition_point(|&t| t < total);
    if total == 0 {
        0..0
    } else {
        first..last + 1
    }
}
