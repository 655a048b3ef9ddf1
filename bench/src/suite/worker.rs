//! A suite as a worker of another's comparison (`--picollo-worker`): it answers the
//! requests of [`super::protocol`] on its standard input, measuring its own benchmarks with
//! the harness's own steps (the overhead, the batch, the warm-up, the fixed counts, the
//! slots), while the suite that drives it decides the rounds, their order and their offsets
//! for both sides, and judges.

use std::boxed::Box;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::string::{String, ToString};
use std::time::{Duration, Instant};
use std::vec::Vec;

use serde_json::{json, Value};

use super::super::meter::{Meter, Metric};
use super::super::offsets::Offsets;
use super::super::plan::Plan;
use super::super::run::{fixed_counts, measure_side, read_overhead, slot, Spreads, Work};
use super::super::samples::Samples;
use super::protocol::{
    apply_settings, error_reply, metrics_json, reply, reply_line, warm_up_json, PROTOCOL,
};
use super::{unwound, Registered, Suite};

/// The benchmark being measured: its meter and what the steps so far found.
struct Open {
    index: usize,
    plan: Plan,
    meter: Box<dyn Meter>,
    metrics: Vec<Metric>,
    pairs: Vec<u64>,
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

    /// The reply to request `line`; `None` where it asks the worker to quit.
    pub(crate) fn handle(&mut self, line: &str) -> Option<Value> {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return Some(error_reply(&std::format!("not a request ({e}): {line}"))),
        };
        let answer = match request.get("op").and_then(Value::as_str) {
            Some("quit") => return None,
            Some("hello") => Ok(self.hello()),
            Some("open") => self.open(&request),
            Some("batch") => self.batch(&request),
            Some("slot") => self.slot(&request),
            Some("close") => {
                self.open = None;
                Ok(reply("closed", json!({})))
            }
            _ => Err(std::format!("unknown request: {line}")),
        };
        Some(answer.unwrap_or_else(|e| error_reply(&e)))
    }

    fn hello(&self) -> Value {
        let names: Vec<&str> = self.suite.benchmarks.iter().map(|b| &*b.name).collect();
        let fields = json!({
            "protocol": PROTOCOL,
            "suite": self.suite.name,
            "benchmarks": names,
        });
        reply("hello", fields)
    }

    /// Open benchmark `name` with the settings sent: its meter, its read pairs' overhead,
    /// its batch and its warm-up (half the warm-up budget, as each side of a comparison).
    fn open(&mut self, request: &Value) -> Result<Value, String> {
        let name = request
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let benches = &self.suite.benchmarks;
        let index = benches.iter().position(|b| b.name == name);
        let index = index.ok_or_else(|| std::format!("no benchmark named {name:?}"))?;
        let mut plan = self.suite.bench.plan.named(name);
        apply_settings(&mut plan, request.get("settings").unwrap_or(&Value::Null))?;
        plan.check().map_err(|e| e.to_string())?;
        plan.apply_placement().map_err(|e| e.to_string())?;
        let (mut meter, warnings) = self.suite.meter(&plan).map_err(|e| e.to_string())?;
        let metrics = meter.metrics();
        let (overhead, pairs) =
            read_overhead(&mut *meter, metrics.len()).map_err(|e| e.to_string())?;
        let side = SideState {
            k: plan.batch.unwrap_or(1),
            overhead,
            baseline: plan.baseline_of(&metrics),
        };
        let mut open = Open {
            index,
            plan,
            meter,
            metrics,
            pairs,
            side,
        };
        let work = &mut *self.suite.benchmarks[index].work;
        let warm = guarded(name, || {
            let (plan, meter) = (&open.plan, &mut *open.meter);
            open.side.with(work, |side| {
                measure_side(plan, meter, side, plan.warmup / 2)
            })
        })?;
        let fields = json!({
            "batch": open.side.k,
            "warm_up": warm_up_json(&warm),
            "metrics": metrics_json(&open.metrics),
            "warnings": warnings,
            "unoptimized": open.plan.unoptimized,
        });
        self.open = Some(open);
        Ok(reply("opened", fields))
    }

    /// Set the batch both sides run, and measure what a batch of it adds beside its
    /// operations (the fixed counts of exact metrics).
    fn batch(&mut self, request: &Value) -> Result<Value, String> {
        let open = self.open.as_mut().ok_or("batch: no benchmark is open")?;
        let k = request.get("batch").and_then(Value::as_u64);
        open.side.k = k.filter(|k| *k >= 1).ok_or("batch: not a batch size")?;
        let registered: &mut Registered<'a> = &mut self.suite.benchmarks[open.index];
        let (name, work) = (&registered.name, &mut *registered.work);
        guarded(name, || {
            let (metrics, meter) = (&open.metrics, &mut *open.meter);
            open.side
                .with(work, |side| fixed_counts(meter, side, metrics))
        })?;
        let spreads = Spreads {
            pairs: open.pairs.clone(),
            baseline: &open.plan.baseline_spreads(&open.metrics),
        };
        let fields = json!({
            "overhead": open.side.overhead,
            "baseline": open.side.baseline,
            "resolution": spreads.resolutions(&open.metrics, open.side.k),
            "clock": open.meter.clock(),
            "counters_read": open.meter.counters_read(),
        });
        Ok(reply("ready", fields))
    }

    /// One slot: batches until the quota or the time budget, at the offsets sent; their
    /// figures sent back.
    fn slot(&mut self, request: &Value) -> Result<Value, String> {
        let open = self.open.as_mut().ok_or("slot: no benchmark is open")?;
        let number = |key: &str| request.get(key).and_then(Value::as_u64).unwrap_or(0);
        let share = (
            number("quota") as usize,
            Duration::from_nanos(number("budget_ns")),
        );
        let offsets = Offsets {
            frames: number("frames") as usize,
            heap: number("heap") as usize,
        };
        let mut s = Samples::new(&open.plan, open.metrics.len()).map_err(|e| e.to_string())?;
        let registered: &mut Registered<'a> = &mut self.suite.benchmarks[open.index];
        let (name, work) = (&registered.name, &mut *registered.work);
        guarded(name, || {
            let meter = &mut *open.meter;
            let timing = (Instant::now(), true, offsets);
            open.side
                .with(work, |side| slot(meter, side, &mut s, share, timing))
        })?;
        let times: Vec<[u64; 2]> = s.times.iter().map(|&(e, r)| [e, r]).collect();
        let fields = json!({
            "rows": s.rows,
            "floored": s.floored,
            "multiplexed": s.multiplexed,
            "times": times,
        });
        Ok(reply("slot", fields))
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
        let mut side: Work<'_> = super::super::run::Side {
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
        writeln!(output, "\n{}", reply_line(&answer))?;
        output.flush()?;
    }
}
