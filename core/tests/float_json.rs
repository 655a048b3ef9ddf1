//! The JSON form of a float summary: every field reads back as the summary's own, doubles
//! exactly, and the shape matches the integer summary's where the two share a field.

use picollo::float::{FloatConfig, FloatHistogram, FloatSummary};
use picollo::STANDARD_RANKS;
use serde_json::Value;

fn json_text(s: &FloatSummary) -> String {
    let mut text = String::new();
    s.write_json(&mut text).unwrap();
    text
}

/// A JSON double as the summary holds it: `null` stands for NaN (nothing known).
fn double(v: &Value) -> f64 {
    if v.is_null() {
        f64::NAN
    } else {
        v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
    }
}

/// `a` and `b` are the same double, NaN included, or at most an ulp apart (serde_json's
/// default parser may be one ulp off; the exact text is checked by [`raw`]).
fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= b.abs() * f64::EPSILON
}

/// The top-level number `key` of `text`, parsed by Rust's exact parser (`null`: NaN).
fn raw(text: &str, key: &str) -> f64 {
    let start = text.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    let end = start + text[start..].find([',', '}']).unwrap();
    match &text[start..end] {
        "null" => f64::NAN,
        number => number.parse().unwrap(),
    }
}

/// A top-level field of the JSON form: a count, or a double.
#[derive(Clone, Copy)]
enum Field {
    Count(u64),
    Double(f64),
}

/// The summary's top-level fields, by their JSON key (all but the percentiles).
fn fields(s: &FloatSummary) -> [(&'static str, Field); 16] {
    use Field::{Count, Double};
    [
        ("totalCount", Count(s.total)),
        ("zeroCount", Count(s.zero)),
        ("nanCount", Count(s.nan)),
        ("positiveInfinityCount", Count(s.positive_infinity)),
        ("negativeInfinityCount", Count(s.negative_infinity)),
        ("underflowCount", Count(s.underflow)),
        ("overflowCount", Count(s.overflow)),
        ("saturatedCount", Count(s.saturated)),
        ("minMagnitude", Double(s.min_magnitude)),
        ("maxMagnitude", Double(s.max_magnitude)),
        ("sum", Double(s.sum)),
        ("min", Double(s.min)),
        ("max", Double(s.max)),
        ("mean", Double(s.mean)),
        ("stDev", Double(s.stdev)),
        ("precision", Double(s.precision)),
    ]
}

fn check_json(s: &FloatSummary) {
    let text = json_text(s);
    let j: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let fields = fields(s);
    for (key, field) in fields {
        match field {
            Field::Count(n) => assert_eq!(j[key].as_u64(), Some(n), "{key} in {text}"),
            Field::Double(x) => {
                let exact = raw(&text, key);
                assert!(
                    exact == x || (exact.is_nan() && x.is_nan()),
                    "{key}: {exact} against {x}"
                );
                assert!(same(double(&j[key]), x), "{key}: {} against {x}", j[key]);
            }
        }
    }
    assert_eq!(j.as_object().unwrap().len(), fields.len() + 1);
    let ps = j["percentiles"].as_array().unwrap();
    assert_eq!(ps.len(), STANDARD_RANKS.len());
    for ((p, jp), &rank) in s.percentiles.iter().zip(ps).zip(STANDARD_RANKS.iter()) {
        assert_eq!(jp["rank"].as_f64(), Some(rank));
        for (key, x) in [
            ("value", p.value),
            ("plusMinus", p.plus_minus),
            ("lowest", p.lowest),
            ("highest", p.highest),
        ] {
            assert!(same(double(&jp[key]), x), "{key}: {} against {x}", jp[key]);
            assert!(
                jp[key].is_f64(),
                "{key} is written as a double: {}",
                jp[key]
            );
        }
        assert_eq!(jp["count"].as_u64(), Some(p.count));
        assert_eq!(jp["cumulativeCount"].as_u64(), Some(p.cumulative_count));
        assert_eq!(jp["rankCount"].as_u64(), Some(p.rank_count));
        assert_eq!(jp.as_object().unwrap().len(), 8);
    }
}

#[test]
fn float_json_reads_back_as_the_summary() {
    let h: FloatHistogram<u64> = FloatHistogram::new(FloatConfig::new()).unwrap();
    for i in 1..=1000 {
        h.record(i as f64 * 0.37);
        h.record(-(i as f64) * 1.5e-3);
    }
    for x in [
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e308,
        5e-324,
    ] {
        h.record(x);
    }
    let s = h.counts().unwrap().summary();
    assert!(s.min < 0.0 && s.max > 0.0 && s.nan == 1 && s.zero == 2);
    check_json(&s);
}

#[test]
fn float_json_of_an_empty_histogram_has_null_statistics() {
    let config = FloatConfig::new().with_range(1e-9, 1e9);
    let h: FloatHistogram<u32> = FloatHistogram::new(config).unwrap();
    let s = h.counts().unwrap().summary();
    check_json(&s);
    let j: Value = serde_json::from_str(&json_text(&s)).unwrap();
    for key in ["min", "max", "mean", "stDev"] {
        assert!(j[key].is_null(), "{key}: {}", j[key]);
    }
    assert_eq!(j["sum"].as_f64(), Some(0.0));
    assert!(j["minMagnitude"].as_f64().unwrap() <= 1e-9);
}

#[test]
fn float_and_integer_json_share_their_common_fields() {
    let h: FloatHistogram<u64> = FloatHistogram::new(FloatConfig::new()).unwrap();
    h.record(2.5);
    let float: Value = serde_json::from_str(&json_text(&h.counts().unwrap().summary())).unwrap();
    let mut i = picollo::Config::new().build::<u64>().unwrap();
    i.record(2);
    let mut text = String::new();
    i.view().summary().write_json(&mut text).unwrap();
    let int: Value = serde_json::from_str(&text).unwrap();
    for key in [
        "totalCount",
        "underflowCount",
        "overflowCount",
        "saturatedCount",
        "mean",
    ] {
        assert!(float.get(key).is_some() && int.get(key).is_some(), "{key}");
    }
    for key in ["stDev", "precision", "percentiles"] {
        assert!(float.get(key).is_some() && int.get(key).is_some(), "{key}");
    }
    let (fp, ip) = (&float["percentiles"][5], &int["percentiles"][5]);
    for key in [
        "rank",
        "value",
        "plusMinus",
        "count",
        "cumulativeCount",
        "rankCount",
    ] {
        assert!(fp.get(key).is_some() && ip.get(key).is_some(), "{key}");
    }
}
