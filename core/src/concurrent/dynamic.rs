//! A concurrent histogram whose counter width and mode are chosen at run time: the value
//! behind a handle that other languages hold (the C ABI's `picollo_histogram`).

use core::sync::atomic::{AtomicU8, Ordering};

use super::{Collect, ConcurrentHistogram, ConcurrentSnapshot, LiveView, Mode, Source};
use crate::config::{Config, ConfigError, ValueSelection};
use crate::counter::Counter;
use crate::merge::MergeError;
use crate::oom::OutOfMemory;
use crate::shape::Shape;
use crate::view::View;

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

/// A [`ConcurrentHistogram`] of either counter width, with a value selection that may change
/// while other threads query it. Every method takes `&self`; the threading rules are the
/// mode's (see the [module docs](super)).
#[derive(Debug)]
pub struct DynHistogram {
    inner: Inner,
    /// Index into [`SELECTIONS`] of the value selection queries use.
    selection: AtomicU8,
}

#[derive(Debug)]
enum Inner {
    U32(ConcurrentHistogram<u32>),
    U64(ConcurrentHistogram<u64>),
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

/// Run the same expression on whichever counter width `$inner` has.
macro_rules! each_width {
    ($inner:expr, $h:ident => $e:expr) => {
        match $inner {
            Inner::U32($h) => $e,
            Inner::U64($h) => $e,
        }
    };
}

/// Run the same expression on whichever counter width a [`DynView`] has, binding the
/// [`View`] to `$v`.
#[macro_export]
macro_rules! dyn_view {
    ($view:expr, $v:ident => $e:expr) => {
        match $view {
            $crate::concurrent::DynView::U32($v) => $e,
            $crate::concurrent::DynView::U64($v) => $e,
            $crate::concurrent::DynView::LiveU32($v) => $e,
            $crate::concurrent::DynView::LiveU64($v) => $e,
        }
    };
}

impl DynHistogram {
    /// A heap-allocated histogram for `config` with `bits`-wide counters counting in `mode`.
    pub fn new(config: Config, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_shape(config.validate()?, bits, mode)
    }

    /// A heap-allocated histogram of a checked `shape`.
    pub fn with_shape(shape: Shape, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        let inner = match bits {
            CounterBits::U32 => Inner::U32(ConcurrentHistogram::with_shape(shape, mode)?),
            CounterBits::U64 => Inner::U64(ConcurrentHistogram::with_shape(shape, mode)?),
        };
        Ok(DynHistogram {
            inner,
            selection: AtomicU8::new(selection_index(shape.value_selection())),
        })
    }

    /// Count one occurrence of `v`. The single-writer mode is matched first so its few
    /// instructions inline into the caller; the other modes take a call.
    #[inline(always)]
    pub fn record(&self, v: u64) {
        if !self.record_unguarded(v) {
            each_width!(&self.inner, h => h.record(v));
        }
    }

    /// Record `v` and return true where that takes only integer operations and plain or
    /// atomic adds, which cannot panic or allocate: always in the single-writer and
    /// interlocked modes, and in the thread-local mode when this thread's shard is the one
    /// it used last and `v` is in the range. Otherwise return false, recording nothing
    /// ([`DynHistogram::record`] takes the general path). The C ABI's record runs this
    /// without a panic guard.
    #[inline(always)]
    pub fn record_unguarded(&self, v: u64) -> bool {
        match &self.inner {
            Inner::U32(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U64(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U32(ConcurrentHistogram::Interlocked(h)) => h.record(v),
            Inner::U64(ConcurrentHistogram::Interlocked(h)) => h.record(v),
            #[cfg(feature = "std")]
            Inner::U32(ConcurrentHistogram::ThreadLocal(h)) => return h.record_fast(v),
            #[cfg(feature = "std")]
            Inner::U64(ConcurrentHistogram::ThreadLocal(h)) => return h.record_fast(v),
            _ => return false,
        }
        true
    }

    /// Record `v` when the mode is single writer (a few integer operations and one load +
    /// store, which cannot panic) and return true; return false, recording nothing, in the
    /// other modes.
    #[inline(always)]
    pub fn record_single_writer(&self, v: u64) -> bool {
        match &self.inner {
            Inner::U32(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            Inner::U64(ConcurrentHistogram::SingleWriter(h)) => h.record(v),
            _ => return false,
        }
        true
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    pub fn record_n(&self, v: u64, n: u64) {
        each_width!(&self.inner, h => h.record_n(v, n));
    }

    /// Record `v` with coordinated-omission correction (see
    /// [`crate::Histogram::record_corrected`]).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        each_width!(&self.inner, h => h.record_corrected(v, expected_interval));
    }

    /// Count every value of `values`.
    pub fn record_many(&self, values: &[u64]) {
        each_width!(&self.inner, h => values.iter().for_each(|&v| h.record(v)));
    }

    /// Reset (see the module docs for each mode's semantics).
    pub fn reset(&self) {
        each_width!(&self.inner, h => h.reset());
    }

    /// Take the counts since the previous collect or reset, leaving the histogram counting
    /// from zero (see the [module docs](super#collect-take-the-counts-and-start-over) for
    /// each mode's guarantee): an owned histogram of the same layout and range, `u32`
    /// counters widened to `u64`, underflow, overflow and saturated counts included, with
    /// the current value selection. [`OutOfMemory`] when the copy cannot be allocated
    /// (nothing is taken then). [`DynSnapshot::collect`] does the same without allocating.
    pub fn collect(&self) -> Result<crate::Histogram<u64, alloc::vec::Vec<u64>>, OutOfMemory> {
        let mut h = match &self.inner {
            Inner::U64(h) => h.try_collect()?,
            Inner::U32(h) => {
                let mut wide = crate::oom::try_vec(h.storage_len(), || 0u64)?;
                let narrow = h.try_collect()?;
                let view = narrow.view();
                for (w, &n) in wide.iter_mut().zip(view.counts()) {
                    *w = u64::from(n);
                }
                crate::Histogram::from_parts(view.shape(), wide, view.outside())
            }
        };
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
        each_width!(&self.inner, h => h.shape())
    }

    /// Counters in storage.
    pub fn storage_len(&self) -> usize {
        self.shape().len()
    }

    /// The counter width.
    pub fn counter_bits(&self) -> CounterBits {
        match self.inner {
            Inner::U32(_) => CounterBits::U32,
            Inner::U64(_) => CounterBits::U64,
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        each_width!(&self.inner, h => h.mode())
    }

    /// Bytes of counters now (thread-local: every shard included).
    pub fn footprint_in_bytes(&self) -> usize {
        each_width!(&self.inner, h => h.footprint_in_bytes())
    }

    /// Completed resets (wrapping).
    pub fn reset_count(&self) -> u64 {
        each_width!(&self.inner, h => h.reset_count())
    }

    /// Mean over bucket midpoints (NaN when empty); see [`DynHistogram::with_view`].
    pub fn mean(&self) -> Result<f64, OutOfMemory> {
        self.with_view(|view| dyn_view!(view, v => v.mean()))
    }

    /// Sum of the bucket counts; see [`DynHistogram::with_view`].
    pub fn total_count(&self) -> Result<u64, OutOfMemory> {
        self.with_view(|view| dyn_view!(view, v => v.total_count()))
    }

    /// Add every count of `src` (same relative error, any range, width and mode), read
    /// as one consistent copy; the counts land like records.
    pub fn add(&self, src: &DynHistogram) -> Result<(), MergeError> {
        each_width!(&src.inner, s => s.try_with_copy(|view| {
            each_width!(&self.inner, d => d.add(&view))
        }))?
    }

    /// Add every count of `view` (same relative error, any range and counter width), as
    /// [`DynHistogram::add`] does for another handle: e.g. to put a decoded V2 histogram or
    /// the sum of a log behind a handle.
    pub fn add_view<C: Counter>(&self, view: &View<'_, C>) -> Result<(), MergeError> {
        each_width!(&self.inner, d => d.add(view))
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
        each_width!(&src.inner, s => s.try_with_copy(|view| {
            each_width!(&self.inner, d => d.subtract(&view))
        }))?
    }

    /// Run `query` on the counts, reporting values with the current value selection.
    ///
    /// The single-writer, interlocked and approximate modes read their cells in place:
    /// nothing is copied or allocated, and a query that a reset overlapped runs again (so
    /// `query` may run more than once; see [`LiveView`] for what concurrent records do to
    /// it). The thread-local mode sums its shards into a copy allocated for the call, and
    /// answers [`OutOfMemory`] when that fails.
    pub fn with_view<R>(&self, mut query: impl FnMut(DynView<'_>) -> R) -> Result<R, OutOfMemory> {
        let selection = self.value_selection();
        macro_rules! by_mode {
            ($h:expr, $live:ident, $copy:ident) => {
                match $h
                    .query_in_place(|v| query(DynView::$live(v.with_value_selection(selection))))
                {
                    Some(r) => Ok(r),
                    None => $h.try_with_copy(|v| {
                        query(DynView::$copy(v.with_value_selection(selection)))
                    }),
                }
            };
        }
        match &self.inner {
            Inner::U32(h) => by_mode!(h, LiveU32, U32),
            Inner::U64(h) => by_mode!(h, LiveU64, U64),
        }
    }
}

/// A [`ConcurrentSnapshot`] of a [`DynHistogram`]: a copy refreshed in place, optionally
/// as the deltas since the previous refresh, allocating nothing after creation.
pub struct DynSnapshot {
    inner: SnapInner,
    /// The source's value selection at the last refresh.
    selection: ValueSelection,
}

enum SnapInner {
    U32(ConcurrentSnapshot<u32>),
    U64(ConcurrentSnapshot<u64>),
}

impl core::fmt::Debug for DynSnapshot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynSnapshot")
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl DynSnapshot {
    /// A snapshot of `h`, taken now with full counts.
    pub fn new(h: &DynHistogram) -> Result<Self, ConfigError> {
        let inner = match &h.inner {
            Inner::U32(c) => SnapInner::U32(ConcurrentSnapshot::new(c)?),
            Inner::U64(c) => SnapInner::U64(ConcurrentSnapshot::new(c)?),
        };
        Ok(DynSnapshot {
            inner,
            selection: h.value_selection(),
        })
    }

    /// Copy `h` again (same configuration and counter width; otherwise an error and no
    /// change). With `deltas`, the snapshot then holds what was recorded since the previous
    /// refresh.
    pub fn update(&mut self, h: &DynHistogram, deltas: bool) -> Result<(), ConfigError> {
        match (&mut self.inner, &h.inner) {
            (SnapInner::U32(s), Inner::U32(c)) => s.update(c, deltas)?,
            (SnapInner::U64(s), Inner::U64(c)) => s.update(c, deltas)?,
            _ => {
                return Err(ConfigError::StorageLength {
                    expected: self.view_len(),
                    actual: h.storage_len(),
                })
            }
        }
        self.selection = h.value_selection();
        Ok(())
    }

    /// Take the counts of `h` since its previous collect or reset into this snapshot,
    /// allocating nothing (see [`DynHistogram::collect`]); `h` counts from zero. Same
    /// configuration and counter width as the snapshot, otherwise an error and no change.
    pub fn collect(&mut self, h: &DynHistogram) -> Result<(), ConfigError> {
        match (&mut self.inner, &h.inner) {
            (SnapInner::U32(s), Inner::U32(c)) => s.collect(c)?,
            (SnapInner::U64(s), Inner::U64(c)) => s.collect(c)?,
            _ => {
                return Err(ConfigError::StorageLength {
                    expected: self.view_len(),
                    actual: h.storage_len(),
                })
            }
        }
        self.selection = h.value_selection();
        Ok(())
    }

    fn view_len(&self) -> usize {
        dyn_view!(self.view(), v => v.shape().len())
    }

    /// The snapshot's counts, reporting values with the source's selection at the last
    /// refresh.
    pub fn view(&self) -> DynView<'_> {
        match &self.inner {
            SnapInner::U32(s) => DynView::U32(s.view().with_value_selection(self.selection)),
            SnapInner::U64(s) => DynView::U64(s.view().with_value_selection(self.selection)),
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn every_width_and_mode_records_merges_and_reports() {
        let config = Config::new().with_range(0, 1_000);
        for bits in [CounterBits::U32, CounterBits::U64] {
            for mode in [Mode::SingleWriter, Mode::Interlocked, Mode::ThreadLocal] {
                let h = DynHistogram::new(config, bits, mode).unwrap();
                h.record(10);
                h.record_n(20, 3);
                h.record_many(&[30, 2_000]);
                assert_eq!((h.counter_bits(), h.mode()), (bits, mode));
                assert_eq!(h.total_count(), Ok(5));
                let other = DynHistogram::new(config, CounterBits::U64, Mode::Interlocked).unwrap();
                other.add(&h).unwrap();
                assert_eq!(other.total_count(), Ok(5));
                h.set_value_selection(ValueSelection::Upper);
                assert_eq!(h.value_selection(), ValueSelection::Upper);
                h.with_view(|v| {
                    dyn_view!(v, v => {
                        assert_eq!(v.value_selection(), ValueSelection::Upper);
                        assert_eq!(v.overflow_count(), 1);
                    })
                })
                .unwrap();
                let mut snap = DynSnapshot::new(&h).unwrap();
                h.record(10);
                snap.update(&h, true).unwrap();
                assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 1);
                let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
                assert!(snap.update(&wrong, true).is_err());
                h.reset();
                assert_eq!(h.total_count(), Ok(0));
            }
        }
    }

    #[test]
    fn collect_takes_the_interval_in_every_width_and_mode() {
        let config = Config::new().with_range(0, 1_000);
        for bits in [CounterBits::U32, CounterBits::U64] {
            for mode in [Mode::SingleWriter, Mode::Interlocked, Mode::ThreadLocal] {
                let h = DynHistogram::new(config, bits, mode).unwrap();
                h.record_many(&[10, 10, 20, 2_000]);
                let first = h.collect().unwrap();
                let v = first.view();
                assert_eq!((v.total_count(), v.overflow_count()), (3, 1));
                assert_eq!(v.count(h.shape().offset(10)), Some(2));
                assert_eq!(h.total_count(), Ok(0));
                h.record(30);
                let mut snap = DynSnapshot::new(&h).unwrap();
                h.record(40);
                snap.collect(&h).unwrap();
                assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 2);
                h.record(50);
                // Deltas after a collect: what was recorded since it.
                snap.update(&h, true).unwrap();
                assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 1);
                let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
                assert!(snap.collect(&wrong).is_err());
                assert_eq!(h.total_count(), Ok(1));
            }
        }
    }

    fn other_width(bits: CounterBits) -> CounterBits {
        match bits {
            CounterBits::U32 => CounterBits::U64,
            CounterBits::U64 => CounterBits::U32,
        }
    }

    #[test]
    fn only_the_single_writer_mode_records_without_a_call() {
        let config = Config::new();
        let single = DynHistogram::new(config, CounterBits::U64, Mode::SingleWriter).unwrap();
        assert!(single.record_single_writer(5));
        let shared = DynHistogram::new(config, CounterBits::U64, Mode::Interlocked).unwrap();
        assert!(!shared.record_single_writer(5));
        assert_eq!((single.total_count(), shared.total_count()), (Ok(1), Ok(0)));
    }

    #[test]
    fn unguarded_records_take_only_the_paths_that_cannot_panic() {
        let config = Config::new().with_range(0, 1_000);
        for bits in [CounterBits::U32, CounterBits::U64] {
            for mode in [Mode::SingleWriter, Mode::Interlocked] {
                let h = DynHistogram::new(config, bits, mode).unwrap();
                assert!(h.record_unguarded(5), "{mode:?} records in range");
                assert!(h.record_unguarded(5_000), "{mode:?} counts overflow too");
                let counts = h
                    .with_view(
                        |view| crate::dyn_view!(view, v => (v.total_count(), v.overflow_count())),
                    )
                    .unwrap();
                assert_eq!(counts, (1, 1), "{mode:?}");
            }
            // Thread-local: only once this thread's shard is attached and current, and only
            // in range; whatever it declines is left unrecorded for the general path.
            let local = DynHistogram::new(config, bits, Mode::ThreadLocal).unwrap();
            std::thread::scope(|s| {
                s.spawn(|| {
                    assert!(!local.record_unguarded(7), "no shard on a fresh thread");
                    assert_eq!(local.total_count(), Ok(0));
                    local.record(7);
                    assert!(local.record_unguarded(7), "the shard is current now");
                    assert!(
                        !local.record_unguarded(5_000),
                        "overflow takes the general path"
                    );
                    assert_eq!(local.total_count(), Ok(2));
                });
            });
            let approx =
                DynHistogram::new(config, bits, Mode::Approximate(Default::default())).unwrap();
            assert!(!approx.record_unguarded(5));
            assert_eq!(approx.total_count(), Ok(0));
        }
    }
}
