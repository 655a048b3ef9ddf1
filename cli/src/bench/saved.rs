//! `--baseline FILE`: the results a `picollo bench --save FILE` (or `--json FILE`) wrote,
//! rebuilt run by run from their rounds, so that a new measurement is judged against them
//! round against round.

use picollo_bench::{
    median_round, median_round_at, Bench, BenchResult, Metric, MetricKind, Unit, WarmUp,
};
use serde_json::Value;

use super::rounds::RunTime;
use super::stage::Start;
use crate::error::Failure;

/// One saved command: its result (`None` where it was not measured, or not rebuilt), the
/// metrics it was measured with, and the median round time of each run apart it was saved
/// from (`--save --append` adds one per run), with each other metric's median per run apart
/// (`runsApartBy`; a file saved before they were kept has none).
pub struct Saved {
    pub result: Option<BenchResult>,
    pub command: String,
    pub metrics: Vec<Metric>,
    pub runs_apart: Vec<f64>,
    pub runs_apart_by: Vec<(String, Vec<f64>)>,
}

impl Saved {
    /// The runs apart of `metric`: time's, another metric's saved list, or (a file saved
    /// before those were kept) the one run of the saved result.
    pub fn runs_of(&self, metric: &Metric) -> Vec<f64> {
        if metric.kind == MetricKind::Time {
            return self.runs_apart.clone();
        }
        if let Some((_, runs)) = self.runs_apart_by.iter().find(|(n, _)| *n == metric.name) {
            return runs.clone();
        }
        let result = self.result.as_ref();
        let one = result.and_then(|r| {
            let i = r
                .metrics
                .iter()
                .position(|m| m.metric.name == metric.name)?;
            Some(median_round_at(r, i))
        });
        one.into_iter().collect()
    }
}

/// A saved file: its commands, in command order, the builds a side they were saved with
/// (`--builds`; 1 in a file saved without), and under `--emulate` how their programs
/// started (`None` in a file saved without, or by a picollo that did not record it).
pub struct Baseline {
    pub commands: Vec<Saved>,
    pub builds: usize,
    pub start: Option<Start>,
}

/// The saved file at `path`, its results rebuilt (`Some(threshold)`: after the runs, for the
/// comparisons), or only its commands and runs apart (`None`: before the runs, which then
/// fork from a process without the saved histograms: a parent of a few hundred MB makes
/// each child's exec, and so its wall time, measurably slower).
pub fn load(path: &str, threshold: Option<f64>) -> Result<Baseline, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::io(path, &e))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Failure::format(format!("{path}: not the JSON picollo bench writes: {e}")))?;
    let commands = commands(path, &v, threshold)?;
    let start = v.get("emulated").map(Start::parse).transpose();
    let start = start.map_err(|why| Failure::format(format!("{path}: {why}")))?;
    let builds = v.get("builds").map_or(Some(1), Value::as_u64);
    match builds {
        Some(k) if k >= 1 && commands.len() % k as usize == 0 => {
            even_runs(path, &commands, k as usize)?;
            Ok(Baseline {
                commands,
                builds: k as usize,
                start,
            })
        }
        _ => Err(Failure::format(format!(
            "{path}: \"builds\" is {}, which does not split its {} commands into sides",
            v["builds"],
            commands.len()
        ))),
    }
}

/// Every build of a side was saved in as many runs apart (`--append` adds one to each).
fn even_runs(path: &str, commands: &[Saved], k: usize) -> Result<(), Failure> {
    for (s, side) in commands.chunks(k).enumerate() {
        let runs: Vec<usize> = side.iter().map(|c| c.runs_apart.len()).collect();
        if runs.iter().any(|&n| n != runs[0]) {
            return Err(Failure::format(format!(
                "{path}: the builds of side {} hold {runs:?} runs apart: every build of a side \
                 is saved in the same runs",
                s + 1
            )));
        }
    }
    Ok(())
}

/// The saved commands of `v` (read from `path`), in command order.
fn commands(path: &str, v: &Value, threshold: Option<f64>) -> Result<Vec<Saved>, Failure> {
    let bad = |why: String| Failure::format(format!("{path}: {why}"));
    let commands = v["commands"]
        .as_array()
        .ok_or_else(|| bad("no \"commands\" list: not the JSON picollo bench writes".into()))?;
    let each = commands.iter().enumerate().map(|(i, c)| {
        let command = c["command"].as_str().unwrap_or("?").to_string();
        let name = format!("{command} [{path}]");
        // A file saved before runs apart were kept needs its result for its one run apart.
        let threshold = threshold.or((c.get("runsApart").is_none()).then_some(0.0));
        let saved = c.get("result").zip(threshold);
        let result = saved.map(|(r, threshold)| rebuild(&name, r, threshold));
        let in_command = |why: String| bad(format!("command {}: {why}", i + 1));
        let result = result.transpose().map_err(in_command)?;
        let runs_apart = runs_apart(c, result.as_ref()).map_err(in_command)?;
        let runs_apart_by = runs_apart_by(c).map_err(in_command)?;
        let metrics = match c.get("result") {
            Some(r) => metrics(r).map_err(in_command)?,
            None => Vec::new(),
        };
        Ok(Saved {
            result,
            command,
            metrics,
            runs_apart,
            runs_apart_by,
        })
    });
    each.collect()
}

/// The saved runs apart of a command: its `runsApart` list (0 for a run floored at 0), or (a
/// file saved before runs apart were kept) its one run's median round time.
fn runs_apart(c: &Value, result: Option<&BenchResult>) -> Result<Vec<f64>, String> {
    let Some(list) = c.get("runsApart") else {
        return Ok(result.map(median_round).into_iter().collect());
    };
    let list = list.as_array().ok_or("\"runsApart\" is not a list")?;
    // 0: that run's median was floored at 0 (below the shell's start): kept, and judged as
    // nothing to judge.
    let each = list.iter().map(|x| match x.as_f64() {
        Some(m) if m >= 0.0 && m.is_finite() => Ok(m),
        _ => Err(format!(
            "\"runsApart\" holds {x}, not a median time of 0 or more"
        )),
    });
    each.collect()
}

/// The saved runs apart of each metric but time (`runsApartBy`: a median figure per run,
/// 0 or more), none in a file saved before they were kept.
fn runs_apart_by(c: &Value) -> Result<Vec<(String, Vec<f64>)>, String> {
    let Some(by) = c.get("runsApartBy") else {
        return Ok(Vec::new());
    };
    let by = by.as_object().ok_or("\"runsApartBy\" is not an object")?;
    let each = by.iter().map(|(name, list)| {
        let bad = || format!("\"runsApartBy\" of {name} is not a list of figures of 0 or more");
        let list = list.as_array().ok_or_else(bad)?;
        let figure = |x: &Value| x.as_f64().filter(|m| *m >= 0.0 && m.is_finite());
        let runs: Option<Vec<f64>> = list.iter().map(figure).collect();
        Ok((name.clone(), runs.ok_or_else(bad)?))
    });
    each.collect()
}

/// The metrics of a saved result.
fn metrics(r: &Value) -> Result<Vec<Metric>, String> {
    let list = r["metrics"].as_array().ok_or("no \"metrics\" list")?;
    let metric = |m: &Value| {
        let name = m["name"].as_str().ok_or("a metric without a name")?;
        let unit = m["unit"].as_str().unwrap_or_default();
        let unit = Unit::parse(unit).ok_or_else(|| format!("unknown unit {unit:?}"))?;
        Ok(Metric::named(name, unit))
    };
    list.iter().map(metric).collect()
}

/// A saved round of one run: its figure of every metric (the median of one value), its
/// start, length and whether it ran first.
fn round(round: &Value, metrics: usize) -> Result<(Vec<u64>, RunTime), String> {
    if round["samples"].as_u64() != Some(1) {
        return Err("a round of more than one run: not a command's result".into());
    }
    let values = round["values"].as_array().ok_or("a round without values")?;
    let median = |q: &Value| q.get(2).and_then(Value::as_u64);
    let row: Option<Vec<u64>> = values.iter().map(median).collect();
    let row = row
        .filter(|r| r.len() == metrics)
        .ok_or("a round's values are unreadable")?;
    let time = |key: &str| round[key].as_f64().unwrap_or(0.0);
    let first = round["first"].as_bool().unwrap_or(false);
    Ok((row, (time("start"), time("length"), first)))
}

/// The result of one saved command, named `name`.
fn rebuild(name: &str, r: &Value, threshold: f64) -> Result<BenchResult, String> {
    let metrics = metrics(r)?;
    let rounds = r["rounds"].as_array().ok_or("no \"rounds\" list")?;
    let parsed: Vec<_> = rounds
        .iter()
        .map(|x| round(x, metrics.len()))
        .collect::<Result<_, _>>()?;
    let rows = parsed.iter().flat_map(|(row, _)| row.iter().copied());
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let bench = Bench::new(name).with_threshold(threshold);
    let clock = "saved by picollo bench".to_string();
    let mut result = BenchResult::from_rows(&bench, metrics, rows.collect(), clock, warm_up)
        .map_err(|e| e.to_string())?;
    for (saved, (_, (start, length, first))) in result.rounds.iter_mut().zip(parsed) {
        (saved.start, saved.length, saved.first) = (start, length, first);
    }
    saved_flags(&mut result, r);
    Ok(result)
}

/// What the saved result `r` says of its figures, in `result`'s metrics: the baseline
/// subtracted (its name and medians), the runs it floored at 0, the resolution; so that a
/// comparison with the saved result flags its floors as one with the run that saved it
/// did. A file saved without them (an older picollo) leaves them unknown: 0.
fn saved_flags(result: &mut BenchResult, r: &Value) {
    result.conditions.baseline = r["baseline"].as_str().map(str::to_string);
    let saved = r["metrics"].as_array().into_iter().flatten();
    for (m, s) in result.metrics.iter_mut().zip(saved) {
        let field = |key: &str| s[key].as_u64().unwrap_or(0);
        (m.baseline, m.floored) = (field("baseline"), field("floored"));
        m.resolution = field("resolution");
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use picollo_bench::{compare, MetricKind, SCALE};

    /// A command's result of runs of `times` ns, less a shell's start of 1,000 ns.
    pub(in crate::bench) fn less_the_shell(name: &str, times: &[u64]) -> BenchResult {
        let metrics = || vec![Metric::new("time", Unit::Nanoseconds, MetricKind::Time)];
        let rows = |t: &[u64]| t.iter().map(|v| v * SCALE).collect();
        let made = |bench: &Bench, t: &[u64]| {
            let warm_up = WarmUp::default();
            BenchResult::from_rows(bench, metrics(), rows(t), "test".into(), warm_up).unwrap()
        };
        let shell = made(&Bench::new("the shell"), &[1_000, 1_000, 1_000]);
        made(&Bench::new(name).with_baseline(&shell), times)
    }

    #[test]
    fn a_saved_result_keeps_the_floors_it_was_saved_with() {
        let r = less_the_shell("cmd", &[900, 5_000, 800, 7_000, 6_000]);
        assert_eq!(r.time().floored, 2);
        let mut json = String::new();
        r.write_json(&mut json).unwrap();
        let saved = rebuild(
            "cmd [saved.json]",
            &serde_json::from_str(&json).unwrap(),
            1.0,
        );
        let saved = saved.unwrap();
        let (t, was) = (saved.time(), r.time());
        assert_eq!((t.floored, t.baseline), (2, 1_000 * SCALE));
        assert_eq!(t.resolution, was.resolution);
        assert_eq!(saved.conditions.baseline.as_deref(), Some("the shell"));
        // A comparison against it says that the saved side's time was floored.
        let new = less_the_shell("cmd", &[5_000, 6_000, 7_000, 5_500, 6_500]);
        let mut line = String::new();
        compare(&saved, &new).write_verdict(&mut line).unwrap();
        assert!(
            line.ends_with("[cmd [saved.json]'s time: floored 40.0 %]"),
            "{line}"
        );
    }
}
