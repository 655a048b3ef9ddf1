//! The diff table of two summaries: Δ% per rank and Cohen's d.

use core::fmt::{self, Write};

use super::numbers::{Grouped, GroupedF64, Rank, SignedPercent};
use super::table::{blank, delta_percent, percent, Align, Cell, Table};
use crate::summary::Summary;

impl Summary {
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
        self.diff_rank_rows(other, &mut t)?;
        t.row([&blank, &blank, &blank, &blank])?;
        self.diff_aggregate_rows(other, &mut t)?;
        t.write(title, w)
    }

    /// One row per standard rank: the two values and their Δ%.
    fn diff_rank_rows(&self, other: &Summary, t: &mut Table<'_>) -> fmt::Result {
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
        Ok(())
    }

    /// Mean, StDev, Precision, Total and the D-value.
    fn diff_aggregate_rows(&self, other: &Summary, t: &mut Table<'_>) -> fmt::Result {
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
        stat("Mean:", self.mean, other.mean)(t)?;
        stat("StDev:", self.stdev, other.stdev)(t)?;
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
        Ok(())
    }
}
