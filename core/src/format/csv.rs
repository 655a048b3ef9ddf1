//! The buckets as CSV (`csv`): a `lower,upper,count` header, then one row per non-empty
//! bucket in value order: its smallest and largest value (both inclusive) and its count.
//! Counts outside the buckets (underflow, overflow, saturated; NaN and infinities of a
//! float histogram) are not rows. Float bounds print as the shortest decimal that reads
//! back as the same double.

use alloc::vec::Vec;
use core::fmt::{Display, Write};

use super::export::{text_into, About, Export, Options, Out, Written};
#[cfg(picollo_float)]
use crate::float::FloatCounts;
use crate::View;

/// The CSV of buckets.
pub(crate) struct Csv;

/// The header, then a row per `(lower, upper, count)` of `rows`.
fn write_rows<T: Display>(out: &mut Vec<u8>, rows: impl Iterator<Item = (T, T, u64)>) -> Written {
    text_into(out, |w| {
        w.write_str("lower,upper,count\n")?;
        rows.into_iter()
            .try_for_each(|(lower, upper, count)| writeln!(w, "{lower},{upper},{count}"))
    })
}

impl Export for Csv {
    fn about(&self) -> &'static About {
        &About {
            name: "csv",
            description: "the non-empty buckets as CSV: lower,upper,count (bounds inclusive)",
            options: &[],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, _: &Options<'_>, out: Out<'_>) -> Written {
        let rows = view
            .buckets_with_values()
            .map(|b| (b.lower, b.highest, b.count));
        write_rows(out, rows)
    }
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, _: &Options<'_>, out: Out<'_>) -> Written {
        write_rows(
            out,
            counts.buckets().map(|b| (b.lowest, b.highest, b.count)),
        )
    }
}
