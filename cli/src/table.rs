//! A Markdown table of rows built at run time, laid out by core's report tables' writer
//! (cells padded to the column width, numbers right-aligned, `:---` / `---:` under the
//! header), and values shown in a unit.

use picollo::text::write_markdown_table;
use picollo::{Grouped, GroupedF64};

/// Rows of text cells under a header; a column is right-aligned when `right[k]`.
pub struct Table {
    header: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles and alignments.
    pub fn new(columns: &[(&str, bool)]) -> Table {
        Table {
            header: columns.iter().map(|(h, _)| h.to_string()).collect(),
            right: columns.iter().map(|&(_, r)| r).collect(),
            rows: Vec::new(),
        }
    }

    /// Append a row (as many cells as columns).
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.header.len());
        self.rows.push(cells);
    }

    /// The table, under `##### title` when the title is not empty (core's Markdown layout).
    pub fn write(&self, title: &str, out: &mut String) {
        let header: Vec<&str> = self.header.iter().map(String::as_str).collect();
        write_markdown_table(out, title, &header, &self.right, &self.rows)
            .expect("a String takes any text, and every row has a cell per column");
    }
}

/// Values divided by a unit ratio, with as many decimals as the ratio has integer digits
/// (as core's scaled summary table shows them): integers with separators at ratio 1.
#[derive(Clone, Copy, Debug)]
pub struct Units {
    ratio: f64,
    decimals: usize,
}

impl Units {
    /// Units for a ratio already checked to be finite and above 0.
    pub fn new(ratio: f64) -> Units {
        let (mut decimals, mut power) = (0, 1.0);
        while power < ratio && decimals < 9 {
            power *= 10.0;
            decimals += 1;
        }
        Units { ratio, decimals }
    }

    /// A recorded value as text.
    pub fn value(self, v: u64) -> String {
        if self.ratio == 1.0 {
            Grouped(v).to_string()
        } else {
            GroupedF64(v as f64 / self.ratio, self.decimals).to_string()
        }
    }

    /// A mean or a deviation: two more decimals than a value.
    pub fn stat(self, v: f64) -> String {
        GroupedF64(v / self.ratio, self.decimals + 2).to_string()
    }

    /// A value in the unit, as a number (for plots).
    pub fn scale(self, v: u64) -> f64 {
        v as f64 / self.ratio
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_and_aligned_by_side() {
        let mut t = Table::new(&[("Name", false), ("N", true)]);
        t.row(vec!["a".into(), "1,234".into()]);
        t.row(vec!["long name".into(), "5".into()]);
        let mut out = String::new();
        t.write("T", &mut out);
        assert_eq!(
            out,
            "##### T\n\
             | Name      | N     |\n\
             | :-------- | ----: |\n\
             | a         | 1,234 |\n\
             | long name |     5 |\n"
        );
    }

    #[test]
    fn units_show_every_recorded_digit() {
        assert_eq!(Units::new(1.0).value(1_234_567), "1,234,567");
        assert_eq!(Units::new(1000.0).value(1_234_567), "1,234.567");
        assert_eq!(Units::new(1e6).value(1_234_567), "1.234567");
        assert_eq!(Units::new(0.5).value(21), "42");
        assert_eq!(Units::new(1000.0).stat(1049.5), "1.04950");
    }
}
