//! The 4-column table both Markdown reports are built from, and the cells they share.
//! Columns are padded to their widest cell so the raw text lines up in a terminal and still
//! renders as a Markdown table.

use core::fmt::{self, Write};

use super::numbers::{Buf, Grouped, GroupedF64};

#[derive(Clone, Copy)]
pub(crate) enum Align {
    Left,
    Right,
}

pub(crate) type Cell = Buf<64>;
pub(crate) const MAX_ROWS: usize = 26;

/// A 4-column table built on the stack, then written with aligned columns.
pub(crate) struct Table<'h> {
    header: [&'h str; 4],
    align: [Align; 4],
    rows: [[Cell; 4]; MAX_ROWS],
    len: usize,
}

impl<'h> Table<'h> {
    pub(crate) fn new(header: [&'h str; 4], align: [Align; 4]) -> Self {
        Table {
            header,
            align,
            rows: core::array::from_fn(|_| core::array::from_fn(|_| Cell::new())),
            len: 0,
        }
    }

    /// Append a row; each closure writes one cell.
    pub(crate) fn row(&mut self, cells: [&dyn Fn(&mut Cell) -> fmt::Result; 4]) -> fmt::Result {
        let row = self.rows.get_mut(self.len).ok_or(fmt::Error)?;
        for (cell, write) in row.iter_mut().zip(cells) {
            write(cell)?;
        }
        self.len += 1;
        Ok(())
    }

    pub(crate) fn write(&self, title: &str, w: &mut dyn Write) -> fmt::Result {
        let right = self.align.map(|a| matches!(a, Align::Right));
        write_markdown_table(w, title, &self.header, &right, &self.rows[..self.len])
    }
}

/// The most columns [`write_markdown_table`] lays out.
pub const MAX_COLUMNS: usize = 16;

/// A Markdown table: `##### title` when the title is not empty, the header, the rule under
/// it (`:---` for a left column, `---:` for a right one), then the rows, every column padded
/// to its widest cell (3 at least) so the raw text lines up in a terminal and still renders
/// as a table. Cells of a `right` column are right-aligned (the header never is). A row
/// holds a cell per header column. More than [`MAX_COLUMNS`] columns, or a row of another
/// width, is an error.
pub fn write_markdown_table<R: AsRef<[C]>, C: AsRef<str>>(
    w: &mut dyn Write,
    title: &str,
    header: &[&str],
    right: &[bool],
    rows: &[R],
) -> fmt::Result {
    let n = header.len();
    if n > MAX_COLUMNS || right.len() != n || rows.iter().any(|r| r.as_ref().len() != n) {
        return Err(fmt::Error);
    }
    let mut widths = [3usize; MAX_COLUMNS];
    for (k, width) in widths[..n].iter_mut().enumerate() {
        let cells = rows.iter().map(|r| r.as_ref()[k].as_ref().chars().count());
        *width = cells.fold(header[k].chars().count().max(3), usize::max);
    }
    if !title.is_empty() {
        writeln!(w, "##### {title}")?;
    }
    let line = |w: &mut dyn Write, cells: &mut dyn Iterator<Item = &str>, aligned: bool| {
        w.write_char('|')?;
        for (k, cell) in cells.enumerate() {
            let pad = widths[k].saturating_sub(cell.chars().count());
            let (before, after) = match aligned && right[k] {
                true => (pad, 0),
                false => (0, pad),
            };
            w.write_char(' ')?;
            write_repeat(w, ' ', before)?;
            w.write_str(cell)?;
            write_repeat(w, ' ', after)?;
            w.write_str(" |")?;
        }
        w.write_char('\n')
    };
    line(w, &mut header.iter().copied(), false)?;
    write_rule(w, &widths[..n], right)?;
    for row in rows {
        line(w, &mut row.as_ref().iter().map(|c| c.as_ref()), true)?;
    }
    Ok(())
}

/// The line under the header: dashes with a colon on the aligned side.
fn write_rule(w: &mut dyn Write, widths: &[usize], right: &[bool]) -> fmt::Result {
    w.write_char('|')?;
    for (&width, &right) in widths.iter().zip(right) {
        w.write_char(' ')?;
        if !right {
            w.write_char(':')?;
        }
        write_repeat(w, '-', width - 1)?;
        if right {
            w.write_char(':')?;
        }
        w.write_str(" |")?;
    }
    w.write_char('\n')
}

pub(crate) fn write_repeat(w: &mut dyn Write, ch: char, n: usize) -> fmt::Result {
    (0..n).try_for_each(|_| w.write_char(ch))
}

pub(crate) fn blank(_: &mut Cell) -> fmt::Result {
    Ok(())
}

/// A precision in percent with 4 decimals, rounded half up (0.78125 % prints as 0.7813 %).
pub(crate) fn percent(w: &mut dyn Write, precision: f64) -> fmt::Result {
    let scaled = crate::fmath::round(precision * 100.0 * 10_000.0) as u64;
    write!(w, "{}.{:04}%", scaled / 10_000, scaled % 10_000)
}

/// `(b − a) / a` in percent; a zero `a` gives 0 % when `b` is zero too, else not finite.
pub(crate) fn delta_percent(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (b - a) / a * 100.0
    }
}

/// How a report shows values: integers with separators (ratio 1), or divided by a unit
/// ratio with as many decimals as the ratio has integer digits, so that one unit of the
/// recorded value still shows (3 for 1000, 6 for 10^6, 4 for 1024), at most 9.
#[derive(Clone, Copy)]
pub(crate) struct Units {
    ratio: f64,
    decimals: usize,
}

impl Units {
    /// Refuses (with `fmt::Error`, as the writers report it) a ratio that is not finite
    /// and above 0.
    pub(crate) fn new(ratio: f64) -> Result<Units, fmt::Error> {
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(fmt::Error);
        }
        let (mut decimals, mut power) = (0, 1.0);
        while power < ratio && decimals < 9 {
            power *= 10.0;
            decimals += 1;
        }
        Ok(Units { ratio, decimals })
    }

    /// A recorded value.
    pub(crate) fn value(self, w: &mut dyn Write, v: u64) -> fmt::Result {
        if self.ratio == 1.0 {
            write!(w, "{}", Grouped(v))
        } else {
            write!(w, "{}", GroupedF64(v as f64 / self.ratio, self.decimals))
        }
    }

    /// A statistic over values (mean, stdev): two more decimals than a value.
    pub(crate) fn stat(self, w: &mut dyn Write, v: f64) -> fmt::Result {
        write!(w, "{}", GroupedF64(v / self.ratio, self.decimals + 2))
    }
}
