//! The recorder through the `metrics` facade: every kind with labels, values from several
//! threads, escaping, many label sets, scrapes during records and registrations, conflicts,
//! and the HTTP endpoint's content negotiation.

use std::io::{Read, Write};
use std::net::TcpStream;

use metrics::{Key, Label, Level, Metadata, Recorder};
use picollo::prometheus::{bucket_bounds, index_of};
use picollo_metrics::{
    BuildError, Conflict, Layout, Matcher, PicolloBuilder, PicolloHandle, PicolloRecorder,
    OPENMETRICS_CONTENT_TYPE, PROTOBUF_CONTENT_TYPE,
};

const META: Metadata<'static> = Metadata::new("test", Level::INFO, None);

fn key(name: &str, labels: &[(&str, &str)]) -> Key {
    let labels: Vec<Label> = labels
        .iter()
        .map(|(k, v)| Label::new(k.to_string(), v.to_string()))
        .collect();
    Key::from_parts(name.to_string(), labels)
}

/// The value of the sample line that starts with `prefix` (name and labels), if any.
fn sample(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn counters_gauges_and_histograms_render_with_their_labels() {
    let recorder = PicolloBuilder::new().build_recorder();
    metrics::with_local_recorder(&recorder, || {
        metrics::describe_histogram!("latency_seconds", "Time per request");
        metrics::counter!("requests_total", "route" => "/a").increment(3);
        metrics::counter!("requests", "route" => "/b").absolute(7);
        metrics::gauge!("queue_depth", "pool" => "io").set(5.0);
        metrics::gauge!("queue_depth", "pool" => "io").increment(2.5);
        metrics::gauge!("queue_depth", "pool" => "io").decrement(1.0);
        for x in [0.001, 0.002, 0.004, -0.5, 0.0] {
            metrics::histogram!("latency_seconds", "route" => "/a").record(x);
        }
    });
    let text = recorder.handle().render();
    assert_eq!(
        sample(&text, "requests_total{route=\"/a\"}"),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "requests_total{route=\"/b\"}"),
        Some(7.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "queue_depth{pool=\"io\"}"),
        Some(6.5),
        "{text}"
    );
    assert_eq!(
        sample(&text, "latency_seconds_count{route=\"/a\"}"),
        Some(5.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "latency_seconds_bucket{route=\"/a\",le=\"+Inf\"}"),
        Some(5.0)
    );
    let sum = sample(&text, "latency_seconds_sum{route=\"/a\"}").unwrap();
    assert!((sum - (0.007 - 0.5)).abs() < 1e-12, "{sum}");
    assert!(text.contains("# TYPE requests counter\n"), "{text}");
    assert!(
        text.contains("# HELP latency_seconds Time per request\n"),
        "{text}"
    );
    assert!(text.ends_with("# EOF\n"));
    // Schema 1's bounds 2^(k/2): −0.5 at or below −2^-1, then zero, 0.001 and 0.002 at or
    // below 2^(-17/2).
    let le = |bound: &str| {
        sample(
            &text,
            &format!("latency_seconds_bucket{{route=\"/a\",le=\"{bound}\"}}"),
        )
    };
    assert_eq!(le("-0.5"), Some(1.0), "{text}");
    let (_, upper) = bucket_bounds(index_of(0.002, 1), 1);
    assert!((upper - 2f64.powf(-8.5)).abs() < 1e-15);
    assert_eq!(le(&format!("{upper:?}")), Some(4.0), "{text}");
    assert!(!recorder.handle().render_protobuf().is_empty());
}

#[test]
fn every_value_from_two_threads_is_counted() {
    let recorder = PicolloBuilder::new().build_recorder();
    let h = recorder.register_histogram(&key("work_seconds", &[("pool", "a")]), &META);
    let c = recorder.register_counter(&key("work_total", &[("pool", "a")]), &META);
    const N: u64 = 200_000;
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let (h, c) = (h.clone(), c.clone());
            s.spawn(move || {
                for k in 0..N {
                    h.record(((k % 1000) + 1 + t) as f64); // integers: the sum stays exact
                    c.increment(1);
                }
            });
        }
    });
    let text = recorder.handle().render();
    assert_eq!(
        sample(&text, "work_seconds_count{pool=\"a\"}"),
        Some((2 * N) as f64)
    );
    assert_eq!(
        sample(&text, "work_total{pool=\"a\"}"),
        Some((2 * N) as f64)
    );
    let expected: u64 = (0..2u64)
        .map(|t| (0..N).map(|k| k % 1000 + 1 + t).sum::<u64>())
        .sum();
    assert_eq!(
        sample(&text, "work_seconds_sum{pool=\"a\"}"),
        Some(expected as f64)
    );
}

#[test]
fn label_values_that_need_escaping_are_escaped() {
    let recorder = PicolloBuilder::new().build_recorder();
    let value = "say \"hi\"\\path\nnext";
    recorder
        .register_counter(
            &key("escaped.total", &[("msg", value), ("bad-name", "x")]),
            &META,
        )
        .increment(1);
    let text = recorder.handle().render();
    // Quotes, backslashes and newlines escaped; invalid name characters become `_`.
    let line = "escaped_total{msg=\"say \\\"hi\\\"\\\\path\\nnext\",bad_name=\"x\"} 1.0";
    assert!(text.lines().any(|l| l == line), "{text}");
    assert!(recorder.handle().conflicts().is_empty());
}

/// Resident memory in bytes (Linux), 0 elsewhere.
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

#[test]
fn ten_thousand_label_sets_each_keep_their_count() {
    let recorder = PicolloBuilder::new().build_recorder();
    let before = resident_bytes();
    for k in 0..10_000u32 {
        let h =
            recorder.register_histogram(&key("rpc_seconds", &[("user", &k.to_string())]), &META);
        h.record(f64::from(k + 1) * 1e-4);
    }
    let after = resident_bytes();
    println!(
        "10,000 label sets of one histogram: about {} bytes resident ({} per set)",
        after.saturating_sub(before),
        after.saturating_sub(before) / 10_000
    );
    let text = recorder.handle().render();
    let counts = text
        .lines()
        .filter(|l| l.starts_with("rpc_seconds_count{") && l.ends_with(" 1.0"));
    assert_eq!(counts.count(), 10_000);
    assert_eq!(sample(&text, "rpc_seconds_count{user=\"9999\"}"), Some(1.0));
}

#[test]
fn scrapes_while_recording_and_registering_lose_nothing() {
    let recorder = PicolloBuilder::new().build_recorder();
    let handle = recorder.handle();
    let hot = recorder.register_histogram(&key("hot_seconds", &[]), &META);
    const N: u64 = 100_000;
    const SERIES: u32 = 2_000;
    let mut last = 0.0;
    std::thread::scope(|s| {
        let writer = s.spawn(|| (0..N).for_each(|k| hot.record(k as f64 * 1e-6)));
        let storm = s.spawn(|| {
            for k in 0..SERIES {
                let labels = [("id", k.to_string())];
                let labels: Vec<(&str, &str)> =
                    labels.iter().map(|(n, v)| (*n, v.as_str())).collect();
                recorder
                    .register_histogram(&key("storm_seconds", &labels), &META)
                    .record(1.0);
                recorder
                    .register_counter(&key("storm_total", &labels), &META)
                    .increment(1);
            }
        });
        while !(writer.is_finished() && storm.is_finished()) {
            let text = handle.render();
            let seen = sample(&text, "hot_seconds_count").unwrap_or(0.0);
            assert!(seen >= last, "a scrape went back: {seen} after {last}");
            last = seen;
            let body = handle.render_protobuf();
            assert!(body.is_empty() || body[0] > 0);
        }
    });
    let text = handle.render();
    assert_eq!(sample(&text, "hot_seconds_count"), Some(N as f64));
    let ones = |prefix: &str| {
        text.lines()
            .filter(|l| l.starts_with(prefix) && l.ends_with(" 1.0"))
            .count()
    };
    assert_eq!(ones("storm_seconds_count{"), SERIES as usize);
    assert_eq!(ones("storm_total{"), SERIES as usize);
}

#[test]
fn the_builder_refuses_a_matcher_given_two_layouts() {
    let one = Layout::new().with_relative_error(0.01);
    let other = Layout::new().with_relative_error(0.001);
    let builder = PicolloBuilder::new()
        .set_layout_for_metric(Matcher::Full("a".into()), one)
        .and_then(|b| b.set_layout_for_metric(Matcher::Full("a".into()), one));
    let err = builder.and_then(|b| b.set_layout_for_metric(Matcher::Full("a".into()), other));
    assert!(matches!(err, Err(BuildError::ConflictingMatcher(Matcher::Full(ref n))) if n == "a"));
    let bad = PicolloBuilder::new().set_default_layout(Layout::new().with_range(5.0, 1.0));
    assert!(matches!(bad, Err(BuildError::InvalidLayout(_))));
    let bad = PicolloBuilder::new().set_default_layout(Layout::new().with_classic_schema(9));
    assert!(matches!(bad, Err(BuildError::InvalidLayout(_))));
}

fn conflicted() -> (PicolloRecorder, Layout) {
    let first = Layout::new().with_relative_error(0.01);
    let recorder = PicolloBuilder::new()
        .set_layout_for_metric(Matcher::Prefix("api_".into()), first)
        .and_then(|b| {
            b.set_layout_for_metric(
                Matcher::Suffix("_seconds".into()),
                Layout::new().with_relative_error(0.001),
            )
        })
        .unwrap()
        .build_recorder();
    (recorder, first)
}

#[test]
fn conflicts_are_reported_once_and_nothing_panics() {
    let (recorder, first) = conflicted();
    for _ in 0..3 {
        recorder
            .register_histogram(&key("api_seconds", &[]), &META)
            .record(0.5);
    }
    recorder
        .register_counter(&key("api_seconds", &[]), &META)
        .increment(1); // a no-op
    recorder
        .register_histogram(&key("x_count", &[]), &META)
        .record(1.0); // left out
    let handle = recorder.handle();
    let text = handle.render();
    assert_eq!(sample(&text, "api_seconds_count"), Some(3.0), "{text}");
    assert!(!text.contains("x_count"), "{text}");
    let conflicts = handle.conflicts();
    assert_eq!(conflicts.len(), 3, "{conflicts:?}");
    assert!(
        matches!(&conflicts[0], Conflict::AmbiguousLayout { name, used, others }
        if name == "api_seconds" && *used == first && *others == [Matcher::Suffix("_seconds".into())])
    );
    assert!(matches!(
        &conflicts[1],
        Conflict::KindMismatch {
            first: "histogram",
            then: "counter",
            ..
        }
    ));
    assert!(matches!(&conflicts[2], Conflict::InvalidName { name } if name == "x_count"));
    handle.render();
    assert_eq!(handle.conflicts().len(), 3, "each conflict once");
}

#[test]
fn names_exposed_alike_record_into_the_first_layout() {
    let recorder = PicolloBuilder::new()
        .set_layout_for_metric(
            Matcher::Full("db.query".into()),
            Layout::new().with_relative_error(0.001),
        )
        .unwrap()
        .build_recorder();
    recorder
        .register_histogram(&key("db_query", &[("a", "1")]), &META)
        .record(2.0);
    recorder
        .register_histogram(&key("db.query", &[("a", "2")]), &META)
        .record(3.0);
    let text = recorder.handle().render();
    assert_eq!(
        sample(&text, "db_query_count{a=\"2\"}"),
        Some(1.0),
        "{text}"
    );
    let conflicts = recorder.handle().conflicts();
    assert!(
        matches!(&conflicts[..], [Conflict::LayoutMismatch { name, used, .. }]
        if name == "db.query" && *used == Layout::new()),
        "{conflicts:?}"
    );
}

fn get(addr: std::net::SocketAddr, accept: &str) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: {accept}\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(answer[..end].to_vec()).unwrap();
    (head, answer[end + 4..].to_vec())
}

#[test]
fn the_endpoint_answers_protobuf_only_when_asked() {
    let recorder = PicolloBuilder::new().build_recorder();
    recorder
        .register_histogram(&key("up_seconds", &[]), &META)
        .record(0.25);
    let handle: PicolloHandle = recorder.handle();
    let addr = handle.serve("127.0.0.1:0").unwrap();
    let (head, body) = get(addr, "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3");
    assert!(
        head.contains(&format!("Content-Type: {PROTOBUF_CONTENT_TYPE}\r\n")),
        "{head}"
    );
    assert_eq!(body, handle.render_protobuf());
    let (head, body) = get(
        addr,
        "application/openmetrics-text;version=1.0.0,text/plain;q=0.5",
    );
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(
        head.contains(&format!("Content-Type: {OPENMETRICS_CONTENT_TYPE}\r\n")),
        "{head}"
    );
    assert_eq!(String::from_utf8(body).unwrap(), handle.render());
}

#[test]
fn integer_layouts_record_from_thread_local_shards() {
    let recorder = PicolloBuilder::new()
        .set_layout_for_metric(Matcher::Suffix("_seconds".into()), Layout::integers(1e9))
        .unwrap()
        .build_recorder();
    let h = recorder.register_histogram(&key("io_seconds", &[("disk", "a")]), &META);
    const N: u64 = 100_000;
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let h = h.clone();
            s.spawn(move || (0..N).for_each(|k| h.record((k % 500 + 1 + t) as f64 * 1e-6)));
        }
    });
    h.record(-1.0); // counts as 0: below the range
    let text = recorder.handle().render();
    assert_eq!(
        sample(&text, "io_seconds_count{disk=\"a\"}"),
        Some((2 * N + 1) as f64),
        "{text}"
    );
    // Every value lies at or below 501 µs + 1 µs; the rounding to whole nanoseconds is exact.
    let le = |bound: f64| {
        sample(
            &text,
            &format!("io_seconds_bucket{{disk=\"a\",le=\"{bound:?}\"}}"),
        )
    };
    let (_, top) = bucket_bounds(index_of(502e-6, 1), 1);
    assert_eq!(le(top), Some((2 * N + 1) as f64), "{text}");
    // The sum takes each bucket at its midpoint: within 1 % of the true one.
    let truth: f64 = (0..2u64)
        .map(|t| (0..N).map(|k| (k % 500 + 1 + t) as f64 * 1e-6).sum::<f64>())
        .sum();
    let sum = sample(&text, "io_seconds_sum{disk=\"a\"}").unwrap();
    assert!((sum - truth).abs() <= 0.01 * truth, "{sum} vs {truth}");
    let bad = PicolloBuilder::new().set_default_layout(Layout::integers(f64::NAN));
    assert!(matches!(bad, Err(BuildError::InvalidLayout(_))));
    let bad = PicolloBuilder::new()
        .set_default_layout(Layout::new().with_mode(picollo_metrics::Mode::ThreadLocal));
    assert!(matches!(bad, Err(BuildError::InvalidLayout(_))));
}

#[test]
fn the_endpoint_refuses_other_methods() {
    let recorder = PicolloBuilder::new().build_recorder();
    let addr = recorder.handle().serve("127.0.0.1:0").unwrap();
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\n"),
        "{answer}"
    );
}
