//! The exact extremes a [`super::DynHistogram`] can keep.

use crate::concurrent::cell::{AtomicCounter, Cell64};
use crate::shape::Shape;

/// The smallest and largest value recorded in the range, exact: two cells lowered and
/// raised with a compare-exchange only when a value passes them (after the first records,
/// a load and a compare each, the cells' line shared by every writer and rarely written).
#[derive(Debug)]
pub(super) struct Extremes {
    /// The smallest value seen (`u64::MAX` while none).
    lo: Cell64,
    /// The largest value seen (0 while none).
    hi: Cell64,
    /// The smallest value of the range (its first bucket's lowest).
    first: u64,
    /// The largest value of the range less `first`.
    span: u64,
}

impl Extremes {
    pub(super) fn new(shape: Shape) -> Self {
        let first = shape.bucket(0).lower;
        let last = shape.bucket(shape.len().saturating_sub(1)).highest;
        Extremes {
            lo: u64::new_cell(u64::MAX),
            hi: u64::new_cell(0),
            first,
            span: last - first,
        }
    }

    /// Take `v` into the extremes when it is in the range.
    #[inline(always)]
    pub(super) fn note(&self, v: u64) {
        if v.wrapping_sub(self.first) > self.span {
            return;
        }
        if v < u64::load(&self.lo) {
            Self::move_to(&self.lo, v, |v, old| v < old);
        }
        if v > u64::load(&self.hi) {
            Self::move_to(&self.hi, v, |v, old| v > old);
        }
    }

    /// Take the in-range values of `values` into the extremes: their smallest and largest
    /// folded first (no branch a value), then noted once.
    pub(super) fn note_many(&self, values: &[u64]) {
        let (mut lo, mut hi) = (u64::MAX, 0);
        for &v in values {
            let inside = v.wrapping_sub(self.first) <= self.span;
            lo = lo.min(if inside { v } else { u64::MAX });
            hi = hi.max(if inside { v } else { 0 });
        }
        if lo <= hi {
            self.note(lo);
            self.note(hi);
        }
    }

    /// Take the smallest and largest in-range values a corrected record of `v` adds.
    pub(super) fn note_corrected(&self, v: u64, interval: u64) {
        let last = self.first + self.span;
        if let Some((lo, hi)) = crate::histogram::corrected_extremes(v, interval, self.first, last)
        {
            self.note(lo);
            self.note(hi);
        }
    }

    /// Store `v` in `cell` while `passes(v, what the cell holds)` (a compare-exchange
    /// loop: racing writers leave the extreme of them all).
    #[cold]
    #[inline(never)]
    fn move_to(cell: &Cell64, v: u64, passes: fn(u64, u64) -> bool) {
        let mut old = u64::load(cell);
        while passes(v, old) {
            match u64::compare_exchange(cell, old, v) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }

    pub(super) fn get(&self) -> Option<(u64, u64)> {
        let (lo, hi) = (u64::load(&self.lo), u64::load(&self.hi));
        (lo <= hi).then_some((lo, hi))
    }

    pub(super) fn clear(&self) {
        u64::store(&self.lo, u64::MAX);
        u64::store(&self.hi, 0);
    }
}
