//! The rules of the exporters' options (OpenMetrics and OTLP), in one place: a Rust caller
//! and the C ABI (and the bindings over it) are refused with the same rule and message.

use core::fmt;

use super::otlp::{MAX_SCALE, MIN_SCALE};

/// An exporter option that breaks its rule. The message names the option as the C ABI's
/// option structs do (`unit_ratio`, `bounds`, …) and says the rule.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum OptionError {
    /// A unit ratio that is not a finite number above 0.
    UnitRatio(f64),
    /// A coarse relative error outside `(0, 1)`.
    CoarseRelativeError(f64),
    /// Explicit bounds where `bounds[index]` is not above the bound before it.
    BoundsNotIncreasing {
        /// The index of the bound that is not above the previous one (at least 1).
        index: usize,
        /// `bounds[index]`.
        bound: u64,
        /// `bounds[index - 1]`.
        previous: u64,
    },
    /// An OTLP scale outside `MIN_SCALE..=MAX_SCALE`.
    Scale(i32),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnitRatio(r) => {
                write!(f, "unit_ratio is {r:?}: it must be a finite number above 0")
            }
            Self::CoarseRelativeError(e) => {
                write!(f, "coarse_relative_error is {e:?}: it must be in (0, 1)")
            }
            Self::BoundsNotIncreasing {
                index,
                bound,
                previous,
            } => write!(
                f,
                "bounds[{index}] = {bound} is not above bounds[{}] = {previous}: bounds must be \
                 strictly increasing",
                index - 1
            ),
            Self::Scale(s) => write!(f, "scale is {s}: it must be in {MIN_SCALE}..{MAX_SCALE}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OptionError {}

/// `ratio` (recorded units per exported unit) when it is a finite number above 0.
pub fn check_unit_ratio(ratio: f64) -> Result<f64, OptionError> {
    match ratio.is_finite() && ratio > 0.0 {
        true => Ok(ratio),
        false => Err(OptionError::UnitRatio(ratio)),
    }
}

/// `e` (the relative error of derived bounds) when it lies in `(0, 1)`.
pub fn check_coarse_relative_error(e: f64) -> Result<f64, OptionError> {
    match e > 0.0 && e < 1.0 {
        true => Ok(e),
        false => Err(OptionError::CoarseRelativeError(e)),
    }
}

/// `bounds` when they are strictly increasing.
pub fn check_bounds(bounds: &[u64]) -> Result<&[u64], OptionError> {
    match bounds.windows(2).position(|p| p[0] >= p[1]) {
        None => Ok(bounds),
        Some(k) => Err(OptionError::BoundsNotIncreasing {
            index: k + 1,
            bound: bounds[k + 1],
            previous: bounds[k],
        }),
    }
}

/// `scale` when OTLP allows it (`MIN_SCALE..=MAX_SCALE`).
pub fn check_scale(scale: i32) -> Result<i32, OptionError> {
    match (MIN_SCALE..=MAX_SCALE).contains(&scale) {
        true => Ok(scale),
        false => Err(OptionError::Scale(scale)),
    }
}
