//! `picollo_cumulative_*`: a read-only copy of a histogram's running totals, for a reader that
//! asks many questions of one moment: each percentile a binary search, each rank or count
//! between values a subtraction (the core's `Cumulative`).

use picollo_core::counter::Counts;
use picollo_core::{Counter, Cumulative, View};

use crate::args::query;
use crate::error::Failure;
use crate::handle::free_boxed;
use crate::histogram::picollo_histogram;
use crate::histogram::query::{found_into, query_error, rank_query, try_buffer};
use crate::histogram::types::picollo_percentile;
use crate::status::picollo_status;

/// A read-only copy of a histogram's running totals (opaque): one moment's answers, never
/// refreshed. Threads: any number of threads may query one at once.
pub struct picollo_cumulative {
    _private: [u8; 0],
}

/// The Rust value behind a `picollo_cumulative`: both counter widths read as `u64`.
pub(crate) type Totals = Cumulative<u64, Vec<u64>>;

crate::handle::boxed!(picollo_cumulative => Totals);

/// The running totals of `view`, their storage allocated here (a failure is reported).
fn totals_of<C: Counter, T: Counts<C> + ?Sized>(view: &View<'_, C, T>) -> Result<Totals, Failure> {
    let storage = try_buffer(view.shape().len() + 1, 0u64)?;
    let totals = Cumulative::from_storage(view, storage).map_err(query_error)?;
    Ok(totals.widen())
}

/// Makes the running totals of `h` now (one pass over its counts; writers may go on) in
/// `*out`, for `picollo_cumulative_free`. Errors: `OUT_OF_MEMORY`; `INVALID_ARGUMENT` when the
/// total count passes 2^64 - 1.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_new(
    h: *const picollo_histogram,
    out: *mut *mut picollo_cumulative,
) -> picollo_status {
    query!(h, new out = |h| h.with_view(|view| { let v = view.as_view(); totals_of(&v) })??)
}

/// Frees a cumulative copy; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_free(c: *mut picollo_cumulative) {
    free_boxed!(c)
}

/// Writes the percentile at `rank` (percent, 0..100) to `*out`: the answer of
/// `picollo_histogram_percentile` on the source at the copy's moment, found by binary search.
/// Errors: `INVALID_ARGUMENT` for a rank that is NaN or outside 0..100; `EMPTY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_percentile(
    c: *const picollo_cumulative,
    rank: f64,
    out: *mut picollo_percentile,
) -> picollo_status {
    query!(c, |c| (&c.percentile(rank).map_err(query_error)?).into() => out)
}

/// Writes the percentiles of `n` strictly increasing ranks to `out[0..n]` (rules of
/// `picollo_histogram_percentiles`), one search each.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_percentiles(
    c: *const picollo_cumulative,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        rank_query((c, "c"), (ranks, n, out), |c, ranks, out| {
            let find = |tmp: &mut [_]| c.percentiles(ranks, tmp).map_err(query_error);
            found_into(out, find, |p| p.into())
        })
    }
}

/// Writes to `*out` the number of values in range at or below `value`, its bucket counted in
/// part (the answer of `picollo_histogram_rank_of`).
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_rank_of(
    c: *const picollo_cumulative,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    query!(c, |c| c.view().rank_of(value) => out)
}

/// Writes to `*out` the fraction (0..1) of the values in range at or below `value` (the
/// answer of `picollo_histogram_quantile_of`). Errors: `EMPTY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_quantile_of(
    c: *const picollo_cumulative,
    value: u64,
    out: *mut f64,
) -> picollo_status {
    query!(c, |c| c.view().quantile_of(value).map_err(query_error)? => out)
}

/// Writes to `*out` the count of every bucket that holds a value of `[lo, hi]` (the answer of
/// `picollo_histogram_count_between`). Errors: `INVALID_ARGUMENT` when `lo > hi`.
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_count_between(
    c: *const picollo_cumulative,
    lo: u64,
    hi: u64,
    out: *mut u64,
) -> picollo_status {
    query!(c, |c| c.view().count_between(lo, hi).map_err(query_error)? => out)
}

/// Writes to `*out` the count of values in the range (underflow and overflow not included).
#[no_mangle]
pub unsafe extern "C" fn picollo_cumulative_total_count(
    c: *const picollo_cumulative,
    out: *mut u64,
) -> picollo_status {
    query!(c, |c| c.total_count() => out)
}
