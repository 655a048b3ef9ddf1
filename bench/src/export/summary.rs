//! The Markdown summary a CI job shows (GitHub's `$GITHUB_STEP_SUMMARY`): the verdicts first,
//! one table; then what changed, each with its percentiles; the rest folded in `<details>`;
//! the method and the conditions last. Each verdict reads without colour too: an emoji, a
//! symbol and a word. It stays under GitHub's limit of a step's summary, [`SUMMARY_LIMIT`]:
//! past a budget, comparisons are listed in the table only.

use core::fmt::{self, Write};
use std::string::{String, ToString};
use std::vec::Vec;

use super::{median_with_interval, Compared, Findings};
use crate::judge::shift::Design;
use crate::judge::verdict::{Comparison, DiffRow, MetricDiff, Verdict};
use crate::measure::meter::{MetricKind, Unit};
use crate::measure::result::BenchResult;
use crate::tell::escape::escaped_with;
use crate::tell::report::{conditions, write_metric_diff_as, Shown};

/// GitHub's limit of one step's summary, in bytes (1 MiB).
pub const SUMMARY_LIMIT: usize = 1 << 20;
/// Where the tables of single comparisons stop, leaving room for the rest.
const TABLES_BUDGET: usize = SUMMARY_LIMIT - 192 * 1024;

/// A verdict as the summary shows it: a colour, a symbol and a word (`🔴 ▲ slower`).
pub fn verdict_mark(v: &Verdict) -> &'static str {
    match v {
        Verdict::Faster(_) => "🟢 ▼ faster",
        Verdict::Slower(_) => "🔴 ▲ slower",
        Verdict::WithinNoise(_) => "⚪ ≈ within noise",
        Verdict::NoDifference => "⚪ = no difference",
        Verdict::NotEnoughRounds => "🟡 ? not enough rounds",
        Verdict::NotEnoughRunsApart => "🟡 ? not enough runs apart",
        Verdict::NotJudged => "🟡 ? not judged",
        Verdict::NotSettled => "🟡 ? not settled",
    }
}

/// Text that Markdown shows as it is inside a line: the characters that mark emphasis,
/// links, code, tables and headings escaped with a backslash, `&`, `<` and `>` as HTML
/// entities, line breaks as spaces.
fn escaped(text: &str) -> String {
    escaped_with(text, |c, out| {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            _ => return false,
        }
        true
    })
}

/// A percentage as the table shows it: one decimal, or two below 1, and from 10,000 % on
/// (a prediction from two runs apart can reach 10^50 %) with an exponent.
fn percent(p: f64) -> String {
    match p.abs() {
        a if a >= 1e4 => std::format!("{p:.1e} %"),
        a if a < 1.0 => std::format!("{p:.2} %"),
        _ => std::format!("{p:.1} %"),
    }
}

/// A comparison changed: B is faster or slower than A.
fn changed(c: &Comparison) -> bool {
    matches!(c.verdict, Verdict::Faster(_) | Verdict::Slower(_))
}

/// The time metric's diff of a comparison (its first metric where none is named `time`).
fn time_diff(c: &Comparison) -> Option<&MetricDiff> {
    c.metrics
        .iter()
        .find(|d| d.name == "time")
        .or(c.metrics.first())
}

/// The diff of the metric a comparison judges (time's where it has none by that name).
fn judged_diff(c: &Comparison) -> Option<&MetricDiff> {
    c.metrics
        .iter()
        .find(|d| d.name == c.metric.name)
        .or_else(|| time_diff(c))
}

/// The name of the metric a comparison judges, where that is not time.
fn judged_metric(c: &Comparison) -> Option<&str> {
    (c.metric.kind != MetricKind::Time).then_some(c.metric.name.as_str())
}

/// `B vs A` of a comparison, escaped, with ` on NAME` where it judges a metric other than
/// time.
fn title(c: &Comparison) -> String {
    let on = judged_metric(c).map_or(String::new(), |m| std::format!(" on {}", escaped(m)));
    std::format!("{} vs {}{on}", escaped(&c.b), escaped(&c.a))
}

/// The head line: how many comparisons, and how many of each kind of verdict; the metrics
/// other than time they judge (`judged`); whether the gate fails.
fn write_head(w: &mut dyn Write, compared: &[Compared], judged: &[&str]) -> fmt::Result {
    let count =
        |f: fn(&Verdict) -> bool| compared.iter().filter(|c| f(&c.comparison.verdict)).count();
    let slower = count(|v| matches!(v, Verdict::Slower(_)));
    let faster = count(|v| matches!(v, Verdict::Faster(_)));
    let unsettled = count(|v| *v == Verdict::NotSettled);
    let unjudged = count(|v| !v.judged()) - unsettled;
    let unchanged = compared.len() - slower - faster - unjudged - unsettled;
    let settling = match unsettled {
        0 => String::new(),
        n => std::format!("🟡 {n} not settled, "),
    };
    writeln!(
        w,
        "### Picollo: {} comparisons: 🔴 {slower} slower, 🟢 {faster} faster, ⚪ {unchanged} \
         unchanged, {settling}🟡 {unjudged} not judged\n",
        compared.len()
    )?;
    write_judged(w, judged)?;
    let failed = compared.iter().filter(|c| c.fails_gate).count();
    if failed > 0 {
        writeln!(
            w,
            "**✗ The gate fails:** {failed} comparison(s) below mark it.\n"
        )?;
    }
    Ok(())
}

/// Where comparisons judge metrics other than time (`judged`), which, and what their
/// verdicts' words mean of a count.
fn write_judged(w: &mut dyn Write, judged: &[&str]) -> fmt::Result {
    if judged.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = judged.iter().map(|n| escaped(n)).collect();
    writeln!(
        w,
        "Judged on {} (slower: B counts more of it than A; faster: fewer).\n",
        names.join(", ")
    )
}

/// Each side's median of the judged metric as the table shows it (`—` where there is none):
/// in the column's unit where the table has one (`column`), else with the row's own.
fn medians_shown(c: &Comparison, column: Option<Shown>) -> (String, String) {
    let Some((d, r)) = judged_p50(c) else {
        return ("—".into(), "—".into());
    };
    match column {
        Some(s) => (s.show(r.a).to_string(), s.show(r.b).to_string()),
        None => {
            let s = Shown::of_diff(d);
            let show = |v: f64| std::format!("{} {}", s.show(v), s.unit);
            (show(r.a), show(r.b))
        }
    }
}

/// The judged metric's diff of a comparison and its P50 row.
fn judged_p50(c: &Comparison) -> Option<(&MetricDiff, &DiffRow)> {
    let d = judged_diff(c)?;
    Some((d, d.rows.iter().find(|r| r.rank == 50.0)?))
}

/// One unit for the columns A and B where every row's judged metric has the same unit: the
/// largest in which the least median is at least 1 (5 µs and 50 ms both in µs), so that no
/// figure rounds away and a column never mixes µs and ms. `None` where rows judge metrics
/// of different units: each cell then names its own.
fn column_unit(compared: &[Compared]) -> Option<Shown> {
    let rows: Vec<(&MetricDiff, &DiffRow)> = compared
        .iter()
        .filter_map(|x| judged_p50(&x.comparison))
        .collect();
    let unit = rows.first()?.0.unit;
    if rows.iter().any(|(d, _)| d.unit != unit) {
        return None;
    }
    let values = rows.iter().flat_map(|(_, r)| [r.a.abs(), r.b.abs()]);
    let least = values.filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    let least = if least.is_finite() { least } else { 0.0 };
    let whole = rows.iter().all(|(d, _)| d.whole);
    // `Shown::new` keeps a time's unit from 10 of it up; from 1 up here, one unit for all.
    let typical = match unit {
        Unit::Nanoseconds => least * 10.0,
        _ => least,
    };
    Some(Shown::new(unit, typical, whole))
}

/// The verdicts' table, one row per comparison: each side's whole-run median, in one unit
/// per column, then the change as judged (the shift of the rounds' medians, or the new run
/// against the runs apart) with its interval, labelled so, since the two estimators can
/// differ, even in sign.
fn write_verdicts(w: &mut dyn Write, compared: &[Compared]) -> fmt::Result {
    let column = column_unit(compared);
    let unit = column.map_or(String::new(), |s| std::format!(" ({})", s.unit));
    writeln!(
        w,
        "| Benchmark (B vs A) | A: median of the run{unit} | B: median of the run{unit} | Δ % \
         as judged | 99 % interval of Δ | Verdict |"
    )?;
    writeln!(w, "|---|---:|---:|---:|---|---|")?;
    for x in compared {
        let c = &x.comparison;
        let (a, b) = medians_shown(c, column);
        let estimate = c.change.estimate;
        let delta = match estimate.is_finite() {
            true => std::format!("{estimate:+.2} %"),
            false => "—".into(),
        };
        let span = match c.change.half_width().is_finite() {
            true => std::format!("[{}, {}]", percent(c.change.low), percent(c.change.high)),
            false => "—".into(),
        };
        let gate = if x.fails_gate { " **✗ gate**" } else { "" };
        let mark = verdict_mark(&c.verdict);
        writeln!(
            w,
            "| {} | {a} | {b} | {delta} | {span} | {mark}{gate} |",
            title(c)
        )?;
    }
    write_legend(w, compared)
}

/// What the table's columns are: A and B each side's median over its whole run, for scale;
/// Δ the change the verdict judged, which is another estimator.
fn write_legend(w: &mut dyn Write, compared: &[Compared]) -> fmt::Result {
    let op = compared
        .first()
        .map_or("op", |c| c.comparison.operation.as_str());
    let of = match compared
        .iter()
        .any(|x| judged_metric(&x.comparison).is_some())
    {
        false => "time".to_string(),
        true => "the metric judged (time, unless a row names another: `on NAME`)".into(),
    };
    writeln!(
        w,
        "\nA and B: each side's median {of} per {op} over all its samples (the whole run), for \
         scale. Δ % as judged: B's change against A that the verdict judges, with its 99 % \
         interval: the shift of the rounds' medians (interleaved or measured apart), the new \
         run against the saved runs apart, or, for a count whose runs agree within its read \
         jitter, B − A of the medians. It is another estimator than the two medians: where \
         the rounds drift, the two can differ, even in sign.\n"
    )
}

/// One comparison: its heading, its judged metric's percentiles, a line per other metric
/// that moved, its warnings and its verdict line.
fn write_one(w: &mut dyn Write, c: &Comparison) -> fmt::Result {
    write!(w, "##### {}: {}", verdict_mark(&c.verdict), title(c))?;
    match c.change.estimate.is_finite() {
        true => writeln!(w, " ({:+.2} %)", c.change.estimate)?,
        false => writeln!(w)?,
    }
    let judged = judged_diff(c);
    if let Some(d) = judged {
        write_metric_diff_as(d, ("A", "B", &c.operation), w)?;
    }
    let others = c
        .metrics
        .iter()
        .filter(|d| !judged.is_some_and(|t| core::ptr::eq(*d, t)));
    let mut notes: Vec<String> = others.filter_map(moved).collect();
    notes.extend(
        c.warnings
            .iter()
            .map(|x| std::format!("warning: {}", escaped(x))),
    );
    if !notes.is_empty() {
        writeln!(w)?;
    }
    for note in notes {
        writeln!(w, "- {note}")?;
    }
    let mut line = String::new();
    c.write_verdict(&mut line)?;
    writeln!(w, "\n{}\n", escaped(&line))
}

/// `NAME: P50 a → b UNIT (+x%)` of a metric beside the judged one.
fn moved(d: &MetricDiff) -> Option<String> {
    let p50 = d.rows.iter().find(|r| r.rank == 50.0)?;
    let s = Shown::of_diff(d);
    let change = crate::tell::report::change(p50.a, p50.b);
    let (a, b) = (s.show(p50.a), s.show(p50.b));
    Some(std::format!(
        "{}: P50 {a} → {b} {} ({change})",
        escaped(&d.name),
        s.unit
    ))
}

/// The comparisons of `list` (changed, or the rest), each with its tables while `out` is
/// under the budget; then how many were left to the table above.
fn write_each(out: &mut String, list: &[&Comparison]) -> fmt::Result {
    let mut left = 0;
    for c in list {
        match out.len() < TABLES_BUDGET {
            true => write_one(out, c)?,
            false => left += 1,
        }
    }
    if left > 0 {
        writeln!(
            out,
            "{left} more are in the table above only: their percentiles would pass GitHub's \
             limit of a step's summary (the JSON holds them all).\n"
        )?;
    }
    Ok(())
}

/// The method of each kind of comparison (interleaved, measured apart, on runs apart, with
/// builds as the unit, exactly within read jitter; on each judged metric), once, with how
/// many were judged so.
fn write_methods(w: &mut dyn Write, compared: &[Compared]) -> fmt::Result {
    let kind = |c: &Comparison| {
        let how = (c.apart.is_some(), c.builds.is_some(), c.steady.is_some());
        (c.design == Design::Paired, how, c.metric.name.clone())
    };
    let mut seen: Vec<(bool, (bool, bool, bool), String)> = Vec::new();
    for x in compared {
        let c = &x.comparison;
        if seen.contains(&kind(c)) {
            continue;
        }
        seen.push(kind(c));
        let n = compared
            .iter()
            .filter(|y| kind(&y.comparison) == kind(c))
            .count();
        let mut method = String::new();
        c.write_method(&mut method)?;
        writeln!(w, "- {n} judged as {}: {}", title(c), escaped(&method))?;
    }
    Ok(())
}

/// Every line of the results' conditions, each once (their headings left out).
fn write_conditions_once(w: &mut dyn Write, results: &[(String, &BenchResult)]) -> fmt::Result {
    let mut seen: Vec<String> = Vec::new();
    for item in results.iter().flat_map(|(_, r)| conditions(r)) {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    for item in seen {
        writeln!(w, "- {}", escaped(&item))?;
    }
    Ok(())
}

/// Where there is no comparison: each result's median time and its 99 % interval.
fn write_results(w: &mut dyn Write, results: &[(String, &BenchResult)]) -> fmt::Result {
    writeln!(
        w,
        "### Picollo: {} measured, no comparison\n",
        results.len()
    )?;
    if results.is_empty() {
        return Ok(());
    }
    writeln!(
        w,
        "| Benchmark | Median time | 99 % interval of the median | P99 |"
    )?;
    writeln!(w, "|---|---:|---|---:|")?;
    for (name, r) in results {
        let i = r.time_index();
        let (median, span) = median_with_interval(r, i);
        let s = Shown::of(r, &r.metrics[i], &[]);
        let span = span.map_or("—".into(), |(lo, hi)| {
            std::format!("[{}, {}]", s.figure(lo), s.figure(hi))
        });
        let p99 = r.percentile_at(i, 99.0).unwrap_or(f64::NAN);
        let unit = s.unit;
        writeln!(
            w,
            "| {} | {} {unit} | {span} {unit} | {} {unit} |",
            escaped(name),
            s.show(median),
            s.show(p99)
        )?;
    }
    writeln!(w)
}

/// Each benchmark that was not measured, and why.
fn write_failed(w: &mut dyn Write, findings: &Findings<'_>) -> fmt::Result {
    let failed = findings
        .entries
        .iter()
        .filter_map(|e| Some((&e.name, e.failed.as_ref()?)));
    let lines: Vec<String> = failed
        .map(|(n, why)| std::format!("- {}: {}\n", escaped(n), escaped(why)))
        .collect();
    match lines.is_empty() {
        true => Ok(()),
        false => writeln!(w, "**✗ Not measured:**\n\n{}", lines.concat()),
    }
}

/// What changed, each with its tables, then the rest in `<details>`.
fn write_details(out: &mut String, compared: &[Compared]) -> fmt::Result {
    let all = compared.iter().map(|c| &c.comparison);
    let (moved, rest): (Vec<&Comparison>, Vec<&Comparison>) = all.partition(|c| changed(c));
    if !moved.is_empty() {
        writeln!(out, "#### What changed\n")?;
        write_each(out, &moved)?;
    }
    if !rest.is_empty() {
        let n = rest.len();
        writeln!(
            out,
            "<details><summary>Unchanged or not judged: {n}</summary>\n"
        )?;
        write_each(out, &rest)?;
        writeln!(out, "</details>\n")?;
    }
    Ok(())
}

impl Findings<'_> {
    /// The Markdown summary: the verdicts' table (each result's median where there is no
    /// comparison), the benchmarks not measured, what changed with its percentiles, the
    /// rest in `<details>`, the method and the conditions. Under [`SUMMARY_LIMIT`] bytes
    /// unless the conditions of very many machines differ.
    pub fn write_summary(&self, w: &mut dyn Write) -> fmt::Result {
        let mut out = String::new();
        let results = self.measured();
        let compared = &self.comparisons;
        match compared.is_empty() {
            true => write_results(&mut out, &results)?,
            false => {
                write_head(&mut out, compared, &self.judged_metrics())?;
                write_verdicts(&mut out, compared)?;
            }
        }
        write_failed(&mut out, self)?;
        write_details(&mut out, compared)?;
        writeln!(out, "#### Method and conditions\n")?;
        write_methods(&mut out, compared)?;
        write_conditions_once(&mut out, &results)?;
        w.write_str(&out)
    }
}
