//! `picollo report`: the summary table of the selected intervals' sum, or one row per time
//! window (as HdrHistogram's HistogramLogProcessor prints one line per reporting interval).

use std::collections::BTreeMap;

use picollo::hdr::Accumulator;
use picollo::Grouped;

use crate::error::Failure;
use crate::input::Input;
use crate::select::{self, plural, round_micros, Filter};
use crate::table::{Table, Units};

/// The ranks of a window row, with their column titles.
const ROW_RANKS: [(f64, &str); 5] = [
    (50.0, "P50"),
    (90.0, "P90"),
    (99.0, "P99"),
    (99.9, "P99.9"),
    (100.0, "P100"),
];

/// The Markdown summary of everything `filter` selects.
pub fn whole(input: &Input, filter: &Filter, unit_ratio: f64) -> Result<String, Failure> {
    let selected = select::sum(input, filter)?;
    let mut parts = Vec::new();
    let what = filter.describe();
    if !what.is_empty() {
        parts.push(what);
    }
    if input.is_single() {
        parts.push("1 histogram".to_string());
    } else {
        parts.push(plural(selected.intervals, "interval"));
        parts.push(format!(
            "{}–{} s",
            select::seconds(selected.span.0),
            select::seconds(selected.span.1)
        ));
    }
    let title = format!("{} ({})", input.name, parts.join(", "));
    let mut out = String::new();
    selected
        .histogram
        .view()
        .summary()
        .write_table_scaled(&mut out, &title, unit_ratio)
        .expect("a String takes any text and the ratio was checked");
    Ok(out)
}

/// One row per window of `length` seconds, from `--from` (or the log's start): the windows
/// between the first and the last selected interval, empty ones included (count 0).
/// An interval belongs to the window its start falls in.
pub fn windows(
    input: &Input,
    filter: &Filter,
    length: f64,
    unit_ratio: f64,
) -> Result<String, Failure> {
    let first = filter.from.unwrap_or(0.0);
    let sums = window_sums(input, filter, first, length)?;
    let (Some(&lo), Some(&hi)) = (sums.keys().next(), sums.keys().next_back()) else {
        return Err(Failure::no_data(format!("{}: no window", input.name)));
    };
    let units = Units::new(unit_ratio);
    let mut columns = vec![
        ("Start (s)", true),
        ("End (s)", true),
        ("Intervals", true),
        ("Count", true),
        ("Mean", true),
    ];
    columns.extend(ROW_RANKS.iter().map(|&(_, name)| (name, true)));
    let mut table = Table::new(&columns);
    for k in lo..=hi {
        let start = round_micros(first + k as f64 * length);
        let end = round_micros(first + (k + 1) as f64 * length);
        let mut row = vec![format!("{start:.3}"), format!("{end:.3}")];
        row.extend(window_cells(sums.get(&k), &units));
        table.row(row);
    }
    let mut parts = Vec::new();
    let what = filter.describe();
    if !what.is_empty() {
        parts.push(what);
    }
    parts.push(format!("{} s windows", select::seconds(length)));
    let mut out = String::new();
    table.write(&format!("{} ({})", input.name, parts.join(", ")), &mut out);
    Ok(out)
}

/// The selected intervals summed per window: window k starts at origin + (first + k·length).
fn window_sums(
    input: &Input,
    filter: &Filter,
    first: f64,
    length: f64,
) -> Result<BTreeMap<i64, Accumulator>, Failure> {
    let mut sums: BTreeMap<i64, Accumulator> = BTreeMap::new();
    select::for_each_selected(input, filter, |_, interval, origin| {
        // Computed the way the filter computes its bounds, so a start written as exactly a
        // window's start falls in it.
        let start_of = |k: i64| origin + (first + k as f64 * length);
        let mut k = ((interval.start - origin - first) / length).floor() as i64;
        while interval.start < start_of(k) {
            k -= 1;
        }
        while interval.start >= start_of(k + 1) {
            k += 1;
        }
        sums.entry(k)
            .or_default()
            .add_interval(&interval)
            .map_err(|e| Failure::format(format!("{}: line {}: {e}", input.name, interval.line)))?;
        Ok(())
    })?;
    Ok(sums)
}

/// A window's cells after its bounds: intervals, count, mean and the row ranks (dashes
/// for a window with no interval).
fn window_cells(sum: Option<&Accumulator>, units: &Units) -> Vec<String> {
    let Some((n, h)) = sum.and_then(|acc| Some((acc.intervals(), acc.histogram()?))) else {
        let mut row: Vec<String> = ["0", "0", "-"].map(String::from).into();
        row.extend(ROW_RANKS.iter().map(|_| "-".to_string()));
        return row;
    };
    let s = h.view().summary();
    let mut row = vec![
        n.to_string(),
        Grouped(s.total).to_string(),
        units.stat(s.mean),
    ];
    for (rank, _) in ROW_RANKS {
        let p = s.get(rank).expect("a standard rank");
        row.push(units.value(p.value));
    }
    row
}
