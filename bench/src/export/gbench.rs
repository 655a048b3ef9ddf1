//! Google Benchmark's JSON (`--benchmark_format=json`, schema version 1): a `context` of the
//! machine and one run per round of each benchmark, as Google Benchmark writes one per
//! repetition: `run_type` `iteration`, `iterations` the round's operations, `real_time` its
//! median time per operation and `cpu_time` its median task-clock (the time on a CPU; the
//! real time where the result has no task-clock, which `context.picollo_cpu_time` says);
//! then, with two rounds or more, the aggregates over the rounds that Google Benchmark
//! writes over repetitions (`_mean`, `_median`, `_stddev`, `_cv`). Its `compare.py` pairs
//! the benchmarks of two such files by name.

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

use picollo::text::{json_f64, json_string};

use super::{Export, Suite};
use crate::conditions::Conditions;
use crate::meter::{MetricKind, SCALE};
use crate::result::BenchResult;
use crate::stats::median;

/// Google Benchmark's JSON (`gbench`).
pub struct GoogleBenchmark;

/// Per round of a result: its operations, its median real time and CPU time (ns).
fn rounds(r: &BenchResult) -> Vec<(u64, f64, f64)> {
    let time = r.time_index();
    let cpu = on_cpu(r);
    let ns = |v: Option<u64>| v.map_or(f64::NAN, |v| v as f64 / SCALE as f64);
    let each = r.rounds.iter().map(|round| {
        let real = ns(round.value(time, 50.0));
        let cpu = cpu.map_or(real, |i| ns(round.value(i, 50.0)));
        (round.samples * r.conditions.batch, real, cpu)
    });
    each.collect()
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

/// One benchmark in the file: its name, its index, its rounds.
struct Family<'a> {
    name: &'a str,
    index: usize,
    repetitions: usize,
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
        json_string(w, self.name)?;
        write!(
            w,
            ",\"run_type\":\"{run_type}\",\"repetitions\":{}",
            self.repetitions
        )
    }

    /// `,"real_time": r, "cpu_time": c, "time_unit": "ns"}` (closed).
    fn write_times(w: &mut dyn Write, real: f64, cpu: f64) -> fmt::Result {
        w.write_str(",\"real_time\":")?;
        json_f64(w, real)?;
        w.write_str(",\"cpu_time\":")?;
        json_f64(w, cpu)?;
        w.write_str(",\"time_unit\":\"ns\"}")
    }

    /// Round `i` as a repetition.
    fn write_run(&self, w: &mut dyn Write, i: usize, run: (u64, f64, f64)) -> fmt::Result {
        self.write_head(w, self.name, "iteration")?;
        let (iterations, real, cpu) = run;
        write!(
            w,
            ",\"repetition_index\":{i},\"threads\":1,\"iterations\":{iterations}"
        )?;
        Self::write_times(w, real, cpu)
    }

    /// An aggregate over the rounds.
    fn write_aggregate(
        &self,
        w: &mut dyn Write,
        a: Aggregate,
        runs: &[(u64, f64, f64)],
    ) -> fmt::Result {
        let (name, compute, unit) = a;
        self.write_head(w, &std::format!("{}_{name}", self.name), "aggregate")?;
        write!(
            w,
            ",\"threads\":1,\"aggregate_name\":\"{name}\",\"aggregate_unit\":\"{unit}\",\
             \"iterations\":{}",
            runs.len()
        )?;
        let real: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let cpu: Vec<f64> = runs.iter().map(|r| r.2).collect();
        Self::write_times(w, compute(&real), compute(&cpu))
    }
}

/// Every run of one benchmark, each followed by a comma.
fn write_family(w: &mut dyn Write, family: &Family<'_>, runs: &[(u64, f64, f64)]) -> fmt::Result {
    for (i, &run) in runs.iter().enumerate() {
        family.write_run(w, i, run)?;
        w.write_str(",")?;
    }
    if runs.len() >= 2 {
        for a in AGGREGATES {
            family.write_aggregate(w, a, runs)?;
            w.write_str(",")?;
        }
    }
    Ok(())
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
        w.write_str("{")?;
        write_context(w, &measured)?;
        let mut list = String::new();
        for (index, (name, r)) in measured.iter().enumerate() {
            let runs = rounds(r);
            let family = Family {
                name,
                index,
                repetitions: runs.len(),
            };
            write_family(&mut list, &family, &runs)?;
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
