//! The Markdown summary table as a format of the export table (`table`): its options and
//! what it writes, over [`super::markdown::write_table`].

use alloc::vec::Vec;

use super::domain::Domain;
use super::export::{text_into, About, Export, Options, Out, Written};
use super::markdown::write_table;
#[cfg(picollo_float)]
use crate::float::FloatCounts;
use crate::View;

/// The Markdown summary table as an export format (`table`).
pub(crate) struct MarkdownTable;

impl MarkdownTable {
    /// The table of `s` under the `title` option, values divided by `unit_ratio`.
    fn write<S: Domain>(s: &S, options: &Options<'_>, out: &mut Vec<u8>) -> Written {
        let title = options.get("title").unwrap_or("");
        let ratio = options.parse("unit_ratio", 1.0)?;
        text_into(out, |w| write_table(s, w, title, ratio))
    }
}

impl Export for MarkdownTable {
    fn about(&self) -> &'static About {
        &About {
            name: "table",
            description:
                "the Markdown table of the summary: percentiles, outside counts, statistics",
            options: &[
                (
                    "title",
                    "the `##### title` line above the table (default: none)",
                ),
                (
                    "unit_ratio",
                    "values are divided by this (1000: ns as µs; default 1)",
                ),
            ],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        MarkdownTable::write(&view.summary(), options, out)
    }
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, options: &Options<'_>, out: Out<'_>) -> Written {
        MarkdownTable::write(&counts.summary(), options, out)
    }
}
