//! Percentiles and summaries of integer and float histograms, moments, and the bodies the
//! rank and batch calls share.

use picollo_core::float::FloatPercentile;
use picollo_core::{Percentile, QueryError};

use crate::args::{out, query, require, try_slice, try_slice_mut, write_out};
use crate::boundary::boundary;
use crate::error::Failure;
use crate::float::picollo_float_histogram;
use crate::handle::{try_mut, try_ref, Castable};
use crate::histogram::any::AnyView;
use crate::histogram::picollo_histogram;
use crate::histogram::types::{
    picollo_float_percentile, picollo_float_summary, picollo_percentile, picollo_summary,
};
use crate::status::picollo_status;

/// `n` copies of `value` in a vector whose allocation failing is reported, not fatal (`n`
/// comes from the caller).
pub(crate) fn try_buffer<T: Clone>(n: usize, value: T) -> Result<Vec<T>, Failure> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Failure::out_of_memory(picollo_core::OutOfMemory {
            bytes: n.saturating_mul(std::mem::size_of::<T>()),
        })
    })?;
    v.resize(n, value);
    Ok(v)
}

pub(crate) fn query_error(e: QueryError) -> Failure {
    let status = match e {
        QueryError::Empty => picollo_status::Empty,
        _ => picollo_status::InvalidArgument,
    };
    Failure::new(status, e)
}

/// Writes the percentile at `rank` (percent, 0..100) to `*out`. Errors: `INVALID_ARGUMENT` for a
/// rank that is NaN or outside 0..100; `EMPTY` when no value is in range.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentile(
    h: *const picollo_histogram,
    rank: f64,
    out: *mut picollo_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract: one rank, one output slot.
    unsafe { picollo_histogram_percentiles(h, &rank, 1, out) }
}

/// Writes the percentiles of `n` ranks, found in one pass over one copy, to `out[0..n]`.
/// Errors: as `picollo_histogram_percentile`, and `INVALID_ARGUMENT` unless strictly increasing.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentiles(
    h: *const picollo_histogram,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        rank_query((h, "h"), (ranks, n, out), |h, ranks, out| {
            h.with_view(|view| percentiles_into(view, ranks, out))?
        })
    }
}

/// The body of the rank queries of histograms and snapshots: the handle `h` (named `name` when
/// NULL), then its `ranks` and `out` arrays of `n` elements each, both checked for NULL before
/// either is read, given to `query`.
///
/// # Safety
/// The exported function's pointer contract for `h`, `ranks` and `out`.
pub(crate) unsafe fn rank_query<H: Castable, O>(
    (h, name): (*const H, &str),
    (ranks, n, out): (*const f64, usize, *mut O),
    query: impl FnOnce(&H::RustType, &[f64], &mut [O]) -> Result<(), Failure>,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h, name)?;
        require(ranks, n, "ranks")?;
        require(out, n, "out")?;
        query(h, try_slice!(ranks, n)?, try_slice_mut!(out, n)?)
    })
}

/// The body of the percentile queries, shared by histograms and snapshots: `out` has the
/// length of `ranks`.
pub(crate) fn percentiles_into(
    view: AnyView<'_>,
    ranks: &[f64],
    out: &mut [picollo_percentile],
) -> Result<(), Failure> {
    let find = |tmp: &mut [Percentile]| view.as_view().percentiles(ranks, tmp);
    found_into(out, |tmp| find(tmp).map_err(query_error), |p| p.into())
}

/// Fill `out` with what `find` writes into a scratch buffer of as many `P`s, each converted by
/// `convert`: `out` is written only when `find` succeeds.
pub(crate) fn found_into<P: Clone + Default, O>(
    out: &mut [O],
    find: impl FnOnce(&mut [P]) -> Result<(), Failure>,
    convert: impl Fn(&P) -> O,
) -> Result<(), Failure> {
    let mut tmp = try_buffer(out.len(), P::default())?;
    find(&mut tmp)?;
    for (o, p) in out.iter_mut().zip(&tmp) {
        *o = convert(p);
    }
    Ok(())
}

/// Writes the values only of `n` ranks to `out[0..n]` (rules of `picollo_histogram_percentiles`).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentile_values(
    h: *const picollo_histogram,
    ranks: *const f64,
    n: usize,
    out: *mut u64,
) -> picollo_status {
    // SAFETY: forwarded contract.
    unsafe {
        rank_query((h, "h"), (ranks, n, out), |h, ranks, out| {
            let find = |tmp: &mut [u64]| {
                h.with_view(|view| view.as_view().percentile_values(ranks, tmp))?
                    .map_err(query_error)
            };
            found_into(out, find, |&v| v)
        })
    }
}

/// Fills `*out` with the standard summary, allocating nothing (empty: zero percentiles, NaN moments).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_summary(
    h: *const picollo_histogram,
    out: *mut picollo_summary,
) -> picollo_status {
    query!(h, out = |h| (&h.with_view(|view| view.summary())?).into())
}

/// Writes the mean and population standard deviation over bucket midpoints (NaN when empty);
/// either output may be NULL.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_mean_stdev(
    h: *const picollo_histogram,
    mean: *mut f64,
    stdev: *mut f64,
) -> picollo_status {
    boundary!({
        let (m, s) = try_ref!(h)?.with_view(|view| view.as_view().moments())?;
        out!(mean?, m)?;
        out!(stdev?, s)
    })
}

/// Writes the percentile at `rank` (percent, 0..100) to `*out`. Errors: `INVALID_ARGUMENT` for
/// a rank that is NaN or outside 0..100; `EMPTY` when no value is in a bucket.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_percentile(
    h: *const picollo_float_histogram,
    rank: f64,
    out: *mut picollo_float_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract: one rank, one output slot.
    unsafe { picollo_float_histogram_percentiles(h, &rank, 1, out) }
}

/// Writes the percentiles of `n` ranks, found in one walk, to `out`. Errors: as
/// `picollo_float_histogram_percentile`, and `INVALID_ARGUMENT` unless strictly increasing.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_percentiles(
    h: *const picollo_float_histogram,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_float_percentile,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let ranks = try_slice!(ranks, n)?;
        let out = try_slice_mut!(out, n)?;
        let counts = h.counts()?;
        let find = |found: &mut [FloatPercentile]| counts.percentiles(ranks, found);
        found_into(out, |found| find(found).map_err(query_error), |p| p.into())
    })
}

/// Writes the standard summary of `h` to `*out` (empty: zero counts, NaN moments and extremes).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_summary(
    h: *const picollo_float_histogram,
    out: *mut picollo_float_summary,
) -> picollo_status {
    query!(h, out = |h| (&h.counts()?.summary()).into())
}

/// What a batch call says of itself in its failures.
pub(crate) struct BatchWords {
    /// The failure for a batch of capacity 0.
    pub(crate) zero_cap: &'static str,
    /// The failure when nothing is left.
    pub(crate) end: &'static str,
    /// Whether a NULL `written` is a failure (else the count is not written).
    pub(crate) written_required: bool,
}

/// The body of the batch calls: up to `cap` items from `*cursor` on into `out`, their number
/// to `*written`, and `*cursor` moved past them. `fill` writes them and returns how many and
/// the cursor after them; none is the end (`OUT_OF_RANGE`, nothing changed).
///
/// # Safety
/// The exported function's pointer contract for every pointer.
pub(crate) unsafe fn next_batch<H: Castable, T, K: Castable<RustType = K> + Copy>(
    h: *const H,
    cursor: *mut K,
    (out, cap): (*mut T, usize),
    written: *mut usize,
    words: BatchWords,
    fill: impl FnOnce(&H::RustType, K, &mut [T]) -> Result<(usize, K), Failure>,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let cursor = try_mut!(cursor)?;
        if cap == 0 {
            return Err(Failure::invalid(words.zero_cap));
        }
        let out = try_slice_mut!(out, cap)?;
        let (n, next) = fill(h, *cursor, out)?;
        if n == 0 {
            return Err(Failure::out_of_range(words.end));
        }
        *cursor = next;
        // SAFETY: the exported function's contract: `written` is NULL or writable.
        unsafe { write_out(written, n, "written", words.written_required) }
    })
}
