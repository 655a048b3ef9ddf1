//! The one-line summary for logs.

use core::fmt::{self, Write};

use super::numbers::{Grouped, GroupedF64};
#[cfg(picollo_float)]
use crate::float::FloatCounts;
use crate::summary::Summary;
#[cfg(feature = "alloc")]
use {
    super::export::{text_into, About, Export, Options, Out, Written},
    crate::View,
};

impl Summary {
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
}

/// The one-line summary as an export format (`line`).
#[cfg(feature = "alloc")]
pub(crate) struct Line;

#[cfg(feature = "alloc")]
impl Export for Line {
    fn about(&self) -> &'static About {
        &About {
            name: "line",
            description: "the one-line summary for logs: totals, mean and the main percentiles",
            options: &[("name", "the `name: ` the line starts with (default: none)")],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let name = options.get("name").unwrap_or("");
        text_into(out, |w| view.summary().write_line(w, name))
    }
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, options: &Options<'_>, out: Out<'_>) -> Written {
        let name = options.get("name").unwrap_or("");
        text_into(out, |w| counts.summary().write_line(w, name))
    }
}
