//! Reports: the Markdown table, the diff table, the one-line summary and JSON, checked for
//! structure (rows, alignment, equal widths), content (every figure against the summary)
//! and behaviour on small fixed buffers (a clean `fmt::Error`, never a panic).

mod common;

use core::fmt::{self, Write};

use common::{cells, Dist};
use picollo::{Config, Histogram, Summary, STANDARD_RANKS};
use serde_json::{json, Value};

const RANK_LABELS: [&str; 16] = [
    "0", "1", "5", "10", "25", "50", "75", "90", "92.5", "95", "97.5", "99", "99.9", "99.99",
    "99.999", "100",
];

fn summary_of(config: Config, data: &[u64]) -> Summary {
    let mut h: Histogram<u64, Vec<u64>> = config.build().unwrap();
    for &v in data {
        h.record(v);
    }
    h.view().summary()
}

fn table(s: &Summary, title: &str) -> String {
    let mut out = String::new();
    s.write_table(&mut out, title).unwrap();
    out
}

fn diff(a: &Summary, b: &Summary, names: (&str, &str)) -> String {
    let mut out = String::new();
    a.write_diff(b, &mut out, "Diff", names.0, names.1).unwrap();
    out
}

/// A number printed with thousands separators, back to an integer; also checks the
/// grouping is right (groups of three after the first).
fn ungroup(s: &str) -> u64 {
    let groups: Vec<&str> = s.split(',').collect();
    assert!(!groups[0].is_empty() && groups[0].len() <= 3, "{s:?}");
    assert!(groups[1..].iter().all(|g| g.len() == 3), "{s:?}");
    groups.concat().parse().unwrap_or_else(|_| panic!("{s:?}"))
}

fn ungroup_f64(s: &str) -> f64 {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let (neg, int) = int.strip_prefix('-').map_or((false, int), |i| (true, i));
    let v: f64 = format!("{}.{frac}0", ungroup(int)).parse().unwrap();
    if neg {
        -v
    } else {
        v
    }
}

/// The structural rules every table follows: `| a | b | c | d |` rows of equal width,
/// the alignment row matching the column widths and the columns' alignment, cells padded
/// on the side the alignment says.
fn check_table_shape(text: &str, title: &str, right_aligned: [bool; 4]) -> Vec<Vec<String>> {
    let mut lines = text.lines();
    if !title.is_empty() {
        assert_eq!(lines.next(), Some(format!("##### {title}").as_str()));
    }
    let lines: Vec<&str> = lines.collect();
    let width = lines[0].chars().count();
    for line in &lines {
        assert_eq!(line.matches('|').count(), 5, "{line:?}");
        assert_eq!(line.chars().count(), width, "ragged table:\n{text}");
    }
    let split: Vec<Vec<&str>> = lines.iter().map(|l| cells(l)).collect();
    // Every cell is " content " padded to the column width.
    for row in &split {
        for (k, cell) in row.iter().enumerate() {
            assert_eq!(cell.chars().count(), split[0][k].chars().count());
            assert!(cell.starts_with(' ') && cell.ends_with(' '), "{cell:?}");
        }
    }
    // The alignment row.
    for (k, cell) in split[1].iter().enumerate() {
        let inner = cell.trim();
        assert_eq!(inner.chars().count() + 2, cell.chars().count());
        if right_aligned[k] {
            assert!(inner.ends_with(':') && !inner.starts_with(':'), "{inner}");
        } else {
            assert!(inner.starts_with(':') && !inner.ends_with(':'), "{inner}");
        }
        assert!(inner.trim_matches(':').chars().all(|c| c == '-'));
    }
    // Data cells hug their alignment side.
    for row in &split[2..] {
        for (k, cell) in row.iter().enumerate() {
            if cell.trim().is_empty() {
                continue;
            }
            let inner = &cell[1..cell.len() - 1];
            if right_aligned[k] {
                assert!(
                    !inner.ends_with(' '),
                    "column {k} not right-aligned: {cell:?}"
                );
            } else {
                assert!(
                    !inner.starts_with(' '),
                    "column {k} not left-aligned: {cell:?}"
                );
            }
        }
    }
    split
        .iter()
        .map(|r| r.iter().map(|c| c.trim().to_string()).collect())
        .collect()
}

fn check_summary_table(s: &Summary, text: &str, title: &str) {
    let rows = check_table_shape(text, title, [false, true, false, true]);
    assert_eq!(rows[0], ["Percentile", "Value", "±", "Count"]);
    for (k, p) in s.percentiles.iter().enumerate() {
        let row = &rows[2 + k];
        assert_eq!(row[0], RANK_LABELS[k]);
        if s.total == 0 {
            assert_eq!((row[1].as_str(), row[2].as_str()), ("-", "-"));
        } else {
            assert_eq!(ungroup(&row[1]), p.value, "{row:?}");
            assert_eq!(ungroup(row[2].strip_prefix('±').unwrap()), p.plus_minus);
        }
        assert_eq!(ungroup(&row[3]), p.rank_count);
    }
    let mut next = 18;
    for (label, n) in [
        ("Underflow", s.underflow),
        ("Overflow", s.overflow),
        ("Saturated", s.saturated),
    ] {
        if n != 0 {
            assert_eq!(rows[next][0], label);
            assert_eq!((rows[next][1].as_str(), rows[next][2].as_str()), ("", ""));
            assert_eq!(ungroup(&rows[next][3]), n);
            next += 1;
        } else {
            assert!(
                rows.iter().all(|r| r[0] != label),
                "no {label} row when zero"
            );
        }
    }
    assert!(rows[next].iter().all(|c| c.is_empty()), "blank row");
    let (mean, stdev) = (&rows[next + 1], &rows[next + 2]);
    assert_eq!((mean[0].as_str(), mean[2].as_str()), ("Mean:", "StDev:"));
    if s.total == 0 {
        assert_eq!((mean[1].as_str(), mean[3].as_str()), ("n/a", "n/a"));
    } else {
        assert_eq!(mean[1], format!("{}", picollo::GroupedF64(s.mean, 2)));
        assert!((ungroup_f64(&mean[1]) - s.mean).abs() <= 0.005 + s.mean * 1e-15);
        assert!((ungroup_f64(&mean[3]) - s.stdev).abs() <= 0.005 + s.stdev * 1e-15);
        assert_eq!(mean[1].split_once('.').unwrap().1.len(), 2);
    }
    assert_eq!(
        (stdev[0].as_str(), stdev[2].as_str()),
        ("Precision:", "Total:")
    );
    assert_eq!(ungroup(&stdev[3]), s.total);
    if s.min_trackable == 0 && s.max_trackable == u64::MAX {
        assert_eq!(rows.len(), next + 3, "no Range row for the full u64 range");
        return;
    }
    let range = &rows[next + 3];
    assert_eq!(
        (range[0].as_str(), range[2].as_str()),
        ("Range Min:", "Max:")
    );
    assert_eq!(ungroup(&range[1]), s.min_trackable);
    assert_eq!(ungroup(&range[3]), s.max_trackable);
    assert_eq!(rows.len(), next + 4, "nothing after Range");
}

fn populated() -> Summary {
    summary_of(
        Config::new()
            .with_relative_error(0.001)
            .with_range(100, 1 << 32),
        &Dist::CubeSkew.data(50_000, 3),
    )
}

#[test]
fn the_table_has_the_documented_rows_and_aligned_columns() {
    let s = populated();
    assert!(s.underflow > 0 && s.overflow > 0);
    check_summary_table(&s, &table(&s, "Histogram Before"), "Histogram Before");
    assert_eq!(s.to_string(), table(&s, "Histogram summary"));
    // No title line when the title is empty.
    let text = table(&s, "");
    assert!(text.starts_with("| Percentile"));
    check_summary_table(&s, &text, "");
}

#[test]
fn a_scaled_table_divides_every_value_and_keeps_what_was_recorded() {
    let s = populated();
    let scaled = |ratio: f64| {
        let mut out = String::new();
        s.write_table_scaled(&mut out, "T", ratio).map(|()| out)
    };
    // Ratio 1 is the plain table, byte for byte.
    assert_eq!(scaled(1.0).unwrap(), table(&s, "T"));
    let text = scaled(1000.0).unwrap();
    let rows = check_table_shape(&text, "T", [false, true, false, true]);
    for (k, p) in s.percentiles.iter().enumerate() {
        let row = &rows[2 + k];
        // Three decimals for a ratio of 1000: the integer comes back exactly.
        let (int, frac) = row[1].split_once('.').unwrap();
        assert_eq!(frac.len(), 3, "{row:?}");
        assert_eq!(ungroup(int) * 1000 + frac.parse::<u64>().unwrap(), p.value);
        let pm = row[2].strip_prefix('±').unwrap();
        assert_eq!(ungroup_f64(pm), p.plus_minus as f64 / 1000.0, "{pm}");
        // Counts are not scaled.
        assert_eq!(ungroup(&row[3]), p.rank_count);
    }
    let mean = rows.iter().find(|r| r[0] == "Mean:").unwrap();
    assert_eq!(mean[1].split_once('.').unwrap().1.len(), 5);
    assert!((ungroup_f64(&mean[1]) - s.mean / 1000.0).abs() <= 0.000_005 + s.mean * 1e-15);
    assert!((ungroup_f64(&mean[3]) - s.stdev / 1000.0).abs() <= 0.000_005 + s.stdev * 1e-15);
    let range = rows.iter().find(|r| r[0] == "Range Min:").unwrap();
    assert_eq!(ungroup_f64(&range[1]), s.min_trackable as f64 / 1000.0);
    let total = rows.iter().find(|r| r[2] == "Total:").unwrap();
    assert_eq!(ungroup(&total[3]), s.total);
    // A ratio below 1 multiplies and needs no decimals; 1024 needs 4.
    let doubled = scaled(0.5).unwrap();
    let rows = check_table_shape(&doubled, "T", [false, true, false, true]);
    assert_eq!(ungroup(&rows[2 + 5][1]), s.p50().value * 2);
    let kib = scaled(1024.0).unwrap();
    let rows = check_table_shape(&kib, "T", [false, true, false, true]);
    assert_eq!(rows[2 + 5][1].split_once('.').unwrap().1.len(), 4);
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(scaled(bad), Err(fmt::Error), "{bad}");
    }
}

#[test]
fn outside_rows_appear_only_when_non_zero() {
    let cfg = Config::new()
        .with_relative_error(0.01)
        .with_range(1_000, 2_000);
    // (values recorded, extra record_n count, expected (underflow, overflow, saturated))
    type Case = (&'static [u64], u64, (u64, u64, u64));
    let cases: [Case; 5] = [
        (&[1_500], 0, (0, 0, 0)),
        (&[1_500, 5], 0, (1, 0, 0)),
        (&[1_500, 50_000], 0, (0, 1, 0)),
        (&[1_500], u64::MAX, (0, 0, u64::MAX - u32::MAX as u64 + 1)),
        (
            &[1_500, 5, 5, 50_000],
            u64::MAX,
            (2, 1, u64::MAX - u32::MAX as u64 + 1),
        ),
    ];
    for (values, n, (under, over, saturated)) in cases {
        let mut h: Histogram<u32, Vec<u32>> = cfg.build().unwrap();
        for &v in values {
            h.record(v);
        }
        h.record_n(1_500, n);
        let s = h.view().summary();
        assert_eq!(
            (s.underflow, s.overflow, s.saturated),
            (under, over, saturated)
        );
        let text = table(&s, "t");
        check_summary_table(&s, &text, "t");
        let expected_rows =
            2 + 16 + [under, over, saturated].iter().filter(|&&x| x != 0).count() + 4;
        assert_eq!(text.lines().count(), 1 + expected_rows, "\n{text}");
    }
}

#[test]
fn an_empty_summary_prints_dashes_and_n_a() {
    let s = Config::new()
        .with_range(5, 100)
        .build::<u32>()
        .unwrap()
        .view()
        .summary();
    let text = table(&s, "Empty");
    check_summary_table(&s, &text, "Empty");
    assert!(text.contains("| Precision: | 0.0977% |"), "\n{text}");
}

#[test]
fn huge_values_widen_the_columns_and_keep_them_aligned() {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    h.record(0);
    h.record_n(u64::MAX, u64::MAX - 1);
    let s = h.view().summary();
    let text = table(&s, "big");
    check_summary_table(&s, &text, "big");
    assert!(text.contains("18,446,744,073,709,551,615"), "\n{text}");
}

#[test]
fn the_diff_table_has_the_documented_rows() {
    let a = populated();
    let b = summary_of(
        Config::new()
            .with_relative_error(0.001)
            .with_range(100, 1 << 32),
        &Dist::Exponential.data(30_000, 4),
    );
    for names in [
        ("Before", "After"),
        ("A", "B"),
        ("A rather long name", "Another one"),
    ] {
        let text = diff(&a, &b, names);
        let rows = check_table_shape(&text, "Diff", [false, true, true, true]);
        assert_eq!(rows[0], ["Percentile", names.0, names.1, "Δ%"]);
        for (k, (pa, pb)) in a.percentiles.iter().zip(&b.percentiles).enumerate() {
            let row = &rows[2 + k];
            assert_eq!(row[0], RANK_LABELS[k]);
            assert_eq!(ungroup(&row[1]), pa.value);
            assert_eq!(ungroup(&row[2]), pb.value);
            let delta = (pb.value as f64 - pa.value as f64) / pa.value as f64 * 100.0;
            check_signed_percent(&row[3], delta);
        }
        assert!(rows[18].iter().all(|c| c.is_empty()));
        let labels: Vec<&str> = rows[19..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            labels,
            ["Mean:", "StDev:", "Precision:", "Total:", "D-value:"]
        );
        assert!((ungroup_f64(&rows[19][1]) - a.mean).abs() <= 0.005);
        assert!((ungroup_f64(&rows[19][2]) - b.mean).abs() <= 0.005);
        check_signed_percent(&rows[19][3], (b.mean - a.mean) / a.mean * 100.0);
        check_signed_percent(&rows[20][3], (b.stdev - a.stdev) / a.stdev * 100.0);
        assert_eq!(rows[21][3], "0.0%");
        assert_eq!(ungroup(&rows[22][1]), a.total);
        assert_eq!(ungroup(&rows[22][2]), b.total);
        check_signed_percent(
            &rows[22][3],
            (b.total as f64 - a.total as f64) / a.total as f64 * 100.0,
        );
        let d = a.cohens_d(&b).unwrap();
        assert_eq!(rows[23][3], format!("{d:.2}"));
        assert_eq!((rows[23][1].as_str(), rows[23][2].as_str()), ("", ""));
        assert_eq!(rows.len(), 24);
    }
}

/// `+1.1%`, `-5.1%`, `0.0%`: one decimal, an explicit sign, separators.
fn check_signed_percent(cell: &str, expected: f64) {
    let rounded = (expected * 10.0).round() / 10.0;
    if rounded == 0.0 {
        assert_eq!(cell, "0.0%");
        return;
    }
    let body = cell.strip_suffix('%').unwrap();
    let (sign, number) = body.split_at(1);
    assert_eq!(sign, if expected > 0.0 { "+" } else { "-" }, "{cell}");
    assert!(
        (ungroup_f64(number) - expected.abs()).abs() <= 0.05 + 1e-9,
        "{cell} vs {expected}"
    );
}

#[test]
fn a_diff_against_an_empty_summary_says_n_a() {
    let a = populated();
    let empty = Config::new().build::<u32>().unwrap().view().summary();
    for (x, y) in [(&a, &empty), (&empty, &a), (&empty, &empty)] {
        let text = diff(x, y, ("A", "B"));
        let rows = check_table_shape(&text, "Diff", [false, true, true, true]);
        for row in &rows[2..18] {
            assert_eq!(row[3], "n/a", "{row:?}");
            if x.total == 0 {
                assert_eq!(row[1], "-");
            }
            if y.total == 0 {
                assert_eq!(row[2], "-");
            }
        }
        assert_eq!(rows[23][3], "n/a");
    }
}

#[test]
fn the_one_line_summary_has_the_documented_fields() {
    let s = populated();
    let mut line = String::new();
    s.write_line(&mut line, "Latency").unwrap();
    assert!(!line.contains('\n'));
    let rest = line.strip_prefix("Latency: ").unwrap();
    let fields: Vec<(&str, &str)> = rest
        .split(", ")
        .map(|f| f.split_once('=').unwrap())
        .collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.0).collect();
    assert_eq!(
        keys,
        [
            "Total",
            "Overflow",
            "Underflow",
            "Mean",
            "P0",
            "P25",
            "P50",
            "P90",
            "P95",
            "P99",
            "P999",
            "P100"
        ]
    );
    assert_eq!(ungroup(fields[0].1), s.total);
    assert_eq!(ungroup(fields[1].1), s.overflow);
    assert_eq!(ungroup(fields[2].1), s.underflow);
    assert_eq!(fields[3].1.split_once('.').unwrap().1.len(), 1);
    assert!((ungroup_f64(fields[3].1) - s.mean).abs() <= 0.05);
    for (field, rank) in fields[4..]
        .iter()
        .zip([0.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 100.0])
    {
        assert_eq!(ungroup(field.1), s.get(rank).unwrap().value, "{field:?}");
    }

    // Without underflow the line is exactly the announcement's shape.
    let mut h = common::seed_config().build::<u32>().unwrap();
    h.record_n(20_000, 1_234);
    h.record(40_000);
    let mut line = String::new();
    h.view()
        .summary()
        .write_line(&mut line, "GettingStartedMonitoring")
        .unwrap();
    assert_eq!(
        line,
        "GettingStartedMonitoring: Total=1,234, Overflow=1, Mean=20,096.0, P0=20,096, \
         P25=20,096, P50=20,096, P90=20,096, P95=20,096, P99=20,096, P999=20,096, P100=20,096"
    );
    // No name, no prefix; an empty histogram prints dashes.
    let empty = Config::new().build::<u32>().unwrap().view().summary();
    let mut line = String::new();
    empty.write_line(&mut line, "").unwrap();
    assert_eq!(
        line,
        "Total=0, Overflow=0, Mean=n/a, P0=-, P25=-, P50=-, P90=-, P95=-, P99=-, P999=-, P100=-"
    );
}

fn json_text(s: &Summary) -> String {
    let mut text = String::new();
    s.write_json(&mut text).unwrap();
    text
}

fn json(s: &Summary) -> Value {
    let text = json_text(s);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("invalid JSON ({e}): {text}"))
}

/// The raw text of a top-level number field, parsed by Rust's exact float parser
/// (serde_json's default parser may be one ulp off).
fn raw_f64(text: &str, field: &str) -> f64 {
    let start = text.find(&format!("\"{field}\":")).unwrap() + field.len() + 3;
    let end = start + text[start..].find([',', '}']).unwrap();
    text[start..end].parse().unwrap()
}

fn check_json(s: &Summary) {
    let j = json(s);
    let obj = j.as_object().unwrap();
    assert_eq!(j["minTrackableValue"].as_u64(), Some(s.min_trackable));
    assert_eq!(j["maxTrackableValue"].as_u64(), Some(s.max_trackable));
    assert_eq!(j["totalCount"].as_u64(), Some(s.total));
    assert_eq!(j["underflowCount"].as_u64(), Some(s.underflow));
    assert_eq!(j["overflowCount"].as_u64(), Some(s.overflow));
    assert_eq!(j["saturatedCount"].as_u64(), Some(s.saturated));
    assert_eq!(j["precision"].as_f64(), Some(s.precision));
    if s.total == 0 {
        assert!(j["mean"].is_null() && j["stDev"].is_null());
    } else {
        let text = json_text(s);
        assert_eq!(raw_f64(&text, "mean"), s.mean, "round-trips exactly");
        assert_eq!(raw_f64(&text, "stDev"), s.stdev, "round-trips exactly");
        let close = |a: f64, b: f64| (a - b).abs() <= b.abs() * 1e-15;
        assert!(close(j["mean"].as_f64().unwrap(), s.mean));
        assert!(close(j["stDev"].as_f64().unwrap(), s.stdev));
    }
    let ps = j["percentiles"].as_array().unwrap();
    assert_eq!(ps.len(), 16);
    for ((p, jp), &rank) in s.percentiles.iter().zip(ps).zip(STANDARD_RANKS.iter()) {
        // The rank as a double, then exactly these whole numbers: a JSON number equals
        // `json!(n)` for an unsigned `n` when it reads back as that u64.
        let mut rest = jp.clone();
        let jp_rank = rest.as_object_mut().unwrap().remove("rank");
        assert_eq!(jp_rank.and_then(|r| r.as_f64()), Some(rank));
        let whole = json!({
            "value": p.value,
            "plusMinus": p.plus_minus,
            "lower": p.lower,
            "upper": p.upper,
            "count": p.count,
            "cumulativeCount": p.cumulative_count,
            "rankCount": p.rank_count,
        });
        assert_eq!(rest, whole, "percentile {rank}");
    }
    assert_eq!(obj.len(), 10, "{obj:?}");
}

#[test]
fn json_parses_back_to_the_summary() {
    check_json(&populated());
    let (h, _) = common::seed_before();
    check_json(&h.view().summary());
    let mut big: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    big.record_n(u64::MAX, u64::MAX);
    big.record_n(u64::MAX, 5);
    let s = big.view().summary();
    assert_eq!(s.percentiles[15].upper, u64::MAX, "2^64 saturates");
    check_json(&s);
    // Tiny and huge means still parse (and round-trip, checked above).
    let mut tiny: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    tiny.record_n(0, u64::MAX);
    tiny.record(1);
    check_json(&tiny.view().summary());
    // The finest precision, 0.5 / 2^19, prints in its shortest round-trip form.
    let fine = summary_of(
        Config::new()
            .with_relative_error(1e-6)
            .with_range(0, 1 << 20),
        &[1, 2, 3, 1 << 20],
    );
    assert_eq!(fine.precision, 0.5 / 524_288.0);
    check_json(&fine);
    assert!(json_text(&fine).contains("\"precision\":9.5367431640625e-7,"));
}

#[test]
fn json_statistics_are_doubles_even_when_whole_or_huge() {
    // A whole mean and stdev: JSON readers must still get doubles, not integers.
    let whole = summary_of(Config::new(), &[4, 6]);
    assert_eq!((whole.mean, whole.stdev), (5.0, 1.0));
    let text = json_text(&whole);
    assert!(text.contains("\"mean\":5.0,\"stDev\":1.0,"), "{text}");
    let j = json(&whole);
    assert!(j["mean"].is_f64() && j["stDev"].is_f64(), "{text}");
    assert!(
        j["percentiles"][0]["rank"].is_f64(),
        "rank 0 is a double: {text}"
    );
    // A huge mean keeps its exponent instead of twenty digits.
    let mut big: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    big.record_n(u64::MAX, 3);
    let text = json_text(&big.view().summary());
    let mean = raw_f64(&text, "mean");
    assert!(mean > 1.8e19, "{text}");
    assert!(
        text.contains("\"mean\":1.8") && text.contains("e19,"),
        "{text}"
    );
    assert!(json(&big.view().summary())["mean"].is_f64());
}

#[test]
fn json_of_an_empty_histogram_is_valid_with_null_statistics() {
    let mut h = Config::new().with_range(10, 20).build::<u32>().unwrap();
    h.record(5);
    h.record(500);
    let s = h.view().summary();
    check_json(&s);
    let j = json(&s);
    assert_eq!(
        (j["underflowCount"].as_u64(), j["overflowCount"].as_u64()),
        (Some(1), Some(1))
    );
}

type Writer<'a> = &'a dyn Fn(&mut dyn Write) -> fmt::Result;

/// A fixed buffer that fails when full, like a C caller's buffer: `heapless::String`
/// refuses a write that does not fit and keeps what came before.
type Fixed<const N: usize> = heapless::String<N>;

/// Write through a `Fixed<N>` truncated at `limit` bytes.
fn write_limited(limit: usize, f: Writer<'_>) -> (fmt::Result, String) {
    struct Limited<'a> {
        inner: &'a mut Fixed<4096>,
        limit: usize,
    }
    impl Write for Limited<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            if self.inner.len() + s.len() > self.limit {
                return Err(fmt::Error);
            }
            self.inner.write_str(s)
        }
    }
    let mut buf = Fixed::<4096>::new();
    let result = f(&mut Limited {
        inner: &mut buf,
        limit,
    });
    let text = String::from(buf.as_str());
    (result, text)
}

#[test]
fn a_too_small_buffer_fails_cleanly() {
    let a = populated();
    let b = summary_of(Config::new(), &Dist::Small.data(100, 1));
    let writers: [(&str, Writer<'_>); 4] = [
        ("table", &|w| a.write_table(w, "Title")),
        ("diff", &|w| a.write_diff(&b, w, "Title", "A", "B")),
        ("line", &|w| a.write_line(w, "name")),
        ("json", &|w| a.write_json(w)),
    ];
    for (name, write) in writers {
        let mut full = String::new();
        write(&mut full).unwrap();
        assert!(full.len() < 4096, "{name}");
        // Every limit below the needed size fails with fmt::Error, having written a prefix.
        for limit in (0..full.len()).step_by(7).chain([full.len() - 1]) {
            let (result, text) = write_limited(limit, write);
            assert_eq!(result, Err(fmt::Error), "{name} limit {limit}");
            assert!(full.starts_with(&text), "{name}: not a prefix at {limit}");
        }
        let (result, text) = write_limited(full.len(), write);
        assert_eq!(result, Ok(()), "{name}");
        assert_eq!(text, full, "{name}");
    }
    // And a tiny fixed buffer as the sink itself.
    let mut tiny = Fixed::<16>::new();
    assert_eq!(a.write_table(&mut tiny, ""), Err(fmt::Error));
    assert_eq!(a.write_json(&mut tiny), Err(fmt::Error));
}

#[test]
fn summary_into_overwrites_a_reused_summary() {
    let (h, _) = common::seed_before();
    let mut reused = h.view().summary();
    let empty = Config::new().build::<u32>().unwrap();
    empty.view().summary_into(&mut reused);
    assert_eq!(reused.total, 0);
    assert!(reused.mean.is_nan());
    assert_eq!(table(&reused, "x"), table(&empty.view().summary(), "x"));
    h.view().summary_into(&mut reused);
    assert_eq!(reused, h.view().summary());
    assert_eq!(reused.p50().rank, 50.0);
    assert_eq!(reused.p999().rank, 99.9);
    assert_eq!(reused.max().rank, 100.0);
    assert_eq!(reused.get(92.5).unwrap().rank, 92.5);
    assert!(reused.get(42.0).is_none());
}
