//! The single-writer histogram whose reads may come from any thread.

use super::cell::{add_n_plain, increment_plain, AtomicCounter};
use super::live::{self, LiveView};
use super::path::{Counts, DirectKind, DirectPath, Mode, ModePath, RecordPath};
use super::seqlock::{DefaultCells, SeqCounts, SeqMode};
use super::{CellStore, Sealed, Storage};
use crate::config::{Config, ConfigError};
use crate::layout::Log2;
use crate::merge::{plan_subtract, stored_counts, MergeError};
use crate::shape::{Shape, Slot, OVER, SAT, UNDER};
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
/// - [`SharedHistogram::reset`] clears every count. Called **by the writer thread** (or
///   while it does not record) it is exact. Called from another thread while the writer
///   records, the writer's load+store can race it: the bucket being incremented at that
///   instant may come back as its old count + 1 ("old+1"). That is the cost of a plain
///   increment; the interlocked and thread-local modes do not have it.
/// - [`Collect::collect`](super::Collect::collect) is that reset handing back what it
///   cleared: **exact from the writer thread**. From another thread while the writer
///   records, the same race can bring back "old+1" in the one bucket being incremented,
///   so that bucket's interval count is counted again in the next interval.
#[derive(Debug)]
pub struct SharedHistogram<C: AtomicCounter, S = DefaultCells<C>> {
    counts: SeqCounts<C, S>,
}

impl<C: AtomicCounter, S: CellStore<C>> SharedHistogram<C, S> {
    /// A histogram over `storage` (`config.storage_len()` cells, zeroed here).
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?, storage)
    }

    /// A histogram of a checked `shape` over `storage` (`shape.len()` cells, zeroed here).
    pub fn from_shape(shape: Shape, storage: S) -> Result<Self, ConfigError> {
        let counts = SeqCounts::from_storage(shape, storage)?;
        Ok(SharedHistogram { counts })
    }

    /// The cells (`shape().len()` of them), for a writer outside Rust that counts with a
    /// relaxed atomic load and store, as [`SharedHistogram::record_fast`] does, and hands
    /// full buckets and values outside the range to [`SharedHistogram::record`].
    pub fn cells_ptr(&self) -> *const C::Atomic {
        self.counts.cells_ptr()
    }

    /// Count one occurrence of `v` (one writer at a time; see the type's docs).
    #[inline(always)]
    pub fn record(&self, v: u64)
    where
        Self: ModePath,
    {
        ModePath::record(self, v)
    }

    /// Count one occurrence of `v` and return true when `v` is in the range, its bucket
    /// not full and (sparse storage) its block made (a load and a store); otherwise
    /// return false, recording nothing. A caller whose only work after a false is a
    /// call of [`SharedHistogram::record`] keeps its hot path free of calls.
    #[inline(always)]
    pub fn record_fast(&self, v: u64) -> bool
    where
        Self: ModePath,
    {
        ModePath::record_fast(self, v)
    }

    /// Count `n` occurrences of `v`, saturating like [`crate::Histogram::record_n`].
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        if !self.add_n_at(self.counts.shape.slot(v, Log2::ANY_CPU), n) {
            self.record_outside(v, n);
        }
    }

    /// Count `n` in the cell of `slot` as [`SharedHistogram::record_n`] does; `false`
    /// (nothing counted) when the slot has no cell.
    #[inline]
    pub(crate) fn add_n_at(&self, slot: Slot, n: u64) -> bool {
        let Some(c) = self.counts.cell(slot) else {
            return false;
        };
        let excess = add_n_plain::<C>(c, n);
        if excess != 0 {
            self.counts.outside.add_plain(SAT, excess);
        }
        true
    }

    /// Count `n` occurrences of `v` that have no cell: underflow or overflow outside the
    /// range, saturated where a sparse block could not be allocated.
    #[cold]
    fn record_outside(&self, v: u64, n: u64) {
        let kind = self.counts.shape.uncounted_kind(v);
        self.counts.outside.add_plain(kind, n);
    }

    /// Remove every count of `other` (same relative error, any range), for deltas, from
    /// the writer thread. Fails without changing anything if some count would go below
    /// zero, like [`crate::Histogram::subtract`].
    pub fn subtract<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        let (shape, cells) = (&self.counts.shape, &self.counts.counts);
        let count = |o| cells.existing_cell(o).map_or(0, |c| C::load(c).to_u64());
        let mine = self.counts.outside.load();
        let left = plan_subtract(shape, mine, other, count)?;
        for (o, n) in stored_counts(shape, other) {
            // Checked by plan_subtract: the count is at least n (so the cell exists when n
            // is not 0), and the difference fits C.
            if let Some(c) = cells.existing_cell(o) {
                C::store(c, C::from_u64_wrapping(C::load(c).to_u64() - n));
            }
        }
        for which in [UNDER, OVER, SAT] {
            self.counts
                .outside
                .sub_plain(which, mine[which] - left[which]);
        }
        Ok(())
    }

    /// Clear every count; a reader never sees it half done (it retries). Exact from the
    /// writer thread; see the type's docs for a reset from another thread.
    pub fn reset(&self) {
        self.counts.reset();
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; the counts land like records (exact, from the
    /// writer thread).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        crate::merge::add_view(
            &self.counts.shape,
            other,
            |slot, n| self.add_n_at(slot, n),
            |v, n| self.record_n(v, n),
            |o| self.counts.add_outside(o),
        )
    }

    /// Run `query` on a view that reads the cells in place (no copy, no allocation); a
    /// query that a reset overlapped runs again. See [`LiveView`] for what concurrent
    /// records do to it.
    pub fn query_in_place<R>(&self, query: impl FnMut(LiveView<'_, C>) -> R) -> R {
        self.counts.read_live(Self::CEILING, query)
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> SharedHistogram<C> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        Self::from_shape(shape, super::cell::zeroed_cells::<C>(shape.len())?)
    }
}

impl<C: AtomicCounter, S> Sealed for SharedHistogram<C, S> {}

/// Queries read the live cells in place, seqlock-validated.
impl<C, S> RecordPath<C> for SharedHistogram<C, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
{
    fn query_live(&self, query: &mut dyn FnMut(LiveView<'_, C>)) -> bool {
        live::query_live(self, query)
    }
}

/// The single-writer mode's record: a plain load and store into an existing cell, the
/// rest out of line. Behind a pointer ([`super::ConcurrentHistogram`], the C ABI's handle)
/// its cells are counted in place by C callers too (the direct path), and it subtracts
/// (from the writer thread).
impl<C, S> ModePath for SharedHistogram<C, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
{
    fn mode(&self) -> Mode {
        Mode::SingleWriter
    }
    fn storage(&self) -> Storage {
        self.counts.storage()
    }

    /// A full bucket is left to `record_declined`, which counts it as saturated.
    #[inline(always)]
    fn record_fast_in(&self, v: u64, log2: Log2) -> bool {
        match self.counts.existing_cell_of(v, log2) {
            Some(c) => increment_plain::<C>(c) == 0,
            None => false,
        }
    }

    /// Outside the range, into a full bucket (counted as saturated), or the first into a
    /// sparse block (made here).
    #[cold]
    #[inline(never)]
    fn record_declined(&self, v: u64) {
        match self.counts.cell_of(v, Log2::ANY_CPU) {
            Some(c) => {
                if increment_plain::<C>(c) != 0 {
                    self.counts.outside.add_plain(SAT, 1);
                }
            }
            None => self.record_outside(v, 1),
        }
    }

    fn record_n(&self, v: u64, n: u64) {
        SharedHistogram::record_n(self, v, n)
    }
    fn add_saturated(&self, n: u64) {
        self.counts.add_outside([0, 0, n]);
    }
    fn add_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| self.add(v), |v| self.add(v))
    }
    fn subtract_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| self.subtract(v), |v| self.subtract(v))
    }
    fn reset(&self) {
        SharedHistogram::reset(self)
    }
    fn direct_path(&self) -> DirectPath {
        DirectPath::over::<C>(DirectKind::Plain, self.cells_ptr())
    }
}

impl<C: AtomicCounter, S: CellStore<C>> SeqMode for SharedHistogram<C, S> {
    type Counter = C;
    type Cells = S;
    const CEILING: C = C::MAX;
    fn seq_counts(&self) -> &SeqCounts<C, S> {
        &self.counts
    }
}
