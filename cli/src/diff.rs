//! `picollo diff`: core's diff table (Δ% per rank, Cohen's d) of two selections, from two
//! inputs or from two windows or tags of one.

use std::path::Path;

use crate::error::Failure;
use crate::input::Input;
use crate::select::{self, plural, Filter, Tags};

/// One side of a diff: an input and what to take from it.
pub struct Side<'a> {
    /// The input.
    pub input: &'a Input,
    /// The selection.
    pub filter: Filter,
}

/// The diff table of B against A, titled with both selections, its value columns headed
/// by what tells the two sides apart (file, tag, window; `A` and `B` when nothing does),
/// values divided by `unit_ratio` (checked by the argument parser); with `html`, also the
/// page of both spectra and the table.
pub fn diff(
    a: &Side<'_>,
    b: &Side<'_>,
    unit_ratio: f64,
    html: bool,
) -> Result<(String, Option<String>), Failure> {
    let sum_a = select::sum(a.input, &a.filter)?;
    let sum_b = select::sum(b.input, &b.filter)?;
    let describe = |side: &Side<'_>, intervals: usize| {
        let mut parts = Vec::new();
        let what = side.filter.describe();
        if !what.is_empty() {
            parts.push(what);
        }
        parts.push(match side.input.is_single() {
            true => "1 histogram".to_string(),
            false => plural(intervals, "interval"),
        });
        format!("{} ({})", side.input.name, parts.join(", "))
    };
    let title = format!(
        "{} vs {}",
        describe(a, sum_a.intervals),
        describe(b, sum_b.intervals)
    );
    let (name_a, name_b) = labels(a, b);
    let (sa, sb) = (
        sum_a.histogram.view().summary(),
        sum_b.histogram.view().summary(),
    );
    let mut out = String::new();
    sa.write_diff_scaled(&sb, &mut out, &title, [&name_a, &name_b], unit_ratio)
        .expect("a String takes any text and the ratio was checked");
    let page = html.then(|| {
        let sides = [(name_a.as_str(), &sum_a), (name_b.as_str(), &sum_b)];
        crate::html::diff(sides, &title, &out, unit_ratio)
    });
    Ok((out, page))
}

/// Short column titles: the parts of the two selections that differ.
fn labels(a: &Side<'_>, b: &Side<'_>) -> (String, String) {
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    if a.input.name != b.input.name {
        let base = |s: &Side<'_>| {
            Path::new(&s.input.name)
                .file_name()
                .map_or(s.input.name.clone(), |f| f.to_string_lossy().into_owned())
        };
        let (ba, bb) = (base(a), base(b));
        if ba != bb {
            la.push(ba);
            lb.push(bb);
        } else {
            la.push(a.input.name.clone());
            lb.push(b.input.name.clone());
        }
    }
    if a.filter.tags != b.filter.tags {
        let tag = |t: &Tags| match t {
            Tags::Untagged => "untagged".to_string(),
            Tags::Only(t) => t.clone(),
            Tags::All => "all tags".to_string(),
        };
        la.push(tag(&a.filter.tags));
        lb.push(tag(&b.filter.tags));
    }
    let (wa, wb) = (a.filter.describe_window(), b.filter.describe_window());
    if wa != wb {
        la.push(wa.unwrap_or_else(|| "all".to_string()));
        lb.push(wb.unwrap_or_else(|| "all".to_string()));
    }
    if la.is_empty() {
        ("A".to_string(), "B".to_string())
    } else {
        (la.join(" "), lb.join(" "))
    }
}
