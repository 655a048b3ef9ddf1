//! The text formats of summaries holding arbitrary values (any integers, NaN, infinities,
//! negative zero, any titles and names): the Markdown table, the diff table, the one-line
//! summary, JSON and the number formatters. Nothing may panic; a full buffer is an error,
//! never a panic; the JSON output parses as JSON and carries the summary's numbers exactly.
#![no_main]

use core::fmt::{self, Write};

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use picollo::{Grouped, GroupedF64, Percentile, Summary, STANDARD_RANKS};

#[derive(Arbitrary, Debug)]
struct P {
    rank: f64,
    value: u64,
    plus_minus: u64,
    storage_index: u64,
    logical_index: u64,
    lower: u64,
    upper: u64,
    highest: u64,
    count: u64,
    cumulative_count: u64,
    rank_count: u64,
}

#[derive(Arbitrary, Debug)]
struct S {
    percentiles: [P; 16],
    standard_ranks: bool,
    total: u64,
    underflow: u64,
    overflow: u64,
    saturated: u64,
    mean: f64,
    stdev: f64,
    precision: f64,
    min_trackable: u64,
    max_trackable: u64,
}

#[derive(Arbitrary, Debug)]
struct Input {
    a: S,
    b: S,
    /// Text from bytes (invalid UTF-8 replaced), so every input is used.
    title: Vec<u8>,
    name_a: Vec<u8>,
    name_b: Vec<u8>,
    /// Capacity of a writer that refuses more: the formats must report it, not panic.
    limit: u16,
    number: f64,
    decimals: u8,
    int: u128,
}

fn summary(s: &S) -> Summary {
    let mut out = Summary::default();
    for (k, (p, q)) in out.percentiles.iter_mut().zip(&s.percentiles).enumerate() {
        *p = Percentile {
            rank: if s.standard_ranks {
                STANDARD_RANKS[k]
            } else {
                q.rank
            },
            value: q.value,
            plus_minus: q.plus_minus,
            storage_index: q.storage_index,
            logical_index: q.logical_index,
            lower: q.lower,
            upper: q.upper,
            highest: q.highest,
            count: q.count,
            cumulative_count: q.cumulative_count,
            rank_count: q.rank_count,
        };
    }
    out.total = s.total;
    out.underflow = s.underflow;
    out.overflow = s.overflow;
    out.saturated = s.saturated;
    out.mean = s.mean;
    out.stdev = s.stdev;
    out.precision = s.precision;
    out.min_trackable = s.min_trackable;
    out.max_trackable = s.max_trackable;
    out
}

/// A writer that takes at most `room` bytes, then fails.
struct Limited {
    room: usize,
}

impl Write for Limited {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.room = self.room.checked_sub(s.len()).ok_or(fmt::Error)?;
        Ok(())
    }
}

fn json_number(v: &serde_json::Value, key: &str) -> serde_json::Number {
    match &v[key] {
        serde_json::Value::Number(n) => n.clone(),
        other => panic!("{key} is {other:?}, not a number"),
    }
}

/// A top-level field of the JSON summary by its key: a count, or a double (`null` when
/// not finite).
enum Field {
    Count(&'static str, u64),
    Double(&'static str, f64),
}

/// The summary's top-level fields, all but the percentiles.
fn top_fields(s: &Summary) -> [Field; 9] {
    use Field::{Count, Double};
    [
        Count("minTrackableValue", s.min_trackable),
        Count("maxTrackableValue", s.max_trackable),
        Count("totalCount", s.total),
        Count("underflowCount", s.underflow),
        Count("overflowCount", s.overflow),
        Count("saturatedCount", s.saturated),
        Double("mean", s.mean),
        Double("stDev", s.stdev),
        Double("precision", s.precision),
    ]
}

fn check_json(s: &Summary) {
    let mut out = String::new();
    s.write_json(&mut out).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("invalid JSON ({e}): {out}"));
    for field in top_fields(s) {
        match field {
            Field::Count(key, want) => {
                assert_eq!(json_number(&v, key).as_u64(), Some(want), "{key} in {out}");
            }
            Field::Double(key, want) if want.is_finite() => {
                let got = json_number(&v, key).as_f64().unwrap();
                assert!(
                    got == want,
                    "{key}: {got} in the JSON, {want} in the summary"
                );
            }
            Field::Double(key, _) => assert!(v[key].is_null(), "{key} should be null in {out}"),
        }
    }
    let ps = v["percentiles"]
        .as_array()
        .expect("percentiles is an array");
    assert_eq!(ps.len(), 16);
    for (j, p) in ps.iter().zip(&s.percentiles) {
        for (key, want) in [
            ("value", p.value),
            ("plusMinus", p.plus_minus),
            ("lower", p.lower),
            ("upper", p.upper),
            ("count", p.count),
            ("cumulativeCount", p.cumulative_count),
            ("rankCount", p.rank_count),
        ] {
            assert_eq!(json_number(j, key).as_u64(), Some(want), "{key} in {out}");
        }
        if p.rank.is_finite() {
            let got = json_number(j, "rank").as_f64().unwrap();
            assert!(
                got == p.rank,
                "rank {:e} reads back as {got:e} from {out}",
                p.rank
            );
        } else {
            assert!(j["rank"].is_null());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // `arbitrary`, not `arbitrary_take_rest`: a short input still makes a summary (the
    // missing fields are zeros), and the text fields take what their lengths say.
    let Ok(input) = Input::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let (a, b) = (summary(&input.a), summary(&input.b));
    let title = String::from_utf8_lossy(&input.title);
    let title = title.as_ref();
    let name_a = String::from_utf8_lossy(&input.name_a).into_owned();
    let name_b = String::from_utf8_lossy(&input.name_b).into_owned();

    // With the standard ranks (every summary a histogram makes) each format must succeed
    // into a String; other ranks print in full and may not fit a cell: an error then,
    // never a panic.
    let (std_a, std_b) = (input.a.standard_ranks, input.b.standard_ranks);
    let mut table = String::new();
    let table_ok = a.write_table(&mut table, title).is_ok();
    assert!(
        table_ok || !std_a,
        "write_table failed: {a:?}, title {title:?}"
    );
    assert!(!table_ok || !table.is_empty());
    let mut shown = String::new();
    assert_eq!(write!(shown, "{a}").is_ok(), table_ok);

    let mut diff = String::new();
    let diff_ok = a.write_diff(&b, &mut diff, title, &name_a, &name_b).is_ok();
    assert!(
        diff_ok || !(std_a && std_b),
        "write_diff failed: {a:?} {b:?}"
    );
    assert!(!diff_ok || !diff.is_empty());

    let mut line = String::new();
    a.write_line(&mut line, &name_a)
        .unwrap_or_else(|_| panic!("write_line failed into a String: {a:?}"));
    if !name_a.contains('\n') {
        assert!(!line.contains('\n'), "one line expected: {line:?}");
    }

    check_json(&a);
    check_json(&b);

    for p in &a.percentiles {
        let mut out = String::new();
        assert!(write!(out, "{p}").is_ok() || !std_a, "{p:?}");
    }

    // Every format into a buffer too small for it: an error (or success when it fits),
    // never a panic, never more than the room given.
    let room = usize::from(input.limit);
    let _ = a.write_table(&mut Limited { room }, title);
    let _ = a.write_diff(&b, &mut Limited { room }, title, &name_a, &name_b);
    let _ = a.write_line(&mut Limited { room }, &name_b);
    let _ = a.write_json(&mut Limited { room });
    let mut small = heapless::String::<64>::new();
    let _ = a.write_line(&mut small, &name_b);

    let mut n = String::new();
    let decimals = usize::from(input.decimals % 21);
    write!(n, "{}", GroupedF64(input.number, decimals)).unwrap();
    if input.number.is_finite() {
        let plain: String = n.chars().filter(|&c| c != ',').collect();
        let back: f64 = plain.parse().unwrap();
        let want: f64 = format!("{:.*}", decimals, input.number).parse().unwrap();
        assert!(
            back == want || (back == 0.0 && want == 0.0),
            "{n} for {}",
            input.number
        );
    } else {
        assert_eq!(n, "n/a");
    }
    let mut g = String::new();
    write!(g, "{}", Grouped(input.int)).unwrap();
    let digits: String = g.chars().filter(|&c| c != ',').collect();
    assert_eq!(digits, input.int.to_string());
    assert!(g.split(',').skip(1).all(|group| group.len() == 3));
});
