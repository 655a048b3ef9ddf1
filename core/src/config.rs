//! Histogram configuration and its errors.

use crate::format::numbers::Compact;
use crate::layout::{Layout, DEFAULT_RELATIVE_ERROR, MAX_RELATIVE_ERROR, MIN_RELATIVE_ERROR};

/// Which value a bucket reports in percentiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ValueSelection {
    /// `lower + width / 2`; error at most `width / 2` (the default).
    #[default]
    Midpoint = 0,
    /// The bucket's smallest value; the true value may be up to `width - 1` above.
    Lower = 1,
    /// The bucket's largest value (HdrHistogram's "highest equivalent value").
    Upper = 2,
    /// Linear interpolation inside the bucket by the rank's position among its counts.
    Interpolated = 3,
}

/// Why a configuration or a storage was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The relative error is NaN, infinite, zero or negative. Finite positive values outside
    /// `[1e-6, 0.1]` are clamped, not refused.
    InvalidRelativeError(f64),
    /// `min_trackable > max_trackable`.
    MinAboveMax {
        /// The requested minimum.
        min: u64,
        /// The requested maximum.
        max: u64,
    },
    /// The storage given does not have the length the configuration needs.
    StorageLength {
        /// What the configuration needs ([`Config::storage_len`]).
        expected: usize,
        /// What was given.
        actual: usize,
    },
    /// Sparse cells made for another range: their first bucket is not the
    /// configuration's.
    StorageFirstIndex {
        /// The configuration's first bucket (logical index).
        expected: usize,
        /// The first bucket the cells were made for.
        actual: usize,
    },
    /// The storage could not be allocated.
    OutOfMemory {
        /// The size asked for, in bytes.
        bytes: usize,
    },
    /// A floating-point histogram's magnitude range is not `0 < min ≤ max < ∞` (both
    /// finite, subnormals allowed).
    InvalidMagnitudes {
        /// The requested smallest magnitude.
        min: f64,
        /// The requested largest magnitude.
        max: f64,
    },
    /// Sparse storage in the thread-local mode, whose per-thread shards are dense.
    SparseThreadLocal,
    /// A floating-point histogram in a mode other than single writer or interlocked.
    FloatMode,
    /// The lowest discernible value is 0, or its unit (rounded down to a power of two) is too
    /// wide for the layout: the unit-wide buckets would pass `2^64`.
    LowestDiscernible {
        /// The requested lowest discernible value.
        lowest: u64,
        /// The largest one this relative error accepts.
        max: u64,
    },
}

impl ConfigError {
    /// `e` as a relative error: the one rule of every histogram kind and every precision
    /// argument. NaN, infinities, zero and negative values are refused; finite positive ones
    /// are accepted (and clamped to `[1e-6, 0.1]` by the layout).
    pub const fn check_relative_error(e: f64) -> Result<f64, ConfigError> {
        // `e <= 0.0` is false for NaN, so NaN is named explicitly.
        if e.is_nan() || e <= 0.0 || e == f64::INFINITY {
            return Err(ConfigError::InvalidRelativeError(e));
        }
        Ok(e)
    }
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ConfigError::InvalidRelativeError(e) => write!(
                f,
                "relative error {} is invalid: it must be a finite number above 0 \
                 (values outside [{}, {}] are clamped)",
                Compact(e),
                Compact(MIN_RELATIVE_ERROR),
                Compact(MAX_RELATIVE_ERROR)
            ),
            ConfigError::MinAboveMax { min, max } => write!(
                f,
                "min trackable value {min} is above max trackable value {max}"
            ),
            ConfigError::InvalidMagnitudes { min, max } => write!(
                f,
                "magnitude range {min:e}..={max:e} is invalid: it needs 0 < min <= max, both \
                 finite"
            ),
            ConfigError::StorageLength { expected, actual } => write!(
                f,
                "storage holds {actual} counters but this configuration needs {expected}"
            ),
            ConfigError::StorageFirstIndex { expected, actual } => write!(
                f,
                "the sparse cells were made for a range starting at bucket {actual}, but this \
                 configuration's starts at bucket {expected}"
            ),
            ConfigError::SparseThreadLocal => f.write_str(
                "sparse storage is offered in the single-writer, interlocked and approximate \
                 modes, not the thread-local one (its per-thread shards are dense)",
            ),
            ConfigError::FloatMode => f.write_str(
                "a floating-point histogram records in the single-writer or interlocked mode \
                 (its exact sum and extremes need every record)",
            ),
            ConfigError::LowestDiscernible { lowest, max } => write!(
                f,
                "lowest discernible value {lowest} is invalid: at this relative error it must \
                 be 1..={max}"
            ),
            ConfigError::OutOfMemory { bytes } => {
                write!(f, "{}", crate::OutOfMemory { bytes })
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ConfigError {}

impl From<crate::OutOfMemory> for ConfigError {
    fn from(e: crate::OutOfMemory) -> Self {
        ConfigError::OutOfMemory { bytes: e.bytes }
    }
}

/// A histogram configuration: relative error, unit, trackable range, value selection.
///
/// Every method is `const`, so a configuration and its storage length can be computed at
/// compile time:
///
/// ```
/// use picollo::{Config, Histogram};
/// const CFG: Config = Config::new().with_relative_error(0.01).with_range(10_000, 30_000);
/// const LEN: usize = CFG.storage_len();
/// let mut h = Histogram::<u32, [u32; LEN]>::from_storage(CFG, [0; LEN]).unwrap();
/// h.record(24_900);
/// assert_eq!(h.total_count(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    relative_error: f64,
    min_trackable: u64,
    max_trackable: u64,
    value_selection: ValueSelection,
    lowest_discernible: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// Relative error 0.1 %, unit 1, range `0..=u64::MAX`, midpoint values.
    pub const fn new() -> Self {
        Config {
            relative_error: DEFAULT_RELATIVE_ERROR,
            min_trackable: 0,
            max_trackable: u64::MAX,
            value_selection: ValueSelection::Midpoint,
            lowest_discernible: 1,
        }
    }

    /// Set HdrHistogram's lowest discernible value: the unit is `lowest` rounded down to a
    /// power of two (`2^floor(log2 lowest)`, as HdrHistogram does), the width of the lowest
    /// buckets; above `2 · unit / relative error` the buckets are those of unit 1. Values
    /// below the unit share the first bucket (they are not underflow). 0 is refused by
    /// [`Config::validate`].
    pub const fn with_lowest_discernible(mut self, lowest: u64) -> Self {
        self.lowest_discernible = lowest;
        self
    }

    /// Set the unit to `2^unit_scale` (see [`Config::with_lowest_discernible`]).
    pub const fn with_unit_scale(self, unit_scale: u32) -> Self {
        // Past 63 no u64 is the unit: u64::MAX is refused by every layout.
        let lowest = if unit_scale < 64 {
            1 << unit_scale
        } else {
            u64::MAX
        };
        self.with_lowest_discernible(lowest)
    }

    /// Set the relative error and unit of `layout`, so that this configuration's layout is
    /// `layout`.
    pub const fn with_layout(self, layout: Layout) -> Self {
        self.with_relative_error(layout.relative_error())
            .with_unit_scale(layout.unit_scale())
    }

    /// The lowest discernible value as given (1 unless set).
    pub const fn lowest_discernible(&self) -> u64 {
        self.lowest_discernible
    }

    /// `log2` of the unit: `floor(log2 lowest_discernible)` (0 for an invalid 0).
    pub const fn unit_scale(&self) -> u32 {
        match self.lowest_discernible {
            0 => 0,
            lowest => lowest.ilog2(),
        }
    }

    setters! {
        const
        /// Set the tolerated relative error (clamped to `[1e-6, 0.1]`; see
        /// [`Config::validate`]).
        fn with_relative_error(relative_error: f64);
        /// Set the smallest value counted in a bucket. The range is kept to bucket
        /// resolution: values sharing `min`'s bucket are counted inside, smaller ones as
        /// underflow.
        fn with_min(min_trackable: u64);
        /// Set the largest value counted in a bucket. Values sharing `max`'s bucket are
        /// counted inside, larger ones as overflow.
        fn with_max(max_trackable: u64);
        /// Set which value a bucket reports.
        fn with_value_selection(value_selection: ValueSelection);
    }

    /// Set both ends of the trackable range.
    pub const fn with_range(self, min_trackable: u64, max_trackable: u64) -> Self {
        self.with_min(min_trackable).with_max(max_trackable)
    }

    /// The relative error as given.
    pub const fn relative_error(&self) -> f64 {
        self.relative_error
    }

    /// The smallest trackable value.
    pub const fn min_trackable(&self) -> u64 {
        self.min_trackable
    }

    /// The largest trackable value.
    pub const fn max_trackable(&self) -> u64 {
        self.max_trackable
    }

    /// The value selection.
    pub const fn value_selection(&self) -> ValueSelection {
        self.value_selection
    }

    /// The layout this configuration uses (lenient: an invalid error gives the default, a
    /// unit too wide for it unit 1).
    pub const fn layout(&self) -> Layout {
        let layout = Layout::clamped(self.relative_error);
        match layout.with_unit_scale(self.unit_scale()) {
            Some(with_unit) => with_unit,
            None => layout,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_relative_errors_are_refused_and_out_of_range_ones_clamped() {
        for bad in [0.0, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = Config::new()
                .with_relative_error(bad)
                .validate()
                .unwrap_err();
            assert!(matches!(err, ConfigError::InvalidRelativeError(_)));
        }
        let l = Config::new()
            .with_relative_error(1e-12)
            .validate()
            .unwrap()
            .layout();
        assert_eq!(l.block_size(), 524_288);
        let l = Config::new()
            .with_relative_error(0.9)
            .validate()
            .unwrap()
            .layout();
        assert_eq!(l.block_size(), 8);
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn relative_errors_in_messages_are_compact() {
        use alloc::string::ToString;
        let text = ConfigError::InvalidRelativeError(-1e300).to_string();
        assert!(
            text.starts_with("relative error -1e300 is invalid"),
            "{text}"
        );
        assert!(text.contains("[1e-6, 0.1]"), "{text}");
        let text = ConfigError::InvalidRelativeError(-0.001).to_string();
        assert!(text.starts_with("relative error -0.001 is"), "{text}");
    }

    #[test]
    fn min_above_max_is_refused() {
        let err = Config::new().with_range(10, 9).validate().unwrap_err();
        assert_eq!(err, ConfigError::MinAboveMax { min: 10, max: 9 });
        assert_eq!(Config::new().with_range(10, 9).storage_len(), 0);
        assert_eq!(Config::new().with_range(9, 9).storage_len(), 1);
    }
}
