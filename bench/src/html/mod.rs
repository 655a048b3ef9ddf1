//! HTML reports: one self-contained page per result, comparison or interval log. Inline
//! SVG and CSS only: nothing is fetched, no script runs, the page opens from disk in any
//! browser, in light and dark mode and on paper. Every figure has a caption in words and
//! the table of its numbers; series differ in colour, marker shape and dash.
//!
//! [`BenchResult::write_html`] and [`crate::Comparison::write_html`] write the harness's
//! pages; the [`Page`], its [`Table`]s and the figure functions ([`spectrum`], [`shift`],
//! [`rounds`], [`over_time`], [`bars`]) are public so that other pages (`picollo report
//! --html`'s of an interval log) are drawn by the same code.

mod comparison;
mod figures;
mod page;
mod svg;
mod timeline;

use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

pub use figures::{
    bars, curve_ranks, decade_label, five, over_time, rank_label, rank_x, rounds, shift, spectrum,
    BarGroup, Curve, ShiftPoint, Show, MARKED_RANKS,
};
pub use page::{escape, Cell, Page, Table};
pub use svg::{shape_name, Axis};
pub use timeline::timeline;

use super::SCALE;
use crate::measure::result::BenchResult;
use crate::measure::rounds::ROUND_RANKS;
use crate::tell::report::{conditions, Shown};

/// The ranks of a result's table: P0, P50, P90, P99, P99.9 and the maximum (100).
const TABLE_RANKS: [f64; 6] = [0.0, 50.0, 90.0, 99.0, 99.9, 100.0];

impl BenchResult {
    /// This result as one HTML page: conditions, a table of every metric, per metric its
    /// percentile spectrum and its rounds' medians in the order they ran, then the tail
    /// attribution as bars. A metric without samples, or a result without rounds, is said
    /// so in words in place of its figure.
    pub fn write_html(&self, w: &mut dyn Write) -> fmt::Result {
        let mut page = Page::new(&std::format!("{}: Picollo benchmark", self.name));
        self.html_into(&mut page, &[]);
        page.write(w)
    }

    /// [`BenchResult::write_html`]'s sections added to `page`, each metric in the unit that
    /// suits it among this result and `among` (the others shown on the page).
    pub fn html_into(&self, page: &mut Page, among: &[&BenchResult]) {
        let mut line = String::new();
        let _ = self.write_line(&mut line);
        page.paragraph(Some("verdict"), &line);
        page.heading(2, "Conditions");
        page.list("conditions", &conditions(self));
        page.heading(2, "Every metric");
        page.table(&summary_table(self, among));
        for i in 0..self.metrics.len() {
            metric_figures(page, &[self], i);
        }
        attribution(page, self, among);
    }

    /// The figure of the metric at `index` at `rank` (100: the maximum), in its unit.
    fn figure_at(&self, index: usize, rank: f64) -> Option<f64> {
        match rank >= 100.0 {
            true => self.max_at(index),
            false => self.percentile_at(index, rank),
        }
    }

    /// [`BenchResult::figure_at`] at each of `ranks` (increasing), in one walk.
    fn figures_at(&self, index: usize, ranks: &[f64]) -> Option<Vec<f64>> {
        let below = ranks.iter().take_while(|&&r| r < 100.0).count();
        let mut values = self.percentiles_at(index, &ranks[..below])?;
        if below < ranks.len() {
            values.push(self.max_at(index)?);
        }
        Some(values)
    }

    /// The median of the metric at `index` in each round, in its unit, in round order.
    fn round_medians(&self, index: usize) -> Vec<f64> {
        let median = ROUND_RANKS.iter().position(|&r| r == 50.0).unwrap_or(2);
        let values = self.rounds.iter().filter_map(|r| r.quantiles.get(index));
        values.map(|q| q[median] as f64 / SCALE as f64).collect()
    }
}

/// A number as shown, in a cell that names its metric, side and rank.
fn number(text: impl fmt::Display, metric: &str, side: &str, rank: f64) -> Cell {
    let rank = std::format!("{rank}");
    let cell = Cell::number(std::format!("{text}")).with("metric", metric);
    cell.with("side", side).with("rank", &rank)
}

/// One row per metric of `r`: its unit, the [`TABLE_RANKS`] and the mean, each metric in
/// the unit that suits it among `r` and `among`.
fn summary_table(r: &BenchResult, among: &[&BenchResult]) -> Table {
    let op = &r.conditions.operation;
    let head = [
        "Metric", "Unit", "P0", "P50", "P90", "P99", "P99.9", "Max", "Mean",
    ];
    let mut t = Table::new(&std::format!("summary-{}", r.name), &head);
    for (i, m) in r.metrics.iter().enumerate() {
        let s = Shown::of(r, m, among);
        let name = &m.metric.name;
        let mut cells = std::vec![
            Cell::text(name.as_str()),
            Cell::text(std::format!("{} per {op}", s.unit))
        ];
        for rank in TABLE_RANKS {
            cells.push(match r.figure_at(i, rank) {
                Some(v) => number(s.show(v), name, &r.name, rank),
                None => Cell::text("no samples"),
            });
        }
        let mut mean = std::format!("{}", s.figure(r.mean_at(i)));
        if let Some(mark) = m.mark(&|v| std::format!("{} {}", s.figure(v), s.unit)) {
            let _ = write!(mean, " ({mark})");
        }
        cells.push(Cell::number(mean));
        t.row(false, cells);
    }
    t
}

/// The spectrum and rounds figures of the metric at `index` of `sides[0]`, each side's
/// curve and rounds drawn together (the same metric found by name in the others).
fn metric_figures(page: &mut Page, sides: &[&BenchResult], index: usize) {
    let first = sides[0];
    let m = &first.metrics[index];
    let name = &m.metric.name;
    let s = Shown::of(first, m, &sides[1..]);
    let op = &first.conditions.operation;
    page.heading(2, &std::format!("{name} ({} per {op})", s.unit));
    let found: Vec<(&BenchResult, usize)> = sides
        .iter()
        .filter_map(|r| Some((*r, r.metrics.iter().position(|x| &x.metric.name == name)?)))
        .collect();
    for &(r, i) in &found {
        for note in r.metrics[i].floor_warnings(&r.conditions) {
            page.paragraph(Some("note"), &std::format!("{}: {note}", r.name));
        }
    }
    let counted = |&(r, i): &(&BenchResult, usize)| r.metrics[i].histogram.view().total_count() > 0;
    if !found.iter().any(counted) {
        page.paragraph(
            Some("note"),
            &std::format!("{name}: no samples, so nothing to draw."),
        );
        return;
    }
    let show = |v: f64| std::format!("{}", s.show(v));
    let curves: Vec<Curve> = found
        .iter()
        .filter(|x| counted(x))
        .map(|&(r, i)| {
            let count = r.metrics[i].histogram.view().total_count();
            Curve::of(&r.name, count, |ranks| r.figures_at(i, ranks))
        })
        .collect();
    let unit = std::format!("{} per {op}", s.unit);
    let title = std::format!("{name}: percentile spectrum");
    let tick = |v: f64| s.tick(v);
    let both = Show {
        tick: &tick,
        value: &show,
    };
    let svg = spectrum(&title, &unit, &curves, both);
    let caption = spectrum_caption(name, &curves, &show);
    page.figure(&svg, &caption, &spectrum_table(name, &curves, &show));
    rounds_figure(page, &found, (name, &unit), both);
}

/// The caption of a spectrum: each curve's median and P99 in words.
fn spectrum_caption(name: &str, curves: &[Curve], show: &dyn Fn(f64) -> String) -> String {
    let mut text = std::format!("The percentile spectrum of {name}: the value at each percentile, each nine of the axis equally wide.");
    for c in curves {
        let said = [("median", 50.0), ("P99", 99.0), ("max", 100.0)];
        let known = said
            .iter()
            .filter_map(|&(word, rank)| Some(std::format!("{word} {}", show(c.at(rank)?))));
        let _ = write!(
            text,
            " {}: {}.",
            c.label,
            known.collect::<Vec<_>>().join(", ")
        );
    }
    text
}

/// The numbers of a spectrum of `name` (a metric, a log's values): each curve's value at
/// each [`MARKED_RANKS`] rank it holds, its cell naming the metric, the curve and the rank.
pub fn spectrum_table(name: &str, curves: &[Curve], show: &dyn Fn(f64) -> String) -> Table {
    let mut head = std::vec!["Percentile"];
    head.extend(curves.iter().map(|c| c.label.as_str()));
    let mut t = Table::new(&std::format!("spectrum-{name}"), &head);
    for rank in MARKED_RANKS {
        if curves.iter().all(|c| c.at(rank).is_none()) {
            continue;
        }
        let mut cells = std::vec![Cell::text(rank_label(rank))];
        for c in curves {
            cells.push(match c.at(rank) {
                Some(v) => number(show(v), name, &c.label, rank),
                None => Cell::text("—"),
            });
        }
        t.row(false, cells);
    }
    t
}

/// Each side's round medians of one metric (`found`: the result and the metric's index),
/// or a note where there are no rounds.
fn rounds_figure(
    page: &mut Page,
    found: &[(&BenchResult, usize)],
    (name, unit): (&str, &str),
    show: Show<'_>,
) {
    let sides: Vec<(String, Vec<f64>)> = found
        .iter()
        .map(|&(r, i)| (r.name.clone(), r.round_medians(i)))
        .collect();
    if sides.iter().all(|s| s.1.is_empty()) {
        page.paragraph(
            Some("note"),
            &std::format!("{name}: no rounds, so no round medians to draw."),
        );
        return;
    }
    let svg = rounds(
        &std::format!("{name}: the median of each round"),
        unit,
        &sides,
        show,
    );
    let show = show.value;
    let mut caption = std::format!("The median of {name} in each round, in the order the rounds ran (a drift shows as a slope), and a box of all rounds per side (whiskers: lowest and highest round).");
    let mut t = Table::new(
        &std::format!("rounds-{name}"),
        &["Side", "Rounds", "Lowest", "Q1", "Median", "Q3", "Highest"],
    );
    for (label, medians) in &sides {
        let Some(b) = five(medians) else { continue };
        let _ = write!(
            caption,
            " {label}: {} rounds, median round {}.",
            medians.len(),
            show(b[2])
        );
        let mut cells = std::vec![
            Cell::text(label.as_str()),
            Cell::number(medians.len().to_string())
        ];
        cells.extend(b.iter().map(|&v| Cell::number(show(v))));
        t.row(false, cells);
    }
    page.figure(&svg, &caption, &t);
}

/// The tail attribution of each of `results` as bars: per metric, its mean in each band of
/// time, with the findings in words.
fn attribution(page: &mut Page, r: &BenchResult, among: &[&BenchResult]) {
    let a = r.attribution();
    let op = crate::tell::report::noun(&r.conditions.operation);
    page.heading(2, &std::format!("What the slow {op}s of {} did", r.name));
    let shown: Vec<Shown> = r.metrics.iter().map(|m| Shown::of(r, m, among)).collect();
    let groups: Vec<BarGroup> = a
        .metrics
        .iter()
        .enumerate()
        .map(|(i, name)| BarGroup {
            label: std::format!("{name} ({} per {op})", shown[i].unit),
            bars: a
                .bands
                .iter()
                .map(|b| {
                    let text = match b.samples {
                        0 => "no samples".into(),
                        n => std::format!("{} ({n} samples)", shown[i].figure(b.means[i])),
                    };
                    (
                        String::from(b.label),
                        if b.samples == 0 { 0.0 } else { b.means[i] },
                        text,
                    )
                })
                .collect(),
        })
        .collect();
    let svg = bars(
        &std::format!("{}: mean per {op} in each band of time", r.name),
        &groups,
    );
    let mut t = Table::new(&std::format!("attribution-{}", r.name), &["Finding"]);
    let findings = a.findings();
    findings
        .iter()
        .for_each(|f| t.row(false, std::vec![Cell::text(f.as_str())]));
    let caption = match findings.is_empty() {
        true => std::format!(
            "Mean per {op} of each metric in each band of time (≤ P50 fastest); no finding."
        ),
        false => std::format!(
            "Mean per {op} of each metric in each band of time (≤ P50 fastest). {}.",
            findings.join("; ")
        ),
    };
    page.figure(&svg, &caption, &t);
}
