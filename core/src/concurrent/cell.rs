//! Atomic cells for counters, the seqlock version, and the `critical-section` fallback.
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

#[cfg(all(
    not(loom),
    not(picollo_force_cs),
    target_has_atomic = "32",
    target_has_atomic = "64"
))]
mod imp {
    use core::sync::atomic::Ordering::Relaxed;
    pub use core::sync::atomic::{AtomicU32 as A32, AtomicU64 as A64};

    macro_rules! native {
        ($t:ty, $a:ty) => {
            impl super::AtomicCounter for $t {
                type Atomic = $a;
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
            }
        };
    }
    native!(u32, A32);
    native!(u64, A64);
}

#[cfg(loom)]
mod imp {
    use loom::sync::atomic::Ordering::Relaxed;
    pub use loom::sync::atomic::{AtomicU32 as A32, AtomicU64 as A64};

    macro_rules! native {
        ($t:ty, $a:ty) => {
            impl super::AtomicCounter for $t {
                type Atomic = $a;
                fn new_cell(v: Self) -> $a {
                    <$a>::new(v)
                }
                fn load(c: &$a) -> Self {
                    c.load(Relaxed)
                }
                fn store(c: &$a, v: Self) {
                    c.store(v, Relaxed)
                }
                fn fetch_add(c: &$a, v: Self) -> Self {
                    c.fetch_add(v, Relaxed)
                }
                fn swap(c: &$a, v: Self) -> Self {
                    c.swap(v, Relaxed)
                }
                fn compare_exchange(c: &$a, current: Self, new: Self) -> Result<Self, Self> {
                    c.compare_exchange(current, new, Relaxed, Relaxed)
                }
            }
        };
    }
    native!(u32, A32);
    native!(u64, A64);
}

#[cfg(all(
    not(loom),
    feature = "critical-section",
    any(
        picollo_force_cs,
        not(all(target_has_atomic = "32", target_has_atomic = "64"))
    )
))]
mod imp {
    use core::cell::Cell;
    use critical_section::Mutex;

    /// A counter cell for targets without native atomics: every access is one critical
    /// section, so a read-modify-write is indivisible like a native atomic one.
    pub struct CsCell<T>(Mutex<Cell<T>>);

    impl<T: Copy + core::fmt::Debug> core::fmt::Debug for CsCell<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            critical_section::with(|cs| self.0.borrow(cs).get().fmt(f))
        }
    }

    impl<T: Copy> CsCell<T> {
        #[inline]
        fn update(&self, f: impl FnOnce(T) -> Option<T>) -> Result<T, T> {
            critical_section::with(|cs| {
                let cell = self.0.borrow(cs);
                let old = cell.get();
                match f(old) {
                    Some(new) => {
                        cell.set(new);
                        Ok(old)
                    }
                    None => Err(old),
                }
            })
        }
    }

    pub type A32 = CsCell<u32>;
    pub type A64 = CsCell<u64>;

    macro_rules! cs {
        ($t:ty) => {
            impl super::AtomicCounter for $t {
                type Atomic = CsCell<$t>;
                fn new_cell(v: Self) -> CsCell<$t> {
                    CsCell(Mutex::new(Cell::new(v)))
                }
                fn load(c: &CsCell<$t>) -> Self {
                    critical_section::with(|cs| c.0.borrow(cs).get())
                }
                fn store(c: &CsCell<$t>, v: Self) {
                    critical_section::with(|cs| c.0.borrow(cs).set(v))
                }
                fn fetch_add(c: &CsCell<$t>, v: Self) -> Self {
                    let r = c.update(|old| Some(old.wrapping_add(v)));
                    r.unwrap_or_else(|old| old)
                }
                fn swap(c: &CsCell<$t>, v: Self) -> Self {
                    c.update(|_| Some(v)).unwrap_or_else(|old| old)
                }
                fn compare_exchange(
                    c: &CsCell<$t>,
                    current: Self,
                    new: Self,
                ) -> Result<Self, Self> {
                    c.update(|old| (old == current).then_some(new))
                }
            }
        };
    }
    cs!(u32);
    cs!(u64);
}

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
    /// A new cell holding `v`.
    fn new_cell(v: Self) -> Self::Atomic;
    /// Relaxed load.
    fn load(c: &Self::Atomic) -> Self;
    /// Relaxed store.
    fn store(c: &Self::Atomic, v: Self);
    /// Relaxed wrapping add; returns the previous count.
    fn fetch_add(c: &Self::Atomic, v: Self) -> Self;
    /// Relaxed swap; returns the previous count.
    fn swap(c: &Self::Atomic, v: Self) -> Self;
    /// Relaxed compare-exchange (may fail spuriously); `Err` holds the count seen.
    fn compare_exchange(c: &Self::Atomic, current: Self, new: Self) -> Result<Self, Self>;
}

/// The 64-bit cell used for underflow/overflow/saturated counts.
pub(crate) type Cell64 = <u64 as AtomicCounter>::Atomic;

/// `n` new zeroed cells.
#[cfg(feature = "alloc")]
pub(crate) fn zeroed_cells<C: AtomicCounter>(n: usize) -> alloc::boxed::Box<[C::Atomic]> {
    (0..n).map(|_| C::new_cell(C::ZERO)).collect()
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

/// A seqlock version: even when no reset runs, odd while one does. Readers copy the counts
/// between two loads of the version and retry when it changed or was odd; resets take it
/// from even to odd (excluding each other), clear, and make it even again.
///
/// The protocol is the classic one (Boehm, "Can seqlocks get along with programming
/// language memory models?", 2012): the data are atomics read and written `Relaxed`; the
/// reader puts an acquire fence between its data loads and its second version load; the
/// writer a release fence between making the version odd and its first data store.
pub(crate) struct Version(imp::A32);

impl core::fmt::Debug for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(any(
    loom,
    all(
        not(picollo_force_cs),
        target_has_atomic = "32",
        target_has_atomic = "64"
    )
))]
mod ord {
    #[cfg(not(loom))]
    pub use core::sync::atomic::{fence, Ordering};
    #[cfg(loom)]
    pub use loom::sync::atomic::{fence, Ordering};
}

impl Version {
    pub(crate) fn new() -> Self {
        Version(u32::new_cell(0))
    }

    /// Number of completed resets (wrapping; only compared for equality).
    pub(crate) fn resets(&self, even: u32) -> u64 {
        u64::from(even / 2)
    }
}

#[cfg(any(
    loom,
    all(
        not(picollo_force_cs),
        target_has_atomic = "32",
        target_has_atomic = "64"
    )
))]
impl Version {
    /// Start a read: an even version, after waiting out a reset in progress.
    #[inline]
    pub(crate) fn read_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = self.0.load(ord::Ordering::Acquire);
            if v & 1 == 0 {
                return v;
            }
            backoff(&mut spins);
        }
    }

    /// End a read started at `v`: true when no reset ran meanwhile (the copy is good).
    #[inline]
    pub(crate) fn read_validate(&self, v: u32) -> bool {
        ord::fence(ord::Ordering::Acquire);
        self.0.load(ord::Ordering::Relaxed) == v
    }

    /// Start a reset (excluding other resets); returns the odd version to pass to
    /// [`Version::write_end`].
    pub(crate) fn write_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = self.0.load(ord::Ordering::Relaxed);
            if v & 1 == 0
                && self
                    .0
                    .compare_exchange_weak(
                        v,
                        v.wrapping_add(1),
                        ord::Ordering::Acquire,
                        ord::Ordering::Relaxed,
                    )
                    .is_ok()
            {
                // Orders the odd version before every data store of the reset.
                ord::fence(ord::Ordering::Release);
                return v.wrapping_add(1);
            }
            backoff(&mut spins);
        }
    }

    /// End a reset: the version becomes even again, publishing the cleared counts.
    pub(crate) fn write_end(&self, odd: u32) {
        self.0.store(odd.wrapping_add(1), ord::Ordering::Release);
    }
}

#[cfg(all(
    not(loom),
    feature = "critical-section",
    any(
        picollo_force_cs,
        not(all(target_has_atomic = "32", target_has_atomic = "64"))
    )
))]
impl Version {
    // With critical sections, every cell access is itself fully ordered, so the protocol
    // needs no fences: the same loads and stores, through the cells.
    pub(crate) fn read_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = u32::load(&self.0);
            if v & 1 == 0 {
                return v;
            }
            backoff(&mut spins);
        }
    }

    pub(crate) fn read_validate(&self, v: u32) -> bool {
        u32::load(&self.0) == v
    }

    pub(crate) fn write_begin(&self) -> u32 {
        let mut spins = 0;
        loop {
            let v = u32::load(&self.0);
            if v & 1 == 0 && u32::compare_exchange(&self.0, v, v.wrapping_add(1)).is_ok() {
                return v.wrapping_add(1);
            }
            backoff(&mut spins);
        }
    }

    pub(crate) fn write_end(&self, odd: u32) {
        u32::store(&self.0, odd.wrapping_add(1));
    }
}
