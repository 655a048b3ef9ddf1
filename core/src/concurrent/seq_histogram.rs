//! The histogram of the three modes kept under a seqlock (single writer, interlocked,
//! approximate): one type, [`SeqHistogram`], generic over its mode ([`SeqMode`]), which
//! holds only what the modes do differently. Each mode's type and its `SeqMode` impl live in
//! the mode's own file.

use super::cell::AtomicCounter;
use super::live::LiveView;
use super::path::{
    cell_batch, plain_batch, record_batch_by_slot, Counts, DirectKind, DirectPath, Mode, ModePath,
    RecordPath,
};
use super::seqlock::{DefaultCells, SeqCounts};
use super::{CellStore, Collect, Sealed, Shaped, Source, Storage, XorShift64};
use crate::batch::BatchPath;
use crate::config::{Config, ConfigError};
use crate::layout::Log2;
use crate::merge::MergeError;
use crate::shape::{Shape, Slot};
use crate::view::View;

/// What a seqlock histogram's mode decides: how a record lands in a cell (the common path
/// and the declined one), how `n` records and a merge land, whether counts can be taken
/// back, and the mode's kind (its [`Mode`], its bucket ceiling, its [`DirectKind`]).
/// Everything else (storage, reads, reset, collect, queries in place) is [`SeqHistogram`]'s,
/// alike for every mode.
///
/// Implemented for every counter width `C` and cell store `S` by
/// [`SingleWriter`](super::SingleWriter), [`Interlocked`](super::Interlocked) and
/// [`Approximate`](super::Approximate), each in its own file; sealed. `record_n` and `add`
/// default to the exact compare-exchange adds of the two atomic modes and `subtract` to
/// [`MergeError::Unsupported`]; the single-writer mode overrides all three with plain
/// adds. A mode's value is kept in the histogram (the approximate mode's policy and
/// collision marks; nothing for the other two).
pub trait SeqMode<C: AtomicCounter, S: CellStore<C>>:
    Sealed + Send + Sync + core::fmt::Debug + Sized
{
    /// How C callers count in place ([`DirectPath`]); [`DirectKind::Call`] for none.
    const DIRECT: DirectKind;

    /// The count a bucket stops at: `C::MAX` for a single writer, whose compare comes
    /// before its store; [`AtomicCounter::INTERLOCKED_MAX`] for atomic adds.
    const CEILING: C;

    /// The mode.
    fn mode(&self) -> Mode;

    /// Count `v` on the common path, taking the logarithm with `log2`, and return true;
    /// return false, counting nothing, where the mode leaves `v` to
    /// [`SeqMode::record_declined`]. The hot path: no call, no panic, no allocation.
    fn record_fast_in(h: &SeqHistogram<C, Self, S>, v: u64, log2: Log2) -> bool;

    /// [`SeqMode::record_fast_in`] with `v`'s slot computed beforehand.
    fn record_slot_in(h: &SeqHistogram<C, Self, S>, v: u64, slot: Slot) -> bool;

    /// Whether [`SeqMode::count_in`] counts a record in a cell of dense storage as
    /// [`SeqMode::record_slot_in`] counts it there (a batch then finds its cells in the
    /// dense slice it holds); false where the mode needs the slot.
    const COUNTS_IN_CELL: bool = false;

    /// Count a record in `cell`, a cell of dense storage, and return true; false, counting
    /// nothing, where the record is left to [`SeqMode::record_declined`]. Called only where
    /// [`SeqMode::COUNTS_IN_CELL`] is true.
    #[inline(always)]
    fn count_in(h: &SeqHistogram<C, Self, S>, cell: &C::Atomic) -> bool {
        let _ = (h, cell);
        false
    }

    /// Count `v` where [`SeqMode::record_fast_in`] declined it (out of line).
    fn record_declined(h: &SeqHistogram<C, Self, S>, v: u64);

    /// Count one occurrence of `v` with the caller's generator `rng`; only the approximate
    /// mode flips coins, the others record as usual.
    #[inline(always)]
    fn record_with(h: &SeqHistogram<C, Self, S>, v: u64, rng: &mut XorShift64) {
        let _ = rng;
        if !Self::record_fast_in(h, v, Log2::ANY_CPU) {
            Self::record_declined(h, v);
        }
    }

    /// Count `n` occurrences of `v` exactly, saturating at the mode's ceiling (what did not
    /// fit is counted as saturated); by default with one compare-exchange loop, from any
    /// thread.
    #[inline]
    fn record_n(h: &SeqHistogram<C, Self, S>, v: u64, n: u64) {
        h.counts.record_n_atomic(v, n);
    }

    /// Add every count of `other` (same relative error, any range), landing like records;
    /// by default with exact compare-exchange adds, from any thread.
    fn add<C2: crate::Counter>(
        h: &SeqHistogram<C, Self, S>,
        other: &View<'_, C2>,
    ) -> Result<(), MergeError> {
        h.counts.add_atomic(other)
    }

    /// Remove every count of `other`: [`MergeError::Unsupported`] but in the single-writer
    /// mode (the others cannot take counts back while writers run).
    fn subtract<C2: crate::Counter>(
        h: &SeqHistogram<C, Self, S>,
        other: &View<'_, C2>,
    ) -> Result<(), MergeError> {
        let _ = (h, other);
        Err(MergeError::Unsupported)
    }
}

/// A concurrent histogram kept under a seqlock, counting as its mode `M` says: atomic
/// buckets over the cell store `S`, the outside counts, and a version that brackets each
/// reset. Reached by the names of its modes: [`SharedHistogram`](super::SharedHistogram)
/// (one writer at a time), [`AtomicHistogram`](super::AtomicHistogram) (interlocked) and
/// [`ApproxHistogram`](super::ApproxHistogram) (approximate), whose docs give each mode's
/// saturation, reads and reset.
///
/// `repr(C)`, the counts first (what a record reads: see `SeqCounts`), then the mode.
#[derive(Debug)]
#[repr(C)]
pub struct SeqHistogram<C: AtomicCounter, M, S = DefaultCells<C>> {
    pub(super) counts: SeqCounts<C, S>,
    pub(super) mode: M,
}

impl<C: AtomicCounter, S: CellStore<C>, M: SeqMode<C, S>> SeqHistogram<C, M, S> {
    /// A histogram of a checked `shape` counting as `mode` over `storage` (`shape.len()`
    /// cells, zeroed here).
    pub(super) fn with_mode(shape: Shape, mode: M, storage: S) -> Result<Self, ConfigError> {
        let counts = SeqCounts::from_storage(shape, storage)?;
        Ok(SeqHistogram { counts, mode })
    }

    /// The cells (`shape().len()` of them), for a writer outside Rust that counts in place
    /// as the mode's [`DirectPath`] says (a relaxed load and store for a single writer, a
    /// relaxed `fetch_add` below the limit for interlocked adds; the approximate mode has
    /// no such path) and hands everything else to `record`; null for sparse storage.
    pub fn cells_ptr(&self) -> *const C::Atomic {
        self.counts.cells_ptr()
    }

    /// Count one occurrence of `v`, as the mode's type says (for the single-writer mode,
    /// one writer at a time). Without `std` the approximate mode has no thread generator
    /// and adds exactly; [`ApproxHistogram::record_with`](super::ApproxHistogram) flips
    /// coins with the caller's.
    #[inline(always)]
    pub fn record(&self, v: u64)
    where
        Self: ModePath,
    {
        ModePath::record(self, v)
    }

    /// Count one occurrence of `v` on the mode's common path and return true; return
    /// false, recording nothing, where the mode leaves `v` to `record` (outside the range,
    /// a sparse block not made yet; a full bucket in the single-writer mode; every value of
    /// the approximate mode without `std`). A caller whose only work after a false is a
    /// call of `record` keeps its hot path free of calls.
    #[inline(always)]
    pub fn record_fast(&self, v: u64) -> bool
    where
        Self: ModePath,
    {
        ModePath::record_fast(self, v)
    }

    /// Count `n` occurrences of `v` exactly (a plain add for a single writer, one
    /// compare-exchange loop in the other modes), saturating at the mode's ceiling; what did
    /// not fit is counted as saturated.
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        M::record_n(self, v, n)
    }

    /// Clear every count (see the mode's type for a reset racing records); a reader never
    /// sees it half done (it retries).
    pub fn reset(&self) {
        self.counts.reset();
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; the counts land like records (exact; from the
    /// writer thread in the single-writer mode, any thread in the others).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        M::add(self, other)
    }

    /// Run `query` on a view that reads the cells in place (no copy, no allocation); a
    /// query that a reset overlapped runs again. See [`LiveView`] for what concurrent
    /// records do to it.
    pub fn query_in_place<R>(&self, query: impl FnMut(LiveView<'_, C>) -> R) -> R {
        self.counts.read_live(M::CEILING, query)
    }
}

/// The constructors of the modes that take no setting (single writer, interlocked); the
/// approximate mode's take its policy (`approximate.rs`).
impl<C: AtomicCounter, S: CellStore<C>, M: SeqMode<C, S> + Default> SeqHistogram<C, M, S> {
    /// A histogram over `storage` (`config.storage_len()` cells, zeroed here).
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?, storage)
    }

    /// A histogram of a checked `shape` over `storage` (`shape.len()` cells, zeroed here).
    pub fn from_shape(shape: Shape, storage: S) -> Result<Self, ConfigError> {
        Self::with_mode(shape, M::default(), storage)
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter, M: SeqMode<C, DefaultCells<C>> + Default> SeqHistogram<C, M> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        Self::from_shape(shape, super::cell::zeroed_cells::<C>(shape.len())?)
    }
}

impl<C: AtomicCounter, M, S> Sealed for SeqHistogram<C, M, S> {}

impl<C: AtomicCounter, S: CellStore<C>, M: SeqMode<C, S>> Shaped for SeqHistogram<C, M, S> {
    fn shape(&self) -> Shape {
        self.counts.shape
    }
    fn reset_count(&self) -> u64 {
        self.counts.reset_count()
    }
    fn footprint_in_bytes(&self) -> usize {
        self.counts.footprint()
    }
}

impl<C: AtomicCounter, S: CellStore<C>, M: SeqMode<C, S>> Source<C> for SeqHistogram<C, M, S> {
    /// The copy never mixes counts from before and after a reset (a reset that overlaps
    /// it makes it start again), and shows no bucket above the mode's ceiling.
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.counts.read_capped(scratch, M::CEILING)
    }
}

impl<C: AtomicCounter, S: CellStore<C>, M: SeqMode<C, S>> Collect<C> for SeqHistogram<C, M, S> {
    /// Every bucket taken by an atomic swap to zero inside the seqlock's write section;
    /// the mode's docs say what a record racing it becomes.
    fn collect_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.counts.collect_into(scratch)
    }
}

/// Queries read the live cells in place, seqlock-validated, up to the mode's ceiling.
impl<C, M, S> RecordPath<C> for SeqHistogram<C, M, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
    M: SeqMode<C, S>,
{
    fn query_live(&self, query: &mut dyn FnMut(LiveView<'_, C>)) -> bool {
        self.counts.read_live(M::CEILING, query);
        true
    }
}

/// The mode's record rule ([`SeqMode`]); storage, reset and the outside counts are the
/// seqlock's. Behind a pointer ([`super::ConcurrentHistogram`], the C ABI's handle) the
/// cells are counted in place by C callers too where the mode has a [`DirectPath`].
impl<C, M, S> ModePath for SeqHistogram<C, M, S>
where
    C: AtomicCounter,
    S: CellStore<C> + Send + Sync + core::fmt::Debug,
    M: SeqMode<C, S>,
{
    fn mode(&self) -> Mode {
        self.mode.mode()
    }
    fn storage(&self) -> Storage {
        self.counts.storage()
    }
    #[inline(always)]
    fn record_fast_in(&self, v: u64, log2: Log2) -> bool {
        M::record_fast_in(self, v, log2)
    }
    #[inline(always)]
    fn record_declined(&self, v: u64) {
        M::record_declined(self, v)
    }
    #[inline(always)]
    fn record_slot_in(&self, v: u64, slot: Slot) -> bool {
        M::record_slot_in(self, v, slot)
    }
    /// Where the mode counts in a cell and the storage is dense, the cells are found in
    /// the slice held for the batch (no store asked for each value's cell); the single
    /// writer's counts as `plain_batch` counts them.
    fn record_batch(&self, values: &[u64], path: BatchPath) {
        let Some(cells) = self.counts.dense().filter(|_| M::COUNTS_IN_CELL) else {
            return record_batch_by_slot(self, values, path);
        };
        if M::DIRECT == DirectKind::Plain {
            return plain_batch::<_, C>(self, cells, values, path);
        }
        cell_batch(self, cells, values, path, |c: &C::Atomic| {
            M::count_in(self, c)
        });
    }
    fn record_with(&self, v: u64, rng: &mut XorShift64) {
        M::record_with(self, v, rng)
    }
    fn record_n(&self, v: u64, n: u64) {
        M::record_n(self, v, n)
    }
    fn add_saturated(&self, n: u64) {
        self.counts.add_outside([0, 0, n]);
    }
    fn add_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| M::add(self, v), |v| M::add(self, v))
    }
    fn subtract_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| M::subtract(self, v), |v| M::subtract(self, v))
    }
    fn reset(&self) {
        self.counts.reset()
    }
    fn direct_path(&self) -> DirectPath {
        DirectPath::over::<C>(M::DIRECT, self.cells_ptr())
    }
}
