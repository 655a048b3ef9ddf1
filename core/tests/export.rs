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
