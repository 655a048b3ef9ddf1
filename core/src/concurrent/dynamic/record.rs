//! The record functions of a [`DynHistogram`]: one generic function per mode type, counter
//! width, CPU level and extremes choice, chosen once when the histogram is made.

use super::width::Width;
use super::DynHistogram;
use crate::concurrent::RecordPath;
use crate::layout::Log2;

/// A record entry point of one mode's type ([`DynHistogram::record_fn`]): `f(h, v)` counts
/// `v` on the mode's common path, inline, and hands what that declines (outside the range,
/// a full bucket, a first touch) to the mode's own slow path, in core. `extern "C"` and
/// never unwinding (see `declined`), so C can call it and the C ABI's record can jump to it
/// with its own arguments in place.
///
/// # Safety
/// Call it only with the histogram it came from (or another of the same counter width
/// and mode).
pub type RecordFn = unsafe extern "C" fn(h: &DynHistogram, v: u64);

/// The record function of [`DynHistogram::ignoring_records`].
pub(super) unsafe extern "C" fn ignore_record(_: &DynHistogram, _: u64) {}

/// The record function of mode type `H`: `track` notes the exact extremes first; `v3` is
/// built for `lzcnt` and BMI2 (`shlx`, `shrx`), which the CPU must have (elsewhere `bsr`
/// takes the logarithm, right on every CPU).
pub(super) fn pick<C: Width, H: RecordPath<C>>(track: bool, v3: bool) -> RecordFn {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if v3 {
        return if track {
            lzcnt::<C, H, true>
        } else {
            lzcnt::<C, H, false>
        };
    }
    let _ = v3;
    if track {
        any::<C, H, true>
    } else {
        any::<C, H, false>
    }
}

/// A [`RecordFn`] of mode type `H`: see its contract. `LZCNT`: only where the CPU has it.
#[inline(always)]
unsafe fn record<C, H, const TRACK: bool, const LZCNT: bool>(h: &DynHistogram, v: u64)
where
    C: Width,
    H: RecordPath<C>,
{
    if TRACK {
        h.note(v);
    }
    // SAFETY: the caller guarantees that `h` holds an `H` (the `RecordFn` contract).
    let inner = unsafe { h.inner_as::<C, H>() };
    if !inner.record_fast_in(v, Log2::with_lzcnt(LZCNT)) {
        declined(inner, v)
    }
}

/// A [`RecordFn`] for any CPU: see its contract.
unsafe extern "C" fn any<C: Width, H: RecordPath<C>, const TRACK: bool>(h: &DynHistogram, v: u64) {
    // SAFETY: the caller keeps the `RecordFn` contract; `bsr` runs anywhere.
    unsafe { record::<C, H, TRACK, false>(h, v) }
}

/// A [`RecordFn`] for a CPU with `lzcnt` and BMI2: see its contract.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "lzcnt,bmi1,bmi2")]
unsafe extern "C" fn lzcnt<C: Width, H: RecordPath<C>, const TRACK: bool>(
    h: &DynHistogram,
    v: u64,
) {
    // SAFETY: the caller keeps the `RecordFn` contract, and calls this only where the CPU
    // has `lzcnt` and BMI2 (`Log2::cpu_has_lzcnt_and_bmi2`).
    unsafe { record::<C, H, TRACK, true>(h, v) }
}

/// The records a fast path declines, counted by the mode's slow path out of line, without
/// looking the mode up again. `extern "C"` and never unwinding (see `stop_panics`), its
/// arguments in registers: a record function's call of it is its last step, a jump, and
/// the record function keeps no frame.
#[cold]
#[inline(never)]
// Only Rust calls it (the record functions, with `H` known).
#[allow(improper_ctypes_definitions)]
extern "C" fn declined<C: Width, H: RecordPath<C>>(inner: &H, v: u64) {
    #[cfg(test)]
    super::tests::note_declined();
    stop_panics(|| inner.record_declined(v), || inner.add_saturated(1));
}

/// Run `slow`. A panic there would be a bug; with `std` it stops here, so that nothing
/// unwinds out of an `extern "C"` record (which would abort the process), and `saturate`
/// counts the record as saturated: no count is lost.
pub(super) fn stop_panics(slow: impl FnOnce(), saturate: impl FnOnce()) {
    #[cfg(feature = "std")]
    if std::panic::catch_unwind(core::panic::AssertUnwindSafe(slow)).is_err() {
        saturate();
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = saturate;
        slow();
    }
}
