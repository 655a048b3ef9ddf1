//! The buckets as CSV (`csv`): a `lower,upper,count` header, then one row per non-empty
//! bucket in value order: its smallest and largest value (both inclusive) and its count.
//! Counts outside the buckets (underflow, overflow, saturated; NaN and infinities of a
//! float histogram) are not rows. Float bounds print as the shortest decimal that reads
//! back as the same double.

use alloc::vec::Vec;
use core::fmt::{Display, Write};

use super::export::{text_into, Export, ExportError, Options};
use crate::View;

/// The CSV of buckets.
pub(crate) struct Csv;

/// The header, then a row per `(lower, upper, count)` of `rows`.
fn write_rows<T: Display>(
    out: &mut Vec<u8>,
    rows: impl Iterator<Item = (T, T, u64)>,
) -> Result<(), ExportError> {
    text_into(out, |w| {
        w.write_str("lower,upper,count\n")?;
        rows.into_iter()
            .try_for_each(|(lower, upper, count)| writeln!(w, "{lower},{upper},{count}"))
    })
}

impl Export for Csv {
    fn name(&self) -> &'static str {
        "csv"
    }
    fn about(&self) -> &'static str {
        "the non-empty buckets as CSV: lower,upper,count (bounds inclusive)"
    }
    fn options(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    fn integer(
        &self,
        view: &View<'_, u64>,
        _: &Options<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), ExportError> {
        let rows = view
            .buckets_with_values()
            .map(|b| (b.lower, b.highest, b.count));
        write_rows(out, rows)
    }
    #[cfg(picollo_float)]
    fn float(
        &self,
        counts: &crate::float::FloatCounts,
        _: &Options<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), ExportError> {
        write_rows(
            out,
            counts.buckets().map(|b| (b.lowest, b.highest, b.count)),
        )
    }
}
