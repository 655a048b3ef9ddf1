//! `picollo_snapshot_*`: a copy of a histogram refreshed in place, optionally as deltas.

use picollo::concurrent::ConcurrentSnapshot;
use picollo::ValueSelection;

use crate::histogram::{config_error, dispatch_view, picollo_histogram, AnyView, Failure, Inner};
use crate::query::percentiles_into;
use crate::status::{as_mut, as_ref, guard, picollo_status, status_of};
use crate::types::{picollo_percentile, picollo_summary};

/// A snapshot of a histogram (opaque): created with `picollo_snapshot_new`, refreshed with
/// `picollo_snapshot_update` without allocating, freed with `picollo_snapshot_free`.
#[allow(non_camel_case_types)]
pub struct picollo_snapshot {
    inner: SnapInner,
    /// The source histogram's value selection at the last update.
    selection: ValueSelection,
}

enum SnapInner {
    U32(ConcurrentSnapshot<u32>),
    U64(ConcurrentSnapshot<u64>),
}

impl picollo_snapshot {
    fn view(&self) -> AnyView<'_> {
        match &self.inner {
            SnapInner::U32(s) => AnyView::U32(s.view().with_value_selection(self.selection)),
            SnapInner::U64(s) => AnyView::U64(s.view().with_value_selection(self.selection)),
        }
    }
}

fn mismatch() -> Failure {
    (
        picollo_status::LayoutMismatch,
        "the histogram does not have this snapshot's configuration (relative error, range \
         and counter width must match the histogram the snapshot was made from)"
            .to_string(),
    )
}

/// Take a snapshot of `h` (full counts, one consistent copy; writers may keep recording).
/// `*out` receives a handle for `picollo_snapshot_free`. A snapshot is used by one thread
/// at a time.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_new(
    h: *const picollo_histogram,
    out: *mut *mut picollo_snapshot,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            let inner = match &h.inner {
                Inner::U32(c) => SnapInner::U32(ConcurrentSnapshot::new(c).map_err(config_error)?),
                Inner::U64(c) => SnapInner::U64(ConcurrentSnapshot::new(c).map_err(config_error)?),
            };
            let selection = h.selection();
            *out = Box::into_raw(Box::new(picollo_snapshot { inner, selection }));
            Ok(())
        })())
    })
}

/// Refresh from `h` (the histogram it was made from, or one of the same configuration).
/// With `deltas` non-zero the snapshot then holds what was recorded since the previous
/// update (since the reset, if `h` was reset in between); with 0, the full counts.
/// Allocates nothing.
///
/// # Safety
/// `s` is NULL or a live snapshot not used by another thread; `h` is NULL or a live handle
/// (writers may keep recording).
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_update(
    s: *mut picollo_snapshot,
    h: *const picollo_histogram,
    deltas: u32,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let s = unsafe { as_mut(s, "s") }?;
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            match (&mut s.inner, &h.inner) {
                (SnapInner::U32(s), Inner::U32(c)) => s.update(c, deltas != 0),
                (SnapInner::U64(s), Inner::U64(c)) => s.update(c, deltas != 0),
                _ => return Err(mismatch()),
            }
            .map_err(|_| mismatch())?;
            s.selection = h.selection();
            Ok(())
        })())
    })
}

/// The snapshot's standard summary.
///
/// # Safety
/// `s` is NULL or a live snapshot; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_summary(
    s: *const picollo_snapshot,
    out: *mut picollo_summary,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let s = unsafe { as_ref(s, "s") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            *out = (&dispatch_view!(s.view(), v => v.summary())).into();
            Ok(())
        })())
    })
}

/// Percentiles of the snapshot (rules as `picollo_histogram_percentiles`).
///
/// # Safety
/// `s` is NULL or a live snapshot; `ranks` points to `n` doubles, `out` to `n` entries.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_percentiles(
    s: *const picollo_snapshot,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let s = unsafe { as_ref(s, "s") }?;
            // SAFETY: per this function's contract.
            unsafe { percentiles_into(s.view(), ranks, n, out) }
        })())
    })
}

/// Free a snapshot. NULL is accepted and ignored.
///
/// # Safety
/// `s` is NULL or a snapshot from `picollo_snapshot_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_free(s: *mut picollo_snapshot) {
    if !s.is_null() {
        // SAFETY: s came from Box::into_raw in picollo_snapshot_new and is freed once.
        drop(unsafe { Box::from_raw(s) });
    }
}
