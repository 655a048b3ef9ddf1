//! `picollo_snapshot_*`: a copy of a histogram refreshed in place, optionally as deltas.

use picollo::Snapshot;

use crate::histogram::{dispatch_view, picollo_histogram, AnyView, Failure};
use crate::query::percentiles_into;
use crate::status::{as_mut, as_ref, guard, picollo_status, status_of};
use crate::types::{picollo_percentile, picollo_summary};

/// A snapshot of a histogram (opaque): created with `picollo_snapshot_new`, refreshed with
/// `picollo_snapshot_update` without allocating, freed with `picollo_snapshot_free`.
#[allow(non_camel_case_types)]
pub struct picollo_snapshot {
    inner: SnapInner,
}

enum SnapInner {
    U32(Snapshot<u32, Vec<u32>>),
    U64(Snapshot<u64, Vec<u64>>),
}

impl picollo_snapshot {
    fn view(&self) -> AnyView<'_> {
        match &self.inner {
            SnapInner::U32(s) => AnyView::U32(s.view()),
            SnapInner::U64(s) => AnyView::U64(s.view()),
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

/// Take a snapshot of `h` (full counts). `*out` receives a handle for
/// `picollo_snapshot_free`.
///
/// # Safety
/// `h` is NULL or a live handle not written during the call; `out` is NULL or writable.
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
            let inner = match h.view() {
                AnyView::U32(v) => SnapInner::U32(Snapshot::new(&v)),
                AnyView::U64(v) => SnapInner::U64(Snapshot::new(&v)),
            };
            *out = Box::into_raw(Box::new(picollo_snapshot { inner }));
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
/// `s` is NULL or a live snapshot; `h` is NULL or a live handle not written during the call.
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
            match (&mut s.inner, h.view()) {
                (SnapInner::U32(s), AnyView::U32(v)) => s.update(&v, deltas != 0),
                (SnapInner::U64(s), AnyView::U64(v)) => s.update(&v, deltas != 0),
                _ => return Err(mismatch()),
            }
            .map_err(|_| mismatch())
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
