//! The cells of targets without native atomics: a critical section per access.

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

macro_rules! cs {
    ($t:ty) => {
        impl super::AtomicCounter for $t {
            type Atomic = CsCell<$t>;
            const INTERLOCKED_MAX: Self = <$t>::MAX - super::IN_FLIGHT_MAX as $t;
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
            fn compare_exchange(c: &CsCell<$t>, current: Self, new: Self) -> Result<Self, Self> {
                c.update(|old| (old == current).then_some(new))
            }
        }
    };
}
cs!(u32);
cs!(u64);
