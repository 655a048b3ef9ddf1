//! What every concurrency mode does, as two traits: [`ModePath`], the part that does not name
//! the counter width (the record rule among it), and [`RecordPath`], the rest.
//!
//! A mode is a type. The three modes kept under a seqlock are one histogram,
//! [`super::SeqHistogram`], generic over its counter width, its cell store and its mode
//! ([`super::SeqMode`]: [`super::SingleWriter`], [`super::Interlocked`],
//! [`super::Approximate`], each in its own file), which implements both traits once, in
//! `seq_histogram.rs`; the thread-local mode ([`super::LocalHistogram`]) implements them in
//! its own file. [`super::ConcurrentHistogram`] and [`super::DynHistogram`] hold one behind
//! a pointer; the record functions of the C ABI are generic over the mode's type
//! ([`super::RecordFn`]). A new seqlock mode is a new `SeqMode` type; any new mode also
//! takes its [`Mode`] variant and entry in [`Mode::ALL`] here, and its rows in `modes.rs`,
//! the one place that builds every mode.

use super::live::LiveView;
use super::{ApproxPolicy, AtomicCounter, Collect, Shaped, Source, Storage, XorShift64};
use crate::batch::{BatchPath, Fold, Offsets, Sink, PIPE};
use crate::layout::Log2;
use crate::merge::MergeError;
use crate::shape::Slot;
use crate::view::View;

/// How a concurrent histogram counts. The threading rules of each mode are written once,
/// in the [module docs](super).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Mode {
    /// One writer at a time, reads from any thread ([`super::SharedHistogram`]).
    #[default]
    SingleWriter,
    /// Relaxed atomic adds ([`super::AtomicHistogram`]).
    Interlocked,
    /// One shard per writer thread ([`super::LocalHistogram`]; needs `std`).
    #[cfg(feature = "std")]
    ThreadLocal,
    /// Scalable approximate buckets ([`super::ApproxHistogram`]).
    Approximate(ApproxPolicy),
}

impl Mode {
    /// Every mode (the approximate one with the default policy), in the order of the
    /// [module docs](super): the one list that tests and benchmarks iterate, so that a new
    /// mode is covered wherever they are.
    #[cfg(feature = "std")]
    pub const ALL: &'static [Mode] = &[
        Mode::SingleWriter,
        Mode::Interlocked,
        Mode::ThreadLocal,
        Mode::Approximate(ApproxPolicy::new()),
    ];

    /// Every mode (the approximate one with the default policy); the thread-local mode
    /// needs `std`.
    #[cfg(not(feature = "std"))]
    pub const ALL: &'static [Mode] = &[
        Mode::SingleWriter,
        Mode::Interlocked,
        Mode::Approximate(ApproxPolicy::new()),
    ];
}

/// The counts a merge adds or subtracts, of either counter width: what a mode's
/// [`ModePath::add_counts`] takes, so that the trait stays usable behind a pointer.
#[derive(Clone, Copy, Debug)]
pub enum Counts<'v, 'a> {
    /// `u32` counters.
    U32(&'v View<'a, u32>),
    /// `u64` counters.
    U64(&'v View<'a, u64>),
}

impl Counts<'_, '_> {
    /// `f32` on `u32` counts, `f64` on `u64` counts (each mode's generic merge, named
    /// twice so that it is compiled for both widths).
    pub fn apply<R>(
        self,
        f32: impl FnOnce(&View<'_, u32>) -> R,
        f64: impl FnOnce(&View<'_, u64>) -> R,
    ) -> R {
        match self {
            Counts::U32(v) => f32(v),
            Counts::U64(v) => f64(v),
        }
    }
}

/// Run `f` on `view` as [`Counts`]: as it is for `u32` and `u64` counters, through a copy
/// widened to `u64` for any other [`crate::Counter`] type; [`crate::OutOfMemory`] when that copy
/// cannot be allocated.
#[cfg(feature = "alloc")]
pub(crate) fn with_counts<C: crate::Counter, R>(
    view: &View<'_, C>,
    f: impl FnOnce(Counts<'_, '_>) -> R,
) -> Result<R, crate::OutOfMemory> {
    let id = core::any::TypeId::of::<C>();
    if id == core::any::TypeId::of::<u32>() {
        // SAFETY: `C` is `u32` (same type id), so the two view types are the same type.
        return Ok(f(Counts::U32(unsafe {
            &*(view as *const View<'_, C>).cast::<View<'_, u32>>()
        })));
    }
    if id == core::any::TypeId::of::<u64>() {
        // SAFETY: `C` is `u64` (same type id), as above.
        return Ok(f(Counts::U64(unsafe {
            &*(view as *const View<'_, C>).cast::<View<'_, u64>>()
        })));
    }
    Ok(f(Counts::U64(&widened(view)?.view())))
}

/// A copy of `view` with `u64` counters (same shape and outside counts);
/// [`crate::OutOfMemory`] when it cannot be allocated.
#[cfg(feature = "alloc")]
pub(crate) fn widened<C: crate::Counter>(
    view: &View<'_, C>,
) -> Result<crate::Histogram<u64, alloc::vec::Vec<u64>>, crate::OutOfMemory> {
    let mut wide = <u64 as crate::Counter>::try_zeroes(view.shape().len())?;
    for (w, &n) in wide.iter_mut().zip(view.counts()) {
        *w = n.to_u64();
    }
    Ok(crate::Histogram::from_parts(
        view.shape(),
        wide,
        view.outside(),
    ))
}

/// What a concurrency mode does without naming its counter width: its common record path
/// and the path for what that declines, exact adds, merges, reset and the direct path for
/// code that inlines the record. Implemented by each mode's type in its own file; the part
/// that names the width is [`RecordPath`]. Object-safe, so that a histogram whose width is
/// chosen at run time ([`super::DynHistogram`]) reaches every mode through one pointer.
///
/// The record is the mode's one rule: [`ModePath::record_fast_in`] (the common path, no
/// call, no panic, no allocation) or else [`ModePath::record_declined`] (out of line).
pub trait ModePath: Shaped + Send + Sync + core::fmt::Debug {
    /// The mode.
    fn mode(&self) -> Mode;

    /// The storage kind.
    fn storage(&self) -> Storage;

    /// Count `v` on the common path, taking the logarithm with `log2`, and return true;
    /// return false, counting nothing, where the mode leaves the record to
    /// [`ModePath::record_declined`].
    fn record_fast_in(&self, v: u64, log2: Log2) -> bool;

    /// Count `v` where [`ModePath::record_fast_in`] declined it.
    fn record_declined(&self, v: u64);

    /// [`ModePath::record_fast_in`] with `v`'s slot computed beforehand (the batch record's
    /// second step): the same answer, the same count.
    fn record_slot_in(&self, v: u64, slot: Slot) -> bool;

    /// Count every value of `values`: their offsets computed on `path` a chunk at a time
    /// ([`BatchPath`]), then each counted as [`ModePath::record`] counts it.
    fn record_batch(&self, values: &[u64], path: BatchPath) {
        record_batch_by_slot(self, values, path);
    }

    /// Count one occurrence of `v`: the common path, or else the declined one. The one
    /// record rule of every mode (each mode's `record` is this).
    #[inline(always)]
    fn record(&self, v: u64) {
        if !self.record_fast(v) {
            self.record_declined(v);
        }
    }

    /// [`ModePath::record_fast_in`] with the logarithm any CPU takes.
    #[inline(always)]
    fn record_fast(&self, v: u64) -> bool {
        self.record_fast_in(v, Log2::ANY_CPU)
    }

    /// Count one occurrence of `v`, flipping the approximate mode's coins with `rng`; the
    /// other modes ignore it.
    fn record_with(&self, v: u64, rng: &mut XorShift64) {
        let _ = rng;
        self.record(v);
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    fn record_n(&self, v: u64, n: u64);

    /// Record `v` with coordinated-omission correction, as
    /// [`crate::Histogram::record_corrected`] defines it (exact in every mode: the
    /// corrections are added with `record_n`).
    fn record_corrected(&self, v: u64, expected_interval: u64) {
        self.record(v);
        let shape = self.shape();
        crate::histogram::corrected_runs(&shape, v, expected_interval, |x, n| self.record_n(x, n));
    }

    /// Count `n` records as saturated (a record its slow path could not count).
    fn add_saturated(&self, n: u64);

    /// Add every count of `other` (same relative error, any range), landing like records.
    fn add_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError>;

    /// Remove every count of `other`: the single-writer mode, from the writer thread; the
    /// other modes answer [`MergeError::Unsupported`].
    fn subtract_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        let _ = other;
        Err(MergeError::Unsupported)
    }

    /// Reset (see the [module docs](super) for each mode's semantics).
    fn reset(&self);

    /// How the calling thread can count without a call ([`DirectPath`]); none by default.
    fn direct_path(&self) -> DirectPath {
        DirectPath::CALL
    }
}

/// What a concurrency mode does with counters of width `C`: its [`ModePath`], queries in
/// place, and, from [`Source`] and [`Collect`], the queries on a consistent copy and the
/// take-and-reset. Implemented by each mode's type in its own file.
pub trait RecordPath<C: AtomicCounter>: ModePath + Source<C> + Collect<C> {
    /// Run `query` on the live cells read in place and return true; false (nothing run)
    /// where the counts need a copy (the thread-local mode's shards).
    fn query_live(&self, query: &mut dyn FnMut(LiveView<'_, C>)) -> bool {
        let _ = query;
        false
    }
}

/// How the calling thread can record into a [`super::DynHistogram`] without a call, for
/// code outside Rust that inlines the record (the C header's `picollo_recorder_record`):
/// find the storage offset of `v` with the layout, then, in range, count in `cells` as
/// `kind` says while the cell holds less than `limit`; anything else goes through
/// [`super::DynHistogram::record`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectPath {
    /// How a cell is counted.
    pub kind: DirectKind,
    /// The first of `storage_len()` cells of the histogram's counter width; null with
    /// [`DirectKind::Call`].
    pub cells: *const (),
    /// Cells holding this count or more go through [`super::DynHistogram::record`] (the
    /// counter's maximum for plain adds; the interlocked ceiling less the in-flight margin
    /// for atomic ones).
    pub limit: u64,
}

/// How a [`DirectPath`] counts a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectKind {
    /// A relaxed atomic load, then a relaxed atomic store of one more: the single-writer
    /// mode (the writer's thread, one at a time) and the thread-local mode (the thread's
    /// own shard, on that thread only).
    Plain,
    /// A relaxed `fetch_add` of 1, nothing read before it: the interlocked mode, any
    /// thread. When the count it returns is `limit` or more, a relaxed `fetch_sub` of 1
    /// takes the add back and the record goes through [`super::DynHistogram::record`]
    /// (which settles a bucket at its ceiling): every step adds or moves counts, none is
    /// lost.
    Atomic,
    /// No direct path: every record goes through [`super::DynHistogram::record`] (the
    /// approximate mode; the thread-local mode at its shard cap; sparse storage).
    Call,
}

impl DirectPath {
    /// No direct path: record through a call.
    pub(crate) const CALL: DirectPath = DirectPath {
        kind: DirectKind::Call,
        cells: core::ptr::null(),
        limit: 0,
    };

    /// The path over `cells` of counter width `C`, counted as `kind` says; no direct
    /// path where `cells` is null (sparse storage, whose cells are not one array) or
    /// `kind` is [`DirectKind::Call`].
    pub(crate) fn over<C: AtomicCounter>(kind: DirectKind, cells: *const C::Atomic) -> DirectPath {
        if cells.is_null() || kind == DirectKind::Call {
            return DirectPath::CALL;
        }
        let limit = match kind {
            DirectKind::Plain => C::MAX.to_u64(),
            _ => C::INTERLOCKED_MAX.to_u64() - super::cell::IN_FLIGHT_MAX,
        };
        DirectPath {
            kind,
            cells: cells as *const (),
            limit,
        }
    }
}

/// [`ModePath::record_batch`] through [`ModePath::record_slot_in`]: each value counted at
/// its offset as the mode's record counts it, the offsets of the next chunk computed between
/// these adds ([`Offsets::pipeline`]).
pub(crate) fn record_batch_by_slot<P: ModePath + ?Sized>(p: &P, values: &[u64], path: BatchPath) {
    let offsets = Offsets::new(&p.shape());
    let first = offsets.first();
    offsets.pipeline(path, values, &mut ModeSink { path: p, first });
}

/// A mode's batch counted slot by slot. The chunk's fold is not used: a histogram with
/// exact extremes notes them itself.
struct ModeSink<'a, P: ?Sized> {
    path: &'a P,
    /// The shape's first logical index (offset + first = the slot's index).
    first: usize,
}

impl<P: ModePath + ?Sized> Sink for ModeSink<'_, P> {
    #[inline(always)]
    fn fold(&mut self, _: &Fold) {}

    #[inline(always)]
    fn add(&mut self, values: &[u64], offsets: &[u64]) {
        for (&v, &o) in values.iter().zip(offsets) {
            let offset = o as usize;
            let slot = Slot {
                index: offset.wrapping_add(self.first),
                offset,
            };
            if !self.path.record_slot_in(v, slot) {
                self.path.record_declined(v);
            }
        }
    }
}

/// One writer's batch into `cells`, held as a slice for the whole batch (the single
/// writer's dense storage, a thread's shard): each value counted with a plain load and
/// store, tested for a full cell (left to [`ModePath::record_declined`]) unless no cell
/// can fill ([`super::cell::plain_batch_cannot_fill`]).
pub(crate) fn plain_batch<P: ModePath + ?Sized, C: AtomicCounter>(
    p: &P,
    cells: &[C::Atomic],
    values: &[u64],
    path: BatchPath,
) {
    if super::cell::plain_batch_cannot_fill::<C>(cells, values.len()) {
        let count = |c: &C::Atomic| {
            C::store(c, C::load(c).increment());
            true
        };
        cell_batch(p, cells, values, path, count);
    } else {
        let count = |c: &C::Atomic| super::cell::increment_plain::<C>(c) == 0;
        cell_batch(p, cells, values, path, count);
    }
}

/// A batch into `cells` held as a slice for the whole batch, each value's cell counted by
/// `count` ([`CellSink`]), the offsets on `path`.
#[inline(always)]
pub(crate) fn cell_batch<P: ModePath + ?Sized, A, F: Fn(&A) -> bool>(
    p: &P,
    cells: &[A],
    values: &[u64],
    path: BatchPath,
    count: F,
) {
    let mut sink = CellSink {
        path: p,
        cells,
        count,
        left: [0; PIPE],
        n: 0,
    };
    Offsets::new(&p.shape()).pipeline(path, values, &mut sink);
    sink.settle();
}

/// A batch counted in cells held as a slice for the whole batch (dense storage, a thread's
/// shard): each value's cell counted by `count`, or else (outside the cells, or `count`
/// declining) the value is kept in `left` and goes to [`ModePath::record_declined`] at the
/// chunk's end (`settle`). The adds' loop calls nothing, so the offsets' constants stay in
/// vector registers (a call there, even one never taken, clobbers them all, and they were
/// reloaded from the stack for each part: 1.1–1.27× the plain histogram's batch). The order
/// changes no count: a cell that declined a value declines it still at the chunk's end
/// (outside stays outside; full stays full under its one writer, unless a collect empties
/// it meanwhile, and then the value counts as a record made after that collect).
struct CellSink<'a, P: ?Sized, A, F> {
    path: &'a P,
    cells: &'a [A],
    count: F,
    /// The chunk's declined values (a chunk is at most [`PIPE`] values: [`Sink::fold`]).
    left: [u64; PIPE],
    n: usize,
}

impl<P: ModePath + ?Sized, A, F> CellSink<'_, P, A, F> {
    /// The declined values of the chunk, each to the declined path, in their order.
    #[inline(never)]
    fn settle(&mut self) {
        // The slice's own bound checks the chunk's contract (at most `PIPE` declined).
        let n = core::mem::take(&mut self.n);
        self.left[..n]
            .iter()
            .for_each(|&v| self.path.record_declined(v));
    }
}

impl<P: ModePath + ?Sized, A, F: Fn(&A) -> bool> Sink for CellSink<'_, P, A, F> {
    #[inline(always)]
    fn fold(&mut self, _: &Fold) {
        if self.n != 0 {
            self.settle();
        }
    }

    /// A value is read only where its cell declines it (zipped with the offsets, each
    /// value was loaded in the loop, a load a record for nothing).
    #[inline(always)]
    fn add(&mut self, values: &[u64], offsets: &[u64]) {
        // A copy in registers: for the compiler, a count's store might change the sink.
        let cells = self.cells;
        for (i, &o) in offsets.iter().enumerate() {
            let cell = usize::try_from(o).ok().and_then(|o| cells.get(o));
            if !cell.is_some_and(&self.count) {
                // `% PIPE`: no bounds test (a chunk declines at most `PIPE` values).
                self.left[self.n % PIPE] = values[i];
                self.n += 1;
            }
        }
    }
}
