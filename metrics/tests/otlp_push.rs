//! The OTLP push: a local listener stands in for the collector, captures the POST, and the
//! test decodes its protobuf with a decoder of its own, comparing each histogram with the
//! library's own re-binning of the same values; an endpoint nobody answers is counted as
//! errors while recording goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use picollo::concurrent::{ConcurrentHistogram, ConcurrentSnapshot, Mode};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::otlp::{ExponentialHistogram, SignedExponentialHistogram};
use picollo::Config;
use picollo_metrics::{BuildError, Layout, Matcher, OtlpPush, PicolloBuilder};

/// One field of a protobuf message: its number and its value (a varint, 8 bytes, or bytes).
#[derive(Clone, Debug)]
enum Value {
    Varint(u64),
    Fixed(u64),
    Bytes(Vec<u8>),
}

fn varint(bytes: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let b = bytes[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// Every field of a message, in order (panics on bytes that are not protobuf).
fn fields(bytes: &[u8]) -> Vec<(u32, Value)> {
    let (mut out, mut at) = (Vec::new(), 0);
    while at < bytes.len() {
        let key = varint(bytes, &mut at);
        let value = match key & 7 {
            0 => Value::Varint(varint(bytes, &mut at)),
            1 => {
                let v = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
                at += 8;
                Value::Fixed(v)
            }
            2 => {
                let n = varint(bytes, &mut at) as usize;
                at += n;
                Value::Bytes(bytes[at - n..at].to_vec())
            }
            w => panic!("wire type {w}"),
        };
        out.push(((key >> 3) as u32, value));
    }
    out
}

fn all(msg: &[u8], field: u32) -> Vec<Value> {
    let found = fields(msg).into_iter().filter(|(f, _)| *f == field);
    found.map(|(_, v)| v).collect()
}

fn bytes(msg: &[u8], field: u32) -> Vec<u8> {
    match all(msg, field).pop() {
        Some(Value::Bytes(b)) => b,
        None => Vec::new(),
        other => panic!("field {field} is {other:?}"),
    }
}

fn string(msg: &[u8], field: u32) -> String {
    String::from_utf8(bytes(msg, field)).unwrap()
}

/// A fixed64 or varint field (0 when left out, as proto3 does).
fn number(msg: &[u8], field: u32) -> u64 {
    match all(msg, field).pop() {
        Some(Value::Fixed(v) | Value::Varint(v)) => v,
        None => 0,
        other => panic!("field {field} is {other:?}"),
    }
}

fn double(msg: &[u8], field: u32) -> f64 {
    f64::from_bits(number(msg, field))
}

fn zigzag(v: u64) -> i32 {
    ((v >> 1) as i64 ^ -((v & 1) as i64)) as i32
}

/// A `Buckets` message: offset and counts.
fn buckets(msg: &[u8], field: u32) -> (i32, Vec<u64>) {
    let b = bytes(msg, field);
    let packed = bytes(&b, 2);
    let (mut counts, mut at) = (Vec::new(), 0);
    while at < packed.len() {
        counts.push(varint(&packed, &mut at));
    }
    (zigzag(number(&b, 1)), counts)
}

/// The `KeyValue`s (string values) of the repeated field `field`.
fn attributes(msg: &[u8], field: u32) -> Vec<(String, String)> {
    let kvs = all(msg, field).into_iter().map(|v| match v {
        Value::Bytes(kv) => (string(&kv, 1), string(&bytes(&kv, 2), 1)),
        other => panic!("attribute {other:?}"),
    });
    kvs.collect()
}

/// The metrics of a request by name: each `Metric` message.
fn metrics_by_name(request: &[u8]) -> Vec<(String, Vec<u8>)> {
    let rm = bytes(request, 1);
    let resource = attributes(&bytes(&rm, 1), 1);
    assert_eq!(resource, [("service.name".into(), "push-test".into())]);
    let sm = bytes(&rm, 2);
    assert_eq!(string(&bytes(&sm, 1), 1), "picollo-metrics");
    let metrics = all(&sm, 2).into_iter().map(|v| match v {
        Value::Bytes(m) => (string(&m, 1), m),
        other => panic!("metric {other:?}"),
    });
    metrics.collect()
}

/// A collector stand-in: answers each POST with `status` and sends its head and body.
fn receiver(status: &'static str) -> (String, mpsc::Receiver<(String, Vec<u8>)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/metrics", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut head = String::new();
            while !head.ends_with("\r\n\r\n") {
                if reader.read_line(&mut head).unwrap() == 0 {
                    break;
                }
            }
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .map_or(0, |n| n.parse().unwrap());
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let answer = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n");
            reader.get_mut().write_all(answer.as_bytes()).unwrap();
            if tx.send((head, body)).is_err() {
                return;
            }
        }
    });
    (url, rx)
}

const DOUBLES: [f64; 7] = [-2.0, -0.0, 0.0, 0.3, 0.3, 0.31, 1000.0];
const SECONDS: [f64; 4] = [0.000_012, 0.000_012, 0.25, 3.0];

/// The library's own re-binning of `DOUBLES` in the default layout.
fn expected_doubles() -> SignedExponentialHistogram {
    let config = FloatConfig::new()
        .with_relative_error(0.01)
        .with_range(1e-9, 1e12)
        .with_mode(Mode::Interlocked);
    let h = FloatHistogram::<u64>::new(config).unwrap();
    DOUBLES.iter().for_each(|&v| h.record(v));
    SignedExponentialHistogram::from_counts(&h.counts().unwrap(), 1.0, 0.0).unwrap()
}

/// The library's own re-binning of `SECONDS` kept as nanoseconds.
fn expected_seconds() -> ExponentialHistogram {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(1, 1e21 as u64);
    let h = ConcurrentHistogram::<u64>::new(config, Mode::ThreadLocal).unwrap();
    SECONDS
        .iter()
        .for_each(|&v| h.record((v * 1e9 + 0.5) as u64));
    let copy = ConcurrentSnapshot::new(&h).unwrap();
    ExponentialHistogram::from_view(&copy.view(), 1e9).unwrap()
}

fn point_of(metric: &[u8], kind_field: u32) -> Vec<u8> {
    let data = bytes(metric, kind_field);
    let points = all(&data, 1);
    assert_eq!(points.len(), 1);
    match &points[0] {
        Value::Bytes(p) => p.clone(),
        other => panic!("point {other:?}"),
    }
}

fn check_doubles(metric: &[u8]) {
    let data = bytes(metric, 10);
    assert_eq!(number(&data, 2), 2, "cumulative");
    let p = point_of(metric, 10);
    let want = expected_doubles();
    assert_eq!(attributes(&p, 1), [("route".into(), "/a".into())]);
    assert_eq!(number(&p, 4), DOUBLES.len() as u64);
    assert_eq!(number(&p, 4), want.count);
    assert_eq!(double(&p, 5), want.sum);
    assert!((double(&p, 5) - DOUBLES.iter().sum::<f64>()).abs() < 1e-9);
    assert_eq!(zigzag(number(&p, 6)), want.scale);
    assert_eq!(zigzag(number(&p, 6)), picollo::otlp::scale_for(0.01));
    assert_eq!(number(&p, 7), 2, "±0 in the zero bucket");
    assert_eq!(double(&p, 14), want.zero_threshold);
    let (positive, negative) = (buckets(&p, 8), buckets(&p, 9));
    assert_eq!(
        positive,
        (want.positive.offset, want.positive.counts.clone())
    );
    assert_eq!(
        negative,
        (want.negative.offset, want.negative.counts.clone())
    );
    assert_eq!(positive.1.iter().sum::<u64>(), 4);
    assert_eq!(negative.1, [1]);
    let (_, high) =
        picollo::otlp::bucket_bounds(positive.0 + positive.1.len() as i32 - 1, want.scale);
    assert!(
        (1000.0..1000.0 * 1.03).contains(&high),
        "the top bucket holds 1000: {high}"
    );
    assert!(
        number(&p, 2) > 0 && number(&p, 3) >= number(&p, 2),
        "times set, in order"
    );
}

fn check_seconds(metric: &[u8]) {
    let p = point_of(metric, 10);
    let want = expected_seconds();
    assert_eq!(number(&p, 4), SECONDS.len() as u64);
    assert_eq!(double(&p, 5), want.sum);
    assert!((double(&p, 5) - SECONDS.iter().sum::<f64>()).abs() < 0.01 * 3.26);
    assert_eq!(zigzag(number(&p, 6)), want.scale);
    assert_eq!(buckets(&p, 8), (want.offset, want.bucket_counts.clone()));
    assert!(all(&p, 9).is_empty(), "integers have no negative buckets");
    assert_eq!(double(&p, 12), want.min.unwrap());
    assert_eq!(double(&p, 13), want.max.unwrap());
}

fn check_counter_and_gauge(metrics: &[(String, Vec<u8>)]) {
    let find = |name: &str| &metrics.iter().find(|(n, _)| n == name).unwrap().1;
    let counter = find("requests_total");
    let sum = bytes(counter, 7);
    assert_eq!(
        (number(&sum, 2), number(&sum, 3)),
        (2, 1),
        "cumulative, monotonic"
    );
    let p = point_of(counter, 7);
    assert_eq!(number(&p, 6), 7, "as_int");
    assert_eq!(attributes(&p, 7), [("route".into(), "/a".into())]);
    let gauge = find("queue_depth");
    let p = point_of(gauge, 5);
    assert_eq!(double(&p, 4), 2.5, "as_double");
    assert!(all(&p, 6).is_empty());
}

#[test]
fn a_push_carries_every_histogram_counter_and_gauge() {
    let (url, rx) = receiver("200 OK");
    let recorder = PicolloBuilder::new()
        .set_layout_for_metric(Matcher::Suffix("_seconds".into()), Layout::integers(1e9))
        .unwrap()
        .build_recorder();
    metrics::with_local_recorder(&recorder, || {
        DOUBLES
            .iter()
            .for_each(|&v| metrics::histogram!("values", "route" => "/a").record(v));
        SECONDS
            .iter()
            .for_each(|&v| metrics::histogram!("rpc_seconds").record(v));
        metrics::counter!("requests_total", "route" => "/a").increment(7);
        metrics::gauge!("queue_depth").set(2.5);
    });
    let push = OtlpPush::new(&url, Duration::from_millis(20))
        .unwrap()
        .with_header("x-api-key", "k1")
        .unwrap()
        .with_service_name("push-test");
    let mut handle = recorder.handle();
    handle.start_otlp_push(push).unwrap();
    for _ in 0..2 {
        let (head, body) = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert!(head.starts_with("POST /v1/metrics HTTP/1.1\r\n"), "{head}");
        assert!(head.contains("\r\nContent-Type: application/x-protobuf\r\n"));
        assert!(head.contains("\r\nx-api-key: k1\r\n"));
        // For a reader of another make (opentelemetry-proto, say): the body as sent.
        if let Some(path) = std::env::var_os("PICOLLO_OTLP_CAPTURE") {
            std::fs::write(path, &body).unwrap();
        }
        let metrics = metrics_by_name(&body);
        let names: Vec<&str> = metrics.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["queue_depth", "requests_total", "rpc_seconds", "values"]
        );
        check_doubles(&metrics[3].1);
        check_seconds(&metrics[2].1);
        check_counter_and_gauge(&metrics);
    }
    handle.push_now().unwrap();
    // The thread's first push was counted before it sent the second; `push_now` counts
    // before it returns (the second may still be reading its answer).
    assert!(handle.pushes() >= 2);
    assert_eq!(handle.push_errors(), 0);
}

#[test]
fn an_endpoint_that_fails_is_counted_and_recording_goes_on() {
    // A port bound then released: nothing listens there (connection refused).
    let dead = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let recorder = PicolloBuilder::new().build_recorder();
    let mut handle = recorder.handle();
    let push = OtlpPush::new(
        &format!("http://{dead}/v1/metrics"),
        Duration::from_millis(5),
    );
    handle.start_otlp_push(push.unwrap()).unwrap();
    metrics::with_local_recorder(&recorder, || {
        for k in 0..2000 {
            metrics::histogram!("values").record(f64::from(k));
        }
    });
    assert!(handle.push_now().is_err());
    while handle.push_errors() < 3 {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(handle.pushes(), 0);
    assert!(handle.last_push_error().is_some());
    assert!(handle.render().contains("values_count 2000.0\n"));
    // An endpoint that answers an error status is a failure too.
    let (url, _rx) = receiver("500 Internal Server Error");
    let mut handle = recorder.handle();
    handle
        .start_otlp_push(OtlpPush::new(&url, Duration::from_secs(3600)).unwrap())
        .unwrap();
    let e = handle.push_now().unwrap_err();
    assert!(e.to_string().contains("500"), "{e}");
    assert_eq!((handle.pushes(), handle.push_errors()), (0, 1));
}

#[test]
fn endpoints_and_headers_are_checked() {
    let bad = |url: &str| OtlpPush::new(url, Duration::from_secs(1)).unwrap_err();
    assert!(matches!(
        bad("https://collector:4318/v1/metrics"),
        BuildError::InvalidEndpoint(_)
    ));
    assert!(matches!(
        bad("collector:4318"),
        BuildError::InvalidEndpoint(_)
    ));
    assert!(matches!(
        bad("http://:4318/v1/metrics"),
        BuildError::InvalidEndpoint(_)
    ));
    assert!(matches!(
        bad("http://host:port/v1/metrics"),
        BuildError::InvalidEndpoint(_)
    ));
    assert!(OtlpPush::new("http://h:1/v1/metrics", Duration::ZERO).is_err());
    assert!(matches!(
        bad("http://[::1]x/v1/metrics"),
        BuildError::InvalidEndpoint(_)
    ));
    let second = Duration::from_secs(1);
    let v6 = OtlpPush::new("http://[::1]/v1/metrics", second).unwrap();
    assert_eq!(
        v6,
        OtlpPush::new("http://[::1]:80/v1/metrics", second).unwrap()
    );
    assert_ne!(
        v6,
        OtlpPush::new("http://[::1]:81/v1/metrics", second).unwrap()
    );
    let ok = OtlpPush::new("http://[::1]:4318/v1/metrics", Duration::from_secs(1)).unwrap();
    assert!(ok.clone().with_header("bad name", "v").is_err());
    assert!(ok.clone().with_header("x", "a\r\nInjected: 1").is_err());
    assert!(ok.with_header("Authorization", "Bearer t").is_ok());
    assert!(PicolloBuilder::new()
        .with_otlp_push("ftp://x", Duration::from_secs(1))
        .is_err());
}
