//! What a record costs through the `metrics` facade: Picollo's recorder (the default
//! double layout, interlocked, and `Layout::integers(1e9)`, thread-local shards) against
//! `metrics-exporter-prometheus`'s own histogram handle, on the same log-normal values,
//! from 1 and 2 threads. Rounds interleave the two (A, B, B, A, …) so that a drift of the
//! machine lands on both; each round times every value once per thread. Prints ns per record
//! (median of the rounds) and the median of the rounds' ratios; asserts nothing.
//!
//! `cargo run --release -p picollo-metrics --example cost -- [ROUNDS] [VALUES]`

use std::time::Instant;

use metrics::{Key, Label, Level, Metadata, Recorder};

mod lognormal;

const META: Metadata<'static> = Metadata::new("cost", Level::INFO, None);

/// Seconds to record every value `threads` times at once through `h` (one pass a thread).
fn pass(h: &metrics::Histogram, values: &[f64], threads: usize) -> f64 {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| values.iter().for_each(|&x| h.record(x)));
        }
    });
    start.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// `(picollo ns/record, peer ns/record, median ratio)` over `rounds` interleaved rounds.
fn compare(
    picollo: &metrics::Histogram,
    peer: &metrics::Histogram,
    values: &[f64],
    threads: usize,
    rounds: usize,
) -> (f64, f64, f64) {
    let per_record = |s: f64| s * 1e9 / (values.len() * threads) as f64;
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (x, y) = if round % 2 == 0 {
            let x = pass(picollo, values, threads);
            (x, pass(peer, values, threads))
        } else {
            let y = pass(peer, values, threads);
            (pass(picollo, values, threads), y)
        };
        a.push(per_record(x));
        b.push(per_record(y));
        ratios.push(x / y);
    }
    (median(a), median(b), median(ratios))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(Ok(11), |a| a.parse())?;
    let count: usize = args.next().map_or(Ok(200_000), |a| a.parse())?;
    let values = lognormal::log_normal(0x9E37_79B9_7F4A_7C15, (3e-3f64).ln(), count);
    let key = Key::from_parts("rpc_latency_seconds", vec![Label::new("route", "/a")]);
    let ours = picollo_metrics::PicolloBuilder::new().build_recorder();
    let integers = picollo_metrics::PicolloBuilder::new()
        .set_default_layout(picollo_metrics::Layout::integers(1e9))?
        .build_recorder();
    let theirs = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
    let picollo = ours.register_histogram(&key, &META);
    let thread_local = integers.register_histogram(&key, &META);
    let peer = theirs.register_histogram(&key, &META);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "record through the metrics facade ({count} log-normal values a pass, {rounds} rounds; load {})",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    println!("| picollo-metrics layout | threads | picollo-metrics ns/record | metrics-exporter-prometheus 0.18.3 ns/record | ratio (median of rounds) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (layout, h) in [
        ("doubles, interlocked", &picollo),
        ("integers, thread-local", &thread_local),
    ] {
        for threads in [1, 2] {
            let (a, b, r) = compare(h, &peer, &values, threads, rounds);
            println!("| {layout} | {threads} | {a:.2} | {b:.2} | {r:.2} |");
        }
    }
    // Through the macro: each `histogram!` evaluated registers (a lookup of its key).
    let per_record = |s: f64| s * 1e9 / count as f64;
    let macro_pass = |r: &dyn Recorder| {
        let start = Instant::now();
        metrics::with_local_recorder(r, || {
            for &x in &values {
                metrics::histogram!("rpc_latency_seconds", "route" => "/a").record(x);
            }
        });
        start.elapsed().as_secs_f64()
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        a.push(per_record(macro_pass(&ours)));
        b.push(per_record(macro_pass(&theirs)));
    }
    println!(
        "through `histogram!` (a registration lookup each): picollo-metrics {:.2} ns/record, metrics-exporter-prometheus {:.2}",
        median(a),
        median(b)
    );
    // Both recorders saw every value (not timed): a scrape of ours reads them all back.
    let seen = ours.handle().render();
    let expected = format!(
        "rpc_latency_seconds_count{{route=\"/a\"}} {:?}\n",
        (count * rounds * 4) as f64
    );
    println!(
        "picollo-metrics counted every record: {}",
        seen.contains(&expected)
    );
    Ok(())
}
