//! A request of metrics of every kind a metrics library keeps: exponential histograms of
//! integers and of doubles, sums (counters) and gauges, in one `ExportMetricsServiceRequest`
//! (protobuf). The histogram points are written by the same code as [`Request`](super::Request)'s.

use alloc::vec::Vec;

use super::protobuf::{
    buckets, envelope, fixed64_field, key_value, metric_names, point_head, varint_field, PointHead,
};
use super::{
    check_attributes, check_name, check_times, Attribute, AttributeSet, DataPoint, OptionError,
    SignedExponentialHistogram, Temporality,
};
use crate::format::protobuf::{self as wire, message};

/// One point of a histogram of doubles: its attributes, its interval and its counts.
#[derive(Clone, Copy, Debug)]
pub struct SignedDataPoint<'a> {
    /// The attributes of the series.
    pub attributes: &'a [Attribute<'a>],
    /// Start of the interval (delta) or of the counting (cumulative), ns since the epoch.
    pub start_time_unix_nano: u64,
    /// End of the interval, ns since the epoch.
    pub time_unix_nano: u64,
    /// The counts.
    pub histogram: &'a SignedExponentialHistogram,
}

/// The value of a `NumberDataPoint`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// `as_int` (a counter's total).
    Int(i64),
    /// `as_double` (a gauge's value).
    Double(f64),
}

/// One point of a sum or a gauge.
#[derive(Clone, Copy, Debug)]
pub struct NumberPoint<'a> {
    /// The attributes of the series.
    pub attributes: &'a [Attribute<'a>],
    /// Start of the counting (a cumulative sum), ns since the epoch; 0 for a gauge.
    pub start_time_unix_nano: u64,
    /// When the value was read, ns since the epoch.
    pub time_unix_nano: u64,
    /// The value.
    pub value: Number,
}

/// What a metric holds, with its points.
#[derive(Clone, Copy, Debug)]
pub enum MetricData<'a> {
    /// An exponential histogram of integers (positive buckets only).
    Histogram(Temporality, &'a [DataPoint<'a>]),
    /// An exponential histogram of doubles (positive and negative buckets).
    SignedHistogram(Temporality, &'a [SignedDataPoint<'a>]),
    /// A sum; `monotonic` for a counter.
    Sum {
        /// How the points relate in time.
        temporality: Temporality,
        /// Whether the sum only grows.
        monotonic: bool,
        /// The points.
        points: &'a [NumberPoint<'a>],
    },
    /// A gauge: the last value of each series.
    Gauge(&'a [NumberPoint<'a>]),
}

/// One metric of any kind.
#[derive(Clone, Copy, Debug)]
pub struct AnyMetric<'a> {
    /// The metric name.
    pub name: &'a str,
    /// The description.
    pub description: &'a str,
    /// The unit (UCUM, e.g. `s`).
    pub unit: &'a str,
    /// The kind and the points.
    pub data: MetricData<'a>,
}

/// An `ExportMetricsServiceRequest` of metrics of any kind, with one resource and one
/// instrumentation scope; [`MixedRequest::check`] holds it to OTLP's rules.
#[derive(Clone, Copy, Debug)]
pub struct MixedRequest<'a> {
    /// The resource's attributes (e.g. `service.name`).
    pub resource: &'a [Attribute<'a>],
    /// The instrumentation scope's name.
    pub scope_name: &'a str,
    /// The instrumentation scope's version.
    pub scope_version: &'a str,
    /// The metrics.
    pub metrics: &'a [AnyMetric<'a>],
}

impl MixedRequest<'_> {
    /// The resource's attribute names, then each metric's name and its points' attributes
    /// and times (the rules [`Request::check`](super::Request::check) applies).
    pub fn check(&self) -> Result<(), OptionError> {
        check_attributes(self.resource, AttributeSet::Resource)?;
        self.metrics.iter().try_for_each(AnyMetric::check)
    }

    /// The request as protobuf bytes (the OTLP/HTTP `application/x-protobuf` body).
    pub fn to_protobuf(&self) -> Vec<u8> {
        envelope(self.resource, self.scope_name, self.scope_version, |sm| {
            for m in self.metrics {
                message(sm, 2, |mb| encode_metric(mb, m));
            }
        })
    }
}

impl AnyMetric<'_> {
    /// The name ([`check_name`]), then every point's attributes and times.
    pub fn check(&self) -> Result<(), OptionError> {
        check_name(self.name)?;
        let point = |attributes, start, time| {
            check_attributes(attributes, AttributeSet::Point)?;
            check_times(start, time)
        };
        match self.data {
            MetricData::Histogram(_, points) => points.iter().try_for_each(DataPoint::check),
            MetricData::SignedHistogram(_, points) => points
                .iter()
                .try_for_each(|p| point(p.attributes, p.start_time_unix_nano, p.time_unix_nano)),
            MetricData::Sum { points, .. } | MetricData::Gauge(points) => points
                .iter()
                .try_for_each(|p| point(p.attributes, p.start_time_unix_nano, p.time_unix_nano)),
        }
    }
}

fn encode_metric(out: &mut Vec<u8>, m: &AnyMetric<'_>) {
    metric_names(out, m.name, m.description, m.unit);
    match m.data {
        MetricData::Histogram(temporality, points) => {
            let metric = super::Metric {
                name: m.name,
                description: m.description,
                unit: m.unit,
                temporality,
                points,
            };
            super::protobuf::histogram_body(out, &metric);
        }
        MetricData::SignedHistogram(temporality, points) => message(out, 10, |eh| {
            for p in points {
                message(eh, 1, |dp| encode_signed_point(dp, p));
            }
            varint_field(eh, 2, temporality as u64);
        }),
        MetricData::Sum {
            temporality,
            monotonic,
            points,
        } => message(out, 7, |sum| {
            number_points(sum, points);
            varint_field(sum, 2, temporality as u64);
            varint_field(sum, 3, u64::from(monotonic));
        }),
        MetricData::Gauge(points) => message(out, 5, |gauge| number_points(gauge, points)),
    }
}

/// An `ExponentialHistogramDataPoint` with both runs and the zero threshold.
fn encode_signed_point(out: &mut Vec<u8>, p: &SignedDataPoint<'_>) {
    let h = p.histogram;
    point_head(
        out,
        PointHead {
            attributes: p.attributes,
            start_time_unix_nano: p.start_time_unix_nano,
            time_unix_nano: p.time_unix_nano,
            count: h.count,
            sum: h.sum,
            scale: h.scale,
            zero_count: h.zero_count,
        },
    );
    buckets(out, 8, h.positive.offset, &h.positive.counts);
    buckets(out, 9, h.negative.offset, &h.negative.counts);
    wire::double_field(out, 14, h.zero_threshold);
}

/// The `NumberDataPoint`s of a sum or a gauge (field 1 of both).
fn number_points(out: &mut Vec<u8>, points: &[NumberPoint<'_>]) {
    for p in points {
        message(out, 1, |dp| {
            fixed64_field(dp, 2, p.start_time_unix_nano);
            fixed64_field(dp, 3, p.time_unix_nano);
            // A oneof member: written even at 0.
            match p.value {
                Number::Double(v) => wire::double_field(dp, 4, v),
                Number::Int(v) => wire::fixed64_field(dp, 6, v as u64),
            }
            for a in p.attributes {
                key_value(dp, 7, a);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::otlp::{ExponentialHistogram, Metric, Request};

    #[test]
    fn an_integer_histogram_is_encoded_as_a_plain_request_encodes_it() {
        let h = ExponentialHistogram {
            scale: 3,
            zero_count: 2,
            offset: -4,
            bucket_counts: alloc::vec![1, 0, 5],
            count: 8,
            sum: 1.5,
            min: Some(0.0),
            max: Some(1.2),
        };
        let points = [DataPoint {
            attributes: &[("route", "/a")],
            start_time_unix_nano: 5,
            time_unix_nano: 9,
            histogram: &h,
        }];
        let plain = Request {
            resource: &[("service.name", "s")],
            scope_name: "x",
            scope_version: "1",
            metrics: &[Metric {
                name: "m",
                description: "d",
                unit: "s",
                temporality: Temporality::Cumulative,
                points: &points,
            }],
        };
        let mixed = MixedRequest {
            resource: plain.resource,
            scope_name: "x",
            scope_version: "1",
            metrics: &[AnyMetric {
                name: "m",
                description: "d",
                unit: "s",
                data: MetricData::Histogram(Temporality::Cumulative, &points),
            }],
        };
        assert_eq!(mixed.to_protobuf(), plain.to_protobuf());
        assert!(mixed.check().is_ok());
        let bad = [AnyMetric {
            name: "",
            ..mixed.metrics[0]
        }];
        assert!(MixedRequest {
            metrics: &bad,
            ..mixed
        }
        .check()
        .is_err());
    }
}
