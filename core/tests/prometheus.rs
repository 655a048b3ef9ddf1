//! Prometheus native histograms: the schema choice, the re-binning of integer and
//! floating-point histograms, and the delimited `MetricFamily` stream read back with the
//! tests' own protobuf decoder.
#![cfg(feature = "std")]

use std::collections::BTreeMap;

use picollo::float::{FloatConfig, FloatHistogram};
use picollo::openmetrics::{cumulative_buckets, HistogramOptions};
use picollo::prometheus::{
    bucket_bounds, schema_for, Bounds, NativeFamily, NativeHistogram, NativeMetric, NativeOptions,
    OptionError, DEFAULT_ZERO_THRESHOLD, MAX_SCHEMA, MIN_SCHEMA,
};
use picollo::{Config, Histogram};

mod common;
use common::protobuf::{all, decode, double, metric_families, unzigzag, varint, Field};

/// What a reader gets from one histogram of the exposition.
#[derive(Debug, Default)]
struct Read {
    count: u64,
    sum: f64,
    schema: i32,
    zero_threshold: f64,
    zero_count: u64,
    /// Bucket index -> count, from the spans and deltas.
    positive: BTreeMap<i32, u64>,
    negative: BTreeMap<i32, u64>,
    positive_spans: Vec<(i32, u32)>,
    /// `(upper_bound, cumulative_count)` of the classic buckets.
    classic: Vec<(f64, u64)>,
}

/// The spans (field `span`) and deltas (`delta`) of one sign, as index -> count.
fn run(h: &[(u32, Field)], span: u32, delta: u32) -> (BTreeMap<i32, u64>, Vec<(i32, u32)>) {
    let spans: Vec<(i32, u32)> = all(h, span)
        .into_iter()
        .map(|f| {
            let Field::Bytes(b) = f else { panic!() };
            let s = decode(&b);
            (unzigzag(varint(&s, 1)) as i32, varint(&s, 2) as u32)
        })
        .collect();
    let mut deltas = all(h, delta).into_iter().map(|f| match f {
        Field::Varint(v) => unzigzag(v),
        other => panic!("delta {other:?}"),
    });
    let (mut out, mut index, mut count) = (BTreeMap::new(), 0i32, 0i64);
    for &(offset, length) in &spans {
        index += offset;
        for _ in 0..length {
            count += deltas.next().expect("a delta per bucket");
            if count != 0 {
                out.insert(index, count as u64);
            }
            index += 1;
        }
    }
    assert!(deltas.next().is_none(), "more deltas than buckets");
    (out, spans)
}

/// The families of a delimited stream: (name, help, type, [(labels, histogram)]).
type Family = (String, String, u64, Vec<(Vec<(String, String)>, Read)>);

fn read_stream(bytes: &[u8]) -> Vec<Family> {
    metric_families(bytes)
        .into_iter()
        .map(|(name, help, kind, metrics)| {
            let metrics = metrics
                .into_iter()
                .map(|(labels, h)| (labels, read_histogram(&h)))
                .collect();
            (name, help, kind, metrics)
        })
        .collect()
}

fn read_histogram(h: &[(u32, Field)]) -> Read {
    let (positive, positive_spans) = run(h, 12, 13);
    let (negative, _) = run(h, 9, 10);
    let classic = all(h, 3)
        .into_iter()
        .map(|b| {
            let Field::Bytes(b) = b else { panic!() };
            let b = decode(&b);
            (double(&b, 2).unwrap(), varint(&b, 1))
        })
        .collect();
    Read {
        count: varint(h, 1),
        sum: double(h, 2).unwrap(),
        schema: unzigzag(varint(h, 5)) as i32,
        zero_threshold: double(h, 6).unwrap(),
        zero_count: varint(h, 7),
        positive,
        negative,
        positive_spans,
        classic,
    }
}

/// One family of one series, encoded and read back.
fn round_trip(h: &NativeHistogram, labels: &[(&str, &str)]) -> Read {
    let mut out = Vec::new();
    let metrics = [NativeMetric {
        labels,
        histogram: h,
    }];
    let family = NativeFamily {
        name: "rpc_latency_seconds",
        help: "RPC latency",
        metrics: &metrics,
    };
    family.write_delimited(&mut out).unwrap();
    let mut families = read_stream(&out);
    assert_eq!(families.len(), 1);
    let (name, help, kind, mut metrics) = families.remove(0);
    assert_eq!(
        (name.as_str(), help.as_str(), kind),
        ("rpc_latency_seconds", "RPC latency", 4)
    );
    let (got_labels, read) = metrics.remove(0);
    let want: Vec<(String, String)> = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(got_labels, want);
    read
}

/// The Prometheus bucket of `v > 0`, from its definition: the smallest `i` with
/// `v <= base^i` (powers of two computed apart from the library's).
fn bucket_of(v: f64, schema: i32) -> i32 {
    let mut i = (v.log2() * 2f64.powi(schema)).ceil() as i32;
    let upper = |i: i32| 2f64.powf(f64::from(i) / 2f64.powi(schema));
    while v > upper(i) {
        i += 1;
    }
    while v <= upper(i - 1) {
        i -= 1;
    }
    i
}

fn latencies() -> Histogram<u64, Vec<u64>> {
    let mut h = common::xorshift_latencies(0.01, 50_000);
    h.record(0);
    h.record(0);
    h
}

#[test]
fn the_schema_is_the_coarsest_within_the_relative_error() {
    for e in [0.2, 0.1, 0.05, 0.01, 0.005, 0.002] {
        let s = schema_for(e);
        let b = 2f64.powf(2f64.powi(-s));
        assert!((b - 1.0) / (b + 1.0) <= e, "{e}: {s}");
        let coarser = 2f64.powf(2f64.powi(-(s - 1)));
        assert!(
            s == MIN_SCHEMA || (coarser - 1.0) / (coarser + 1.0) > e,
            "{e}: {s}"
        );
    }
    // 2^(1/256) gives 0.135 %: the finest schema, also for 0.1 %.
    assert_eq!(schema_for(0.001), MAX_SCHEMA);
    assert_eq!(schema_for(0.9), -2);
    assert_eq!(schema_for(0.99999), MIN_SCHEMA);
    assert_eq!(schema_for(0.01), 6);
}

#[test]
fn every_bucket_lands_in_the_native_bucket_of_its_midpoint() {
    let h = latencies();
    let view = h.view();
    for (ratio, schema) in [(1.0, None), (1e9, None), (1e9, Some(-4)), (1e3, Some(8))] {
        let options = NativeOptions {
            schema,
            unit_ratio: ratio,
            ..Default::default()
        };
        let native = NativeHistogram::from_view(&view, &options).unwrap();
        let read = round_trip(&native, &[("method", "get"), ("code", "200")]);
        let s = schema.unwrap_or(6);
        assert_eq!(read.schema, s);
        let mut want = BTreeMap::new();
        for b in view.buckets().filter(|b| b.count > 0) {
            let mid = b.value as f64 / ratio;
            if mid > 0.0 {
                *want.entry(bucket_of(mid, s)).or_insert(0u64) += b.count;
            }
        }
        assert_eq!(read.positive, want, "ratio {ratio}, schema {s}");
        assert!(read.negative.is_empty());
        assert_eq!(read.zero_count, 2);
        assert_eq!(read.count, view.total_count());
        assert_eq!(read.count, read.zero_count + want.values().sum::<u64>());
        let sum: f64 = view
            .buckets()
            .map(|b| b.count as f64 * b.value as f64)
            .sum::<f64>()
            / ratio;
        assert!((read.sum - sum).abs() <= 1e-9 * sum, "{} {sum}", read.sum);
        assert!(read.zero_threshold > 0.0 && read.zero_threshold < 0.5 / ratio);
        assert_eq!(read.zero_threshold, DEFAULT_ZERO_THRESHOLD);
        assert!(read.classic.is_empty());
    }
}

#[test]
fn the_p99_lies_in_the_native_bucket_the_quantile_names() {
    let h = latencies();
    let view = h.view();
    for ratio in [1.0, 1e9] {
        let options = NativeOptions {
            unit_ratio: ratio,
            ..Default::default()
        };
        let native = NativeHistogram::from_view(&view, &options).unwrap();
        for q in [0.5, 0.9, 0.99, 0.999, 1.0] {
            let p = view.percentile_value(q * 100.0).unwrap() as f64 / ratio;
            let (lo, hi) = native.quantile_bucket(q).unwrap();
            assert!(lo < p && p <= hi, "q {q}: {p} in ({lo}, {hi}]");
            let i = bucket_of(p, native.schema);
            assert_eq!(bucket_bounds(i, native.schema), (lo, hi));
        }
    }
}

#[test]
fn an_empty_histogram_is_native_with_a_no_op_span() {
    let h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    let native = NativeHistogram::from_view(&h.view(), &NativeOptions::default()).unwrap();
    let read = round_trip(&native, &[]);
    assert_eq!((read.count, read.zero_count, read.sum), (0, 0, 0.0));
    assert!(read.zero_threshold > 0.0);
    assert_eq!(read.positive_spans, vec![(0, 0)]);
    assert!(read.positive.is_empty() && read.negative.is_empty());
    assert_eq!(native.quantile_bucket(0.5), None);
}

#[test]
fn doubles_keep_both_signs_and_the_zero_bucket() {
    let f = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.01)).unwrap();
    let values = [
        -250.0,
        -3.5,
        -3.5,
        -0.002,
        0.0,
        -0.0,
        0.0,
        1e-3,
        2.0,
        2.0,
        7e6,
        f64::NAN,
    ];
    for x in values {
        f.record(x);
    }
    let counts = f.counts().unwrap();
    let native = NativeHistogram::from_float(&counts, &NativeOptions::default()).unwrap();
    let read = round_trip(&native, &[("kind", "signed")]);
    let s = schema_for(0.01);
    assert_eq!(read.schema, s);
    assert_eq!(read.zero_count, 3);
    assert_eq!(read.count, 11, "NaN left out");
    assert_eq!(read.sum.to_bits(), counts.sum().to_bits());
    // Each Picollo bucket into the native bucket of its midpoint (2.0 is a native bucket's
    // upper bound, and its Picollo bucket's midpoint lies above it).
    let mut positive = BTreeMap::new();
    let mut negative = BTreeMap::new();
    for b in counts
        .buckets()
        .filter(|b| b.lowest != 0.0 || b.highest != 0.0)
    {
        let mid = (b.lowest + b.highest) / 2.0;
        let side = if mid > 0.0 {
            &mut positive
        } else {
            &mut negative
        };
        *side.entry(bucket_of(mid.abs(), s)).or_insert(0u64) += b.count;
    }
    assert_eq!(positive.get(&65), Some(&2), "2.0 in (2, 2^(65/64)]");
    assert_eq!(read.positive, positive);
    assert_eq!(read.negative, negative);
    assert!(read.zero_threshold >= DEFAULT_ZERO_THRESHOLD);
    // In value order: the most negative first, then zeros, then positives.
    assert_eq!(
        native.quantile_bucket(0.0).map(|b| b.0 < -250.0),
        Some(true)
    );
    let (lo, hi) = native.quantile_bucket(5.0 / 11.0).unwrap();
    assert!(lo < 0.0 && hi > 0.0 && hi == read.zero_threshold);
}

#[test]
fn classic_buckets_are_the_openmetrics_cumulative_counts() {
    let h = latencies();
    let view = h.view();
    let bounds = Bounds::Coarse(0.2);
    let options = NativeOptions {
        unit_ratio: 1e9,
        classic: Some(bounds),
        ..Default::default()
    };
    let native = NativeHistogram::from_view(&view, &options).unwrap();
    let read = round_trip(&native, &[]);
    let om = cumulative_buckets(
        &view,
        &HistogramOptions {
            bounds,
            unit_ratio: 1e9,
            created_unix_nanos: None,
        },
    )
    .unwrap();
    let finite: Vec<(f64, u64)> = om.buckets.into_iter().filter(|b| b.0.is_finite()).collect();
    assert!(finite.len() > 3);
    assert_eq!(read.classic, finite);
    assert!(!read.positive.is_empty(), "native buckets as well");
}

#[test]
fn bad_options_names_and_labels_are_refused_with_the_rule() {
    let h = latencies();
    let view = h.view();
    let bad = |o: NativeOptions| NativeHistogram::from_view(&view, &o).unwrap_err();
    let e = bad(NativeOptions {
        schema: Some(9),
        ..Default::default()
    });
    assert_eq!(e, OptionError::Schema(9));
    assert_eq!(e.to_string(), "schema is 9: it must be in -4..8");
    let e = bad(NativeOptions {
        unit_ratio: 0.0,
        ..Default::default()
    });
    assert_eq!(e, OptionError::UnitRatio(0.0));
    let e = bad(NativeOptions {
        classic: Some(Bounds::Explicit(&[5, 5])),
        ..Default::default()
    });
    assert!(matches!(
        e,
        OptionError::BoundsNotIncreasing { index: 1, .. }
    ));
    let f = FloatHistogram::<u64>::new(FloatConfig::new()).unwrap();
    let e = NativeHistogram::from_float(
        &f.counts().unwrap(),
        &NativeOptions {
            classic: Some(Bounds::Coarse(0.1)),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e, OptionError::ClassicBounds);

    let native = NativeHistogram::from_view(&view, &NativeOptions::default()).unwrap();
    let write = |name: &str, labels: &[(&str, &str)]| {
        let metrics = [NativeMetric {
            labels,
            histogram: &native,
        }];
        let mut out = Vec::new();
        let r = NativeFamily {
            name,
            help: "",
            metrics: &metrics,
        }
        .write_delimited(&mut out);
        assert!(r.is_ok() || out.is_empty(), "nothing written on error");
        r
    };
    assert_eq!(write("9lives", &[]), Err(OptionError::MetricName));
    assert_eq!(write("rpc_bucket", &[]), Err(OptionError::MetricName));
    assert_eq!(write("", &[]), Err(OptionError::MetricName));
    assert_eq!(
        write("ok:name", &[("le", "1")]),
        Err(OptionError::LabelName { index: 0 })
    );
    assert_eq!(
        write("ok", &[("a", "1"), ("__x", "")]),
        Err(OptionError::LabelName { index: 1 })
    );
    assert_eq!(
        write("ok", &[("a", "1"), ("b", ""), ("a", "2")]),
        Err(OptionError::RepeatedLabelName { index: 2, first: 0 })
    );
    assert_eq!(write("ok", &[("a", "any \"text\"\n")]), Ok(()));
}

#[test]
fn several_families_make_one_stream() {
    let h = latencies();
    let native = NativeHistogram::from_view(&h.view(), &NativeOptions::default()).unwrap();
    let mut out = Vec::new();
    for (name, labels) in [("a", &[("x", "1")][..]), ("b", &[][..])] {
        let metrics = [
            NativeMetric {
                labels,
                histogram: &native,
            },
            NativeMetric {
                labels,
                histogram: &native,
            },
        ];
        NativeFamily {
            name,
            help: "",
            metrics: &metrics,
        }
        .write_delimited(&mut out)
        .unwrap();
    }
    let families = read_stream(&out);
    let names: Vec<&str> = families.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert!(families.iter().all(|f| f.3.len() == 2));
}
