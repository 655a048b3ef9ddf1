//! Interval collection: the counts recorded since the previous collect move out of a live
//! histogram, which goes on counting from zero. Writers never wait for a collect. What a
//! record concurrent with a collect sees, by mode:
//! - interlocked and thread-local: exact; each record lands in exactly one interval, so the
//!   intervals plus what is left add up to everything recorded, whatever writers do.
//! - single writer: exact from the writing thread (or while it does not record); from
//!   another thread the record in flight when a bucket is taken may count in this interval
//!   and again in the next.
//! - approximate: each counter update lands in exactly one interval; an interval's bucket is
//!   an estimate with the counter's error for that interval's count.
//!
//! A collect counts as a reset for snapshots taken with deltas.

use picollo_core::concurrent::{CounterBits, Mode};

use crate::args::query;
use crate::boundary::boundary;
use crate::handle::{try_mut, try_ref};
use crate::histogram::any::{config_error, merge_error, Histogram};
use crate::histogram::picollo_histogram;
use crate::histogram::snapshot::picollo_snapshot;
use crate::status::picollo_status;

/// Moves the counts recorded into `h` since its previous collect or reset into a new histogram in
/// `*out`, for `picollo_histogram_free`; `h` counts on from zero (docs/c-api.md, "Metrics export").
/// Errors: NULL `h` or `out`; `OUT_OF_MEMORY` (nothing taken). Threads: writers keep recording.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_collect(
    h: *mut picollo_histogram,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    query!(h, new out = |h| {
        // The new handle first: once counts are taken, nothing may fail and lose them.
        let interval = Histogram::with_shape(h.shape(), CounterBits::U64, Mode::SingleWriter)
            .map_err(config_error)?;
        let taken = h.changeable("picollo_histogram_collect")?.collect()?;
        interval.add_view(&taken.view()).map_err(merge_error)?;
        interval.set_value_selection(h.value_selection());
        interval
    })
}

/// Moves the interval of `h` (as `picollo_histogram_collect`) into the snapshot `s`, allocating
/// nothing. Errors: NULL `s` or `h`; `LAYOUT_MISMATCH` (nothing taken) when `h`'s configuration
/// or counter width is not that of `s`'s histogram. Threads: writers may keep recording.
#[no_mangle]
pub unsafe extern "C" fn picollo_snapshot_collect(
    s: *mut picollo_snapshot,
    h: *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let s = try_mut!(s)?;
        let h = try_ref!(h)?.changeable("picollo_snapshot_collect")?;
        s.collect(h)
            .map_err(|_| crate::histogram::snapshot::mismatch())
    })
}
