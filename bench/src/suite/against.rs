//! Two builds' suites compared benchmark by benchmark in interleaved rounds: each side, a
//! worker ([`super::endpoint`]), measures its own function with the harness's steps; this
//! side opens both, gives them one batch size, draws each round's order and offsets, pairs
//! the rounds, and judges as [`crate::Bench::compare_fns`] does.

use std::string::{String, ToString};
use std::time::{Duration, Instant};
use std::vec::Vec;

use picollo::concurrent::XorShift64;
use serde_json::{json, Value};

use super::super::conditions::WarmUp;
use super::super::engine::{run_rounds, Rounds, Slot};
use super::super::meter::Metric;
use super::super::offsets::Offsets;
use super::super::plan::Plan;
use super::super::result::{BenchResult, Parts};
use super::super::run::draw_round;
use super::super::samples::{Samples, SlotFigures};
use super::super::verdict::Interleaved;
use super::endpoint::Endpoint;
use super::exit::SuiteError;
use super::outputs::Report;
use super::protocol::{metrics_of, numbers_of, settings_json, warm_up_of, PROTOCOL};

/// The reply of kind `kind` to `request` from `end`: a worker's error reply is the
/// benchmark's failure, any other reply the worker's.
fn expect(
    end: &mut dyn Endpoint,
    request: &Value,
    kind: &str,
    timeout: Duration,
) -> Result<Value, SuiteError> {
    let v = end.call(request, timeout)?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(SuiteError::failed(std::format!("{}: {e}", end.label())));
    }
    match v.get("reply").and_then(Value::as_str) == Some(kind) {
        true => Ok(v),
        false => Err(garbage(end.label(), &v, kind)),
    }
}

/// A reply that is not the one asked for.
fn garbage(label: &str, v: &Value, kind: &str) -> SuiteError {
    SuiteError::worker(std::format!(
        "{label}: answered {v} where a {kind:?} reply was due"
    ))
}

/// The benchmarks `end` has, once its protocol is this one's.
pub(crate) fn hello(end: &mut dyn Endpoint, timeout: Duration) -> Result<Vec<String>, SuiteError> {
    let request = json!({"op": "hello", "protocol": PROTOCOL});
    let v = end.call(&request, timeout)?;
    let theirs = v.get("protocol").and_then(Value::as_u64);
    if v.get("reply").and_then(Value::as_str) != Some("hello") || theirs.is_none() {
        return Err(garbage(end.label(), &v, "hello"));
    }
    if theirs != Some(PROTOCOL) {
        let why = std::format!(
            "{}: the worker speaks protocol {} and this suite {PROTOCOL}: rebuild both with one picollo-bench",
            end.label(),
            theirs.unwrap_or_default()
        );
        return Err(SuiteError::worker(why));
    }
    let names = v.get("benchmarks").and_then(Value::as_array);
    let names = names.map(|n| {
        n.iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect()
    });
    names.ok_or_else(|| garbage(end.label(), &v, "hello"))
}

/// What a side said when it opened a benchmark, and when it took the batch.
struct Opened {
    batch: u64,
    warm: WarmUp,
    metrics: Vec<Metric>,
    warnings: Vec<String>,
    unoptimized: Option<String>,
}

struct Ready {
    overhead: Vec<u64>,
    baseline: Vec<u64>,
    resolution: Vec<u64>,
    clock: String,
    counters_read: Option<String>,
}

fn opened_of(label: &str, v: &Value) -> Result<Opened, SuiteError> {
    let read = || {
        let strings = |x: &Value| x.as_str().map(String::from);
        Some(Opened {
            batch: v.get("batch")?.as_u64()?,
            warm: warm_up_of(v.get("warm_up")?)?,
            metrics: metrics_of(v.get("metrics")?)?,
            warnings: v
                .get("warnings")?
                .as_array()?
                .iter()
                .filter_map(strings)
                .collect(),
            unoptimized: v.get("unoptimized").and_then(strings),
        })
    };
    read().ok_or_else(|| garbage(label, v, "opened"))
}

fn ready_of(label: &str, v: &Value, metrics: usize) -> Result<Ready, SuiteError> {
    let per_metric = |key: &str| numbers_of(v.get(key)).filter(|x| x.len() == metrics);
    let read = || {
        Some(Ready {
            overhead: per_metric("overhead")?,
            baseline: per_metric("baseline")?,
            resolution: per_metric("resolution")?,
            clock: v.get("clock")?.as_str()?.to_string(),
            counters_read: v
                .get("counters_read")
                .and_then(Value::as_str)
                .map(String::from),
        })
    };
    read().ok_or_else(|| garbage(label, v, "ready"))
}

/// A slot reply's figures; an error (naming the worker) where they do not read.
fn figures_of(v: &Value) -> Result<SlotFigures, SuiteError> {
    let read = || {
        let flags = v.get("multiplexed")?.as_array()?.iter().map(Value::as_bool);
        let pair = |x: &Value| Some((x.get(0)?.as_u64()?, x.get(1)?.as_u64()?));
        let times = v.get("times")?.as_array()?.iter().map(pair);
        Some(SlotFigures {
            rows: numbers_of(v.get("rows"))?,
            floored: numbers_of(v.get("floored"))?,
            multiplexed: flags.collect::<Option<Vec<bool>>>()?,
            times: times.collect::<Option<Vec<(u64, u64)>>>()?,
        })
    };
    read().ok_or_else(|| SuiteError::worker(std::format!("a slot reply does not read: {v}")))
}

/// The two sides as the engine's participants: each slot is a request to one side, its
/// figures added to that side's samples.
struct Remote<'p, 'e> {
    plan: &'p Plan,
    ends: [&'e mut dyn Endpoint; 2],
    samples: [Samples; 2],
    offsets: [Offsets; 2],
    share: (usize, Duration),
    t0: Instant,
    timeout: Duration,
}

impl Rounds for Remote<'_, '_> {
    type Error = SuiteError;

    fn order(&mut self, rng: &mut XorShift64) -> Vec<usize> {
        draw_round(self.plan, rng, &mut self.offsets)
    }

    fn slot(&mut self, at: Slot, _: &mut XorShift64) -> Result<bool, SuiteError> {
        let i = at.participant;
        let (quota, budget) = self.share;
        let o = self.offsets[i];
        let request = json!({
            "op": "slot", "quota": quota, "budget_ns": budget.as_nanos() as u64,
            "frames": o.frames, "heap": o.heap,
        });
        let start = self.t0.elapsed().as_secs_f64();
        let end = &mut *self.ends[i];
        let v = expect(end, &request, "slot", budget + self.timeout)?;
        let s = &mut self.samples[i];
        s.open_round(start, at.first);
        s.append(&figures_of(&v)?).map_err(|why| {
            let label = end.label();
            SuiteError::worker(std::format!("{label}: a slot's figures do not read: {why}"))
        })?;
        s.close_round(self.t0.elapsed().as_secs_f64());
        Ok(true)
    }
}

/// Benchmark `name` of both sides (`ends[0]` is A, the base; `ends[1]` is B), compared
/// in interleaved rounds with the settings of `plan`; `labels` name each side's result.
pub(crate) fn compare_one(
    plan: &Plan,
    name: &str,
    ends: [&mut dyn Endpoint; 2],
    timeout: Duration,
) -> Result<Interleaved, SuiteError> {
    let [a, b] = ends;
    let request = json!({"op": "open", "name": name, "settings": settings_json(plan)});
    let wait = plan.warmup + timeout;
    let open = |end: &mut dyn Endpoint| {
        let v = expect(end, &request, "opened", wait)?;
        opened_of(end.label(), &v)
    };
    let opened = [open(&mut *a)?, open(&mut *b)?];
    if opened[0].metrics != opened[1].metrics {
        let names = |o: &Opened| o.metrics.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        let why = std::format!(
            "{name}: the builds measure different metrics ({}: {:?}; {}: {:?})",
            a.label(),
            names(&opened[0]),
            b.label(),
            names(&opened[1])
        );
        return Err(SuiteError::worker(why));
    }
    let k = plan.common_batch(opened[0].batch, opened[1].batch);
    let batch = json!({"op": "batch", "batch": k});
    let n = opened[0].metrics.len();
    let ready = |end: &mut dyn Endpoint| {
        let v = expect(end, &batch, "ready", wait)?;
        ready_of(end.label(), &v, n)
    };
    let ready = [ready(&mut *a)?, ready(&mut *b)?];
    let labels = [
        std::format!("{name} ({})", a.label()),
        std::format!("{name} ({})", b.label()),
    ];
    let (sa, sb, pairing) = rounds(plan, [&mut *a, &mut *b], n, timeout)?;
    let close = json!({"op": "close"});
    expect(a, &close, "closed", timeout)?;
    expect(b, &close, "closed", timeout)?;
    let [oa, ob] = opened;
    let [ra, rb] = ready;
    let ra = result_of(plan, (&labels[0], oa, ra), (k, pairing), sa);
    let rb = result_of(plan, (&labels[1], ob, rb), (k, pairing), sb);
    Ok(Interleaved::new(ra, rb))
}

/// The rounds of a comparison of two opened sides, and their pairing.
fn rounds(
    plan: &Plan,
    ends: [&mut dyn Endpoint; 2],
    metrics: usize,
    timeout: Duration,
) -> Result<(Samples, Samples, Option<u64>), SuiteError> {
    let mut rng = XorShift64::new(plan.seed.unwrap_or_else(picollo::time::ticks_begin));
    let pairing = Some(rng.next() | 1);
    let r = plan.comparison_rounds();
    let new = || Samples::new(plan, metrics).map_err(|e| SuiteError::usage(e.to_string()));
    let mut remote = Remote {
        plan,
        ends,
        samples: [new()?, new()?],
        offsets: [Offsets::default(); 2],
        share: plan.slot_share(r),
        t0: Instant::now(),
        timeout,
    };
    run_rounds(&mut remote, r, &mut rng)?;
    let [sa, sb] = remote.samples;
    Ok((sa, sb, pairing))
}

/// A side's result from what it said and the figures of its slots.
fn result_of(
    plan: &Plan,
    (label, opened, ready): (&str, Opened, Ready),
    (batch, pairing): (u64, Option<u64>),
    s: Samples,
) -> BenchResult {
    let parts = Parts {
        clock: ready.clock,
        counters_read: ready.counters_read,
        batch,
        warm_up: opened.warm,
        pairing,
        resolution: ready.resolution,
    };
    let mut named = plan.named(label);
    named.unoptimized = opened.unoptimized;
    let (overhead, baseline) = (&ready.overhead, &ready.baseline);
    let mut r = BenchResult::measured(&named, parts, opened.metrics, overhead, baseline, s);
    r.conditions.warnings.splice(0..0, opened.warnings);
    r
}

/// Every benchmark both sides have that `selected` names (A's own too, where `select`
/// picks them), compared one after the other; a benchmark of one side only is listed.
pub(crate) fn judge_all(
    plan: &Plan,
    ends: [&mut dyn Endpoint; 2],
    selected: &[String],
    select: &dyn Fn(&str) -> bool,
    timeout: Duration,
) -> Result<Report, SuiteError> {
    let [a, b] = ends;
    let (names_a, names_b) = (hello(a, timeout)?, hello(b, timeout)?);
    let mut report = Report::default();
    for name in names_a.iter().filter(|n| select(n) && !names_b.contains(n)) {
        report.only.push((name.clone(), a.label().to_string()));
    }
    let (common, only_b): (Vec<&String>, Vec<&String>) =
        selected.iter().partition(|n| names_a.contains(n));
    for name in only_b {
        report.only.push((name.clone(), b.label().to_string()));
    }
    if common.is_empty() {
        let why = "the two builds share no selected benchmark: nothing to compare";
        return Err(SuiteError::new(super::exit::Exit::NoMatch, why));
    }
    for name in common {
        match compare_one(&plan.named(name), name, [&mut *a, &mut *b], timeout) {
            Ok(pair) => report.compared.push(pair),
            Err(e) if e.exit == super::exit::Exit::Failed => {
                report.failed.push((name.clone(), e.message));
                let close = json!({"op": "close"});
                expect(a, &close, "closed", timeout)?;
                expect(b, &close, "closed", timeout)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}
