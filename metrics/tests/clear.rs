//! `PicolloHandle::clear` under load: one thread clears the registry over and over while
//! another records through the facade and a third scrapes (text and protobuf). Every
//! scrape parses, no count goes backwards within a series' lifetime (between two clears),
//! nothing panics, and once the clears stop every record is counted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use metrics::{Key, Label, Level, Metadata, Recorder};
use picollo_metrics::{Layout, Matcher, PicolloBuilder, PicolloHandle, PicolloRecorder};

const META: Metadata<'static> = Metadata::new("test", Level::INFO, None);

fn key(name: &str, route: &str) -> Key {
    Key::from_parts(
        name.to_string(),
        vec![Label::new("route", route.to_string())],
    )
}

/// One round of records, as `histogram!(…).record(v)` does (each use registers).
fn record_round(recorder: &PicolloRecorder, k: u64) {
    let route = if k % 2 == 0 { "/a" } else { "/b" };
    let value = (k % 1000) as f64 * 0.001 - 0.1;
    recorder
        .register_histogram(&key("latency", route), &META)
        .record(value);
    recorder
        .register_histogram(&key("wait_seconds", route), &META)
        .record(value.abs());
    recorder
        .register_counter(&key("requests", route), &META)
        .increment(1);
    recorder
        .register_gauge(&key("depth", route), &META)
        .set(value);
}

/// The samples of an OpenMetrics text by name and labels; panics unless every line is a
/// comment or a sample with a number, and the text ends with `# EOF`.
fn parse(text: &str) -> HashMap<String, f64> {
    assert!(text.ends_with("# EOF\n"), "{text}");
    let mut samples = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (series, value) = line.rsplit_once(' ').unwrap();
        let value: f64 = value.parse().unwrap();
        assert!(value.is_finite(), "{line}");
        assert!(
            samples.insert(series.to_string(), value).is_none(),
            "{line} twice"
        );
    }
    samples
}

/// The delimited protobuf body framed into whole messages (each a length then its bytes).
fn frames(body: &[u8]) -> usize {
    let (mut at, mut n) = (0, 0);
    while at < body.len() {
        let (mut len, mut shift) = (0usize, 0);
        loop {
            let b = body[at];
            at += 1;
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        at += len;
        n += 1;
    }
    assert_eq!(at, body.len(), "the last message is whole");
    n
}

/// Scrape until `stop`; compare each scrape with the last one made in the same lifetime
/// (`epoch` even and unchanged across both: no clear began or ended in between).
fn scrape_loop(handle: &PicolloHandle, epoch: &AtomicU64, stop: &AtomicBool) -> u64 {
    let (mut last, mut last_epoch, mut compared) = (HashMap::new(), u64::MAX, 0);
    while !stop.load(Ordering::Acquire) {
        let before = epoch.load(Ordering::Acquire);
        let samples = parse(&handle.render());
        assert!(frames(&handle.render_protobuf()) <= 4);
        let after = epoch.load(Ordering::Acquire);
        if before != after || before % 2 == 1 {
            last_epoch = u64::MAX;
            continue;
        }
        if before == last_epoch {
            // A gauge may fall, and so may the sum of `latency`, whose values have both signs.
            let monotonic = |s: &&String| !s.starts_with("depth") && !s.starts_with("latency_sum");
            for (series, &v) in samples.iter().filter(|(s, _)| monotonic(s)) {
                let was = last.get(series).copied().unwrap_or(0.0);
                assert!(v >= was, "{series} went from {was} to {v}");
                compared += 1;
            }
        }
        (last, last_epoch) = (samples, before);
    }
    compared
}

#[test]
fn scrapes_during_a_clear_storm_parse_and_never_go_backwards() {
    let recorder = PicolloBuilder::new()
        .set_layout_for_metric(Matcher::Suffix("_seconds".into()), Layout::integers(1e9))
        .unwrap()
        .build_recorder();
    let recorder = Arc::new(recorder);
    let handle = recorder.handle();
    let (epoch, stop) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let recording = {
        let (recorder, stop) = (Arc::clone(&recorder), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut k = 0;
            while !stop.load(Ordering::Acquire) {
                record_round(&recorder, k);
                k += 1;
            }
        })
    };
    let scraping = {
        let (handle, epoch, stop) = (handle.clone(), Arc::clone(&epoch), Arc::clone(&stop));
        std::thread::spawn(move || scrape_loop(&handle, &epoch, &stop))
    };
    for _ in 0..300 {
        // Odd while a clear may be under way.
        epoch.fetch_add(1, Ordering::AcqRel);
        handle.clear();
        epoch.fetch_add(1, Ordering::AcqRel);
        std::thread::sleep(std::time::Duration::from_micros(500));
    }
    stop.store(true, Ordering::Release);
    recording.join().unwrap();
    let compared = scraping.join().unwrap();
    println!("series compared between scrapes of one lifetime: {compared}");
    // After the storm: a clear, then every record lands in the new series.
    handle.clear();
    assert_eq!(handle.render(), "# EOF\n");
    (0..1000).for_each(|k| record_round(&recorder, k));
    let samples = parse(&handle.render());
    for route in ["/a", "/b"] {
        let label = format!("{{route=\"{route}\"}}");
        assert_eq!(samples[&format!("requests_total{label}")], 500.0);
        assert_eq!(samples[&format!("latency_count{label}")], 500.0);
        assert_eq!(samples[&format!("wait_seconds_count{label}")], 500.0);
    }
}

#[test]
fn a_clear_forgets_series_and_keeps_descriptions() {
    let recorder = PicolloBuilder::new().build_recorder();
    let handle = recorder.handle();
    metrics::with_local_recorder(&recorder, || {
        metrics::describe_counter!("requests", "Requests served");
        metrics::counter!("requests").increment(3);
        let kept = metrics::counter!("requests");
        handle.clear();
        assert_eq!(handle.render(), "# EOF\n");
        // A handle from before the clear records into a series no scrape reads.
        kept.increment(100);
        metrics::counter!("requests").increment(2);
    });
    let text = handle.render();
    assert!(text.contains("# HELP requests Requests served\n"), "{text}");
    assert!(text.contains("requests_total 2.0\n"), "{text}");
}
