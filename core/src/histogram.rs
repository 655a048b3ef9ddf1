//! The single-writer histogram over any storage: a borrowed slice, an owned array, a `Vec`.

use core::marker::PhantomData;

use crate::config::{Config, ConfigError, ValueSelection};
use crate::counter::Counter;
use crate::layout::Layout;
use crate::view::View;

/// Why two histograms could not be combined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MergeError {
    /// The two layouts differ (different relative errors): buckets would not line up.
    LayoutMismatch {
        /// Relative error of the receiving histogram.
        this: f64,
        /// Relative error of the other histogram.
        other: f64,
    },
    /// A subtraction would take a count below zero (at this logical index, or `None` for
    /// the underflow/overflow/saturated counts). Nothing was changed.
    WouldGoNegative {
        /// The logical bucket index whose count is too small.
        logical_index: Option<u64>,
    },
    /// The histogram's mode cannot do this (subtracting from a histogram other threads
    /// record into); nothing was changed.
    Unsupported,
}

impl core::fmt::Display for MergeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            MergeError::LayoutMismatch { this, other } => write!(
                f,
                "cannot combine histograms of different precision ({:.4}% and {:.4}%)",
                percent_half_up(this),
                percent_half_up(other)
            ),
            MergeError::WouldGoNegative {
                logical_index: Some(i),
            } => write!(
                f,
                "subtraction would make bucket {i} negative: the other histogram is not an \
                 earlier state of this one"
            ),
            MergeError::WouldGoNegative {
                logical_index: None,
            } => f.write_str(
                "subtraction would make the underflow, overflow or saturated count negative",
            ),
            MergeError::Unsupported => f.write_str(
                "only a single-writer histogram can subtract: the other modes cannot take \
                 counts back while writers run (use a snapshot with deltas instead)",
            ),
        }
    }
}

/// A relative error in percent, rounded half up to 4 decimals as the reports print it
/// (0.78125 % → 0.7813 %; `{:.4}` alone rounds that tie to even, 0.7812 %).
fn percent_half_up(relative_error: f64) -> f64 {
    crate::fmath::round(relative_error * 1e6) / 1e4
}

#[cfg(feature = "std")]
impl std::error::Error for MergeError {}

/// An HDR histogram with one writer at a time (`&mut self` to record).
///
/// `C` is the counter width (`u32` or `u64`); `S` the storage: `[C; N]`, `&mut [C]`,
/// `Vec<C>` or `Box<[C]>`. The storage length always equals [`Config::storage_len`].
///
/// Values outside `[min_trackable, max_trackable]` (to bucket resolution) are counted as
/// underflow or overflow; recording never fails and never panics.
#[derive(Clone, Debug)]
pub struct Histogram<C: Counter, S> {
    layout: Layout,
    first_index: usize,
    min_trackable: u64,
    max_trackable: u64,
    selection: ValueSelection,
    underflow: u64,
    overflow: u64,
    saturated: u64,
    resets: u64,
    counts: S,
    _counter: PhantomData<C>,
}

impl<C: Counter, S: AsRef<[C]> + AsMut<[C]>> Histogram<C, S> {
    /// A histogram over `storage`, whose length must be `config.storage_len()`.
    /// The storage is cleared.
    pub fn from_storage(config: Config, mut storage: S) -> Result<Self, ConfigError> {
        let layout = config.validate()?;
        let expected = config.storage_len();
        let actual = storage.as_ref().len();
        if actual != expected {
            return Err(ConfigError::StorageLength { expected, actual });
        }
        storage.as_mut().fill(C::ZERO);
        Ok(Histogram {
            layout,
            first_index: layout.index(config.min_trackable()),
            min_trackable: config.min_trackable(),
            max_trackable: config.max_trackable(),
            selection: config.value_selection(),
            underflow: 0,
            overflow: 0,
            saturated: 0,
            resets: 0,
            counts: storage,
            _counter: PhantomData,
        })
    }

    /// Count one occurrence of `v`.
    #[inline(always)]
    pub fn record(&mut self, v: u64) {
        // Values below the first bucket wrap to huge offsets, so one compare catches both
        // ends of the range.
        let offset = self.layout.index(v).wrapping_sub(self.first_index);
        match self.counts.as_mut().get_mut(offset) {
            Some(c) => *c = c.increment(),
            None => self.record_outside(v, 1),
        }
    }

    /// Count `n` occurrences of `v`. `n = 0` does nothing. A bucket saturates at the
    /// counter's maximum instead of wrapping; what did not fit goes to
    /// [`Histogram::saturated_count`].
    #[inline]
    pub fn record_n(&mut self, v: u64, n: u64) {
        let offset = self.layout.index(v).wrapping_sub(self.first_index);
        match self.counts.as_mut().get_mut(offset) {
            Some(c) => {
                let (sum, excess) = c.saturating_add_u64(n);
                *c = sum;
                if excess != 0 {
                    self.saturated = self.saturated.saturating_add(excess);
                }
            }
            None => self.record_outside(v, n),
        }
    }

    #[cold]
    fn record_outside(&mut self, v: u64, n: u64) {
        if v < self.min_trackable {
            self.underflow = self.underflow.saturating_add(n);
        } else {
            self.overflow = self.overflow.saturating_add(n);
        }
    }

    /// Record `v`, then correct for coordinated omission as HdrHistogram defines it: when
    /// `v` exceeds `expected_interval`, also record `v - k·interval` for every `k ≥ 1` while
    /// that stays at or above the interval. `expected_interval = 0` records `v` only.
    ///
    /// The missing values are added bucket by bucket, so the cost is bounded by the number
    /// of buckets, not by `v / expected_interval`.
    pub fn record_corrected(&mut self, v: u64, expected_interval: u64) {
        self.record(v);
        let (layout, first, len) = (self.layout, self.first_index, self.counts.as_ref().len());
        corrected_runs(layout, first, len, v, expected_interval, |x, n| {
            self.record_n(x, n)
        });
    }

    /// Clear every count (buckets, underflow, overflow, saturated).
    pub fn reset(&mut self) {
        self.counts.as_mut().fill(C::ZERO);
        self.underflow = 0;
        self.overflow = 0;
        self.saturated = 0;
        self.resets = self.resets.wrapping_add(1);
    }

    /// Change which value buckets report in percentiles.
    pub fn set_value_selection(&mut self, selection: ValueSelection) {
        self.selection = selection;
    }

    /// Add every count of `other` (same relative error, any range): counts that fall outside
    /// this histogram's range go to its underflow/overflow. Buckets saturate as in
    /// [`Histogram::record_n`].
    pub fn add<C2: Counter>(&mut self, other: &View<'_, C2>) -> Result<(), MergeError> {
        self.check_layout(other)?;
        for (i, &c) in other.counts.iter().enumerate() {
            if c != C2::ZERO {
                let logical = other.first_index + i;
                let v = self.layout.bucket(logical).map_or(0, |b| b.lower);
                self.record_n(v, c.to_u64());
            }
        }
        self.underflow = self.underflow.saturating_add(other.underflow);
        self.overflow = self.overflow.saturating_add(other.overflow);
        self.saturated = self.saturated.saturating_add(other.saturated);
        Ok(())
    }

    /// Remove every count of `other` (same relative error, any range), for deltas. Fails
    /// without changing anything if some count would go below zero.
    pub fn subtract<C2: Counter>(&mut self, other: &View<'_, C2>) -> Result<(), MergeError> {
        self.check_layout(other)?;
        // Two passes: validate everything first so a failure changes nothing. Counts that
        // fall outside this range are taken from the underflow/overflow counts.
        let (mut under, mut over) = (other.underflow, other.overflow);
        for (i, &c) in other.counts.iter().enumerate() {
            if c == C2::ZERO {
                continue;
            }
            let logical = other.first_index + i;
            match self.offset_of_logical(logical) {
                Some(o) if self.counts.as_ref()[o].to_u64() >= c.to_u64() => {}
                Some(_) => {
                    return Err(MergeError::WouldGoNegative {
                        logical_index: Some(logical as u64),
                    })
                }
                None if logical < self.first_index => under = under.saturating_add(c.to_u64()),
                None => over = over.saturating_add(c.to_u64()),
            }
        }
        if under > self.underflow || over > self.overflow || other.saturated > self.saturated {
            return Err(MergeError::WouldGoNegative {
                logical_index: None,
            });
        }
        for (i, &c) in other.counts.iter().enumerate() {
            if let Some(o) = self.offset_of_logical(other.first_index + i) {
                // Validated above: mine >= c, so the difference fits C.
                let left = self.counts.as_ref()[o].to_u64() - c.to_u64();
                self.counts.as_mut()[o] = C::from_u64_wrapping(left);
            }
        }
        self.underflow -= under;
        self.overflow -= over;
        self.saturated -= other.saturated;
        Ok(())
    }

    /// Mutable access to the raw counters, for snapshot refreshes.
    pub(crate) fn counts_mut(&mut self) -> &mut [C] {
        self.counts.as_mut()
    }

    pub(crate) fn set_outside_counts(&mut self, underflow: u64, overflow: u64, saturated: u64) {
        self.underflow = underflow;
        self.overflow = overflow;
        self.saturated = saturated;
    }

    /// Give the storage back.
    pub fn into_storage(self) -> S {
        self.counts
    }
}

/// The values coordinated-omission correction adds for `v` (HdrHistogram's rule:
/// `v − k·interval` for every `k ≥ 1` while at least `interval`), grouped so the cost is
/// bounded by the storage length: `add(x, n)` is called once per storage bucket they hit
/// (with `x` its lower bound), once for those below the range (with a value below it) and
/// once for those above (with a value above it). `v` itself is not included.
pub(crate) fn corrected_runs(
    layout: Layout,
    first_index: usize,
    len: usize,
    v: u64,
    interval: u64,
    mut add: impl FnMut(u64, u64),
) {
    if interval == 0 || v / interval < 2 || len == 0 {
        return;
    }
    // Missing values: x_k = v - k·interval for k = 1..=kmax, all >= interval.
    let kmax = v / interval - 1;
    let smallest = v - kmax * interval;
    let largest = v - interval;
    // How many x_k fall into [lo, hi] (both inclusive).
    let hits = |lo: u64, hi: u64| -> u64 {
        let (lo, hi) = (lo.max(smallest), hi.min(largest));
        if lo > hi {
            return 0;
        }
        // x_k in [lo, hi] <=> (v - hi) / interval <= k <= (v - lo) / interval.
        (v - lo) / interval + 1 - (v - hi).div_ceil(interval)
    };
    let first_lower = layout.bucket_of_index(first_index).lower;
    if first_lower > 0 {
        let below = hits(0, first_lower - 1);
        if below != 0 {
            add(smallest, below);
        }
    }
    let first = layout.index(smallest).saturating_sub(first_index);
    let last = match layout.index(largest).checked_sub(first_index) {
        Some(last) => last.min(len - 1),
        None => 0, // every value is below the range: the loop below finds no hit
    };
    for i in first..=last {
        let b = layout.bucket_of_index(first_index + i);
        let n = hits(b.lower, b.highest);
        if n != 0 {
            add(b.lower, n);
        }
    }
    let last_highest = layout.bucket_of_index(first_index + len - 1).highest;
    if last_highest < u64::MAX {
        let above = hits(last_highest + 1, u64::MAX);
        if above != 0 {
            add(largest, above);
        }
    }
}

impl<C: Counter, S: AsRef<[C]>> Histogram<C, S> {
    /// A read-only view for queries, reports and iteration.
    #[inline]
    pub fn view(&self) -> View<'_, C> {
        View {
            layout: self.layout,
            first_index: self.first_index,
            counts: self.counts.as_ref(),
            underflow: self.underflow,
            overflow: self.overflow,
            saturated: self.saturated,
            min_trackable: self.min_trackable,
            max_trackable: self.max_trackable,
            selection: self.selection,
            resets: self.resets,
        }
    }

    /// The bucket layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The configuration this histogram was built from (with its current value selection).
    pub fn config(&self) -> Config {
        Config::new()
            .with_relative_error(self.layout.relative_error())
            .with_range(self.min_trackable, self.max_trackable)
            .with_value_selection(self.selection)
    }

    /// The raw counters, one per storage bucket.
    pub fn counts(&self) -> &[C] {
        self.counts.as_ref()
    }

    /// Count of values below the trackable range.
    pub fn underflow_count(&self) -> u64 {
        self.underflow
    }

    /// Count of values above the trackable range.
    pub fn overflow_count(&self) -> u64 {
        self.overflow
    }

    /// Counts that `record_n` could not add because a bucket was full.
    pub fn saturated_count(&self) -> u64 {
        self.saturated
    }

    /// How many times [`Histogram::reset`] ran (wrapping), so snapshots can tell.
    pub fn reset_count(&self) -> u64 {
        self.resets
    }

    /// Sum of all bucket counts (values inside the range), saturating at `u64::MAX`.
    pub fn total_count(&self) -> u64 {
        self.view().total_count()
    }

    /// Bytes taken by the counters (`storage_len × size_of::<C>()`).
    pub fn footprint_in_bytes(&self) -> usize {
        self.counts.as_ref().len() * C::BYTES
    }

    fn offset_of_logical(&self, logical: usize) -> Option<usize> {
        let o = logical.wrapping_sub(self.first_index);
        (o < self.counts.as_ref().len()).then_some(o)
    }

    fn check_layout<C2: Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        if other.layout == self.layout {
            Ok(())
        } else {
            Err(MergeError::LayoutMismatch {
                this: self.layout.relative_error(),
                other: other.layout.relative_error(),
            })
        }
    }
}

impl<C: Counter, const N: usize> Histogram<C, [C; N]> {
    /// A histogram over an owned array, usable in `const` and `static` items (no allocator):
    ///
    /// ```
    /// use picollo::{Config, ConfigError, Histogram};
    /// const CFG: Config = Config::new().with_relative_error(0.01).with_range(10_000, 30_000);
    /// const LEN: usize = CFG.storage_len();
    /// static EMPTY: Result<Histogram<u32, [u32; LEN]>, ConfigError> = Histogram::new_array(CFG);
    /// let mut h = EMPTY.clone().unwrap();
    /// h.record(24_900);
    /// assert_eq!(h.total_count(), 1);
    /// ```
    ///
    /// `N` must be `config.storage_len()`.
    pub const fn new_array(config: Config) -> Result<Self, ConfigError> {
        let layout = match config.validate() {
            Ok(layout) => layout,
            Err(e) => return Err(e),
        };
        let expected = config.storage_len();
        if N != expected {
            return Err(ConfigError::StorageLength {
                expected,
                actual: N,
            });
        }
        Ok(Histogram {
            layout,
            first_index: layout.index(config.min_trackable()),
            min_trackable: config.min_trackable(),
            max_trackable: config.max_trackable(),
            selection: config.value_selection(),
            underflow: 0,
            overflow: 0,
            saturated: 0,
            resets: 0,
            counts: [C::ZERO; N],
            _counter: PhantomData,
        })
    }
}

#[cfg(feature = "alloc")]
impl<C: Counter> Histogram<C, alloc::vec::Vec<C>> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        config.validate()?;
        Self::from_storage(config, alloc::vec![C::ZERO; config.storage_len()])
    }
}

#[cfg(feature = "alloc")]
impl Config {
    /// Build a heap-allocated histogram with counters of type `C`.
    pub fn build<C: Counter>(self) -> Result<Histogram<C, alloc::vec::Vec<C>>, ConfigError> {
        Histogram::new(self)
    }
}
