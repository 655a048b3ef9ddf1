//! The measuring loop: the read-pair overhead, the batch size, the warm-up, then the
//! samples, each a batch whose per-operation figures go into every metric's histogram; and
//! the interleaved rounds of a comparison.

use std::time::{Duration, Instant};
use std::vec;
use std::vec::Vec;

use super::conditions::WarmUp;
use super::draws::Draws;
use super::engine::{run_rounds, RoundRobin, Turn};
use super::floor::{quartile_deviation, resolution};
use super::meter::{time_index, Measured, Meter, Metric, MetricKind, SCALE};
use super::offsets::Offsets;
use super::pause;
use super::plan::{Plan, MAX_BATCH};
use super::result::{BenchResult, Parts};
use super::samples::Samples;
use crate::error::BenchError;
use crate::stats::upper_median as median;

/// Empty read pairs the overhead is the median of.
const OVERHEAD_PAIRS: usize = 101;
/// Tries of an exact metric's fixed part that must give one whole count ...
const AGREE: usize = 3;
/// ... within at most this many tries.
const FIXED_TRIES: usize = 9;
/// A batch whose counter reads raced the kernel ([`Meter::raced`]) is measured again, at
/// most this many times; the last is kept as it is.
const RACED_AGAIN: usize = 3;
/// Batches per warm-up window.
const WINDOW: usize = 10;
/// The warm-up ends when the medians of two windows in a row differ by less than this.
pub const WARMUP_STABLE: f64 = 0.02;

/// One batch of `k` operations measured into `out` (again where its counter reads raced the
/// kernel: [`RACED_AGAIN`]). Never inlined, so that every batch of a
/// run executes the same code between the meter's two reads: inlined into its callers, the
/// compiler put a constant's load inside the window in one and outside it in another (one
/// instruction, which an exact metric counts, and a per-operation figure of 3,007 − 1/k).
#[inline(never)]
fn batch<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    meter: &mut M,
    f: &mut F,
    k: u64,
    out: &mut [Measured],
) -> Result<(), BenchError> {
    for again in (0..=RACED_AGAIN).rev() {
        meter.start()?;
        f(k);
        meter.stop(out)?;
        if again == 0 || !meter.raced() {
            break;
        }
    }
    Ok(())
}

/// Per metric, the median change over empty read pairs (what a batch's figures lose), and
/// its quartile deviation (how far a batch's figures stray from it with no work at all).
pub fn read_overhead<M: Meter + ?Sized>(
    meter: &mut M,
    metrics: usize,
) -> Result<(Vec<u64>, Vec<u64>), BenchError> {
    let mut out = vec![Measured::default(); metrics];
    let mut seen = vec![Vec::with_capacity(OVERHEAD_PAIRS); metrics];
    for _ in 0..OVERHEAD_PAIRS {
        batch(meter, &mut |_| {}, 0, &mut out)?;
        for (s, o) in seen.iter_mut().zip(&out) {
            s.push(o.value);
        }
    }
    let spread = seen.iter_mut().map(|s| quartile_deviation(s)).collect();
    Ok((seen.iter_mut().map(|s| median(s)).collect(), spread))
}

/// `(value − overhead) / k`: one operation's share of a batch.
pub fn per_op(value: u64, overhead: u64, k: u64) -> u64 {
    value.saturating_sub(overhead) / k.max(1)
}

/// `(value − overhead) / k − baseline`, floored at 0, and whether it was: what was
/// subtracted exceeded what the batch measured.
pub fn net(value: u64, overhead: u64, k: u64, baseline: u64) -> (u64, bool) {
    let op = per_op(value, overhead, k);
    (
        op.saturating_sub(baseline),
        value < overhead || op < baseline,
    )
}

/// The smallest batch whose read-pair overhead is at most 1 % of it and that spans at least
/// a thousand of the clock's steps ([`Meter::clock_step`]), so that neither moves a batch's
/// figure by more than a part in a hundred, or in a thousand: batches double until one takes
/// that long ([`least_batch_time`]), then `k = ⌈least / cost of one op⌉`. An overhead and a
/// step of 0 give 1.
pub fn choose_batch<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    meter: &mut M,
    f: &mut F,
    time_overhead: u64,
    metrics: usize,
) -> Result<u64, BenchError> {
    let least = least_batch_time(time_overhead, meter.clock_step());
    if least == 0 {
        return Ok(1);
    }
    let time = time_index(&meter.metrics());
    let mut out = vec![Measured::default(); metrics];
    let mut n = 1u64;
    loop {
        let mut times = [0u64; 3];
        for t in &mut times {
            batch(meter, f, n, &mut out)?;
            *t = out[time].value.saturating_sub(time_overhead);
        }
        let t = median(&mut times);
        if t >= least || n >= MAX_BATCH {
            let op = (t / n).max(1);
            return Ok(least.div_ceil(op).clamp(1, MAX_BATCH));
        }
        n *= 2;
    }
}

/// The least time a batch takes: 100 times the read pair's overhead, and 1,000 times the
/// clock's step (both in the same unit).
pub fn least_batch_time(time_overhead: u64, clock_step: u64) -> u64 {
    (100 * time_overhead).max(1_000 * clock_step)
}

/// Warm up in windows of batches until two windows' median per-op times differ by less
/// than [`WARMUP_STABLE`], or `budget` is spent (then `converged` is false).
pub fn warm_up<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    meter: &mut M,
    f: &mut F,
    k: u64,
    overhead: u64,
    metrics: usize,
    budget: Duration,
) -> Result<WarmUp, BenchError> {
    let start = Instant::now();
    let time = time_index(&meter.metrics());
    let mut out = vec![Measured::default(); metrics];
    let mut w = WarmUp::default();
    let mut previous: Option<u64> = None;
    loop {
        let mut window = [0u64; WINDOW];
        for t in &mut window {
            batch(meter, f, k, &mut out)?;
            *t = per_op(out[time].value, overhead, k);
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

/// One side of a measurement: its work, its batch and the figures subtracted from it (per
/// metric, a batch's overhead; per operation, the baseline).
pub(crate) struct Side<'a, F: ?Sized> {
    pub work: &'a mut F,
    pub k: u64,
    pub overhead: Vec<u64>,
    pub baseline: &'a [u64],
}

/// What a side's figures had subtracted, and how finely they can be told from nothing:
/// per metric, the read pairs' quartile deviation and the baseline's.
pub(crate) struct Spreads {
    pub pairs: Vec<u64>,
    pub baseline: Vec<u64>,
}

impl Spreads {
    /// Per metric, the resolution of figures of batch `k` ([`resolution`]).
    pub(crate) fn resolutions(&self, metrics: &[Metric], k: u64) -> Vec<u64> {
        let each = metrics.iter().zip(&self.pairs).zip(&self.baseline);
        each.map(|((m, &p), &b)| resolution(m, p, k, b)).collect()
    }
}

/// What a run reads before its first batch: its metrics, the read pair's overhead of each,
/// the baseline subtracted from each, and how finely their figures can be told from nothing.
pub(crate) struct Calibration {
    pub metrics: Vec<Metric>,
    pub overhead: Vec<u64>,
    pub baseline: Vec<u64>,
    pub spreads: Spreads,
}

/// `meter`'s [`Calibration`] under `plan`.
pub(crate) fn calibrate<M: Meter + ?Sized>(
    plan: &Plan,
    meter: &mut M,
) -> Result<Calibration, BenchError> {
    let metrics = meter.metrics();
    let (overhead, pairs) = read_overhead(meter, metrics.len())?;
    // A time is known to within the clock's step, however alike the read pairs came out.
    let time = time_index(&metrics);
    let mut pairs = pairs;
    pairs[time] = pairs[time].max(meter.clock_step());
    let spreads = Spreads {
        pairs,
        baseline: plan.baseline_spreads(&metrics),
    };
    Ok(Calibration {
        baseline: plan.baseline_of(&metrics),
        metrics,
        overhead,
        spreads,
    })
}

impl Calibration {
    /// A side of `work` in batches of `k`, its figures less this overhead and baseline.
    fn side<'a, F: ?Sized>(&'a self, work: &'a mut F, k: u64) -> Side<'a, F> {
        Side {
            work,
            k,
            overhead: self.overhead.clone(),
            baseline: &self.baseline,
        }
    }

    /// The result of `side`'s samples `s` under `plan`, read with `meter`, warmed up as
    /// `warm_up` and paired as `pairing`.
    fn result<M: Meter + ?Sized, F: ?Sized>(
        &self,
        (plan, meter): (&Plan, &M),
        side: &Side<'_, F>,
        (warm_up, pairing): (WarmUp, Option<u64>),
        s: Samples,
    ) -> BenchResult {
        let parts = Parts {
            clock: meter.clock(),
            counters_read: meter.counters_read(),
            batch: side.k,
            warm_up,
            pairing,
            resolution: self.spreads.resolutions(&self.metrics, side.k),
        };
        let (metrics, overhead) = (self.metrics.clone(), &side.overhead);
        BenchResult::measured(plan, parts, metrics, overhead, &self.baseline, s)
    }
}

/// Per metric, what a batch of `side`'s work adds beside its operations: the read pair's
/// overhead, and for an exact metric the batch's whole fixed count (the read pair, the call
/// into the work, its loop's setup). A compiled loop over `k` operations may be unrolled,
/// so its count is linear in `k` only within a residue class: batches of `k` and `9k`
/// share one modulo 8, and exact counts give the fixed part as `(9·c(k) − c(9k)) / 8`. A
/// figure less it, over `k`, is then one operation's count, whatever the batch size and
/// whatever code surrounds the work. A try the program disturbs (a first call that binds a
/// symbol, say) gives a value that is not a whole count or differs from the others: tries
/// go on until [`AGREE`] give one whole count, at most [`FIXED_TRIES`]; work whose count
/// varies from operation to operation never agrees, and takes the tries' median, rounded
/// down to a whole count.
pub(crate) fn fixed_counts<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    meter: &mut M,
    side: &mut Side<'_, F>,
    metrics: &[Metric],
) -> Result<(), BenchError> {
    let exact: Vec<usize> = (0..metrics.len())
        .filter(|&i| metrics[i].is_exact())
        .collect();
    if exact.is_empty() {
        return Ok(());
    }
    let n = metrics.len();
    let (mut whole, mut any) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    let (mut one, mut nine) = (vec![Measured::default(); n], vec![Measured::default(); n]);
    for _ in 0..FIXED_TRIES {
        batch(meter, side.work, side.k, &mut one)?;
        batch(meter, side.work, 9 * side.k, &mut nine)?;
        for &i in &exact {
            let d = 9 * i128::from(one[i].value) - i128::from(nine[i].value);
            any[i].push(u64::try_from(d.max(0) / 8).unwrap_or(u64::MAX));
            if d >= 0 && d % (8 * i128::from(SCALE)) == 0 {
                whole[i].push(any[i].last().copied().unwrap_or_default());
            }
        }
        if exact.iter().all(|&i| agreed(&whole[i]).is_some()) {
            break;
        }
    }
    for &i in &exact {
        let fallback = || median(&mut any[i]) / SCALE * SCALE;
        side.overhead[i] = agreed(&whole[i]).unwrap_or_else(fallback);
    }
    Ok(())
}

/// The value [`AGREE`] or more of `tries` share, if one is.
fn agreed(tries: &[u64]) -> Option<u64> {
    let count = |v: &u64| tries.iter().filter(|w| *w == v).count();
    tries.iter().find(|v| count(v) >= AGREE).copied()
}

impl<F: FnMut(u64) + ?Sized> Side<'_, F> {
    /// One batch, its per-op figures recorded into `s`.
    fn record<M: Meter + ?Sized>(
        &mut self,
        meter: &mut M,
        s: &mut Samples,
        out: &mut [Measured],
    ) -> Result<(), BenchError> {
        batch(meter, self.work, self.k, out)?;
        for (i, (o, &c)) in out.iter().zip(&self.overhead).enumerate() {
            let (v, floored) = net(o.value, c, self.k, self.baseline[i]);
            s.histograms[i].record(v);
            s.rows.push(v);
            s.multiplexed[i] |= o.multiplexed;
            let (enabled, running) = &mut s.times[i];
            *enabled = enabled.saturating_add(o.enabled);
            *running = running.saturating_add(o.running);
            s.floored[i] += u64::from(floored);
        }
        Ok(())
    }
}

/// Run batches until the plan's sample count or time budget is reached, cut into
/// its rounds by whichever of the two is further along; `round(i, rounds)` as round `i`
/// (from 0) opens.
pub(crate) fn sample<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    plan: &Plan,
    meter: &mut M,
    side: &mut Side<'_, F>,
    round_opens: &mut dyn FnMut(usize, usize),
) -> Result<Samples, BenchError> {
    let mut s = Samples::new(plan, side.overhead.len())?;
    let mut out = vec![Measured::default(); side.overhead.len()];
    let rounds = plan.run_rounds();
    let (budget, start) = (plan.budget.as_secs_f64(), Instant::now());
    let mut current = usize::MAX;
    for n in 0..plan.samples {
        let elapsed = start.elapsed().as_secs_f64();
        if n >= 1 && elapsed >= budget {
            break;
        }
        let progress = (n as f64 / plan.samples as f64).max(elapsed / budget);
        let round = ((progress * rounds as f64) as usize).min(rounds - 1);
        if round != current {
            s.close_round(elapsed);
            s.open_round(elapsed, false);
            current = round;
            round_opens(round, rounds);
        }
        side.record(meter, &mut s, &mut out)?;
    }
    s.close_round(start.elapsed().as_secs_f64());
    Ok(s)
}

/// The measured parts of one side: the batch, the warm-up, then its samples.
pub(crate) fn measure_side<M: Meter + ?Sized, F: FnMut(u64) + ?Sized>(
    plan: &Plan,
    meter: &mut M,
    side: &mut Side<'_, F>,
    warmup: Duration,
) -> Result<WarmUp, BenchError> {
    let metrics = side.overhead.len();
    let time_overhead = side.overhead[time_index(&meter.metrics())];
    if plan.batch.is_none() {
        side.k = choose_batch(meter, side.work, time_overhead, metrics)?;
    }
    warm_up(meter, side.work, side.k, time_overhead, metrics, warmup)
}

/// The whole run with `meter`: overhead, batch, warm-up, samples.
pub fn run<M: Meter + ?Sized, F: FnMut(u64)>(
    plan: &Plan,
    meter: &mut M,
    f: F,
) -> Result<BenchResult, BenchError> {
    run_watched(plan, meter, f, &mut |_, _| {})
}

/// [`run`], calling `round_opens(i, rounds)` as its round `i` (from 0) opens: a suite's
/// live line.
pub(crate) fn run_watched<M: Meter + ?Sized, F: FnMut(u64)>(
    plan: &Plan,
    meter: &mut M,
    mut f: F,
    round_opens: &mut dyn FnMut(usize, usize),
) -> Result<BenchResult, BenchError> {
    let c = calibrate(plan, meter)?;
    let pauses = pause::pauses();
    let mut side = c.side(&mut f, plan.batch.unwrap_or(1));
    let warm = measure_side(plan, meter, &mut side, plan.warmup)?;
    fixed_counts(meter, &mut side, &c.metrics)?;
    let s = sample(plan, meter, &mut side, round_opens)?;
    let mut r = c.result((plan, meter), &side, (warm, None), s);
    if pause::pauses() != pauses {
        note_paused(&mut r);
    }
    Ok(r)
}

/// The warning of a result whose work paused the clock ([`crate::pause`]) while counters
/// beside time counted on: they include the paused work.
fn note_paused(r: &mut BenchResult) {
    let others = r
        .metrics
        .iter()
        .filter(|m| m.metric.kind != MetricKind::Time);
    let names: Vec<&str> = others.map(|m| m.metric.name.as_str()).collect();
    if names.is_empty() {
        return;
    }
    let names = names.join(", ");
    r.conditions.warnings.push(std::format!(
        "the benchmark paused its clock: time leaves the paused stretches out, but {names} \
         count them (read at a batch's ends only)"
    ));
}

/// A side of an interleaved comparison, its work behind a reference to `dyn FnMut` (one
/// indirect call a batch).
pub(crate) type Work<'a> = Side<'a, dyn FnMut(u64) + 'a>;

/// One turn of an interleaved round: batches of `side` until `quota` samples or `budget`
/// (at least one), into `s`, timed from `t0`.
pub(crate) fn turn<M: Meter + ?Sized>(
    meter: &mut M,
    side: &mut Work<'_>,
    s: &mut Samples,
    (quota, budget): (usize, Duration),
    (t0, first, offsets): (Instant, bool, Offsets),
) -> Result<(), BenchError> {
    let mut out = vec![Measured::default(); side.overhead.len()];
    let start = Instant::now();
    s.open_round((start - t0).as_secs_f64(), first);
    let batches = || {
        for n in 0..quota.max(1) {
            if n >= 1 && start.elapsed() >= budget {
                break;
            }
            side.record(meter, s, &mut out)?;
        }
        Ok::<(), BenchError>(())
    };
    offsets.apply(batches)?;
    s.close_round(t0.elapsed().as_secs_f64());
    Ok(())
}

/// The two sides of an interleaved comparison as the engine's participants: each turn
/// runs batches of one side for its share of the samples and the time budget, at stack and
/// heap offsets of its own (unless the plan keeps them fixed).
struct Pair<'p, 'w, 'f, M: ?Sized> {
    plan: &'p Plan,
    meter: &'p mut M,
    sides: [&'w mut Work<'f>; 2],
    samples: [Samples; 2],
    /// Each side's offsets for the round being run.
    offsets: [Offsets; 2],
    share: (usize, Duration),
    t0: Instant,
}

impl<M: Meter + ?Sized> RoundRobin for Pair<'_, '_, '_, M> {
    type Error = BenchError;

    fn order(&mut self, draws: &mut Draws) -> Vec<usize> {
        draw_order(self.plan, draws, &mut self.offsets)
    }

    fn turn(&mut self, at: Turn, _: &mut Draws) -> Result<bool, BenchError> {
        let i = at.participant;
        let timing = (self.t0, at.first, self.offsets[i]);
        turn(
            self.meter,
            self.sides[i],
            &mut self.samples[i],
            self.share,
            timing,
        )?;
        Ok(true)
    }
}

/// The draws of a round of an interleaved comparison: its order (for two sides a fair coin
/// for which goes first; for more, a shuffle of them all), then each participant's offsets
/// (fixed where the plan keeps them so).
pub(crate) fn draw_order(plan: &Plan, draws: &mut Draws, offsets: &mut [Offsets]) -> Vec<usize> {
    let order = match offsets.len() {
        2 => match draws.coin() {
            true => vec![0, 1],
            false => vec![1, 0],
        },
        n => draws.shuffled(n),
    };
    for o in offsets {
        *o = match plan.random_offsets {
            true => Offsets::draw(draws),
            false => Offsets::default(),
        };
    }
    order
}

/// The rounds of an interleaved comparison ([`run_rounds`]): in each, both sides back to
/// back in an order drawn from `draws`.
fn rounds<'f, M: Meter + ?Sized>(
    plan: &Plan,
    meter: &mut M,
    (a, b): (&mut Work<'f>, &mut Work<'f>),
    draws: &mut Draws,
) -> Result<(Samples, Samples), BenchError> {
    let metrics = a.overhead.len();
    let r = plan.comparison_rounds();
    let mut pair = Pair {
        plan,
        meter,
        sides: [a, b],
        samples: [Samples::new(plan, metrics)?, Samples::new(plan, metrics)?],
        offsets: [Offsets::default(); 2],
        share: plan.slot_share(r, 2),
        t0: Instant::now(),
    };
    run_rounds(&mut pair, 0..r, draws)?;
    let [sa, sb] = pair.samples;
    Ok((sa, sb))
}

/// Both sides of an interleaved comparison made ready: each one's batch and warm-up (half
/// the warm-up budget each), one batch size for both, then each one's fixed counts.
fn prepare<M: Meter + ?Sized>(
    plan: &Plan,
    meter: &mut M,
    (a, b): (&mut Work<'_>, &mut Work<'_>),
    metrics: &[Metric],
) -> Result<[WarmUp; 2], BenchError> {
    let warmup = plan.warmup / 2;
    let warm = [
        measure_side(plan, meter, a, warmup)?,
        measure_side(plan, meter, b, warmup)?,
    ];
    let k = plan.common_batch(a.k, b.k);
    (a.k, b.k) = (k, k);
    fixed_counts(meter, a, metrics)?;
    fixed_counts(meter, b, metrics)?;
    Ok(warm)
}

/// An interleaved comparison with `meter`: the overhead, each side's batch and warm-up
/// (half the warm-up budget each; both then run the larger batch), then the rounds; the two
/// results share a pairing.
pub fn interleave<M: Meter + ?Sized, FA: FnMut(u64), FB: FnMut(u64)>(
    plan: &Plan,
    meter: &mut M,
    (name_a, mut fa): (&str, FA),
    (name_b, mut fb): (&str, FB),
) -> Result<(BenchResult, BenchResult), BenchError> {
    let c = calibrate(plan, meter)?;
    let k = plan.batch.unwrap_or(1);
    let mut a: Work<'_> = c.side(&mut fa, k);
    let mut b: Work<'_> = c.side(&mut fb, k);
    let warm = prepare(plan, meter, (&mut a, &mut b), &c.metrics)?;
    let mut draws = Draws::new(plan.seed);
    let pairing = Some(draws.pairing());
    let (sa, sb) = rounds(plan, meter, (&mut a, &mut b), &mut draws)?;
    let result = |name: &str, side: &Work<'_>, warm_up, s| {
        let named = plan.named(name);
        c.result((&named, &*meter), side, (warm_up, pairing), s)
    };
    Ok((
        result(name_a, &a, warm[0], sa),
        result(name_b, &b, warm[1], sb),
    ))
}
