//! The interlocked mode: any number of writers, one relaxed atomic add per record.

use super::cell::{increment_atomic, AtomicCounter};
use super::path::{DirectKind, Mode};
use super::seq_histogram::{SeqHistogram, SeqMode};
use super::seqlock::DefaultCells;
use super::{CellStore, Sealed};
use crate::layout::Log2;
use crate::shape::Slot;

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
/// - [`SeqHistogram::reset`] takes each bucket to zero with an atomic swap: a record
///   racing it is either cleared with the rest or counted after the reset, never written
///   back over the zero, so there is no "old+1" corruption. After a reset, a bucket holds
///   exactly the records whose add followed the swap.
/// - [`Collect::collect`](super::Collect::collect) is that reset handing back what each swap
///   took: **exact** while any number of threads record (each add lands in exactly one
///   interval).
///
/// A record is one `fetch_add` into the value's cell, any thread; C callers count the
/// cells in place with the same add ([`DirectKind::Atomic`](super::DirectKind::Atomic)).
/// [`SeqHistogram::record_n`] and [`SeqHistogram::add`] add exactly with a
/// compare-exchange loop per bucket.
pub type AtomicHistogram<C, S = DefaultCells<C>> = SeqHistogram<C, Interlocked, S>;

/// The interlocked mode of a [`SeqHistogram`]: see [`AtomicHistogram`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Interlocked;

impl Sealed for Interlocked {}

impl<C: AtomicCounter, S: CellStore<C>> SeqMode<C, S> for Interlocked {
    const DIRECT: DirectKind = DirectKind::Atomic;
    const CEILING: C = C::INTERLOCKED_MAX;

    fn mode(&self) -> Mode {
        Mode::Interlocked
    }

    /// One `fetch_add` (see `increment_atomic`); the rare add that finds its bucket at the
    /// ceiling settles it, out of line.
    #[inline(always)]
    fn record_fast_in(h: &AtomicHistogram<C, S>, v: u64, log2: Log2) -> bool {
        Self::record_slot_in(h, v, h.counts.shape.slot(v, log2))
    }

    #[inline(always)]
    fn record_slot_in(h: &AtomicHistogram<C, S>, _v: u64, slot: Slot) -> bool {
        match h.counts.cell(slot) {
            Some(c) => Self::count_in(h, c),
            None => false,
        }
    }

    const COUNTS_IN_CELL: bool = true;

    #[inline(always)]
    fn count_in(h: &AtomicHistogram<C, S>, cell: &C::Atomic) -> bool {
        if increment_atomic::<C>(cell) {
            h.counts.settle_atomic(cell);
        }
        true
    }

    /// Underflow or overflow, or saturated where a sparse block could not be allocated.
    #[inline(always)]
    fn record_declined(h: &AtomicHistogram<C, S>, v: u64) {
        h.counts.record_outside_atomic(v, 1);
    }
}
