//! An OTLP request of the registry's families: histograms as exponential histograms
//! (cumulative), counters as monotonic sums, gauges as gauges; attributes from the labels.
//! The re-binning and the encoding are Picollo's own (`picollo::otlp`), the re-binning of a
//! histogram of doubles the one Prometheus' native histograms use.

use picollo::concurrent::ConcurrentSnapshot;
use picollo::otlp::{
    AnyMetric, DataPoint, ExponentialHistogram, MetricData, MixedRequest, Number, NumberPoint,
    SignedDataPoint, SignedExponentialHistogram, Temporality,
};

use crate::registry::{Cell, FamilyCopy, HistogramCell, Kind, Labels};

/// The instrumentation scope the requests name.
pub(crate) const SCOPE_NAME: &str = "picollo-metrics";

/// A histogram's counts re-binned for OTLP, of either kind.
enum Read {
    Integers(ExponentialHistogram),
    Doubles(SignedExponentialHistogram),
}

/// One cumulative copy of a histogram, at the scale its layout's relative error calls for;
/// `None` when the copy could not be made.
fn read(cell: &HistogramCell) -> Option<Read> {
    match cell {
        HistogramCell::Doubles(h) => {
            let counts = h.counts().ok()?;
            // Zero threshold: the range's lowest magnitude (the rule keeps it above 0).
            SignedExponentialHistogram::from_counts(&counts, 1.0, 0.0)
                .ok()
                .map(Read::Doubles)
        }
        HistogramCell::Integers { h, ratio } => {
            let copy = ConcurrentSnapshot::new(h).ok()?;
            ExponentialHistogram::from_view(&copy.view(), *ratio)
                .ok()
                .map(Read::Integers)
        }
    }
}

/// The values a family's points are made of, owned so the request can borrow them.
struct FamilyRead<'a> {
    family: &'a FamilyCopy,
    attributes: Vec<Vec<(&'a str, &'a str)>>,
    reads: Vec<(usize, Read)>,
    numbers: Vec<Number>,
}

fn attributes(labels: &Labels) -> Vec<(&str, &str)> {
    labels
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

impl<'a> FamilyRead<'a> {
    fn new(family: &'a FamilyCopy) -> Self {
        let attributes = family.series.iter().map(|(l, _)| attributes(l)).collect();
        let mut reads = Vec::new();
        let mut numbers = Vec::new();
        for (k, (_, cell)) in family.series.iter().enumerate() {
            match cell {
                Cell::Histogram(h) => reads.extend(read(h).map(|r| (k, r))),
                Cell::Counter(c) => {
                    let total = c.0.load(std::sync::atomic::Ordering::Relaxed);
                    numbers.push(Number::Int(i64::try_from(total).unwrap_or(i64::MAX)));
                }
                Cell::Gauge(g) => numbers.push(Number::Double(g.value())),
            }
        }
        FamilyRead {
            family,
            attributes,
            reads,
            numbers,
        }
    }
}

/// The times of every point of one request: since `start`, read at `now` (ns since the
/// epoch).
#[derive(Clone, Copy)]
pub(crate) struct Times {
    pub(crate) start: u64,
    pub(crate) now: u64,
}

/// The protobuf body of an `ExportMetricsServiceRequest` of `families` (checked by the
/// exposition's rules already), with `resource` attributes.
pub(crate) fn request(families: &[FamilyCopy], resource: &[(&str, &str)], times: Times) -> Vec<u8> {
    let reads: Vec<FamilyRead<'_>> = families.iter().map(FamilyRead::new).collect();
    let points: Vec<Points<'_>> = reads.iter().map(|r| Points::new(r, times)).collect();
    let metrics: Vec<AnyMetric<'_>> = reads
        .iter()
        .zip(&points)
        .map(|(r, p)| AnyMetric {
            name: &r.family.name,
            description: &r.family.help,
            unit: "",
            data: p.data(r.family.kind),
        })
        .collect();
    MixedRequest {
        resource,
        scope_name: SCOPE_NAME,
        scope_version: env!("CARGO_PKG_VERSION"),
        metrics: &metrics,
    }
    .to_protobuf()
}

/// The points of one family, of whichever kind it is.
struct Points<'a> {
    integers: Vec<DataPoint<'a>>,
    doubles: Vec<SignedDataPoint<'a>>,
    numbers: Vec<NumberPoint<'a>>,
}

impl<'a> Points<'a> {
    fn new(r: &'a FamilyRead<'a>, t: Times) -> Self {
        let mut p = Points {
            integers: Vec::new(),
            doubles: Vec::new(),
            numbers: Vec::new(),
        };
        for (k, read) in &r.reads {
            let attributes = r.attributes[*k].as_slice();
            let (start_time_unix_nano, time_unix_nano) = (t.start, t.now);
            match read {
                Read::Integers(histogram) => p.integers.push(DataPoint {
                    attributes,
                    start_time_unix_nano,
                    time_unix_nano,
                    histogram,
                }),
                Read::Doubles(histogram) => p.doubles.push(SignedDataPoint {
                    attributes,
                    start_time_unix_nano,
                    time_unix_nano,
                    histogram,
                }),
            }
        }
        // Counters and gauges have one number per series, in series order.
        let start = if r.family.kind == Kind::Gauge {
            0
        } else {
            t.start
        };
        p.numbers = (r.attributes.iter().zip(&r.numbers))
            .map(|(attributes, &value)| NumberPoint {
                attributes,
                start_time_unix_nano: start,
                time_unix_nano: t.now,
                value,
            })
            .collect();
        p
    }

    fn data(&'a self, kind: Kind) -> MetricData<'a> {
        match kind {
            Kind::Counter => MetricData::Sum {
                temporality: Temporality::Cumulative,
                monotonic: true,
                points: &self.numbers,
            },
            Kind::Gauge => MetricData::Gauge(&self.numbers),
            // A family holds one layout: its series are all integers or all doubles.
            Kind::Histogram(_) if !self.integers.is_empty() => {
                MetricData::Histogram(Temporality::Cumulative, &self.integers)
            }
            Kind::Histogram(_) => {
                MetricData::SignedHistogram(Temporality::Cumulative, &self.doubles)
            }
        }
    }
}
