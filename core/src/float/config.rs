//! The configuration of a floating-point histogram and its checked form.

use super::layout::{FloatLayout, OCTAVES};
use crate::concurrent::{Mode, Storage};
use crate::config::{ConfigError, ValueSelection};
use crate::layout::DEFAULT_RELATIVE_ERROR;

/// How many threads record at once, of the two [`Mode`]s a floating-point histogram takes:
/// [`Mode::SingleWriter`] (one at a time: plain load and store) or [`Mode::Interlocked`]
/// (any number: atomic adds); read from the mode when the configuration is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writers {
    One,
    Many,
}

/// The settings of a [`super::FloatHistogram`]: relative error, the range of magnitudes
/// kept in buckets, storage, mode and value selection. Builder methods, as [`crate::Config`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatConfig {
    relative_error: f64,
    min_magnitude: f64,
    max_magnitude: f64,
    storage: Storage,
    mode: Mode,
    selection: ValueSelection,
}

impl Default for FloatConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl FloatConfig {
    /// 0.1 %, every finite magnitude (from the smallest subnormal to `f64::MAX`), sparse
    /// storage, single writer, midpoints.
    pub const fn new() -> Self {
        FloatConfig {
            relative_error: DEFAULT_RELATIVE_ERROR,
            min_magnitude: f64::from_bits(1),
            max_magnitude: f64::MAX,
            storage: Storage::Sparse,
            mode: Mode::SingleWriter,
            selection: ValueSelection::Midpoint,
        }
    }

    setters! {
        const
        /// The tolerated relative error (clamped to `[1e-6, 0.1]`; NaN, ∞ and values ≤ 0
        /// are refused by [`FloatConfig::validate`]).
        fn with_relative_error(relative_error: f64);
        /// Dense or sparse counters (the default: sparse, one block per octave of magnitude
        /// allocated when a value first lands in it, so the whole range of doubles costs
        /// only what the data touches).
        fn with_storage(storage: Storage);
        /// [`Mode::SingleWriter`] (the default) or [`Mode::Interlocked`]; the thread-local
        /// and approximate modes are refused by [`FloatConfig::validate`] (the exact sum and
        /// extremes need every record).
        fn with_mode(mode: Mode);
        /// How buckets report values.
        fn with_value_selection(selection: ValueSelection);
    }

    /// The magnitudes kept in buckets, to bucket resolution, for both signs: a nonzero
    /// value whose magnitude is below `min` counts as underflow, above `max` as overflow.
    pub const fn with_range(mut self, min: f64, max: f64) -> Self {
        self.min_magnitude = min;
        self.max_magnitude = max;
        self
    }

    /// The requested relative error.
    pub const fn relative_error(&self) -> f64 {
        self.relative_error
    }

    /// The smallest magnitude kept in buckets.
    pub const fn min_magnitude(&self) -> f64 {
        self.min_magnitude
    }

    /// The largest magnitude kept in buckets.
    pub const fn max_magnitude(&self) -> f64 {
        self.max_magnitude
    }

    /// The storage kind.
    pub const fn storage(&self) -> Storage {
        self.storage
    }

    /// The mode.
    pub const fn mode(&self) -> Mode {
        self.mode
    }

    /// The value selection.
    pub const fn value_selection(&self) -> ValueSelection {
        self.selection
    }

    /// Check the settings: a relative error that is finite and above 0, magnitudes with
    /// `0 < min ≤ max`, both finite, and the single-writer or interlocked mode.
    pub fn validate(&self) -> Result<FloatShape, ConfigError> {
        let e = ConfigError::check_relative_error(self.relative_error)?;
        let writers = match self.mode {
            Mode::SingleWriter => Writers::One,
            Mode::Interlocked => Writers::Many,
            _ => return Err(ConfigError::FloatMode),
        };
        let (min, max) = (self.min_magnitude, self.max_magnitude);
        if !(min > 0.0 && min <= max && max.is_finite()) {
            return Err(ConfigError::InvalidMagnitudes { min, max });
        }
        let layout = FloatLayout::clamped(e);
        let (first, last) = (layout.index(min), layout.index(max));
        let low_bits = layout.bucket(first).lower.to_bits();
        let high_bits = layout.bucket(last).highest().to_bits();
        // The normal magnitudes of the range; none (an empty test) when it has none.
        let normal_low = low_bits.max(f64::MIN_POSITIVE.to_bits());
        let (normal_low, normal_span) = if normal_low <= high_bits {
            (normal_low, high_bits - normal_low)
        } else {
            (u64::MAX, 0)
        };
        let scale = layout.scale();
        Ok(FloatShape {
            config: *self,
            writers,
            layout,
            first,
            len: last - first + 1,
            low_bits,
            high_bits,
            normal_low,
            normal_span,
            normal_shift: 52 - scale,
            normal_base: (52usize << scale).wrapping_sub(first),
            normal_mask: layout.buckets_per_octave() - 1,
        })
    }
}

/// A checked [`FloatConfig`]: the layout, the first bucket index of the range and the
/// number of buckets per sign, and the range's bounds as bits (positive doubles order like
/// their bits, so one compare of the magnitude's bits sorts a value in or out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatShape {
    config: FloatConfig,
    writers: Writers,
    layout: FloatLayout,
    first: usize,
    len: usize,
    low_bits: u64,
    high_bits: u64,
    /// The normal magnitudes of the range as bits: `normal_low..=normal_low + normal_span`.
    normal_low: u64,
    normal_span: u64,
    /// A normal magnitude's storage offset is `(bits >> normal_shift) + normal_base`
    /// (wrapping): its bucket index (see `FloatLayout::index`) less `first`.
    normal_shift: u32,
    normal_base: usize,
    /// `buckets_per_octave − 1`: a normal magnitude's place in its sparse block is
    /// `(bits >> normal_shift) & normal_mask`.
    normal_mask: usize,
}

impl FloatShape {
    /// The configuration as given.
    pub const fn config(&self) -> FloatConfig {
        self.config
    }

    /// How many threads record at once (the checked mode).
    pub(crate) const fn writers(&self) -> Writers {
        self.writers
    }

    /// The layout.
    pub const fn layout(&self) -> FloatLayout {
        self.layout
    }

    /// Bucket index (in the layout) of storage offset 0.
    pub const fn first_index(&self) -> usize {
        self.first
    }

    /// Buckets per sign.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Never empty.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The magnitudes kept in buckets, to bucket resolution: the lowest bucket's lower
    /// bound and the highest bucket's largest value.
    pub fn range(&self) -> (f64, f64) {
        (
            f64::from_bits(self.low_bits),
            f64::from_bits(self.high_bits),
        )
    }

    /// The storage offset of a magnitude's bucket (its bits without the sign), or `None`
    /// when the magnitude is zero, NaN, infinite or outside the range.
    #[inline(always)]
    pub fn offset_of_bits(&self, magnitude_bits: u64) -> Option<usize> {
        if magnitude_bits.wrapping_sub(self.low_bits) > self.high_bits - self.low_bits {
            return None;
        }
        // A normal magnitude's index is its bits shifted, plus the 52 subnormal octaves
        // below (see `FloatLayout::index`): one shift and one add.
        if magnitude_bits >= f64::MIN_POSITIVE.to_bits() {
            return Some(
                self.shifted_normal(magnitude_bits)
                    .wrapping_add(self.normal_base),
            );
        }
        Some(self.layout.index(f64::from_bits(magnitude_bits)) - self.first)
    }

    /// The range's normal magnitudes as bits, `(low, high)` inclusive; `None` when it has
    /// none (a range of subnormals only).
    pub(crate) fn normal_bits(&self) -> Option<(u64, u64)> {
        (self.normal_low != u64::MAX)
            .then_some((self.normal_low, self.normal_low + self.normal_span))
    }

    /// A normal magnitude's bits shifted so that its storage offset is this plus
    /// [`FloatShape::normal_base`] (wrapping).
    #[inline(always)]
    pub(crate) fn shifted_normal(&self, magnitude_bits: u64) -> usize {
        (magnitude_bits >> self.normal_shift) as usize
    }

    /// The right shift of a normal magnitude's bits that [`FloatShape::shifted_normal`]
    /// takes (`52 − log2(buckets_per_octave)`: at least 1).
    pub(crate) fn normal_shift(&self) -> u32 {
        self.normal_shift
    }

    /// `buckets_per_octave − 1` (a normal magnitude's place in its octave's sparse block is its
    /// [`FloatShape::shifted_normal`] and-ed with this).
    pub(crate) fn normal_mask(&self) -> usize {
        self.normal_mask
    }

    /// See [`FloatShape::shifted_normal`].
    pub(crate) fn normal_base(&self) -> usize {
        self.normal_base
    }

    /// The bucket of magnitudes at storage offset `offset < len()`.
    pub fn bucket(&self, offset: usize) -> super::layout::FloatBucket {
        self.layout.bucket(self.first + offset)
    }

    /// The smallest and largest value that share `x`'s bucket (HdrHistogram's lowest and
    /// highest equivalent values; signed: `(−highest, −lower)` for a negative `x`, `(0, 0)`
    /// for zero); `None` for a value that is not finite or whose magnitude lies outside
    /// the range.
    pub fn equivalent_range(&self, x: f64) -> Option<(f64, f64)> {
        if x == 0.0 {
            return Some((0.0, 0.0));
        }
        if !x.is_finite() {
            return None;
        }
        let b = self.bucket(self.offset_of_bits(x.abs().to_bits())?);
        Some(if x > 0.0 {
            (b.lower, b.highest())
        } else {
            (-b.highest(), -b.lower)
        })
    }

    /// Blocks (octaves) of sparse storage the range touches.
    pub(crate) fn blocks(&self) -> usize {
        let scale = self.layout.scale();
        ((self.first + self.len - 1) >> scale) - (self.first >> scale) + 1
    }

    /// Bytes of dense counters of `bytes_per_counter` for both signs.
    pub fn dense_bytes(&self, bytes_per_counter: usize) -> usize {
        2 * self.len * bytes_per_counter
    }
}

const _: () = assert!(OCTAVES < 4096);
