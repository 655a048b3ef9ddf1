//! The protocol on native (or loom) atomics, with explicit fences.
#[cfg(not(loom))]
use core::sync::atomic::{fence, Ordering};
#[cfg(loom)]
use loom::sync::atomic::{fence, Ordering};

use super::Version;

#[cfg(picollo_float)] // the float histogram's sums
/// A release fence: the cell stores before it are seen by any thread whose acquire
/// fence follows its load of a cell store after it.
#[inline(always)]
pub(crate) fn release_fence() {
    fence(Ordering::Release);
}

#[cfg(picollo_float)] // the float histogram's sums
/// An acquire fence (the other half of [`release_fence`]).
#[inline(always)]
pub(crate) fn acquire_fence() {
    fence(Ordering::Acquire);
}

impl Version {
    /// Start a read: an even version, after waiting out a reset in progress.
    #[inline]
    pub(crate) fn read_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = self.seq.load(Ordering::Acquire);
            if v & 1 == 0 {
                return v;
            }
            super::backoff(&mut spins);
        }
    }

    /// End a read started at `v`: true when no reset ran meanwhile (the copy is good).
    #[inline]
    pub(crate) fn read_validate(&self, v: u32) -> bool {
        fence(Ordering::Acquire);
        self.seq.load(Ordering::Relaxed) == v
    }

    /// Start a reset (excluding other resets, and waiting while readers hold resets
    /// off); returns the odd version to pass to [`Version::write_end`].
    pub(crate) fn write_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = self.seq.load(Ordering::Relaxed);
            if v & 1 == 0
                && self.held.load(Ordering::SeqCst) == 0
                && self
                    .seq
                    .compare_exchange_weak(
                        v,
                        v.wrapping_add(1),
                        Ordering::SeqCst,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            {
                // Orders the odd version before every data store of the reset.
                fence(Ordering::Release);
                return v.wrapping_add(1);
            }
            super::backoff(&mut spins);
        }
    }

    /// End a reset: the version becomes even again, publishing the cleared counts.
    pub(crate) fn write_end(&self, odd: u32) {
        self.seq.store(odd.wrapping_add(1), Ordering::Release);
    }

    pub(super) fn raise_hold(&self) {
        self.held.fetch_add(1, Ordering::SeqCst);
        // Orders the raised hold before the reader's next version load for every
        // reset's `SeqCst` load of `held` (see the type's docs).
        fence(Ordering::SeqCst);
    }

    pub(super) fn release_hold(&self) {
        self.held.fetch_sub(1, Ordering::Release);
    }
}
