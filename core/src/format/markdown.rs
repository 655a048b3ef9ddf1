//! The Markdown summary table, for integer and floating-point summaries alike.

use core::fmt::{self, Write};

use super::domain::Domain;
use super::numbers::{Grouped, Rank};
use super::table::{blank, percent, Align, Table};

/// The Markdown table of `s`: a `##### title` line (omitted when `title` is empty), one row
/// per standard rank (`| Percentile | Value | ± | Count |`, Count being the count the rank
/// points at), a row per outside count that is not zero, a blank row, the statistics in
/// pairs, then the domain's last rows. Values are divided by `unit_ratio` where the domain
/// scales them.
pub(crate) fn write_table<S: Domain>(
    s: &S,
    w: &mut dyn Write,
    title: &str,
    unit_ratio: f64,
) -> fmt::Result {
    use Align::*;
    let style = S::style(&[s], unit_ratio)?;
    let mut t = Table::new(
        ["Percentile", "Value", "±", "Count"],
        [Left, Right, Left, Right],
    );
    rank_rows(s, &mut t, style)?;
    t.row([&blank, &blank, &blank, &blank])?;
    for [(label_a, a), (label_b, b)] in s.stats() {
        t.row([
            &|c| c.write_str(label_a),
            &|c| S::write_stat(style, c, a),
            &|c| c.write_str(label_b),
            &|c| S::write_stat(style, c, b),
        ])?;
    }
    s.table_tail(&mut t, style)?;
    t.write(title, w)
}

/// One row per standard rank, then the outside counts that are not zero.
fn rank_rows<S: Domain>(s: &S, t: &mut Table<'_>, style: S::Style) -> fmt::Result {
    let empty = s.total() == 0;
    for k in 0..crate::STANDARD_RANKS.len() {
        let p = s.ranked(k);
        t.row([
            &|c| write!(c, "{}", Rank(p.rank)),
            &|c| match empty {
                true => c.write_str("-"),
                false => S::write_value(style, c, p.value),
            },
            &|c| match empty {
                true => c.write_str("-"),
                false => {
                    c.write_char('±')?;
                    S::write_plus_minus(style, c, p.plus_minus)
                }
            },
            &|c| write!(c, "{}", Grouped(p.rank_count)),
        ])?;
    }
    for (label, _, n) in s.outside() {
        if n != 0 {
            t.row([&|c| c.write_str(label), &blank, &blank, &|c| {
                write!(c, "{}", Grouped(n))
            }])?;
        }
    }
    Ok(())
}

/// The `| Precision: | … | Total: | … |` row.
pub(crate) fn precision_total_row(t: &mut Table<'_>, precision: f64, total: u64) -> fmt::Result {
    t.row([
        &|c| c.write_str("Precision:"),
        &|c| percent(c, precision),
        &|c| c.write_str("Total:"),
        &|c| write!(c, "{}", Grouped(total)),
    ])
}
