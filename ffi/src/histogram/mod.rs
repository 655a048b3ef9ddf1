//! `picollo_histogram_*`: create, record, reset, merge; beside them, one module each, the
//! options (`config`), the handle's value (`any`), the queries (`query`, `lookup`,
//! `buckets`, `steps`), snapshots, cumulative copies, recorders, the approximate counter and
//! the C structs (`types`). Their texts are in `crate::text`.

pub(crate) mod any;
pub(crate) mod approx;
pub(crate) mod buckets;
pub(crate) mod config;
pub(crate) mod cumulative;
pub(crate) mod lookup;
pub(crate) mod query;
pub(crate) mod recorder;
pub(crate) mod snapshot;
pub(crate) mod steps;
pub(crate) mod types;

pub use approx::*;
pub use buckets::*;
pub use config::*;
pub use cumulative::*;
pub use lookup::*;
pub use query::*;
pub use recorder::*;
pub use snapshot::*;
pub use steps::*;
pub use types::*;

use crate::args::{create, query, try_slice};
use crate::boundary::boundary;
use crate::convert::{bits_from_c, bits_to_c, mode_to_c, selection_arg, selection_to_c};
use crate::enums::picollo_storage;
use crate::error::Failure;
use crate::handle::{free_boxed, hot_ref, try_ref, Castable};
use crate::histogram::any::{config_error, merge_error, Histogram, HistogramHandle};
use crate::histogram::config::parse_config;
use crate::status::picollo_status;
use picollo_core::concurrent::RecordFn;

/// An HDR histogram (opaque). Threads: queries and snapshots on any thread; records, resets and
/// adds as the mode allows (`picollo_mode`); `_free` races no other call.
pub struct picollo_histogram {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_histogram => HistogramHandle);

/// Creates a histogram from `config` in `*out`, for `picollo_histogram_free`. Errors: NULL
/// `config` or `out`; `STRUCT_SIZE`; `INVALID_ARGUMENT` for a field outside the domain its
/// comment in `picollo_histogram_config` gives, or `min_trackable > max_trackable`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_new(
    config: *const picollo_histogram_config,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    create!(
        config,
        out = |c| {
            let extremes = c.exact_extremes == 1;
            let (config, bits, mode, storage) = parse_config(&c)?;
            let shape = config.validate().map_err(config_error)?;
            let h = Histogram::with_storage(shape, bits_from_c(bits), mode, storage)
                .map_err(config_error)?;
            HistogramHandle::owned(if extremes { h.with_exact_extremes() } else { h })
        }
    )
}

/// Frees a histogram; NULL is ignored, and so is a lent (BORROWED) handle, which its owner
/// frees (the call then leaves a message for `picollo_last_error_message`). Free each handle
/// exactly once.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_free(h: *mut picollo_histogram) {
    if let Some(handle) = hot_ref!(h) {
        if let Err(lent) = handle.freeable() {
            lent.report();
            return;
        }
    }
    free_boxed!(h)
}

/// Records one value. Never fails: values outside the range count as underflow or overflow, a
/// full bucket as saturated; a NULL or read-only handle (a bench result's) is ignored.
/// Threads: as the mode allows.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record(h: *mut picollo_histogram, value: u64) {
    // Only a shared reference: every mode records through atomics or per-thread shards.
    // Nothing unwinds out of it: a panic in a mode's slow path (a bug) stops in core, and
    // the record counts as saturated.
    // A read-only (lent) handle's record function ignores the record.
    if let Some(h) = hot_ref!(h) {
        h.record(value);
    }
}

/// A record function for one counter width and mode (`picollo_histogram_record_fn`):
/// `f(h, value)` records as `picollo_histogram_record(h, value)` does.
pub type picollo_record_fn = Option<unsafe extern "C" fn(h: *mut picollo_histogram, value: u64)>;

/// Returns the record function of `h`'s counter width and mode, which skips the dispatch of
/// `picollo_histogram_record` (docs/c-api.md, "The record paths"); never NULL (for a NULL `h`, one
/// that records nothing). Call it with `h` or a live handle of the same width and mode.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_fn(
    h: *const picollo_histogram,
) -> picollo_record_fn {
    let Some(h) = hot_ref!(h) else {
        return Some(record_nothing);
    };
    let f: RecordFn = h.record_fn();
    // SAFETY: a `picollo_histogram *` points to the `Histogram` behind the handle, and
    // `&T` and `*mut T` pass alike (the same ABI for function pointers); the caller of the
    // returned function promises a live handle of this width and mode (the `RecordFn`
    // contract), as documented above.
    Some(unsafe {
        std::mem::transmute::<RecordFn, unsafe extern "C" fn(*mut picollo_histogram, u64)>(f)
    })
}

/// What `picollo_histogram_record_fn(NULL)` returns.
unsafe extern "C" fn record_nothing(_: *mut picollo_histogram, _: u64) {}

/// Records `count` occurrences of `value` (0 does nothing). Never fails: a full bucket saturates,
/// the excess counted as saturated; a NULL handle is ignored.
/// cbindgen:prefix=PICOLLO_RECORD_ATTR
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_n(
    h: *mut picollo_histogram,
    value: u64,
    count: u64,
) {
    boundary!({
        try_ref!(h)?
            .changeable("picollo_histogram_record_n")?
            .record_n(value, count);
        Ok(())
    })
}

/// Records `value` with coordinated-omission correction: also `value − k·interval` for k ≥ 1
/// while at least `interval` (0: `value` only). Cost bounded by the bucket count; NULL ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_corrected(
    h: *mut picollo_histogram,
    value: u64,
    expected_interval: u64,
) {
    boundary!({
        let h = try_ref!(h)?.changeable("picollo_histogram_record_corrected")?;
        h.record_corrected(value, expected_interval);
        Ok(())
    })
}

/// Records the `n` values of `values` in one call (`values` may be NULL when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_many(
    h: *mut picollo_histogram,
    values: *const u64,
    n: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?.changeable("picollo_histogram_record_many")?;
        h.record_many(try_slice!(values, n)?);
        Ok(())
    })
}

/// Records the `n` signed values of `values` in one call, as `picollo_histogram_record_many`
/// records them (`values` may be NULL when `n` is 0). `INVALID_ARGUMENT`, and nothing recorded,
/// when a value is negative (no histogram holds one). ABI 1.30.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_record_many_i64(
    h: *mut picollo_histogram,
    values: *const i64,
    n: usize,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?.changeable("picollo_histogram_record_many_i64")?;
        h.record_many(unsigned(try_slice!(values, n)?)?);
        Ok(())
    })
}

/// `values` read as `u64`s, without a copy; fails, naming the first, when one is negative.
fn unsigned(values: &[i64]) -> Result<&[u64], Failure> {
    // One OR over every value (it vectorizes): its sign bit is set iff some value's is.
    if values.iter().fold(0, |all, &v| all | v) < 0 {
        if let Some(i) = values.iter().position(|&v| v < 0) {
            return Err(Failure::invalid(format_args!(
                "values[{i}] is negative ({}): a histogram holds values from 0",
                values[i]
            )));
        }
    }
    // SAFETY: `i64` and `u64` have the same size and alignment and every bit pattern is a
    // valid `u64`; no value is negative (checked above), so each reads as the same number.
    Ok(unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u64>(), values.len()) })
}

/// Clears every count (buckets, underflow, overflow, saturated). Threads: as the mode states.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_reset(h: *mut picollo_histogram) -> picollo_status {
    boundary!({
        try_ref!(h)?.changeable("picollo_histogram_reset")?.reset();
        Ok(())
    })
}

/// Chooses how buckets report values (a `picollo_value_selection`). Threads: any thread; a
/// query already running keeps the selection it started with.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_set_value_selection(
    h: *mut picollo_histogram,
    selection: u32,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?.changeable("picollo_histogram_set_value_selection")?;
        let s = selection_arg(selection, "selection")?;
        h.set_value_selection(s);
        Ok(())
    })
}

/// Writes the counts, range, layout and footprint of `h` to `*out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_info(
    h: *const picollo_histogram,
    out: *mut picollo_histogram_info,
) -> picollo_status {
    query!(h, out = |h| info_of(h)?)
}

fn info_of(h: &Histogram) -> Result<picollo_histogram_info, Failure> {
    let (mode, threshold) = mode_to_c(h.mode());
    let (bits, footprint) = (bits_to_c(h.counter_bits()), h.footprint_in_bytes());
    let info = h.with_view(|view| {
        let v = view.as_view();
        let (min, max) = v.range();
        picollo_histogram_info {
            total: v.total_count(),
            underflow: v.underflow_count(),
            overflow: v.overflow_count(),
            saturated: v.saturated_count(),
            min_trackable: min,
            max_trackable: max,
            storage_len: v.shape().len() as u64,
            footprint_bytes: footprint as u64,
            block_size: v.layout().block_size(),
            relative_error: v.layout().relative_error(),
            counter_bits: bits,
            mode: mode as u32,
            value_selection: selection_to_c(v.value_selection()),
            approx_threshold: threshold,
        }
    })?;
    Ok(info)
}

/// Writes to `*out` the unit of `h`'s layout: the width of its lowest buckets, a power of two
/// (from `lowest_discernible`, or a decoded V2 header's; else 1). ABI 1.11.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_unit(
    h: *const picollo_histogram,
    out: *mut u64,
) -> picollo_status {
    query!(
        h,
        out = |h| h.with_view(|view| view.as_view().layout().unit())?
    )
}

/// Writes to `*out` how `h` keeps its counters (a `picollo_storage` value).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_get_storage(
    h: *const picollo_histogram,
    out: *mut u32,
) -> picollo_status {
    boundary!({
        let storage = match try_ref!(h)?.storage() {
            picollo_core::concurrent::Storage::Dense => picollo_storage::Dense,
            picollo_core::concurrent::Storage::Sparse => picollo_storage::Sparse,
        };
        crate::args::out!(out, storage as u32)
    })
}

/// Writes the exact smallest and largest value recorded in range to `*min` and `*max` (either may
/// be NULL), for a histogram made with `exact_extremes = 1`. Errors: NULL `h`; `UNSUPPORTED`
/// when `h` keeps none; `EMPTY` when nothing was recorded in range.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_exact_extremes(
    h: *const picollo_histogram,
    min: *mut u64,
    max: *mut u64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        if !h.tracks_extremes() {
            return Err(Failure::new(
                picollo_status::Unsupported,
                "this histogram keeps no exact extremes: create it with \
                 picollo_histogram_config.exact_extremes = 1",
            ));
        }
        let Some((lo, hi)) = h.exact_extremes() else {
            return Err(Failure::new(
                picollo_status::Empty,
                "no value was recorded in the histogram's range",
            ));
        };
        crate::args::out!(min?, lo)?;
        crate::args::out!(max?, hi)
    })
}

/// Adds every count of `src` into `dst` (same relative error; any range, width, mode; not `dst`),
/// outside `dst`'s range as under/overflow. Errors: `LAYOUT_MISMATCH`. Threads: as records are.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    // SAFETY: forwarded contract: both are NULL or live handles.
    unsafe {
        merge_into(dst, src, |d, s| {
            let d = d.changeable("picollo_histogram_add")?;
            d.add(s).map_err(merge_error)
        })
    }
}

/// Subtracts every count of `src` from `dst`. Errors: `WOULD_GO_NEGATIVE` (nothing changed);
/// `UNSUPPORTED` outside the single-writer mode. Threads: from `dst`'s writing thread.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_subtract(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    // SAFETY: forwarded contract: both are NULL or live handles.
    unsafe {
        merge_into(dst, src, |d, s| {
            let d = d.changeable("picollo_histogram_subtract")?;
            d.subtract(s).map_err(merge_error)
        })
    }
}

/// The body of the functions that merge `src` into another histogram `dst` with `merge`
/// (`picollo_histogram_add`, `_subtract`, `picollo_float_histogram_add`, ...).
///
/// # Safety
/// `dst` and `src` are NULL or live handles.
pub(crate) unsafe fn merge_into<H: Castable>(
    dst: *mut H,
    src: *const H,
    merge: impl FnOnce(&H::RustType, &H::RustType) -> Result<(), Failure>,
) -> picollo_status {
    boundary!({
        if std::ptr::eq(dst, src) && !dst.is_null() {
            return Err(Failure::invalid("dst and src are the same histogram"));
        }
        let (dst, src) = (try_ref!(dst)?, try_ref!(src)?);
        merge(dst, src)
    })
}

#[cfg(test)]
mod tests {
    use super::unsigned;

    #[test]
    fn unsigned_reads_values_from_0_in_place_and_names_the_first_negative() {
        let values = [0, 1, 5000, i64::MAX];
        let read = unsigned(&values).unwrap();
        assert_eq!(read, [0, 1, 5000, i64::MAX as u64]);
        assert_eq!(read.as_ptr() as usize, values.as_ptr() as usize);
        assert!(unsigned(&[]).unwrap().is_empty());
        for (values, message) in [
            (&[-1i64][..], "values[0] is negative (-1)"),
            (
                &[7, 8, i64::MIN, -3][..],
                "values[2] is negative (-9223372036854775808)",
            ),
        ] {
            let failure = unsigned(values).unwrap_err();
            assert!(failure.message.starts_with(message), "{}", failure.message);
        }
    }
}
