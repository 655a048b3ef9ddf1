//! How much work one operation does, and the rate it gives: elements or bytes per operation,
//! declared with a benchmark, turned into a rate at the median time per operation (the
//! report's line, the JSON, the comparison). Rates are decimal (SI): `1.21 GB/s` is
//! 1.21 × 10⁹ bytes a second, `3.40 M elem/s` 3.40 × 10⁶ elements a second.

use core::fmt::{self, Display};

use std::string::String;

/// The work of one operation: what a rate counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throughput {
    /// Elements (items, records, values) an operation handles.
    Elements(u64),
    /// Bytes an operation handles.
    Bytes(u64),
}

/// The units' names, as [`Throughput::parse`] reads them and the JSON writes them.
pub const THROUGHPUT_UNITS: [&str; 2] = ["elements", "bytes"];

impl Throughput {
    /// `per_operation` of the unit named `unit` (`elements` or `bytes`); an error that names
    /// the units for another name, and for 0 (a rate of nothing).
    pub fn parse(unit: &str, per_operation: u64) -> Result<Throughput, String> {
        let t = match unit {
            "elements" => Throughput::Elements(per_operation),
            "bytes" => Throughput::Bytes(per_operation),
            _ => {
                return Err(std::format!(
                    "unknown throughput unit {unit:?}: the units are {}",
                    THROUGHPUT_UNITS.join(", ")
                ))
            }
        };
        t.checked()
    }

    /// Itself where it counts something; an error for 0 per operation.
    pub fn checked(self) -> Result<Throughput, String> {
        match self.per_operation() {
            0 => Err(std::format!(
                "a throughput of 0 {} per operation: give the work one operation does (at least 1)",
                self.unit()
            )),
            _ => Ok(self),
        }
    }

    /// Its unit's name: `elements` or `bytes`.
    pub fn unit(self) -> &'static str {
        match self {
            Throughput::Elements(_) => THROUGHPUT_UNITS[0],
            Throughput::Bytes(_) => THROUGHPUT_UNITS[1],
        }
    }

    /// The elements or bytes of one operation.
    pub fn per_operation(self) -> u64 {
        match self {
            Throughput::Elements(n) | Throughput::Bytes(n) => n,
        }
    }

    /// Elements or bytes a second at `ns` nanoseconds an operation (infinite at 0 ns, NaN
    /// for NaN).
    pub fn per_second(self, ns: f64) -> f64 {
        self.per_operation() as f64 * 1e9 / ns
    }

    /// The rate at `ns` nanoseconds an operation, for showing: `1.21 GB/s`, `3.40 M elem/s`.
    pub fn rate(self, ns: f64) -> Rate {
        Rate {
            per_second: self.per_second(ns),
            bytes: matches!(self, Throughput::Bytes(_)),
        }
    }
}

impl Display for Throughput {
    /// `1000 elements`, `4096 bytes`: the work of one operation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.per_operation(), self.unit())
    }
}

/// A side of a comparison's work: its throughput, where declared, and the rate it gives.
pub type Work = (Option<Throughput>, Option<Rate>);

/// A rate shown with three significant digits and a decimal prefix (k, M, G, T).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Elements or bytes a second.
    pub per_second: f64,
    bytes: bool,
}

impl Rate {
    /// What it counts: `elements` or `bytes`.
    pub fn unit(self) -> &'static str {
        match self.bytes {
            true => THROUGHPUT_UNITS[1],
            false => THROUGHPUT_UNITS[0],
        }
    }
}

impl Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut v, mut prefix) = (self.per_second, "");
        for p in ["k", "M", "G", "T"] {
            // (A NaN or an infinite rate keeps no prefix.)
            if v.abs() < 999.5 || !v.is_finite() {
                break;
            }
            (v, prefix) = (v / 1000.0, p);
        }
        // Three significant digits: 1.21, 12.1, 121.
        let decimals = match v.abs() {
            x if x < 9.995 => 2,
            x if x < 99.95 => 1,
            _ => 0,
        };
        match self.bytes {
            true => write!(f, "{v:.decimals$} {prefix}B/s"),
            false if prefix.is_empty() => write!(f, "{v:.decimals$} elem/s"),
            false => write!(f, "{v:.decimals$} {prefix} elem/s"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn a_rate_is_the_work_over_the_time_with_a_decimal_prefix() {
        // 4096 bytes in 3385 ns: 1.2100… × 10⁹ B/s.
        assert_eq!(
            Throughput::Bytes(4096).rate(3385.0).to_string(),
            "1.21 GB/s"
        );
        assert_eq!(
            Throughput::Elements(1000).rate(294.0).to_string(),
            "3.40 G elem/s"
        );
        assert_eq!(
            Throughput::Elements(34).rate(1e7).to_string(),
            "3.40 k elem/s"
        );
        assert_eq!(Throughput::Elements(3).rate(1e9).to_string(), "3.00 elem/s");
        assert_eq!(
            Throughput::Bytes(1).rate(1e9 / 999.6).to_string(),
            "1.00 kB/s"
        );
        assert_eq!(Throughput::Bytes(123).rate(1e9).to_string(), "123 B/s");
    }

    #[test]
    fn an_unknown_unit_or_zero_work_is_refused_with_the_units() {
        let e = Throughput::parse("bits", 8).unwrap_err();
        assert!(
            e.contains("\"bits\"") && e.contains("elements, bytes"),
            "{e}"
        );
        let e = Throughput::parse("bytes", 0).unwrap_err();
        assert!(e.contains("0 bytes"), "{e}");
        assert_eq!(
            Throughput::parse("elements", 7),
            Ok(Throughput::Elements(7))
        );
    }
}
