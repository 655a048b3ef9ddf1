//! Queries on a histogram: percentiles, summary, moments, buckets.

use picollo::{Percentile, QueryError};

use crate::histogram::{dispatch_view, picollo_histogram, AnyView, Failure};
use crate::status::{as_mut, as_ref, as_slice, as_slice_mut, guard, picollo_status, status_of};
use crate::types::{picollo_bucket, picollo_percentile, picollo_summary};

pub(crate) fn query_error(e: QueryError) -> Failure {
    let status = match e {
        QueryError::Empty => picollo_status::Empty,
        _ => picollo_status::InvalidArgument,
    };
    (status, e.to_string())
}

/// The percentile at `rank` (percent, 0..100).
///
/// Errors: `INVALID_ARGUMENT` for a rank that is NaN, below 0 or above 100; `EMPTY` when the
/// histogram holds no value in its range. `*out` is written only on success.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentile(
    h: *const picollo_histogram,
    rank: f64,
    out: *mut picollo_percentile,
) -> picollo_status {
    // SAFETY: forwarded contract: one rank, one output slot.
    unsafe { picollo_histogram_percentiles(h, &rank, 1, out) }
}

/// Percentiles for `n` ranks in one pass: `ranks` must be strictly increasing numbers in
/// 0..100; `out` receives `n` entries that agree with each other (same total).
///
/// # Safety
/// `h` is NULL or a live handle; `ranks` points to `n` doubles and `out` to `n` writable
/// entries (either may be NULL when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentiles(
    h: *const picollo_histogram,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            h.with_view(|view| unsafe { percentiles_into(view, ranks, n, out) })
        })())
    })
}

/// The body of the percentile queries, shared by histograms and snapshots.
///
/// # Safety
/// `ranks` points to `n` doubles and `out` to `n` writable entries (NULL allowed if n = 0).
pub(crate) unsafe fn percentiles_into(
    view: AnyView<'_>,
    ranks: *const f64,
    n: usize,
    out: *mut picollo_percentile,
) -> Result<(), Failure> {
    // SAFETY: per this function's contract.
    let ranks = unsafe { as_slice(ranks, n, "ranks") }?;
    // SAFETY: per this function's contract.
    let out = unsafe { as_slice_mut(out, n, "out") }?;
    // Compute into a scratch buffer so `out` is written only on success.
    let mut tmp = vec![Percentile::default(); n];
    dispatch_view!(view, v => v.percentiles(ranks, &mut tmp)).map_err(query_error)?;
    for (o, p) in out.iter_mut().zip(tmp.iter()) {
        *o = p.into();
    }
    Ok(())
}

/// Values only for `n` ranks (same rules as `picollo_histogram_percentiles`).
///
/// # Safety
/// As `picollo_histogram_percentiles`, with `out` pointing to `n` writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_percentile_values(
    h: *const picollo_histogram,
    ranks: *const f64,
    n: usize,
    out: *mut u64,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let ranks = unsafe { as_slice(ranks, n, "ranks") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_slice_mut(out, n, "out") }?;
            let mut tmp = vec![0u64; n];
            h.with_view(|view| dispatch_view!(view, v => v.percentile_values(ranks, &mut tmp)))
                .map_err(query_error)?;
            out.copy_from_slice(&tmp);
            Ok(())
        })())
    })
}

/// Fill `*out` with the standard summary (no allocation). An empty histogram gives zero
/// percentiles and NaN mean/stdev.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_summary(
    h: *const picollo_histogram,
    out: *mut picollo_summary,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            let s = h.with_view(|view| dispatch_view!(view, v => v.summary()));
            *out = (&s).into();
            Ok(())
        })())
    })
}

/// Mean and population standard deviation over bucket midpoints (NaN when empty). Either
/// output may be NULL.
///
/// # Safety
/// `h` is NULL or a live handle; `mean`, `stdev` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_mean_stdev(
    h: *const picollo_histogram,
    mean: *mut f64,
    stdev: *mut f64,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            let (m, s) = h.with_view(|view| dispatch_view!(view, v => v.moments()));
            // SAFETY: per this function's contract: NULL or writable.
            if let Some(p) = unsafe { mean.as_mut() } {
                *p = m;
            }
            // SAFETY: per this function's contract: NULL or writable.
            if let Some(p) = unsafe { stdev.as_mut() } {
                *p = s;
            }
            Ok(())
        })())
    })
}

/// The bucket at `storage_index` (0 .. `info.storage_len` − 1), empty or not.
/// `OUT_OF_RANGE` past the end.
///
/// # Safety
/// `h` is NULL or a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_bucket(
    h: *const picollo_histogram,
    storage_index: usize,
    out: *mut picollo_bucket,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            let b = h
                .with_view(|view| dispatch_view!(view, v => v.buckets().nth(storage_index)))
                .ok_or_else(|| {
                    (
                        picollo_status::OutOfRange,
                        format!("storage index {storage_index} is past the last bucket"),
                    )
                })?;
            *out = b.into();
            Ok(())
        })())
    })
}

/// Iterate over non-empty buckets without callbacks: start with `*cursor = 0`; each call
/// writes the next non-empty bucket at or after `*cursor` to `*out`, moves `*cursor` past
/// it and returns OK; at the end it returns `OUT_OF_RANGE` and writes nothing.
///
/// # Safety
/// `h` is NULL or a live handle; `cursor` and `out` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_next_bucket(
    h: *const picollo_histogram,
    cursor: *mut usize,
    out: *mut picollo_bucket,
) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let h = unsafe { as_ref(h, "h") }?;
            // SAFETY: per this function's contract.
            let cursor = unsafe { as_mut(cursor, "cursor") }?;
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            let start = *cursor;
            let found = h.with_view(
                |view| dispatch_view!(view, v => v.buckets().skip(start).find(|b| b.count != 0)),
            );
            match found {
                Some(b) => {
                    *cursor = b.storage_index + 1;
                    *out = b.into();
                    Ok(())
                }
                None => Err((
                    picollo_status::OutOfRange,
                    "no more non-empty buckets".to_string(),
                )),
            }
        })())
    })
}
