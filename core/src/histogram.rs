//! The single-writer histogram over any storage: a borrowed slice, an owned array, a `Vec`.

use core::marker::PhantomData;

use crate::batch::{BatchPath, Offsets};
use crate::config::{Config, ConfigError, ValueSelection};
use crate::counter::{Counter, Counts};
use crate::layout::Layout;
pub use crate::merge::MergeError;
use crate::merge::{add_view, plan_subtract, stored_counts};
use crate::shape::{Shape, SAT};
use crate::view::View;

/// An HDR histogram with one writer at a time (`&mut self` to record).
///
/// `C` is the counter width (`u32` or `u64`); `S` the storage: `[C; N]`, `&mut [C]`,
/// `Vec<C>` or `Box<[C]>`. The storage length always equals [`Config::storage_len`].
///
/// Values outside `[min_trackable, max_trackable]` (to bucket resolution) are counted as
/// underflow or overflow; recording never fails and never panics.
///
/// `EXACT`: whether it keeps the exact smallest and largest value recorded
/// ([`Histogram::with_exact_extremes`]); a compile-time choice, so a histogram without
/// them pays nothing for it.
#[derive(Clone, Debug)]
pub struct Histogram<C: Counter, S, const EXACT: bool = false> {
    shape: Shape,
    /// Underflow, overflow and saturated counts (indexed by `UNDER`, `OVER`, `SAT`).
    outside: [u64; 3],
    resets: u64,
    counts: S,
    /// The exact extremes, kept when `EXACT` ([`Histogram::with_exact_extremes`]).
    extremes: Extremes,
    /// Whether every count was below [`Counter::UNFILLED_BELOW`] after its last write
    /// other than a single record (never for `u32`): no record can then find its bucket
    /// full, and [`Histogram::record`] does not test for it. Every other write keeps it
    /// (an add of `n`, a merge, a decode, a reset).
    unfilled: bool,
    _counter: PhantomData<C>,
}

/// The smallest and largest value recorded in the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extremes {
    /// The smallest value seen (`u64::MAX` while none).
    lo: u64,
    /// The largest value seen (0 while none).
    hi: u64,
}

impl Extremes {
    const NONE: Extremes = Extremes {
        lo: u64::MAX,
        hi: 0,
    };

    #[inline(always)]
    fn note(&mut self, v: u64) {
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
    }

    fn get(&self) -> Option<(u64, u64)> {
        (self.lo <= self.hi).then_some((self.lo, self.hi))
    }
}

impl<C: Counter, S: AsRef<[C]> + AsMut<[C]>> Histogram<C, S> {
    /// A histogram over `storage`, whose length must be `config.storage_len()`.
    /// The storage is cleared.
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?, storage)
    }

    /// A histogram of an already checked `shape` over `storage` (length `shape.len()`),
    /// which is cleared.
    pub fn from_shape(shape: Shape, mut storage: S) -> Result<Self, ConfigError> {
        shape.check_len(storage.as_ref().len())?;
        storage.as_mut().fill(C::ZERO);
        Ok(Self::over(shape.for_this_cpu(), storage, Self::ZEROED))
    }

    /// The same histogram keeping the exact smallest and largest value recorded in its
    /// range ([`Histogram::exact_extremes`]) from its next record on (make it so before
    /// recording). A record in the range then also lowers and raises two words (a
    /// compare and a conditional move each).
    ///
    /// What they cover: every value recorded in the range (a saturated record too;
    /// underflow and overflow values are not in the range) since creation or the last
    /// [`Histogram::reset`], through any record call. [`Histogram::add`] takes the bounds
    /// of the source's lowest and highest buckets that land in the range,
    /// [`Histogram::add_histogram`] the source's exact extremes when it keeps them; V2
    /// blobs added contribute their bucket midpoints (what they record);
    /// [`Histogram::subtract`] leaves them as they are.
    pub fn with_exact_extremes(self) -> Histogram<C, S, true> {
        Histogram {
            shape: self.shape,
            outside: self.outside,
            resets: self.resets,
            counts: self.counts,
            extremes: Extremes::NONE,
            unfilled: self.unfilled,
            _counter: PhantomData,
        }
    }
}

impl<C: Counter, S: AsRef<[C]> + AsMut<[C]>, const EXACT: bool> Histogram<C, S, EXACT> {
    /// `unfilled` for storage holding only zeroes.
    const ZEROED: bool = C::UNFILLED_BELOW > 0;

    /// A histogram over `counts`; `unfilled` as the field says (true only where they are
    /// known to be below [`Counter::UNFILLED_BELOW`]).
    const fn over(shape: Shape, counts: S, unfilled: bool) -> Self {
        Histogram {
            shape,
            outside: [0; 3],
            resets: 0,
            counts,
            extremes: Extremes::NONE,
            unfilled,
            _counter: PhantomData,
        }
    }

    /// Whether a single record must test for a full bucket (see `unfilled`): a constant
    /// for `u32`.
    #[inline(always)]
    fn may_fill(&self) -> bool {
        !(Self::ZEROED && self.unfilled)
    }

    /// Note a count left at `n` by a write other than a single record.
    #[inline(always)]
    fn note_written(&mut self, n: u64) {
        if n >= C::UNFILLED_BELOW {
            self.unfilled = false;
        }
    }

    /// Count one occurrence of `v`.
    #[inline(always)]
    pub fn record(&mut self, v: u64) {
        // Values below the first bucket wrap to huge offsets, so one compare catches both
        // ends of the range.
        let offset = self.shape.fast_offset(v);
        let may_fill = self.may_fill();
        match self.counts.as_mut().get_mut(offset) {
            Some(c) => {
                if EXACT {
                    self.extremes.note(v);
                }
                // One add to memory, its own flags tested (`inc` and a branch) unless no
                // bucket can be full: a full bucket wraps to zero there and is put back
                // to MAX at once, the record counted as saturated. Nothing reads the zero
                // (`&mut self`).
                *c = c.increment();
                if may_fill && *c == C::ZERO {
                    *c = C::MAX;
                    self.saturate_one();
                }
            }
            // Told apart by the offset, so that `v` is not kept past the index.
            None => self.record_outside_at(offset),
        }
    }

    /// Count every value of `values`, as many [`Histogram::record`]s would: the offsets
    /// computed a vector at a time on [`BatchPath::chosen`], then the adds.
    pub fn record_many(&mut self, values: &[u64]) {
        self.record_many_on(BatchPath::chosen(), values);
    }

    /// [`Histogram::record_many`] on `path` (the portable one where this CPU lacks it).
    pub fn record_many_on(&mut self, path: BatchPath, values: &[u64]) {
        let (outside, extremes) = if self.cannot_fill(values.len()) {
            self.adds_of::<false>(path, values)
        } else {
            self.adds_of::<true>(path, values)
        };
        for (total, n) in self.outside.iter_mut().zip(outside) {
            *total = total.saturating_add(n);
        }
        if let Some((lo, hi)) = extremes.get() {
            self.extremes.note(lo);
            self.extremes.note(hi);
        }
    }

    /// The adds of a batch, each tested for a full bucket when `FULL`; the outside counts
    /// and the extremes they found.
    #[inline(always)]
    fn adds_of<const FULL: bool>(
        &mut self,
        path: BatchPath,
        values: &[u64],
    ) -> ([u64; 3], Extremes) {
        let offsets = Offsets::new(&self.shape);
        let mut adds = Adds::<C, EXACT, FULL> {
            counts: self.counts.as_mut(),
            shape: self.shape,
            outside: [0; 3],
            extremes: Extremes::NONE,
        };
        offsets.pipeline(path, values, &mut adds);
        (adds.outside, adds.extremes)
    }

    /// Whether `n` more records cannot fill any bucket, so that a batch's adds need no
    /// test: as for a single record where every count is known to be far from full (`u64`),
    /// or by [`crate::batch::cannot_fill`]'s rule.
    fn cannot_fill(&self, n: usize) -> bool {
        let counts = self.counts.as_ref();
        let any = || Self::or_of(counts);
        !self.may_fill() || crate::batch::cannot_fill(counts.len(), n, any, C::MAX.to_u64())
    }

    /// Count `n` occurrences of `v`. `n = 0` does nothing. A bucket saturates at the
    /// counter's maximum instead of wrapping; what did not fit goes to
    /// [`Histogram::saturated_count`].
    #[inline]
    pub fn record_n(&mut self, v: u64, n: u64) {
        if EXACT && n != 0 && self.shape.fast_offset(v) < self.shape.len() {
            self.extremes.note(v);
        }
        self.add_n(v, n);
    }

    /// [`Histogram::record_n`] without noting the extremes.
    #[inline]
    fn add_n(&mut self, v: u64, n: u64) {
        match self.counts.as_mut().get_mut(self.shape.fast_offset(v)) {
            Some(c) => {
                let (sum, excess) = c.saturating_add_u64(n);
                *c = sum;
                self.note_written(sum.to_u64());
                if excess != 0 {
                    self.outside[SAT] = self.outside[SAT].saturating_add(excess);
                }
            }
            None => self.record_outside(v, n),
        }
    }

    /// A record into a full bucket: counted as saturated.
    #[cold]
    fn saturate_one(&mut self) {
        self.outside[SAT] = self.outside[SAT].saturating_add(1);
    }

    /// A record whose offset `offset` lies outside the storage.
    #[cold]
    fn record_outside_at(&mut self, offset: usize) {
        let which = self.shape.outside_kind_of_offset(offset);
        self.outside[which] = self.outside[which].saturating_add(1);
    }

    #[cold]
    fn record_outside(&mut self, v: u64, n: u64) {
        let which = self.shape.outside_kind(v);
        self.outside[which] = self.outside[which].saturating_add(n);
    }

    /// Record `v`, then correct for coordinated omission as HdrHistogram defines it: when
    /// `v` exceeds `expected_interval`, also record `v - k·interval` for every `k ≥ 1` while
    /// that stays at or above the interval. `expected_interval = 0` records `v` only.
    ///
    /// The missing values are added bucket by bucket, so the cost is bounded by the number
    /// of buckets, not by `v / expected_interval`.
    pub fn record_corrected(&mut self, v: u64, expected_interval: u64) {
        self.record(v);
        let shape = self.shape;
        // Each run is added at its bucket's lowest value: the extremes take the exact
        // smallest and largest added values in the range instead.
        corrected_runs(&shape, v, expected_interval, |x, n| self.add_n(x, n));
        if EXACT {
            let (first, last) = (shape.bucket(0).lower, shape.bucket(shape.len() - 1).highest);
            if let Some((lo, hi)) = corrected_extremes(v, expected_interval, first, last) {
                self.extremes.note(lo);
                self.extremes.note(hi);
            }
        }
    }

    /// Clear every count (buckets, underflow, overflow, saturated) and the exact extremes.
    pub fn reset(&mut self) {
        self.counts.as_mut().fill(C::ZERO);
        self.unfilled = Self::ZEROED;
        self.outside = [0; 3];
        self.extremes = Extremes::NONE;
        self.resets = self.resets.wrapping_add(1);
    }

    /// Change which value buckets report in percentiles.
    pub fn set_value_selection(&mut self, selection: ValueSelection) {
        self.shape = self.shape.with_value_selection(selection);
    }

    /// Add every count of `other` (same relative error, any range): counts that fall outside
    /// this histogram's range go to its underflow/overflow. Buckets saturate as in
    /// [`Histogram::record_n`]. Exact extremes, when kept, take the bounds of the lowest
    /// and highest buckets of `other` that land in this range (a view knows no exact
    /// values; [`Histogram::add_histogram`] takes a histogram's exact extremes).
    pub fn add<C2: Counter>(&mut self, other: &View<'_, C2>) -> Result<(), MergeError> {
        self.add_counts(other, None)
    }

    /// Add every count of `other`, as [`Histogram::add`]; exact extremes, when kept, take
    /// `other`'s exact extremes where it keeps them and they lie in this range, else the
    /// bounds of its buckets, as `add`.
    pub fn add_histogram<C2: Counter, S2: AsRef<[C2]>, const E2: bool>(
        &mut self,
        other: &Histogram<C2, S2, E2>,
    ) -> Result<(), MergeError> {
        self.add_counts(&other.view(), other.exact_extremes())
    }

    /// [`Histogram::add`], with the source's exact extremes when it has them.
    fn add_counts<C2: Counter>(
        &mut self,
        other: &View<'_, C2>,
        exact: Option<(u64, u64)>,
    ) -> Result<(), MergeError> {
        if self.shape.same_buckets(&other.shape) {
            self.add_same_buckets(other);
            if EXACT {
                self.note_added_extremes(counted_lowest_values(other), exact);
            }
            return Ok(());
        }
        let mut added = [0; 3];
        // The lowest values of the buckets that land in this range (each bucket is
        // recorded at its lowest value), noted apart from the extremes.
        let mut landed = Extremes::NONE;
        let shape = self.shape;
        let inside = move |v: u64| shape.offset(v) < shape.len();
        // Each bucket is recorded at its lowest value (no slot taken directly), so that the
        // extremes see the values that land.
        add_view(
            &shape,
            other,
            |_, _| false,
            |v, n| {
                if EXACT && n != 0 && inside(v) {
                    landed.note(v);
                }
                self.add_n(v, n)
            },
            |o| added = o,
        )?;
        let landed = (landed.lo <= landed.hi).then_some((landed.lo, landed.hi));
        self.note_added_extremes(landed, exact);
        self.add_outside(added);
        Ok(())
    }

    /// [`Histogram::add`] of a view that stores the same buckets: counter by counter,
    /// each bucket saturating as `record_n` does (see [`crate::merge::add_counts`]), then the
    /// view's outside counts.
    fn add_same_buckets<C2: Counter>(&mut self, other: &View<'_, C2>) {
        let (excess, largest) = crate::merge::add_counts(self.counts.as_mut(), other.counts());
        // Every sum is below twice the largest count added to or added.
        self.note_written(largest.saturating_mul(2));
        self.outside[SAT] = self.outside[SAT].saturating_add(excess);
        self.add_outside(other.outside());
    }

    /// After an add whose counted buckets that landed in this range have `landed` as the
    /// lowest values of the lowest and highest of them (`None`: none landed), note the exact
    /// extremes when kept: the source's `exact` ones where they lie in this range, else
    /// the lowest bucket's lower bound and the highest one's upper bound.
    fn note_added_extremes(&mut self, landed: Option<(u64, u64)>, exact: Option<(u64, u64)>) {
        let Some((lo, hi)) = landed.filter(|_| EXACT) else {
            return;
        };
        let shape = self.shape;
        let inside = |v: &u64| shape.offset(*v) < shape.len();
        let exact_lo = exact.map(|e| e.0).filter(inside);
        let exact_hi = exact.map(|e| e.1).filter(inside);
        let hi_bound = || shape.bucket(shape.offset(hi)).highest;
        self.extremes.note(exact_lo.unwrap_or(lo));
        self.extremes.note(exact_hi.unwrap_or_else(hi_bound));
    }

    /// Remove every count of `other` (same relative error, any range), for deltas. Fails
    /// without changing anything if some count would go below zero.
    pub fn subtract<C2: Counter>(&mut self, other: &View<'_, C2>) -> Result<(), MergeError> {
        let counts = self.counts.as_ref();
        let left = plan_subtract(&self.shape, self.outside, other, |o| counts[o].to_u64())?;
        let counts = self.counts.as_mut();
        for (o, n) in stored_counts(&self.shape, other) {
            // Checked by plan_subtract: the count is at least n, so the difference fits C.
            counts[o] = C::from_u64_wrapping(counts[o].to_u64() - n);
        }
        self.outside = left;
        Ok(())
    }

    /// `f` with mutable access to the raw counters (a snapshot's refresh, a decode),
    /// after which `unfilled` is found again from the counts.
    pub(crate) fn with_counts_mut<R>(&mut self, f: impl FnOnce(&mut [C]) -> R) -> R {
        let result = f(self.counts.as_mut());
        self.unfilled = Self::ZEROED && Self::all_unfilled(self.counts.as_ref());
        result
    }

    /// Whether every count of `counts` is below [`Counter::UNFILLED_BELOW`] (a power of
    /// two: then their OR is too).
    fn all_unfilled(counts: &[C]) -> bool {
        Self::or_of(counts) < C::UNFILLED_BELOW
    }

    /// The OR of `counts`, at least the largest: one pass the compiler turns into vector
    /// ORs, where a test of each count would stop and branch.
    fn or_of(counts: &[C]) -> u64 {
        counts.iter().fold(0, |any, c| any | c.to_u64())
    }

    pub(crate) fn set_outside_counts(&mut self, outside: [u64; 3]) {
        self.outside = outside;
    }

    /// Add to the underflow, overflow and saturated counts (saturating).
    pub(crate) fn add_outside(&mut self, outside: [u64; 3]) {
        for (mine, n) in self.outside.iter_mut().zip(outside) {
            *mine = mine.saturating_add(n);
        }
    }

    /// A histogram of `shape` holding `counts` (length `shape.len()`, checked by the
    /// caller) and the `outside` counts as they are.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) fn from_parts(shape: Shape, counts: S, outside: [u64; 3]) -> Self {
        let unfilled = Self::ZEROED && Self::all_unfilled(counts.as_ref());
        let mut h = Self::over(shape, counts, unfilled);
        h.outside = outside;
        h
    }

    /// Give the storage back.
    pub fn into_storage(self) -> S {
        self.counts
    }
}

/// The smallest and largest of the values a corrected record adds
/// ([`Histogram::record_corrected`]: `v − k·interval` for `k ≥ 1`, each at least `interval`)
/// that lie in `lo..=hi`; `None` when none does.
pub(crate) fn corrected_extremes(v: u64, interval: u64, lo: u64, hi: u64) -> Option<(u64, u64)> {
    if interval == 0 || v / interval < 2 {
        return None;
    }
    let (smallest, largest) = (v - (v / interval - 1) * interval, v - interval);
    let (lo, hi) = (lo.max(smallest), hi.min(largest));
    if lo > hi {
        return None;
    }
    // Every added value is `smallest` plus a multiple of `interval`: round `lo` up and `hi`
    // down to the sequence.
    let first = smallest + (lo - smallest).div_ceil(interval) * interval;
    let last = smallest + (hi - smallest) / interval * interval;
    (first <= last).then_some((first, last))
}

/// The values coordinated-omission correction adds for `v` (HdrHistogram's rule:
/// `v − k·interval` for every `k ≥ 1` while at least `interval`), grouped so the cost is
/// bounded by the storage length: `add(x, n)` is called once per storage bucket they hit
/// (with `x` its lower bound), once for those below the range (with a value below it) and
/// once for those above (with a value above it). `v` itself is not included.
pub(crate) fn corrected_runs(shape: &Shape, v: u64, interval: u64, mut add: impl FnMut(u64, u64)) {
    let (layout, first_index, len) = (shape.layout(), shape.first_index(), shape.len());
    if interval == 0 || v / interval < 2 {
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

impl<C: Counter, S: AsRef<[C]>, const EXACT: bool> Histogram<C, S, EXACT> {
    /// A read-only view for queries, reports and iteration.
    #[inline]
    pub fn view(&self) -> View<'_, C> {
        View::new(self.shape, self.counts.as_ref(), self.outside, self.resets)
    }

    /// The checked shape (layout, range, storage length, value selection).
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The bucket layout.
    pub fn layout(&self) -> Layout {
        self.shape.layout()
    }

    /// The configuration this histogram was built from, as given (with its current value
    /// selection).
    pub fn config(&self) -> Config {
        self.shape.config()
    }

    /// The raw counters, one per storage bucket.
    pub fn counts(&self) -> &[C] {
        self.counts.as_ref()
    }

    /// Count of values below the trackable range.
    pub fn underflow_count(&self) -> u64 {
        self.view().underflow_count()
    }

    /// Count of values above the trackable range.
    pub fn overflow_count(&self) -> u64 {
        self.view().overflow_count()
    }

    /// Counts that `record_n` could not add because a bucket was full.
    pub fn saturated_count(&self) -> u64 {
        self.view().saturated_count()
    }

    /// Whether the histogram keeps exact extremes ([`Histogram::with_exact_extremes`]).
    pub const fn tracks_extremes(&self) -> bool {
        EXACT
    }

    /// The exact smallest and largest value recorded in the range (see
    /// [`Histogram::with_exact_extremes`]); `None` when none was or the histogram does
    /// not keep them. [`View::min_recorded`] and [`View::max_recorded`] give bucket
    /// bounds instead, with or without this.
    pub fn exact_extremes(&self) -> Option<(u64, u64)> {
        if EXACT {
            self.extremes.get()
        } else {
            None
        }
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
    /// `N` must be `config.storage_len()`. Built at compile time, its records take the
    /// logarithm with `bsr`, right on every x86-64 ([`crate::Log2`]; the other constructors
    /// ask the CPU for `lzcnt`).
    pub const fn new_array(config: Config) -> Result<Self, ConfigError> {
        let shape = match config.validate() {
            Ok(shape) => shape,
            Err(e) => return Err(e),
        };
        if let Err(e) = shape.check_len(N) {
            return Err(e);
        }
        Ok(Self::over(shape, [C::ZERO; N], Self::ZEROED))
    }
}

impl<C: Counter, const N: usize> Histogram<C, heapless::Vec<C, N>> {
    /// A histogram whose range is chosen at run time under a compile-time cap of `N`
    /// counters, with no allocator: the storage is a `heapless::Vec` inline in the value.
    /// A configuration needing more than `N` counters is refused (`StorageLength`).
    ///
    /// ```
    /// use picollo::{Config, Histogram};
    /// let max = 30_000; // known only at run time
    /// let config = Config::new().with_relative_error(0.01).with_range(10_000, max);
    /// let mut h = Histogram::<u32, heapless::Vec<u32, 256>>::new_heapless(config)?;
    /// h.record(24_900);
    /// assert_eq!(h.counts().len(), config.storage_len());
    /// assert!(Histogram::<u32, heapless::Vec<u32, 64>>::new_heapless(config).is_err());
    /// # Ok::<(), picollo::ConfigError>(())
    /// ```
    pub fn new_heapless(config: Config) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        let mut storage = heapless::Vec::new();
        storage
            .resize(shape.len(), C::ZERO)
            .map_err(|()| ConfigError::StorageLength {
                expected: shape.len(),
                actual: N,
            })?;
        Ok(Self::over(shape.for_this_cpu(), storage, Self::ZEROED))
    }
}

#[cfg(feature = "alloc")]
impl<C: Counter> Histogram<C, alloc::vec::Vec<C>> {
    /// A heap-allocated histogram for `config`; [`ConfigError::OutOfMemory`] when the
    /// storage cannot be allocated.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        Ok(Self::over(
            shape.for_this_cpu(),
            C::try_zeroes(shape.len())?,
            Self::ZEROED,
        ))
    }
}

#[cfg(feature = "alloc")]
impl Config {
    /// Build a heap-allocated histogram with counters of type `C`.
    pub fn build<C: Counter>(self) -> Result<Histogram<C, alloc::vec::Vec<C>>, ConfigError> {
        Histogram::new(self)
    }
}

/// The lowest values of the lowest and the highest non-empty buckets of `view` (as
/// [`View::buckets_with_values`] gives them), or `None` when every bucket is empty.
fn counted_lowest_values<C: Counter>(view: &View<'_, C>) -> Option<(u64, u64)> {
    let counts = view.counts();
    let first = counts.first_nonzero()?;
    let last = counts.last_nonzero()?;
    Some((
        view.shape.bucket(first).lower,
        view.shape.bucket(last).lower,
    ))
}

/// A batch record's adds into a histogram's counts ([`Histogram::record_many_on`]), each
/// tested for a full bucket when `FULL`: the outside and saturated counts and the extremes
/// (from each chunk's fold) kept here until the end, so that the adds' loop holds the
/// storage in registers.
struct Adds<'a, C: Counter, const EXACT: bool, const FULL: bool> {
    counts: &'a mut [C],
    shape: Shape,
    outside: [u64; 3],
    extremes: Extremes,
}

impl<C: Counter, const EXACT: bool, const FULL: bool> crate::batch::Sink
    for Adds<'_, C, EXACT, FULL>
{
    #[inline(always)]
    fn fold(&mut self, fold: &crate::batch::Fold) {
        if EXACT && fold.lo <= fold.hi {
            self.extremes.note(fold.lo);
            self.extremes.note(fold.hi);
        }
    }

    /// One add for each value at its offset, as `record` adds (tested for a full bucket
    /// when `FULL`), or an outside count (the offset compared whole: `usize` may be
    /// narrower). The chunk's fold is not asked whether every value is inside: a loop of
    /// its own for that case measured no faster.
    #[inline(always)]
    fn add(&mut self, values: &[u64], offsets: &[u64]) {
        let len = self.counts.len() as u64;
        for (&v, &o) in values.iter().zip(offsets) {
            match self.counts.get_mut(o as usize).filter(|_| o < len) {
                Some(c) => {
                    *c = c.increment();
                    if FULL && *c == C::ZERO {
                        *c = C::MAX;
                        self.outside[SAT] += 1;
                    }
                }
                None => self.outside[self.shape.outside_kind(v)] += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::corrected_extremes;

    #[test]
    fn corrected_extremes_are_those_of_the_added_values_in_the_range() {
        for v in [0u64, 1, 5, 99, 100, 101, 1_000, 5_500, 12_345] {
            for interval in [0u64, 1, 3, 7, 100, 300, 5_000] {
                for (lo, hi) in [
                    (0, u64::MAX),
                    (1_000, 4_000),
                    (50, 60),
                    (7, 7),
                    (3_000, 2_000),
                ] {
                    let added = (1..).map_while(|k| {
                        let x = v.checked_sub(k * interval.max(1))?;
                        (interval != 0 && x >= interval).then_some(x)
                    });
                    let expected = added.filter(|x| (lo..=hi).contains(x)).fold(None, |e, x| {
                        let (a, b) = e.unwrap_or((x, x));
                        Some((a.min(x), b.max(x)))
                    });
                    assert_eq!(
                        corrected_extremes(v, interval, lo, hi),
                        expected,
                        "v {v} interval {interval} range {lo}..={hi}"
                    );
                }
            }
        }
    }
}
