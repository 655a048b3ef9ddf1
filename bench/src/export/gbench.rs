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
//! name and compares their times only; so a metric the suite's comparisons judge (`picollo
//! bench --metric`), and an exact count, is also a benchmark of its own, `NAME (METRIC)`,
//! whose `real_time` and `cpu_time` are that metric's figure (its `label` says so), and
//! `compare.py` judges its change like a time's.

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

use picollo::text::{json_f64, json_string};

use super::{charted, Export, Suite};
use crate::measure::conditions::Conditions;
use crate::measure::meter::{MetricKind, SCALE};
use crate::measure::result::BenchResult;
use crate::measure::throughput::Throughput;
use crate::stats::median;

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
/// ([`charted`]: the ones the suite judges, the exact ones) as a benchmark of its own.
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
fn on_cpu(r: &BenchResult) -> Option<usize> {
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

impl Family<'_> {
    /// `{"name": …, "family_index": …, … "run_type": RUN_TYPE, "repetitions": N` (open).
    fn write_head(&self, w: &mut dyn Write, name: &str, run_type: &str) -> fmt::Result {
        w.write_str("{\"name\":")?;
        json_string(w, name)?;
        write!(
            w,
            ",\"family_index\":{},\"per_family_instance_index\":0,\"run_name\":",
            self.index
        )?;
        json_string(w, &self.name)?;
        write!(
            w,
            ",\"run_type\":\"{run_type}\",\"repetitions\":{}",
            self.runs.len()
        )
    }

    /// `,"real_time": r, "cpu_time": c, "time_unit": "ns"`, the user counters and the
    /// label (closed).
    fn write_figures(
        &self,
        w: &mut dyn Write,
        real: f64,
        cpu: f64,
        counters: &[f64],
    ) -> fmt::Result {
        w.write_str(",\"real_time\":")?;
        json_f64(w, real)?;
        w.write_str(",\"cpu_time\":")?;
        json_f64(w, cpu)?;
        w.write_str(",\"time_unit\":\"ns\"")?;
        for (name, value) in self.counters.iter().zip(counters) {
            w.write_str(",")?;
            json_string(w, name)?;
            w.write_str(":")?;
            json_f64(w, *value)?;
        }
        if let Some(label) = &self.label {
            w.write_str(",\"label\":")?;
            json_string(w, label)?;
        }
        w.write_str("}")
    }

    /// Round `i` as a repetition.
    fn write_run(&self, w: &mut dyn Write, i: usize, run: &Run) -> fmt::Result {
        self.write_head(w, &self.name, "iteration")?;
        write!(
            w,
            ",\"repetition_index\":{i},\"threads\":1,\"iterations\":{}",
            run.iterations
        )?;
        self.write_figures(w, run.real, run.cpu, &run.counters)
    }

    /// An aggregate over the rounds, of the times and of each counter.
    fn write_aggregate(&self, w: &mut dyn Write, a: Aggregate) -> fmt::Result {
        let (name, compute, unit) = a;
        self.write_head(w, &std::format!("{}_{name}", self.name), "aggregate")?;
        write!(
            w,
            ",\"threads\":1,\"aggregate_name\":\"{name}\",\"aggregate_unit\":\"{unit}\",\
             \"iterations\":{}",
            self.runs.len()
        )?;
        let over = |figure: &dyn Fn(&Run) -> f64| {
            compute(&self.runs.iter().map(figure).collect::<Vec<f64>>())
        };
        let counters: Vec<f64> = (0..self.counters.len())
            .map(|c| over(&|run: &Run| run.counters[c]))
            .collect();
        self.write_figures(w, over(&|run| run.real), over(&|run| run.cpu), &counters)
    }

    /// Every run, each followed by a comma, then the aggregates (two rounds or more).
    fn write(&self, w: &mut dyn Write) -> fmt::Result {
        for (i, run) in self.runs.iter().enumerate() {
            self.write_run(w, i, run)?;
            w.write_str(",")?;
        }
        if self.runs.len() >= 2 {
            for a in AGGREGATES {
                self.write_aggregate(w, a)?;
                w.write_str(",")?;
            }
        }
        Ok(())
    }
}

/// A line of a file under /proc or /sys, trimmed (`None` where unreadable).
fn read(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.trim().into())
}

/// `2026-01-31T12:00:00+00:00` of `seconds` since the Unix epoch (UTC).
pub(crate) fn utc_date(seconds: u64) -> String {
    // Days to the civil date (Howard Hinnant's algorithm, from a March-based year).
    let days = (seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let s = seconds % 86_400;
    std::format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00",
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// The machine's figures of `context` that Picollo's conditions do not hold.
fn write_machine(w: &mut dyn Write) -> fmt::Result {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    w.write_str("\"date\":")?;
    json_string(w, &utc_date(now.map_or(0, |d| d.as_secs())))?;
    w.write_str(",\"host_name\":")?;
    json_string(w, &read("/proc/sys/kernel/hostname").unwrap_or_default())?;
    w.write_str(",\"executable\":")?;
    let exe = std::env::current_exe().map(|p| p.display().to_string());
    json_string(w, &exe.unwrap_or_default())?;
    let cpuinfo = read("/proc/cpuinfo").unwrap_or_default();
    let mhz = cpuinfo.lines().find(|l| l.starts_with("cpu MHz"));
    let mhz = mhz.and_then(|l| l.split(':').nth(1)?.trim().parse::<f64>().ok());
    write!(w, ",\"mhz_per_cpu\":{}", mhz.unwrap_or(0.0).round() as u64)?;
    let aslr = read("/proc/sys/kernel/randomize_va_space").is_some_and(|v| v != "0");
    write!(w, ",\"aslr_enabled\":{aslr},\"caches\":[],\"load_avg\":[")?;
    let load = read("/proc/loadavg").unwrap_or_default();
    let load: Vec<f64> = load
        .split(' ')
        .take(3)
        .filter_map(|x| x.parse().ok())
        .collect();
    picollo::text::comma_separated(w, load, |w, v| json_f64(w, v))?;
    w.write_str("]")
}

/// `"context": {…}` of the first result's conditions (the machine's where none was
/// measured).
fn write_context(w: &mut dyn Write, measured: &[(String, &BenchResult)]) -> fmt::Result {
    let machine;
    let c = match measured.first() {
        Some((_, r)) => &r.conditions,
        None => {
            machine = Conditions::of_machine(None);
            &machine
        }
    };
    w.write_str("\"context\":{")?;
    write_machine(w)?;
    let scaling = c.governor.as_deref().is_some_and(|g| g != "performance");
    let unoptimized = measured
        .iter()
        .any(|(_, r)| r.conditions.unoptimized.is_some());
    write!(
        w,
        ",\"num_cpus\":{},\"cpu_scaling_enabled\":{scaling},\"library_version\":\"picollo-bench \
         {}\",\"library_build_type\":\"{}\",\"json_schema_version\":1,\"picollo_cpu_model\":",
        c.cpus,
        env!("CARGO_PKG_VERSION"),
        if unoptimized { "debug" } else { "release" }
    )?;
    json_string(w, &c.cpu_model)?;
    let all_cpu = measured.iter().all(|(_, r)| on_cpu(r).is_some());
    w.write_str(",\"picollo_cpu_time\":")?;
    json_string(
        w,
        match all_cpu {
            true => "task-clock: the time on a CPU",
            false => "the real time where no task-clock was measured",
        },
    )?;
    w.write_str("}")
}

impl Export for GoogleBenchmark {
    fn name(&self) -> &'static str {
        "gbench"
    }

    fn title(&self) -> &'static str {
        "Google Benchmark's JSON"
    }

    fn write(&self, suite: &Suite<'_>, w: &mut dyn Write) -> fmt::Result {
        let measured = suite.measured();
        let judged = suite.judged_metrics();
        w.write_str("{")?;
        write_context(w, &measured)?;
        let mut list = String::new();
        let all = measured
            .iter()
            .flat_map(|(name, r)| families(name, r, &judged));
        for (index, mut family) in all.enumerate() {
            family.index = index;
            family.write(&mut list)?;
        }
        list.pop(); // the last comma
        writeln!(w, ",\"benchmarks\":[{list}]}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_fall_on_the_calendar_days_they_name() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00+00:00");
        // A leap day, a century that is a leap year, and the last second of a year.
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(utc_date(1_704_067_199), "2023-12-31T23:59:59+00:00");
        assert_eq!(utc_date(4_107_542_400), "2100-03-01T00:00:00+00:00");
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
