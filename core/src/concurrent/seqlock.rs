//! The seqlock behind the single-writer, interlocked and approximate histograms: a version
//! that brackets each reset, and the bucket array it protects (`SeqCounts`).

use core::marker::PhantomData;

use super::cell::{add_n_atomic, backoff, settle, AtomicCounter, Outside};
use super::fork;
use crate::config::ConfigError;
use crate::layout::Log2;
use crate::shape::{Shape, Slot, SAT};
use crate::view::View;

/// Optimistic read attempts before a read holds resets off.
#[cfg(not(loom))]
const OPTIMISTIC_READS: u32 = 8;

#[cfg(loom)]
std::thread_local! {
    // Under loom, one by default (a single overlapping reset reaches the slow path); a
    // model may choose 0 (start holding resets off) to explore the slow path alone. loom
    // runs a model's threads on the thread that called it, so this is per model.
    static LOOM_OPTIMISTIC_READS: core::cell::Cell<u32> = const { core::cell::Cell::new(1) };
}

/// Under loom: optimistic read attempts, for the models on this thread.
#[cfg(loom)]
#[doc(hidden)]
pub fn loom_set_optimistic_reads(n: u32) {
    LOOM_OPTIMISTIC_READS.with(|c| c.set(n));
}

/// Atomic buckets, outside counts and a seqlock version: the state of a
/// [`SeqHistogram`](super::SeqHistogram) (single writer, interlocked, approximate), whose
/// modes differ only in how they add to a cell.
///
/// `repr(C)`, what a record reads first: the cells and then the shape (whose layout and
/// first index come first), so that a record reads one cache line of a
/// [`DynHistogram`](super::DynHistogram), which holds it right after its record function.
#[repr(C)]
pub struct SeqCounts<C: AtomicCounter, S> {
    pub(crate) counts: S,
    pub(crate) shape: Shape,
    pub(crate) outside: Outside,
    pub(crate) version: Version,
    _counter: PhantomData<C>,
}

impl<C: AtomicCounter, S: super::CellStore<C>> SeqCounts<C, S> {
    /// Over `storage` (length `config.storage_len()`), which is zeroed.
    pub(crate) fn from_storage(shape: Shape, storage: S) -> Result<Self, ConfigError> {
        storage.fits(shape)?;
        fork::init();
        storage.for_each_run(&mut |_, run| {
            for c in run {
                C::store(c, C::ZERO);
            }
        });
        Ok(SeqCounts {
            shape,
            version: Version::new(),
            outside: Outside::new(),
            counts: storage,
            _counter: PhantomData,
        })
    }

    /// The cell of `slot` ([`Shape::slot`]), its sparse block made on first touch; `None`
    /// when the slot is outside the range or its block cannot be allocated (see
    /// [`SeqCounts::record_outside_atomic`]).
    #[inline(always)]
    pub(crate) fn cell(&self, slot: Slot) -> Option<&C::Atomic> {
        self.counts.get_or_make_slot(slot)
    }

    /// The cell of `v` for a record, in one step from the value ([`SeqCounts::cell`] of
    /// its slot, the logarithm taken with `log2`).
    #[inline(always)]
    pub(crate) fn cell_of(&self, v: u64, log2: Log2) -> Option<&C::Atomic> {
        self.cell(self.shape.slot(v, log2))
    }

    /// The cell of `slot` if it exists: as [`SeqCounts::cell`], but `None` also where its
    /// sparse block is not made yet (a hot path without the call that makes it).
    #[inline(always)]
    pub(crate) fn existing_cell(&self, slot: Slot) -> Option<&C::Atomic> {
        self.counts.existing_slot(slot)
    }

    /// The cells of dense storage; `None` for sparse storage.
    #[inline(always)]
    pub(crate) fn dense(&self) -> Option<&[C::Atomic]> {
        self.counts.as_dense()
    }

    /// The first cell of dense storage; null for sparse storage.
    pub(crate) fn cells_ptr(&self) -> *const C::Atomic {
        self.counts
            .as_dense()
            .map_or(core::ptr::null(), <[C::Atomic]>::as_ptr)
    }

    /// Count `n` occurrences of `v` with a compare-exchange, saturating at
    /// [`AtomicCounter::INTERLOCKED_MAX`] (what did not fit goes to the saturated count).
    #[inline]
    pub(crate) fn record_n_atomic(&self, v: u64, n: u64) {
        if !self.add_n_atomic_at(self.shape.slot(v, Log2::ANY_CPU), n) {
            self.record_outside_atomic(v, n);
        }
    }

    /// Count `n` in the cell of `slot` as [`SeqCounts::record_n_atomic`] does; `false`
    /// (nothing counted) when the slot has no cell.
    #[inline]
    pub(crate) fn add_n_atomic_at(&self, slot: Slot, n: u64) -> bool {
        let Some(c) = self.cell(slot) else {
            return false;
        };
        let excess = add_n_atomic::<C>(c, n, C::INTERLOCKED_MAX);
        if excess != 0 {
            self.outside.add_atomic(SAT, excess);
        }
        true
    }

    /// An interlocked increment of `c` found the bucket at its ceiling: bring it back and
    /// count the surplus as saturated (the cold half of
    /// [`super::cell::increment_atomic`]).
    #[cold]
    #[inline(never)]
    pub(crate) fn settle_atomic(&self, c: &C::Atomic) {
        let excess = settle::<C>(c);
        if excess != 0 {
            self.outside.add_atomic(SAT, excess);
        }
    }

    /// Add to the underflow, overflow and saturated counts (for merges; any thread;
    /// each saturates at `u64::MAX`).
    pub(crate) fn add_outside(&self, outside: [u64; 3]) {
        for (which, n) in outside.into_iter().enumerate() {
            if n != 0 {
                self.outside.add_atomic(which, n);
            }
        }
    }

    /// Count `n` occurrences of `v` that have no cell: underflow or overflow for a value
    /// outside the range, saturated for one whose sparse block could not be allocated
    /// (any thread).
    #[cold]
    #[inline(never)]
    pub(crate) fn record_outside_atomic(&self, v: u64, n: u64) {
        self.outside.add_atomic(self.shape.uncounted_kind(v), n);
    }

    /// Copy the counts into `scratch` with the seqlock protocol: the copy never mixes
    /// counts from before and after a reset. Each bucket is read once, at some moment of
    /// the pass; counts only grow between resets, so the copy is what a pause of the
    /// writers somewhere in the pass could have shown bucket by bucket.
    ///
    /// A read is optimistic a few times (8); after that it holds new resets off
    /// ([`Version::hold_resets`]) until its copy is made, so resets run back to back cannot
    /// starve it: at most one reset per resetting thread can still slip in.
    pub(crate) fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.shape.check_len(scratch.len())?;
        let (outside, resets) = self.read_consistently(|| self.try_copy(scratch));
        Ok(View::new(self.shape, scratch, outside, resets))
    }

    /// Run `attempt` (one seqlock read, `None` when a reset overlapped it) until it
    /// succeeds: optimistically a few times, then holding new resets off, as
    /// [`SeqCounts::read_into`] describes.
    pub(crate) fn read_consistently<R>(&self, attempt: impl FnMut() -> Option<R>) -> R {
        read_consistently(&self.version, attempt)
    }

    /// [`SeqCounts::read_into`], then each bucket of the copy above `ceiling` brought back
    /// to it. An interlocked bucket is above its ceiling only while increments are in
    /// flight (see [`AtomicCounter::INTERLOCKED_MAX`]); their surplus is not yet counted
    /// as saturated, so the copy leaves it out, as it leaves out records that have not
    /// landed. Without this a copy could count such an increment twice: in the bucket,
    /// read before the surplus moved, and in the saturated count, read after.
    pub(crate) fn read_capped<'a>(
        &self,
        scratch: &'a mut [C],
        ceiling: C,
    ) -> Result<View<'a, C>, ConfigError> {
        let (outside, resets) = {
            let view = self.read_into(scratch)?;
            (view.outside(), view.reset_count())
        };
        if ceiling != C::MAX {
            for c in scratch.iter_mut() {
                *c = (*c).min(ceiling);
            }
        }
        Ok(View::new(self.shape, scratch, outside, resets))
    }

    /// One pass of the seqlock read: the outside counts and the reset count when no reset
    /// overlapped the copy, `None` (retry) when one did.
    #[inline]
    fn try_copy(&self, scratch: &mut [C]) -> Option<([u64; 3], u64)> {
        let v = self.version.read_begin();
        match self.counts.as_dense() {
            Some(cells) => {
                for (dst, c) in scratch.iter_mut().zip(cells) {
                    *dst = C::load(c);
                }
            }
            None => {
                scratch.fill(C::ZERO);
                self.counts.for_each_run(&mut |start, run| {
                    for (dst, c) in scratch[start..].iter_mut().zip(run) {
                        *dst = C::load(c);
                    }
                });
            }
        }
        let outside = self.outside.load();
        self.version
            .read_validate(v)
            .then(|| (outside, self.version.resets(v)))
    }

    /// Take every count to zero (each bucket by an atomic swap, so a concurrent interlocked
    /// add lands either before the reset, and is cleared, or after, and is kept), inside
    /// the seqlock's write section so readers retry instead of seeing a half-cleared copy.
    pub(crate) fn reset(&self) {
        // A fork waits for the reset to end: a child must not start with an odd version.
        let _section = fork::enter();
        let odd = self.version.write_begin();
        self.counts.for_each_run(&mut |_, run| {
            for c in run {
                C::swap(c, C::ZERO);
            }
        });
        self.outside.take();
        self.version.write_end(odd);
    }

    /// Move every count into `scratch` (length `shape.len()`) and leave zeros: a reset that
    /// hands back what it cleared. Each bucket is taken by one atomic swap, so an
    /// interlocked add lands either before it (and is in the copy) or after it (and stays
    /// for the next interval); the outside counts are swapped after the buckets, so a
    /// surplus that a thread moves from a bucket to the saturated count is taken once too.
    /// Runs inside the seqlock's write section like [`SeqCounts::reset`]: readers never
    /// see half of it, records never wait for it. The view reports the reset count from
    /// before (the interval belongs to that epoch); the collect counts as one reset.
    pub(crate) fn collect_into<'a>(
        &self,
        scratch: &'a mut [C],
    ) -> Result<View<'a, C>, ConfigError> {
        self.shape.check_len(scratch.len())?;
        let _section = fork::enter();
        let odd = self.version.write_begin();
        scratch.fill(C::ZERO);
        self.counts.for_each_run(&mut |start, run| {
            for (dst, c) in scratch[start..].iter_mut().zip(run) {
                *dst = C::swap(c, C::ZERO);
            }
        });
        let outside = self.outside.take();
        self.version.write_end(odd);
        let resets = self.version.resets(odd.wrapping_sub(1));
        Ok(View::new(self.shape, scratch, outside, resets))
    }

    /// Completed resets so far (wrapping).
    pub(crate) fn reset_count(&self) -> u64 {
        self.version.resets(self.version.read_begin())
    }

    /// Bytes of counters (allocated now, for sparse storage).
    pub(crate) fn footprint(&self) -> usize {
        self.counts.footprint()
    }

    /// The storage kind.
    pub(crate) fn storage(&self) -> super::Storage {
        self.counts.storage()
    }

    /// Add every count of `other` (same relative error, any range) as records of a mode
    /// whose writers all add atomically (interlocked, approximate): compare-exchange adds
    /// saturating at [`AtomicCounter::INTERLOCKED_MAX`], from any thread.
    pub(crate) fn add_atomic<C2: crate::Counter>(
        &self,
        other: &View<'_, C2>,
    ) -> Result<(), crate::MergeError> {
        crate::merge::add_view(
            &self.shape,
            other,
            |slot, n| self.add_n_atomic_at(slot, n),
            |v, n| self.record_n_atomic(v, n),
            |o| self.add_outside(o),
        )
    }
}

impl<C: AtomicCounter, S> core::fmt::Debug for SeqCounts<C, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SeqCounts")
            .field("config", &self.shape.config())
            .finish_non_exhaustive()
    }
}

/// The default storage of the seqlock modes: a box of cells with `alloc`, a borrowed
/// slice without.
#[cfg(feature = "alloc")]
pub type DefaultCells<C> = alloc::boxed::Box<[<C as AtomicCounter>::Atomic]>;
/// The default storage of the seqlock modes: a box of cells with `alloc`, a borrowed
/// slice without.
#[cfg(not(feature = "alloc"))]
pub type DefaultCells<C> = &'static [<C as AtomicCounter>::Atomic];

/// Run `attempt` (one read under `version`, `None` when a reset overlapped it) until it
/// succeeds: optimistically a few times, then holding new resets off, so resets run back
/// to back cannot starve a reader.
pub(crate) fn read_consistently<R>(version: &Version, mut attempt: impl FnMut() -> Option<R>) -> R {
    let mut spins = 0;
    #[cfg(loom)]
    let optimistic = LOOM_OPTIMISTIC_READS.with(core::cell::Cell::get);
    #[cfg(not(loom))]
    let optimistic = OPTIMISTIC_READS;
    for _ in 0..optimistic {
        if let Some(r) = attempt() {
            return r;
        }
        backoff(&mut spins);
    }
    // A fork must not copy the hold into a child (its resets would wait forever).
    let _section = fork::enter();
    let _hold = version.hold_resets();
    loop {
        if let Some(r) = attempt() {
            return r;
        }
        backoff(&mut spins);
    }
}

/// A seqlock version: even when no reset runs, odd while one does. Readers copy the counts
/// between two loads of the version and retry when it changed or was odd; resets take it
/// from even to odd (excluding each other), clear, and make it even again.
///
/// The protocol is the classic one (Boehm, "Can seqlocks get along with programming
/// language memory models?", 2012): the data are atomics read and written `Relaxed`; the
/// reader puts an acquire fence between its data loads and its second version load; the
/// writer a release fence between making the version odd and its first data store.
///
/// Resets run back to back could make a reader retry forever, so a reader that failed a
/// few times *holds resets off* ([`Version::hold_resets`]): `held` counts such readers, and
/// a reset does not start while it is non-zero. The hold is `SeqCst` on both sides (the
/// reader's increment and a fence before its next version load; the reset's load of `held`
/// and its compare-exchange of the version): a reset that starts after a reader's copy
/// began, and so spoils it, read `held` before the reader raised it, and a thread's next
/// reset reads it after. So each resetting thread spoils at most one held read, and the
/// reader is done after a bounded number of passes. Records never touch the version.
pub(crate) struct Version {
    seq: <u32 as AtomicCounter>::Atomic,
    held: <u32 as AtomicCounter>::Atomic,
}

impl core::fmt::Debug for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.seq.fmt(f)
    }
}

/// A reader's hold on resets: released on drop.
pub(crate) struct ResetHold<'a>(&'a Version);

impl Drop for ResetHold<'_> {
    fn drop(&mut self) {
        self.0.release_hold();
    }
}

impl Version {
    pub(crate) fn new() -> Self {
        Version {
            seq: u32::new_cell(0),
            held: u32::new_cell(0),
        }
    }

    /// Number of completed resets (wrapping; only compared for equality).
    pub(crate) fn resets(&self, even: u32) -> u64 {
        u64::from(even / 2)
    }

    /// Keep new resets from starting until the hold is dropped (a reset in progress ends
    /// normally). For a reader that optimistic retries failed.
    pub(crate) fn hold_resets(&self) -> ResetHold<'_> {
        self.raise_hold();
        ResetHold(self)
    }
}

#[cfg(picollo_native_cells)]
mod native;
#[cfg(all(picollo_native_cells, picollo_float))] // the float histogram's sums
pub(crate) use native::{acquire_fence, release_fence};
#[cfg(picollo_cs_cells)]
mod cs;
#[cfg(all(picollo_cs_cells, picollo_float))] // the float histogram's sums
pub(crate) use cs::{acquire_fence, release_fence};
