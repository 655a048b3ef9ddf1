//! Queries by value (rank, quantile, count between, equivalent range) and histograms of
//! another precision (adding re-binned counts, downsampling).

use picollo_core::float::{FloatConfig, FloatHistogram};
use picollo_core::{Config, MergeError};

use crate::any_histogram::{config_error, dispatch_view, merge_error};
use crate::args::out;
use crate::boundary::boundary;
use crate::error::Failure;
use crate::float::{each_float, picollo_float_histogram, AnyFloat};
use crate::handle::{set_boxed, try_mut, try_ref};
use crate::hdr::handle_of;
use crate::histogram::picollo_histogram;
use crate::query::query_error;
use crate::status::picollo_status;

/// Writes to `*out` the number of values at or below `value` (its rank): whole buckets
/// below count fully, `value`'s own bucket in part, as if its values were spread evenly
/// over it (`count · (value − lowest + 1) / width`; exact for the width-1 buckets).
/// Underflow and overflow are not counted, as in percentiles.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_rank_of(
    h: *const picollo_histogram,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let rank = h.with_view(|view| dispatch_view!(view, v => v.rank_of(value)))?;
        out!(out, rank)
    })
}

/// Writes to `*out` the fraction (0..1) of the values in range at or below `value`
/// (`picollo_histogram_rank_of` over the count in range): the inverse of a percentile.
///
/// Errors: `EMPTY` when the range holds no value.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_quantile_of(
    h: *const picollo_histogram,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let q = h
            .with_view(|view| dispatch_view!(view, v => v.quantile_of(value)))?
            .map_err(query_error)?;
        out!(out, q)
    })
}

/// Writes to `*out` the count of every bucket that holds a value in `[lo, hi]` (whole
/// buckets, as HdrHistogram's `getCountBetweenValues`: exact when `lo` and `hi` are bucket
/// bounds). Underflow and overflow are not counted.
///
/// Errors: `INVALID_ARGUMENT` when `lo > hi`.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_count_between(
    h: *const picollo_histogram,
    lo: u64,
    hi: u64,
    out: *mut u64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let n = h
            .with_view(|view| dispatch_view!(view, v => v.count_between(lo, hi)))?
            .map_err(query_error)?;
        out!(out, n)
    })
}

/// Writes the smallest and largest values of the bucket `value` falls in under `h`'s
/// layout (HdrHistogram's lowest and highest equivalent values), whether or not anything
/// was recorded and whether or not `value` is in `h`'s range. Two values share a bucket
/// when their lowest equivalents are equal; the next bucket starts at `highest + 1`.
///
/// # Safety
/// `h` is NULL or a live handle; `lowest` and `highest` are NULL or writable (NULL skips).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_equivalent_range(
    h: *const picollo_histogram,
    value: u64,
    lowest: *mut u64,
    highest: *mut u64,
) -> picollo_status {
    boundary!({
        let layout = try_ref!(h)?.shape().layout();
        out!(lowest?, layout.lowest_equivalent(value))?;
        out!(highest?, layout.highest_equivalent(value))
    })
}

/// Adds every count of `src` into `dst` whatever their relative errors (and ranges,
/// counter widths and modes), re-binned into `dst`'s layout. Both layouts split every
/// octave into a power of two of aligned buckets, so:
/// - into a coarser (or the same) layout each source bucket lands whole in the bucket that
///   holds all its values: exactly what recording the values into `dst` would have given;
/// - into a finer layout a source bucket's count is shared equally among the buckets it
///   covers (the remainder to the lowest), so a value may land up to one source bucket
///   away: the result carries `src`'s relative error.
///
/// Counts outside `dst`'s range go to its underflow/overflow. `src` is read as one
/// consistent copy (it may be `dst`, which then doubles); the counts land like records
/// (threads: see `picollo_histogram`).
///
/// Errors: `OUT_OF_MEMORY` for the re-binned copy.
///
/// # Safety
/// Both are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add_rebinned(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    boundary!({
        let (dst, src) = (try_ref!(dst)?, try_ref!(src)?);
        dst.add_rebinned(src).map_err(merge_error)
    })
}

/// Creates in `*out` a copy of `h` at a coarser precision (`relative_error`, clamped to
/// `[1e-6, 0.1]` as at creation): exactly the histogram the recorded values would have
/// made at that precision, with `h`'s range, value selection and outside counts, 64-bit
/// counters and single-writer mode. Free it with `picollo_histogram_free`. `h` is read as
/// one consistent copy.
///
/// Errors: `INVALID_ARGUMENT` for a relative error that is NaN, infinite or not positive;
/// `LAYOUT_MISMATCH` for one finer than `h`'s (it could only spread counts over buckets the
/// data never told apart: use `picollo_histogram_add_rebinned` into a finer histogram to
/// do that knowingly); `OUT_OF_MEMORY`.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_downsample(
    h: *const picollo_histogram,
    relative_error: f64,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        Config::new()
            .with_relative_error(relative_error)
            .validate()
            .map_err(config_error)?;
        let coarse = h
            .with_view(|view| dispatch_view!(view, v => v.downsample(relative_error)))?
            .map_err(|e| downsample_error(relative_error, e))?;
        set_boxed(out, handle_of(&coarse)?);
        Ok(())
    })
}

/// Adds every count of `src` into `dst` whatever their relative errors, re-binned into
/// `dst`'s layout as `picollo_histogram_add_rebinned` does for integers (exact into a
/// coarser layout; spread within each source bucket into a finer one), with `src`'s zero,
/// NaN, infinity and outside counts, its sum and extremes, as `picollo_float_histogram_add`.
/// `dst` and `src` may not be the same handle. `src` is read as one consistent copy.
///
/// # Safety
/// Both are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_add_rebinned(
    dst: *mut picollo_float_histogram,
    src: *const picollo_float_histogram,
) -> picollo_status {
    boundary!({
        if std::ptr::eq(dst, src) && !dst.is_null() {
            return Err(Failure::invalid("dst and src are the same histogram"));
        }
        let (dst, src) = (try_ref!(dst)?, try_ref!(src)?);
        each_float!(dst, d => each_float!(src, s => d.add_rebinned(s))).map_err(merge_error)
    })
}

/// Creates in `*out` a copy of `h` at a coarser precision (`relative_error`, clamped to
/// `[1e-6, 0.1]` as at creation): exactly the histogram the recorded values would have
/// made at that precision (every bucket lands whole in the coarser one that holds it),
/// with `h`'s range, storage, value selection, zero, NaN, infinity and outside counts, sum
/// and extremes, 64-bit counters and single-writer mode. Values `h` counted as underflow
/// or overflow stay so. Free it with `picollo_float_histogram_free`. `h` is read as one
/// consistent copy.
///
/// Errors: `INVALID_ARGUMENT` for a relative error that is NaN, infinite or not positive;
/// `LAYOUT_MISMATCH` for one finer than `h`'s (use `picollo_float_histogram_add_rebinned`
/// into a finer histogram to spread counts knowingly); `OUT_OF_MEMORY`.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_downsample(
    h: *const picollo_float_histogram,
    relative_error: f64,
    out: *mut *mut picollo_float_histogram,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        FloatConfig::new()
            .with_relative_error(relative_error)
            .validate()
            .map_err(config_error)?;
        let coarse: FloatHistogram<u64> = each_float!(h, f => f.downsample(relative_error))
            .map_err(|e| downsample_error(relative_error, e))?;
        set_boxed(out, AnyFloat::U64(coarse));
        Ok(())
    })
}

/// A downsample's failure as its status: the core refuses a precision finer than the
/// histogram's with `LayoutMismatch` (the arguments were validated before), which this
/// words for the caller who asked for `relative_error`.
fn downsample_error(relative_error: f64, e: MergeError) -> Failure {
    match e {
        MergeError::LayoutMismatch { this, other } => Failure::new(
            picollo_status::LayoutMismatch,
            format_args!(
                "downsample needs a precision at least as coarse as the histogram's: \
                 {relative_error} gives buckets within {:.4}%, finer than its {:.4}%",
                other * 100.0,
                this * 100.0
            ),
        ),
        e => merge_error(e),
    }
}
