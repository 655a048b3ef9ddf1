//! Buckets one at a time and in batches: `picollo_histogram_bucket`, the cursor calls
//! `picollo_histogram_next_bucket(s)` and `picollo_float_histogram_next_buckets`.

use picollo_core::float::{FloatCounts, FloatShape, Side};
use picollo_core::view::Counts;
use picollo_core::{Counter, View};

use crate::args::query;
use crate::error::Failure;
use crate::float::picollo_float_histogram;
use crate::histogram::picollo_histogram;
use crate::histogram::query::{next_batch, BatchWords};
use crate::histogram::types::{picollo_bucket, picollo_float_bucket, side_code};
use crate::status::picollo_status;

/// Writes the bucket at `storage_index` (below `info.storage_len`), empty or not.
/// Errors: `OUT_OF_RANGE` past the end.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_bucket(
    h: *const picollo_histogram,
    storage_index: usize,
    out: *mut picollo_bucket,
) -> picollo_status {
    query!(
        h,
        out = |h| {
            h.with_view(|view| view.as_view().buckets().nth(storage_index))?
                .ok_or_else(|| {
                    Failure::out_of_range(format_args!(
                        "storage index {storage_index} is past the last bucket"
                    ))
                })?
                .into()
        }
    )
}

/// Writes the next non-empty bucket from `*cursor` (start at 0) and moves `*cursor` past it;
/// `OUT_OF_RANGE` at the end. Copies the histogram per call: `_next_buckets` copies per batch.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_next_bucket(
    h: *const picollo_histogram,
    cursor: *mut usize,
    out: *mut picollo_bucket,
) -> picollo_status {
    // SAFETY: forwarded contract: one output slot; `written` is not wanted.
    unsafe { picollo_histogram_next_buckets(h, cursor, out, 1, std::ptr::null_mut()) }
}

/// Writes up to `cap` next non-empty buckets from `*cursor` (start at 0) to `out`, from one copy,
/// their number to `*written` (may be NULL), and moves `*cursor` past them. Errors: NULL `h`,
/// `cursor` or `out`; `INVALID_ARGUMENT` for `cap` 0; `OUT_OF_RANGE` (nothing written) at the end.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_next_buckets(
    h: *const picollo_histogram,
    cursor: *mut usize,
    out: *mut picollo_bucket,
    cap: usize,
    written: *mut usize,
) -> picollo_status {
    let words = BatchWords {
        zero_cap: "cap is 0: the batch must hold at least one bucket",
        end: "no more non-empty buckets",
        written_required: false,
    };
    // SAFETY: forwarded contract.
    unsafe {
        next_batch(h, cursor, (out, cap), written, words, |h, cursor, out| {
            if cursor >= h.storage_len() {
                return Ok((0, cursor));
            }
            Ok(h.with_view(|view| {
                let v = view.as_view();
                fill_buckets(&v, cursor, out)
            })?)
        })
    }
}

/// Write the non-empty buckets of `v` from storage index `start` on into `out`, as many as
/// fit; return how many and the storage index after the last one examined (the length
/// when the scan ran off the end). Empty buckets are skipped on their counts alone, without
/// computing their bounds.
fn fill_buckets<C: Counter, S: Counts<C> + ?Sized>(
    v: &View<'_, C, S>,
    start: usize,
    out: &mut [picollo_bucket],
) -> (usize, usize) {
    let len = v.shape().len();
    let mut n = 0;
    let mut i = start;
    while i < len && n < out.len() {
        if v.count(i) != Some(0) {
            if let Some(b) = v.buckets().nth(i) {
                out[n] = b.into();
                n += 1;
            }
        }
        i += 1;
    }
    // A full batch stops right after its last bucket; a short one has seen the whole copy.
    (n, if n < out.len() { len } else { i })
}

/// The position of a bucket in value order, the float cursor: negative buckets by falling
/// offset, then zero, then positive ones.
fn value_order_key(shape: &FloatShape, side: Side, index: usize) -> u64 {
    let len = shape.len() as u64;
    let offset = |index: usize| (index - shape.first_index()) as u64;
    match side {
        Side::Negative => len - offset(index),
        Side::Zero => len + 1,
        Side::Positive => len + 2 + offset(index),
    }
}

/// Writes up to `capacity` next non-empty buckets in ascending value order to `out`, as
/// `picollo_histogram_next_buckets` does. Errors: `OUT_OF_RANGE` (nothing written) at the end.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_next_buckets(
    h: *const picollo_float_histogram,
    cursor: *mut u64,
    out: *mut picollo_float_bucket,
    capacity: usize,
    written: *mut usize,
) -> picollo_status {
    let words = BatchWords {
        zero_cap: "capacity must be at least 1",
        end: "no bucket left",
        written_required: true,
    };
    // SAFETY: forwarded contract.
    unsafe {
        next_batch(
            h,
            cursor,
            (out, capacity),
            written,
            words,
            |h, cursor, out| Ok(fill_float_buckets(&h.counts()?, cursor, out)),
        )
    }
}

/// Write the non-empty buckets of `counts` from value-order key `start` on into `out`, as
/// many as fit; return how many and the key after the last one.
fn fill_float_buckets(
    counts: &FloatCounts,
    start: u64,
    out: &mut [picollo_float_bucket],
) -> (usize, u64) {
    let (mut n, mut next) = (0, start);
    for b in counts.buckets() {
        let k = value_order_key(&counts.shape(), b.side, b.index);
        if k < start {
            continue;
        }
        if n == out.len() {
            break;
        }
        out[n] = picollo_float_bucket {
            lowest: b.lowest,
            highest: b.highest,
            value: b.value,
            count: b.count,
            side: side_code(Some(b.side)),
            reserved: 0,
        };
        n += 1;
        next = k + 1;
    }
    (n, next)
}
