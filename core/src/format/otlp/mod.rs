//! OpenTelemetry exponential histograms: a Picollo histogram re-binned into an
//! `ExponentialHistogramDataPoint`, exported as OTLP/JSON or as the protobuf bytes of an
//! `ExportMetricsServiceRequest` (hand-written encoder: no code generation). The histogram and
//! the request are here; their encodings are `protobuf.rs` and `json.rs`.

mod export;
mod json;
#[cfg(picollo_float)]
mod mixed;
mod protobuf;
#[cfg(picollo_float)]
mod signed;
#[cfg(picollo_float)]
pub(crate) use self::export::{OtlpJson, OtlpProtobuf};
#[cfg(picollo_float)]
pub use self::mixed::{AnyMetric, MetricData, MixedRequest, Number, NumberPoint, SignedDataPoint};
pub use self::signed::{ExponentialBuckets, SignedExponentialHistogram};

use alloc::vec::Vec;

pub use super::option::{
    check_attributes, check_name, check_scale, check_times, check_unit_ratio, AttributeSet,
    OptionError, MAX_SCALE, MIN_SCALE,
};
use crate::counter::Counter;
use crate::fmath::{exp2, log2};
use crate::view::View;

/// How the points of a metric relate in time (OTLP's `AggregationTemporality`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Temporality {
    /// Each point holds only its interval (`start_time..time`): export a
    /// [`Collect`](crate::concurrent::Collect) interval.
    Delta = 1,
    /// Each point holds everything since a fixed start: export a read.
    Cumulative = 2,
}

/// The counts of an OTLP `ExponentialHistogramDataPoint` (positive buckets only: Picollo
/// records unsigned values).
///
/// Bucket `index` holds values in `(base^index, base^(index+1)]` with
/// `base = 2^(2^-scale)`; `bucket_counts[k]` is the count of bucket `offset + k`. Zero goes
/// to `zero_count` (zero threshold 0).
///
/// # Re-binning
/// Each Picollo bucket goes whole into the exponential bucket that holds its midpoint
/// (divided by the unit ratio). A value `v` is then reported by its exponential bucket
/// `(a, b]` (at `2ab/(a + b)`, which is within `x = (base − 1)/(base + 1)` of every value
/// of the bucket) within `(1 + e)(1 + x) − 1 ≈ e + x` of `v`, where `e` is the layout's
/// relative error;
/// [`ExponentialHistogram::from_view`] picks the smallest scale with `x ≤ e`, so the
/// exported error is at most about twice the histogram's. The mapping keeps order, so a
/// quantile of the export lies in the exponential bucket holding the same quantile of the
/// histogram (within `x` of it).
///
/// Values outside the range count at the range's ends (underflow at the first bucket's
/// smallest value, overflow at the last bucket's largest: `min`/`max` then show the range,
/// not the values); saturated counts
/// (their bucket is unknown) are left out of every field. `sum` takes each bucket at its
/// midpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct ExponentialHistogram {
    /// The scale: `base = 2^(2^-scale)`, in `MIN_SCALE..=MAX_SCALE`.
    pub scale: i32,
    /// Count of zero values.
    pub zero_count: u64,
    /// Index of the first bucket of `bucket_counts`.
    pub offset: i32,
    /// Counts of the buckets `offset, offset + 1, …` (from the first non-empty one to the
    /// last; empty when every value is zero or there are none).
    pub bucket_counts: Vec<u64>,
    /// Every value counted: `zero_count` plus the bucket counts.
    pub count: u64,
    /// Sum of the values (buckets at their midpoints), in exported units.
    pub sum: f64,
    /// Smallest value (the lowest non-empty bucket's smallest value), in exported units.
    pub min: Option<f64>,
    /// Largest value (the highest non-empty bucket's largest value), in exported units.
    pub max: Option<f64>,
}

/// The smallest scale (fewest buckets) whose buckets have a relative error
/// `(base − 1)/(base + 1)` of at most `relative_error`, within `MIN_SCALE..=MAX_SCALE`
/// (`MAX_SCALE` when even it is coarser).
pub fn scale_for(relative_error: f64) -> i32 {
    coarsest_scale(relative_error, MIN_SCALE, MAX_SCALE)
}

/// The smallest scale in `min..=max` whose buckets have a relative error of at most
/// `relative_error` (`max` when even it is coarser): [`scale_for`] within other bounds
/// (Prometheus' schemas are scales from −4 to 8).
pub fn coarsest_scale(relative_error: f64, min: i32, max: i32) -> i32 {
    (min..=max)
        .find(|&s| bucket_relative_error(s) <= relative_error)
        .unwrap_or(max)
}

/// `base = 2^(2^-scale)` of a scale.
pub fn base(scale: i32) -> f64 {
    exp2(exp2(-f64::from(scale)))
}

/// The relative error of an exponential bucket `(a, b]` reported by `2ab/(a + b)`:
/// `(base − 1)/(base + 1)`, reached at both ends.
pub fn bucket_relative_error(scale: i32) -> f64 {
    let b = base(scale);
    (b - 1.0) / (b + 1.0)
}

/// The index of the bucket holding `v > 0` at `scale`: `v` in `(base^i, base^(i+1)]`.
pub fn index_of(v: f64, scale: i32) -> i32 {
    if scale <= 0 {
        // Exact from the bits: 2^e < v <= 2^(e+1), then e >> -scale.
        let bits = v.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i32 - 1023;
        let exact_power = bits & ((1 << 52) - 1) == 0;
        let e = if exact_power { exponent - 1 } else { exponent };
        return e >> -scale;
    }
    let x = log2(v) * exp2(f64::from(scale));
    let c = x as i64 + i64::from(x > 0.0 && (x as i64) as f64 != x);
    // ceil for negative x: truncation toward zero is the ceiling.
    (c - 1) as i32
}

/// The bounds `(base^i, base^(i+1)]` of bucket `index` at `scale`.
pub fn bucket_bounds(index: i32, scale: i32) -> (f64, f64) {
    let step = exp2(-f64::from(scale));
    (
        exp2(f64::from(index) * step),
        exp2(f64::from(index + 1) * step),
    )
}

impl ExponentialHistogram {
    /// Re-bin `view` at the scale [`scale_for`] picks for its layout's relative error;
    /// values are divided by `unit_ratio` (1e9: nanoseconds exported as seconds).
    ///
    /// # Errors
    /// [`OptionError::UnitRatio`] unless `unit_ratio` is a finite number above 0.
    pub fn from_view<C: Counter>(view: &View<'_, C>, unit_ratio: f64) -> Result<Self, OptionError> {
        Self::with_scale(view, scale_for(view.layout().relative_error()), unit_ratio)
    }

    /// Re-bin `view` at `scale`; values are divided by `unit_ratio`.
    ///
    /// # Errors
    /// [`OptionError::Scale`] for a scale outside `MIN_SCALE..=MAX_SCALE`;
    /// [`OptionError::UnitRatio`] unless `unit_ratio` is a finite number above 0.
    pub fn with_scale<C: Counter>(
        view: &View<'_, C>,
        scale: i32,
        unit_ratio: f64,
    ) -> Result<Self, OptionError> {
        let scale = check_scale(scale)?;
        let unit_ratio = check_unit_ratio(unit_ratio)?;
        let shape = view.shape();
        let mut out = ExponentialHistogram {
            scale,
            zero_count: 0,
            offset: 0,
            bucket_counts: Vec::new(),
            count: 0,
            sum: 0.0,
            min: None,
            max: None,
        };
        // Outside counts at the ends of the buckets, so they stay below and above every
        // in-range midpoint.
        let (lo, hi) = (shape.bucket(0).lower, shape.bucket(shape.len() - 1).highest);
        out.add(view.underflow_count(), lo, (lo, lo), unit_ratio);
        for (i, &c) in view.counts().iter().enumerate() {
            if c != C::ZERO {
                let b = shape.bucket(i);
                out.add(c.to_u64(), b.midpoint(), (b.lower, b.highest), unit_ratio);
            }
        }
        out.add(view.overflow_count(), hi, (hi, hi), unit_ratio);
        Ok(out)
    }

    /// Counts `n` values recorded at `at`, from a bucket spanning `low..=high` (recorded
    /// units, divided by `unit_ratio` here).
    fn add(&mut self, n: u64, at: u64, (low, high): (u64, u64), unit_ratio: f64) {
        if n == 0 {
            return;
        }
        self.count = self.count.saturating_add(n);
        self.sum += n as f64 * at as f64 / unit_ratio;
        let (low, high) = (low as f64 / unit_ratio, high as f64 / unit_ratio);
        self.min = Some(self.min.map_or(low, |m| m.min(low)));
        self.max = Some(self.max.map_or(high, |m| m.max(high)));
        let v = at as f64 / unit_ratio;
        if v <= 0.0 {
            self.zero_count = self.zero_count.saturating_add(n);
            return;
        }
        add_count(
            &mut self.offset,
            &mut self.bucket_counts,
            index_of(v, self.scale),
            n,
        );
    }

    /// `base = 2^(2^-scale)`.
    pub fn base(&self) -> f64 {
        base(self.scale)
    }

    /// The value at `quantile` (in `[0, 1]`) for the bucket `(a, b]` holding the
    /// `ceil(quantile × count)`-th value (at least the first): `2ab/(a + b)`, the point
    /// within `(base − 1)/(base + 1)` of every value of the bucket; 0 in the zero bucket;
    /// `None` when empty.
    pub fn quantile(&self, quantile: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let target = crate::percentile::rank_to_count(quantile * 100.0, u128::from(self.count));
        let mut seen = u128::from(self.zero_count);
        if seen >= target {
            return Some(0.0);
        }
        for (k, &c) in self.bucket_counts.iter().enumerate() {
            seen += u128::from(c);
            if seen >= target {
                let (a, b) = bucket_bounds(self.offset + k as i32, self.scale);
                return Some(2.0 * a * b / (a + b));
            }
        }
        None
    }
}

/// Adds `n` to bucket `index` of the run `counts` (bucket `offset + k` at `k`), growing the
/// run either way; an empty run starts at `index`.
pub(crate) fn add_count(offset: &mut i32, counts: &mut Vec<u64>, index: i32, n: u64) {
    if counts.is_empty() {
        *offset = index;
    } else if index < *offset {
        // Buckets arrive in increasing order (the mapping keeps order); kept general all
        // the same.
        let grow = (*offset - index) as usize;
        counts.splice(0..0, core::iter::repeat_n(0, grow));
        *offset = index;
    }
    let k = (index - *offset) as usize;
    if k >= counts.len() {
        counts.resize(k + 1, 0);
    }
    counts[k] = counts[k].saturating_add(n);
}

/// A key-value attribute with a string value.
pub type Attribute<'a> = (&'a str, &'a str);

/// One data point: the attributes that identify its series, its interval and its counts.
#[derive(Clone, Copy, Debug)]
pub struct DataPoint<'a> {
    /// The attributes of the series.
    pub attributes: &'a [Attribute<'a>],
    /// Start of the interval (delta) or of the counting (cumulative), ns since the epoch.
    pub start_time_unix_nano: u64,
    /// End of the interval, ns since the epoch.
    pub time_unix_nano: u64,
    /// The counts.
    pub histogram: &'a ExponentialHistogram,
}

/// One metric: an exponential histogram with its points.
#[derive(Clone, Copy, Debug)]
pub struct Metric<'a> {
    /// The metric name.
    pub name: &'a str,
    /// The description.
    pub description: &'a str,
    /// The unit (UCUM, e.g. `s`).
    pub unit: &'a str,
    /// How the points relate in time.
    pub temporality: Temporality,
    /// The points.
    pub points: &'a [DataPoint<'a>],
}

/// An `ExportMetricsServiceRequest` with one resource and one instrumentation scope. The
/// encoders write what they are given: [`Request::check`] holds it to OTLP's rules first.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The resource's attributes (e.g. `service.name`).
    pub resource: &'a [Attribute<'a>],
    /// The instrumentation scope's name.
    pub scope_name: &'a str,
    /// The instrumentation scope's version.
    pub scope_version: &'a str,
    /// The metrics.
    pub metrics: &'a [Metric<'a>],
}

impl DataPoint<'_> {
    /// Attribute names not empty and unique ([`check_attributes`]), the start not after the
    /// end ([`check_times`]).
    pub fn check(&self) -> Result<(), OptionError> {
        check_attributes(self.attributes, AttributeSet::Point)?;
        check_times(self.start_time_unix_nano, self.time_unix_nano)
    }
}

impl Metric<'_> {
    /// A name ([`check_name`]), then every point ([`DataPoint::check`]).
    pub fn check(&self) -> Result<(), OptionError> {
        check_name(self.name)?;
        self.points.iter().try_for_each(DataPoint::check)
    }
}

impl Request<'_> {
    /// What OTLP requires of a request and the encoders do not check: the resource's
    /// attribute names ([`check_attributes`]), then every metric ([`Metric::check`]).
    pub fn check(&self) -> Result<(), OptionError> {
        check_attributes(self.resource, AttributeSet::Resource)?;
        self.metrics.iter().try_for_each(Metric::check)
    }
}
