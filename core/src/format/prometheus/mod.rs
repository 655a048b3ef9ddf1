//! Prometheus native histograms: a Picollo histogram (integers or doubles) re-binned into
//! sparse exponential buckets at a schema, and the protobuf exposition that carries it (a
//! stream of length-delimited `io.prometheus.client.MetricFamily` messages, `protobuf.rs`).
//!
//! A schema is an OTLP scale limited to `MIN_SCHEMA..=MAX_SCHEMA` (base `2^(2^-schema)`),
//! and Prometheus' bucket `i` holds `(base^(i−1), base^i]`, which is OTLP's bucket `i − 1`:
//! the re-binning is the OTLP export's ([`ExponentialHistogram`],
//! [`SignedExponentialHistogram`](otlp::SignedExponentialHistogram)) with every index moved
//! up by one.

#[cfg(picollo_float)]
mod export;
mod float;
mod protobuf;

pub(crate) use self::export::PrometheusNative;
pub use self::protobuf::{
    NativeFamily, NativeMetric, ScalarFamily, ScalarKind, ScalarMetric, PROTOBUF_CONTENT_TYPE,
};
use super::openmetrics::{cumulative_buckets_checked, HistogramOptions};
pub use super::openmetrics::{Bounds, CumulativeBuckets};
pub use super::option::{
    check_labels, check_metric_name, check_schema, check_unit_ratio, OptionError, MAX_SCHEMA,
    MIN_SCHEMA,
};
pub use super::otlp::ExponentialBuckets;
use super::otlp::{self, coarsest_scale, ExponentialHistogram};
use crate::counter::Counter;
use crate::view::View;

/// The zero threshold of an integer histogram, and the least one of a histogram of doubles:
/// `2^-128`, the Prometheus Go client's default, so that sums with its histograms keep it.
pub const DEFAULT_ZERO_THRESHOLD: f64 = 2.938_735_877_055_719e-39;

/// The coarsest schema whose buckets have a relative error `(base − 1)/(base + 1)` of at
/// most `relative_error`; `MAX_SCHEMA` (0.135 %) when even it is coarser.
pub fn schema_for(relative_error: f64) -> i32 {
    coarsest_scale(relative_error, MIN_SCHEMA, MAX_SCHEMA)
}

/// The bounds `(base^(i−1), base^i]` of Prometheus bucket `index` at `schema`.
pub fn bucket_bounds(index: i32, schema: i32) -> (f64, f64) {
    otlp::bucket_bounds(index - 1, schema)
}

/// The Prometheus bucket holding `v > 0` at `schema`.
pub fn index_of(v: f64, schema: i32) -> i32 {
    otlp::index_of(v, schema) + 1
}

/// How a histogram becomes a native histogram.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NativeOptions<'a> {
    /// The schema (`MIN_SCHEMA..=MAX_SCHEMA`); `None` (the default) takes [`schema_for`]
    /// the histogram's relative error.
    pub schema: Option<i32>,
    /// Recorded values are divided by this (1e9: nanoseconds exported as seconds); finite
    /// and above 0; default 1.
    pub unit_ratio: f64,
    /// The classic buckets too (integer histograms only), at these bounds: the cumulative
    /// counts the OpenMetrics text writes; `None` (the default) for native buckets only.
    pub classic: Option<Bounds<'a>>,
}

impl Default for NativeOptions<'_> {
    fn default() -> Self {
        NativeOptions {
            schema: None,
            unit_ratio: 1.0,
            classic: None,
        }
    }
}

impl NativeOptions<'_> {
    /// The schema (when given) within `MIN_SCHEMA..=MAX_SCHEMA`, the unit ratio finite and
    /// above 0, the classic bounds as [`Bounds::check`].
    pub fn check(&self) -> Result<(), OptionError> {
        if let Some(s) = self.schema {
            check_schema(s)?;
        }
        check_unit_ratio(self.unit_ratio)?;
        match self.classic {
            Some(b) => b.check(),
            None => Ok(()),
        }
    }

    fn schema_or(&self, relative_error: f64) -> i32 {
        self.schema.unwrap_or_else(|| schema_for(relative_error))
    }
}

/// A native histogram: a count, a sum, a zero bucket and sparse exponential buckets of both
/// signs, with Prometheus' indices (bucket `i` holds `(base^(i−1), base^i]`, `base =
/// 2^(2^-schema)`).
///
/// A quantile of the export lies in the bucket that holds the same quantile of the histogram
/// (the re-binning keeps order), and a value is reported within about `e + x` of the truth,
/// `e` the layout's relative error and `x = (base − 1)/(base + 1)` the schema's (below `e`
/// with the automatic schema, unless `e` is below `MAX_SCHEMA`'s 0.135 %).
///
/// ```
/// use picollo::prometheus::{NativeFamily, NativeHistogram, NativeMetric, NativeOptions};
/// use picollo::{Config, Histogram};
/// let mut h: Histogram<u64, Vec<u64>> = Config::new().with_relative_error(0.01).build()?;
/// h.record(0);
/// h.record(2_400_000); // 2.4 ms in nanoseconds
/// let options = NativeOptions { unit_ratio: 1e9, ..Default::default() }; // ns as seconds
/// let native = NativeHistogram::from_view(&h.view(), &options)?;
/// assert_eq!((native.schema, native.count, native.zero_count), (6, 2, 1));
/// // 2.4e-3 s lies in bucket −556: (2^(−557/64), 2^(−556/64)].
/// assert_eq!((native.positive.offset, native.positive.counts.as_slice()), (-556, &[1][..]));
/// let metrics = [NativeMetric { labels: &[("method", "get")], histogram: &native }];
/// let mut body = Vec::new();
/// NativeFamily { name: "rpc_latency_seconds", help: "", metrics: &metrics }
///     .write_delimited(&mut body)?;
/// assert_eq!(usize::from(body[0]) + 1, body.len()); // one delimited message
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NativeHistogram {
    /// The schema, `MIN_SCHEMA..=MAX_SCHEMA`.
    pub schema: i32,
    /// The zero bucket is `[−zero_threshold, zero_threshold]`; always above 0 (Prometheus
    /// counts a histogram as native only when it or `zero_count` is, or it has buckets).
    pub zero_threshold: f64,
    /// Count of the zero bucket.
    pub zero_count: u64,
    /// Every value counted: the zero bucket and both runs.
    pub count: u64,
    /// Sum of the values, in exported units.
    pub sum: f64,
    /// Positive buckets.
    pub positive: ExponentialBuckets,
    /// Negative buckets, by magnitude.
    pub negative: ExponentialBuckets,
    /// The classic buckets, when asked for: `(le, cumulative)`, the last `le` `+∞`.
    pub classic: Option<CumulativeBuckets>,
}

impl NativeHistogram {
    /// An integer histogram as a native one: the OTLP re-binning
    /// ([`ExponentialHistogram::with_scale`]: values outside the range at its ends,
    /// saturated counts left out), zeros in the zero bucket, whose threshold is
    /// [`DEFAULT_ZERO_THRESHOLD`] or half the smallest positive value (`0.5/unit_ratio`)
    /// when that is smaller.
    ///
    /// # Errors
    /// The options' rules ([`NativeOptions::check`]).
    pub fn from_view<C: Counter>(
        view: &View<'_, C>,
        options: &NativeOptions<'_>,
    ) -> Result<Self, OptionError> {
        options.check()?;
        let schema = options.schema_or(view.layout().relative_error());
        let h = ExponentialHistogram::with_scale(view, schema, options.unit_ratio)?;
        let classic = options.classic.map(|bounds| {
            let o = HistogramOptions {
                bounds,
                unit_ratio: options.unit_ratio,
                created_unix_nanos: None,
            };
            cumulative_buckets_checked(view, &o)
        });
        Ok(NativeHistogram {
            schema,
            zero_threshold: DEFAULT_ZERO_THRESHOLD.min(0.5 / options.unit_ratio),
            zero_count: h.zero_count,
            count: h.count,
            sum: h.sum,
            positive: ExponentialBuckets {
                offset: h.offset + 1,
                counts: h.bucket_counts,
            },
            negative: ExponentialBuckets::default(),
            classic,
        })
    }

    /// The bounds of the bucket holding the `ceil(q × count)`-th value (at least the first)
    /// in value order, `q` in `[0, 1]`: `(lower, upper)` of a positive bucket, `(−upper,
    /// −lower)` of a negative one, `(−zero_threshold, zero_threshold)` for the zero bucket
    /// (`(0, zero_threshold)` when there are no negative values). `None` when empty.
    pub fn quantile_bucket(&self, q: f64) -> Option<(f64, f64)> {
        if self.count == 0 {
            return None;
        }
        let target = crate::percentile::rank_to_count(q * 100.0, u128::from(self.count));
        let mut seen = 0u128;
        let neg = &self.negative;
        for (k, &c) in neg.counts.iter().enumerate().rev() {
            seen += u128::from(c);
            if seen >= target {
                let (a, b) = bucket_bounds(neg.offset + k as i32, self.schema);
                return Some((-b, -a));
            }
        }
        seen += u128::from(self.zero_count);
        if seen >= target {
            let low = if neg.counts.is_empty() {
                0.0
            } else {
                -self.zero_threshold
            };
            return Some((low, self.zero_threshold));
        }
        let pos = &self.positive;
        pos.counts.iter().enumerate().find_map(|(k, &c)| {
            seen += u128::from(c);
            (seen >= target).then(|| bucket_bounds(pos.offset + k as i32, self.schema))
        })
    }
}
