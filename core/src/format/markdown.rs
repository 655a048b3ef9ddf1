//! The Markdown summary table.

use core::fmt::{self, Write};

use super::numbers::{Grouped, Rank};
use super::table::{blank, outside_rows, percent, Align, Table, Units};
use crate::summary::Summary;

impl Summary {
    /// The Markdown table: a `##### title` line (omitted when `title` is empty), one row
    /// per standard rank (`| Percentile | Value | ± | Count |`, Count being the count the
    /// rank points at), Underflow/Overflow/Saturated rows when non-zero, then Mean/StDev,
    /// Precision/Total and Range Min/Max (omitted for the full `0..=u64::MAX` range).
    pub fn write_table(&self, w: &mut dyn Write, title: &str) -> fmt::Result {
        self.write_table_scaled(w, title, 1.0)
    }

    /// [`Summary::write_table`] with every value (percentiles, ±, mean, stdev, range) divided
    /// by `unit_ratio` (1000 shows nanoseconds as microseconds), with as many decimals as
    /// the ratio has digits (3 for 1000, so nothing recorded is lost; mean and stdev get 2
    /// more). A ratio of exactly 1 prints integers, as `write_table` does. Counts are not
    /// scaled. A ratio that is not finite and above 0 is refused with `fmt::Error`.
    pub fn write_table_scaled(
        &self,
        w: &mut dyn Write,
        title: &str,
        unit_ratio: f64,
    ) -> fmt::Result {
        use Align::*;
        let units = Units::new(unit_ratio)?;
        let mut t = Table::new(
            ["Percentile", "Value", "±", "Count"],
            [Left, Right, Left, Right],
        );
        self.table_rank_rows(&mut t, units)?;
        t.row([&blank, &blank, &blank, &blank])?;
        self.table_aggregate_rows(&mut t, units)?;
        t.write(title, w)
    }

    /// One row per standard rank, then the outside counts that are not zero.
    fn table_rank_rows(&self, t: &mut Table<'_>, units: Units) -> fmt::Result {
        let empty = self.total == 0;
        for p in &self.percentiles {
            t.row([
                &|c| write!(c, "{}", Rank(p.rank)),
                &|c| match empty {
                    true => c.write_str("-"),
                    false => units.value(c, p.value),
                },
                &|c| match empty {
                    true => c.write_str("-"),
                    false => {
                        c.write_char('±')?;
                        units.value(c, p.plus_minus)
                    }
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
    fn table_aggregate_rows(&self, t: &mut Table<'_>, units: Units) -> fmt::Result {
        t.row([
            &|c| c.write_str("Mean:"),
            &|c| units.stat(c, self.mean),
            &|c| c.write_str("StDev:"),
            &|c| units.stat(c, self.stdev),
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
            &|c| units.value(c, self.min_trackable),
            &|c| c.write_str("Max:"),
            &|c| units.value(c, self.max_trackable),
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
