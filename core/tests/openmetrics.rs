//! OpenMetrics text exposition: golden text, escaping, validation, and cumulative counts
//! that match the recorded values at every bound.
#![cfg(feature = "alloc")]

use picollo::openmetrics::{
    cumulative_buckets, Bounds, Family, HistogramOptions, OpenMetricsError, OpenMetricsWriter,
    OptionError, STANDARD_QUANTILES,
};
use picollo::{Config, Histogram};

/// Buckets of one value up to 15, then of two, four, eight (relative error 10 %).
fn small() -> (Histogram<u64, Vec<u64>>, Vec<u64>) {
    let mut h: Histogram<u64, Vec<u64>> = Config::new()
        .with_relative_error(0.1)
        .with_range(2, 100)
        .build()
        .unwrap();
    let values = vec![0, 3, 3, 7, 20, 21, 64, 99, 500];
    for &v in &values {
        h.record(v);
    }
    (h, values)
}

const GOLDEN: &str = r#"# TYPE rpc_latency_seconds histogram
# UNIT rpc_latency_seconds seconds
# HELP rpc_latency_seconds RPC \"latency\"\\ms\nsecond line
rpc_latency_seconds_bucket{method="GET",path="/a\"b\\c\nd",le="0.003"} 3
rpc_latency_seconds_bucket{method="GET",path="/a\"b\\c\nd",le="0.01"} 4
rpc_latency_seconds_bucket{method="GET",path="/a\"b\\c\nd",le="0.047"} 6
rpc_latency_seconds_bucket{method="GET",path="/a\"b\\c\nd",le="+Inf"} 9
rpc_latency_seconds_count{method="GET",path="/a\"b\\c\nd"} 9
rpc_latency_seconds_sum{method="GET",path="/a\"b\\c\nd"} 0.325
rpc_latency_seconds_created{method="GET",path="/a\"b\\c\nd"} 1700000000.25
rpc_latency_seconds_bucket{method="PUT",le="0.003"} 0
rpc_latency_seconds_bucket{method="PUT",le="0.01"} 0
rpc_latency_seconds_bucket{method="PUT",le="0.047"} 0
rpc_latency_seconds_bucket{method="PUT",le="+Inf"} 0
rpc_latency_seconds_count{method="PUT"} 0
rpc_latency_seconds_sum{method="PUT"} 0.0
rpc_latency_seconds_created{method="PUT"} 1700000000.25
# TYPE rpc_latency_q summary
rpc_latency_q{quantile="0.5"} 21.0
rpc_latency_q{quantile="0.99"} 100.0
rpc_latency_q_count 9
rpc_latency_q_sum 325.0
# TYPE coarse histogram
coarse_bucket{le="2.0"} 1
coarse_bucket{le="3.0"} 3
coarse_bucket{le="5.0"} 3
coarse_bucket{le="8.0"} 4
coarse_bucket{le="13.0"} 4
coarse_bucket{le="21.0"} 6
coarse_bucket{le="35.0"} 6
coarse_bucket{le="55.0"} 6
coarse_bucket{le="87.0"} 7
coarse_bucket{le="103.0"} 8
coarse_bucket{le="+Inf"} 9
coarse_count 9
coarse_sum 325.0
# EOF
"#;

#[test]
fn a_small_exposition_matches_the_golden_text() {
    let (h, _) = small();
    let empty = h.clone().tap_reset();
    let mut w = OpenMetricsWriter::new(String::new());
    let options = HistogramOptions {
        bounds: Bounds::Explicit(&[3, 10, 47]),
        unit_ratio: 1000.0,
        created_unix_nanos: Some(1_700_000_000_250_000_000),
    };
    let family = Family::new("rpc_latency_seconds")
        .with_help("RPC \"latency\"\\ms\nsecond line")
        .with_unit("seconds");
    w.histogram(&family, &options)
        .unwrap()
        .point(&[("method", "GET"), ("path", "/a\"b\\c\nd")], &h.view())
        .unwrap()
        .point(&[("method", "PUT")], &empty.view())
        .unwrap();
    w.summary(
        &Family::new("rpc_latency_q"),
        &[0.5, 0.99],
        &HistogramOptions::default(),
    )
    .unwrap()
    .point(&[], &h.view())
    .unwrap();
    let coarse = HistogramOptions {
        bounds: Bounds::Coarse(0.25),
        ..Default::default()
    };
    w.histogram(&Family::new("coarse"), &coarse)
        .unwrap()
        .point(&[], &h.view())
        .unwrap();
    assert_eq!(w.finish().unwrap(), GOLDEN);
}

trait TapReset {
    fn tap_reset(self) -> Self;
}

impl TapReset for Histogram<u64, Vec<u64>> {
    fn tap_reset(mut self) -> Self {
        self.reset();
        self
    }
}

#[test]
fn bad_names_labels_units_and_bounds_are_rejected() {
    let (h, _) = small();
    let opts = HistogramOptions::default();
    let mut w = OpenMetricsWriter::new(String::new());
    for bad in [
        "",
        "1abc",
        "a-b",
        "r\u{e9}sum\u{e9}",
        "foo_bucket",
        "foo_count",
        "x_total",
    ] {
        let e = w
            .histogram(&Family::new(bad), &opts)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(e, OpenMetricsError::InvalidMetricName, "{bad:?}");
    }
    let e = w.summary(&Family::new("q_sum"), &[0.5], &opts).map(|_| ());
    assert_eq!(e.unwrap_err(), OpenMetricsError::InvalidMetricName);
    for (name, unit) in [
        ("latency", "seconds"),
        ("latencyseconds", "seconds"),
        ("a_b c", "b c"),
    ] {
        let family = Family::new(name).with_unit(unit);
        let e = w.histogram(&family, &opts).map(|_| ()).unwrap_err();
        assert!(
            matches!(
                e,
                OpenMetricsError::InvalidUnit | OpenMetricsError::InvalidMetricName
            ),
            "{name} {unit}: {e:?}"
        );
    }
    for bounds in [
        Bounds::Explicit(&[5, 5]),
        Bounds::Explicit(&[7, 3]),
        Bounds::Coarse(0.0),
        Bounds::Coarse(1.0),
        Bounds::Coarse(f64::NAN),
    ] {
        let o = HistogramOptions { bounds, ..opts };
        let e = w.histogram(&Family::new("b"), &o).map(|_| ()).unwrap_err();
        assert_eq!(e, OpenMetricsError::InvalidBounds, "{bounds:?}");
    }
    for ratio in [0.0, -1.0, f64::INFINITY] {
        let o = HistogramOptions {
            unit_ratio: ratio,
            ..opts
        };
        let e = w.histogram(&Family::new("r"), &o).map(|_| ()).unwrap_err();
        assert_eq!(e, OpenMetricsError::InvalidUnitRatio);
    }
    for q in [&[0.5, 0.5][..], &[0.9, 0.5], &[1.5], &[-0.1]] {
        let e = w
            .summary(&Family::new("s"), q, &opts)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(e, OpenMetricsError::InvalidQuantiles, "{q:?}");
    }
    {
        let mut f = w.histogram(&Family::new("ok"), &opts).unwrap();
        for labels in [
            &[("le", "1")][..],
            &[("__name", "x")],
            &[("1a", "x")],
            &[("a-b", "x")],
        ] {
            let e = f.point(labels, &h.view()).map(|_| ()).unwrap_err();
            assert_eq!(e, OpenMetricsError::InvalidLabelName, "{labels:?}");
        }
        let e = f.point(&[("a", "1"), ("a", "2")], &h.view()).map(|_| ());
        assert_eq!(e.unwrap_err(), OpenMetricsError::DuplicateLabel);
        let other: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
        f.point(&[("a", "1")], &h.view()).unwrap();
        let e = f.point(&[("a", "2")], &other.view()).map(|_| ());
        assert_eq!(e.unwrap_err(), OpenMetricsError::ShapeMismatch);
    }
    let e = w
        .histogram(&Family::new("ok"), &opts)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(e, OpenMetricsError::DuplicateFamily);
    // A summary may use `le` as a label, but not `quantile`.
    let mut s = w
        .summary(&Family::new("sq"), &STANDARD_QUANTILES, &opts)
        .unwrap();
    s.point(&[("le", "x")], &h.view()).unwrap();
    let e = s.point(&[("quantile", "x")], &h.view()).map(|_| ());
    assert_eq!(e.unwrap_err(), OpenMetricsError::InvalidLabelName);
    // Nothing of the rejected points was written: every line is well formed.
    let text = w.finish().unwrap();
    assert!(!text.contains("__name") && !text.contains("a-b") && !text.contains("\"2\""));
    assert_eq!(text.matches("# TYPE").count(), 2, "{text}");
}

/// The `<name>_bucket` lines of an exposition as (le, cumulative count).
fn buckets(text: &str, name: &str) -> Vec<(String, u64)> {
    let prefix = format!("{name}_bucket{{");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|rest| {
            let le = rest
                .split("le=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let count = rest.rsplit(' ').next().unwrap().parse().unwrap();
            (le.to_string(), count)
        })
        .collect()
}

#[test]
fn cumulative_counts_match_the_recorded_values_at_every_bound() {
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1_000, 10_000_000);
    let mut h: Histogram<u32, Vec<u32>> = config.build().unwrap();
    let values: Vec<u64> = (0..20_000u64)
        .map(|i| (i.wrapping_mul(2_654_435_761) % 12_000_000) / (1 + i % 7))
        .collect();
    for &v in &values {
        h.record(v);
    }
    let view = h.view();
    let mut w = OpenMetricsWriter::new(String::new());
    let coarse = HistogramOptions {
        bounds: Bounds::Coarse(0.02),
        ..Default::default()
    };
    w.histogram(&Family::new("c"), &coarse)
        .unwrap()
        .point(&[], &view)
        .unwrap();
    // Explicit bounds inside buckets: whole buckets at or below count.
    let explicit = [999, 1_000, 12_345, 500_001, 9_999_999, 20_000_000];
    let o = HistogramOptions {
        bounds: Bounds::Explicit(&explicit),
        ..Default::default()
    };
    w.histogram(&Family::new("e"), &o)
        .unwrap()
        .point(&[], &view)
        .unwrap();
    let text = w.finish().unwrap();

    let coarse = buckets(&text, "c");
    assert!(coarse.len() > 50, "{}", coarse.len());
    let mut previous: Option<u64> = None;
    let finite = coarse.len() - 1;
    for (k, (le, count)) in coarse[..finite].iter().enumerate() {
        let bound: u64 = le.strip_suffix(".0").unwrap().parse().unwrap();
        // A bucket boundary: exact, the count of recorded values at or below it.
        assert_eq!(view.layout().bucket_of(bound).highest, bound);
        let want = values.iter().filter(|&&v| v <= bound).count() as u64;
        assert_eq!(*count, want, "le={le}");
        if let Some(a) = previous {
            let next_bucket = view.layout().bucket_of(a + 1).highest == bound;
            let (af, bf) = (a as f64, bound as f64);
            assert!(next_bucket || bf - af <= 0.02 * (af + bf), "{a} → {bound}");
            // Not finer than needed: the bucket after the bound would not have fit (the
            // last bound is the range's last bucket).
            let after = view.layout().bucket_of(bound + 1).highest as f64;
            let last = k + 1 == finite;
            assert!(
                last || next_bucket || after - af > 0.02 * (af + after),
                "{a} → {bound}"
            );
        }
        previous = Some(bound);
    }
    let inf = coarse.last().unwrap();
    assert_eq!(inf, &("+Inf".to_string(), values.len() as u64));

    let explicit_lines = buckets(&text, "e");
    assert_eq!(explicit_lines.len(), explicit.len() + 1);
    for ((le, count), &bound) in explicit_lines.iter().zip(&explicit) {
        assert_eq!(le, &format!("{bound}.0"));
        let shape = view.shape();
        let at_or_below = |v: u64| match shape.offset(v) < shape.len() {
            true => view.layout().bucket_of(v).highest <= bound,
            false => v < 1_000, // underflow: below every bound
        };
        let want = values.iter().filter(|&&v| at_or_below(v)).count() as u64;
        assert_eq!(*count, want, "le={le}");
    }
}

#[test]
fn coarse_bounds_are_the_same_at_every_scrape() {
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1, 1 << 40);
    let a: Histogram<u64, Vec<u64>> = config.build().unwrap();
    let mut b: Histogram<u64, Vec<u64>> = config.build().unwrap();
    b.record(12_345);
    b.record(1 << 39);
    let expose = |h: &Histogram<u64, Vec<u64>>| {
        let mut w = OpenMetricsWriter::new(String::new());
        let o = HistogramOptions {
            bounds: Bounds::Coarse(0.05),
            unit_ratio: 1e9,
            created_unix_nanos: None,
        };
        w.histogram(&Family::new("x"), &o)
            .unwrap()
            .point(&[], &h.view())
            .unwrap();
        let text = w.finish().unwrap();
        buckets(&text, "x")
            .into_iter()
            .map(|(le, _)| le)
            .collect::<Vec<_>>()
    };
    let (ea, eb) = (expose(&a), expose(&b));
    assert_eq!(ea, eb);
    // About ln(2^40) / ln(1.105) bounds for 5 %, plus the exact small values.
    assert!(ea.len() > 200 && ea.len() < 400, "{}", ea.len());
}

#[test]
fn summary_quantiles_are_the_histogram_percentiles() {
    let (h, _) = small();
    let mut w = OpenMetricsWriter::new(String::new());
    let o = HistogramOptions {
        unit_ratio: 4.0,
        ..Default::default()
    };
    w.summary(&Family::new("s"), &STANDARD_QUANTILES, &o)
        .unwrap()
        .point(&[("k", "v")], &h.view())
        .unwrap();
    let text = w.finish().unwrap();
    for q in STANDARD_QUANTILES {
        let want = h.view().percentile_value(q * 100.0).unwrap() as f64 / 4.0;
        let line = format!("s{{k=\"v\",quantile=\"{q:?}\"}} {want:?}\n");
        assert!(text.contains(&line), "{line} in {text}");
    }
}

#[test]
fn cumulative_buckets_are_the_texts_samples_as_numbers() {
    let (h, _) = small();
    for bounds in [Bounds::Explicit(&[3, 10, 47]), Bounds::Coarse(0.2)] {
        let options = HistogramOptions {
            bounds,
            unit_ratio: 1000.0,
            created_unix_nanos: None,
        };
        let mut w = OpenMetricsWriter::new(String::new());
        w.histogram(&Family::new("m"), &options)
            .unwrap()
            .point(&[], &h.view())
            .unwrap();
        let text = w.finish().unwrap();
        let b = cumulative_buckets(&h.view(), &options).unwrap();
        let from_text: Vec<(f64, u64)> = buckets(&text, "m")
            .into_iter()
            .map(|(le, c)| {
                (
                    if le == "+Inf" {
                        f64::INFINITY
                    } else {
                        le.parse().unwrap()
                    },
                    c,
                )
            })
            .collect();
        assert_eq!(b.buckets, from_text, "{bounds:?}");
        let sum_line = text.lines().find_map(|l| l.strip_prefix("m_sum ")).unwrap();
        assert_eq!(b.sum, sum_line.parse::<f64>().unwrap());
    }
    let bad = HistogramOptions {
        bounds: Bounds::Explicit(&[5, 5]),
        ..Default::default()
    };
    assert_eq!(
        cumulative_buckets(&h.view(), &bad),
        Err(OpenMetricsError::InvalidBounds)
    );
}

#[test]
fn options_check_names_the_option_that_breaks_its_rule() {
    let explicit = |bounds| HistogramOptions {
        bounds: Bounds::Explicit(bounds),
        ..Default::default()
    };
    assert_eq!(explicit(&[1, 5, 9]).check(), Ok(()));
    assert_eq!(HistogramOptions::default().check(), Ok(()));
    let e = explicit(&[1, 5, 5]).check().unwrap_err();
    assert_eq!(
        e,
        OptionError::BoundsNotIncreasing {
            index: 2,
            bound: 5,
            previous: 5
        }
    );
    assert_eq!(
        e.to_string(),
        "bounds[2] = 5 is not above bounds[1] = 5: bounds must be strictly increasing"
    );
    for coarse in [0.0, 1.0, f64::INFINITY] {
        let o = HistogramOptions {
            bounds: Bounds::Coarse(coarse),
            ..Default::default()
        };
        assert_eq!(o.check(), Err(OptionError::CoarseRelativeError(coarse)));
        assert!(o
            .check()
            .unwrap_err()
            .to_string()
            .starts_with("coarse_relative_error is "));
    }
    let o = HistogramOptions {
        unit_ratio: -2.0,
        ..explicit(&[3, 2])
    };
    // The unit ratio is checked first; the writer's error keeps its kind.
    assert_eq!(o.check(), Err(OptionError::UnitRatio(-2.0)));
    assert_eq!(
        o.check().unwrap_err().to_string(),
        "unit_ratio is -2.0: it must be a finite number above 0"
    );
    let mut w = OpenMetricsWriter::new(String::new());
    assert_eq!(
        w.histogram(&Family::new("m"), &o).err(),
        Some(OpenMetricsError::InvalidUnitRatio)
    );
}
