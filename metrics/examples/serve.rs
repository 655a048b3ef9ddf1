//! A service recording through `metrics::histogram!` into Picollo, then serving scrapes:
//! 20,000 log-normal latencies (median about 3 ms, from a fixed seed) on route `/a`, a
//! counter of them, and one line on standard output (JSON) with the address, the count,
//! the sum and the exact quantiles of the values recorded. It serves until standard input
//! closes. `scripts/prometheus.sh` points a real Prometheus at it.
//!
//! `cargo run -p picollo-metrics --example serve -- [PORT] [COUNT]` (port 0: a free one).

use std::io::Read;

use picollo_metrics::{Layout, Matcher, PicolloBuilder};

mod lognormal;
use lognormal::log_normal;

/// The layout's relative error: what the native quantiles are checked against.
const RELATIVE_ERROR: f64 = 0.01;

/// The `ceil(q·n)`-th smallest value (at least the first).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).max(1);
    sorted[rank - 1]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().map_or(Ok(0), |a| a.parse())?;
    let count: usize = args.next().map_or(Ok(20_000), |a| a.parse())?;
    let layout = Layout::new()
        .with_relative_error(RELATIVE_ERROR)
        .with_range(1e-6, 1e3);
    let handle = PicolloBuilder::new()
        .with_http_listener(([127, 0, 0, 1], port))
        .set_layout_for_metric(Matcher::Suffix("_seconds".into()), layout)?
        .install()?;
    metrics::describe_histogram!("rpc_latency_seconds", "Time to answer an RPC");
    let values = log_normal(0x2545_F491_4F6C_DD1D, (3e-3f64).ln(), count);
    for &x in &values {
        metrics::histogram!("rpc_latency_seconds", "route" => "/a").record(x);
        metrics::counter!("rpc_requests_total", "route" => "/a").increment(1);
    }
    let sum: f64 = values.iter().sum();
    let mut sorted = values;
    sorted.sort_by(f64::total_cmp);
    let quantiles: Vec<String> = [0.5, 0.9, 0.99]
        .iter()
        .map(|&q| format!("\"{q}\": {:?}", quantile(&sorted, q)))
        .collect();
    let addr = handle.http_addr().ok_or("no listener")?;
    println!(
        "{{\"addr\": \"{addr}\", \"count\": {count}, \"sum\": {sum:?}, \"relative_error\": {RELATIVE_ERROR:?}, \"schema\": {}, \"quantiles\": {{{}}}}}",
        layout.native_schema(),
        quantiles.join(", ")
    );
    // Serve until standard input closes (the caller ends the service so).
    std::io::stdin().read_to_end(&mut Vec::new())?;
    Ok(())
}
