//! Interval collection into a new histogram and into a snapshot, in every mode.

use std::ptr;

use picollo_core::ValueSelection;

use super::histogram;
use crate::histogram::snapshot::{
    picollo_snapshot, picollo_snapshot_free, picollo_snapshot_new, Snapshot,
};
use crate::histogram::{picollo_histogram_record, picollo_histogram_record_n};
use crate::metrics::{picollo_histogram_collect, picollo_snapshot_collect};
use crate::status::picollo_status;
use crate::testing::{last_error, Handle};

fn collect(h: &Handle) -> Handle {
    let mut out = ptr::null_mut();
    // SAFETY: a live handle and a writable slot.
    let status = unsafe { picollo_histogram_collect(h.0, &mut out) };
    assert_eq!(status, picollo_status::Ok, "{}", last_error());
    Handle::adopt(out)
}

const MODES: [u32; 4] = [0, 1, 2, 3];

#[test]
fn collect_returns_the_interval_and_restarts_the_source_in_every_mode() {
    for bits in [32, 64] {
        for mode in MODES {
            let h = histogram(bits, mode, (1..=500).map(|v| v * 37));
            // SAFETY: live handles.
            unsafe {
                picollo_histogram_record_n(h.0, 3, 7);
                crate::histogram::picollo_histogram_set_value_selection(h.0, 2);
            }
            let before = h.buckets();
            let first = collect(&h);
            assert_eq!(first.buckets(), before, "bits {bits} mode {mode}");
            assert_eq!(first.total(), 507);
            assert_eq!(first.rust().value_selection(), ValueSelection::Upper);
            assert_eq!(first.rust().shape(), h.rust().shape());
            assert_eq!(h.total(), 0, "bits {bits} mode {mode}");
            // The next interval holds only what came after.
            // SAFETY: a live handle.
            unsafe { picollo_histogram_record(h.0, 1_000_000) };
            let second = collect(&h);
            assert_eq!(second.total(), 1);
            assert_eq!(second.buckets(), histogram(64, 0, [1_000_000]).buckets());
            assert_eq!(collect(&h).total(), 0);
        }
    }
    let mut out = ptr::null_mut();
    let h = histogram(64, 0, [1]);
    // SAFETY: NULL arguments are refused.
    unsafe {
        assert_eq!(
            picollo_histogram_collect(ptr::null_mut(), &mut out),
            picollo_status::NullPointer
        );
        assert_eq!(
            picollo_histogram_collect(h.0, ptr::null_mut()),
            picollo_status::NullPointer
        );
    }
    assert!(out.is_null());
    assert_eq!(h.total(), 1, "a refused collect takes nothing");
}

/// The snapshot behind `s`'s non-empty buckets, as (lower bound, count).
fn counted(s: *mut picollo_snapshot) -> Vec<(u64, u64)> {
    // SAFETY: a live snapshot points to a `Snapshot` (`Castable`).
    let snap = unsafe { &*s.cast::<Snapshot>() };
    let view = snap.view();
    let buckets = view.as_view().buckets().filter(|b| b.count != 0);
    buckets.map(|b| (b.lower, b.count)).collect()
}

#[test]
fn snapshot_collect_takes_the_interval_into_the_snapshot() {
    for bits in [32, 64] {
        for mode in MODES {
            let h = histogram(bits, mode, [5, 50, 500, 5_000]);
            let mut s = ptr::null_mut();
            // SAFETY: a live handle and a writable slot.
            let status = unsafe { picollo_snapshot_new(h.0, &mut s) };
            assert_eq!(status, picollo_status::Ok);
            // SAFETY: live handles.
            unsafe { picollo_histogram_record(h.0, 77) };
            let expected = h.buckets();
            // SAFETY: a live snapshot and handle.
            let status = unsafe { picollo_snapshot_collect(s, h.0) };
            assert_eq!(status, picollo_status::Ok, "{}", last_error());
            assert_eq!((counted(s), 0, 0), expected, "bits {bits} mode {mode}");
            assert_eq!(h.total(), 0);
            // Another configuration is refused and nothing is taken.
            let other = histogram(bits, mode, [1]);
            let coarse = Handle::new(bits, 0.01, mode);
            // SAFETY: live handles.
            unsafe { picollo_histogram_record(coarse.0, 1) };
            // SAFETY: a live snapshot and handles.
            unsafe {
                assert_eq!(picollo_snapshot_collect(s, other.0), picollo_status::Ok);
                assert_eq!(
                    picollo_snapshot_collect(s, coarse.0),
                    picollo_status::LayoutMismatch
                );
                assert_eq!(
                    picollo_snapshot_collect(s, ptr::null_mut()),
                    picollo_status::NullPointer
                );
                assert_eq!(
                    picollo_snapshot_collect(ptr::null_mut(), h.0),
                    picollo_status::NullPointer
                );
                picollo_snapshot_free(s);
            }
            assert_eq!(coarse.total(), 1);
        }
    }
}
