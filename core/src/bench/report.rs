//! The harness's text: the report (conditions, a table of every metric, tail attribution),
//! one line, JSON, an interval log with one tag per metric, and the comparison with its
//! verdict.

use core::fmt::{self, Display, Write};

use super::attribution::Attribution;
use super::compare::{Comparison, MetricDiff, Verdict};
use super::meter::SCALE;
use super::result::{BenchResult, MetricResult};
use super::stats::mean_interval;
use crate::hdr::{LogError, LogWriter};

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
    writeln!(
        w,
        "- batch: {} op(s) per sample, {} samples, warm-up {} batches",
        c.batch, r.samples, c.warm_up.batches
    )?;
    for warning in &c.warnings {
        writeln!(w, "- warning: {warning}")?;
    }
    Ok(())
}

fn write_metric_row(m: &MetricResult, w: &mut dyn Write) -> fmt::Result {
    let view = m.histogram.view();
    let unit = |v: u64| v as f64 / SCALE as f64;
    write!(w, "| {} ({}) |", m.metric.name, m.metric.unit)?;
    for &(_, rank) in &REPORTED {
        write!(
            w,
            " {:.3} |",
            unit(view.percentile_value(rank).unwrap_or(0))
        )?;
    }
    let max = view.max_recorded().unwrap_or(0);
    let (mean, half) = mean_interval(&view).unwrap_or((f64::NAN, f64::NAN));
    let mark = if m.multiplexed { " (multiplexed)" } else { "" };
    writeln!(
        w,
        " {:.3} | {:.3} ± {:.3}{mark} |",
        unit(max),
        mean / SCALE as f64,
        half / SCALE as f64
    )
}

fn write_attribution(a: &Attribution, w: &mut dyn Write) -> fmt::Result {
    writeln!(
        w,
        "\nWhat the slow operations did (mean per operation in each band of time):\n"
    )?;
    write!(w, "| Band | Samples |")?;
    for name in &a.metrics {
        write!(w, " {name} |")?;
    }
    write!(w, "\n|---|---:|")?;
    for _ in &a.metrics {
        write!(w, "---:|")?;
    }
    writeln!(w)?;
    for b in &a.bands {
        write!(w, "| {} | {} |", b.label, b.samples)?;
        for m in &b.means {
            write!(w, " {m:.3} |")?;
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
        writeln!(
            w,
            "| Metric (per op) | P0 | P50 | P90 | P99 | P99.9 | Max | Mean ± 95 % CI |"
        )?;
        writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|")?;
        for m in &self.metrics {
            write_metric_row(m, w)?;
        }
        write_attribution(&self.attribution(), w)
    }

    /// Every metric's full Markdown summary (the standard ranks), values per operation.
    pub fn write_summaries(&self, w: &mut dyn Write) -> fmt::Result {
        for m in &self.metrics {
            let title = std::format!(
                "{}: {} ({} per op)",
                self.name,
                m.metric.name,
                m.metric.unit
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
        json_str(w, &self.name)?;
        write!(
            w,
            ",\"batch\":{},\"samples\":{},\"scale\":{SCALE},\"warnings\":[",
            self.conditions.batch, self.samples
        )?;
        for (i, warning) in self.conditions.warnings.iter().enumerate() {
            w.write_str(if i == 0 { "" } else { "," })?;
            json_str(w, warning)?;
        }
        w.write_str("],\"metrics\":[")?;
        for (i, m) in self.metrics.iter().enumerate() {
            w.write_str(if i == 0 { "{\"name\":" } else { ",{\"name\":" })?;
            json_str(w, &m.metric.name)?;
            write!(
                w,
                ",\"unit\":\"{}\",\"overhead\":{},\"multiplexed\":{},\"summary\":",
                m.metric.unit, m.overhead, m.multiplexed
            )?;
            m.histogram.view().summary().write_json(w)?;
            w.write_str("}")?;
        }
        w.write_str("]}")
    }

    /// An interval log: one interval per metric, tagged with its name (spaces and commas
    /// as `_`), values in thousandths of the unit, read by `picollo report/diff/plot`.
    pub fn write_log(&self, w: &mut dyn Write) -> Result<(), LogError> {
        let mut log = LogWriter::new(w);
        log.header(None, None)?;
        log.comment(&std::format!(
            "picollo bench {}: values are thousandths of each metric's unit per operation",
            self.name
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

fn json_str(w: &mut dyn Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => w.write_char(c)?,
        }
    }
    w.write_char('"')
}

impl Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_report(f)
    }
}

fn write_metric_diff(d: &MetricDiff, a: &str, b: &str, w: &mut dyn Write) -> fmt::Result {
    writeln!(w, "\n{} ({} per op):\n", d.name, d.unit)?;
    writeln!(w, "| Percentile | {a} | {b} | Δ% | 99 % CI of {b} − {a} |")?;
    writeln!(w, "|---|---:|---:|---:|---|")?;
    for r in &d.rows {
        write!(
            w,
            "| P{} | {:.3} | {:.3} | {:+.1}% |",
            r.rank, r.a, r.b, r.change
        )?;
        match r.interval {
            Some((lo, hi)) => {
                let mark = if r.excludes_zero() { " *" } else { "" };
                writeln!(w, " [{lo:.3}, {hi:.3}]{mark} |")?
            }
            None => writeln!(w, " — |")?,
        }
    }
    let (ma, mb) = d.means;
    writeln!(
        w,
        "| Mean | {ma:.3} | {mb:.3} | {:+.1}% | |",
        (mb - ma) / ma * 100.0
    )?;
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
    /// Per metric a diff table (`*` marks an interval that excludes 0), the rank test,
    /// then the verdict line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "##### {} against {}", self.b, self.a)?;
        for d in &self.metrics {
            write_metric_diff(d, &self.a, &self.b, f)?;
        }
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
