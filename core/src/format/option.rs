//! The rules of the exporters' options (OpenMetrics, OTLP and Prometheus native histograms),
//! in one place: a Rust caller and the C ABI (and the bindings over it) are refused with the
//! same rule and message. The OTLP request's own rules (a metric name, attribute names, the
//! point's times) are here too; `Request::check` applies them all. Prometheus' names (a
//! family's metric name, its label names) are checked here for the OpenMetrics text and the
//! native-histogram protobuf alike.

use core::fmt;

/// The smallest scale OTLP allows.
pub const MIN_SCALE: i32 = -10;
/// The largest scale OTLP allows.
pub const MAX_SCALE: i32 = 20;
/// The smallest schema of a Prometheus native histogram (base `2^16`).
pub const MIN_SCHEMA: i32 = -4;
/// The largest schema of a Prometheus native histogram (base `2^(1/256)`).
pub const MAX_SCHEMA: i32 = 8;
/// Suffixes a histogram family's name may not end with (its samples', and other types').
pub(crate) const HISTOGRAM_SUFFIXES: [&str; 6] =
    ["_bucket", "_count", "_sum", "_created", "_total", "_info"];

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
    /// A Prometheus native-histogram schema outside `MIN_SCHEMA..=MAX_SCHEMA`.
    Schema(i32),
    /// Classic buckets asked of a histogram of doubles (they are offered for integer
    /// histograms only).
    ClassicBounds,
    /// A Prometheus metric family name that does not match `[a-zA-Z_:][a-zA-Z0-9_:]*`, or
    /// that ends with a suffix the family's own samples use (`_bucket`, `_count`, …).
    MetricName,
    /// A Prometheus label name that does not match `[a-zA-Z_][a-zA-Z0-9_]*`, starts with
    /// `__` (reserved), or is the family's own label (`le`, `quantile`).
    LabelName {
        /// Its index in the label set.
        index: usize,
    },
    /// A Prometheus label name given twice in one label set.
    RepeatedLabelName {
        /// The index of the second one.
        index: usize,
        /// The index of the first one.
        first: usize,
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
            Self::Schema(s) => {
                write!(f, "schema is {s}: it must be in {MIN_SCHEMA}..{MAX_SCHEMA}")
            }
            Self::ClassicBounds => f.write_str(
                "classic buckets are offered for integer histograms only (leave them unset)",
            ),
            Self::MetricName => f.write_str(
                "name must match [a-zA-Z_:][a-zA-Z0-9_:]* and not end with _bucket, _count, \
                 _sum, _created, _total or _info",
            ),
            Self::LabelName { index } => write!(
                f,
                "labels[{index}].name must match [a-zA-Z_][a-zA-Z0-9_]*, not start with __ \
                 and not be the family's own label (le, quantile)"
            ),
            Self::RepeatedLabelName { index, first } => write!(
                f,
                "labels[{index}].name is given twice (as labels[{first}].name)"
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

/// `schema` when Prometheus native histograms allow it (`MIN_SCHEMA..=MAX_SCHEMA`).
pub fn check_schema(schema: i32) -> Result<i32, OptionError> {
    match (MIN_SCHEMA..=MAX_SCHEMA).contains(&schema) {
        true => Ok(schema),
        false => Err(OptionError::Schema(schema)),
    }
}

/// `name` when it is a Prometheus metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`) that does not
/// end with one of `reserved` (the suffixes of the family's own samples).
pub fn check_metric_name<'a>(name: &'a str, reserved: &[&str]) -> Result<&'a str, OptionError> {
    let mut b = name.bytes();
    let valid = matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_' || c == b':')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b':');
    match valid && !reserved.iter().any(|s| name.ends_with(s)) {
        true => Ok(name),
        false => Err(OptionError::MetricName),
    }
}

/// Label names as Prometheus allows them (`[a-zA-Z_][a-zA-Z0-9_]*`, not `__`-prefixed),
/// none the family's `own` label (`le` for histograms, `quantile` for summaries), none twice.
pub fn check_labels(labels: &[(&str, &str)], own: &str) -> Result<(), OptionError> {
    for (index, (name, _)) in labels.iter().enumerate() {
        let mut b = name.bytes();
        let valid = matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
            && b.all(|c| c.is_ascii_alphanumeric() || c == b'_');
        if !valid || name.starts_with("__") || *name == own {
            return Err(OptionError::LabelName { index });
        }
        if let Some(first) = labels[..index].iter().position(|(other, _)| other == name) {
            return Err(OptionError::RepeatedLabelName { index, first });
        }
    }
    Ok(())
}
