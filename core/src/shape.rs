//! The checked shape of a histogram: a configuration that passed validation, with the facts
//! every histogram kind needs computed once (layout, first index, storage length).
//!
//! A [`Shape`] comes only from [`Config::validate`], so holding one proves the relative error
//! is usable and `min <= max`. Every histogram, view and snapshot keeps its shape; nothing
//! re-derives a layout from a float afterwards.

use crate::config::{Config, ConfigError, ValueSelection};
use crate::layout::{Bucket, Layout, Log2, OffsetTerms};

/// Which outside count an out-of-range value belongs to; also the index of that count in
/// `[u64; 3]` arrays of (underflow, overflow, saturated).
pub(crate) const UNDER: usize = 0;
/// Index of the overflow count.
pub(crate) const OVER: usize = 1;
/// Index of the saturated count.
pub(crate) const SAT: usize = 2;

/// A validated configuration: the [`Config`] as given, its [`Layout`], the logical index of
/// the first stored bucket and the number of stored buckets. It owns the two mappings every
/// histogram needs, value → storage offset and storage offset → bucket.
///
/// ```
/// use picollo::Config;
/// let shape = Config::new().with_relative_error(0.01).with_range(10_000, 30_000).validate()?;
/// assert_eq!(shape.len(), Config::new().with_relative_error(0.01).with_range(10_000, 30_000).storage_len());
/// assert_eq!(shape.offset(24_900), 83);
/// assert_eq!(shape.bucket(83).lower, 24_832);
/// assert!(shape.offset(40_000) >= shape.len()); // outside: overflow
/// # Ok::<(), picollo::ConfigError>(())
/// ```
///
/// It also carries how its record paths take a logarithm ([`Log2`]): `bsr` as validated,
/// the best instruction of this CPU once the plain [`crate::Histogram`] takes it
/// ([`Shape::for_this_cpu`]).
/// That choice is not part of the shape's identity: shapes that differ only in it are
/// equal.
///
/// `repr(C)`, what a record reads first: the layout, the offset's terms and the first index.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Shape {
    layout: Layout,
    /// [`Layout::offset_terms`] of `first_index`: what a record's offset is made with.
    terms: OffsetTerms,
    first_index: usize,
    len: usize,
    log2: Log2,
    config: Config,
}

/// Where a value is counted ([`Shape::slot`]): the logical index of its bucket in the
/// layout and that bucket's storage offset (the index less the shape's first index,
/// wrapped: `len()` or more for a value outside the range, so one compare catches both
/// ends). Dense storage reads the offset; sparse storage finds its block from the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The bucket's logical index ([`crate::Layout::index`]).
    pub index: usize,
    /// The bucket's storage offset.
    pub offset: usize,
}

impl PartialEq for Shape {
    fn eq(&self, other: &Shape) -> bool {
        (self.config, self.layout, self.first_index, self.len)
            == (other.config, other.layout, other.first_index, other.len)
    }
}

/// The layout of `config` (whose relative error is valid), `None` for a lowest discernible
/// value of 0 or one too wide for the layout.
const fn checked_unit(config: Config) -> Option<Layout> {
    if config.lowest_discernible() == 0 {
        return None;
    }
    Layout::clamped(config.relative_error()).with_unit_scale(config.unit_scale())
}

/// The configuration's way to its checked shape: it lives here, beside the checks, so that
/// the configuration needs nothing of the shape.
impl Config {
    /// Check the configuration: the relative error must be finite and above zero, the lowest
    /// discernible value at least 1 and its unit within the layout, and `min <= max`. Finite positive errors outside `[1e-6, 0.1]` are clamped. The result,
    /// a [`Shape`], carries everything a histogram derives from the configuration.
    pub const fn validate(&self) -> Result<Shape, ConfigError> {
        Shape::new(*self)
    }

    /// Counters needed for this configuration; 0 when it is invalid.
    pub const fn storage_len(&self) -> usize {
        match self.validate() {
            Ok(shape) => shape.len(),
            Err(_) => 0,
        }
    }
}

impl Shape {
    /// Check `config` (see [`Config::validate`], which calls this).
    pub const fn new(config: Config) -> Result<Shape, ConfigError> {
        let e = match ConfigError::check_relative_error(config.relative_error()) {
            Ok(e) => e,
            Err(err) => return Err(err),
        };
        let (min, max) = (config.min_trackable(), config.max_trackable());
        if min > max {
            return Err(ConfigError::MinAboveMax { min, max });
        }
        let Some(layout) = checked_unit(config) else {
            let max = u64::MAX >> Layout::clamped(e).block_scale();
            let lowest = config.lowest_discernible();
            return Err(ConfigError::LowestDiscernible { lowest, max });
        };
        Ok(Shape {
            config,
            layout,
            terms: layout.offset_terms(layout.index(min)),
            first_index: layout.index(min),
            len: layout.index(max) - layout.index(min) + 1,
            log2: Log2::ANY_CPU,
        })
    }

    /// The configuration as it was given (relative error as asked, not as achieved).
    pub const fn config(&self) -> Config {
        self.config
    }

    /// The bucket layout.
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// Logical index of storage bucket 0.
    pub const fn first_index(&self) -> usize {
        self.first_index
    }

    /// Number of stored buckets (counters).
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Always false: a shape stores at least one bucket.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The trackable range as configured.
    pub const fn range(&self) -> (u64, u64) {
        (self.config.min_trackable(), self.config.max_trackable())
    }

    /// Which value a bucket reports.
    pub const fn value_selection(&self) -> ValueSelection {
        self.config.value_selection()
    }

    /// The same shape reporting values with `selection`.
    pub const fn with_value_selection(mut self, selection: ValueSelection) -> Shape {
        self.config = self.config.with_value_selection(selection);
        self
    }

    /// Storage offset of `v`; `>= len()` when `v` is outside the range (values below the
    /// first bucket wrap to huge offsets, so one compare catches both ends).
    #[inline(always)]
    pub const fn offset(&self, v: u64) -> usize {
        self.layout.index(v).wrapping_sub(self.first_index)
    }

    /// This shape with the logarithm this CPU takes best (`lzcnt` where there is one): what
    /// the plain histogram's constructors keep.
    pub fn for_this_cpu(mut self) -> Shape {
        self.log2 = Log2::for_this_cpu();
        self
    }

    /// How the record paths take a logarithm ([`Shape::for_this_cpu`]).
    pub const fn log2(&self) -> Log2 {
        self.log2
    }

    /// [`Shape::offset`] for the plain histogram's records, with this shape's [`Log2`] and
    /// the first index folded into a constant (see [`crate::Layout::fast_offset`]).
    #[inline(always)]
    pub fn fast_offset(&self, v: u64) -> usize {
        self.layout.fast_offset(v, self.log2, self.terms)
    }

    /// Where a record of `v` counts ([`Slot`]), its logarithm taken with `log2`'s
    /// instruction: the one value → slot step of every record path, of every mode and
    /// both storages (a constant `log2` leaves no choice to make at run time).
    #[inline(always)]
    pub fn slot(&self, v: u64, log2: Log2) -> Slot {
        let index = self.layout.fast_index(v, log2);
        Slot {
            index,
            offset: index.wrapping_sub(self.first_index),
        }
    }

    /// Which count a record of `v` that found no cell goes to: saturated when `v` is in
    /// the range (its bucket full, or its sparse block not allocated), else underflow or
    /// overflow.
    #[cfg(picollo_concurrent)]
    #[inline]
    pub(crate) fn uncounted_kind(&self, v: u64) -> usize {
        if self.slot(v, Log2::ANY_CPU).offset < self.len {
            SAT
        } else {
            self.outside_kind(v)
        }
    }

    /// Storage offset of a logical bucket index, `None` outside the stored range.
    #[inline]
    pub const fn offset_of_logical(&self, logical: usize) -> Option<usize> {
        let o = logical.wrapping_sub(self.first_index);
        if o < self.len {
            Some(o)
        } else {
            None
        }
    }

    /// The bucket at storage offset `offset` (which must be below `len()`; larger offsets
    /// give a meaningless bucket, never undefined behaviour).
    #[inline]
    pub const fn bucket(&self, offset: usize) -> Bucket {
        self.layout.bucket_of_index(self.first_index + offset)
    }

    /// Which outside count (underflow or overflow) an out-of-range `v` belongs to.
    #[inline]
    pub(crate) const fn outside_kind(&self, v: u64) -> usize {
        if v < self.config.min_trackable() {
            UNDER
        } else {
            OVER
        }
    }

    /// Which outside count a value whose storage offset is `offset` (`len()` or more)
    /// belongs to: a value below the first bucket wraps past half of `usize`'s range (no
    /// layout has that many buckets), one above the last stays below it.
    #[inline]
    pub(crate) const fn outside_kind_of_offset(&self, offset: usize) -> usize {
        if (offset as isize) < 0 {
            UNDER
        } else {
            OVER
        }
    }

    /// `Ok` when `actual` is the storage length this shape needs.
    pub const fn check_len(&self, actual: usize) -> Result<(), ConfigError> {
        if actual == self.len {
            Ok(())
        } else {
            Err(ConfigError::StorageLength {
                expected: self.len,
                actual,
            })
        }
    }

    /// Whether `other` stores the same buckets (same layout and range), so counts can be
    /// copied offset by offset.
    pub fn same_buckets(&self, other: &Shape) -> bool {
        self.layout == other.layout
            && self.first_index == other.first_index
            && self.len == other.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_keeps_the_config_as_given_and_derives_the_rest_once() {
        let config = Config::new()
            .with_relative_error(0.01)
            .with_range(10_000, 30_000);
        let shape = config.validate().unwrap();
        assert_eq!(shape.config(), config);
        assert_eq!(shape.config().relative_error(), 0.01);
        assert_eq!(shape.layout().relative_error(), 0.0078125);
        assert_eq!(shape.len(), config.storage_len());
        assert_eq!(shape.first_index(), shape.layout().index(10_000));
        assert_eq!(shape.offset(24_900), 83);
        assert_eq!(shape.offset_of_logical(609), Some(83));
        assert_eq!(shape.offset_of_logical(shape.first_index() - 1), None);
        assert!(shape.offset(9_000) >= shape.len());
        assert!(shape.offset(40_000) >= shape.len());
        assert_eq!(shape.outside_kind(9_000), UNDER);
        assert_eq!(shape.outside_kind(40_000), OVER);
    }

    #[test]
    fn the_offset_of_a_value_outside_tells_underflow_from_overflow() {
        for (error, min, max) in [(0.01, 10_000, 30_000), (0.1, 1, 1), (0.0005, 0, 1 << 40)] {
            let shape = Config::new()
                .with_relative_error(error)
                .with_range(min, max)
                .validate()
                .unwrap();
            let top = shape.bucket(shape.len() - 1).highest;
            let low = shape.bucket(0).lower;
            let below = [0, low / 2, low.saturating_sub(1)]
                .into_iter()
                .filter(|&v| v < low);
            let above = [top + 1, top.saturating_mul(3), u64::MAX].into_iter();
            for v in below.chain(above.filter(|&v| v > top)) {
                for shape in [shape, shape.for_this_cpu()] {
                    let offset = shape.fast_offset(v);
                    assert_eq!(shape.slot(v, shape.log2()).offset, offset, "{v}");
                    assert!(offset >= shape.len(), "{v}");
                    assert_eq!(shape.outside_kind_of_offset(offset), shape.outside_kind(v));
                }
            }
        }
    }

    #[test]
    fn a_shape_can_be_made_in_a_const() {
        const SHAPE: Shape = match Config::new().with_range(0, 1_000).validate() {
            Ok(s) => s,
            Err(_) => panic!("valid"),
        };
        assert_eq!(SHAPE.len(), 1_001);
    }
}
