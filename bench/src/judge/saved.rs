//! Results saved for a gate against runs apart, as `picollo bench --save` and a suite's
//! `--save NAME` write them into Picollo's JSON document: each benchmark's result, and the
//! median round figure of each metric in every run apart it was saved from (`runsApart`
//! for time, `runsApartBy` for the others, 0 for a run floored at 0); read back, the result
//! is rebuilt from its rounds' medians, and a new run is judged against the runs apart
//! ([`judge_saved`]).

use std::string::{String, ToString};
use std::vec::Vec;

use super::apart::{judge_apart, median_round, median_round_at};
use super::compare::{compare, compare_on};
use super::probe::{judge_speed, PROBE_WORKLOAD};
use super::verdict::Comparison;
use crate::error::BenchError;
use crate::measure::conditions::WarmUp;
use crate::measure::meter::{time_index, Metric, MetricKind};
use crate::measure::result::BenchResult;
use crate::measure::throughput::{Throughput, Work};
use crate::model::document::{
    EntryRecord, Figure, Members, MetricRecord, ProbeRecord, ResultRecord, RoundRecord,
};
use crate::Bench;

/// One saved benchmark: its result (`None` where it was not saved or not rebuilt), the
/// metrics it was measured with, and the median figure of each run apart it was saved from.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The result rebuilt from its rounds' medians.
    pub result: Option<BenchResult>,
    /// The metrics it was measured with.
    pub metrics: Vec<Metric>,
    /// Time's median round figure in each run apart (0: that run was floored at 0).
    pub runs_apart: Vec<f64>,
    /// Every other metric's, by name (none in a file saved before they were kept).
    pub runs_apart_by: Vec<(String, Vec<f64>)>,
    /// The work of one operation its benchmark declared when saved (`Some(None)`: none);
    /// `None` where the file predates the saved throughput.
    pub throughput: Option<Option<Throughput>>,
    /// The saved result's median time per operation in ns, as its summary of time reports
    /// it: where its rate is read.
    pub median: Option<f64>,
    /// The speed probe of each run apart, in ns ([`crate::probe`]): NaN for a run
    /// without one of this workload (all of them in a file saved before probes were kept).
    pub probes: Vec<f64>,
}

/// How a saved round must look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SavedRounds {
    /// A command's: one run a round (a round of more samples is not a command's).
    OneRun,
    /// A function's: any count of samples a round, rebuilt as its median.
    Medians,
}

impl Saved {
    /// The saved benchmark `c` (an entry of the document: its result, `runsApart`,
    /// `runsApartBy`), its result named `name` and rebuilt where `threshold` is given (or the
    /// file holds no runs apart, whose one run is then the result's).
    pub fn read(
        name: &str,
        c: &EntryRecord,
        threshold: Option<f64>,
        rounds: SavedRounds,
    ) -> Result<Saved, String> {
        let threshold = threshold.or(c.members.runs_apart.is_none().then_some(0.0));
        let saved = c.result.as_ref().zip(threshold);
        let mut result = saved
            .map(|(r, t)| rebuild(name, r, t, rounds))
            .transpose()?;
        let runs_apart = runs_apart(c, result.as_ref())?;
        let runs_apart_by = runs_apart_by(c)?;
        let probes = probes(c, runs_apart.len());
        let (metrics, throughput, median) = match &c.result {
            Some(r) => (metrics(r), throughput(r)?, median(r)),
            None => (Vec::new(), None, None),
        };
        if let Some(r) = &mut result {
            r.throughput = throughput.flatten();
        }
        Ok(Saved {
            result,
            metrics,
            runs_apart,
            runs_apart_by,
            throughput,
            median,
            probes,
        })
    }

    /// Its side of a comparison's rates ([`Comparison::set_rates`]), where this run
    /// declares `here`: the saved throughput and its rate at the saved median, the rate
    /// the run that saved it reported.
    pub fn work(&self, here: Option<Throughput>) -> Work {
        // A file saved before throughputs were kept says nothing of the work: this run's
        // declaration stands for it, as `--against` takes the other build's work to be
        // this build's (a benchmark's name names its work). Without it, adding the field
        // would leave every older baseline without a rate. A saved `null` declared none.
        let t = self.throughput.unwrap_or(here);
        (t, t.zip(self.median).map(|(t, m)| t.rate(m)))
    }

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

/// The saved runs apart of a benchmark: its `runsApart` list (0 for a run floored at 0),
/// or (a file saved before runs apart were kept) its one run's median round time.
fn runs_apart(c: &EntryRecord, result: Option<&BenchResult>) -> Result<Vec<f64>, String> {
    let Some(list) = &c.members.runs_apart else {
        return Ok(result.map(median_round).into_iter().collect());
    };
    // 0: that run's median was floored at 0 (below the shell's start): kept, and judged as
    // nothing to judge.
    let each = list.iter().map(|x| match x.map(|m| m.0) {
        Some(m) if m >= 0.0 && m.is_finite() => Ok(m),
        Some(m) => Err(std::format!(
            "\"runsApart\" holds {m}, not a median time of 0 or more"
        )),
        None => Err("\"runsApart\" holds null, not a median time of 0 or more".into()),
    });
    each.collect()
}

/// The saved runs apart of each metric but time (`runsApartBy`: a median figure per run,
/// 0 or more), none in a file saved before they were kept.
fn runs_apart_by(c: &EntryRecord) -> Result<Vec<(String, Vec<f64>)>, String> {
    let Some(by) = &c.members.runs_apart_by else {
        return Ok(Vec::new());
    };
    let each = by.iter().map(|(name, list)| {
        let bad =
            || std::format!("\"runsApartBy\" of {name} is not a list of figures of 0 or more");
        let figure = |x: &Option<Figure>| x.map(|m| m.0).filter(|m| *m >= 0.0 && m.is_finite());
        let runs: Option<Vec<f64>> = list.iter().map(figure).collect();
        Ok((name.clone(), runs.ok_or_else(bad)?))
    });
    each.collect()
}

/// The speed probes saved with `c`'s runs apart (NaN for a run without, all NaN where the
/// file holds none of this workload), as many as its `runs` runs apart; an earlier run
/// saved without a probe is NaN.
fn probes(c: &EntryRecord, runs: usize) -> Vec<f64> {
    let record = c.members.speed_probe.as_ref();
    let ours = record.filter(|p| p.workload == PROBE_WORKLOAD);
    let each = ours.map_or(Vec::new(), |p| {
        let figure = |x: &Option<Figure>| x.map_or(f64::NAN, |v| v.0);
        p.runs.iter().map(figure).collect()
    });
    // Aligned with the last runs apart: a run before the probes were kept is NaN.
    let missing = runs.saturating_sub(each.len());
    let mut all = std::vec![f64::NAN; missing];
    all.extend(each);
    all.split_off(all.len() - runs)
}

/// The throughput a saved result declares (`Some(None)`: `null`, none), `None` where it
/// has no `"throughput"` member (saved before it was kept); an error for one unreadable.
fn throughput(r: &ResultRecord) -> Result<Option<Option<Throughput>>, String> {
    let Some(t) = &r.throughput else {
        return Ok(None);
    };
    let Some(t) = t else {
        return Ok(Some(None));
    };
    let t = Throughput::parse(&t.unit, t.per_operation)
        .map_err(|e| std::format!("\"throughput\": {e}"))?;
    Ok(Some(Some(t)))
}

/// The median time per operation of a saved result, in ns: the P50 of its time's summary
/// (`None` where the result does not hold one).
fn median(r: &ResultRecord) -> Option<f64> {
    let time = r.metrics.get(time_index(&metrics(r)))?;
    Some(time.median()? / r.scale as f64)
}

/// The metrics of a saved result.
pub fn metrics(r: &ResultRecord) -> Vec<Metric> {
    let metric = |m: &MetricRecord| Metric::named(&m.name, m.unit);
    r.metrics.iter().map(metric).collect()
}

/// A saved round: its median figure of every metric, its start, length and whether it
/// ran first.
type SavedRound = (Vec<u64>, (f64, f64, bool));

fn round(round: &RoundRecord, metrics: usize, rounds: SavedRounds) -> Result<SavedRound, String> {
    if rounds == SavedRounds::OneRun && round.samples != 1 {
        return Err("a round of more than one run: not a command's result".into());
    }
    let median = |q: &Vec<u64>| q.get(2).copied();
    let row: Option<Vec<u64>> = round.values.iter().map(median).collect();
    let row = row
        .filter(|r| r.len() == metrics)
        .ok_or("a round's values are unreadable")?;
    Ok((row, (round.start, round.length, round.first)))
}

/// The saved result `r`, named `name`: a sample per round, its median.
fn rebuild(
    name: &str,
    r: &ResultRecord,
    threshold: f64,
    rounds: SavedRounds,
) -> Result<BenchResult, String> {
    let metrics = metrics(r);
    let parsed: Vec<_> = (r.rounds.iter())
        .map(|x| round(x, metrics.len(), rounds))
        .collect::<Result<_, _>>()?;
    let rows = parsed.iter().flat_map(|(row, _)| row.iter().copied());
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let bench = Bench::new(name).with_threshold(threshold);
    let clock = "saved by picollo".to_string();
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
fn saved_flags(result: &mut BenchResult, r: &ResultRecord) {
    result.conditions.baseline = r.baseline.clone();
    for (m, s) in result.metrics.iter_mut().zip(&r.metrics) {
        (m.baseline, m.floored, m.resolution) = (s.baseline, s.floored, s.resolution);
    }
}

/// The runs apart of `result` as the document keeps them (`runsApart`, `runsApartBy`,
/// `speedProbe`): the median round figure of each metric in every run apart `earlier` holds
/// (`--append`) and in this one, time's alone first, and the speed probe taken before it
/// (`probe` ns; NaN: none, and no member where no run holds one); a figure that is not a
/// number is `null`.
pub fn runs_apart_members(result: &BenchResult, earlier: Option<&Saved>, probe: f64) -> Members {
    let figures = |all: &mut dyn Iterator<Item = f64>| {
        all.map(|v| Some(Figure(v)).filter(|v| v.0.is_finite()))
            .collect::<Vec<_>>()
    };
    let runs = |i: usize| {
        let before = earlier.map_or(Vec::new(), |s| s.runs_of(&result.metrics[i].metric));
        figures(&mut before.into_iter().chain([median_round_at(result, i)]))
    };
    let time = result.time_index();
    let others = (0..result.metrics.len()).filter(|&i| i != time);
    let by = others.map(|i| (result.metrics[i].metric.name.clone(), runs(i)));
    let before = earlier.map_or(Vec::new(), |s| s.probes.clone());
    let probes = figures(&mut before.into_iter().chain([probe]));
    let speed_probe = probes.iter().any(Option::is_some).then(|| ProbeRecord {
        workload: PROBE_WORKLOAD.into(),
        runs: probes,
    });
    Members {
        runs_apart: Some(runs(time)),
        runs_apart_by: Some(by.collect()),
        speed_probe,
        ..Members::default()
    }
}

/// `b` judged against `saved` on runs apart: B against the saved result on `metric` (time
/// where `None`), its verdict from the saved runs apart of the judged metric and `b`'s
/// median round ([`judge_apart`]; a count whose figures agree within their read jitter is
/// judged exactly), then checked against the machine's speed: `probe` is the speed probe
/// taken before `b` (ns; NaN: none), against the saved runs' ([`judge_speed`]).
pub fn judge_saved(
    saved: &Saved,
    b: &BenchResult,
    metric: Option<&str>,
    probe: f64,
) -> Result<Comparison, BenchError> {
    let a = saved.result.as_ref().ok_or_else(|| {
        BenchError::argument("the saved benchmark holds no result to judge against".into())
    })?;
    let mut c = match metric {
        Some(m) => compare_on(a, b, m)?,
        None => compare(a, b),
    };
    let at = b.metrics.iter().position(|m| m.metric == c.metric);
    let new = at.map_or(f64::NAN, |i| median_round_at(b, i));
    let runs = saved.runs_of(&c.metric);
    judge_apart(&mut c, &runs, new);
    judge_speed(&mut c, &saved.probes, probe);
    c.set_rates(saved.work(b.throughput), b.work());
    Ok(c)
}
