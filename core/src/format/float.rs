//! The floating-point summary's Markdown table, diff table and one-line summary.

use core::fmt::{self, Display, Formatter, Write};

use super::numbers::{Grouped, GroupedF64, Rank, SignedPercent};
use super::table::{blank, delta_percent, percent, Align, Table};
use crate::float::FloatSummary;

/// A double with as many significant digits as the layout resolves (`digits`): grouped
/// decimals for magnitudes from 0.001 to 10^15, scientific notation outside (`1.2346e-9`),
/// `0` for zero.
pub(crate) struct Significant(pub f64, pub usize);

impl Display for Significant {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let Significant(v, digits) = *self;
        if v == 0.0 {
            return f.pad("0");
        }
        if !v.is_finite() {
            return f.pad(if v.is_nan() {
                "NaN"
            } else if v > 0.0 {
                "+∞"
            } else {
                "-∞"
            });
        }
        let magnitude = v.abs();
        let mut buf = super::numbers::Buf::<64>::new();
        if (1e-3..1e15).contains(&magnitude) {
            // Digits before the point: floor(log10 |v|) + 1.
            let log = crate::fmath::log2(magnitude) * core::f64::consts::LOG10_2;
            // floor, without std: truncation rounds negative values up.
            let truncated = log as i64;
            let floor = truncated - i64::from((truncated as f64) > log);
            let int_digits = floor + 1;
            let decimals = (digits as i64 - int_digits).clamp(0, 17) as usize;
            write!(buf, "{}", GroupedF64(v, decimals))?;
        } else {
            write!(buf, "{:.*e}", digits.saturating_sub(1), v)?;
        }
        f.pad(buf.as_str())
    }
}

/// Significant digits that show a value to the layout's resolution: one more than the
/// decimal digits of `1 / precision`.
fn digits_for(precision: f64) -> usize {
    if precision.is_nan() || precision <= 0.0 {
        return 6;
    }
    let log = crate::fmath::log2(1.0 / precision) * core::f64::consts::LOG10_2;
    (crate::fmath::ceil_nonneg(log) as usize + 1).clamp(3, 17)
}

impl FloatSummary {
    /// The Markdown table: a `##### title` line (omitted when `title` is empty), a row per
    /// standard rank (`| Percentile | Value | ± | Count |`), rows for NaN, ±∞,
    /// underflow, overflow and saturated counts when not zero, then Mean/StDev, Min/Max
    /// (exact), Sum/Zero, Precision/Total.
    pub fn write_table(&self, w: &mut dyn Write, title: &str) -> fmt::Result {
        use Align::*;
        let digits = digits_for(self.precision);
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
                    false => write!(c, "{}", Significant(p.value, digits)),
                },
                &|c| match empty {
                    true => c.write_str("-"),
                    false => write!(c, "±{}", Significant(p.plus_minus, 3)),
                },
                &|c| write!(c, "{}", Grouped(p.rank_count)),
            ])?;
        }
        for (label, n) in self.outside_rows() {
            if n != 0 {
                t.row([&|c| c.write_str(label), &blank, &blank, &|c| {
                    write!(c, "{}", Grouped(n))
                }])?;
            }
        }
        t.row([&blank, &blank, &blank, &blank])?;
        let stat = |c: &mut super::table::Cell, v: f64| match v.is_nan() {
            true => c.write_str("-"),
            false => write!(c, "{}", Significant(v, digits + 2)),
        };
        t.row([
            &|c| c.write_str("Mean:"),
            &|c| stat(c, self.mean),
            &|c| c.write_str("StDev:"),
            &|c| stat(c, self.stdev),
        ])?;
        t.row([
            &|c| c.write_str("Min:"),
            &|c| stat(c, self.min),
            &|c| c.write_str("Max:"),
            &|c| stat(c, self.max),
        ])?;
        t.row([
            &|c| c.write_str("Sum:"),
            &|c| write!(c, "{}", Significant(self.sum, digits + 2)),
            &|c| c.write_str("Zero:"),
            &|c| write!(c, "{}", Grouped(self.zero)),
        ])?;
        t.row([
            &|c| c.write_str("Precision:"),
            &|c| percent(c, self.precision),
            &|c| c.write_str("Total:"),
            &|c| write!(c, "{}", Grouped(self.total)),
        ])?;
        t.write(title, w)
    }

    /// The counts outside the quantiles, with their row labels.
    fn outside_rows(&self) -> [(&'static str, u64); 6] {
        [
            ("NaN", self.nan),
            ("+Infinity", self.positive_infinity),
            ("-Infinity", self.negative_infinity),
            ("Underflow", self.underflow),
            ("Overflow", self.overflow),
            ("Saturated", self.saturated),
        ]
    }

    /// The diff table of `other` (B) against `self` (A): `| Percentile | A | B | Δ% |` per
    /// standard rank, then Mean, StDev, Min, Max, Total and the D-value (Cohen's d).
    pub fn write_diff(
        &self,
        other: &FloatSummary,
        w: &mut dyn Write,
        title: &str,
        name_a: &str,
        name_b: &str,
    ) -> fmt::Result {
        use Align::*;
        let digits = digits_for(self.precision.min(other.precision));
        let mut t = Table::new(
            ["Percentile", name_a, name_b, "Δ%"],
            [Left, Right, Right, Right],
        );
        let value = |c: &mut super::table::Cell, s: &FloatSummary, v: f64| match s.total {
            0 => c.write_str("-"),
            _ => write!(c, "{}", Significant(v, digits)),
        };
        for (a, b) in self.percentiles.iter().zip(other.percentiles.iter()) {
            t.row([
                &|c| write!(c, "{}", Rank(a.rank)),
                &|c| value(c, self, a.value),
                &|c| value(c, other, b.value),
                &|c| match self.total == 0 || other.total == 0 {
                    true => c.write_str("n/a"),
                    false => write!(c, "{}", SignedPercent(delta_percent(a.value, b.value))),
                },
            ])?;
        }
        t.row([&blank, &blank, &blank, &blank])?;
        for (label, a, b) in [
            ("Mean:", self.mean, other.mean),
            ("StDev:", self.stdev, other.stdev),
            ("Min:", self.min, other.min),
            ("Max:", self.max, other.max),
        ] {
            // What an empty side does not know reads "-", as in the summary table.
            let stat = |c: &mut super::table::Cell, x: f64| match x.is_nan() {
                true => c.write_str("-"),
                false => write!(c, "{}", Significant(x, digits + 2)),
            };
            t.row([
                &|c| c.write_str(label),
                &|c| stat(c, a),
                &|c| stat(c, b),
                &|c| match a.is_nan() || b.is_nan() {
                    true => c.write_str("n/a"),
                    false => write!(c, "{}", SignedPercent(delta_percent(a, b))),
                },
            ])?;
        }
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

    /// One line: `name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…`,
    /// with NaN and ±∞ counts when not zero.
    pub fn write_line(&self, w: &mut dyn Write, name: &str) -> fmt::Result {
        let digits = digits_for(self.precision);
        if !name.is_empty() {
            write!(w, "{name}: ")?;
        }
        write!(w, "Total={}", Grouped(self.total))?;
        if self.total == 0 {
            return Ok(());
        }
        write!(
            w,
            ", Mean={}, Min={}",
            Significant(self.mean, digits),
            Significant(self.min, digits)
        )?;
        for k in [5, 7, 11, 12] {
            let p = &self.percentiles[k];
            write!(w, ", P{}={}", Rank(p.rank), Significant(p.value, digits))?;
        }
        write!(w, ", Max={}", Significant(self.max, digits))?;
        for (label, n) in self.outside_rows() {
            if n != 0 {
                write!(w, ", {label}={}", Grouped(n))?;
            }
        }
        Ok(())
    }
}

impl Display for FloatSummary {
    /// The Markdown table under the title "Histogram summary".
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.write_table(f, "Histogram summary")
    }
}
