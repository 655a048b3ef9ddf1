//! `picollo_snapshot_*` and `picollo_float_snapshot_*`: a copy of a histogram refreshed in
//! place, optionally as deltas.

use picollo_core::float::FloatCounts;

use crate::args::query;
use crate::boundary::boundary;
use crate::error::Failure;
use crate::float::picollo_float_histogram;
use crate::handle::{free_boxed, try_mut, try_ref};
use crate::histogram::any::config_error;
use crate::histogram::picollo_histogram;
use crate::histogram::query::{percentiles_into, rank_query};
use crate::histogram::types::{picollo_float_summary, picollo_percentile, picollo_summary};
use crate::status::picollo_status;

/// A copy of a histogram's counts (opaque), refreshed by `_update` without allocating.
pub struct picollo_snapshot {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_snapshot => Snapshot);

/// The Rust value behind a `picollo_snapshot` handle.
pub(crate) use picollo_core::concurrent::DynSnapshot as Snapshot;

pub(crate) fn mismatch() -> Failure {
    Failure::new(
        picollo_status::LayoutMismatch,
        "the histogram does not have this snapshot's configuration (relative error, range \
         and counter width must match the histogram the snapshot was made from)",
    )
}

/// Takes a snapshot of `h` (one consistent copy; writers may go on); the caller frees `*out`
/// with `picollo_snapshot_free`.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_new(
    h: *const picollo_histogram,
    out: *mut *mut picollo_snapshot,
) -> picollo_status {
    query!(h, new out = |h| Snapshot::new(h).map_err(config_error)?)
}

/// Refreshes `s` from `h` (or a histogram of the same configuration) without allocating: what was
/// recorded since the previous update (or reset) with `deltas` non-zero, else the full counts.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_update(
    s: *mut picollo_snapshot,
    h: *const picollo_histogram,
    deltas: u32,
) -> picollo_status {
    boundary!({
        let s = try_mut!(s)?;
        s.update(try_ref!(h)?, deltas != 0).map_err(|_| mismatch())
    })
}

/// Writes the snapshot's standard summary to `*out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_summary(
    s: *const picollo_snapshot,
    out: *mut picollo_summary,
) -> picollo_status {
    query!(s, out = |s| (&s.view().summary()).into())
}

/// Writes the snapshot's percentiles of `n` ranks to `out` (rules of `picollo_histogram_percentiles`).
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_percentiles(
    s: *const picollo_snapshot,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        rank_query((s, "s"), (ranks, n, out), |s, ranks, out| {
            percentiles_into(s.view(), ranks, out)
        })
    }
}

/// Frees a snapshot; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_free(s: *mut picollo_snapshot) {
    free_boxed!(s)
}

/// A copy of a float histogram's counts (opaque), refreshed in place, optionally as deltas.
pub struct picollo_float_snapshot {
    _private: [u8; 0],
}

/// The value behind a `picollo_float_snapshot`: the copy shown and the full copy the next
/// delta is taken against.
pub(crate) struct FloatSnapshot {
    shown: FloatCounts,
    last: FloatCounts,
}

crate::handle::boxed!(picollo_float_snapshot => FloatSnapshot);

/// Takes a snapshot of `h` with full counts; the caller frees `*out` with
/// `picollo_float_snapshot_free`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_snapshot_new(
    h: *const picollo_float_histogram,
    out: *mut *mut picollo_float_snapshot,
) -> picollo_status {
    query!(h, new out = |h| {
        let counts = h.counts()?;
        FloatSnapshot {
            shown: counts.clone(),
            last: counts,
        }
    })
}

/// Frees a float snapshot; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_snapshot_free(s: *mut picollo_float_snapshot) {
    free_boxed!(s)
}

/// Copies `h` (same layout and range) into `s` again, or with `deltas` non-zero what was recorded
/// since the previous refresh (extremes NaN). Errors: `LAYOUT_MISMATCH`, nothing changed.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_snapshot_update(
    s: *mut picollo_float_snapshot,
    h: *const picollo_float_histogram,
    deltas: u32,
) -> picollo_status {
    boundary!({
        let s = try_mut!(s)?;
        let h = try_ref!(h)?;
        let now = h.counts()?;
        let shown = if deltas != 0 {
            now.delta(&s.last)
                .map_err(crate::histogram::any::merge_error)?
        } else {
            if now.shape() != s.last.shape() {
                return Err(Failure::new(
                    picollo_status::LayoutMismatch,
                    "the histogram's layout or range differs from the snapshot's",
                ));
            }
            now.clone()
        };
        s.shown = shown;
        s.last = now;
        Ok(())
    })
}

/// Writes the standard summary of a float snapshot to `*out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_snapshot_summary(
    s: *const picollo_float_snapshot,
    out: *mut picollo_float_summary,
) -> picollo_status {
    query!(s, out = |s| (&s.shown.summary()).into())
}
