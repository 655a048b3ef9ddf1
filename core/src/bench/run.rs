//! The measuring loop: the read-pair overhead, the batch size, the warm-up, then the
//! samples, each a batch whose per-operation figures go into every metric's histogram.

use std::time::{Duration, Instant};
use std::vec;
use std::vec::Vec;

use super::meter::{Measured, Meter};
use super::result::{BenchResult, MetricResult};
use super::{Bench, BenchError};
use crate::{Config, Histogram};

/// The largest batch the automatic choice picks.
pub const MAX_BATCH: u64 = 1 << 24;
/// Empty read pairs the overhead is the median of.
const OVERHEAD_PAIRS: usize = 101;
/// Batches per warm-up window.
const WINDOW: usize = 10;
/// The warm-up ends when the medians of two windows in a row differ by less than this.
pub const WARMUP_STABLE: f64 = 0.02;

/// What the warm-up found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WarmUp {
    /// Batches run.
    pub batches: u64,
    /// The medians of the last two windows differed by less than 2 %.
    pub converged: bool,
    /// Their relative difference.
    pub last_change: f64,
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

/// One batch of `k` operations measured into `out`.
fn batch<M: Meter + ?Sized, F: FnMut(u64)>(
    meter: &mut M,
    f: &mut F,
    k: u64,
    out: &mut [Measured],
) -> Result<(), BenchError> {
    meter.start()?;
    f(k);
    meter.stop(out)
}

/// Per metric, the median change over empty read pairs: what a batch's figures lose.
pub fn read_overhead<M: Meter + ?Sized>(
    meter: &mut M,
    metrics: usize,
) -> Result<Vec<u64>, BenchError> {
    let mut out = vec![Measured::default(); metrics];
    let mut seen = vec![Vec::with_capacity(OVERHEAD_PAIRS); metrics];
    for _ in 0..OVERHEAD_PAIRS {
        batch(meter, &mut |_| {}, 0, &mut out)?;
        for (s, o) in seen.iter_mut().zip(&out) {
            s.push(o.value);
        }
    }
    Ok(seen.iter_mut().map(|s| median(s)).collect())
}

/// `(value − overhead) / k`: one operation's share of a batch.
pub fn per_op(value: u64, overhead: u64, k: u64) -> u64 {
    value.saturating_sub(overhead) / k.max(1)
}

/// The smallest batch whose read-pair overhead is at most 1 % of it: batches double until
/// one takes 100 × the overhead, then `k = ⌈100 · overhead / cost of one op⌉`. An overhead of
/// 0 gives 1.
pub fn choose_batch<M: Meter + ?Sized, F: FnMut(u64)>(
    meter: &mut M,
    f: &mut F,
    time_overhead: u64,
    metrics: usize,
) -> Result<u64, BenchError> {
    if time_overhead == 0 {
        return Ok(1);
    }
    let mut out = vec![Measured::default(); metrics];
    let mut n = 1u64;
    loop {
        let mut times = [0u64; 3];
        for t in &mut times {
            batch(meter, f, n, &mut out)?;
            *t = out[0].value.saturating_sub(time_overhead);
        }
        let t = median(&mut times);
        if t >= 100 * time_overhead || n >= MAX_BATCH {
            let op = (t / n).max(1);
            return Ok((100 * time_overhead).div_ceil(op).clamp(1, MAX_BATCH));
        }
        n *= 2;
    }
}

/// Warm up in windows of batches until two windows' median per-op times differ by less
/// than [`WARMUP_STABLE`], or `budget` is spent (then `converged` is false).
pub fn warm_up<M: Meter + ?Sized, F: FnMut(u64)>(
    meter: &mut M,
    f: &mut F,
    k: u64,
    overhead: u64,
    metrics: usize,
    budget: Duration,
) -> Result<WarmUp, BenchError> {
    let start = Instant::now();
    let mut out = vec![Measured::default(); metrics];
    let mut w = WarmUp::default();
    let mut previous: Option<u64> = None;
    loop {
        let mut window = [0u64; WINDOW];
        for t in &mut window {
            batch(meter, f, k, &mut out)?;
            *t = per_op(out[0].value, overhead, k);
        }
        w.batches += WINDOW as u64;
        let m = median(&mut window);
        if let Some(p) = previous {
            w.last_change = (m as f64 - p as f64).abs() / (p.max(1)) as f64;
            w.converged = w.last_change < WARMUP_STABLE;
        }
        if w.converged || start.elapsed() >= budget {
            return Ok(w);
        }
        previous = Some(m);
    }
}

/// The measured samples: every metric's histogram and each sample's per-op figures.
pub struct Samples {
    /// One histogram per metric.
    pub histograms: Vec<Histogram<u64, Vec<u64>>>,
    /// Per-op figures, metric after metric for each sample.
    pub rows: Vec<u64>,
    /// Per metric: multiplexed in some batch.
    pub multiplexed: Vec<bool>,
}

/// Run batches of `k` until `bench`'s sample count or time budget is reached.
pub fn sample<M: Meter + ?Sized, F: FnMut(u64)>(
    bench: &Bench,
    meter: &mut M,
    f: &mut F,
    k: u64,
    overhead: &[u64],
    baseline: &[u64],
) -> Result<Samples, BenchError> {
    let metrics = overhead.len();
    let config = Config::new().with_relative_error(bench.relative_error);
    let mut s = Samples {
        histograms: (0..metrics)
            .map(|_| config.build())
            .collect::<Result<_, _>>()?,
        rows: Vec::with_capacity(bench.samples.min(1 << 20) * metrics),
        multiplexed: vec![false; metrics],
    };
    let mut out = vec![Measured::default(); metrics];
    let start = Instant::now();
    for n in 0..bench.samples {
        if n >= 1 && start.elapsed() >= bench.budget {
            break;
        }
        batch(meter, f, k, &mut out)?;
        for (i, (o, &c)) in out.iter().zip(overhead).enumerate() {
            let v = per_op(o.value, c, k).saturating_sub(baseline[i]);
            s.histograms[i].record(v);
            s.rows.push(v);
            s.multiplexed[i] |= o.multiplexed;
        }
    }
    Ok(s)
}

/// The whole run with `meter`: overhead, batch, warm-up, samples.
pub fn run<M: Meter + ?Sized, F: FnMut(u64)>(
    bench: &Bench,
    meter: &mut M,
    mut f: F,
) -> Result<BenchResult, BenchError> {
    let metrics = meter.metrics();
    let overhead = read_overhead(meter, metrics.len())?;
    let k = match bench.batch {
        Some(k) => k,
        None => choose_batch(meter, &mut f, overhead[0], metrics.len())?,
    };
    let warm = warm_up(meter, &mut f, k, overhead[0], metrics.len(), bench.warmup)?;
    let baseline = bench.baseline_of(&metrics);
    let s = sample(bench, meter, &mut f, k, &overhead, &baseline)?;
    let results = metrics
        .into_iter()
        .zip(s.histograms)
        .zip(overhead.iter().zip(s.multiplexed).zip(baseline))
        .map(
            |((metric, histogram), ((&overhead, multiplexed), baseline))| MetricResult {
                metric,
                histogram,
                overhead,
                baseline,
                multiplexed,
            },
        );
    Ok(BenchResult::new(
        bench,
        meter.clock(),
        k,
        warm,
        results.collect(),
        s.rows,
    ))
}
