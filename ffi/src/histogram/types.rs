//! Plain `#[repr(C)]` structs that cross the ABI: fixed size, blittable (no bool, no
//! pointers), so .NET P/Invoke and ctypes map them field for field.

use picollo_core::float::{FloatPercentile, FloatSummary, Side};
use picollo_core::{BucketCount, Percentile, Summary, STANDARD_RANKS};

use crate::handle::caller_owned;

/// `mirror!(c <=> core, |s| { fields } to_c { c_only: expr } to_core { core_only: expr })`:
/// `From<&core> for c` and `From<&c> for core`, the C struct and the core struct it mirrors.
/// Both copy the fields in braces; the fields after `to_c` and `to_core` are the ones only
/// that side has or that convert, computed from `s`, the struct converted.
macro_rules! mirror {
    ($c:ident <=> $core:ident, |$s:ident| { $($f:ident),* $(,)? }
     to_c { $($cf:ident: $ce:expr),* $(,)? } to_core { $($rf:ident: $re:expr),* $(,)? }) => {
        impl From<&$core> for $c {
            fn from($s: &$core) -> Self {
                $c { $($f: $s.$f,)* $($cf: $ce,)* }
            }
        }
        impl From<&$c> for $core {
            fn from($s: &$c) -> Self {
                $core { $($f: $s.$f,)* $($rf: $re,)* }
            }
        }
    };
}

caller_owned!(
    picollo_percentile,
    picollo_summary,
    picollo_bucket,
    picollo_histogram_info,
    picollo_float_info,
);

/// A percentile and the bucket it was found in.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_percentile {
    /// Rank in percent, 0..100.
    pub rank: f64,
    /// Reported value (per the histogram's value selection).
    pub value: u64,
    /// Largest distance from `value` to a value of the bucket.
    pub plus_minus: u64,
    /// Index of the bucket in the histogram's storage.
    pub storage_index: u64,
    /// Index of the bucket over the whole u64 range.
    pub logical_index: u64,
    /// Smallest value of the bucket.
    pub lower: u64,
    /// Exclusive upper bound (UINT64_MAX for the topmost bucket, whose bound is 2^64).
    pub upper: u64,
    /// Largest value of the bucket.
    pub highest: u64,
    /// Count of the bucket.
    pub count: u64,
    /// Cumulative count through the bucket.
    pub cumulative_count: u64,
    /// The count the rank points at: ceil(rank/100 × total), at least 1.
    pub rank_count: u64,
}

mirror!(picollo_percentile <=> Percentile, |p| {
    rank, value, plus_minus, storage_index, logical_index, lower, upper, highest, count,
    cumulative_count, rank_count,
} to_c {} to_core {});

/// Number of percentiles in a summary.
pub const PICOLLO_SUMMARY_PERCENTILES: usize = 16;

/// The standard summary: percentiles at ranks 0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99,
/// 99.9, 99.99, 99.999, 100, then totals and moments.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_summary {
    /// One entry per standard rank, in increasing order.
    pub percentiles: [picollo_percentile; PICOLLO_SUMMARY_PERCENTILES],
    /// Count of values inside the range.
    pub total: u64,
    /// Count of values below the range.
    pub underflow: u64,
    /// Count of values above the range.
    pub overflow: u64,
    /// Counts that did not fit a full bucket (docs/semantics.md, "Counters").
    pub saturated: u64,
    /// Mean over bucket midpoints (NaN when empty).
    pub mean: f64,
    /// Population standard deviation over bucket midpoints (NaN when empty).
    pub stdev: f64,
    /// Relative error of the layout (0.0078125 is 0.7813 %).
    pub precision: f64,
    /// Smallest trackable value.
    pub min_trackable: u64,
    /// Largest trackable value.
    pub max_trackable: u64,
}

mirror!(picollo_summary <=> Summary, |s| {
    total, underflow, overflow, saturated, mean, stdev, precision, min_trackable, max_trackable,
} to_c {
    percentiles: s.percentiles.each_ref().map(picollo_percentile::from),
} to_core {
    percentiles: standard_ranks(s.percentiles.each_ref().map(Percentile::from)),
});

/// `percentiles` at the standard ranks: the ranks are fixed, so a caller-edited rank does
/// not change a table's rows.
fn standard_ranks(mut percentiles: [Percentile; 16]) -> [Percentile; 16] {
    for (p, &rank) in percentiles.iter_mut().zip(STANDARD_RANKS.iter()) {
        p.rank = rank;
    }
    percentiles
}

/// A bucket and its count.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct picollo_bucket {
    /// Index in the histogram's storage.
    pub storage_index: u64,
    /// Index over the whole u64 range.
    pub logical_index: u64,
    /// Smallest value of the bucket.
    pub lower: u64,
    /// Largest value of the bucket.
    pub highest: u64,
    /// The bucket's midpoint.
    pub value: u64,
    /// The bucket's count.
    pub count: u64,
}

impl From<BucketCount> for picollo_bucket {
    fn from(b: BucketCount) -> Self {
        picollo_bucket {
            storage_index: b.storage_index as u64,
            logical_index: b.logical_index as u64,
            lower: b.lower,
            highest: b.highest,
            value: b.value,
            count: b.count,
        }
    }
}

/// Facts about a histogram: counts, range, layout, footprint.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_histogram_info {
    /// Count of values inside the range.
    pub total: u64,
    /// Count of values below the range.
    pub underflow: u64,
    /// Count of values above the range.
    pub overflow: u64,
    /// Counts that did not fit a full bucket.
    pub saturated: u64,
    /// Smallest trackable value.
    pub min_trackable: u64,
    /// Largest trackable value.
    pub max_trackable: u64,
    /// Number of counters (buckets) in storage.
    pub storage_len: u64,
    /// Bytes the counters take now (every shard; for sparse storage, the blocks made so far).
    pub footprint_bytes: u64,
    /// Buckets per block (a power of two).
    pub block_size: u64,
    /// Guaranteed relative error of a bucket's midpoint (0.5 / block_size).
    pub relative_error: f64,
    /// 32 or 64.
    pub counter_bits: u32,
    /// A `picollo_mode` value.
    pub mode: u32,
    /// A `picollo_value_selection` value.
    pub value_selection: u32,
    /// Threshold T of the approximate mode; 0 in the other modes.
    pub approx_threshold: u32,
}

/// Facts about a float histogram: counts, exact sum and extremes, range, layout, footprint.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_float_info {
    /// Values in buckets (the zero bucket included): what quantiles cover.
    pub total: u64,
    /// `±0.0` values (in `total`).
    pub zero: u64,
    /// NaN values.
    pub nan: u64,
    /// `+∞` values.
    pub positive_infinity: u64,
    /// `−∞` values.
    pub negative_infinity: u64,
    /// Nonzero values with a magnitude below the range.
    pub underflow: u64,
    /// Finite values with a magnitude above the range.
    pub overflow: u64,
    /// Records that found their bucket full (or a sparse block unallocatable).
    pub saturated: u64,
    /// Sum of the values in buckets (0 when empty).
    pub sum: f64,
    /// Smallest value in buckets, exact (NaN when empty).
    pub min: f64,
    /// Largest value in buckets, exact (NaN when empty).
    pub max: f64,
    /// Smallest magnitude kept in buckets, above 0 (subnormals allowed); smaller ones underflow.
    pub min_magnitude: f64,
    /// Largest magnitude kept in buckets, finite, at least `min_magnitude`; larger ones overflow.
    pub max_magnitude: f64,
    /// Tolerated relative error, e.g. 0.001 for 0.1 %: finite and above 0; clamped to [1e-6, 0.1].
    pub relative_error: f64,
    /// Buckets per octave of magnitude (a power of two).
    pub buckets_per_octave: u64,
    /// Buckets per sign in the range.
    pub storage_len: u64,
    /// Bytes of counters and exact sums allocated now, both signs (docs/c-api.md, "Float histograms").
    pub footprint_bytes: u64,
    /// 32 or 64.
    pub counter_bits: u32,
    /// A `picollo_float_mode` value.
    pub mode: u32,
    /// A `picollo_float_storage` value.
    pub storage: u32,
    /// A `picollo_value_selection` value.
    pub value_selection: u32,
}

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

pub(crate) fn side_code(side: Option<Side>) -> i32 {
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
