//! The export table: every format found by its name, each writing through the table what its
//! own function writes, and the CSV of buckets checked against the library's bucket iteration.

mod common;

use common::SplitMix64;
use picollo::export::{export, export_float, format_named, ExportErrorKind, FORMATS};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::{Config, HgrmOptions, Histogram};

/// A histogram of 20,000 log-uniform values in `[10, 10^7)` at 1 % error over `[100, 10^6]`,
/// so that some values fall below and above the range.
fn histogram() -> Histogram<u64, Vec<u64>> {
    let mut h: Histogram<u64, Vec<u64>> = Config::new()
        .with_relative_error(0.01)
        .with_range(100, 1_000_000)
        .build()
        .unwrap();
    let mut rng = SplitMix64(63);
    for _ in 0..20_000 {
        h.record(10f64.powf(1.0 + 6.0 * rng.next_f64()) as u64);
    }
    h
}

/// A float histogram of 5,000 signed values, zeros and one NaN.
fn float_histogram() -> FloatHistogram<u64> {
    let h: FloatHistogram<u64> = FloatHistogram::new(FloatConfig::new()).unwrap();
    let mut rng = SplitMix64(64);
    for i in 0..5_000 {
        let x = (rng.next_f64() - 0.3) * 10f64.powf(rng.next_f64() * 8.0 - 4.0);
        h.record(if i % 100 == 0 { 0.0 } else { x });
    }
    h.record(f64::NAN);
    h
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("a text format writes UTF-8")
}

/// The rows of a CSV of buckets after its header, each field parsed as `T`.
fn csv_rows<T: std::str::FromStr>(csv: &str) -> Vec<(T, T, u64)>
where
    T::Err: std::fmt::Debug,
{
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("lower,upper,count"));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 3, "{line}");
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_format_is_found_by_its_one_name() {
    for (k, f) in FORMATS.iter().enumerate() {
        assert_eq!(format_named(f.name()).unwrap().name(), f.name());
        assert!(
            FORMATS[..k].iter().all(|g| g.name() != f.name()),
            "{}",
            f.name()
        );
        assert!(!f.about().description.is_empty());
    }
    let e = format_named("no-such-format").err().unwrap();
    assert_eq!(e.kind, ExportErrorKind::UnknownFormat);
    assert!(e.message.contains("csv"), "{e}");
}

#[test]
fn csv_rows_are_the_non_empty_buckets_of_the_iteration() {
    let h = histogram();
    let view = h.view();
    let rows: Vec<(u64, u64, u64)> = csv_rows(&text(export("csv", &view, &[]).unwrap()));
    let buckets: Vec<(u64, u64, u64)> = view
        .buckets()
        .filter(|b| b.count != 0)
        .map(|b| (b.lower, b.highest, b.count))
        .collect();
    assert_eq!(rows, buckets);
    let in_buckets: u64 = rows.iter().map(|r| r.2).sum();
    assert!(view.underflow_count() > 0 && view.overflow_count() > 0);
    assert_eq!(in_buckets, view.total_count());
    assert_eq!(
        in_buckets + view.underflow_count() + view.overflow_count(),
        20_000
    );
}

#[test]
fn float_csv_rows_are_the_buckets_of_the_counts() {
    let counts = float_histogram().counts().unwrap();
    let rows: Vec<(f64, f64, u64)> = csv_rows(&text(export_float("csv", &counts, &[]).unwrap()));
    let buckets: Vec<(f64, f64, u64)> = counts
        .buckets()
        .map(|b| (b.lowest, b.highest, b.count))
        .collect();
    assert_eq!(rows.len(), buckets.len());
    for (r, b) in rows.iter().zip(&buckets) {
        // Exact: each bound prints as the shortest decimal that reads back as itself.
        assert_eq!(
            (r.0.to_bits(), r.1.to_bits(), r.2),
            (b.0.to_bits(), b.1.to_bits(), b.2)
        );
    }
    assert!(rows.iter().any(|r| r.1 < 0.0) && rows.iter().any(|r| r.0 > 0.0));
}

#[test]
fn summary_formats_write_what_their_functions_write() {
    let h = histogram();
    let (view, summary) = (h.view(), h.view().summary());
    let of = |name, options: &[(&str, &str)]| text(export(name, &view, options).unwrap());
    let mut table = String::new();
    summary.write_table(&mut table, "latency").unwrap();
    assert_eq!(of("table", &[("title", "latency")]), table);
    let mut scaled = String::new();
    summary.write_table_scaled(&mut scaled, "", 1000.0).unwrap();
    assert_eq!(of("table", &[("unit_ratio", "1000")]), scaled);
    let mut line = String::new();
    summary.write_line(&mut line, "get").unwrap();
    assert_eq!(of("line", &[("name", "get")]), line);
    let mut json = String::new();
    summary.write_json(&mut json).unwrap();
    assert_eq!(of("json", &[]), json);

    let counts = float_histogram().counts().unwrap();
    let mut float_table = String::new();
    counts.summary().write_table(&mut float_table, "x").unwrap();
    let written = export_float("table", &counts, &[("title", "x")]).unwrap();
    assert_eq!(text(written), float_table);
}

#[test]
fn hdr_formats_write_what_their_functions_write() {
    let h = histogram();
    let view = h.view();
    let options = HgrmOptions {
        ticks_per_half_distance: 3,
        unit_ratio: 1000.0,
        csv: true,
    };
    let hgrm = [
        ("ticks_per_half_distance", "3"),
        ("unit_ratio", "1e3"),
        ("csv", "true"),
    ];
    assert_eq!(
        text(export("hgrm", &view, &hgrm).unwrap()),
        view.to_hgrm(&options)
    );
    let compressed = view.encode_v2_compressed().unwrap();
    assert_eq!(export("hdr-v2", &view, &[]).unwrap(), compressed);
    let plain = export("hdr-v2", &view, &[("form", "plain")]).unwrap();
    assert_eq!(plain, view.encode_v2().unwrap());
    let base64 = text(export("hdr-v2-base64", &view, &[]).unwrap());
    assert_eq!(base64, view.encode_v2_base64().unwrap());
    assert!(format_named("hdr-v2").unwrap().about().binary);
    assert!(!format_named("hdr-v2-base64").unwrap().about().binary);
}

#[test]
fn bad_options_are_refused_with_their_names() {
    let h = histogram();
    let view = h.view();
    for (name, options, why) in [
        ("csv", &[("title", "x")][..], "takes no option \"title\""),
        ("table", &[("title", "a"), ("title", "b")], "given twice"),
        (
            "hgrm",
            &[("ticks_per_half_distance", "0")],
            "ticks_per_half_distance is 0",
        ),
        ("hgrm", &[("unit_ratio", "-1")], "unit_ratio -1.0"),
        ("hgrm", &[("csv", "yes")], "\"yes\" is not a bool"),
        ("hdr-v2", &[("form", "zip")], "\"zip\""),
        ("hdr-v2", &[("level", "11")], "level\" is 11"),
    ] {
        let e = export(name, &view, options).err().unwrap();
        assert_eq!(e.kind, ExportErrorKind::InvalidOption, "{name}: {e}");
        assert!(e.message.contains(why), "{name}: {e} lacks {why}");
    }
    let counts = float_histogram().counts().unwrap();
    let e = export_float("hgrm", &counts, &[]).err().unwrap();
    assert_eq!(e.kind, ExportErrorKind::Unsupported);
}

#[test]
fn an_unencodable_histogram_is_refused_by_kind() {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    h.record(u64::MAX - 1); // above i64::MAX, HdrHistogram's largest value
    let e = export("hdr-v2", &h.view(), &[]).err().unwrap();
    assert_eq!(e.kind, ExportErrorKind::Unencodable, "{e}");
}

#[test]
fn openmetrics_by_name_writes_what_the_writer_writes() {
    use picollo::openmetrics::STANDARD_QUANTILES;
    use picollo::openmetrics::{Bounds, Family, HistogramOptions, OpenMetricsWriter};
    let h = histogram();
    let family = Family::new("rpc_latency_seconds")
        .with_help("time of one call")
        .with_unit("seconds");
    let bounds = [1_000, 10_000, 100_000];
    let options = HistogramOptions {
        bounds: Bounds::Explicit(&bounds),
        unit_ratio: 1e9,
        created_unix_nanos: Some(1_700_000_000_000_000_000),
    };
    let labels = [("method", "get"), ("code", "200")];
    for summary in [false, true] {
        let mut w = OpenMetricsWriter::new(String::new());
        let mut f = match summary {
            false => w.histogram(&family, &options).unwrap(),
            true => w.summary(&family, &STANDARD_QUANTILES, &options).unwrap(),
        };
        f.point(&labels, &h.view()).unwrap();
        let expected = w.finish().unwrap();
        let summary = summary.to_string();
        let pairs = [
            ("name", "rpc_latency_seconds"),
            ("help", "time of one call"),
            ("unit", "seconds"),
            ("bounds", "1000, 10000,100000"),
            ("unit_ratio", "1e9"),
            ("created_unix_nanos", "1700000000000000000"),
            ("summary", summary.as_str()),
            ("label.method", "get"),
            ("label.code", "200"),
        ];
        assert_eq!(
            text(export("openmetrics", &h.view(), &pairs).unwrap()),
            expected
        );
    }
}

#[test]
fn otlp_by_name_encodes_the_request_of_its_options() {
    use picollo::otlp::{DataPoint, ExponentialHistogram, Metric, Request, Temporality};
    let h = histogram();
    let histogram = ExponentialHistogram::with_scale(&h.view(), 5, 1e6).unwrap();
    let attributes = [("host", "a")];
    let points = [DataPoint {
        attributes: &attributes,
        start_time_unix_nano: 10,
        time_unix_nano: 20,
        histogram: &histogram,
    }];
    let metrics = [Metric {
        name: "rpc.latency",
        description: "time of one call",
        unit: "ms",
        temporality: Temporality::Delta,
        points: &points,
    }];
    let resource = [("service.name", "api")];
    let request = Request {
        resource: &resource,
        scope_name: "picollo",
        scope_version: "1",
        metrics: &metrics,
    };
    let pairs = [
        ("name", "rpc.latency"),
        ("description", "time of one call"),
        ("unit", "ms"),
        ("temporality", "delta"),
        ("start_time_unix_nano", "10"),
        ("time_unix_nano", "20"),
        ("scale", "5"),
        ("unit_ratio", "1e6"),
        ("scope_name", "picollo"),
        ("scope_version", "1"),
        ("attribute.host", "a"),
        ("resource.service.name", "api"),
    ];
    let json = export("otlp-json", &h.view(), &pairs).unwrap();
    assert_eq!(text(json), request.to_json());
    let protobuf = export("otlp-protobuf", &h.view(), &pairs).unwrap();
    assert_eq!(protobuf, request.to_protobuf());
    assert!(format_named("otlp-protobuf").unwrap().about().binary);
}

#[test]
fn prometheus_native_by_name_writes_the_family_of_its_options() {
    use picollo::prometheus::{NativeFamily, NativeHistogram, NativeMetric, NativeOptions};
    let (h, f) = (histogram(), float_histogram());
    let options = NativeOptions {
        schema: Some(3),
        unit_ratio: 1e3,
        ..Default::default()
    };
    let pairs = [
        ("name", "rpc_latency"),
        ("help", "time of one call"),
        ("schema", "3"),
        ("unit_ratio", "1000"),
        ("label.method", "get"),
    ];
    let natives = [
        NativeHistogram::from_view(&h.view(), &options).unwrap(),
        NativeHistogram::from_float(&f.counts().unwrap(), &options).unwrap(),
    ];
    let written = [
        export("prometheus-native", &h.view(), &pairs).unwrap(),
        export_float("prometheus-native", &f.counts().unwrap(), &pairs).unwrap(),
    ];
    for (native, bytes) in natives.iter().zip(written) {
        let metrics = [NativeMetric {
            labels: &[("method", "get")],
            histogram: native,
        }];
        let mut expected = Vec::new();
        NativeFamily {
            name: "rpc_latency",
            help: "time of one call",
            metrics: &metrics,
        }
        .write_delimited(&mut expected)
        .unwrap();
        assert_eq!(bytes, expected);
    }
}

#[test]
fn metrics_options_are_refused_by_the_formats_rules() {
    let h = histogram();
    let refused = |format: &str, pairs: &[(&str, &str)], needle: &str| {
        let e = export(format, &h.view(), pairs).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::InvalidOption, "{format}: {e}");
        assert!(e.message.contains(needle), "{format}: {e}");
    };
    for format in [
        "openmetrics",
        "otlp-json",
        "otlp-protobuf",
        "prometheus-native",
    ] {
        refused(format, &[], "needs option \"name\"");
    }
    refused("openmetrics", &[("name", "x_total")], "x_total");
    refused("openmetrics", &[("name", "a"), ("bounds", "5,3")], "bounds");
    refused("openmetrics", &[("name", "a"), ("label.le", "1")], "label");
    refused(
        "otlp-json",
        &[("name", "a"), ("temporality", "x")],
        "temporality",
    );
    refused("otlp-json", &[("name", "a"), ("scale", "99")], "scale");
    refused(
        "otlp-protobuf",
        &[("name", "a"), ("unit_ratio", "0")],
        "unit_ratio",
    );
    refused(
        "prometheus-native",
        &[("name", "a"), ("schema", "9")],
        "schema",
    );
    refused(
        "prometheus-native",
        &[("name", "a"), ("label.le", "1")],
        "le",
    );
    let f = float_histogram();
    let e = export_float("openmetrics", &f.counts().unwrap(), &[("name", "a")]).unwrap_err();
    assert_eq!(e.kind, ExportErrorKind::Unsupported);
}
