//! Queries that read a seqlock histogram's cells in place: no copy of the counts, so no
//! allocation and no memory that grows with the histogram.

use super::cell::AtomicCounter;
use super::seqlock::SeqCounts;
use crate::view::{sealed::Sealed, Counts, View};

/// A concurrent histogram's live cells, read by a [`View`] one bucket at a time (relaxed
/// loads) when a query reaches them. A bucket above the mode's ceiling (an interlocked
/// increment in flight, about to be moved to the saturated count) reads as the ceiling,
/// as it does in a copy.
pub struct Cells<'c, C: AtomicCounter> {
    cells: &'c [C::Atomic],
    ceiling: C,
}

impl<C: AtomicCounter> Sealed for Cells<'_, C> {}

impl<C: AtomicCounter> Counts<C> for Cells<'_, C> {
    #[inline]
    fn len(&self) -> usize {
        self.cells.len()
    }
    #[inline]
    fn get(&self, i: usize) -> C {
        C::load(&self.cells[i]).min(self.ceiling)
    }
}

/// A view of live cells.
pub type LiveView<'a, C> = View<'a, C, Cells<'a, C>>;

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> SeqCounts<C, S> {
    /// Run `query` on a view of the cells themselves, under the seqlock protocol: a query
    /// that a reset overlapped is run again (holding resets off after a few tries, so
    /// back-to-back resets cannot starve it), so its result never mixes counts from before
    /// and after a reset. Records that land while it runs may be seen by a later pass over
    /// the buckets and not an earlier one (a percentile walk can then find more counts than
    /// the total it started from); the copy-based read avoids that by reading each bucket
    /// once, at the cost of a copy of the whole storage.
    /// `ceiling` is the count the mode's buckets stop at.
    pub(crate) fn read_live<R>(
        &self,
        ceiling: C,
        mut query: impl FnMut(LiveView<'_, C>) -> R,
    ) -> R {
        let cells = Cells {
            cells: self.counts.as_ref(),
            ceiling,
        };
        self.read_consistently(|| {
            let v = self.version.read_begin();
            let outside = self.outside.load();
            let resets = self.version.resets(v);
            let result = query(View::over(self.shape, &cells, outside, resets));
            self.version.read_validate(v).then_some(result)
        })
    }
}
