//! What a suite says to a worker and back: one JSON object a line. A request is a line on
//! the worker's standard input; a reply is a line on its standard output that starts with
//! [`TAG`], so that whatever else the benchmarks print there is told apart (and passed on).
//! Every reply is an object with `reply` naming what it answers, or `error` with why not.
//!
//! | request | reply |
//! |---|---|
//! | `{"op":"hello","protocol":1}` | `{"reply":"hello","protocol":1,"suite":…,"benchmarks":[…]}` |
//! | `{"op":"open","name":…,"settings":{…}}` | `{"reply":"opened","batch":k,"warm_up":[…],"metrics":[…],"warnings":[…],"unoptimized":…}` |
//! | `{"op":"batch","batch":k}` | `{"reply":"ready","overhead":[…],"baseline":[…],"resolution":[…],"clock":…,"counters_read":…}` |
//! | `{"op":"slot","quota":n,"budget_ns":t,"frames":f,"heap":h}` | `{"reply":"slot","rows":[…],"floored":[…],"multiplexed":[…],"times":[…]}` |
//! | `{"op":"close"}` | `{"reply":"closed"}` |
//! | `{"op":"quit"}` | (the worker exits 0) |
//!
//! A worker that speaks another [`PROTOCOL`] answers `hello` with its own number, and the
//! suite refuses it.

use std::string::{String, ToString};
use std::time::Duration;
use std::vec::Vec;

use serde_json::{json, Value};

use super::super::conditions::WarmUp;
use super::super::meter::{Metric, MetricKind, Unit};
use super::super::plan::Plan;

/// The protocol's version: a worker and a suite of different versions do not talk.
pub const PROTOCOL: u64 = 1;
/// What starts every reply line.
pub const TAG: &str = "@picollo ";

/// A reply line: the tag, then `v` as JSON.
pub fn reply_line(v: &Value) -> String {
    std::format!("{TAG}{v}")
}

/// A reply's JSON, where `line` is one (starts with the tag).
pub fn parse_reply(line: &str) -> Option<Result<Value, String>> {
    let text = line.strip_prefix(TAG)?;
    Some(serde_json::from_str(text).map_err(|e| std::format!("{e}: {text}")))
}

/// The kind's name on the wire.
fn kind_name(kind: MetricKind) -> &'static str {
    match kind {
        MetricKind::Time => "time",
        MetricKind::OnCpuTime => "on-cpu-time",
        MetricKind::Counter => "counter",
        MetricKind::Exact => "exact",
    }
}

/// The kind named `name` on the wire.
fn kind_named(name: &str) -> Option<MetricKind> {
    let kinds = [
        MetricKind::Time,
        MetricKind::OnCpuTime,
        MetricKind::Counter,
        MetricKind::Exact,
    ];
    kinds.into_iter().find(|k| kind_name(*k) == name)
}

/// `metrics` on the wire: `[name, unit, kind]` each.
pub fn metrics_json(metrics: &[Metric]) -> Value {
    let each = metrics
        .iter()
        .map(|m| json!([m.name, m.unit.as_str(), kind_name(m.kind)]));
    Value::Array(each.collect())
}

/// The metrics [`metrics_json`] wrote.
pub fn metrics_of(v: &Value) -> Option<Vec<Metric>> {
    let one = |m: &Value| {
        let name = m.get(0)?.as_str()?;
        let unit = Unit::parse(m.get(1)?.as_str()?)?;
        Some(Metric::new(name, unit, kind_named(m.get(2)?.as_str()?)?))
    };
    v.as_array()?.iter().map(one).collect()
}

/// A warm-up on the wire: `[batches, converged, last change]`.
pub fn warm_up_json(w: &WarmUp) -> Value {
    json!([w.batches, w.converged, w.last_change])
}

/// The warm-up [`warm_up_json`] wrote.
pub fn warm_up_of(v: &Value) -> Option<WarmUp> {
    Some(WarmUp {
        batches: v.get(0)?.as_u64()?,
        converged: v.get(1)?.as_bool()?,
        last_change: v.get(2)?.as_f64().unwrap_or(f64::NAN),
    })
}

/// Unsigned figures: an array of numbers.
pub fn numbers_of(v: Option<&Value>) -> Option<Vec<u64>> {
    v?.as_array()?.iter().map(Value::as_u64).collect()
}

/// What a worker measures a benchmark with: the suite's settings of what the two sides must
/// share (the order, the offsets and the threshold are the suite's alone).
pub fn settings_json(plan: &Plan) -> Value {
    #[cfg(feature = "perf")]
    let counters = plan.counters.as_ref().map(|c| {
        let names = c.iter().map(|e| Value::String(e.to_string()));
        Value::Array(names.collect())
    });
    #[cfg(not(feature = "perf"))]
    let counters: Option<Value> = None;
    #[cfg(feature = "perf")]
    let read_path = plan.read_path.name();
    #[cfg(not(feature = "perf"))]
    let read_path = "auto";
    json!({
        "warmup_ns": plan.warmup.as_nanos() as u64,
        "samples": plan.samples,
        "budget_ns": plan.budget.as_nanos() as u64,
        "batch": plan.batch,
        "rounds": plan.rounds,
        "relative_error": plan.relative_error,
        "counters": counters,
        "read_path": read_path,
    })
}

/// `plan` with the settings [`settings_json`] wrote; why not, where they cannot be read.
pub fn apply_settings(plan: &mut Plan, v: &Value) -> Result<(), String> {
    let bad = |what: &str| std::format!("settings: {what} missing or not a number");
    let ns = |key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key));
    plan.warmup = Duration::from_nanos(ns("warmup_ns")?);
    plan.budget = Duration::from_nanos(ns("budget_ns")?);
    plan.samples = ns("samples")? as usize;
    plan.batch = v.get("batch").and_then(Value::as_u64);
    plan.rounds = v.get("rounds").and_then(Value::as_u64).map(|r| r as usize);
    let relative = v.get("relative_error").and_then(Value::as_f64);
    plan.relative_error = relative.ok_or_else(|| bad("relative_error"))?;
    apply_counters(plan, v)
}

/// The counters and their read path of [`settings_json`].
#[cfg(feature = "perf")]
fn apply_counters(plan: &mut Plan, v: &Value) -> Result<(), String> {
    use picollo_perf::{Event, ReadPolicy};
    let path = v.get("read_path").and_then(Value::as_str).unwrap_or("auto");
    plan.read_path = ReadPolicy::parse(path).ok_or_else(|| std::format!("read path {path:?}"))?;
    plan.counters = match v.get("counters").and_then(Value::as_array) {
        None => None,
        Some(names) => {
            let each = names.iter().map(|n| {
                let name = n.as_str().unwrap_or_default();
                Event::parse(name).map_err(|e| std::format!("counter {name:?}: {e}"))
            });
            Some(each.collect::<Result<Vec<Event>, String>>()?)
        }
    };
    Ok(())
}

/// Without feature `perf` a worker measures time alone, and says so where counters were
/// asked for.
#[cfg(not(feature = "perf"))]
fn apply_counters(_: &mut Plan, v: &Value) -> Result<(), String> {
    match v.get("counters").and_then(Value::as_array) {
        Some(c) if !c.is_empty() => Err("counters asked for: built without feature perf".into()),
        _ => Ok(()),
    }
}

/// A reply of kind `reply` with `fields` beside it.
pub fn reply(kind: &str, fields: Value) -> Value {
    let mut v = fields;
    if let Value::Object(map) = &mut v {
        map.insert("reply".to_string(), Value::String(kind.into()));
    }
    v
}

/// An error reply.
pub fn error_reply(message: &str) -> Value {
    json!({ "error": message })
}
