//! The interlocked histogram: any number of writers, one relaxed atomic add per record.

use super::cell::{increment_atomic, AtomicCounter};
use super::live::{self, LiveView};
use super::path::{Counts, DirectKind, DirectPath, Mode, ModePath, RecordPath};
use super::seqlock::{DefaultCells, SeqCounts, SeqMode};
use super::{CellStore, Sealed, Storage};
use crate::config::{Config, ConfigError};
use crate::layout::Log2;
use crate::merge::MergeError;
use crate::shape::Shape;
use crate::view::View;

/// A histogram any number of threads record into at once, with one relaxed atomic add
/// (`lock xadd` on x86) per record: exact, but writers hitting the same cache line slow
/// each other down (see [`super::LocalHistogram`] for the scalable mode).
///
/// # Saturation
/// A bucket holds at most [`AtomicCounter::INTERLOCKED_MAX`] (`u32`: 4,290,772,991, that
/// is `u32::MAX − 2²²`; `u64`: `u64::MAX − 2²²`), not `C::MAX`: a lone `fetch_add`
/// cannot stop at a limit, so the margin absorbs the increments in flight (the constant's
/// docs give the argument). Records past the ceiling are counted as saturated, exactly
/// once the writers are done; no bucket ever wraps, and no copy shows one above the
/// ceiling. Underflow, overflow and saturated counts stop at `u64::MAX`.
///
/// # Reads, reset, snapshots
/// - [`Source::read_into`](super::Source::read_into) copies the counts with the seqlock protocol (a reset
///   overlapping the copy makes it retry). Writers keep adding during the copy: each bucket
///   is read once, so the copy holds, per bucket, every record that landed before its read.
/// - [`AtomicHistogram::reset`] takes each bucket to zero with an atomic swap: a record
///   racing it is either cleared with the rest or counted after the reset, never written
///   back over the zero, so there is no "old+1" corruption. After a reset, a bucket holds
///   exactly the records whose add followed the swap.
/// - [`Collect::collect`](super::Collect::collect) is that reset handing back what each swap
///   took: **exact** while any number of threads record (each add lands in exactly one
///   interval).
#[derive(Debug)]
pub struct AtomicHistogram<C: AtomicCounter, S = DefaultCells<C>> {
    counts: SeqCounts<C, S>,
}

impl<C: AtomicCounter, S: CellStore<C>> AtomicHistogram<C, S> {
    /// A histogram over `storage` (`config.storage_len()` cells, zeroed here).
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?, storage)
    }

    /// A histogram of a checked `shape` over `storage` (`shape.len()` cells, zeroed here).
    pub fn from_shape(shape: Shape, storage: S) -> Result<Self, ConfigError> {
        let counts = SeqCounts::from_storage(shape, storage)?;
        Ok(AtomicHistogram { counts })
    }

    /// The cells (`shape().len()` of them), for a writer outside Rust that counts as
    /// [`AtomicHistogram::record_fast`] does: a relaxed atomic add of 1 to a cell found
    /// below [`DirectPath::limit`](super::DirectPath), everything else through
    /// [`AtomicHistogram::record`].
    pub fn cells_ptr(&self) -> *const C::Atomic {
        self.counts.cells_ptr()
    }

    /// Count one occurrence of `v` (any thread, any time): one `fetch_add` (see
    /// `increment_atomic`). A bucket saturates at [`AtomicCounter::INTERLOCKED_MAX`];
    /// what does not fit is counted as saturated.
    #[inline(always)]
    pub fn record(&self, v: u64)
    where
        Self: ModePath,
    {
        ModePath::record(self, v)
    }

    /// Count one occurrence of `v` and return true when `v` is in the range (one
    /// `fetch_add`; the rare add that finds its bucket at the ceiling settles it, out
    /// of line); otherwise return false, recording nothing.
    #[inline(always)]
    pub fn record_fast(&self, v: u64) -> bool
    where
        Self: ModePath,
    {
        ModePath::record_fast(self, v)
    }

    /// Count `n` occurrences of `v` exactly (one compare-exchange loop), saturating at
    /// [`AtomicCounter::INTERLOCKED_MAX`]; what did not fit is counted as saturated.
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        self.counts.record_n_atomic(v, n);
    }

    /// Clear every count, each bucket by an atomic swap to zero (see the type's docs); a
    /// reader never sees it half done (it retries).
    pub fn reset(&self) {
        self.counts.reset();
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; the counts land like records (exact, any thread).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        self.counts.add_atomic(other)
    }

    /// Run `query` on a view that reads the cells in place (no copy, no allocation); a
    /// query that a reset overlapped runs again. See [`LiveView`] for what concurrent
    /// records do to it.
    pub fn query_in_place<R>(&self, query: impl FnMut(LiveView<'_, C>) -> R) -> R {
        self.counts.read_live(Self::CEILING, query)
    }

    /// An add found its bucket at the ceiling: bring it back, counting the surplus as
    /// saturated.
    #[cold]
    #[inline(never)]
    fn settle(&self, c: &C::Atomic) {
        self.counts.settle_atomic(c);
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> AtomicHistogram<C> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        Self::from_shape(shape, super::cell::zeroed_cells::<C>(shape.len())?)
    }
}

impl<C: AtomicCounter, S> Sealed for AtomicHistogram<C, S> {}

/// Queries read the live cells in place, seqlock-validated.
impl<C, S> RecordPath<C> for AtomicHistogram<C, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
{
    fn query_live(&self, query: &mut dyn FnMut(LiveView<'_, C>)) -> bool {
        live::query_live(self, query)
    }
}

/// The interlocked mode's record: one `fetch_add` into the value's cell, any thread.
/// Behind a pointer ([`super::ConcurrentHistogram`], the C ABI's handle) its cells are
/// counted in place by C callers too (the direct path).
impl<C, S> ModePath for AtomicHistogram<C, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
{
    fn mode(&self) -> Mode {
        Mode::Interlocked
    }
    fn storage(&self) -> Storage {
        self.counts.storage()
    }

    /// The rare add that finds its bucket at the ceiling settles it, out of line.
    #[inline(always)]
    fn record_fast_in(&self, v: u64, log2: Log2) -> bool {
        match self.counts.cell_of(v, log2) {
            Some(c) => {
                if increment_atomic::<C>(c) {
                    self.settle(c);
                }
                true
            }
            None => false,
        }
    }

    /// Underflow or overflow, or saturated where a sparse block could not be allocated.
    #[inline(always)]
    fn record_declined(&self, v: u64) {
        self.counts.record_outside_atomic(v, 1);
    }

    fn record_n(&self, v: u64, n: u64) {
        AtomicHistogram::record_n(self, v, n)
    }
    fn add_saturated(&self, n: u64) {
        self.counts.add_outside([0, 0, n]);
    }
    fn add_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| self.add(v), |v| self.add(v))
    }
    fn reset(&self) {
        AtomicHistogram::reset(self)
    }
    fn direct_path(&self) -> DirectPath {
        DirectPath::over::<C>(DirectKind::Atomic, self.cells_ptr())
    }
}

impl<C: AtomicCounter, S: CellStore<C>> SeqMode for AtomicHistogram<C, S> {
    type Counter = C;
    type Cells = S;
    const CEILING: C = C::INTERLOCKED_MAX;
    fn seq_counts(&self) -> &SeqCounts<C, S> {
        &self.counts
    }
}
