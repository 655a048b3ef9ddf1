//! OTLP exponential histograms: scale choice, re-binning, quantiles within the stated
//! error, and the protobuf bytes read back with a small decoder written here.
#![cfg(feature = "std")]

use picollo::otlp::{
    bucket_bounds, bucket_relative_error, index_of, scale_for, Attribute, AttributeSet, DataPoint,
    ExponentialHistogram, Metric, OptionError, Request, Temporality, MAX_SCALE, MIN_SCALE,
};
use picollo::Histogram;

mod common;
use common::protobuf::{all, decode, double, fixed, msg, one, read_varint, text, Field};

fn latencies(relative_error: f64) -> Histogram<u64, Vec<u64>> {
    let mut h = common::xorshift_latencies(relative_error, 100_000);
    h.record(0);
    h
}

#[test]
fn the_scale_is_the_coarsest_no_worse_than_the_histogram() {
    for e in [0.1, 0.05, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 0.4] {
        let s = scale_for(e);
        assert!(bucket_relative_error(s) <= e, "{e}: {s}");
        assert!(
            s == MIN_SCALE || bucket_relative_error(s - 1) > e,
            "{e}: {s}"
        );
    }
    // (2^(1/512) − 1)/(2^(1/512) + 1) ≈ 0.00068 ≤ 0.1 %, while 2^(1/256) gives 0.00135.
    assert_eq!(scale_for(0.001), 9);
    // 2^(1/4): 0.086 ≤ 10 %; √2: 0.17.
    assert_eq!(scale_for(0.1), 2);
    assert_eq!(scale_for(1e-12), MAX_SCALE);
}

#[test]
fn a_value_lies_in_the_bucket_its_index_names() {
    for scale in [-3, 0, 1, 4, 9, 13] {
        let mut v = 1e-6;
        while v < 1e12 {
            let (lo, hi) = bucket_bounds(index_of(v, scale), scale);
            let slack = 1e-12 * v;
            assert!(
                lo - slack < v && v <= hi + slack,
                "scale {scale}: {v} in ({lo}, {hi}]"
            );
            v *= 1.37;
        }
        // Every 2^(2^-scale)-th power of two is an upper bound, exactly.
        let step = 1 << (-scale).max(0);
        for k in (-20..40).filter(|k| k % step == 0) {
            let v = 2f64.powi(k);
            assert_eq!(
                bucket_bounds(index_of(v, scale), scale).1,
                v,
                "scale {scale}: 2^{k}"
            );
        }
    }
}

#[test]
fn bucket_counts_add_up_and_quantiles_stay_within_the_stated_error() {
    for e in [0.001, 0.01, 0.05] {
        let mut h = latencies(e);
        h.record(1u64 << 60); // overflow
        let view = h.view();
        for ratio in [1.0, 1e9] {
            let x = ExponentialHistogram::from_view(&view, ratio).unwrap();
            assert_eq!(x.scale, scale_for(view.layout().relative_error()));
            let buckets: u64 = x.bucket_counts.iter().sum();
            assert_eq!(buckets + x.zero_count, x.count);
            let all = view.total_count() + view.underflow_count() + view.overflow_count();
            assert_eq!(x.count, all);
            assert_eq!(x.zero_count, 1);
            assert!(*x.bucket_counts.first().unwrap() > 0 && *x.bucket_counts.last().unwrap() > 0);
            // Quantiles of in-range values: compare without the overflow count.
            let in_range = latencies(e);
            let x = ExponentialHistogram::from_view(&in_range.view(), ratio).unwrap();
            let bound = bucket_relative_error(x.scale) * (1.0 + 1e-9);
            for q in [0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
                let want = in_range.view().percentile_value(q * 100.0).unwrap() as f64 / ratio;
                let got = x.quantile(q).unwrap();
                if want == 0.0 {
                    assert_eq!(got, 0.0);
                    continue;
                }
                let err = (got - want).abs() / want;
                assert!(
                    err <= bound,
                    "e {e}, q {q}: {got} vs {want} ({err} > {bound})"
                );
            }
            let mean = in_range.view().mean() * in_range.view().total_count() as f64 / ratio;
            assert!((x.sum - mean).abs() <= 1e-9 * mean, "{} {mean}", x.sum);
        }
    }
}

fn sint(fields: &[(u32, Field)], n: u32) -> i32 {
    match one(fields, n) {
        Some(Field::Varint(v)) => ((v >> 1) as i32) ^ -((v & 1) as i32),
        None => 0,
        other => panic!("field {n}: {other:?}"),
    }
}

fn attributes(fields: &[(u32, Field)], n: u32) -> Vec<(String, String)> {
    all(fields, n)
        .into_iter()
        .map(|f| match f {
            Field::Bytes(b) => {
                let kv = decode(&b);
                (text(&kv, 1), text(&msg(&kv, 2), 1))
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

fn request<'a>(metrics: &'a [Metric<'a>]) -> Request<'a> {
    Request {
        resource: &[("service.name", "checkout"), ("host", "a\"b\\c\n")],
        scope_name: "picollo",
        scope_version: "0.1.0",
        metrics,
    }
}

/// A point of `histogram` from `start` to `end` (ns since the epoch), with `attributes`.
fn point<'a>(
    attributes: &'a [Attribute<'a>],
    (start, end): (u64, u64),
    histogram: &'a ExponentialHistogram,
) -> DataPoint<'a> {
    DataPoint {
        attributes,
        start_time_unix_nano: start,
        time_unix_nano: end,
        histogram,
    }
}

/// A metric in seconds, named `name`, of `points`.
fn metric<'a>(
    name: &'a str,
    description: &'a str,
    temporality: Temporality,
    points: &'a [DataPoint<'a>],
) -> Metric<'a> {
    Metric {
        name,
        description,
        unit: "s",
        temporality,
        points,
    }
}

#[test]
fn the_protobuf_request_decodes_back_to_the_data_points() {
    let h = latencies(0.001);
    let x = ExponentialHistogram::from_view(&h.view(), 1e9).unwrap();
    let mut empty_h = latencies(0.01);
    empty_h.reset();
    let empty = ExponentialHistogram::from_view(&empty_h.view(), 1.0).unwrap();
    let times = (1_700_000_000_000_000_000, 1_700_000_010_000_000_000);
    let points = [
        point(&[("route", "/pay")], times, &x),
        point(&[], (5, 6), &empty),
    ];
    let name = "http.server.duration";
    let metrics = [metric(name, "request latency", Temporality::Delta, &points)];
    let bytes = request(&metrics).to_protobuf();

    let req = decode(&bytes);
    assert_eq!(all(&req, 1).len(), 1);
    let rm = msg(&req, 1);
    let resource = msg(&rm, 1);
    assert_eq!(
        attributes(&resource, 1),
        [
            ("service.name".into(), "checkout".into()),
            ("host".into(), "a\"b\\c\n".into())
        ]
    );
    let sm = msg(&rm, 2);
    let scope = msg(&sm, 1);
    assert_eq!(
        (text(&scope, 1), text(&scope, 2)),
        ("picollo".into(), "0.1.0".into())
    );
    let metric = msg(&sm, 2);
    assert_eq!(text(&metric, 1), "http.server.duration");
    assert_eq!(text(&metric, 2), "request latency");
    assert_eq!(text(&metric, 3), "s");
    let eh = msg(&metric, 10);
    assert_eq!(one(&eh, 2), Some(Field::Varint(1)), "delta temporality");
    let dps = all(&eh, 1);
    assert_eq!(dps.len(), 2);
    for (dp, p) in dps.iter().zip(&points) {
        let Field::Bytes(b) = dp else { panic!() };
        let f = decode(b);
        let want = p.histogram;
        let attrs: Vec<(String, String)> = p
            .attributes
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(attributes(&f, 1), attrs);
        assert_eq!(fixed(&f, 2), p.start_time_unix_nano);
        assert_eq!(fixed(&f, 3), p.time_unix_nano);
        assert_eq!(fixed(&f, 4), want.count);
        assert_eq!(double(&f, 5), Some(want.sum));
        assert_eq!(sint(&f, 6), want.scale);
        assert_eq!(fixed(&f, 7), want.zero_count);
        assert_eq!(one(&f, 9), None, "no negative buckets");
        assert_eq!(double(&f, 12), want.min);
        assert_eq!(double(&f, 13), want.max);
        let counts: Vec<u64> = match one(&f, 8) {
            Some(Field::Bytes(b)) => {
                let buckets = decode(&b);
                assert_eq!(sint(&buckets, 1), want.offset);
                match one(&buckets, 2) {
                    Some(Field::Bytes(packed)) => {
                        let mut at = 0;
                        let mut v = Vec::new();
                        while at < packed.len() {
                            v.push(read_varint(&packed, &mut at));
                        }
                        v
                    }
                    other => panic!("{other:?}"),
                }
            }
            None => Vec::new(),
            other => panic!("{other:?}"),
        };
        assert_eq!(counts, want.bucket_counts);
        assert_eq!(counts.iter().sum::<u64>() + fixed(&f, 7), fixed(&f, 4));
    }
    // The first point is the real one: a scale for 0.1 % and many buckets.
    assert_eq!(x.scale, 9);
    assert!(x.bucket_counts.len() > 1_000);
}

#[test]
fn the_json_request_follows_the_otlp_json_mapping() {
    let h = latencies(0.01);
    let x = ExponentialHistogram::from_view(&h.view(), 1e9).unwrap();
    let times = (1_700_000_000_000_000_001, 1_700_000_010_000_000_000);
    let points = [point(&[("route", "/pay")], times, &x)];
    let metrics = [metric("latency", "", Temporality::Cumulative, &points)];
    let json = request(&metrics).to_json();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rm = &v["resourceMetrics"][0];
    assert_eq!(rm["resource"]["attributes"][1]["key"], "host");
    assert_eq!(
        rm["resource"]["attributes"][1]["value"]["stringValue"],
        "a\"b\\c\n"
    );
    let sm = &rm["scopeMetrics"][0];
    assert_eq!(sm["scope"]["name"], "picollo");
    let m = &sm["metrics"][0];
    assert_eq!(m["name"], "latency");
    assert!(m.get("description").is_none(), "defaults are left out");
    let eh = &m["exponentialHistogram"];
    assert_eq!(eh["aggregationTemporality"], 2);
    let dp = &eh["dataPoints"][0];
    // 64-bit integers as decimal strings (exact beyond 2^53), 32-bit ones as numbers.
    assert_eq!(dp["startTimeUnixNano"], "1700000000000000001");
    assert_eq!(dp["count"], x.count.to_string());
    assert_eq!(dp["zeroCount"], x.zero_count.to_string());
    assert_eq!(dp["scale"], x.scale);
    assert_eq!(dp["positive"]["offset"], x.offset);
    let counts: Vec<u64> = dp["positive"]["bucketCounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, x.bucket_counts);
    assert_eq!(dp["sum"].as_f64().unwrap(), x.sum);
    assert_eq!(dp["min"].as_f64(), x.min);
    assert_eq!(dp["max"].as_f64(), x.max);
    assert_eq!(dp["attributes"][0]["value"]["stringValue"], "/pay");
}

#[test]
fn a_bad_scale_or_unit_ratio_is_refused_with_the_option_named() {
    let h = latencies(0.01);
    let view = h.view();
    for scale in [MIN_SCALE - 1, MAX_SCALE + 1, i32::MIN, i32::MAX] {
        let e = ExponentialHistogram::with_scale(&view, scale, 1.0).unwrap_err();
        assert_eq!(e, OptionError::Scale(scale));
        assert_eq!(
            e.to_string(),
            format!("scale is {scale}: it must be in -10..20")
        );
    }
    for ratio in [0.0, -1.0, f64::INFINITY, f64::NEG_INFINITY] {
        let e = ExponentialHistogram::from_view(&view, ratio).unwrap_err();
        assert_eq!(e, OptionError::UnitRatio(ratio));
        assert!(e.to_string().starts_with("unit_ratio is "), "{e}");
        assert_eq!(
            ExponentialHistogram::with_scale(&view, 3, ratio),
            Err(OptionError::UnitRatio(ratio))
        );
    }
    let nan = ExponentialHistogram::from_view(&view, f64::NAN).unwrap_err();
    assert!(matches!(nan, OptionError::UnitRatio(r) if r.is_nan()));
    // The ends of the range are accepted as they are, not clamped.
    for scale in [MIN_SCALE, MAX_SCALE] {
        let x = ExponentialHistogram::with_scale(&view, scale, 1e-3).unwrap();
        assert_eq!(x.scale, scale);
    }
}

#[test]
fn request_check_holds_names_attributes_and_times_to_otlps_rules() {
    let h = latencies(0.01);
    let x = ExponentialHistogram::from_view(&h.view(), 1e9).unwrap();
    let request = |name, attributes, resource, times: (u64, u64)| {
        let points = [point(attributes, times, &x)];
        let metrics = [metric(name, "", Temporality::Delta, &points)];
        Request {
            resource,
            scope_name: "",
            scope_version: "",
            metrics: &metrics,
        }
        .check()
    };
    let ok = [("a", "1"), ("b", "")];
    assert_eq!(request("m", &ok, &ok, (1, 2)), Ok(()));
    // An end of 0 is unset: not compared.
    assert_eq!(request("m", &[], &[], (5, 0)), Ok(()));
    let e = request("", &ok, &ok, (1, 2)).unwrap_err();
    assert_eq!(e, OptionError::EmptyName);
    assert_eq!(e.to_string(), "name is empty: an OTLP metric needs a name");
    let e = request("m", &[("a", "1"), ("", "2")], &[], (1, 2)).unwrap_err();
    assert_eq!(
        e,
        OptionError::EmptyAttributeName {
            set: AttributeSet::Point,
            index: 1
        }
    );
    assert_eq!(e.to_string(), "attributes[1].name is empty");
    let e = request("m", &ok, &[("x", "1"), ("y", "2"), ("x", "3")], (1, 2)).unwrap_err();
    assert_eq!(
        e,
        OptionError::RepeatedAttributeName {
            set: AttributeSet::Resource,
            index: 2,
            first: 0
        }
    );
    assert_eq!(
        e.to_string(),
        "resource[2].name is given twice (as resource[0].name)"
    );
    let e = request("m", &ok, &ok, (3, 2)).unwrap_err();
    assert_eq!(e, OptionError::StartAfterTime { start: 3, time: 2 });
    assert_eq!(
        e.to_string(),
        "start_time_unix_nano 3 is after time_unix_nano 2"
    );
}
