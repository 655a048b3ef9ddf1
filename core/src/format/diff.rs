//! The diff table of two summaries, integer or floating-point: Δ% per rank and Cohen's d.

use core::fmt::{self, Write};

use super::domain::{cohens_d, Domain};
use super::numbers::{Grouped, Rank, SignedPercent};
use super::table::{blank, delta_percent, percent, Align, Cell, Table};

/// The diff table of `b` against `a`: `| Percentile | A | B | Δ% |` per standard rank, then
/// a row per statistic of the domain (Mean, StDev, …), Precision, Total and the D-value
/// (Cohen's d, `n/a` when undefined). `name_a` and `name_b` head the value columns. Values
/// are divided by `unit_ratio` where the domain scales them.
pub(crate) fn write_diff<S: Domain>(
    a: &S,
    b: &S,
    w: &mut dyn Write,
    title: &str,
    [name_a, name_b]: [&str; 2],
    unit_ratio: f64,
) -> fmt::Result {
    use Align::*;
    let style = S::style(&[a, b], unit_ratio)?;
    let mut t = Table::new(
        ["Percentile", name_a, name_b, "Δ%"],
        [Left, Right, Right, Right],
    );
    rank_rows(a, b, &mut t, style)?;
    t.row([&blank, &blank, &blank, &blank])?;
    for ([(label, x), (label_2, x2)], [(_, y), (_, y2)]) in a.stats().zip(b.stats()) {
        for (label, x, y) in [(label, x, y), (label_2, x2, y2)] {
            t.row([
                &|c| c.write_str(label),
                &|c| S::write_stat(style, c, x),
                &|c| S::write_stat(style, c, y),
                &|c| delta(c, x, y),
            ])?;
        }
    }
    aggregate_rows(a, b, &mut t)?;
    t.write(title, w)
}

/// One row per standard rank: the two values and their Δ%.
fn rank_rows<S: Domain>(a: &S, b: &S, t: &mut Table<'_>, style: S::Style) -> fmt::Result {
    let value = |c: &mut Cell, s: &S, v: S::Value| match s.total() {
        0 => c.write_str("-"),
        _ => S::write_value(style, c, v),
    };
    for k in 0..crate::STANDARD_RANKS.len() {
        let (pa, pb) = (a.ranked(k), b.ranked(k));
        t.row([
            &|c| write!(c, "{}", Rank(pa.rank)),
            &|c| value(c, a, pa.value),
            &|c| value(c, b, pb.value),
            &|c| match a.total() == 0 || b.total() == 0 {
                true => c.write_str("n/a"),
                false => delta(c, S::as_f64(pa.value), S::as_f64(pb.value)),
            },
        ])?;
    }
    Ok(())
}

/// `(y − x) / x` in percent; `n/a` where either side is not known (NaN).
fn delta(c: &mut Cell, x: f64, y: f64) -> fmt::Result {
    match x.is_nan() || y.is_nan() {
        true => c.write_str("n/a"),
        false => write!(c, "{}", SignedPercent(delta_percent(x, y))),
    }
}

/// Precision, Total and the D-value.
fn aggregate_rows<S: Domain>(a: &S, b: &S, t: &mut Table<'_>) -> fmt::Result {
    t.row([
        &|c| c.write_str("Precision:"),
        &|c| percent(c, a.precision()),
        &|c| percent(c, b.precision()),
        &|c| delta(c, a.precision(), b.precision()),
    ])?;
    t.row([
        &|c| c.write_str("Total:"),
        &|c| write!(c, "{}", Grouped(a.total())),
        &|c| write!(c, "{}", Grouped(b.total())),
        &|c| delta(c, a.total() as f64, b.total() as f64),
    ])?;
    t.row([
        &|c| c.write_str("D-value:"),
        &blank,
        &blank,
        &|c| match cohens_d(a, b) {
            Some(d) => write!(c, "{d:.2}"),
            None => c.write_str("n/a"),
        },
    ])
}
