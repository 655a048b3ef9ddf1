//! Atomic cells for counters, the outside-count cells, and the `critical-section` fallback.
//!
//! Every concurrent histogram keeps its counts in cells of [`AtomicCounter::Atomic`]: the
//! native `AtomicU32`/`AtomicU64` where the target has them, otherwise (feature
//! `critical-section`) a plain value read and written inside `critical_section::with`. The
//! rest of the module only talks to the cells through [`AtomicCounter`], so the fallback is
//! chosen here, once.
//!
//! Which path is compiled:
//! - native atomics when the target has both 32- and 64-bit atomics (`target_has_atomic`);
//! - otherwise the critical-section cells, which need feature `critical-section` (without
//!   it, the `concurrent` module is not compiled on such a target);
//! - `--cfg picollo_force_cs` (with the feature) forces the fallback on any target, so the
//!   host's test suite can exercise it.

use crate::counter::Counter;

#[cfg(picollo_cs_cells)]
mod cs;
#[cfg(picollo_native_cells)]
mod native;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// A [`Counter`] that has an atomic cell type: `u32` ↔ `AtomicU32`, `u64` ↔ `AtomicU64`
/// (or the `critical-section` cells on targets without them; see the module source).
///
/// Every operation is `Relaxed`: a cell is a counter, not a flag. Ordering between a reset
/// and a reader comes from the histogram's version (seqlock) or its registry lock.
pub trait AtomicCounter: Counter + sealed::Sealed {
    /// The cell holding one bucket's count.
    type Atomic: Send + Sync + core::fmt::Debug;
    /// The most an **interlocked** bucket holds ([`super::AtomicHistogram`],
    /// [`super::ApproxHistogram`], [`super::ApproxCounter`]): [`Counter::MAX`] − 2²²,
    /// that is 4,290,772,991 for `u32` and 18,446,744,073,705,357,311 for `u64`. What does
    /// not fit is counted as saturated, as everywhere.
    ///
    /// Why not `MAX`: a record is one `fetch_add` (`lock xadd` on x86), which cannot stop at
    /// a limit. Each thread checks the count its add returned, and when the bucket is above
    /// the ceiling brings it back to the ceiling with a compare-exchange, moving the surplus
    /// to the saturated count. Between its add and the end of that check a thread's
    /// increment may sit above the ceiling; only one such increment per thread can be
    /// pending at a time, so the bucket never exceeds the ceiling by more than the number
    /// of threads recording at that instant. Linux caps the threads of a process
    /// at `PID_MAX_LIMIT` = 2²² (other systems allow fewer), so the margin of 2²² keeps
    /// every bucket from ever wrapping. A copy (`read_into`) shows at most the ceiling:
    /// it leaves out the surplus of increments still in flight, as it leaves out records
    /// that have not landed; once the threads are done, bucket + saturated is exact.
    ///
    /// Buckets with one writer ([`crate::Histogram`], [`super::SharedHistogram`], the
    /// shards of [`super::LocalHistogram`] and its sums) saturate at `MAX` exactly.
    const INTERLOCKED_MAX: Self;
    /// A new cell holding `v`.
    fn new_cell(v: Self) -> Self::Atomic;
    /// Relaxed load.
    fn load(c: &Self::Atomic) -> Self;
    /// Relaxed store.
    fn store(c: &Self::Atomic, v: Self);
    /// Relaxed wrapping add; returns the previous count (the histograms only add where
    /// [`AtomicCounter::INTERLOCKED_MAX`]'s argument rules out a wrap).
    fn fetch_add(c: &Self::Atomic, v: Self) -> Self;
    /// Relaxed swap; returns the previous count.
    fn swap(c: &Self::Atomic, v: Self) -> Self;
    /// Relaxed compare-exchange (may fail spuriously); `Err` holds the count seen.
    fn compare_exchange(c: &Self::Atomic, current: Self, new: Self) -> Result<Self, Self>;
    /// `n` cells of zero, allocated without aborting on failure (native atomics: from the
    /// allocator's zeroed memory, nothing written).
    #[cfg(feature = "alloc")]
    fn try_zeroed_cells(n: usize) -> Result<alloc::vec::Vec<Self::Atomic>, crate::OutOfMemory> {
        crate::oom::try_vec(n, || Self::new_cell(Self::ZERO))
    }
}

/// The most increments of one cell that can be in flight at once: Linux's
/// `PID_MAX_LIMIT` (2²²), which bounds the threads of a process (see
/// [`AtomicCounter::INTERLOCKED_MAX`]).
pub(crate) const IN_FLIGHT_MAX: u64 = 1 << 22;

/// The 64-bit cell used for underflow/overflow/saturated counts.
pub(crate) type Cell64 = <u64 as AtomicCounter>::Atomic;

/// `n` new zeroed cells, or [`crate::OutOfMemory`].
#[cfg(feature = "alloc")]
pub(crate) fn zeroed_cells<C: AtomicCounter>(
    n: usize,
) -> Result<alloc::boxed::Box<[C::Atomic]>, crate::OutOfMemory> {
    Ok(C::try_zeroed_cells(n)?.into_boxed_slice())
}

/// Wait a little in a retry loop (under loom: let another thread run).
#[inline]
pub(crate) fn backoff(spins: &mut u32) {
    *spins = spins.wrapping_add(1);
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(all(not(loom), feature = "std"))]
    if *spins % 64 == 0 {
        std::thread::yield_now();
        return;
    }
    #[cfg(not(loom))]
    core::hint::spin_loop();
}

/// Underflow, overflow and saturated counts as 64-bit cells.
#[derive(Debug)]
pub(crate) struct Outside([Cell64; 3]);

impl Outside {
    pub(crate) fn new() -> Self {
        Outside([u64::new_cell(0), u64::new_cell(0), u64::new_cell(0)])
    }

    /// Interlocked add (writers may race), saturating at `u64::MAX`: a compare-exchange
    /// loop, so the limit is exact. These counts are off the hot path (out-of-range values,
    /// saturation, merges). The saturated count itself can only saturate: past `u64::MAX`
    /// nothing is left to count the surplus in. Kept out of line: the loop would only
    /// crowd the registers of the record paths it is called from.
    #[inline(never)]
    pub(crate) fn add_atomic(&self, which: usize, n: u64) {
        let c = &self.0[which];
        let mut old = u64::load(c);
        while old != u64::MAX {
            match u64::compare_exchange(c, old, old.saturating_add(n)) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }

    /// Load + store (one writer at a time).
    #[inline]
    pub(crate) fn add_plain(&self, which: usize, n: u64) {
        let c = &self.0[which];
        u64::store(c, u64::load(c).saturating_add(n));
    }

    /// Load + store subtraction (one writer at a time; the caller checked `n` fits).
    pub(crate) fn sub_plain(&self, which: usize, n: u64) {
        let c = &self.0[which];
        u64::store(c, u64::load(c).saturating_sub(n));
    }

    pub(crate) fn load(&self) -> [u64; 3] {
        [0, 1, 2].map(|i| u64::load(&self.0[i]))
    }

    /// Take every count, leaving zeros.
    pub(crate) fn take(&self) -> [u64; 3] {
        [0, 1, 2].map(|i| u64::swap(&self.0[i], 0))
    }
}

/// Add `n` to an atomic bucket, saturating at `ceiling`; returns what did not fit. A count
/// found above the ceiling (interlocked increments in flight, see
/// [`AtomicCounter::INTERLOCKED_MAX`]) is brought back to it and its surplus returned too,
/// so `n = 0` settles a bucket. A compare-exchange loop: exact under any race.
pub(crate) fn add_n_atomic<C: AtomicCounter>(cell: &C::Atomic, n: u64, ceiling: C) -> u64 {
    let ceiling = ceiling.to_u64();
    let mut old = C::load(cell);
    loop {
        let o = old.to_u64();
        let (new, excess) = if o >= ceiling {
            (ceiling, (o - ceiling).saturating_add(n))
        } else if n <= ceiling - o {
            (o + n, 0)
        } else {
            (ceiling, n - (ceiling - o))
        };
        if new == o {
            return excess;
        }
        match C::compare_exchange(cell, old, C::from_u64_wrapping(new)) {
            Ok(_) => return excess,
            Err(seen) => old = seen,
        }
    }
}

/// One interlocked increment: a single `fetch_add` of 1 whose returned count decides.
/// True when that count was at or above the ceiling ([`AtomicCounter::INTERLOCKED_MAX`]):
/// the bucket is now above it, and the caller runs the cold correction ([`settle`]) that
/// brings it back and counts the surplus as saturated.
///
/// The add comes first and nothing is read before it: a load ahead of the add would fetch
/// the cache line shared and the add would then have to fetch it again to own it, which is
/// what threads contending for a bucket pay for (measured on a 16-core Xeon, 1 %, 16
/// threads: 124 ns per record instead of 166; on one thread it costs no more). The count
/// the add returns is exact, so a bucket ends above the ceiling only while adds are in
/// flight, by at most their number (below [`IN_FLIGHT_MAX`]: no wrap), and every add that
/// takes it over settles it.
#[inline(always)]
pub(crate) fn increment_atomic<C: AtomicCounter>(cell: &C::Atomic) -> bool {
    C::fetch_add(cell, C::from_u64_wrapping(1)) >= C::INTERLOCKED_MAX
}

/// Bring an interlocked bucket above its ceiling back to it; returns the surplus.
#[cold]
#[inline(never)]
pub(crate) fn settle<C: AtomicCounter>(cell: &C::Atomic) -> u64 {
    add_n_atomic::<C>(cell, 0, C::INTERLOCKED_MAX)
}

/// One increment of a bucket with one writer: load, add, store unless the add wrapped to
/// zero (the flags of the add decide: no separate compare). Returns 1 when the bucket was
/// full (it stays at `MAX`, the record is saturated), else 0.
#[inline(always)]
pub(crate) fn increment_plain<C: AtomicCounter>(cell: &C::Atomic) -> u64 {
    let next = C::load(cell).increment();
    if next != C::ZERO {
        C::store(cell, next);
        0
    } else {
        1
    }
}

/// Whether a batch of `n` values counted by one writer cannot fill any of `cells`
/// ([`crate::batch::cannot_fill`]; the cells read with relaxed loads: other threads only
/// read them, or lower them).
pub(crate) fn plain_batch_cannot_fill<C: AtomicCounter>(cells: &[C::Atomic], n: usize) -> bool {
    let any = || cells.iter().fold(0, |any, c| any | C::load(c).to_u64());
    crate::batch::cannot_fill(cells.len(), n, any, C::MAX.to_u64())
}

/// Add `n` to a bucket with one writer, saturating; returns what did not fit.
#[inline]
pub(crate) fn add_n_plain<C: AtomicCounter>(cell: &C::Atomic, n: u64) -> u64 {
    let (sum, excess) = C::load(cell).saturating_add_u64(n);
    C::store(cell, sum);
    excess
}
