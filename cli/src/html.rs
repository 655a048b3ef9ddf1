//! `picollo report --html` and `picollo diff --html`: pages of interval logs, drawn by the
//! harness's HTML renderer (`picollo_bench::html`). A report shows per tag the percentile
//! spectrum of its sum and its P50, P99 and max interval by interval; a diff both
//! selections' spectra and core's diff table. A selection that picks nothing gets a page
//! that says so.

use std::collections::BTreeMap;

use picollo::hdr::Accumulator;
use picollo::GroupedF64;
use picollo_bench::html::{over_time, spectrum, spectrum_table, Cell, Curve, Page, Show, Table};

use crate::error::Failure;
use crate::input::Input;
use crate::select::{for_each_selected, Filter, Selected};

/// Tags drawn in one spectrum (the series' styles: colour, shape and dash).
const CURVES_PER_FIGURE: usize = 6;
/// Intervals a table lists at most (evenly spaced beyond).
const TABLE_ROWS: usize = 200;

/// One tag's intervals: their sum, and each one's start (seconds after the log's origin),
/// P50, P99 and max.
struct TagSeries {
    sum: Accumulator,
    points: Vec<[f64; 4]>,
}

/// How values are written: divided by the unit ratio, grouped, with 3 decimals when the
/// ratio is not 1.
fn shown(v: f64, unit_ratio: f64) -> String {
    let decimals = if unit_ratio == 1.0 { 0 } else { 3 };
    format!("{}", GroupedF64(v / unit_ratio, decimals))
}

/// A tag's name as the page says it.
fn tag_name(tag: &Option<String>) -> String {
    tag.clone().unwrap_or_else(|| "untagged".into())
}

/// The selected intervals of `input`, per tag in name order.
fn series(input: &Input, filter: &Filter) -> Result<BTreeMap<String, TagSeries>, Failure> {
    let mut tags: BTreeMap<String, TagSeries> = BTreeMap::new();
    for_each_selected(input, filter, |_, interval, origin| {
        let mut at = [0u64; 3];
        let read = interval
            .histogram
            .view()
            .percentile_values(&[50.0, 99.0, 100.0], &mut at);
        let v = |k: usize| read.map_or(f64::NAN, |()| at[k] as f64);
        let point = [interval.start - origin, v(0), v(1), v(2)];
        let entry = tags
            .entry(tag_name(&interval.tag))
            .or_insert_with(|| TagSeries {
                sum: Accumulator::new(),
                points: Vec::new(),
            });
        entry.points.push(point);
        let line = interval.line;
        (entry.sum.add_interval(&interval))
            .map_err(|e| Failure::format(format!("{}: line {line}: {e}", input.name)))
    })?;
    Ok(tags)
}

/// The page of `picollo report --html`: per tag its summary row, the spectra (up to six
/// tags a figure), then each tag's P50, P99 and max over time. `Err` carries the page that
/// says why nothing was drawn, and the failure.
pub fn report(
    input: &Input,
    filter: &Filter,
    unit_ratio: f64,
) -> Result<String, (String, Failure)> {
    let mut page = Page::new(&format!("{}: picollo report", input.name));
    let tags = match series(input, filter) {
        Ok(tags) => tags,
        Err(failure) => return Err((nothing(page, &failure), failure)),
    };
    let what = filter.describe();
    if !what.is_empty() {
        page.paragraph(Some("note"), &format!("Selected: {what}."));
    }
    let curves: Vec<Curve> = tags.iter().map(|(tag, s)| tag_curve(tag, s)).collect();
    page.table(&summary_table(&curves, &tags, unit_ratio));
    let value = |v: f64| shown(v, unit_ratio);
    let show = Show {
        tick: &value,
        value: &value,
    };
    for group in curves.chunks(CURVES_PER_FIGURE) {
        let svg = spectrum("Percentile spectrum per tag", "value", group, show);
        let labels: Vec<&str> = group.iter().map(|c| c.label.as_str()).collect();
        let caption = format!("The value at each percentile of the sum of each tag's intervals ({}), each nine of the axis equally wide.", labels.join(", "));
        page.figure(&svg, &caption, &spectrum_table("value", group, &value));
    }
    for (tag, s) in &tags {
        page.heading(2, &format!("{tag}, interval by interval"));
        over_time_figure(&mut page, tag, s, show, unit_ratio);
    }
    Ok(written(&page))
}

/// The page of `picollo diff --html`: both selections' spectra in one figure, then core's
/// diff table (`text`, as the command prints it). `labels` name the sides as its columns do.
pub fn diff(sides: [(&str, &Selected); 2], title: &str, text: &str, unit_ratio: f64) -> String {
    let mut page = Page::new(&format!("{title}: picollo diff"));
    let curves: Vec<Curve> = (sides.iter())
        .map(|(label, s)| Curve::of_view(label, &s.histogram.view()))
        .collect();
    let value = |v: f64| shown(v, unit_ratio);
    let show = Show {
        tick: &value,
        value: &value,
    };
    let svg = spectrum("Percentile spectra of both sides", "value", &curves, show);
    let caption = format!(
        "The value at each percentile of {} and of {}, each nine of the axis equally wide.",
        sides[0].0, sides[1].0
    );
    page.figure(&svg, &caption, &spectrum_table("value", &curves, &value));
    page.heading(2, "The diff table");
    page.preformatted(text);
    written(&page)
}

/// The page's text.
fn written(page: &Page) -> String {
    let mut out = String::new();
    let _ = page.write(&mut out);
    out
}

/// A page that says why nothing is drawn.
fn nothing(mut page: Page, failure: &Failure) -> String {
    page.paragraph(
        Some("verdict"),
        &format!("Nothing to draw: {}", failure.message),
    );
    written(&page)
}

/// The spectrum of a tag's summed intervals.
fn tag_curve(tag: &str, s: &TagSeries) -> Curve {
    match s.sum.histogram() {
        Some(sum) => Curve::of_view(tag, &sum.view()),
        None => Curve::of(tag, 0, |_| None),
    }
}

/// One row per tag: intervals, values, and the values at P50 … max.
fn summary_table(curves: &[Curve], tags: &BTreeMap<String, TagSeries>, unit_ratio: f64) -> Table {
    let mut t = Table::new(
        "tags",
        &[
            "Tag",
            "Intervals",
            "Values",
            "P50",
            "P90",
            "P99",
            "P99.9",
            "Max",
        ],
    );
    for (c, s) in curves.iter().zip(tags.values()) {
        let mut cells = vec![
            Cell::text(c.label.as_str()),
            Cell::number(s.points.len().to_string()),
            Cell::number(c.count.to_string()),
        ];
        for rank in [50.0, 90.0, 99.0, 99.9, 100.0] {
            cells.push(match c.at(rank) {
                Some(v) => Cell::number(shown(v, unit_ratio))
                    .with("tag", &c.label)
                    .with("rank", &rank.to_string()),
                None => Cell::text("—"),
            });
        }
        t.row(false, cells);
    }
    t
}

/// A tag's P50, P99 and max interval by interval, and their table (at most
/// [`TABLE_ROWS`] rows, evenly spaced).
fn over_time_figure(page: &mut Page, tag: &str, s: &TagSeries, show: Show<'_>, unit_ratio: f64) {
    let line = |k: usize, name: &str| {
        (
            name.to_string(),
            s.points.iter().map(|p| (p[0], p[k])).collect(),
        )
    };
    let lines = vec![line(1, "P50"), line(2, "P99"), line(3, "max")];
    let svg = over_time(
        &format!("{tag}: each interval's P50, P99 and max"),
        "value",
        &lines,
        show,
    );
    let every = s.points.len().div_ceil(TABLE_ROWS).max(1);
    let mut caption = format!(
        "{tag}: the P50, P99 and max of each of its {} intervals, by the interval's start.",
        s.points.len()
    );
    if every > 1 {
        caption.push_str(&format!(" The table lists every {every}th interval."));
    }
    let mut t = Table::new(
        &format!("intervals-{tag}"),
        &["Start (s)", "P50", "P99", "Max"],
    );
    for p in s.points.iter().step_by(every) {
        let mut cells = vec![Cell::number(format!("{:.3}", p[0]))];
        cells.extend(p[1..].iter().map(|&v| Cell::number(shown(v, unit_ratio))));
        t.row(false, cells);
    }
    page.figure(&svg, &caption, &t);
}
