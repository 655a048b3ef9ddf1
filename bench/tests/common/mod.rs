//! What the simulated-verdict tests share: normal draws and one-metric results made from
//! rows of times.

use picollo_bench::{Bench, BenchResult, Metric, MetricKind, Unit, WarmUp};

#[path = "../../../core/benches/splitmix/mod.rs"]
mod splitmix;
pub use splitmix::SplitMix64;

/// A standard normal draw (Box–Muller).
pub fn normal(rng: &mut SplitMix64) -> f64 {
    let (a, b) = (1.0 - rng.next_f64(), rng.next_f64());
    (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
}

/// A result named `name` of one time metric, a round per row (nanoseconds × 1000).
#[allow(dead_code)]
pub fn time_result(name: &str, rows: Vec<u64>) -> BenchResult {
    let metric = Metric::new("time", Unit::parse("ns").unwrap(), MetricKind::Time);
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    BenchResult::from_rows(
        &Bench::new(name),
        vec![metric],
        rows,
        "test".into(),
        warm_up,
    )
    .unwrap()
}
