//! The cells on native atomics (loom's under `--cfg loom`).

#[cfg(not(loom))]
use core::sync::atomic::{AtomicU32 as A32, AtomicU64 as A64, Ordering::Relaxed};
#[cfg(loom)]
use loom::sync::atomic::{AtomicU32 as A32, AtomicU64 as A64, Ordering::Relaxed};

macro_rules! native {
    ($t:ty, $a:ty) => {
        impl super::AtomicCounter for $t {
            type Atomic = $a;
            const INTERLOCKED_MAX: Self = <$t>::MAX - super::IN_FLIGHT_MAX as $t;
            #[inline(always)]
            fn new_cell(v: Self) -> $a {
                <$a>::new(v)
            }
            #[inline(always)]
            fn load(c: &$a) -> Self {
                c.load(Relaxed)
            }
            #[inline(always)]
            fn store(c: &$a, v: Self) {
                c.store(v, Relaxed)
            }
            #[inline(always)]
            fn fetch_add(c: &$a, v: Self) -> Self {
                c.fetch_add(v, Relaxed)
            }
            #[inline(always)]
            fn swap(c: &$a, v: Self) -> Self {
                c.swap(v, Relaxed)
            }
            #[inline(always)]
            fn compare_exchange(c: &$a, current: Self, new: Self) -> Result<Self, Self> {
                c.compare_exchange_weak(current, new, Relaxed, Relaxed)
            }
            // Loom's atomics carry state of their own: they are made one by one.
            #[cfg(all(feature = "alloc", not(loom)))]
            fn try_zeroed_cells(n: usize) -> Result<alloc::vec::Vec<$a>, crate::OutOfMemory> {
                // SAFETY: an atomic integer has the bit validity of its integer, whose zero
                // bytes are 0.
                unsafe { crate::oom::try_zeroed(n) }
            }
        }
    };
}
native!(u32, A32);
native!(u64, A64);
