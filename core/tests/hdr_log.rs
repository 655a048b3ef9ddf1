//! The interval log: writing, reading back, header time rules, tags, windows and errors.

use picollo::hdr::{sum_log, LogErrorKind, LogReader, LogWriter, Selection, V2Error};
use picollo::{Config, Histogram};

mod common;

fn hist(values: impl IntoIterator<Item = u64>) -> Histogram<u64, Vec<u64>> {
    let mut h = Config::new()
        .with_relative_error(0.5 / 1024.0)
        .build()
        .unwrap();
    for v in values {
        h.record(v);
    }
    h
}

#[test]
fn a_written_log_reads_back_interval_by_interval() {
    let mut text = String::new();
    let mut w = LogWriter::new(&mut text);
    w.comment("made by picollo\nsecond line").unwrap();
    w.header(Some(1_700_000_000.0), Some(1_700_000_000.0))
        .unwrap();
    let a = hist(1000..2000);
    let b = hist([5_000_000, 7_000_000]);
    w.interval(None, 1_700_000_000.0, 1.0, &a.view()).unwrap();
    w.interval(Some("db"), 1_700_000_001.0, 1.5, &b.view())
        .unwrap();
    w.interval(None, 1_700_000_002.0, 1.0, &a.view()).unwrap();
    assert!(
        text.contains("#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]"),
        "{text}"
    );
    assert!(
        text.contains("\nTag=db,1.000,1.500,7.000,HISTFAAA"),
        "{text}"
    );
    let mut r = LogReader::new(&text);
    let all: Vec<_> = r.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(r.start_time(), Some(1_700_000_000.0));
    assert_eq!(r.base_time(), Some(1_700_000_000.0));
    assert_eq!(all.len(), 3);
    assert_eq!(all[1].tag.as_deref(), Some("db"));
    assert_eq!((all[1].start, all[1].length), (1_700_000_001.0, 1.5));
    assert_eq!(all[1].histogram.total_count(), 2);
    assert_eq!(all[0].histogram.counts()[..2000], a.counts()[..2000]);
    // Sums: untagged only by default, by tag, by window.
    let untagged = sum_log(&text, &Selection::default()).unwrap().unwrap();
    assert_eq!(untagged.intervals(), 2);
    assert_eq!(untagged.histogram().unwrap().total_count(), 2000);
    assert_eq!(
        untagged.time_span(),
        Some((1_700_000_000.0, 1_700_000_003.0))
    );
    let db = sum_log(
        &text,
        &Selection {
            tag: Some("db"),
            ..Default::default()
        },
    )
    .unwrap()
    .unwrap();
    assert_eq!(db.histogram().unwrap().total_count(), 2);
    let late = Selection {
        from: Some(1_700_000_001.0),
        ..Default::default()
    };
    assert_eq!(sum_log(&text, &late).unwrap().unwrap().intervals(), 1);
    let none = Selection {
        tag: Some("nope"),
        ..Default::default()
    };
    assert!(sum_log(&text, &none).unwrap().is_none());
}

#[test]
fn relative_timestamps_follow_start_time_unless_a_base_time_is_given() {
    let h = hist([10]);
    let line = h.view().encode_v2_base64().unwrap();
    let relative = format!(
        "#[StartTime: 1700000000.000 (seconds since epoch), x]\n0.500,1.000,0.000,{line}\n"
    );
    let i = LogReader::new(&relative).next().unwrap().unwrap();
    assert_eq!(i.start, 1_700_000_000.5);
    let absolute = format!("#[StartTime: 1700000000.000 (seconds since epoch), x]\n1700000005.000,1.000,0.000,{line}\n");
    assert_eq!(
        LogReader::new(&absolute).next().unwrap().unwrap().start,
        1_700_000_005.0
    );
    let based = format!("#[BaseTime: 100.000 (seconds since epoch)]\n5.000,1.000,0.000,{line}\n");
    assert_eq!(LogReader::new(&based).next().unwrap().unwrap().start, 105.0);
}

#[test]
fn histograms_of_growing_ranges_and_other_precisions_sum_without_overflow() {
    let small = hist([3]);
    let big = hist([1 << 40]);
    let coarse = {
        let mut h: Histogram<u64, Vec<u64>> = Config::new()
            .with_relative_error(0.5 / 16.0)
            .build()
            .unwrap();
        h.record(1 << 20);
        h
    };
    let mut text = String::new();
    let mut w = LogWriter::new(&mut text);
    w.header(None, None).unwrap();
    for (i, h) in [&small, &big, &coarse].iter().enumerate() {
        w.interval(None, i as f64, 1.0, &h.view()).unwrap();
    }
    let acc = sum_log(&text, &Selection::default()).unwrap().unwrap();
    let sum = acc.histogram().unwrap();
    assert_eq!(sum.total_count(), 3);
    assert_eq!(sum.overflow_count(), 0);
    assert_eq!(
        sum.view().max_recorded().map(|v| sum.layout().bucket_of(v)),
        Some(sum.layout().bucket_of(1 << 40))
    );
}

#[test]
fn bad_lines_are_errors_that_name_the_line() {
    let good = hist([10]).view().encode_v2_base64().unwrap();
    let cases = [
        (
            format!("1.0,2.0,{good}"),
            LogErrorKind::Number("interval max"),
        ),
        ("1.0".to_string(), LogErrorKind::Fields),
        (
            format!("-1.0,2.0,3.0,{good}"),
            LogErrorKind::Number("start timestamp"),
        ),
        (
            format!("1e3,2.0,3.0,{good}"),
            LogErrorKind::Number("start timestamp"),
        ),
        (
            format!("1.0,nan,3.0,{good}"),
            LogErrorKind::Number("interval length"),
        ),
        (format!("Tag=a b,1.0,2.0,3.0,{good}"), LogErrorKind::Tag),
        (
            "1.0,2.0,3.0,HISTF!!!".to_string(),
            LogErrorKind::V2(V2Error::Base64),
        ),
    ];
    for (line, kind) in cases {
        let text = format!("#[Histogram log format version 1.3]\n# comment\n{line}\n");
        let e = LogReader::new(&text).next().unwrap().unwrap_err();
        assert_eq!(e.line, 3, "{line}");
        assert_eq!(e.kind, kind, "{line}");
        assert!(e.to_string().starts_with("line 3: "), "{e}");
        assert!(sum_log(&text, &Selection::default()).is_err());
    }
    let mut text = String::new();
    let mut w = LogWriter::new(&mut text);
    let h = hist([1]);
    assert_eq!(
        w.interval(Some("a,b"), 0.0, 1.0, &h.view())
            .unwrap_err()
            .kind,
        LogErrorKind::Tag
    );
    assert!(w.interval(None, f64::NAN, 1.0, &h.view()).is_err());
    assert!(w.interval(None, 0.0, -1.0, &h.view()).is_err());
    assert!(w.set_max_unit_ratio(0.0).is_err());
    assert!(w.header(Some(-1.0), None).is_err());
    assert!(text.is_empty(), "refused calls write nothing: {text:?}");
}

#[test]
fn logs_written_by_peers_read_with_their_times_tags_and_counts() {
    // interop/fixtures: the same three intervals written by Python's hdrh 0.10.8 (which
    // writes no tags) and by hdr-histogram-js 3.0.1; see the README there.
    let config = |g: u32| Config::new().with_relative_error(0.5 / (1u64 << g) as f64);
    let first: &[(u64, u64)] = &common::FIXTURE_VALUES;
    // (tag, start after the base time, block scale, values × counts)
    type Expected<'a> = (Option<&'a str>, f64, u32, &'a [(u64, u64)]);
    let intervals: [Expected<'_>; 3] = [
        (None, 10.0, 10, first),
        (
            Some("api"),
            11.0,
            7,
            &[(5, 10), (5_000, 20), (5_000_000, 30)],
        ),
        (None, 12.0, 10, &[(42, 1), (4_200_000, 999)]),
    ];
    let logs = [
        (
            "hdrh",
            include_str!("../../interop/fixtures/hdrh.hlog"),
            false,
        ),
        (
            "hdr-histogram-js",
            include_str!("../../interop/fixtures/hdr-histogram-js.hlog"),
            true,
        ),
    ];
    for (name, text, tags) in logs {
        let mut reader = LogReader::new(text);
        let read: Vec<_> = reader
            .by_ref()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(reader.start_time(), Some(1_700_000_000.0), "{name}");
        assert_eq!(reader.base_time(), Some(1_699_999_990.0), "{name}");
        assert_eq!(read.len(), 3, "{name}");
        for (got, &(tag, start, g, values)) in read.iter().zip(&intervals) {
            assert_eq!(got.tag.as_deref(), tag.filter(|_| tags), "{name}");
            assert_eq!(got.start, 1_699_999_990.0 + start, "{name}");
            assert_eq!(got.length, 1.0, "{name}");
            let mut want: Histogram<u64, Vec<u64>> = config(g).build().unwrap();
            for &(v, c) in values {
                want.record_n(v, c);
            }
            let buckets = |h: &Histogram<u64, Vec<u64>>| -> Vec<(u64, u64)> {
                h.view()
                    .buckets_with_values()
                    .map(|b| (b.lower, b.count))
                    .collect()
            };
            assert_eq!(buckets(&got.histogram), buckets(&want), "{name} at {start}");
        }
    }
}

#[test]
fn a_reader_resumed_from_its_position_reads_what_one_reader_reads() {
    let mut text = String::new();
    let mut w = LogWriter::new(&mut text);
    w.header(Some(1_700_000_000.0), Some(1_700_000_000.0))
        .unwrap();
    w.interval(None, 1_700_000_000.0, 1.0, &hist(1..100).view())
        .unwrap();
    w.get_mut().push_str("not an interval\r\n");
    assert!(w.get_ref().ends_with("interval\r\n"));
    w.interval(Some("db"), 1_700_000_001.0, 1.0, &hist([7]).view())
        .unwrap();
    let whole: Vec<_> = LogReader::new(&text).collect();

    let mut first = LogReader::new(&text);
    first.read_headers();
    // The header block is read, the first interval is not.
    assert_eq!(first.start_time(), Some(1_700_000_000.0));
    assert_eq!(first.base_time(), Some(1_700_000_000.0));
    assert_eq!(first.position().line(), 5);
    let mut at = first.position();
    let mut pieces = Vec::new();
    loop {
        let mut r = LogReader::resume(&text, at);
        let Some(entry) = r.next() else { break };
        pieces.push(entry);
        at = r.position();
        assert_eq!(r.start_time(), Some(1_700_000_000.0));
    }
    assert_eq!(pieces.len(), whole.len());
    assert_eq!(pieces.len(), 3);
    for (a, b) in whole.iter().zip(&pieces) {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a.line, &a.tag, a.start), (b.line, &b.tag, b.start));
                assert_eq!(a.histogram.counts(), b.histogram.counts());
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{a:?} != {b:?}"),
        }
    }
    assert_eq!(pieces[1].as_ref().unwrap_err().line, 6);
    assert_eq!(at.offset(), text.len());
    // A position off the text reads nothing.
    let mut off = LogReader::new("#x\n");
    off.read_headers();
    assert!(LogReader::resume("", off.position()).next().is_none());
}
