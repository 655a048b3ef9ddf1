//! A concurrent histogram whose counter width and mode are chosen at run time: the value
//! behind a handle that other languages hold (the C ABI's `picollo_histogram`).

use core::sync::atomic::{AtomicU8, Ordering};

use super::modes::build;
use super::path::{with_counts, Counts};
use super::{DirectPath, LiveView, Mode, RecordPath, Storage};
use crate::batch::BatchPath;
use crate::config::{Config, ConfigError, ValueSelection};
use crate::counter::{Counter, Counts as _};
use crate::layout::Log2;
use crate::merge::MergeError;
use crate::oom::OutOfMemory;
use crate::shape::Shape;
use crate::view::View;

mod any;
mod extremes;
mod record;
mod snapshot;
#[cfg(all(test, feature = "std"))]
mod tests;
mod width;

use any::{Erased, Stored};
use extremes::Extremes;
use record::ignore_record;
pub use record::RecordFn;
pub use snapshot::DynSnapshot;

/// Counter width of a [`DynHistogram`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterBits {
    /// `u32` counters: half the memory; a bucket saturates at 4,294,967,295
    /// (4,290,772,991 in the interlocked and approximate modes, see
    /// [`super::AtomicCounter::INTERLOCKED_MAX`]).
    U32,
    /// `u64` counters.
    U64,
}

/// A [`ConcurrentHistogram`](super::ConcurrentHistogram) of either counter width, with a value selection that may change
/// while other threads query it. Every method takes `&self`; the threading rules are the
/// mode's (see the [module docs](super)).
///
/// `repr(C)` with the record function first: the address of a `DynHistogram` holds its
/// [`RecordFn`] ([`DynHistogram::record_fn`]), which the C header's `picollo_histogram_record`
/// loads and calls itself (docs/c-api.md, "The record paths"). Aligned to a cache line: the
/// record function and the fields the mode's record reads next (the cells and the layout,
/// first in the stored histogram) share the first one.
#[repr(C, align(64))]
pub struct DynHistogram {
    /// The record function of `inner`'s type for this CPU ([`RecordFn`]), chosen once at
    /// construction: a record pays one indirect call instead of a dispatch over width ×
    /// mode. Invariant: it is the `RecordFn` of `inner`'s type (only `with_storage` and
    /// `with_exact_extremes` set it, from `inner` itself, and `ignoring_records` replaces it
    /// before the histogram is shared), the one that notes the extremes first when
    /// `extremes` is set, the one built for `lzcnt` and BMI2 only where the CPU has them.
    /// It stays the first field, never changed once the histogram is shared.
    fast: RecordFn,
    /// The mode's own type ([`RecordPath`]), stored in place, its counter width hidden.
    inner: Stored,
    /// Index into [`SELECTIONS`] of the value selection queries use.
    selection: AtomicU8,
    /// The exact extremes, when asked for ([`DynHistogram::with_exact_extremes`]).
    extremes: Option<Extremes>,
}

// The C header loads the record function from a handle's first word (see the type's docs).
const _: () = assert!(core::mem::offset_of!(DynHistogram, fast) == 0);

impl core::fmt::Debug for DynHistogram {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynHistogram")
            .field("inner", &self.inner)
            .field("selection", &self.value_selection())
            .finish_non_exhaustive()
    }
}

/// A view of a [`DynHistogram`]'s counts, of either counter width: a consistent copy, or
/// (single-writer, interlocked and approximate modes) the live cells read in place.
#[derive(Clone, Copy, Debug)]
pub enum DynView<'a> {
    /// A copy of `u32` counters.
    U32(View<'a, u32>),
    /// A copy of `u64` counters.
    U64(View<'a, u64>),
    /// Live `u32` cells, read in place.
    LiveU32(LiveView<'a, u32>),
    /// Live `u64` cells, read in place.
    LiveU64(LiveView<'a, u64>),
}

const SELECTIONS: [ValueSelection; 4] = [
    ValueSelection::Midpoint,
    ValueSelection::Lower,
    ValueSelection::Upper,
    ValueSelection::Interpolated,
];

fn selection_index(s: ValueSelection) -> u8 {
    SELECTIONS.iter().position(|&x| x == s).unwrap_or(0) as u8
}

impl<'a> DynView<'a> {
    /// This view as one [`View`] type whatever its counter width and wherever its counts
    /// are (a copy or the live cells), its counts read as `u64`: every query of a [`View`]
    /// runs on it.
    ///
    /// ```
    /// use picollo::concurrent::{CounterBits, DynHistogram, Mode};
    /// use picollo::Config;
    /// let h = DynHistogram::new(Config::new(), CounterBits::U32, Mode::Interlocked).unwrap();
    /// h.record(7);
    /// let total = h.with_view(|v| v.as_view().total_count()).unwrap();
    /// assert_eq!(total, 1);
    /// ```
    pub fn as_view(&self) -> View<'_, u64, DynView<'a>> {
        let (shape, outside, resets) = match self {
            DynView::U32(v) => (v.shape(), v.outside(), v.reset_count()),
            DynView::U64(v) => (v.shape(), v.outside(), v.reset_count()),
            DynView::LiveU32(v) => (v.shape(), v.outside(), v.reset_count()),
            DynView::LiveU64(v) => (v.shape(), v.outside(), v.reset_count()),
        };
        View::over(shape, self, outside, resets)
    }
}

impl DynView<'_> {
    /// The standard summary, computed on the view of the counts' own width and place (the
    /// summary scans every bucket: this keeps the width's own loop, without the match per
    /// count of [`DynView::as_view`]).
    pub fn summary(&self) -> crate::Summary {
        match self {
            DynView::U32(v) => v.summary(),
            DynView::U64(v) => v.summary(),
            DynView::LiveU32(v) => v.summary(),
            DynView::LiveU64(v) => v.summary(),
        }
    }
}

impl crate::counter::sealed::Sealed for DynView<'_> {}

/// The counts of either width, copied or live, as `u64` ([`DynView::as_view`]): one match
/// per call, so that a sum over a run of buckets and a search for the first or last count
/// run the width's own loop.
impl crate::counter::Counts<u64> for DynView<'_> {
    fn len(&self) -> usize {
        self.shape_len()
    }
    #[inline]
    fn get(&self, i: usize) -> u64 {
        match self {
            DynView::U32(v) => u64::from(v.counts[i]),
            DynView::U64(v) => v.counts[i],
            DynView::LiveU32(v) => u64::from(v.counts.get(i)),
            DynView::LiveU64(v) => v.counts.get(i),
        }
    }
    fn sum(&self, first: usize, end: usize) -> u128 {
        match self {
            DynView::U32(v) => v.counts.sum(first, end),
            DynView::U64(v) => v.counts.sum(first, end),
            DynView::LiveU32(v) => v.counts.sum(first, end),
            DynView::LiveU64(v) => v.counts.sum(first, end),
        }
    }
    fn chunks_down<const N: usize>(&self, first: usize, end: usize, each: impl FnMut([u64; N])) {
        match self {
            DynView::U32(v) => v.counts.chunks_down(first, end, each),
            DynView::U64(v) => v.counts.chunks_down(first, end, each),
            DynView::LiveU32(v) => v.counts.chunks_down(first, end, each),
            DynView::LiveU64(v) => v.counts.chunks_down(first, end, each),
        }
    }
    fn first_nonzero(&self) -> Option<usize> {
        match self {
            DynView::U32(v) => v.counts.first_nonzero(),
            DynView::U64(v) => v.counts.first_nonzero(),
            DynView::LiveU32(v) => v.counts.first_nonzero(),
            DynView::LiveU64(v) => v.counts.first_nonzero(),
        }
    }
    fn last_nonzero(&self) -> Option<usize> {
        match self {
            DynView::U32(v) => v.counts.last_nonzero(),
            DynView::U64(v) => v.counts.last_nonzero(),
            DynView::LiveU32(v) => v.counts.last_nonzero(),
            DynView::LiveU64(v) => v.counts.last_nonzero(),
        }
    }
}

impl DynView<'_> {
    /// Number of storage buckets.
    fn shape_len(&self) -> usize {
        match self {
            DynView::U32(v) => v.counts.len(),
            DynView::U64(v) => v.counts.len(),
            DynView::LiveU32(v) => v.counts.len(),
            DynView::LiveU64(v) => v.counts.len(),
        }
    }
}

impl DynHistogram {
    /// A heap-allocated histogram for `config` with `bits`-wide counters counting in `mode`.
    pub fn new(config: Config, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_shape(config.validate()?, bits, mode)
    }

    /// A heap-allocated histogram of a checked `shape` (dense storage).
    pub fn with_shape(shape: Shape, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_storage(shape, bits, mode, Storage::Dense)
    }

    /// A heap-allocated histogram of a checked `shape` over `storage` (see
    /// [`ConcurrentHistogram::with_storage`](super::ConcurrentHistogram::with_storage)).
    pub fn with_storage(
        shape: Shape,
        bits: CounterBits,
        mode: Mode,
        storage: Storage,
    ) -> Result<Self, ConfigError> {
        let inner = match bits {
            CounterBits::U32 => build::<u32, Erased>(shape, mode, storage)?,
            CounterBits::U64 => build::<u64, Erased>(shape, mode, storage)?,
        };
        Ok(DynHistogram {
            fast: inner.record_fn(false, Log2::cpu_has_lzcnt_and_bmi2()),
            extremes: None,
            inner,
            selection: AtomicU8::new(selection_index(shape.value_selection())),
        })
    }

    /// The same histogram keeping the exact smallest and largest value recorded in its
    /// range ([`DynHistogram::exact_extremes`]), from its next record on (make it so
    /// before recording). A record then also loads and compares two words (and writes one
    /// only when a value passes it); the header's inline recorder calls the library.
    ///
    /// What the extremes cover: every value recorded in the range (a saturated record
    /// too; underflow and overflow values are not in the range) since creation or the
    /// last [`DynHistogram::reset`], through any record call. Merges take the source's
    /// exact extremes when it keeps them, else the bounds of its lowest and highest
    /// non-empty buckets; V2 blobs added contribute their bucket midpoints (what they
    /// record). [`DynHistogram::subtract`] and [`DynHistogram::collect`] leave them.
    pub fn with_exact_extremes(mut self) -> Self {
        self.extremes = Some(Extremes::new(self.shape()));
        self.fast = self.inner.record_fn(true, Log2::cpu_has_lzcnt_and_bmi2());
        self
    }

    /// The same histogram with [`DynHistogram::record`] (and the function
    /// [`DynHistogram::record_fn`] gives) doing nothing, for a histogram lent out read-only:
    /// its records are dropped by the record function itself, so the records of every other
    /// histogram pay no test for it. The other calls still change it.
    pub fn ignoring_records(mut self) -> Self {
        self.fast = ignore_record;
        self
    }

    /// Whether the histogram keeps exact extremes ([`DynHistogram::with_exact_extremes`]).
    pub fn tracks_extremes(&self) -> bool {
        self.extremes.is_some()
    }

    /// The exact smallest and largest value recorded in the range (see
    /// [`DynHistogram::with_exact_extremes`]); `None` when none was or the histogram does
    /// not keep them.
    pub fn exact_extremes(&self) -> Option<(u64, u64)> {
        self.extremes.as_ref()?.get()
    }

    /// The mode's histogram as its own type `H`.
    ///
    /// # Safety
    /// `H` is the type `inner` was made of (the record function's contract).
    #[inline(always)]
    unsafe fn inner_as<C: width::Width, H: RecordPath<C>>(&self) -> &H {
        // SAFETY: `inner` holds an `H` (the caller's guarantee).
        unsafe { self.inner.as_mode::<C, H>() }
    }

    #[inline(always)]
    fn note(&self, v: u64) {
        if let Some(e) = &self.extremes {
            e.note(v);
        }
    }

    /// Add every count of `counts`, and take its extremes: `exact` when given, else its
    /// lowest and highest non-empty buckets' bounds.
    fn add_counts(
        &self,
        counts: Counts<'_, '_>,
        exact: Option<(u64, u64)>,
    ) -> Result<(), MergeError> {
        self.inner.path().add_counts(counts)?;
        if let Some(e) = &self.extremes {
            let bounds = exact.or_else(|| {
                counts.apply(
                    |v| Some((v.min_recorded()?, v.max_recorded()?)),
                    |v| Some((v.min_recorded()?, v.max_recorded()?)),
                )
            });
            if let Some((lo, hi)) = bounds {
                e.note(lo);
                e.note(hi);
            }
        }
        Ok(())
    }

    /// Count one occurrence of `v`: on the common path of its mode, which cannot panic or
    /// allocate and makes no call (integer operations and one plain or atomic add), when
    /// `v` is in the range, its bucket is not full (or near the interlocked ceiling) and,
    /// in the thread-local mode, this thread's shard is the one it used last (without
    /// `std`, the approximate mode has no common path); anything else goes to the mode's
    /// slow path, out of line.
    ///
    /// The path is a function chosen for the width, the mode and the CPU when the
    /// histogram was made ([`DynHistogram::record_fn`]): one indirect call, no match.
    /// (Inlining the single-writer and thread-local records here behind bit tests
    /// measured the same on a Zen 5 EPYC once code alignment was held fixed, and cannot
    /// inline the functions built for `lzcnt` and BMI2.)
    #[inline(always)]
    pub fn record(&self, v: u64) {
        // SAFETY: `fast` is the function of `inner`'s variant and this CPU (the field's
        // invariant).
        unsafe { (self.fast)(self, v) }
    }

    /// The record function of this histogram's counter width and mode, chosen for this
    /// CPU ([`RecordFn`]): a caller that records many values can call it directly, saving
    /// the dispatch [`DynHistogram::record`] makes on each call. The C ABI gives it to C
    /// callers as `picollo_histogram_record_fn`.
    pub fn record_fn(&self) -> RecordFn {
        self.fast
    }

    /// The portable record function of this histogram's width and mode (the one
    /// [`DynHistogram::record_fn`] gives on a CPU without `lzcnt` and BMI2), for
    /// benchmarks that measure it beside the one chosen for this CPU.
    #[doc(hidden)]
    pub fn portable_record_fn(&self) -> RecordFn {
        self.inner.record_fn(self.extremes.is_some(), false)
    }

    /// How the calling thread can record without a call ([`DirectPath`]). In the
    /// thread-local mode this attaches the thread (as its first record does), and the
    /// cells are its shard: valid on this thread only, until it exits or the histogram is
    /// dropped. Elsewhere the cells live as long as the histogram.
    pub fn direct_path(&self) -> DirectPath {
        // Exact extremes are kept by the library's record.
        if self.extremes.is_some() {
            return DirectPath::CALL;
        }
        self.inner.path().direct_path()
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    pub fn record_n(&self, v: u64, n: u64) {
        if n != 0 {
            self.note(v);
        }
        self.inner.path().record_n(v, n);
    }

    /// Record `v` with coordinated-omission correction (see
    /// [`crate::Histogram::record_corrected`]).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        if let Some(e) = &self.extremes {
            e.note(v);
            e.note_corrected(v, expected_interval);
        }
        self.inner.path().record_corrected(v, expected_interval);
    }

    /// Count every value of `values`, as many [`DynHistogram::record`]s would: their
    /// storage offsets computed a vector at a time on [`BatchPath::chosen`], then each
    /// counted as the mode counts a record (the exact extremes folded over the batch).
    pub fn record_many(&self, values: &[u64]) {
        self.record_many_on(BatchPath::chosen(), values);
    }

    /// [`DynHistogram::record_many`] on `path` (the portable one where this CPU lacks it).
    pub fn record_many_on(&self, path: BatchPath, values: &[u64]) {
        if let Some(e) = &self.extremes {
            e.note_many(values);
        }
        self.inner.path().record_batch(values, path);
    }

    /// Reset (see the module docs for each mode's semantics); the exact extremes too.
    pub fn reset(&self) {
        if let Some(e) = &self.extremes {
            e.clear();
        }
        self.inner.path().reset();
    }

    /// Take the counts since the previous collect or reset, leaving the histogram counting
    /// from zero (see the [module docs](super#collect-take-the-counts-and-start-over) for
    /// each mode's guarantee): an owned histogram of the same layout and range, `u32`
    /// counters widened to `u64`, underflow, overflow and saturated counts included, with
    /// the current value selection. [`OutOfMemory`] when the copy cannot be allocated
    /// (nothing is taken then). [`DynSnapshot::collect`] does the same without allocating.
    pub fn collect(&self) -> Result<crate::Histogram<u64, alloc::vec::Vec<u64>>, OutOfMemory> {
        let mut h = self.inner.collect()?;
        h.set_value_selection(self.value_selection());
        Ok(h)
    }

    /// The value selection queries use.
    pub fn value_selection(&self) -> ValueSelection {
        SELECTIONS[usize::from(self.selection.load(Ordering::Relaxed)) % SELECTIONS.len()]
    }

    /// Change the value selection; a query already running keeps the one it started with.
    pub fn set_value_selection(&self, selection: ValueSelection) {
        self.selection
            .store(selection_index(selection), Ordering::Relaxed);
    }

    /// The checked shape (with the value selection it was created with).
    pub fn shape(&self) -> Shape {
        self.inner.path().shape()
    }

    /// Counters in storage.
    pub fn storage_len(&self) -> usize {
        self.shape().len()
    }

    /// The counter width.
    pub fn counter_bits(&self) -> CounterBits {
        self.inner.bits()
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.inner.path().mode()
    }

    /// The storage kind.
    pub fn storage(&self) -> Storage {
        self.inner.path().storage()
    }

    /// Bytes of counters now (thread-local: every shard included; sparse: the blocks
    /// made so far and the block directory).
    pub fn footprint_in_bytes(&self) -> usize {
        self.inner.path().footprint_in_bytes()
    }

    /// Completed resets (wrapping).
    pub fn reset_count(&self) -> u64 {
        self.inner.path().reset_count()
    }

    /// Mean over bucket midpoints (NaN when empty); see [`DynHistogram::with_view`].
    pub fn mean(&self) -> Result<f64, OutOfMemory> {
        self.with_view(|view| view.as_view().mean())
    }

    /// Sum of the bucket counts; see [`DynHistogram::with_view`].
    pub fn total_count(&self) -> Result<u64, OutOfMemory> {
        self.with_view(|view| view.as_view().total_count())
    }

    /// Add every count of `src` (same relative error, any range, width and mode), read
    /// as one consistent copy; the counts land like records.
    pub fn add(&self, src: &DynHistogram) -> Result<(), MergeError> {
        let exact = src.exact_extremes();
        let mut done = Ok(());
        src.inner.copy(&mut |c| done = self.add_counts(c, exact))?;
        done
    }

    /// Add every count of `view` (same relative error, any range and counter width), as
    /// [`DynHistogram::add`] does for another handle: e.g. to put a decoded V2 histogram or
    /// the sum of a log behind a handle.
    pub fn add_view<C: Counter>(&self, view: &View<'_, C>) -> Result<(), MergeError> {
        with_counts(view, |c| self.add_counts(c, None))?
    }

    /// Add every count of `src` whatever its relative error (and range, width and mode),
    /// re-binned into this histogram's layout (see [`View::rebinned`] for the error each
    /// way: exact into a coarser layout, spread within each source bucket into a finer
    /// one), read as one consistent copy; the counts land like records.
    pub fn add_rebinned(&self, src: &DynHistogram) -> Result<(), MergeError> {
        let layout = self.shape().layout();
        let copy = src.with_view(|v| v.as_view().rebinned(layout))??;
        self.add_counts(Counts::U64(&copy.view()), src.exact_extremes())
    }

    /// Add the counts of a V2 blob (plain or compressed) whatever this histogram's layout,
    /// as [`crate::Histogram::add_v2`] does: each HdrHistogram bucket's count lands at the
    /// bucket's midpoint, like records. The blob is checked whole first: on error nothing
    /// was added.
    pub fn add_v2(&self, bytes: &[u8]) -> Result<(), crate::hdr::V2Error> {
        crate::format::v2::for_each_count(bytes, |value, count| self.record_n(value, count))
    }

    /// Remove every count of `src` (single-writer mode only, from the writer thread; the
    /// other modes answer [`MergeError::Unsupported`]).
    pub fn subtract(&self, src: &DynHistogram) -> Result<(), MergeError> {
        let mut done = Ok(());
        src.inner
            .copy(&mut |c| done = self.inner.path().subtract_counts(c))?;
        done
    }

    /// Run `query` on the counts, reporting values with the current value selection.
    ///
    /// The single-writer, interlocked and approximate modes read their cells in place:
    /// nothing is copied or allocated, and a query that a reset overlapped runs again (so
    /// `query` may run more than once; see [`LiveView`] for what concurrent records do to
    /// it). The thread-local mode sums its shards into a copy allocated for the call, and
    /// answers [`OutOfMemory`] when that fails.
    pub fn with_view<R>(&self, mut query: impl FnMut(DynView<'_>) -> R) -> Result<R, OutOfMemory> {
        let mut answer = None;
        self.inner
            .view(self.value_selection(), &mut |v: DynView<'_>| {
                answer = Some(query(v))
            })?;
        Ok(answer.expect("the view runs the query"))
    }
}
