//! A mode's histogram with its counter width hidden: what a [`super::DynHistogram`] holds,
//! its [`ModePath`] and, over the counter widths of [`Width`], its [`AnyPath`].

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::mem::{align_of, size_of, MaybeUninit};

use super::record::{pick, RecordFn};
use super::snapshot::SnapInner;
use super::width::Width;
use super::{CounterBits, DynView};
use crate::concurrent::modes::Wrap;
use crate::concurrent::path::Counts;
use crate::concurrent::{ConcurrentSnapshot, ModePath, RecordPath};
use crate::config::{ConfigError, ValueSelection};
use crate::histogram::Histogram;
use crate::oom::OutOfMemory;

/// What a [`RecordPath`] answers in the types of its counter width, given in what both
/// widths share (a [`DynView`], [`Counts`], a `u64` histogram). The rest of the mode does
/// not name the width: [`AnyPath::path`] gives it as the mode's own [`ModePath`].
pub(super) trait AnyPath: Send + Sync {
    /// What the mode does without naming its counter width.
    fn path(&self) -> &dyn ModePath;
    /// The record function of this mode's type ([`pick`]).
    fn record_fn(&self, track: bool, v3: bool) -> RecordFn;
    fn bits(&self) -> CounterBits;
    /// `query` on the live cells where the mode reads them in place, else on a copy.
    fn view(
        &self,
        selection: ValueSelection,
        query: &mut dyn FnMut(DynView<'_>),
    ) -> Result<(), OutOfMemory>;
    /// `f` on a consistent copy of the counts.
    fn copy(&self, f: &mut dyn FnMut(Counts<'_, '_>)) -> Result<(), OutOfMemory>;
    /// The counts taken, widened to `u64`.
    fn collect(&self) -> Result<Histogram<u64, Vec<u64>>, OutOfMemory>;
    fn snapshot(&self) -> Result<SnapInner, ConfigError>;
    /// `None` when `snap` has the other counter width.
    fn update(&self, snap: &mut SnapInner, deltas: bool) -> Option<Result<(), ConfigError>>;
    /// `None` when `snap` has the other counter width.
    fn collect_into(&self, snap: &mut SnapInner) -> Option<Result<(), ConfigError>>;
}

/// A mode's histogram `H` of counter width `C`, as a [`super::DynHistogram`] holds it:
/// `repr(transparent)`, so that the record functions reach the `H` at its address.
#[repr(transparent)]
pub(super) struct Held<C, H>(H, PhantomData<fn() -> C>);

impl<C: Width, H: RecordPath<C>> AnyPath for Held<C, H> {
    fn path(&self) -> &dyn ModePath {
        &self.0
    }
    fn record_fn(&self, track: bool, v3: bool) -> RecordFn {
        pick::<C, H>(track, v3)
    }
    fn bits(&self) -> CounterBits {
        C::BITS
    }
    fn view(
        &self,
        selection: ValueSelection,
        query: &mut dyn FnMut(DynView<'_>),
    ) -> Result<(), OutOfMemory> {
        if self
            .0
            .query_live(&mut |v| query(Width::live(v.with_value_selection(selection))))
        {
            return Ok(());
        }
        self.0
            .try_with_copy(|v| query(Width::copy(v.with_value_selection(selection))))
    }
    fn copy(&self, f: &mut dyn FnMut(Counts<'_, '_>)) -> Result<(), OutOfMemory> {
        self.0.try_with_copy(|v| f(Width::counts(&v)))
    }
    fn collect(&self) -> Result<Histogram<u64, Vec<u64>>, OutOfMemory> {
        Width::widen(self.0.try_collect()?)
    }
    fn snapshot(&self) -> Result<SnapInner, ConfigError> {
        Ok(Width::snap(ConcurrentSnapshot::new(&self.0)?))
    }
    fn update(&self, snap: &mut SnapInner, deltas: bool) -> Option<Result<(), ConfigError>> {
        Some(Width::snap_mut(snap)?.update(&self.0, deltas))
    }
    fn collect_into(&self, snap: &mut SnapInner) -> Option<Result<(), ConfigError>> {
        Some(Width::snap_mut(snap)?.collect(&self.0))
    }
}

/// Room for a mode's histogram in a [`Stored`], in words: the largest mode's with native
/// atomics (the sparse approximate mode's, 320 bytes on 64-bit targets). A larger one (cells
/// of a model checker, say) is boxed, and its records follow one more pointer.
const WORDS: usize = 40;

/// Whether a `T` is stored in place (else a `Box<T>` is).
pub(super) const fn fits<T>() -> bool {
    size_of::<T>() <= WORDS * 8 && align_of::<T>() <= align_of::<u64>()
}

/// A mode's histogram stored in place, as a `Held<C, H>` (a [`super::DynHistogram`]'s
/// record reaches its fields at a fixed offset from the handle, with no pointer to follow),
/// seen as the [`AnyPath`] it is through [`core::ops::Deref`].
pub(super) struct Stored {
    /// The `Held<C, H>` (or, where it does not fit, a `Box` of it), written once by
    /// [`Stored::new`] and dropped by `Drop`. In an `UnsafeCell`: its cells change through
    /// shared references.
    words: UnsafeCell<[MaybeUninit<u64>; WORDS]>,
    /// The `dyn AnyPath` of the words (`erase::<C, H>`).
    erase: unsafe fn(*const u64) -> *const dyn AnyPath,
    /// Drops what the words hold (`drop_words::<C, H>`).
    drop: unsafe fn(*mut u64),
}

// SAFETY: a `Stored` holds a `Held<C, H>` and shares it only as `&dyn AnyPath` (or `&H`),
// and `AnyPath` requires `Send + Sync`, so sending or sharing the `Stored` sends or shares a
// value that allows it.
unsafe impl Send for Stored {}
// SAFETY: as for `Send`.
unsafe impl Sync for Stored {}

/// The `Held<C, H>` the words at `p` hold or point at.
///
/// # Safety
/// `p` points at the words of a live `Stored` made of a `Held<C, H>`.
unsafe fn held<C: Width, H: RecordPath<C>>(p: *const u64) -> *const Held<C, H> {
    if fits::<Held<C, H>>() {
        p.cast::<Held<C, H>>()
    } else {
        // SAFETY: the words hold a `Box<Held<C, H>>` (`Stored::new`), per the caller.
        unsafe { &**p.cast::<Box<Held<C, H>>>() }
    }
}

/// The `dyn AnyPath` of the `Held<C, H>` of the words at `p`.
///
/// # Safety
/// As [`held`].
unsafe fn erase<C: Width, H: RecordPath<C> + 'static>(p: *const u64) -> *const dyn AnyPath {
    // SAFETY: the caller's guarantee.
    unsafe { held::<C, H>(p) as *const dyn AnyPath }
}

/// Drop what the words at `p` hold.
///
/// # Safety
/// As [`held`], and nothing uses the words after.
unsafe fn drop_words<C: Width, H: RecordPath<C>>(p: *mut u64) {
    // SAFETY: the words hold the value `Stored::new` wrote, dropped here once.
    unsafe {
        if fits::<Held<C, H>>() {
            core::ptr::drop_in_place(p.cast::<Held<C, H>>())
        } else {
            core::ptr::drop_in_place(p.cast::<Box<Held<C, H>>>())
        }
    }
}

impl Stored {
    /// `h`, stored in place (boxed where it does not fit).
    pub(super) fn new<C: Width, H: RecordPath<C> + 'static>(h: H) -> Stored {
        const { assert!(fits::<Box<Held<C, H>>>()) };
        let words = UnsafeCell::new([MaybeUninit::uninit(); WORDS]);
        let held = Held(h, PhantomData);
        // SAFETY: the words are as large and as aligned as what is written (`fits`), and
        // nothing else refers to them yet.
        unsafe {
            if fits::<Held<C, H>>() {
                words.get().cast::<Held<C, H>>().write(held);
            } else {
                words.get().cast::<Box<Held<C, H>>>().write(Box::new(held));
            }
        }
        Stored {
            words,
            erase: erase::<C, H>,
            drop: drop_words::<C, H>,
        }
    }

    /// The histogram as its own type `H` (of counter width `C`).
    ///
    /// # Safety
    /// `H` is the type it was made of ([`Stored::new`]).
    #[inline(always)]
    pub(super) unsafe fn as_mode<C: Width, H: RecordPath<C>>(&self) -> &H {
        // SAFETY: the words hold a `Held<C, H>` or its box (the caller's guarantee);
        // `Held` is `repr(transparent)` over its `H`, alive as long as `self`.
        unsafe { &*held::<C, H>(self.words.get().cast()).cast::<H>() }
    }
}

impl core::ops::Deref for Stored {
    type Target = dyn AnyPath;
    fn deref(&self) -> &(dyn AnyPath + 'static) {
        // SAFETY: `erase` is the function of the type `new` wrote into the words.
        unsafe { &*(self.erase)(self.words.get().cast()) }
    }
}

impl Drop for Stored {
    fn drop(&mut self) {
        // SAFETY: `drop` is the function of the type `new` wrote; nothing uses the words
        // after.
        unsafe { (self.drop)(self.words.get().cast()) }
    }
}

impl core::fmt::Debug for Stored {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.path().fmt(f)
    }
}

/// Stores a mode's histogram as the [`Stored`] a [`super::DynHistogram`] holds.
pub(super) struct Erased;

impl<C: Width + 'static> Wrap<C> for Erased {
    type Out = Stored;
    fn wrap<H: RecordPath<C> + 'static>(h: H) -> Self::Out {
        Stored::new(h)
    }
}
