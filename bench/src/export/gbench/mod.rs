//! Google Benchmark's JSON (`--benchmark_format=json`, schema version 1): a `context` of the
//! machine and one run per round of each benchmark, as Google Benchmark writes one per
//! repetition: `run_type` `iteration`, `iterations` the round's operations, `real_time` its
//! median time per operation and `cpu_time` its median task-clock (the time on a CPU; the
//! real time where the result has no task-clock, which `context.picollo_cpu_time` says),
//! and every other metric's median per operation as a user counter (a member named as the
//! metric, as Google Benchmark writes its perf counters); where the benchmark declares a
//! throughput, Google Benchmark's `bytes_per_second` or `items_per_second`, the library's
//! rate at the round's median time (as Google Benchmark's rate is its repetition's); then,
//! with two rounds or more, the aggregates over the rounds that Google Benchmark writes over
//! repetitions (`_mean`, `_median`, `_stddev`, `_cv`). Its `compare.py` pairs the benchmarks of two such files by
//! name and compares their times only; so a metric the findings' comparisons judge (`picollo
//! bench --metric`), and an exact count, is also a benchmark of its own, `NAME (METRIC)`,
//! whose `real_time` and `cpu_time` are that metric's figure (its `label` says so), and
//! `compare.py` judges its change like a time's.

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

use serde::Serialize;

mod context;

use super::records::{write_line, Members};
use super::{charted, Findings, ResultFormat};
use crate::measure::meter::{MetricKind, SCALE};
use crate::measure::result::BenchResult;
use crate::measure::throughput::Throughput;
use crate::stats::median;
use context::{context, Context};

/// Google Benchmark's JSON (`gbench`).
pub struct GoogleBenchmark;

/// One round of a benchmark as a repetition: its operations, its `real_time` and
/// `cpu_time`, and the figure of each of the benchmark's user counters.
struct Run {
    iterations: u64,
    real: f64,
    cpu: f64,
    counters: Vec<f64>,
}

/// One benchmark in the file: its name, its index, its label, the names of its user
/// counters, and its rounds.
struct Family<'a> {
    name: String,
    index: usize,
    label: Option<String>,
    counters: Vec<&'a str>,
    runs: Vec<Run>,
}

/// The median of metric `index` per operation in each round of `r`, in its unit.
fn per_round(r: &BenchResult, index: usize) -> Vec<f64> {
    let unit = |v: Option<u64>| v.map_or(f64::NAN, |v| v as f64 / SCALE as f64);
    r.rounds
        .iter()
        .map(|x| unit(x.value(index, 50.0)))
        .collect()
}

/// The benchmarks of `r`, named `name`: its time (the real time, the task-clock as the CPU
/// time, every other metric as a user counter), then each other metric that is charted
/// ([`charted`]: the ones the findings' comparisons judge, the exact ones) as a benchmark of its own.
fn families<'a>(name: &str, r: &'a BenchResult, judged: &[&str]) -> Vec<Family<'a>> {
    let time = r.time_index();
    let real = per_round(r, time);
    let cpu = on_cpu(r).map_or_else(|| real.clone(), |i| per_round(r, i));
    let others: Vec<usize> = (0..r.metrics.len()).filter(|&i| i != time).collect();
    let mut counted: Vec<Vec<f64>> = others.iter().map(|&i| per_round(r, i)).collect();
    let rate = rate_per_round(r, &real);
    counted.extend(rate.as_ref().map(|(_, v)| v.clone()));
    let runs = (0..r.rounds.len()).map(|k| Run {
        iterations: r.rounds[k].samples * r.conditions.batch,
        real: real[k],
        cpu: cpu[k],
        counters: counted.iter().map(|c| c[k]).collect(),
    });
    let timed = Family {
        name: name.into(),
        index: 0,
        label: None,
        counters: others
            .iter()
            .map(|&i| r.metrics[i].metric.name.as_str())
            .chain(rate.map(|(name, _)| name))
            .collect(),
        runs: runs.collect(),
    };
    let counts: Vec<Family<'a>> = charted(r, judged)
        .skip(1)
        .map(|i| of_metric(&timed, r, i))
        .collect();
    core::iter::once(timed).chain(counts).collect()
}

/// Where `r` declares a throughput, Google Benchmark's counter of it (`bytes_per_second`,
/// `items_per_second`) and each round's rate at its median time `real` (the library's rate).
fn rate_per_round(r: &BenchResult, real: &[f64]) -> Option<(&'static str, Vec<f64>)> {
    let t = r.throughput?;
    let name = match t {
        Throughput::Bytes(_) => "bytes_per_second",
        Throughput::Elements(_) => "items_per_second",
    };
    Some((name, real.iter().map(|&ns| t.per_second(ns)).collect()))
}

/// Metric `index` of `r` as a benchmark of its own beside `timed`, its time's: `NAME
/// (METRIC)`, the metric's figure in both times and the label saying what it counts.
fn of_metric<'a>(timed: &Family<'a>, r: &BenchResult, index: usize) -> Family<'a> {
    let metric = &r.metrics[index].metric;
    let each = per_round(r, index).into_iter().zip(&timed.runs);
    let runs = each.map(|(v, run)| Run {
        iterations: run.iterations,
        real: v,
        cpu: v,
        counters: Vec::new(),
    });
    let unit = metric.unit.as_str();
    let operation = &r.conditions.operation;
    Family {
        name: std::format!("{} ({})", timed.name, metric.name),
        index: 0,
        label: Some(std::format!(
            "{}: {unit} per {operation}, not ns",
            metric.name
        )),
        counters: Vec::new(),
        runs: runs.collect(),
    }
}

/// The metric of the time on a CPU (task-clock), where the result has one.
pub(super) fn on_cpu(r: &BenchResult) -> Option<usize> {
    let kind = |i: &usize| r.metrics[*i].metric.kind == MetricKind::OnCpuTime;
    (0..r.metrics.len()).find(kind)
}

/// An aggregate: its name, what it computes over the rounds' figures, and its unit.
type Aggregate = (&'static str, fn(&[f64]) -> f64, &'static str);

/// The aggregates Google Benchmark computes over repetitions.
const AGGREGATES: [Aggregate; 4] = [
    ("mean", mean, "time"),
    ("median", |v| median(&mut v.to_vec()), "time"),
    ("stddev", stddev, "time"),
    ("cv", |v| stddev(v) / mean(v), "percentage"),
];

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The sample standard deviation (n − 1); 0 for one value.
fn stddev(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    let squares: f64 = v.iter().map(|x| (x - m) * (x - m)).sum();
    (squares / (v.len() - 1) as f64).sqrt()
}

/// One object of the file's `benchmarks`: a round as a repetition (`run_type`
/// `iteration`, its `repetition_index`) or an aggregate over the rounds (`aggregate`, its
/// `aggregate_name` and `aggregate_unit`), in Google Benchmark's order of members.
#[derive(Serialize)]
struct RunRecord<'a> {
    name: String,
    family_index: usize,
    per_family_instance_index: usize,
    run_name: &'a str,
    run_type: &'static str,
    repetitions: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    repetition_index: Option<usize>,
    threads: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    aggregate_name: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    aggregate_unit: Option<&'static str>,
    iterations: u64,
    real_time: f64,
    cpu_time: f64,
    time_unit: &'static str,
    /// The user counters, each a member named as its metric.
    #[serde(flatten)]
    counters: Members<&'a str, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
}

impl<'a> Family<'a> {
    /// `run`'s figures as a record of this family named `name`: a repetition unless the
    /// caller says otherwise.
    fn record(&'a self, name: String, run: &Run) -> RunRecord<'a> {
        let counters = self
            .counters
            .iter()
            .copied()
            .zip(run.counters.iter().copied());
        RunRecord {
            name,
            family_index: self.index,
            per_family_instance_index: 0,
            run_name: &self.name,
            run_type: "iteration",
            repetitions: self.runs.len(),
            repetition_index: None,
            threads: 1,
            aggregate_name: None,
            aggregate_unit: None,
            iterations: run.iterations,
            real_time: run.real,
            cpu_time: run.cpu,
            time_unit: "ns",
            counters: Members(counters.collect()),
            label: self.label.as_deref(),
        }
    }

    /// Round `i` as a repetition.
    fn run_record(&'a self, i: usize, run: &Run) -> RunRecord<'a> {
        RunRecord {
            repetition_index: Some(i),
            ..self.record(self.name.clone(), run)
        }
    }

    /// An aggregate over the rounds, of the times and of each counter (its iterations: the
    /// rounds, as Google Benchmark's are the repetitions).
    fn aggregate_record(&'a self, a: Aggregate) -> RunRecord<'a> {
        let (name, compute, unit) = a;
        let over = |figure: &dyn Fn(&Run) -> f64| {
            compute(&self.runs.iter().map(figure).collect::<Vec<f64>>())
        };
        let over_rounds = Run {
            iterations: self.runs.len() as u64,
            real: over(&|run| run.real),
            cpu: over(&|run| run.cpu),
            counters: (0..self.counters.len())
                .map(|c| over(&|run: &Run| run.counters[c]))
                .collect(),
        };
        RunRecord {
            run_type: "aggregate",
            aggregate_name: Some(name),
            aggregate_unit: Some(unit),
            ..self.record(std::format!("{}_{name}", self.name), &over_rounds)
        }
    }

    /// Every run, then the aggregates (two rounds or more).
    fn records(&'a self) -> impl Iterator<Item = RunRecord<'a>> + 'a {
        let runs = self.runs.iter().enumerate();
        let aggregates = match self.runs.len() >= 2 {
            true => &AGGREGATES[..],
            false => &[],
        };
        let runs = runs.map(|(i, run)| self.run_record(i, run));
        runs.chain(aggregates.iter().map(|&a| self.aggregate_record(a)))
    }
}

/// The file: the machine and the conditions, then every run and aggregate.
#[derive(Serialize)]
struct File<'a> {
    context: Context,
    benchmarks: Vec<RunRecord<'a>>,
}

impl ResultFormat for GoogleBenchmark {
    fn name(&self) -> &'static str {
        "gbench"
    }

    fn title(&self) -> &'static str {
        "Google Benchmark's JSON"
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        let measured = findings.charted();
        let judged = findings.judged_metrics();
        let all = measured
            .iter()
            .flat_map(|(name, r)| families(name, r, &judged));
        let mut families: Vec<Family<'_>> = all.collect();
        for (index, family) in families.iter_mut().enumerate() {
            family.index = index;
        }
        let file = File {
            context: context(&measured),
            benchmarks: families.iter().flat_map(Family::records).collect(),
        };
        write_line(w, &file)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;
    use serde_json::Value;

    use super::*;
    use crate::export::records::{member, member_names};
    use crate::export::results_for_tests;

    /// The members a run of Google Benchmark has before its user counters.
    const RUN: [&str; 12] = [
        "name",
        "family_index",
        "per_family_instance_index",
        "run_name",
        "run_type",
        "repetitions",
        "repetition_index",
        "threads",
        "iterations",
        "real_time",
        "cpu_time",
        "time_unit",
    ];

    /// The user counters of `parse`: its other metrics, then its rate.
    const COUNTERS: [&str; 4] = [
        "Software:TaskClock",
        "Emulated:Instructions",
        "Hardware:CpuCycles",
        "bytes_per_second",
    ];

    /// The file of the test results, its `benchmarks` as written and as values.
    fn file(results: &[BenchResult]) -> (String, Vec<Value>) {
        let findings = Findings::of_results(&results.iter().collect::<Vec<_>>());
        let text = findings.to_text(&GoogleBenchmark).unwrap();
        assert!(
            text.ends_with("]}\n") && text.lines().count() == 1,
            "{text}"
        );
        let runs: Vec<Value> = serde_json::from_str(member(&text, "benchmarks")).unwrap();
        (text, runs)
    }

    #[test]
    fn the_context_holds_the_machine_and_the_conditions_in_google_benchmarks_order() {
        let results = results_for_tests();
        let (text, _) = file(&results);
        assert_eq!(member_names(&text), ["context", "benchmarks"]);
        let context = member(&text, "context");
        let names = [
            "date",
            "host_name",
            "executable",
            "mhz_per_cpu",
            "aslr_enabled",
            "caches",
            "load_avg",
            "num_cpus",
            "cpu_scaling_enabled",
            "library_version",
            "library_build_type",
            "json_schema_version",
            "picollo_cpu_model",
            "picollo_cpu_time",
        ];
        assert_eq!(member_names(context), names);
        let c: Value = serde_json::from_str(context).unwrap();
        let conditions = &results[0].conditions;
        assert_eq!(c["num_cpus"].as_u64(), Some(conditions.cpus as u64));
        assert_eq!(
            c["picollo_cpu_model"].as_str(),
            Some(conditions.cpu_model.as_str())
        );
        assert_eq!(c["json_schema_version"], 1);
        assert_eq!(c["caches"], Value::Array(Vec::new()));
        // `one` has no task-clock: every cpu_time of the file cannot be one.
        let cpu_time = c["picollo_cpu_time"].as_str().unwrap();
        assert_eq!(cpu_time, "the real time where no task-clock was measured");
    }

    #[test]
    fn each_round_is_a_repetition_with_the_rounds_own_medians() {
        let results = results_for_tests();
        let (text, runs) = file(&results);
        let raw: Vec<&RawValue> = serde_json::from_str(member(&text, "benchmarks")).unwrap();
        let r = &results[0];
        let figure = |k: usize, i: usize| r.rounds[k].value(i, 50.0).unwrap() as f64 / SCALE as f64;
        for (k, run) in runs.iter().take(r.rounds.len()).enumerate() {
            assert_eq!(member_names(raw[k].get()), [&RUN[..], &COUNTERS].concat());
            assert_eq!(
                (run["name"].as_str(), run["run_name"].as_str()),
                (Some("parse"), Some("parse"))
            );
            assert_eq!(
                (run["run_type"].as_str(), run["repetition_index"].as_u64()),
                (Some("iteration"), Some(k as u64))
            );
            assert_eq!(run["repetitions"].as_u64(), Some(r.rounds.len() as u64));
            assert_eq!(
                run["iterations"].as_u64(),
                Some(r.rounds[k].samples * r.conditions.batch)
            );
            assert_eq!(run["real_time"].as_f64(), Some(figure(k, 0)));
            assert_eq!(run["cpu_time"].as_f64(), Some(figure(k, 1)));
            for (i, name) in COUNTERS[..3].iter().enumerate() {
                assert_eq!(run[name].as_f64(), Some(figure(k, i + 1)), "{run}");
            }
            // serde_json reads a double to within an ulp or so (without its float_roundtrip).
            let rate = r.throughput.unwrap().per_second(figure(k, 0));
            let read = run["bytes_per_second"].as_f64().unwrap();
            assert!((read - rate).abs() <= 1e-15 * rate, "{read} {rate}");
        }
    }

    #[test]
    fn the_aggregates_follow_the_rounds_and_a_charted_count_is_a_benchmark_of_its_own() {
        let results = results_for_tests();
        let (text, runs) = file(&results);
        let raw: Vec<&RawValue> = serde_json::from_str(member(&text, "benchmarks")).unwrap();
        let (r, rounds) = (&results[0], results[0].rounds.len());
        // parse: its rounds and 4 aggregates; its exact count the same; one: 1 round alone.
        assert_eq!(runs.len(), 2 * (rounds + 4) + 1);
        let mean: f64 = runs[..rounds]
            .iter()
            .map(|x| x["real_time"].as_f64().unwrap())
            .sum::<f64>()
            / rounds as f64;
        let aggregates = &runs[rounds..rounds + 4];
        for (a, (name, _, unit)) in aggregates.iter().zip(AGGREGATES) {
            assert_eq!(
                a["name"].as_str(),
                Some(std::format!("parse_{name}").as_str()),
                "{a}"
            );
            assert_eq!(
                (a["aggregate_name"].as_str(), a["aggregate_unit"].as_str()),
                (Some(name), Some(unit))
            );
            assert_eq!(a["iterations"].as_u64(), Some(rounds as u64));
        }
        assert!((aggregates[0]["real_time"].as_f64().unwrap() - mean).abs() <= 1e-9 * mean);
        // An aggregate's: no repetition index, its name and unit after the threads.
        let mut names = [
            &RUN[..6],
            &["threads", "aggregate_name", "aggregate_unit"],
            &RUN[8..],
        ]
        .concat();
        names.extend(COUNTERS);
        assert_eq!(member_names(raw[rounds].get()), names);
        let count = &runs[rounds + 4];
        assert_eq!(
            count["name"].as_str(),
            Some("parse (Emulated:Instructions)")
        );
        let instructions = r.rounds[0].value(2, 50.0).unwrap() as f64 / SCALE as f64;
        assert_eq!(
            (count["real_time"].as_f64(), count["cpu_time"].as_f64()),
            (Some(instructions), Some(instructions))
        );
        assert!(
            count["label"]
                .as_str()
                .unwrap()
                .starts_with("Emulated:Instructions: events per "),
            "{count}"
        );
        let mut names = RUN.to_vec();
        names.push("label");
        assert_eq!(member_names(raw[rounds + 4].get()), names);
        let one = &runs[runs.len() - 1];
        assert_eq!(
            (one["family_index"].as_u64(), one["run_name"].as_str()),
            (Some(2), Some(results[1].name.as_str()))
        );
        assert_eq!(one["real_time"], one["cpu_time"]);
    }

    #[test]
    fn the_aggregates_are_google_benchmarks_over_repetitions() {
        let v = [1.0, 2.0, 3.0, 6.0];
        let value = |name: &str| AGGREGATES.iter().find(|a| a.0 == name).map(|a| a.1(&v));
        assert_eq!(value("mean"), Some(3.0));
        assert_eq!(value("median"), Some(2.5));
        // Sample variance: (4 + 1 + 0 + 9) / 3.
        let sd = (14.0f64 / 3.0).sqrt();
        assert_eq!(value("stddev"), Some(sd));
        assert_eq!(value("cv"), Some(sd / 3.0));
    }
}
