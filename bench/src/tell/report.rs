//! The harness's text: the report (conditions, a table of every metric, tail attribution),
//! one line, JSON, an interval log with one tag per metric, and the comparison with its
//! verdict.

use core::fmt::{self, Display, Write};

use super::attribution::Attribution;
use crate::judge::verdict::{Comparison, Interleaved, MetricDiff};
use crate::measure::meter::{Unit, SCALE};
use crate::measure::result::{BenchResult, MetricResult};
use crate::measure::rounds::ROUND_RANKS;
use crate::model::document::{no_summary, MetricRecord, RateRecord, ResultRecord, RoundRecord};
use crate::stats::mean_interval;
use picollo::hdr::{LogError, LogWriter};
use picollo::GroupedF64;
use serde_json::value::RawValue;
use std::string::String;

/// How a metric's figures are shown: time in the unit that suits its median (ns, µs, ms,
/// s), three decimals; counters grouped, with three decimals below 1,000; whole counts (a
/// count per run or per single operation, [`MetricResult::whole`]) as whole numbers where
/// a figure is one sample's (percentiles, max), with decimals where it is a mean.
#[derive(Clone, Copy)]
pub(crate) struct Shown {
    divisor: f64,
    pub(crate) unit: &'static str,
    decimals: usize,
    whole: bool,
}

impl Shown {
    /// For figures in `unit` whose median is `typical`, whole counts or not.
    pub(crate) fn new(unit: Unit, typical: f64, whole: bool) -> Self {
        const TIME: [(f64, &str); 4] = [(1.0, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")];
        let (divisor, name, decimals) = match unit {
            Unit::Nanoseconds => {
                let scale = TIME.iter().copied();
                let fits = scale.take_while(|&(d, _)| typical >= 10.0 * d || d == 1.0);
                let (divisor, name) = fits.last().unwrap_or(TIME[0]);
                (divisor, name, 3)
            }
            Unit::Events | Unit::Bytes => {
                (1.0, unit.as_str(), if typical < 1_000.0 { 3 } else { 0 })
            }
        };
        Shown {
            divisor,
            unit: name,
            decimals,
            whole,
        }
    }

    /// For a metric of result `r`, by its median (or its mean, when larger: a metric that
    /// is mostly 0 is shown in the unit of its other values), or by the largest of those in
    /// `r` and the results shown with it (`among`), so that one metric has one unit.
    pub(crate) fn of(r: &BenchResult, m: &MetricResult, among: &[&BenchResult]) -> Self {
        let typical = |m: &MetricResult| m.percentile(50.0).unwrap_or(0.0).max(m.mean());
        let others = among.iter().filter_map(|o| o.metric(&m.metric.name));
        let largest = others.map(typical).fold(typical(m), f64::max);
        Self::new(m.metric.unit, largest, m.whole(r.conditions.batch))
    }

    /// For both sides of a metric's diff: one unit, that of the larger median or mean, as
    /// the reports choose.
    pub(crate) fn of_diff(d: &MetricDiff) -> Self {
        let median = d.rows.iter().find(|r| r.rank == 50.0);
        let medians = median.map_or(0.0, |r| r.a.max(r.b));
        Self::new(d.unit, medians.max(d.means.0).max(d.means.1), d.whole)
    }

    /// A sample's figure `v` (in the metric's unit) as shown: a whole count rounded.
    pub(crate) fn show(self, v: f64) -> GroupedF64 {
        match self.whole {
            true => GroupedF64(v.round(), 0),
            false => self.figure(v),
        }
    }

    /// An axis tick `v` (in the metric's unit) as shown: as many decimals as its size
    /// needs (none from 100 up).
    pub(crate) fn tick(self, v: f64) -> std::string::String {
        let x = v / self.divisor;
        let decimals = match x.abs() {
            a if a >= 100.0 || a == 0.0 => 0,
            a if a >= 10.0 => 1,
            a if a >= 1.0 => 2,
            _ => 3,
        };
        std::format!("{}", GroupedF64(x, decimals))
    }

    /// A mean or a difference `v` (in the metric's unit) as shown, whole counts or not.
    pub(crate) fn figure(self, v: f64) -> GroupedF64 {
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

/// `, label v` where there is a `v`.
fn optional(label: &str, v: &Option<impl Display>) -> String {
    v.as_ref()
        .map_or(String::new(), |v| std::format!(", {label} {v}"))
}

/// What `r` was measured under, an item each (the report's list, without its dashes): the
/// machine, the PMU, the clock, the batch, the baseline, the throughput, each warning.
pub(crate) fn conditions(r: &BenchResult) -> Vec<String> {
    let c = &r.conditions;
    let mut items = std::vec![
        std::format!(
            "machine: {}, {} CPUs, Linux {}{}{}",
            c.cpu_model,
            c.cpus,
            c.kernel,
            optional("governor", &c.governor),
            optional("boost", &c.boost)
        ),
        std::format!("PMU: {}", c.pmu),
        std::format!(
            "clock: {}{}{}",
            c.clock,
            optional("clocksource", &c.clocksource),
            optional("pinned to CPU", &c.pinned_cpu)
        ),
        batch_item(r),
    ];
    if let Some(b) = &c.baseline {
        items.push(std::format!(
            "baseline: the medians of {b} subtracted from every figure"
        ));
    }
    if let (Some(t), Some(rate)) = (r.throughput, r.rate()) {
        let (n, unit) = (t.per_operation(), t.unit());
        items.push(std::format!(
            "throughput: {n} {unit} an operation, {rate} at P50"
        ));
    }
    let warnings = c.warnings.iter().map(|w| std::format!("warning: {w}"));
    items.extend(warnings);
    items
}

/// How `r`'s samples were taken: its batch and rounds, or (a command's) its runs.
fn batch_item(r: &BenchResult) -> String {
    let c = &r.conditions;
    match c.operation.as_str() {
        "op" => std::format!(
            "batch: {} op(s) per sample, {} samples in {} rounds, warm-up {} batches",
            c.batch,
            r.samples,
            r.rounds.len(),
            c.warm_up.batches
        ),
        op => std::format!(
            "{} {op}s measured, after {} warm-up {op}(s)",
            r.samples,
            c.warm_up.batches
        ),
    }
}

/// The report's conditions: a heading of `r`'s name, then a list of [`conditions`].
pub(crate) fn write_conditions(r: &BenchResult, w: &mut dyn Write) -> fmt::Result {
    writeln!(w, "##### {}", r.name)?;
    for item in conditions(r) {
        writeln!(w, "- {item}")?;
    }
    Ok(())
}

/// A metric's row of the report: its percentiles (exact ones for an exact metric, marked),
/// max and mean.
fn write_metric_row(r: &BenchResult, i: usize, shown: Shown, w: &mut dyn Write) -> fmt::Result {
    let m = &r.metrics[i];
    let view = m.histogram.view();
    let exact = if m.metric.is_exact() { ", exact" } else { "" };
    write!(w, "| {} ({}{exact}) |", m.metric.name, shown.unit)?;
    for &(_, rank) in &REPORTED {
        let v = r.percentile_at(i, rank).unwrap_or(0.0);
        write!(w, " {} |", shown.show(v))?;
    }
    let max = r.max_at(i).unwrap_or(0.0);
    let (mut mean, half) = mean_interval(&view).unwrap_or((f64::NAN, f64::NAN));
    if m.metric.is_exact() {
        mean = r.mean_at(i) * SCALE as f64;
    }
    let mut mark = String::from(if m.multiplexed { " (multiplexed)" } else { "" });
    if let Some(floor) = m.mark(&|v| std::format!("{} {}", shown.figure(v), shown.unit)) {
        let _ = write!(mark, " ({floor})");
    }
    let scaled = |v: f64| shown.figure(v / SCALE as f64);
    writeln!(
        w,
        " {} | {} ± {}{mark} |",
        shown.show(max),
        scaled(mean),
        scaled(half)
    )
}

/// What the report calls one operation in prose: `operation` for `op`.
pub(crate) fn noun(operation: &str) -> &str {
    match operation {
        "op" => "operation",
        other => other,
    }
}

fn write_attribution(
    r: &BenchResult,
    (a, shown): (&Attribution, &[Shown]),
    w: &mut dyn Write,
) -> fmt::Result {
    let n = noun(&r.conditions.operation);
    writeln!(
        w,
        "\nWhat the slow {n}s did (mean per {n} in each band of time):\n"
    )?;
    write!(w, "| Band | Samples |")?;
    for (name, s) in a.metrics.iter().zip(shown) {
        write!(w, " {name} ({}) |", s.unit)?;
    }
    write!(w, "\n|---|---:|")?;
    for _ in &a.metrics {
        write!(w, "---:|")?;
    }
    writeln!(w)?;
    for b in &a.bands {
        write!(w, "| {} | {} |", b.label, b.samples)?;
        for (m, s) in b.means.iter().zip(shown) {
            match b.samples {
                0 => write!(w, " — |")?,
                _ => write!(w, " {} |", s.figure(*m))?,
            }
        }
        writeln!(w)?;
    }
    for finding in a.findings() {
        writeln!(w, "- {finding}")?;
    }
    Ok(())
}

impl MetricResult {
    /// Its record in the document: name, unit, exactness, overhead, baseline, multiplexing,
    /// floors, resolution, flags and summary ([`BenchResult::record`]).
    fn record(&self) -> MetricRecord {
        let m = self;
        let mut summary = String::new();
        // The histogram crate writes its summary's JSON; a write to a String cannot fail.
        let _ = m.histogram.view().summary().write_json(&mut summary);
        MetricRecord {
            name: m.metric.name.clone(),
            unit: m.metric.unit,
            exact: m.metric.is_exact(),
            overhead: m.overhead,
            baseline: m.baseline,
            multiplexed: m.multiplexed,
            floored: m.floored,
            resolution: m.resolution,
            below_resolution: m.below_resolution(),
            flagged: m.flagged(),
            summary: RawValue::from_string(summary).unwrap_or_else(|_| no_summary()),
        }
    }
}

impl BenchResult {
    /// The report: conditions, one row per metric (P0, P50, P90, P99, P99.9, max, mean with
    /// its 95 % interval, per operation), then the tail attribution.
    pub fn write_report(&self, w: &mut dyn Write) -> fmt::Result {
        self.write_report_among(&[], w)
    }

    /// [`BenchResult::write_report`] of a result shown with `others` (the other commands
    /// of one `picollo bench`, the other side of a comparison): each metric in the unit
    /// that suits the largest of them all, as the comparison shows it.
    pub fn write_report_among(&self, others: &[&BenchResult], w: &mut dyn Write) -> fmt::Result {
        let shown: std::vec::Vec<Shown> = (self.metrics.iter())
            .map(|m| Shown::of(self, m, others))
            .collect();
        write_conditions(self, w)?;
        writeln!(w)?;
        let op = &self.conditions.operation;
        writeln!(
            w,
            "| Metric (per {op}) | P0 | P50 | P90 | P99 | P99.9 | Max | Mean ± 95 % CI |"
        )?;
        writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|")?;
        for (i, &s) in shown.iter().enumerate() {
            write_metric_row(self, i, s, w)?;
        }
        write_attribution(self, (&self.attribution(), &shown), w)
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

    /// One line: `name: time P50=12.345 ns P99=… mean=… ± … ns; batch k, n samples`, with a
    /// throughput its rate at P50 (`; 1.21 GB/s at P50`), and
    /// where time is flagged, `; time: floored 21.4 %` or `; time: P50 ≤ resolution 0.800 ns`.
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
        )?;
        if let Some(rate) = self.rate() {
            write!(w, "; {rate} at P50")?;
        }
        match t.mark(&|v| std::format!("{v:.3} ns")) {
            Some(mark) => write!(w, "; time: {mark}"),
            None => Ok(()),
        }
    }

    /// Its JSON: [`BenchResult::record`] as one line.
    pub fn write_json(&self, w: &mut dyn Write) -> fmt::Result {
        let text = serde_json::to_string(&self.record()).map_err(|_| fmt::Error)?;
        w.write_str(&text)
    }

    /// Its record in the document: its name, batch, samples and scale, warnings, why it is
    /// unoptimized, the baseline's name; each metric with the overhead and the baseline
    /// subtracted, whether it was multiplexed, the samples floored at 0, its resolution,
    /// whether its median is below it, whether it is flagged, and its summary (values in
    /// thousandths of the unit: `"scale": 1000`); its throughput and its rate at the median
    /// time; the threshold, the pairing (hexadecimal) and each round: its start and length
    /// in seconds, samples, whether it ran first, and per metric its values at `roundRanks`.
    pub fn record(&self) -> ResultRecord {
        let rate = self
            .throughput
            .zip(self.rate())
            .map(|(t, rate)| RateRecord {
                unit: t.unit().into(),
                per_operation: t.per_operation(),
                per_second: rate.per_second,
            });
        let rounds = self.rounds.iter().map(|r| RoundRecord {
            start: r.start,
            length: r.length,
            samples: r.samples,
            first: r.first,
            values: r.quantiles.iter().map(|q| q.to_vec()).collect(),
        });
        ResultRecord {
            name: self.name.clone(),
            batch: self.conditions.batch,
            samples: self.samples,
            scale: SCALE,
            warnings: self.conditions.warnings.clone(),
            unoptimized: self.conditions.unoptimized.clone(),
            baseline: self.conditions.baseline.clone(),
            metrics: self.metrics.iter().map(MetricResult::record).collect(),
            throughput: Some(rate),
            threshold: self.threshold,
            pairing: self.pairing.map(|p| std::format!("{p:016x}")),
            round_ranks: ROUND_RANKS.to_vec(),
            rounds: rounds.collect(),
        }
    }

    /// An interval log: one interval per metric, tagged with its name (spaces and commas
    /// as `_`), values in thousandths of the unit, read by `picollo report/diff/plot`;
    /// then a comment per round: `round N start=S length=L samples=K first=0|1`, and per
    /// metric `TAG=v,…` at [`ROUND_RANKS`](crate::rules::ROUND_RANKS).
    pub fn write_log(&self, w: &mut dyn Write) -> Result<(), LogError> {
        let mut log = LogWriter::new(w);
        log.header(None, None)?;
        log.comment(&std::format!(
            "picollo bench {}: values are thousandths of each metric's unit per {}",
            self.name,
            self.conditions.operation
        ))?;
        let tags: std::vec::Vec<std::string::String> = self
            .metrics
            .iter()
            .map(|m| log_tag(&m.metric.name))
            .collect();
        for (m, tag) in self.metrics.iter().zip(&tags) {
            log.interval(Some(tag), 0.0, 1.0, &m.histogram.view())?;
        }
        for (i, r) in self.rounds.iter().enumerate() {
            let mut line = std::format!(
                "round {} start={:.6} length={:.6} samples={} first={}",
                i + 1,
                r.start,
                r.length,
                r.samples,
                u8::from(r.first)
            );
            for (tag, q) in tags.iter().zip(&r.quantiles) {
                let values: std::vec::Vec<std::string::String> =
                    q.iter().map(|v| std::format!("{v}")).collect();
                let _ = write!(line, " {tag}={}", values.join(","));
            }
            log.comment(&line)?;
        }
        Ok(())
    }
}

/// A metric's name as a log tag: spaces and commas, which a tag cannot hold, as `_`.
fn log_tag(name: &str) -> std::string::String {
    let tag = name
        .chars()
        .map(|c| if c == ' ' || c == ',' { '_' } else { c });
    tag.collect()
}

impl Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_report(f)
    }
}

/// `(b − a) / a` as shown: `+12.3%`, `0.0%` when both are 0, `—` when only `a` is.
pub(crate) fn change(a: f64, b: f64) -> std::string::String {
    match (a == 0.0, b == 0.0) {
        (true, true) => "0.0%".into(),
        (true, false) => "—".into(),
        _ => std::format!("{:+.1}%", (b - a) / a * 100.0),
    }
}

fn write_metric_diff(c: &Comparison, d: &MetricDiff, w: &mut dyn Write) -> fmt::Result {
    write_metric_diff_as(d, (&c.a, &c.b, &c.operation), w)
}

/// A metric's diff table, its two sides headed `a` and `b`, per `op`.
pub(crate) fn write_metric_diff_as(
    d: &MetricDiff,
    (a, b, op): (&str, &str, &str),
    w: &mut dyn Write,
) -> fmt::Result {
    let s = Shown::of_diff(d);
    writeln!(w, "\n{} ({} per {op}):\n", d.name, s.unit)?;
    writeln!(w, "| Percentile | {a} | {b} | Δ% | 99 % CI of {b} − {a} |")?;
    writeln!(w, "|---|---:|---:|---:|---|")?;
    for r in &d.rows {
        let (va, vb, c) = (s.show(r.a), s.show(r.b), change(r.a, r.b));
        write!(w, "| P{} | {va} | {vb} | {c} |", r.rank)?;
        match r.interval {
            Some((lo, hi)) => {
                let mark = if r.excludes_zero() { " *" } else { "" };
                writeln!(w, " [{}, {}]{mark} |", s.figure(lo), s.figure(hi))?
            }
            None => writeln!(w, " — |")?,
        }
    }
    let (ma, mb) = d.means;
    let c = change(ma, mb);
    writeln!(w, "| Mean | {} | {} | {c} | |", s.figure(ma), s.figure(mb))?;
    match d.cohens_d {
        Some(x) => writeln!(w, "| Cohen's d | | | {x:+.3} | |")?,
        None => writeln!(w, "| Cohen's d | | | n/a | |")?,
    }
    match d.cliffs_delta {
        Some(x) => writeln!(w, "| Cliff's delta | | | {x:+.3} | |"),
        None => writeln!(w, "| Cliff's delta | | | n/a | |"),
    }
}

impl Comparison {
    /// One line per exact metric (emulated counts), judged without statistics: `exact: B
    /// takes 1 more Emulated:Instructions per operation than A: 4,050 against 4,049, on
    /// every operation (B − A = +1, [1, 1])`, `exact: no difference in …`, or, where a
    /// side's operations counted differently, that its percentiles are compared above.
    pub fn write_exact(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b, op) = (&self.a, &self.b, noun(&self.operation));
        for d in &self.metrics {
            let Some(x) = d.exact else { continue };
            let name = &d.name;
            let (Some(va), Some(vb), Some(diff)) = (x.a, x.b, x.difference()) else {
                writeln!(
                    w,
                    "exact: {name} varies from {op} to {op} (the counts are exact, the \
                     operations differ): compared by percentile above"
                )?;
                continue;
            };
            let s = Shown::new(d.unit, va.max(vb), false);
            let (shown_a, shown_b, by) = (s.show(va), s.show(vb), s.show(diff.abs()));
            let sign = if diff < 0.0 { "-" } else { "+" };
            let tail = std::format!("(B − A = {sign}{by}, [{sign}{by}, {sign}{by}])");
            match x.word() {
                "no difference" => writeln!(
                    w,
                    "exact: no difference in {name} between {a} and {b}: {shown_a} per {op} \
                     in both, on every {op} (B − A = 0, [0, 0])"
                )?,
                word => writeln!(
                    w,
                    "exact: {b} takes {by} {word} {name} per {op} than {a}: {shown_b} against \
                     {shown_a}, on every {op} {tail}"
                )?,
            }
        }
        Ok(())
    }
}

impl Display for Comparison {
    /// Per metric a diff table (`*` marks an interval that excludes 0; metrics that are 0
    /// throughout in both are named in one line instead), the method, the warnings about
    /// the rounds, then the verdict line.
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
             in a round for the percentile: n·q·(1−q) < 2)."
        )?;
        writeln!(f)?;
        self.write_method(f)?;
        writeln!(f)?;
        for warning in &self.warnings {
            writeln!(f, "- warning: {warning}")?;
        }
        writeln!(f)?;
        self.write_verdict(f)?;
        writeln!(f)?;
        self.write_exact(f)
    }
}

impl Display for Interleaved {
    /// The comparison.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.comparison.fmt(f)
    }
}
