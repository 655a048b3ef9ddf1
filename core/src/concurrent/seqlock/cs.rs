//! The protocol on the critical-section cells: every cell access is fully ordered, so the
//! fences are no-ops.

use super::Version;
use crate::concurrent::cell::{backoff, AtomicCounter};

impl Version {
    // With critical sections, every cell access is itself fully ordered, so the protocol
    // needs no fences: the same loads and stores, through the cells.
    pub(crate) fn read_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = u32::load(&self.seq);
            if v & 1 == 0 {
                return v;
            }
            backoff(&mut spins);
        }
    }

    pub(crate) fn read_validate(&self, v: u32) -> bool {
        u32::load(&self.seq) == v
    }

    pub(crate) fn write_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = u32::load(&self.seq);
            if v & 1 == 0
                && u32::load(&self.held) == 0
                && u32::compare_exchange(&self.seq, v, v.wrapping_add(1)).is_ok()
            {
                return v.wrapping_add(1);
            }
            backoff(&mut spins);
        }
    }

    pub(crate) fn write_end(&self, odd: u32) {
        u32::store(&self.seq, odd.wrapping_add(1));
    }

    pub(super) fn raise_hold(&self) {
        u32::fetch_add(&self.held, 1);
    }

    pub(super) fn release_hold(&self) {
        u32::fetch_add(&self.held, u32::MAX);
    }
}

#[allow(dead_code)] // used by the float histogram's sums
#[inline(always)]
pub(crate) fn release_fence() {}
#[allow(dead_code)] // used by the float histogram's sums
#[inline(always)]
pub(crate) fn acquire_fence() {}
