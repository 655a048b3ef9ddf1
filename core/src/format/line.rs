//! The one-line summary for logs.

use core::fmt::{self, Write};

use super::numbers::{Grouped, GroupedF64};
use crate::summary::Summary;

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
