//! Reports: the Markdown summary table, the diff table, the one-line summary and JSON.
//! Everything is written through `core::fmt::Write` from stack buffers: no allocation.
//!
//! Columns are padded to their widest cell so the raw text lines up in a terminal and still
//! renders as a Markdown table.

use core::fmt::{self, Write};

use crate::numfmt::{Buf, Grouped, GroupedF64, Rank, SignedPercent};
use crate::summary::Summary;

#[derive(Clone, Copy)]
enum Align {
    Left,
    Right,
}

type Cell = Buf<64>;
const MAX_ROWS: usize = 26;

/// A 4-column table built on the stack, then written with aligned columns.
struct Table<'h> {
    header: [&'h str; 4],
    align: [Align; 4],
    rows: [[Cell; 4]; MAX_ROWS],
    len: usize,
}

impl<'h> Table<'h> {
    fn new(header: [&'h str; 4], align: [Align; 4]) -> Self {
        Table {
            header,
            align,
            rows: core::array::from_fn(|_| core::array::from_fn(|_| Cell::new())),
            len: 0,
        }
    }

    /// Append a row; each closure writes one cell.
    fn row(&mut self, cells: [&dyn Fn(&mut Cell) -> fmt::Result; 4]) -> fmt::Result {
        let row = self.rows.get_mut(self.len).ok_or(fmt::Error)?;
        for (cell, write) in row.iter_mut().zip(cells) {
            write(cell)?;
        }
        self.len += 1;
        Ok(())
    }

    fn write(&self, title: &str, w: &mut dyn Write) -> fmt::Result {
        if !title.is_empty() {
            writeln!(w, "##### {title}")?;
        }
        let mut widths = [0usize; 4];
        for (k, width) in widths.iter_mut().enumerate() {
            *width = self.header[k].chars().count().max(3);
            for row in &self.rows[..self.len] {
                *width = (*width).max(row[k].chars());
            }
        }
        let line = |w: &mut dyn Write, cells: [&str; 4], aligned: bool| -> fmt::Result {
            w.write_char('|')?;
            for ((cell, width), align) in cells.iter().zip(widths).zip(self.align) {
                let pad = width.saturating_sub(cell.chars().count());
                let right = aligned && matches!(align, Align::Right);
                w.write_char(' ')?;
                if right {
                    write_repeat(w, ' ', pad)?;
                }
                w.write_str(cell)?;
                if !right {
                    write_repeat(w, ' ', pad)?;
                }
                w.write_str(" |")?;
            }
            w.write_char('\n')
        };
        line(w, self.header, false)?;
        w.write_char('|')?;
        for (width, align) in widths.iter().zip(self.align) {
            w.write_char(' ')?;
            match align {
                Align::Left => {
                    w.write_char(':')?;
                    write_repeat(w, '-', width - 1)?;
                }
                Align::Right => {
                    write_repeat(w, '-', width - 1)?;
                    w.write_char(':')?;
                }
            }
            w.write_str(" |")?;
        }
        w.write_char('\n')?;
        for row in &self.rows[..self.len] {
            line(
                w,
                [
                    row[0].as_str(),
                    row[1].as_str(),
                    row[2].as_str(),
                    row[3].as_str(),
                ],
                true,
            )?;
        }
        Ok(())
    }
}

fn write_repeat(w: &mut dyn Write, ch: char, n: usize) -> fmt::Result {
    (0..n).try_for_each(|_| w.write_char(ch))
}

fn blank(_: &mut Cell) -> fmt::Result {
    Ok(())
}

/// A precision in percent with 4 decimals, rounded half up (0.78125 % prints as 0.7813 %).
fn percent(w: &mut dyn Write, precision: f64) -> fmt::Result {
    let scaled = crate::fmath::round(precision * 100.0 * 10_000.0) as u64;
    write!(w, "{}.{:04}%", scaled / 10_000, scaled % 10_000)
}

/// `(b − a) / a` in percent; a zero `a` gives 0 % when `b` is zero too, else not finite.
fn delta_percent(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (b - a) / a * 100.0
    }
}

/// The row label for a count below or above the range, and its value.
fn outside_rows(s: &Summary) -> [(&'static str, u64); 3] {
    [
        ("Underflow", s.underflow),
        ("Overflow", s.overflow),
        ("Saturated", s.saturated),
    ]
}

impl Summary {
    /// The Markdown table: a `##### title` line (omitted when `title` is empty), one row
    /// per standard rank (`| Percentile | Value | ± | Count |`, Count being the count the
    /// rank points at), Underflow/Overflow/Saturated rows when non-zero, then Mean/StDev,
    /// Precision/Total and Range Min/Max (omitted for the full `0..=u64::MAX` range).
    pub fn write_table(&self, w: &mut dyn Write, title: &str) -> fmt::Result {
        use Align::*;
        let mut t = Table::new(
            ["Percentile", "Value", "±", "Count"],
            [Left, Right, Left, Right],
        );
        let empty = self.total == 0;
        for p in &self.percentiles {
            t.row([
                &|c| write!(c, "{}", Rank(p.rank)),
                &|c| match empty {
                    true => c.write_str("-"),
                    false => write!(c, "{}", Grouped(p.value)),
                },
                &|c| match empty {
                    true => c.write_str("-"),
                    false => write!(c, "±{}", Grouped(p.plus_minus)),
                },
                &|c| write!(c, "{}", Grouped(p.rank_count)),
            ])?;
        }
        for (label, n) in outside_rows(self) {
            if n != 0 {
                t.row([&|c| c.write_str(label), &blank, &blank, &|c| {
                    write!(c, "{}", Grouped(n))
                }])?;
            }
        }
        t.row([&blank, &blank, &blank, &blank])?;
        t.row([
            &|c| c.write_str("Mean:"),
            &|c| write!(c, "{}", GroupedF64(self.mean, 2)),
            &|c| c.write_str("StDev:"),
            &|c| write!(c, "{}", GroupedF64(self.stdev, 2)),
        ])?;
        t.row([
            &|c| c.write_str("Precision:"),
            &|c| percent(c, self.precision),
            &|c| c.write_str("Total:"),
            &|c| write!(c, "{}", Grouped(self.total)),
        ])?;
        // The full u64 range says nothing (and its 26-digit maximum would widen the table).
        if self.min_trackable == 0 && self.max_trackable == u64::MAX {
            return t.write(title, w);
        }
        t.row([
            &|c| c.write_str("Range Min:"),
            &|c| write!(c, "{}", Grouped(self.min_trackable)),
            &|c| c.write_str("Max:"),
            &|c| write!(c, "{}", Grouped(self.max_trackable)),
        ])?;
        t.write(title, w)
    }

    /// The diff table of `other` (B) against `self` (A): `| Percentile | A | B | Δ% |` per
    /// standard rank, then Mean, StDev, Precision, Total and the D-value (Cohen's d, `n/a`
    /// when undefined). `name_a` and `name_b` head the value columns.
    pub fn write_diff(
        &self,
        other: &Summary,
        w: &mut dyn Write,
        title: &str,
        name_a: &str,
        name_b: &str,
    ) -> fmt::Result {
        use Align::*;
        let mut t = Table::new(
            ["Percentile", name_a, name_b, "Δ%"],
            [Left, Right, Right, Right],
        );
        let value = |c: &mut Cell, s: &Summary, v: u64| match s.total {
            0 => c.write_str("-"),
            _ => write!(c, "{}", Grouped(v)),
        };
        for (a, b) in self.percentiles.iter().zip(other.percentiles.iter()) {
            t.row([
                &|c| write!(c, "{}", Rank(a.rank)),
                &|c| value(c, self, a.value),
                &|c| value(c, other, b.value),
                &|c| match self.total == 0 || other.total == 0 {
                    true => c.write_str("n/a"),
                    false => write!(
                        c,
                        "{}",
                        SignedPercent(delta_percent(a.value as f64, b.value as f64))
                    ),
                },
            ])?;
        }
        t.row([&blank, &blank, &blank, &blank])?;
        let stat = |label: &'static str, a: f64, b: f64| {
            move |t: &mut Table<'_>| {
                t.row([
                    &|c| c.write_str(label),
                    &|c| write!(c, "{}", GroupedF64(a, 2)),
                    &|c| write!(c, "{}", GroupedF64(b, 2)),
                    &|c| write!(c, "{}", SignedPercent(delta_percent(a, b))),
                ])
            }
        };
        stat("Mean:", self.mean, other.mean)(&mut t)?;
        stat("StDev:", self.stdev, other.stdev)(&mut t)?;
        t.row([
            &|c| c.write_str("Precision:"),
            &|c| percent(c, self.precision),
            &|c| percent(c, other.precision),
            &|c| {
                write!(
                    c,
                    "{}",
                    SignedPercent(delta_percent(self.precision, other.precision))
                )
            },
        ])?;
        t.row([
            &|c| c.write_str("Total:"),
            &|c| write!(c, "{}", Grouped(self.total)),
            &|c| write!(c, "{}", Grouped(other.total)),
            &|c| {
                write!(
                    c,
                    "{}",
                    SignedPercent(delta_percent(self.total as f64, other.total as f64))
                )
            },
        ])?;
        t.row([
            &|c| c.write_str("D-value:"),
            &blank,
            &blank,
            &|c| match self.cohens_d(other) {
                Some(d) => write!(c, "{d:.2}"),
                None => c.write_str("n/a"),
            },
        ])?;
        t.write(title, w)
    }

    /// One line for logs: `name: Total=…, Overflow=…, Mean=…, P0=…, P25=…, P50=…, P90=…,
    /// P95=…, P99=…, P999=…, P100=…` (`Underflow=…` and `Saturated=…` after Overflow when
    /// non-zero). No trailing newline.
    pub fn write_line(&self, w: &mut dyn Write, name: &str) -> fmt::Result {
        if !name.is_empty() {
            write!(w, "{name}: ")?;
        }
        write!(
            w,
            "Total={}, Overflow={}",
            Grouped(self.total),
            Grouped(self.overflow)
        )?;
        if self.underflow != 0 {
            write!(w, ", Underflow={}", Grouped(self.underflow))?;
        }
        if self.saturated != 0 {
            write!(w, ", Saturated={}", Grouped(self.saturated))?;
        }
        write!(w, ", Mean={}", GroupedF64(self.mean, 1))?;
        const SHOWN: [(usize, &str); 8] = [
            (0, "P0"),
            (4, "P25"),
            (5, "P50"),
            (7, "P90"),
            (9, "P95"),
            (11, "P99"),
            (12, "P999"),
            (15, "P100"),
        ];
        for (k, label) in SHOWN {
            if self.total == 0 {
                write!(w, ", {label}=-")?;
            } else {
                write!(w, ", {label}={}", Grouped(self.percentiles[k].value))?;
            }
        }
        Ok(())
    }

    /// The summary as a JSON object (no trailing newline). Fields: `minTrackableValue`,
    /// `maxTrackableValue`, `totalCount`, `underflowCount`, `overflowCount`,
    /// `saturatedCount`, `mean`, `stDev` (null when empty), `precision`, and `percentiles`:
    /// objects with `rank`, `value`, `plusMinus`, `lower`, `upper` (exclusive, saturating),
    /// `count`, `cumulativeCount`, `rankCount`.
    pub fn write_json(&self, w: &mut dyn Write) -> fmt::Result {
        write!(
            w,
            "{{\"minTrackableValue\":{},\"maxTrackableValue\":{},\"totalCount\":{},\
             \"underflowCount\":{},\"overflowCount\":{},\"saturatedCount\":{},\"mean\":",
            self.min_trackable,
            self.max_trackable,
            self.total,
            self.underflow,
            self.overflow,
            self.saturated
        )?;
        json_f64(w, self.mean)?;
        w.write_str(",\"stDev\":")?;
        json_f64(w, self.stdev)?;
        w.write_str(",\"precision\":")?;
        json_f64(w, self.precision)?;
        w.write_str(",\"percentiles\":[")?;
        for (k, p) in self.percentiles.iter().enumerate() {
            if k > 0 {
                w.write_char(',')?;
            }
            w.write_str("{\"rank\":")?;
            json_f64(w, p.rank)?;
            write!(
                w,
                ",\"value\":{},\"plusMinus\":{},\"lower\":{},\"upper\":{},\"count\":{},\
                 \"cumulativeCount\":{},\"rankCount\":{}}}",
                p.value, p.plus_minus, p.lower, p.upper, p.count, p.cumulative_count, p.rank_count
            )?;
        }
        w.write_str("]}")
    }
}

fn json_f64(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_finite() {
        // `{}` on f64 never uses an exponent and round-trips: valid JSON.
        write!(w, "{v}")
    } else {
        w.write_str("null")
    }
}

impl fmt::Display for Summary {
    /// The Markdown table under the title "Histogram summary".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_table(f, "Histogram summary")
    }
}
