//! Exporting while writers run: `Collect` on an interlocked histogram, the OpenMetrics
//! text and the OTLP protobuf request of a full histogram, and what a collector running
//! back to back costs the writers' records.
//!
//! Workload: a 0.1 % histogram over 1 ns .. 1 h (nanoseconds) holding 10^6 latency-like
//! values, log-normal around 50 µs with a tail to seconds, and two writer threads recording
//! those values in a loop into an [`AtomicHistogram`] (interlocked mode).
//! - `collect`: µs per `collect_into` (caller memory, no allocation) while both writers
//!   record;
//! - `openmetrics`: µs to write the full histogram as an OpenMetrics `histogram` family
//!   (bounds at 5 %, seconds) and `# EOF` into a reused `String`;
//! - `otlp`: µs to re-bin the full histogram into an exponential histogram (scale 9) and
//!   encode an `ExportMetricsServiceRequest` as protobuf;
//! - `record_during_collect`, `record`: ns per record in each of the two writers, with a
//!   third thread collecting back to back, and without it.
//!
//! Each figure is the best of `REPS` batches. `cargo bench -p picollo --bench export`; the
//! last line is `bench export: collect=<µs> openmetrics=<µs> otlp=<µs>
//! record_during_collect=<ns> record=<ns>`.

mod report;

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use picollo::concurrent::{AtomicHistogram, Collect, Source};
use picollo::openmetrics::{Bounds, Family, HistogramOptions, OpenMetricsWriter};
use picollo::otlp::{DataPoint, ExponentialHistogram, Metric, Request, Temporality};
use picollo::{Config, Histogram};

mod common;
use common::{best, values, N, REPS};

const WRITERS: usize = 2;

fn config() -> Config {
    Config::new()
        .with_relative_error(0.001)
        .with_range(1, 3_600_000_000_000)
}

/// ns per record in each of the writers (the mean of the two), best of `REPS` rounds of
/// `N` records each; with `collecting`, a third thread collects back to back meanwhile.
fn record_ns(h: &AtomicHistogram<u64>, vs: &[u64], collecting: bool) -> f64 {
    (0..REPS)
        .map(|_| {
            let done = AtomicBool::new(false);
            std::thread::scope(|s| {
                if collecting {
                    s.spawn(|| {
                        let mut scratch = vec![0u64; h.storage_len()];
                        while !done.load(Ordering::Relaxed) {
                            black_box(h.collect_into(&mut scratch).unwrap());
                        }
                    });
                }
                let writers: Vec<_> = (0..WRITERS)
                    .map(|t| {
                        s.spawn(move || {
                            let start = Instant::now();
                            for &v in &vs[t * 7..] {
                                h.record(v);
                            }
                            start.elapsed().as_secs_f64() * 1e9 / (vs.len() - t * 7) as f64
                        })
                    })
                    .collect();
                let ns: f64 = writers.into_iter().map(|w| w.join().unwrap()).sum();
                done.store(true, Ordering::Relaxed);
                ns / WRITERS as f64
            })
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let vs = values();
    let mut full: Histogram<u64, Vec<u64>> = config().build().unwrap();
    for &v in &vs {
        full.record(v);
    }
    let view = full.view();

    let h = AtomicHistogram::<u64>::new(config()).unwrap();
    let collect = {
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            for t in 0..WRITERS {
                let (h, vs, stop) = (&h, &vs, &stop);
                s.spawn(move || {
                    let mut i = t;
                    while !stop.load(Ordering::Relaxed) {
                        h.record(vs[i % N]);
                        i += 1;
                    }
                });
            }
            let mut scratch = vec![0u64; h.storage_len()];
            let us = best(|| {
                black_box(h.collect_into(&mut scratch).unwrap());
            });
            stop.store(true, Ordering::Relaxed);
            us
        })
    };

    let options = HistogramOptions {
        bounds: Bounds::Coarse(0.05),
        unit_ratio: 1e9,
        created_unix_nanos: Some(1_700_000_000_000_000_000),
    };
    let family = Family::new("request_latency_seconds")
        .with_help("Request latency.")
        .with_unit("seconds");
    let mut text = String::new();
    let openmetrics = best(|| {
        text.clear();
        let mut w = OpenMetricsWriter::new(std::mem::take(&mut text));
        w.histogram(&family, &options)
            .unwrap()
            .point(&[("route", "/pay")], &view)
            .unwrap();
        text = w.finish().unwrap();
        black_box(&text);
    });

    let mut bytes = 0;
    let mut buckets = 0;
    let otlp = best(|| {
        let x = ExponentialHistogram::from_view(&view, 1e9).unwrap();
        let points = [DataPoint {
            attributes: &[("route", "/pay")],
            start_time_unix_nano: 1_700_000_000_000_000_000,
            time_unix_nano: 1_700_000_010_000_000_000,
            histogram: &x,
        }];
        let metrics = [Metric {
            name: "request.latency",
            description: "Request latency.",
            unit: "s",
            temporality: Temporality::Delta,
            points: &points,
        }];
        let request = Request {
            resource: &[("service.name", "bench")],
            scope_name: "picollo",
            scope_version: env!("CARGO_PKG_VERSION"),
            metrics: &metrics,
        };
        let encoded = request.to_protobuf();
        (bytes, buckets) = (encoded.len(), x.bucket_counts.len());
        black_box(encoded);
    });

    let record_during_collect = record_ns(&h, &vs, true);
    let record = record_ns(&h, &vs, false);

    println!(
        "sizes: {} buckets, openmetrics {} bytes ({} lines), otlp {} bytes ({} exponential buckets)",
        view.counts().len(),
        text.len(),
        text.lines().count(),
        bytes,
        buckets
    );
    report::report(&format!("bench export: collect={collect:.1} openmetrics={openmetrics:.1} otlp={otlp:.1} record_during_collect={record_during_collect:.2} record={record:.2}"
    ));
}
