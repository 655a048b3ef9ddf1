//! What a histogram family shows besides its counts: its bounds, unit ratio and created
//! time, and their check.

use super::{check_bounds, check_coarse_relative_error, check_unit_ratio, OptionError};

/// The bucket bounds (`le`) of a histogram family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bounds<'a> {
    /// These bounds, in recorded units, strictly increasing. The count at a bound is that
    /// of the buckets whose highest value is at or below it: exact when the bound is a
    /// bucket's highest value; otherwise the bucket that holds the bound is counted at the
    /// next bound (at most one bucket's worth, within the layout's relative error).
    Explicit(&'a [u64]),
    /// Bounds derived from the layout at this coarser relative error (in `(0, 1)`): each
    /// bound is a bucket's highest value, so every count is exact, and the set depends only
    /// on the layout and range, so it is the same at every scrape. Consecutive bounds `a < b`
    /// satisfy `b - a <= e·(a + b)` (the midpoint of `(a, b]` is within `e` of any value in
    /// it) unless `b` is the very next bucket. A finer `e` than the layout's gives every
    /// bucket its own bound.
    Coarse(f64),
}

impl Bounds<'_> {
    /// Explicit bounds strictly increasing, a coarse relative error in `(0, 1)`.
    pub fn check(&self) -> Result<(), OptionError> {
        match *self {
            Bounds::Explicit(b) => check_bounds(b).map(drop),
            Bounds::Coarse(e) => check_coarse_relative_error(e).map(drop),
        }
    }
}

/// What a histogram family shows besides its counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistogramOptions<'a> {
    /// The bucket bounds.
    pub bounds: Bounds<'a>,
    /// Recorded values are divided by this for display (`le`, `_sum`, summary values):
    /// `1e9` shows nanoseconds as seconds. Default 1.
    pub unit_ratio: f64,
    /// The `_created` time of every point, in nanoseconds since the Unix epoch (when the
    /// counting started, e.g. the last reset); `None` leaves `_created` out.
    pub created_unix_nanos: Option<u64>,
}

impl HistogramOptions<'_> {
    /// The unit ratio a finite number above 0, then the bounds as [`Bounds::check`]: the
    /// rules every family is held to (the error names the option that breaks its rule).
    pub fn check(&self) -> Result<(), OptionError> {
        check_unit_ratio(self.unit_ratio)?;
        self.bounds.check()
    }
}

impl Default for HistogramOptions<'_> {
    fn default() -> Self {
        HistogramOptions {
            bounds: Bounds::Coarse(0.05),
            unit_ratio: 1.0,
            created_unix_nanos: None,
        }
    }
}
