//! The single-writer mode: one writer at a time, reads from any thread.

use super::cell::{add_n_plain, increment_plain, AtomicCounter};
use super::path::{DirectKind, Mode};
use super::seq_histogram::{SeqHistogram, SeqMode};
use super::seqlock::DefaultCells;
use super::{CellStore, Sealed};
use crate::layout::Log2;
use crate::merge::{plan_subtract, stored_counts, MergeError};
use crate::shape::{Slot, OVER, SAT, UNDER};
use crate::view::View;

/// A histogram with **one writer at a time** whose reads may come from any thread.
///
/// The counters are atomics written with a plain load and store (no lock prefix: the same
/// instructions as [`crate::Histogram::record`]), so sharing it is sound, and with one
/// writer every count is exact. Two threads recording at once do not corrupt anything but
/// may lose counts (both load the same count, both store count + 1): give each writer
/// thread its own histogram, or use [`super::AtomicHistogram`] or [`super::LocalHistogram`].
///
/// # Saturation
/// A bucket holds up to `C::MAX` exactly (the writer compares before it stores); records
/// past it are counted as saturated. Underflow, overflow and saturated counts stop at
/// `u64::MAX`.
///
/// # Reads, reset, snapshots
/// - [`Source::read_into`](super::Source::read_into) copies the counts with the seqlock protocol: a reset
///   that overlaps the copy makes it retry, so a reader never sees a half-cleared
///   histogram. Counts only grow between resets; every query on the copy is consistent
///   with itself (one copy, one total).
/// - [`SeqHistogram::reset`] clears every count. Called **by the writer thread** (or
///   while it does not record) it is exact. Called from another thread while the writer
///   records, the writer's load+store can race it: the bucket being incremented at that
///   instant may come back as its old count + 1 ("old+1"). That is the cost of a plain
///   increment; the interlocked and thread-local modes do not have it.
/// - [`Collect::collect`](super::Collect::collect) is that reset handing back what it
///   cleared: **exact from the writer thread**. From another thread while the writer
///   records, the same race can bring back "old+1" in the one bucket being incremented,
///   so that bucket's interval count is counted again in the next interval.
/// - [`SeqHistogram::subtract`] removes counts (for deltas), from the writer thread; the
///   other modes cannot.
///
/// A record is a plain load and store into an existing cell, the rest out of line; C
/// callers count the cells in place with the same load and store
/// ([`DirectKind::Plain`](super::DirectKind::Plain)).
pub type SharedHistogram<C, S = DefaultCells<C>> = SeqHistogram<C, SingleWriter, S>;

/// The single-writer mode of a [`SeqHistogram`]: see [`SharedHistogram`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SingleWriter;

impl Sealed for SingleWriter {}

impl<C: AtomicCounter, S: CellStore<C>> SeqMode<C, S> for SingleWriter {
    const DIRECT: DirectKind = DirectKind::Plain;
    const CEILING: C = C::MAX;

    fn mode(&self) -> Mode {
        Mode::SingleWriter
    }

    /// A full bucket is left to `record_declined`, which counts it as saturated.
    #[inline(always)]
    fn record_fast_in(h: &SharedHistogram<C, S>, v: u64, log2: Log2) -> bool {
        Self::record_slot_in(h, v, h.counts.shape.slot(v, log2))
    }

    #[inline(always)]
    fn record_slot_in(h: &SharedHistogram<C, S>, _v: u64, slot: Slot) -> bool {
        match h.counts.existing_cell(slot) {
            Some(c) => Self::count_in(h, c),
            None => false,
        }
    }

    const COUNTS_IN_CELL: bool = true;

    /// A full bucket is left to `record_declined`, which counts it as saturated.
    #[inline(always)]
    fn count_in(_: &SharedHistogram<C, S>, cell: &C::Atomic) -> bool {
        increment_plain::<C>(cell) == 0
    }

    /// Outside the range, into a full bucket (counted as saturated), or the first into a
    /// sparse block (made here).
    #[cold]
    #[inline(never)]
    fn record_declined(h: &SharedHistogram<C, S>, v: u64) {
        match h.counts.cell_of(v, Log2::ANY_CPU) {
            Some(c) => {
                if increment_plain::<C>(c) != 0 {
                    h.counts.outside.add_plain(SAT, 1);
                }
            }
            None => record_outside(h, v, 1),
        }
    }

    /// A plain add, saturating at `C::MAX` like [`crate::Histogram::record_n`].
    #[inline]
    fn record_n(h: &SharedHistogram<C, S>, v: u64, n: u64) {
        if !add_n_at(h, h.counts.shape.slot(v, Log2::ANY_CPU), n) {
            record_outside(h, v, n);
        }
    }

    /// Plain adds, exact from the writer thread.
    fn add<C2: crate::Counter>(
        h: &SharedHistogram<C, S>,
        other: &View<'_, C2>,
    ) -> Result<(), MergeError> {
        crate::merge::add_view(
            &h.counts.shape,
            other,
            |slot, n| add_n_at(h, slot, n),
            |v, n| Self::record_n(h, v, n),
            |o| h.counts.add_outside(o),
        )
    }

    /// From the writer thread; fails without changing anything if some count would go
    /// below zero, like [`crate::Histogram::subtract`].
    fn subtract<C2: crate::Counter>(
        h: &SharedHistogram<C, S>,
        other: &View<'_, C2>,
    ) -> Result<(), MergeError> {
        let (shape, cells) = (&h.counts.shape, &h.counts.counts);
        let count = |o| cells.existing_cell(o).map_or(0, |c| C::load(c).to_u64());
        let mine = h.counts.outside.load();
        let left = plan_subtract(shape, mine, other, count)?;
        for (o, n) in stored_counts(shape, other) {
            // Checked by plan_subtract: the count is at least n (so the cell exists when n
            // is not 0), and the difference fits C.
            if let Some(c) = cells.existing_cell(o) {
                C::store(c, C::from_u64_wrapping(C::load(c).to_u64() - n));
            }
        }
        for which in [UNDER, OVER, SAT] {
            h.counts.outside.sub_plain(which, mine[which] - left[which]);
        }
        Ok(())
    }
}

impl<C: AtomicCounter, S: CellStore<C>> SeqHistogram<C, SingleWriter, S> {
    /// Remove every count of `other` (same relative error, any range), for deltas, from
    /// the writer thread. Fails without changing anything if some count would go below
    /// zero, like [`crate::Histogram::subtract`].
    pub fn subtract<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        SingleWriter::subtract(self, other)
    }
}

/// Count `n` in the cell of `slot` with a plain add, saturating at `C::MAX`; `false`
/// (nothing counted) when the slot has no cell.
#[inline]
fn add_n_at<C: AtomicCounter, S: CellStore<C>>(
    h: &SharedHistogram<C, S>,
    slot: Slot,
    n: u64,
) -> bool {
    let Some(c) = h.counts.cell(slot) else {
        return false;
    };
    let excess = add_n_plain::<C>(c, n);
    if excess != 0 {
        h.counts.outside.add_plain(SAT, excess);
    }
    true
}

/// Count `n` occurrences of `v` that have no cell: underflow or overflow outside the
/// range, saturated where a sparse block could not be allocated.
#[cold]
fn record_outside<C: AtomicCounter, S: CellStore<C>>(h: &SharedHistogram<C, S>, v: u64, n: u64) {
    let kind = h.counts.shape.uncounted_kind(v);
    h.counts.outside.add_plain(kind, n);
}
