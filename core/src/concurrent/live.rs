//! Queries that read a seqlock histogram's cells in place: no copy of the counts, so no
//! allocation and no memory that grows with the histogram.

use super::cell::AtomicCounter;
use super::seqlock::SeqCounts;
use super::store::CellStore;
use crate::counter::{sealed::Sealed, Counts};
use crate::view::View;

/// A concurrent histogram's live cells, read by a [`View`] one bucket at a time (relaxed
/// loads) when a query reaches them. A bucket above the mode's ceiling (an interlocked
/// increment in flight, about to be moved to the saturated count) reads as the ceiling,
/// as it does in a copy.
pub struct Cells<'c, C: AtomicCounter> {
    /// Dense cells (empty for sparse storage, read through `sparse`).
    cells: &'c [C::Atomic],
    sparse: Option<&'c dyn CellStore<C>>,
    len: usize,
    ceiling: C,
}

impl<C: AtomicCounter> Sealed for Cells<'_, C> {}

impl<C: AtomicCounter> Counts<C> for Cells<'_, C> {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn get(&self, i: usize) -> C {
        let count = match self.sparse {
            None => C::load(&self.cells[i]),
            Some(store) => store.existing_cell(i).map_or(C::ZERO, C::load),
        };
        count.min(self.ceiling)
    }
    /// Dense cells in one loop of loads (no branch on sparse storage per cell, no 128-bit
    /// add per cell: a run of 4,096 cells is summed in `u64` while an OR shows that no
    /// count reached 2^32); sparse cells block by block, over the blocks made so far.
    fn sum(&self, first: usize, end: usize) -> u128 {
        let load = |cell: &C::Atomic| C::load(cell).min(self.ceiling).to_u64();
        if let Some(store) = self.sparse {
            // The blocks made so far: a block never touched counts nothing.
            let mut total = 0u128;
            store.for_each_run(&mut |start, run| {
                let (lo, hi) = (first.max(start), end.min(start + run.len()));
                if lo < hi {
                    let cells = &run[lo - start..hi - start];
                    total += cells.iter().map(|c| load(c) as u128).sum::<u128>();
                }
            });
            return total;
        }
        crate::sum::sum_checked(
            &self.cells[first..end],
            |run| {
                let or_sum = |(s, o): (u64, u64), c| (s.wrapping_add(c), o | c);
                run.iter().map(load).fold((0, 0), or_sum)
            },
            |run| run.iter().map(|cell| load(cell) as u128).sum(),
        )
    }
}

/// A view of live cells.
pub type LiveView<'a, C> = View<'a, C, Cells<'a, C>>;

impl<C: AtomicCounter, S: CellStore<C>> SeqCounts<C, S> {
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
        let dense = self.counts.as_dense();
        let cells = Cells {
            cells: dense.unwrap_or(&[]),
            sparse: match dense {
                Some(_) => None,
                None => Some(&self.counts),
            },
            len: self.counts.cells_len(),
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
