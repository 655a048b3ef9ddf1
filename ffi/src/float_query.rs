//! Queries on a float histogram: percentiles, summaries, ranks of values, counts between
//! values, equivalent values, buckets, text, and snapshots with deltas. Each query reads
//! one consistent copy of the non-empty buckets.

use std::ffi::c_char;

use picollo_core::float::{FloatCounts, FloatPercentile, FloatShape, FloatSummary, Side};

use crate::args::{out, query, try_slice, try_slice_mut};
use crate::boundary::boundary;
use crate::error::Failure;
use crate::float::{each_float, picollo_float_histogram, AnyFloat};
use crate::handle::{caller_owned, free_boxed, try_mut, try_ref};
use crate::histogram_text::{histogram_text, TextForms};
use crate::query::{found_into, next_batch, query_error, BatchWords};
use crate::status::picollo_status;
use crate::text::{summary_diff, summary_text, CallerSummary, Render};
use crate::types::mirror;

/// A percentile of a float histogram: the value at a rank and its bucket.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_float_percentile {
    /// The rank asked for, in percent.
    pub rank: f64,
    /// The reported value (per the value selection; 0 for the zero bucket).
    pub value: f64,
    /// The largest distance from `value` to a value of its bucket.
    pub plus_minus: f64,
    /// The smallest value of the bucket (signed).
    pub lowest: f64,
    /// The largest value of the bucket (signed).
    pub highest: f64,
    /// The bucket's count.
    pub count: u64,
    /// Values up to and including this bucket.
    pub cumulative_count: u64,
    /// The count the rank points at: max(1, ceil(rank/100 · total)).
    pub rank_count: u64,
    /// −1 for a negative bucket, 0 for the zero bucket, 1 for a positive one.
    pub side: i32,
    /// Zero.
    pub reserved: u32,
}

caller_owned!(picollo_float_percentile);

fn side_code(side: Option<Side>) -> i32 {
    match side {
        Some(Side::Negative) => -1,
        Some(Side::Positive) => 1,
        _ => 0,
    }
}

mirror!(picollo_float_percentile <=> FloatPercentile, |p| {
    rank, value, plus_minus, lowest, highest, count, cumulative_count, rank_count,
} to_c {
    side: side_code(p.side),
    reserved: 0,
} to_core {
    side: Some(match p.side {
        ..=-1 => Side::Negative,
        0 => Side::Zero,
        _ => Side::Positive,
    }),
});

/// The standard summary of a float histogram: the 16 ranks of `picollo_summary`, the counts
/// beside the buckets, the exact sum and extremes, mean and stdev.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_float_summary {
    /// One per standard rank, 0 to 100, in increasing order.
    pub percentiles: [picollo_float_percentile; 16],
    /// Values in buckets (zero included).
    pub total: u64,
    /// `±0.0` values.
    pub zero: u64,
    /// NaN values.
    pub nan: u64,
    /// `+∞` values.
    pub positive_infinity: u64,
    /// `−∞` values.
    pub negative_infinity: u64,
    /// Nonzero magnitudes below the range.
    pub underflow: u64,
    /// Finite magnitudes above the range.
    pub overflow: u64,
    /// Records that found their bucket full.
    pub saturated: u64,
    /// Sum of the values in buckets.
    pub sum: f64,
    /// Smallest value in buckets (NaN when empty).
    pub min: f64,
    /// Largest value in buckets (NaN when empty).
    pub max: f64,
    /// sum / total (NaN when empty).
    pub mean: f64,
    /// Population standard deviation over bucket midpoints (NaN when empty).
    pub stdev: f64,
    /// The layout's relative error.
    pub precision: f64,
    /// Smallest magnitude kept in buckets.
    pub min_magnitude: f64,
    /// Largest magnitude kept in buckets.
    pub max_magnitude: f64,
}

caller_owned!(picollo_float_summary);

mirror!(picollo_float_summary <=> FloatSummary, |s| {
    total, zero, nan, positive_infinity, negative_infinity, underflow, overflow, saturated,
    sum, min, max, mean, stdev, precision, min_magnitude, max_magnitude,
} to_c {
    percentiles: s.percentiles.each_ref().map(Into::into),
} to_core {
    percentiles: s.percentiles.each_ref().map(Into::into),
});

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

/// A non-empty bucket of a float histogram.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_float_bucket {
    /// The smallest value it holds (signed).
    pub lowest: f64,
    /// The largest value it holds (signed).
    pub highest: f64,
    /// The value it reports (per the value selection; 0 for the zero bucket).
    pub value: f64,
    /// Its count.
    pub count: u64,
    /// −1 negative, 0 the zero bucket, 1 positive.
    pub side: i32,
    /// Zero.
    pub reserved: u32,
}

caller_owned!(picollo_float_bucket);

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
            |h, cursor, out| Ok(fill_buckets(&h.counts()?, cursor, out)),
        )
    }
}

/// Write the non-empty buckets of `counts` from value-order key `start` on into `out`, as
/// many as fit; return how many and the key after the last one.
fn fill_buckets(
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

impl CallerSummary for FloatSummary {
    type C = picollo_float_summary;
    fn from_c(c: &picollo_float_summary) -> Self {
        c.into()
    }
}

impl TextForms for FloatSummary {
    fn form(format: u32) -> Result<Render<FloatSummary>, Failure> {
        match format {
            0 => Ok(FloatSummary::write_table),
            1 => Ok(FloatSummary::write_line),
            _ => Err(Failure::invalid(format_args!(
                "format {format} is unknown: 0 (table) or 1 (one line)"
            ))),
        }
    }
}

/// Writes `h`'s summary into `buf`, the Markdown table (`format` 0) or the line (1), with `title`.
/// Errors: NULL `h`; `INVALID_ARGUMENT` for another format; `INVALID_UTF8`; `BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_text(
    h: *const picollo_float_histogram,
    format: u32,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let summary = |h: &AnyFloat| Ok(h.counts()?.summary());
    // SAFETY: forwarded contract.
    unsafe { histogram_text(h, format, title, (buf, len, needed), summary) }
}

/// Writes the Markdown table of a float summary into `buf` (`##### title` unless NULL or empty).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_table(
    summary: *const picollo_float_summary,
    title: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let table = FloatSummary::write_table;
    // SAFETY: forwarded contract.
    unsafe { summary_text(summary, (title, "title"), (buf, len, needed), table) }
}

/// Writes the diff table of float summary `b` against `a` into `buf` (Δ%, moments, extremes,
/// Cohen's d); `name_a`/`name_b` (NULL or "": "A"/"B") head the columns.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_diff(
    a: *const picollo_float_summary,
    b: *const picollo_float_summary,
    title: *const c_char,
    name_a: *const c_char,
    name_b: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let (names, out) = ((name_a, name_b), (buf, len, needed));
    // SAFETY: forwarded contract.
    unsafe { summary_diff((a, b), title, names, out, FloatSummary::write_diff) }
}

/// Writes the one-line float summary `name: Total=…, Mean=…, Min=…, P50=…, …, Max=…` into
/// `buf`, with the counts beside the buckets that are not zero (`name` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_summary_line(
    summary: *const picollo_float_summary,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    let line = FloatSummary::write_line;
    // SAFETY: forwarded contract.
    unsafe { summary_text(summary, (name, "name"), (buf, len, needed), line) }
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
                .map_err(crate::any_histogram::merge_error)?
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
