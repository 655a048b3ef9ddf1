//! A comparison's page: the verdict and its table first, the warnings, then per metric the
//! shift of each percentile with its interval, both spectra and both sides' rounds; the
//! method, the tail attribution of each side and the conditions last.

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

use super::{attribution, conditions, metric_figures, number, Cell, Page, ShiftPoint, Table};
use crate::html::{rank_label, shift};
use crate::judge::verdict::{Comparison, DiffRow, Interleaved, MetricDiff};
use crate::measure::result::BenchResult;
use crate::tell::report::{change, Shown};

impl Comparison {
    /// This comparison as one HTML page, `a` and `b` the results it compared (for their
    /// spectra, rounds and attribution): the verdict line and a table of every metric's
    /// change at the median with its 99 % interval (significant rows marked), the warnings,
    /// per metric the shift plot, both spectra and both sides' round medians, the method,
    /// each side's tail attribution and conditions.
    pub fn write_html(&self, a: &BenchResult, b: &BenchResult, w: &mut dyn Write) -> fmt::Result {
        let title = std::format!("{} against {}: Picollo comparison", self.b, self.a);
        let mut page = Page::new(&title);
        self.html_into(&mut page, Some((a, b)));
        page.write(w)
    }

    /// [`Comparison::write_html`]'s sections added to `page`; without the results compared
    /// (`sides` `None`), those that the comparison alone holds (verdict, table, warnings,
    /// shift plots, method).
    pub fn html_into(&self, page: &mut Page, sides: Option<(&BenchResult, &BenchResult)>) {
        let mut verdict = String::new();
        let _ = self.write_verdict(&mut verdict);
        page.paragraph(Some("verdict"), &verdict);
        page.table(&self.verdict_table());
        let mut warnings: Vec<String> = self.warnings.clone();
        for r in sides.iter().flat_map(|&(a, b)| [a, b]) {
            for w in &r.conditions.warnings {
                // A side's floored metrics are the comparison's warnings too.
                let w = std::format!("{}: {w}", r.name);
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
        }
        if !warnings.is_empty() {
            page.heading(2, "Warnings");
            page.list("warnings", &warnings);
        }
        for d in &self.metrics {
            self.metric_section(page, d, sides);
        }
        page.heading(2, "Method");
        let mut method = String::new();
        let _ = self.write_method(&mut method);
        let _ = self.write_exact(&mut method);
        let lines = method.lines().filter(|l| !l.trim().is_empty());
        lines.for_each(|l| page.paragraph(None, l));
        if let Some((a, b)) = sides {
            sides_sections(page, a, b);
        }
    }

    /// One row per metric: both medians, the change, its 99 % interval (B − A, in the unit),
    /// Cohen's d, Cliff's delta; the row of the verdict's metric (time unless another was
    /// judged) adds the noise floor (and the layout spread with builds as the unit).
    fn verdict_table(&self) -> Table {
        let mut head = std::vec![
            "Metric",
            self.a.as_str(),
            self.b.as_str(),
            "Δ% at P50",
            "99 % CI of B − A at P50",
            "Cohen's d",
            "Cliff's delta",
            "Noise floor"
        ];
        if self.builds.is_some() {
            head.push("Layout spread");
        }
        head.push("Significant");
        let mut t = Table::new("verdict-table", &head);
        for d in &self.metrics {
            if let Some(r) = d.rows.iter().find(|r| r.rank == 50.0) {
                let judged = d.name == self.metric.name;
                t.row(r.excludes_zero(), self.verdict_row(d, r, judged));
            }
        }
        t
    }

    /// The verdict table's row of metric `d` at its median row `r`; `time`: the row of the
    /// verdict's metric.
    fn verdict_row(&self, d: &MetricDiff, r: &DiffRow, time: bool) -> Vec<Cell> {
        let s = Shown::of_diff(d);
        let effect = |x: Option<f64>| x.map_or("n/a".into(), |x| std::format!("{x:+.3}"));
        let only_time = |text: String| if time { text } else { "—".into() };
        let mut cells = std::vec![
            Cell::text(std::format!(
                "{} ({} per {})",
                d.name,
                s.unit,
                self.operation
            )),
            number(s.show(r.a), &d.name, &self.a, 50.0),
            number(s.show(r.b), &d.name, &self.b, 50.0),
            Cell::number(change(r.a, r.b)),
            Cell::number(interval_text(s, r)).with("metric", &d.name),
            Cell::number(effect(d.cohens_d)),
            Cell::number(effect(d.cliffs_delta)),
            Cell::number(only_time(std::format!("{:.2} %", self.noise_floor))),
        ];
        if let Some(b) = &self.builds {
            let spread = match b.layout_sampled() {
                true => only_time(std::format!("±{:.2} %", b.layout_spread)),
                false => only_time("not sampled".into()),
            };
            cells.push(Cell::number(spread));
        }
        let significant = if r.excludes_zero() { "yes ✱" } else { "no" };
        cells.push(Cell::text(significant));
        cells
    }

    /// A metric's section: its shift plot with the table of every percentile, then both
    /// spectra and both sides' rounds.
    fn metric_section(
        &self,
        page: &mut Page,
        d: &MetricDiff,
        sides: Option<(&BenchResult, &BenchResult)>,
    ) {
        let found =
            sides.map(|(a, b)| (a, b, a.metrics.iter().position(|m| m.metric.name == d.name)));
        let index = match found {
            Some((a, b, Some(index))) => {
                metric_figures(page, &[a, b], index);
                index
            }
            _ => {
                let s = Shown::of_diff(d);
                page.heading(
                    2,
                    &std::format!("{} ({} per {})", d.name, s.unit, self.operation),
                );
                self.metrics
                    .iter()
                    .position(|m| m.name == d.name)
                    .unwrap_or(0)
            }
        };
        let points: Vec<ShiftPoint> = d.rows.iter().map(shift_point).collect();
        let floor = (index == 0).then_some(self.noise_floor);
        let svg = shift(
            &std::format!(
                "{}: change of {} against {} per percentile",
                d.name,
                self.b,
                self.a
            ),
            &points,
            floor,
        );
        let significant: Vec<&str> = points
            .iter()
            .filter(|p| p.significant)
            .map(|p| p.label.as_str())
            .collect();
        let caption = match significant.is_empty() {
            true => std::format!("The change of {} at each percentile, with its 99 % interval; no interval excludes 0.", d.name),
            false => std::format!("The change of {} at each percentile, with its 99 % interval (filled: the interval excludes 0, at {}).", d.name, significant.join(", ")),
        };
        page.figure(&svg, &caption, &self.shift_table(d));
    }

    /// Every percentile of a metric in both, its change and interval.
    fn shift_table(&self, d: &MetricDiff) -> Table {
        let s = Shown::of_diff(d);
        let head = [
            "Percentile",
            self.a.as_str(),
            self.b.as_str(),
            "Δ%",
            "99 % CI of B − A",
            "Significant",
        ];
        let mut t = Table::new(&std::format!("shift-{}", d.name), &head);
        for r in &d.rows {
            let ci = interval_text(s, r);
            let rank = std::format!("{}", r.rank);
            t.row(
                r.excludes_zero(),
                std::vec![
                    Cell::text(rank_label(r.rank)),
                    number(s.show(r.a), &d.name, &self.a, r.rank),
                    number(s.show(r.b), &d.name, &self.b, r.rank),
                    Cell::number(change(r.a, r.b)),
                    Cell::number(ci)
                        .with("metric", &d.name)
                        .with("interval", &rank),
                    Cell::text(if r.excludes_zero() { "yes ✱" } else { "no" }),
                ],
            );
        }
        t
    }
}

/// Each side's tail attribution and conditions.
fn sides_sections(page: &mut Page, a: &BenchResult, b: &BenchResult) {
    attribution(page, a, &[b]);
    attribution(page, b, &[a]);
    for r in [a, b] {
        page.heading(2, &std::format!("Conditions of {}", r.name));
        page.list(&std::format!("conditions-{}", r.name), &conditions(r));
    }
}

/// A diff row's interval of B − A as shown (`[lo, hi]`), or `—`.
fn interval_text(s: Shown, r: &DiffRow) -> String {
    match r.interval {
        Some((lo, hi)) => std::format!("[{}, {}]", s.figure(lo), s.figure(hi)),
        None => "—".into(),
    }
}

/// A diff row's change and interval in percent of A (no interval where A is 0).
fn shift_point(r: &DiffRow) -> ShiftPoint {
    let percent = |v: f64| v / r.a * 100.0;
    ShiftPoint {
        label: rank_label(r.rank),
        change: if r.a == 0.0 { 0.0 } else { r.change },
        interval: r
            .interval
            .filter(|_| r.a != 0.0)
            .map(|(lo, hi)| (percent(lo), percent(hi))),
        significant: r.excludes_zero(),
    }
}

impl Interleaved {
    /// [`Comparison::write_html`] of the interleaved pair.
    pub fn write_html(&self, w: &mut dyn Write) -> fmt::Result {
        self.comparison.write_html(&self.a, &self.b, w)
    }
}
