//! The harness's text: the report (conditions, a table of every metric, tail attribution),
//! one line, JSON, an interval log with one tag per metric, and the comparison with its
//! verdict.

use core::fmt::{self, Display, Write};

use super::attribution::Attribution;
use super::compare::{Comparison, MetricDiff, Verdict};
use super::meter::SCALE;
use super::result::{BenchResult, MetricResult};
use super::stats::mean_interval;
use crate::format::json::{comma_separated, json_string};
use crate::hdr::{LogError, LogWriter};
use crate::GroupedF64;

/// How a metric's figures are shown: time in the unit that suits its median (ns, µs, ms,
/// s), three decimals; counters grouped, with three decimals below 1,000.
#[derive(Clone, Copy)]
struct Shown {
    divisor: f64,
    unit: &'static str,
    decimals: usize,
}

impl Shown {
    /// For figures in `unit` whose median is `typical`.
    fn new(unit: &'static str, typical: f64) -> Self {
        const TIME: [(f64, &str); 4] = [(1.0, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")];
        if unit == "ns" {
            let (divisor, unit) = TIME
                .iter()
                .copied()
                .take_while(|&(d, _)| typical >= 10.0 * d || d == 1.0)
                .last()
                .unwrap_or(TIME[0]);
            return Shown {
                divisor,
                unit,
                decimals: 3,
            };
        }
        let decimals = if typical < 1_000.0 { 3 } else { 0 };
        Shown {
            divisor: 1.0,
            unit,
            decimals,
        }
    }

    /// For a metric of a result, by its median (or its mean, when larger: a metric that is
    /// mostly 0 is shown in the unit of its other values).
    fn of(m: &MetricResult) -> Self {
        let median = m.percentile(50.0).unwrap_or(0.0);
        Self::new(m.metric.unit, median.max(m.mean()))
    }

    /// `v` (in the metric's unit) as shown.
    fn show(self, v: f64) -> GroupedF64 {
        GroupedF64(v / self.divisor, self.decimals)
    }
}

/// The ranks of the report's table.
const REPORTED: [(&str, f64); 5] = [
    ("P0", 0.0),
    ("P50", 50.0),
    ("P90", 90.0),
    ("P99", 99.0),
    ("P99.9", 99.9),
];

fn optional(w: &mut dyn Write, label: &str, v: &Option<impl Display>) -> fmt::Result {
    match v {
        Some(v) => write!(w, ", {label} {v}"),
        None => Ok(()),
    }
}

fn write_conditions(r: &BenchResult, w: &mut dyn Write) -> fmt::Result {
    let c = &r.conditions;
    writeln!(w, "##### {}", r.name)?;
    write!(
        w,
        "- machine: {}, {} CPUs, Linux {}",
        c.cpu_model, c.cpus, c.kernel
    )?;
    optional(w, "governor", &c.governor)?;
    optional(w, "boost", &c.boost)?;
    writeln!(w)?;
    writeln!(w, "- PMU: {}", c.pmu)?;
    write!(w, "- clock: {}", c.clock)?;
    optional(w, "clocksource", &c.clocksource)?;
    optional(w, "pinned to CPU", &c.pinned_cpu)?;
    writeln!(w)?;
    match c.operation.as_str() {
        "op" => writeln!(
            w,
            "- batch: {} op(s) per sample, {} samples, warm-up {} batches",
            c.batch, r.samples, c.warm_up.batches
        )?,
        op => writeln!(
            w,
            "- {} {op}s measured, after {} warm-up {op}(s)",
            r.samples, c.warm_up.batches
        )?,
    }
    if let Some(b) = &c.baseline {
        writeln!(
            w,
            "- baseline: the medians of {b} subtracted from every figure"
        )?;
    }
    for warning in &c.warnings {
        writeln!(w, "- warning: {warning}")?;
    }
    Ok(())
}

fn write_metric_row(m: &MetricResult, w: &mut dyn Write) -> fmt::Result {
    let view = m.histogram.view();
    let shown = Shown::of(m);
    let unit = |v: u64| shown.show(v as f64 / SCALE as f64);
    write!(w, "| {} ({}) |", m.metric.name, shown.unit)?;
    for &(_, rank) in &REPORTED {
        write!(w, " {} |", unit(view.percentile_value(rank).unwrap_or(0)))?;
    }
    let max = view.max_recorded().unwrap_or(0);
    let (mean, half) = mean_interval(&view).unwrap_or((f64::NAN, f64::NAN));
    let mark = if m.multiplexed { " (multiplexed)" } else { "" };
    let scaled = |v: f64| shown.show(v / SCALE as f64);
    writeln!(
        w,
        " {} | {} ± {}{mark} |",
        unit(max),
        scaled(mean),
        scaled(half)
    )
}

/// What the report calls one operation in prose: `operation` for `op`.
fn noun(operation: &str) -> &str {
    match operation {
        "op" => "operation",
        other => other,
    }
}

fn write_attribution(r: &BenchResult, a: &Attribution, w: &mut dyn Write) -> fmt::Result {
    let n = noun(&r.conditions.operation);
    writeln!(
        w,
        "\nWhat the slow {n}s did (mean per {n} in each band of time):\n"
    )?;
    let shown: std::vec::Vec<Shown> = r.metrics.iter().map(Shown::of).collect();
    write!(w, "| Band | Samples |")?;
    for (name, s) in a.metrics.iter().zip(&shown) {
        write!(w, " {name} ({}) |", s.unit)?;
    }
    write!(w, "\n|---|---:|")?;
    for _ in &a.metrics {
        write!(w, "---:|")?;
    }
    writeln!(w)?;
    for b in &a.bands {
        write!(w, "| {} | {} |", b.label, b.samples)?;
        for (m, s) in b.means.iter().zip(&shown) {
            match b.samples {
                0 => write!(w, " — |")?,
                _ => write!(w, " {} |", s.show(*m))?,
            }
        }
        writeln!(w)?;
    }
    for finding in a.findings() {
        writeln!(w, "- {finding}")?;
    }
    Ok(())
}

impl BenchResult {
    /// The report: conditions, one row per metric (P0, P50, P90, P99, P99.9, max, mean with
    /// its 95 % interval, per operation), then the tail attribution.
    pub fn write_report(&self, w: &mut dyn Write) -> fmt::Result {
        write_conditions(self, w)?;
        writeln!(w)?;
        let op = &self.conditions.operation;
        writeln!(
            w,
            "| Metric (per {op}) | P0 | P50 | P90 | P99 | P99.9 | Max | Mean ± 95 % CI |"
        )?;
        writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|")?;
        for m in &self.metrics {
            write_metric_row(m, w)?;
        }
        write_attribution(self, &self.attribution(), w)
    }

    /// Every metric's full Markdown summary (the standard ranks), values per operation.
    pub fn write_summaries(&self, w: &mut dyn Write) -> fmt::Result {
        for m in &self.metrics {
            let title = std::format!(
                "{}: {} ({} per {})",
                self.name,
                m.metric.name,
                m.metric.unit,
                self.conditions.operation
            );
            m.histogram
                .view()
                .summary()
                .write_table_scaled(w, &title, SCALE as f64)?;
            writeln!(w)?;
        }
        Ok(())
    }

    /// One line: `name: time P50=12.345 ns P99=… mean=… ± … ns; batch k, n samples`.
    pub fn write_line(&self, w: &mut dyn Write) -> fmt::Result {
        let t = self.time();
        let (mean, half) = mean_interval(&t.histogram.view()).unwrap_or((f64::NAN, f64::NAN));
        write!(
            w,
            "{}: time P50={:.3} P99={:.3} mean={:.3} ± {:.3} ns; batch {}, {} samples",
            self.name,
            t.percentile(50.0).unwrap_or(f64::NAN),
            t.percentile(99.0).unwrap_or(f64::NAN),
            mean / SCALE as f64,
            half / SCALE as f64,
            self.conditions.batch,
            self.samples
        )
    }

    /// JSON: name, batch, samples, warnings and, per metric, its unit, overhead, whether it
    /// was multiplexed and its summary (values in thousandths of the unit: `"scale": 1000`).
    pub fn write_json(&self, w: &mut dyn Write) -> fmt::Result {
        write!(w, "{{\"name\":")?;
        json_string(w, &self.name)?;
        write!(
            w,
            ",\"batch\":{},\"samples\":{},\"scale\":{SCALE},\"warnings\":[",
            self.conditions.batch, self.samples
        )?;
        comma_separated(w, &self.conditions.warnings, |w, warning| {
            json_string(w, warning)
        })?;
        w.write_str("],\"metrics\":[")?;
        comma_separated(w, &self.metrics, |w, m| {
            w.write_str("{\"name\":")?;
            json_string(w, &m.metric.name)?;
            write!(
                w,
                ",\"unit\":\"{}\",\"overhead\":{},\"multiplexed\":{},\"summary\":",
                m.metric.unit, m.overhead, m.multiplexed
            )?;
            m.histogram.view().summary().write_json(w)?;
            w.write_str("}")
        })?;
        w.write_str("]}")
    }

    /// An interval log: one interval per metric, tagged with its name (spaces and commas
    /// as `_`), values in thousandths of the unit, read by `picollo report/diff/plot`.
    pub fn write_log(&self, w: &mut dyn Write) -> Result<(), LogError> {
        let mut log = LogWriter::new(w);
        log.header(None, None)?;
        log.comment(&std::format!(
            "picollo bench {}: values are thousandths of each metric's unit per {}",
            self.name,
            self.conditions.operation
        ))?;
        for m in &self.metrics {
            let tag: std::string::String = m
                .metric
                .name
                .chars()
                .map(|c| if c == ' ' || c == ',' { '_' } else { c })
                .collect();
            log.interval(Some(&tag), 0.0, 1.0, &m.histogram.view())?;
        }
        Ok(())
    }
}

impl Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_report(f)
    }
}

/// `(b − a) / a` as shown: `+12.3%`, `0.0%` when both are 0, `—` when only `a` is.
fn change(a: f64, b: f64) -> std::string::String {
    match (a == 0.0, b == 0.0) {
        (true, true) => "0.0%".into(),
        (true, false) => "—".into(),
        _ => std::format!("{:+.1}%", (b - a) / a * 100.0),
    }
}

fn write_metric_diff(c: &Comparison, d: &MetricDiff, w: &mut dyn Write) -> fmt::Result {
    let (a, b, op) = (&c.a, &c.b, &c.operation);
    let typical = d.rows.iter().find(|r| r.rank == 50.0).map_or(0.0, |r| r.a);
    let s = Shown::new(d.unit, typical);
    writeln!(w, "\n{} ({} per {op}):\n", d.name, s.unit)?;
    writeln!(w, "| Percentile | {a} | {b} | Δ% | 99 % CI of {b} − {a} |")?;
    writeln!(w, "|---|---:|---:|---:|---|")?;
    for r in &d.rows {
        let (va, vb, c) = (s.show(r.a), s.show(r.b), change(r.a, r.b));
        write!(w, "| P{} | {va} | {vb} | {c} |", r.rank)?;
        match r.interval {
            Some((lo, hi)) => {
                let mark = if r.excludes_zero() { " *" } else { "" };
                writeln!(w, " [{}, {}]{mark} |", s.show(lo), s.show(hi))?
            }
            None => writeln!(w, " — |")?,
        }
    }
    let (ma, mb) = d.means;
    let c = change(ma, mb);
    writeln!(w, "| Mean | {} | {} | {c} | |", s.show(ma), s.show(mb))?;
    match d.cohens_d {
        Some(x) => writeln!(w, "| Cohen's d | | | {x:+.3} | |"),
        None => writeln!(w, "| Cohen's d | | | n/a | |"),
    }
}

impl Comparison {
    /// The verdict line.
    pub fn write_verdict(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b) = (&self.a, &self.b);
        match self.verdict {
            Verdict::Faster(p) => write!(
                w,
                "verdict: {b} is faster than {a} by {p:.1}% (99 % confidence)"
            ),
            Verdict::Slower(p) => write!(
                w,
                "verdict: {b} is slower than {a} by {p:.1}% (99 % confidence)"
            ),
            Verdict::NoDifference => {
                write!(
                    w,
                    "verdict: no difference between {a} and {b} (99 % confidence)"
                )
            }
        }
    }
}

impl Display for Comparison {
    /// Per metric a diff table (`*` marks an interval that excludes 0; metrics that are 0
    /// throughout in both are named in one line instead), the rank test, then the verdict
    /// line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "##### {} against {}", self.b, self.a)?;
        let zero = |d: &&MetricDiff| d.means == (0.0, 0.0) && d.rows.iter().all(|r| r.b == 0.0);
        for d in self.metrics.iter().filter(|d| !zero(d)) {
            write_metric_diff(self, d, f)?;
        }
        let zeros: std::vec::Vec<&str> = self
            .metrics
            .iter()
            .filter(zero)
            .map(|d| d.name.as_str())
            .collect();
        if !zeros.is_empty() {
            writeln!(
                f,
                "\n{}: 0 per {} in both.",
                zeros.join(", "),
                self.operation
            )?;
        }
        writeln!(
            f,
            "\n`*`: the interval excludes 0. `—`: no interval (P0 and P100, or too few samples \
             for the percentile: n·q·(1−q) < 2)."
        )?;
        if let Some(t) = self.rank_test {
            writeln!(
                f,
                "\nMann–Whitney on time: z = {:+.2}, P({} > {}) = {:.3}",
                t.z, self.b, self.a, t.superiority
            )?;
        }
        self.write_verdict(f)?;
        writeln!(f)
    }
}
