//! A suite as a worker of another's comparison (`--picollo-worker`): it answers the
//! requests of [`crate::model::protocol`] on its standard input, measuring its own benchmarks with
//! the harness's own steps (the overhead, the batch, the warm-up, the fixed counts, the
//! turns), while the suite that drives it decides the rounds, their order and their offsets
//! for both sides, and judges.

use std::boxed::Box;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::string::{String, ToString};
use std::time::{Duration, Instant};
use std::vec::Vec;

use super::{unwound, Registered, Suite};
use crate::measure::meter::{Meter, Metric};
use crate::measure::offsets::Offsets;
use crate::measure::plan::Plan;
use crate::measure::run::{calibrate, fixed_counts, measure_side, turn, Spreads, Work};
use crate::measure::samples::Samples;
use crate::model::{Answer, Hello, Opened, Ready, Reply, Request, Settings, TurnFigures, PROTOCOL};

/// The benchmark being measured: its meter and what the steps so far found.
struct Open {
    index: usize,
    plan: Plan,
    meter: Box<dyn Meter>,
    metrics: Vec<Metric>,
    spreads: Spreads,
    side: SideState,
}

/// A side's batch and what is subtracted from its figures, kept between requests.
struct SideState {
    k: u64,
    overhead: Vec<u64>,
    baseline: Vec<u64>,
}

/// A suite answering requests.
pub(crate) struct Worker<'s, 'a> {
    suite: &'s mut Suite<'a>,
    open: Option<Open>,
}

/// `f`, with a panic (or a failure) turned into an error that names the benchmark.
fn guarded<T>(name: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(std::format!(
            "benchmark {name:?} {}",
            unwound::described(&*p)
        )),
    }
}

impl<'s, 'a> Worker<'s, 'a> {
    pub(crate) fn new(suite: &'s mut Suite<'a>) -> Self {
        Worker { suite, open: None }
    }

    /// The answer to request `line`; `None` where it asks the worker to quit.
    pub(crate) fn handle(&mut self, line: &str) -> Option<Answer> {
        let request = match Request::read(line) {
            Ok(request) => request,
            Err(why) => return Some(Answer::error(why)),
        };
        let reply = match request {
            Request::Quit => return None,
            Request::Hello { .. } => Ok(Reply::Hello(self.hello())),
            Request::Open { name, settings } => self.open(&name, &settings).map(Reply::Opened),
            Request::Batch { batch } => self.batch(batch).map(Reply::Ready),
            Request::Turn {
                quota,
                budget_ns,
                frames,
                heap,
            } => {
                let offsets = Offsets {
                    frames: frames as usize,
                    heap: heap as usize,
                };
                let share = (quota as usize, Duration::from_nanos(budget_ns));
                self.turn(share, offsets).map(Reply::Turn)
            }
            Request::Close => {
                self.open = None;
                Ok(Reply::Closed)
            }
        };
        Some(reply.map_or_else(Answer::error, Answer::Reply))
    }

    fn hello(&self) -> Hello {
        let names = self.suite.benchmarks.iter().map(|b| b.name.clone());
        Hello {
            protocol: PROTOCOL,
            suite: self.suite.name.to_string(),
            benchmarks: names.collect(),
        }
    }

    /// Open benchmark `name` with the settings sent: its meter, its read pairs' overhead,
    /// its batch and its warm-up (half the warm-up budget, as each side of a comparison).
    fn open(&mut self, name: &str, settings: &Settings) -> Result<Opened, String> {
        let benches = &self.suite.benchmarks;
        let index = benches.iter().position(|b| b.name == name);
        let index = index.ok_or_else(|| std::format!("no benchmark named {name:?}"))?;
        let mut plan = self.suite.bench.plan.named(name);
        settings.apply(&mut plan)?;
        let plan = self.suite.with_fixed_batch(plan);
        plan.check().map_err(|e| e.to_string())?;
        plan.apply_placement().map_err(|e| e.to_string())?;
        let (mut meter, warnings) = self.suite.meter(&plan).map_err(|e| e.to_string())?;
        let c = calibrate(&plan, &mut *meter).map_err(|e| e.to_string())?;
        let side = SideState {
            k: plan.batch.unwrap_or(1),
            overhead: c.overhead,
            baseline: c.baseline,
        };
        let mut open = Open {
            index,
            plan,
            meter,
            metrics: c.metrics,
            spreads: c.spreads,
            side,
        };
        let work = &mut *self.suite.benchmarks[index].work;
        let warm = guarded(name, || {
            let (plan, meter) = (&open.plan, &mut *open.meter);
            open.side.with(work, |side| {
                measure_side(plan, meter, side, plan.warmup / 2)
            })
        })?;
        let opened = Opened {
            batch: open.side.k,
            warm_up: warm,
            metrics: open.metrics.clone(),
            warnings,
            unoptimized: open.plan.unoptimized.clone(),
        };
        self.open = Some(open);
        Ok(opened)
    }

    /// Set the batch both sides run, and measure what a batch of it adds beside its
    /// operations (the fixed counts of exact metrics).
    fn batch(&mut self, k: u64) -> Result<Ready, String> {
        let open = self.open.as_mut().ok_or("batch: no benchmark is open")?;
        open.side.k = Some(k)
            .filter(|k| *k >= 1)
            .ok_or("batch: not a batch size")?;
        let registered: &mut Registered<'a> = &mut self.suite.benchmarks[open.index];
        let (name, work) = (&registered.name, &mut *registered.work);
        guarded(name, || {
            let (metrics, meter) = (&open.metrics, &mut *open.meter);
            open.side
                .with(work, |side| fixed_counts(meter, side, metrics))
        })?;
        Ok(Ready {
            overhead: open.side.overhead.clone(),
            baseline: open.side.baseline.clone(),
            resolution: open.spreads.resolutions(&open.metrics, open.side.k),
            clock: open.meter.clock(),
            counters_read: open.meter.counters_read(),
        })
    }

    /// One turn: batches until the quota or the time budget, at the offsets sent; their
    /// figures sent back.
    fn turn(&mut self, share: (usize, Duration), offsets: Offsets) -> Result<TurnFigures, String> {
        let open = self.open.as_mut().ok_or("turn: no benchmark is open")?;
        let mut s = Samples::new(&open.plan, open.metrics.len()).map_err(|e| e.to_string())?;
        let registered: &mut Registered<'a> = &mut self.suite.benchmarks[open.index];
        let (name, work) = (&registered.name, &mut *registered.work);
        guarded(name, || {
            let meter = &mut *open.meter;
            let timing = (Instant::now(), true, offsets);
            open.side
                .with(work, |side| turn(meter, side, &mut s, share, timing))
        })?;
        Ok(TurnFigures {
            rows: s.rows,
            floored: s.floored,
            multiplexed: s.multiplexed,
            times: s.times,
        })
    }
}

impl SideState {
    /// `f` of the benchmark's side (`work`, this batch and this overhead); the batch and
    /// the overhead the step leaves are kept.
    fn with<T>(
        &mut self,
        work: &mut (dyn FnMut(u64) + '_),
        f: impl FnOnce(&mut Work<'_>) -> Result<T, super::super::BenchError>,
    ) -> Result<T, String> {
        let mut side: Work<'_> = crate::measure::run::Side {
            work,
            k: self.k,
            overhead: core::mem::take(&mut self.overhead),
            baseline: &self.baseline,
        };
        let r = f(&mut side);
        (self.k, self.overhead) = (side.k, side.overhead);
        r.map_err(|e| e.to_string())
    }
}

/// Serve requests from `input` until `quit` or its end, each reply a line on `output`.
pub(crate) fn serve(
    suite: &mut Suite<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    let mut worker = Worker::new(suite);
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let Some(answer) = worker.handle(line.trim_end()) else {
            return Ok(());
        };
        // A line of its own, whatever a benchmark left unfinished on the same stream.
        writeln!(output, "\n{}", answer.line())?;
        output.flush()?;
    }
}
