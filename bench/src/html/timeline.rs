//! The timeline page: per benchmark, each run's P50, P90 and P99 over commits, each change
//! point drawn as a marked interval across the runs' range and said in words, with its
//! sizes in the figure's table.

use std::string::String;
use std::vec::Vec;

use super::page::{Cell, Page, Table};
use super::svg::{Axis, Frame};
use crate::history::changes::{change_line, said};
use crate::history::detect::Report;
use crate::history::series::{short, Series};

/// A series' runs at each rank: the median of their replicates, in the metric's unit.
fn runs_at(series: &Series) -> Vec<Vec<(f64, f64)>> {
    let logs = series.log_medians();
    let scale = crate::SCALE as f64;
    let line = |l: &Vec<f64>| -> Vec<(f64, f64)> {
        let at = |(i, v): (usize, &f64)| (i as f64, v.exp() / scale);
        l.iter().enumerate().map(at).collect()
    };
    logs.iter().map(line).collect()
}

/// The figure of one series: its ranks' lines, a marked interval at each change.
fn figure(series: &Series, report: &Report, lines: &[Vec<(f64, f64)>]) -> String {
    let title = std::format!("{}: {} over commits", series.benchmark, series.metric);
    let n = series.points.len();
    let x = Axis::linear(0.0, (n.max(2) - 1) as f64);
    let y = Axis::for_values(lines.iter().flat_map(|l| l.iter().map(|p| p.1)));
    let mut f = Frame::new(&title, x, y);
    let step = n.div_ceil(6).max(1);
    let ticks: Vec<(f64, String)> = (0..n)
        .step_by(step)
        .map(|i| (i as f64, short(&series.points[i].commit).into()))
        .collect();
    f.x_ticks(&ticks, "commit (oldest first)");
    let y_ticks: Vec<(f64, String)> = y
        .ticks()
        .into_iter()
        .map(|v| (v, std::format!("{v}")))
        .collect();
    f.y_ticks(
        &y_ticks,
        &std::format!("{} (median of each run's rounds)", series.metric),
    );
    let (lo, hi) = lines
        .iter()
        .flatten()
        .fold((f64::INFINITY, 0.0f64), |(l, h), p| {
            (l.min(p.1), h.max(p.1))
        });
    for (q, line) in lines.iter().enumerate() {
        f.line(q, line);
    }
    for c in &report.changes {
        let at = c.index as f64 - 0.5;
        f.interval(lines.len(), at, (lo, hi));
        f.marker(lines.len(), (at, hi), false, &change_line(c));
    }
    let mut labels: Vec<String> = series.ranks.iter().map(|r| std::format!("P{r}")).collect();
    labels.push("change point".into());
    f.legend(&labels);
    f.finish()
}

/// The numbers of a series' changes: each one's commit, kind and sizes.
fn numbers(series: &Series, report: &Report) -> Table {
    let mut head = std::vec!["Commit", "Run", "Kind"];
    let ranks: Vec<String> = series.ranks.iter().map(|r| std::format!("P{r}")).collect();
    head.extend(ranks.iter().map(String::as_str));
    head.push("Width");
    let mut t = Table::new(&std::format!("changes-{}", series.benchmark), &head);
    for c in &report.changes {
        let mut cells = std::vec![
            Cell::text(c.commit.as_str()),
            Cell::number(std::format!("{}", c.index + 1)),
            Cell::text(c.kind.name()),
        ];
        cells.extend(c.sizes.iter().map(|s| Cell::number(said(s))));
        cells.push(Cell::number(said(&c.width)));
        t.row(true, cells);
    }
    t
}

/// The timeline page of `judged` (each series with its report), titled `title`: per
/// series a heading, its changes in words (or that it has none), and its figure.
pub fn timeline(title: &str, judged: &[(&Series, &Report)]) -> Page {
    let mut page = Page::new(title);
    for &(series, report) in judged {
        let name = std::format!("{} ({})", series.benchmark, series.metric);
        page.section(&name, |page| {
            let runs = series.points.len();
            let count = report.changes.len();
            let head = std::format!(
                "{runs} runs, {count} change point(s) at level {} per test ({} tests).",
                report.alpha,
                report.tests
            );
            page.paragraph(Some("verdict"), &head);
            let lines: Vec<String> = report.changes.iter().map(change_line).collect();
            if !lines.is_empty() {
                page.list("changes", &lines);
            }
            let runs_at = runs_at(series);
            let caption = std::format!(
                "{} of {} over {runs} commits: each run's median round figure at each rank; \
                 each change point is a vertical interval before its first run, its marker's \
                 tooltip its sizes. {count} change point(s).",
                series.metric,
                series.benchmark
            );
            let svg = figure(series, report, &runs_at);
            page.figure(&svg, &caption, &numbers(series, report));
        });
    }
    page
}
