//! The interlocked histogram: any number of writers, one relaxed atomic add per record.

use super::cell::{increment_atomic, AtomicCounter};
#[cfg(feature = "alloc")]
use super::path::{DirectKind, DirectPath, Mode};
use super::seqlock::{alloc_or_slice, mode_over_seq_counts, seq_counts_constructors, SeqCounts};
use crate::layout::Log2;

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
pub struct AtomicHistogram<C: AtomicCounter, S = alloc_or_slice!(C)> {
    counts: SeqCounts<C, S>,
}

seq_counts_constructors!(
    AtomicHistogram {};
    /// A heap-allocated histogram for `config`.
    new
);
mode_over_seq_counts!(
    atomic AtomicHistogram,
    /// The interlocked mode behind a pointer ([`super::ConcurrentHistogram`], the C ABI's
    /// handle): its cells are counted in place by C callers too (the direct path).
    {
        fn mode(&self) -> Mode {
            Mode::Interlocked
        }
        fn direct_path(&self) -> DirectPath {
            DirectPath::over::<C>(DirectKind::Atomic, self.cells_ptr())
        }
    }
);

impl<C: AtomicCounter, S: super::CellStore<C>> AtomicHistogram<C, S> {
    /// The cells (`shape().len()` of them), for a writer outside Rust that counts as
    /// [`AtomicHistogram::record_fast`] does: a relaxed atomic add of 1 to a cell found
    /// below [`DirectPath::limit`](super::DirectPath), everything else through
    /// [`AtomicHistogram::record`].
    pub fn cells_ptr(&self) -> *const C::Atomic {
        self.counts.cells_ptr()
    }

    record_paths! {
        /// Count one occurrence of `v` (any thread, any time): one `fetch_add` (see
        /// `increment_atomic`). A bucket saturates at [`AtomicCounter::INTERLOCKED_MAX`];
        /// what does not fit is counted as saturated.
        fn record;
        /// Count one occurrence of `v` and return true when `v` is in the range (one
        /// `fetch_add`; the rare add that finds its bucket at the ceiling settles it, out
        /// of line); otherwise return false, recording nothing.
        fn record_fast;
    }

    /// The records [`AtomicHistogram::record_fast`] declines: underflow or overflow, or
    /// saturated where a sparse block could not be allocated.
    #[inline(always)]
    pub(crate) fn record_declined(&self, v: u64) {
        self.counts.record_outside_atomic(v, 1);
    }

    /// [`AtomicHistogram::record_fast`] taking the logarithm with `log2` (a constant: the
    /// C ABI's records choose it once per CPU).
    #[inline(always)]
    pub(crate) fn record_fast_in(&self, v: u64, log2: Log2) -> bool {
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

    /// An add found its bucket at the ceiling: bring it back, counting the surplus as
    /// saturated.
    #[cold]
    #[inline(never)]
    fn settle(&self, c: &C::Atomic) {
        self.counts.settle_atomic(c);
    }
}
