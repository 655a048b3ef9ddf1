//! Queries on a float histogram: percentiles, summaries, ranks of values, counts between
//! values, equivalent values, buckets, text, and snapshots with deltas. Each query reads
//! one consistent copy of the non-empty buckets.

use std::ffi::c_char;

use picollo_core::float::{FloatCounts, FloatPercentile, FloatShape, FloatSummary, Side};

use crate::args::{out, try_slice, try_slice_mut, try_str};
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::error::Failure;
use crate::float::{each_float, picollo_float_histogram};
use crate::handle::{caller_owned, free_boxed, set_boxed, try_mut, try_ref, Boxed, Castable};
use crate::query::query_error;
use crate::status::picollo_status;
use crate::text::{fmt_internal, rendered};

/// A percentile of a float histogram: the value at a rank and its bucket.
#[allow(non_camel_case_types)]
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

impl From<&FloatPercentile> for picollo_float_percentile {
    fn from(p: &FloatPercentile) -> Self {
        picollo_float_percentile {
            rank: p.rank,
            value: p.value,
            plus_minus: p.plus_minus,
            lowest: p.lowest,
            highest: p.highest,
            count: p.count,
            cumulative_count: p.cumulative_count,
            rank_count: p.rank_count,
            side: side_code(p.side),
            reserved: 0,
        }
    }
}

impl From<&picollo_float_percentile> for FloatPercentile {
    fn from(p: &picollo_float_percentile) -> Self {
        FloatPercentile {
            rank: p.rank,
            value: p.value,
            plus_minus: p.plus_minus,
            lowest: p.lowest,
            highest: p.highest,
            count: p.count,
            cumulative_count: p.cumulative_count,
            rank_count: p.rank_count,
            side: Some(match p.side {
                ..=-1 => Side::Negative,
                0 => Side::Zero,
                _ => Side::Positive,
            }),
        }
    }
}

/// The standard summary of a float histogram: the 16 ranks of `picollo_summary`, the counts
/// beside the buckets, the exact sum and extremes, mean and stdev.
#[allow(non_camel_case_types)]
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

impl From<&FloatSummary> for picollo_float_summary {
    fn from(s: &FloatSummary) -> Self {
        picollo_float_summary {
            percentiles: std::array::from_fn(|k| (&s.percentiles[k]).into()),
            total: s.total,
            zero: s.zero,
            nan: s.nan,
            positive_infinity: s.positive_infinity,
            negative_infinity: s.negative_infinity,
            underflow: s.underflow,
            overflow: s.overflow,
            saturated: s.saturated,
            sum: s.sum,
            min: s.min,
            max: s.max,
            mean: s.mean,
            stdev: s.stdev,
            precision: s.precision,
            min_magnitude: s.min_magnitude,
            max_magnitude: s.max_magnitude,
        }
    }
}

impl From<&picollo_float_summary> for FloatSummary {
    fn from(s: &picollo_float_summary) -> Self {
        FloatSummary {
            percentiles: std::array::from_fn(|k| (&s.percentiles[k]).into()),
            total: s.total,
            zero: s.zero,
            nan: s.nan,
            positive_infinity: s.positive_infinity,
            negative_infinity: s.negative_infinity,
            underflow: s.underflow,
            overflow: s.overflow,
            saturated: s.saturated,
            sum: s.sum,
            min: s.min,
            max: s.max,
            mean: s.mean,
            stdev: s.stdev,
            precision: s.precision,
            min_magnitude: s.min_magnitude,
            max_magnitude: s.max_magnitude,
        }
    }
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
        let mut found = crate::query::try_buffer(n, FloatPercentile::default())?;
        counts.percentiles(ranks, &mut found).map_err(query_error)?;
        for (o, p) in out.iter_mut().zip(&found) {
            *o = p.into();
        }
        Ok(())
    })
}

/// Writes the standard summary of `h` to `*out` (empty: zero counts, NaN moments and extremes).
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_summary(
    h: *const picollo_float_histogram,
    out: *mut picollo_float_summary,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        *out = (&h.counts()?.summary()).into();
        Ok(())
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
    boundary!({
        let h = try_ref!(h)?;
        let rank = h.counts()?.rank_of(x).map_err(query_error)?;
        out!(out, rank)
    })
}

/// Writes to `*out` the fraction (0..1) of the values in buckets at or below `x`. Errors:
/// `INVALID_ARGUMENT` for NaN; `EMPTY` when no value is in a bucket.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_histogram_quantile_of(
    h: *const picollo_float_histogram,
    x: f64,
    out: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let q = h.counts()?.quantile_of(x).map_err(query_error)?;
        out!(out, q)
    })
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
    boundary!({
        let h = try_ref!(h)?;
        let n = h.counts()?.count_between(lo, hi).map_err(query_error)?;
        out!(out, n)
    })
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
#[allow(non_camel_case_types)]
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
    boundary!({
        let h = try_ref!(h)?;
        let cursor = try_mut!(cursor)?;
        let out = try_slice_mut!(out, capacity)?;
        if capacity == 0 {
            return Err(Failure::invalid("capacity must be at least 1"));
        }
        let counts = h.counts()?;
        let mut n = 0;
        let mut next = *cursor;
        for b in counts.buckets() {
            let k = value_order_key(&counts.shape(), b.side, b.index);
            if k < *cursor {
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
        if n == 0 {
            return Err(Failure::new(picollo_status::OutOfRange, "no bucket left"));
        }
        *cursor = next;
        out!(written, n)
    })
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
    boundary!({
        let h = try_ref!(h)?;
        if format > 1 {
            return Err(Failure::invalid(format_args!(
                "format {format} is unknown: 0 (table) or 1 (one line)"
            )));
        }
        let title = try_str!(title, or "")?;
        let summary = h.counts()?.summary();
        let text = rendered(|out| match format {
            0 => summary.write_table(out, title),
            _ => summary.write_line(out, title),
        })
        .map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)
    })
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
    boundary!({
        let s = FloatSummary::from(try_ref!(summary)?);
        let title = try_str!(title, or "")?;
        let text = rendered(|out| s.write_table(out, title)).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)
    })
}

/// Writes the diff table of float summary `b` against `a` into `buf` (Δ%, moments, extremes,
/// Cohen's d); `name_a`/`name_b` (NULL: "A"/"B") head the columns.
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
    boundary!({
        let a = FloatSummary::from(try_ref!(a)?);
        let b = FloatSummary::from(try_ref!(b)?);
        let title = try_str!(title, or "")?;
        let name_a = try_str!(name_a, or "A")?;
        let name_b = try_str!(name_b, or "B")?;
        let text =
            rendered(|out| a.write_diff(&b, out, title, name_a, name_b)).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)
    })
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
    boundary!({
        let s = FloatSummary::from(try_ref!(summary)?);
        let name = try_str!(name, or "")?;
        let text = rendered(|out| s.write_line(out, name)).map_err(fmt_internal)?;
        write_text!(&text, buf, len, needed)
    })
}

/// A copy of a float histogram's counts (opaque), refreshed in place, optionally as deltas.
#[allow(non_camel_case_types)]
pub struct picollo_float_snapshot {
    _private: [u8; 0],
}

/// The value behind a `picollo_float_snapshot`: the copy shown and the full copy the next
/// delta is taken against.
pub(crate) struct FloatSnapshot {
    shown: FloatCounts,
    last: FloatCounts,
}

impl Castable for picollo_float_snapshot {
    type Ownership = Boxed;
    type RustType = FloatSnapshot;
}

/// Takes a snapshot of `h` with full counts; the caller frees `*out` with
/// `picollo_float_snapshot_free`.
#[no_mangle]
pub unsafe extern "C" fn picollo_float_snapshot_new(
    h: *const picollo_float_histogram,
    out: *mut *mut picollo_float_snapshot,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let out = try_mut!(out)?;
        let counts = h.counts()?;
        set_boxed(
            out,
            FloatSnapshot {
                shown: counts.clone(),
                last: counts,
            },
        );
        Ok(())
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
    boundary!({
        let s = try_ref!(s)?;
        let out = try_mut!(out)?;
        *out = (&s.shown.summary()).into();
        Ok(())
    })
}
