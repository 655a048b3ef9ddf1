//! Queries by value (rank, quantile, count between, equivalent range) and histograms of
//! another precision (adding re-binned counts, downsampling).

use picollo_core::float::FloatHistogram;
use picollo_core::MergeError;

use crate::args::{out, query};
use crate::boundary::boundary;
use crate::error::Failure;
use crate::float::{each_float, merge_floats, picollo_float_histogram, AnyFloat};
use crate::handle::try_ref;
use crate::histogram::any::merge_error;
use crate::histogram::picollo_histogram;
use crate::histogram::query::query_error;
use crate::status::picollo_status;
use crate::text::hdr::handle_of;

/// Writes to `*out` the number of values in range at or below `value`, `value`'s own bucket
/// counted in part (docs/doubles-and-sparse.md, "Queries by value").
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_rank_of(
    h: *const picollo_histogram,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    query!(h, |h| h.with_view(|view| view.as_view().rank_of(value))? => out)
}

/// Writes to `*out` the fraction (0..1) of the values in range at or below `value`: the inverse
/// of a percentile. Errors: `EMPTY` when the range holds no value.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_quantile_of(
    h: *const picollo_histogram,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    query!(h, |h| {
        h.with_view(|view| view.as_view().quantile_of(value))?
            .map_err(query_error)?
    } => out)
}

/// Writes to `*out` the count of every bucket that holds a value of `[lo, hi]` (whole buckets,
/// as HdrHistogram counts). Errors: `INVALID_ARGUMENT` when `lo > hi`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_count_between(
    h: *const picollo_histogram,
    lo: u64,
    hi: u64,
    out: *mut u64,
) -> picollo_status {
    query!(h, |h| {
        h.with_view(|view| view.as_view().count_between(lo, hi))?
            .map_err(query_error)?
    } => out)
}

/// Writes the smallest and largest value of `value`'s bucket under `h`'s layout (HdrHistogram's
/// lowest and highest equivalent values), recorded or not, in range or not. `lowest` or
/// `highest` may be NULL (not written).
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

/// Writes to `*out` the number of values at or below `x` (±∞ allowed), `x`'s bucket counted in part
/// (docs/c-api.md, "Float histograms"). Errors: `INVALID_ARGUMENT` for NaN.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_rank_of(
    h: *const picollo_float_histogram,
    x: f64,
    out: *mut f64,
) -> picollo_status {
    query!(h, |h| h.counts()?.rank_of(x).map_err(query_error)? => out)
}

/// Writes to `*out` the fraction (0..1) of the values in buckets at or below `x`. Errors:
/// `INVALID_ARGUMENT` for NaN; `EMPTY` when no value is in a bucket.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_quantile_of(
    h: *const picollo_float_histogram,
    x: f64,
    out: *mut f64,
) -> picollo_status {
    query!(h, |h| h.counts()?.quantile_of(x).map_err(query_error)? => out)
}

/// Writes to `*out` the count of every bucket that holds a value of `[lo, hi]` (whole buckets).
/// Errors: `INVALID_ARGUMENT` for a NaN bound or `lo > hi`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_count_between(
    h: *const picollo_float_histogram,
    lo: f64,
    hi: f64,
    out: *mut u64,
) -> picollo_status {
    query!(h, |h| h.counts()?.count_between(lo, hi).map_err(query_error)? => out)
}

/// Writes the smallest and largest value of `x`'s bucket (`[0, 0]` for zero), recorded or not.
/// Errors: `INVALID_ARGUMENT` for NaN or ±∞; `OUT_OF_RANGE` for a magnitude outside the range.
/// `lowest` or `highest` may be NULL (not written).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_equivalent_range(
    h: *const picollo_float_histogram,
    x: f64,
    lowest: *mut f64,
    highest: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        if !x.is_finite() {
            return Err(Failure::invalid(format_args!(
                "{x} has no bucket: it must be finite"
            )));
        }
        let shape = each_float!(h, f => f.shape());
        let (lo, hi) = shape.equivalent_range(x).ok_or_else(|| {
            let (min, max) = shape.range();
            Failure::new(
                picollo_status::OutOfRange,
                format_args!("|{x:e}| is outside the range {min:e}..={max:e}"),
            )
        })?;
        out!(lowest?, lo)?;
        out!(highest?, hi)
    })
}

/// Adds every count of `src` into `dst` re-binned into `dst`'s layout, whatever their relative
/// errors, ranges, widths and modes (docs/c-api.md, "Other precisions"). `src` may be `dst`.
/// Errors: `OUT_OF_MEMORY`. Threads: `src` read as one copy; into `dst` as records are.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_add_rebinned(
    dst: *mut picollo_histogram,
    src: *const picollo_histogram,
) -> picollo_status {
    boundary!({
        let (dst, src) = (try_ref!(dst)?, try_ref!(src)?);
        let dst = dst.changeable("picollo_histogram_add_rebinned")?;
        dst.add_rebinned(src).map_err(merge_error)
    })
}

/// Creates in `*out`, for `picollo_histogram_free`, the 64-bit single-writer histogram that `h`'s
/// values make at the coarser `relative_error`. Errors: `INVALID_ARGUMENT` for an error that is
/// not finite and above 0; `LAYOUT_MISMATCH` for one finer than `h`'s; `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_downsample(
    h: *const picollo_histogram,
    relative_error: f64,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    query!(h, new out = |h| {
        let coarse = h.with_view(|view| view.as_view().downsample(relative_error))?;
        handle_of(&coarse.map_err(|e| downsample_error(relative_error, e))?)?
    })
}

/// Adds every count of `src` into `dst` re-binned into `dst`'s layout, as
/// `picollo_histogram_add_rebinned` does, with the special counts, sum and extremes as
/// `picollo_float_histogram_add`. `dst` and `src` must differ; `src` is read as one copy.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_add_rebinned(
    dst: *mut picollo_float_histogram,
    src: *const picollo_float_histogram,
) -> picollo_status {
    merge_floats!(dst, src, add_rebinned)
}

/// Creates in `*out`, for `picollo_float_histogram_free`, the float histogram of `h`'s values at
/// the coarser `relative_error` (64-bit, single writer). Errors: as `picollo_histogram_downsample`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_downsample(
    h: *const picollo_float_histogram,
    relative_error: f64,
    out: *mut *mut picollo_float_histogram,
) -> picollo_status {
    query!(h, new out = |h| {
        let coarse: Result<FloatHistogram<u64>, _> =
            each_float!(h, f => f.downsample(relative_error));
        AnyFloat::U64(coarse.map_err(|e| downsample_error(relative_error, e))?)
    })
}

/// A downsample's failure as its status: the core refuses a precision finer than the
/// histogram's with `LayoutMismatch`, which this words for the caller who asked for
/// `relative_error`; an invalid one (`INVALID_ARGUMENT`) and the rest as every merge's.
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
