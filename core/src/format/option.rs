//! The rules of the exporters' options (OpenMetrics and OTLP), in one place: a Rust caller
//! and the C ABI (and the bindings over it) are refused with the same rule and message.
//! The OTLP request's own rules (a metric name, attribute names, the point's times) are here
//! too; `Request::check` applies them all.

use core::fmt;

/// The smallest scale OTLP allows.
pub const MIN_SCALE: i32 = -10;
/// The largest scale OTLP allows.
pub const MAX_SCALE: i32 = 20;

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
    /// An OTLP metric without a name.
    EmptyName,
    /// An OTLP attribute with an empty name.
    EmptyAttributeName {
        /// The set it belongs to.
        set: AttributeSet,
        /// Its index in the set.
        index: usize,
    },
    /// An OTLP attribute name given twice in one set.
    RepeatedAttributeName {
        /// The set it belongs to.
        set: AttributeSet,
        /// The index of the second one.
        index: usize,
        /// The index of the first one.
        first: usize,
    },
    /// An OTLP point whose start is after its end (`time`, when not 0).
    StartAfterTime {
        /// The start, nanoseconds since the Unix epoch.
        start: u64,
        /// The end, nanoseconds since the Unix epoch.
        time: u64,
    },
}

/// Which attributes of an OTLP request: a point's or the resource's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeSet {
    /// A data point's attributes (its series).
    Point,
    /// The resource's attributes (e.g. `service.name`).
    Resource,
}

impl fmt::Display for AttributeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Point => "attributes",
            Self::Resource => "resource",
        })
    }
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
            Self::EmptyName => f.write_str("name is empty: an OTLP metric needs a name"),
            Self::EmptyAttributeName { set, index } => write!(f, "{set}[{index}].name is empty"),
            Self::RepeatedAttributeName { set, index, first } => write!(
                f,
                "{set}[{index}].name is given twice (as {set}[{first}].name)"
            ),
            Self::StartAfterTime { start, time } => write!(
                f,
                "start_time_unix_nano {start} is after time_unix_nano {time}"
            ),
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

/// `name` when it is not empty (an OTLP metric needs a name).
pub fn check_name(name: &str) -> Result<&str, OptionError> {
    match name.is_empty() {
        true => Err(OptionError::EmptyName),
        false => Ok(name),
    }
}

/// Attribute names (the first of each pair) not empty and unique within the set.
pub fn check_attributes(attributes: &[(&str, &str)], set: AttributeSet) -> Result<(), OptionError> {
    for (index, (name, _)) in attributes.iter().enumerate() {
        if name.is_empty() {
            return Err(OptionError::EmptyAttributeName { set, index });
        }
        if let Some(first) = attributes[..index]
            .iter()
            .position(|(other, _)| other == name)
        {
            return Err(OptionError::RepeatedAttributeName { set, index, first });
        }
    }
    Ok(())
}

/// A point's start not after its end; an end of 0 (unset) is not compared.
pub fn check_times(start: u64, time: u64) -> Result<(), OptionError> {
    match time != 0 && start > time {
        true => Err(OptionError::StartAfterTime { start, time }),
        false => Ok(()),
    }
}
