//! Pointers from C to Rust values. Each C type that crosses the boundary by pointer is
//! [`Castable`]: it names the Rust type behind the pointer and who owns it. The macros here
//! are the only place such a pointer becomes a reference.

use crate::error::Failure;

/// A C type passed by pointer: the Rust value a pointer to it points to, and its owner.
pub(crate) trait Castable {
    /// [`Boxed`] or [`CallerOwned`].
    type Ownership;
    /// The Rust value behind a `*const Self`.
    type RustType;
}

/// An opaque handle: a `Box<RustType>` created by `_new` ([`set_boxed`]) and dropped by
/// `_free` ([`drop_boxed`]).
pub(crate) struct Boxed;

/// Plain data the caller owns (an input struct or an output slot): read or written during
/// the call only.
pub(crate) struct CallerOwned;

/// Declare plain types the caller passes by pointer (their Rust type is themselves).
macro_rules! caller_owned {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::handle::Castable for $t {
            type Ownership = $crate::handle::CallerOwned;
            type RustType = $t;
        })*
    };
}
pub(crate) use caller_owned;

/// Declare an opaque handle's Rust value: `boxed!(picollo_x => RustType)`.
macro_rules! boxed {
    ($c:ty => $rust:ty) => {
        impl $crate::handle::Castable for $c {
            type Ownership = $crate::handle::Boxed;
            type RustType = $rust;
        }
    };
}
pub(crate) use boxed;

caller_owned!(u32, u64, usize, f64);

/// An output slot for a new handle (`picollo_histogram **out`).
impl<C: Castable<Ownership = Boxed>> Castable for *mut C {
    type Ownership = CallerOwned;
    type RustType = *mut C;
}

/// `&C::RustType` from a pointer, or a NULL-pointer failure naming the argument.
///
/// # Safety
/// `p` is NULL or points to a live `C::RustType` (a handle from its `_new`, or caller data
/// of that type) that no one mutates for `'a`, except through atomics or locks inside it.
pub(crate) unsafe fn ref_from<'a, C: Castable>(
    p: *const C,
    name: &str,
) -> Result<&'a C::RustType, Failure> {
    // SAFETY: a `*const C` points to a `C::RustType` (the `Castable` contract); the caller
    // guarantees it is NULL or live and unmutated for 'a; `as_ref` handles NULL.
    unsafe { p.cast::<C::RustType>().as_ref() }.ok_or_else(|| Failure::null(name))
}

/// `&mut C::RustType` from a pointer, or a NULL-pointer failure naming the argument.
///
/// # Safety
/// `p` is NULL or points to a live `C::RustType` that nothing else reads or writes for `'a`.
pub(crate) unsafe fn mut_from<'a, C: Castable>(
    p: *mut C,
    name: &str,
) -> Result<&'a mut C::RustType, Failure> {
    // SAFETY: as in `ref_from`, and the caller guarantees exclusive access for 'a.
    unsafe { p.cast::<C::RustType>().as_mut() }.ok_or_else(|| Failure::null(name))
}

/// Box `value` and store the new handle in `*out` (the caller frees it with `_free`).
pub(crate) fn set_boxed<C: Castable<Ownership = Boxed>>(
    out: &mut *mut C,
    value: impl Into<C::RustType>,
) {
    *out = Box::into_raw(Box::new(value.into())).cast::<C>();
}

/// Drop the value behind a handle from [`set_boxed`]; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a handle from [`set_boxed`] not yet freed, used by no other thread.
pub(crate) unsafe fn drop_boxed<C: Castable<Ownership = Boxed>>(p: *mut C) {
    if !p.is_null() {
        // SAFETY: `p` came from `Box::into_raw` of a `Box<C::RustType>` in `set_boxed` and
        // is freed once, per the caller.
        drop(unsafe { Box::from_raw(p.cast::<C::RustType>()) });
    }
}

/// `try_ref!(p)` or `try_ref!(p, "name")`: [`ref_from`] on an argument of the exported
/// function, naming it in the NULL-pointer message.
macro_rules! try_ref {
    ($p:expr) => {
        $crate::handle::try_ref!($p, stringify!($p))
    };
    ($p:expr, $name:expr) => {
        // SAFETY: `$p` is an argument of the exported function, whose `# Safety` section
        // makes the caller promise that it is NULL or live and not mutated during the call.
        unsafe { $crate::handle::ref_from($p, $name) }
    };
}
pub(crate) use try_ref;

/// `hot_ref!(p)`: `Some(&C::RustType)`, or `None` for NULL without building a failure
/// message: for the hot paths, which ignore a NULL handle.
macro_rules! hot_ref {
    ($p:expr) => {
        // SAFETY: `$p` is an argument of the exported function, whose `# Safety` section
        // makes the caller promise that it is NULL or live and not mutated during the call
        // (except through atomics or locks inside it).
        unsafe { $crate::handle::opt_ref($p) }
    };
}
pub(crate) use hot_ref;

/// `&C::RustType` from a pointer, `None` for NULL.
///
/// # Safety
/// As [`ref_from`].
#[inline(always)]
pub(crate) unsafe fn opt_ref<'a, C: Castable>(p: *const C) -> Option<&'a C::RustType> {
    // SAFETY: as in `ref_from`.
    unsafe { p.cast::<C::RustType>().as_ref() }
}

/// `try_mut!(p)` or `try_mut!(p, "name")`: [`mut_from`] on an argument of the exported
/// function.
macro_rules! try_mut {
    ($p:expr) => {
        $crate::handle::try_mut!($p, stringify!($p))
    };
    ($p:expr, $name:expr) => {
        // SAFETY: `$p` is an argument of the exported function, whose `# Safety` section
        // makes the caller promise that it is NULL or live and used by no one else during
        // the call.
        unsafe { $crate::handle::mut_from($p, $name) }
    };
}
pub(crate) use try_mut;

/// `free_boxed!(p)`: the body of a `_free` function.
macro_rules! free_boxed {
    ($p:expr) => {
        // SAFETY: the exported `_free` function's `# Safety` section makes the caller
        // promise that `$p` is NULL or a handle from its `_new`, freed once.
        unsafe { $crate::handle::drop_boxed($p) }
    };
}
pub(crate) use free_boxed;
