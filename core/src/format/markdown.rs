//! The Markdown summary table.

use core::fmt::{self, Write};

use super::numbers::{Grouped, GroupedF64, Rank};
use super::table::{blank, outside_rows, percent, Align, Table};
use crate::summary::Summary;

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
        self.table_rank_rows(&mut t)?;
        t.row([&blank, &blank, &blank, &blank])?;
        self.table_aggregate_rows(&mut t)?;
        t.write(title, w)
    }

    /// One row per standard rank, then the outside counts that are not zero.
    fn table_rank_rows(&self, t: &mut Table<'_>) -> fmt::Result {
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
        Ok(())
    }

    /// Mean/StDev, Precision/Total and the range.
    fn table_aggregate_rows(&self, t: &mut Table<'_>) -> fmt::Result {
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
            return Ok(());
        }
        t.row([
            &|c| c.write_str("Range Min:"),
            &|c| write!(c, "{}", Grouped(self.min_trackable)),
            &|c| c.write_str("Max:"),
            &|c| write!(c, "{}", Grouped(self.max_trackable)),
        ])?;
        Ok(())
    }
}

impl fmt::Display for Summary {
    /// The Markdown table under the title "Histogram summary".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_table(f, "Histogram summary")
    }
}
