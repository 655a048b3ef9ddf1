//! One type for every mode, chosen at construction.

use alloc::boxed::Box;

use super::modes::{build, Wrap};
use super::path::{with_counts, RecordPath};
use super::{AtomicCounter, Collect, Mode, Shaped, Source, Storage};
use crate::config::{Config, ConfigError};
use crate::histogram::MergeError;
use crate::shape::Shape;
use crate::view::View;

/// A concurrent histogram of any [`Mode`], behind one type: `record` from any thread (one
/// at a time in [`Mode::SingleWriter`]), consistent copies for queries and snapshots.
///
/// ```
/// use picollo::concurrent::{ConcurrentHistogram, ConcurrentSnapshot, Mode};
/// use picollo::Config;
/// let h = ConcurrentHistogram::<u64>::new(Config::new(), Mode::Interlocked).unwrap();
/// std::thread::scope(|s| {
///     for t in 0..4 {
///         let h = &h;
///         s.spawn(move || (0..1_000).for_each(|v| h.record(v + t)));
///     }
/// });
/// let snapshot = ConcurrentSnapshot::new(&h).unwrap();
/// assert_eq!(snapshot.view().total_count(), 4_000);
/// ```
#[derive(Debug)]
pub struct ConcurrentHistogram<C: AtomicCounter> {
    /// The mode's own type ([`RecordPath`]), chosen by [`build`].
    path: Box<dyn RecordPath<C>>,
}

impl<C: AtomicCounter> super::Sealed for ConcurrentHistogram<C> {}

/// Boxes a mode's histogram as the trait object [`ConcurrentHistogram`] holds.
struct Boxed;

impl<C: AtomicCounter> Wrap<C> for Boxed {
    type Out = Box<dyn RecordPath<C>>;
    fn wrap<H: RecordPath<C> + 'static>(h: H) -> Self::Out {
        Box::new(h)
    }
}

impl<C: AtomicCounter> ConcurrentHistogram<C> {
    /// A heap-allocated histogram for `config` counting in `mode`.
    pub fn new(config: Config, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_shape(config.validate()?, mode)
    }

    /// A heap-allocated histogram of a checked `shape` counting in `mode` (dense storage).
    pub fn with_shape(shape: Shape, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_storage(shape, mode, Storage::Dense)
    }

    /// A heap-allocated histogram of a checked `shape` counting in `mode` over `storage`:
    /// dense cells allocated now, or sparse blocks allocated as values first land in them
    /// ([`super::SparseCells`]). [`ConfigError::SparseThreadLocal`] for sparse storage in
    /// the thread-local mode.
    pub fn with_storage(shape: Shape, mode: Mode, storage: Storage) -> Result<Self, ConfigError> {
        Ok(ConcurrentHistogram {
            path: build::<C, Boxed>(shape, mode, storage)?,
        })
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.path.mode()
    }

    /// The storage kind.
    pub fn storage(&self) -> Storage {
        self.path.storage()
    }

    /// Count one occurrence of `v`. Without `std` there is no thread generator: the
    /// approximate mode then adds exactly (like interlocked); use
    /// [`ConcurrentHistogram::record_with`] to flip coins with your own generator.
    #[inline]
    pub fn record(&self, v: u64) {
        self.path.record(v)
    }

    /// Count every value of `values`, as many [`ConcurrentHistogram::record`]s would: their
    /// storage offsets computed a vector at a time ([`crate::BatchPath::chosen`]), then
    /// each counted as the mode counts a record.
    pub fn record_many(&self, values: &[u64]) {
        self.record_many_on(crate::BatchPath::chosen(), values)
    }

    /// [`ConcurrentHistogram::record_many`] on `path` (the portable one where this CPU
    /// lacks it).
    pub fn record_many_on(&self, path: crate::BatchPath, values: &[u64]) {
        self.path.record_batch(values, path)
    }

    /// Count one occurrence of `v`; the approximate mode flips its coins with `rng` (one
    /// generator per thread), the other modes ignore it.
    #[inline]
    pub fn record_with(&self, v: u64, rng: &mut super::XorShift64) {
        self.path.record_with(v, rng)
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        self.path.record_n(v, n)
    }

    /// Record `v` with coordinated-omission correction, as
    /// [`crate::Histogram::record_corrected`] defines it (exact in every mode: the
    /// corrections are added with `record_n`).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        self.path.record_corrected(v, expected_interval)
    }

    /// Run `query` on a view of the live cells (no copy; see
    /// [`super::SharedHistogram::query_in_place`]); `None` in the thread-local mode, whose
    /// counts are spread over shards and need a copy ([`Source::try_with_copy`]).
    pub fn query_in_place<R>(
        &self,
        mut query: impl FnMut(super::LiveView<'_, C>) -> R,
    ) -> Option<R> {
        let mut answer = None;
        self.path.query_live(&mut |v| answer = Some(query(v)));
        answer
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; safe while other threads record (the added counts
    /// land like any other records).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        with_counts(other, |c| self.path.add_counts(c))?
    }

    /// Remove every count of `other` (for deltas): single-writer mode only, from the
    /// writer thread (see [`super::SharedHistogram::subtract`]). The other modes cannot
    /// take counts back while writers run: they answer [`MergeError::Unsupported`]; use a
    /// [`super::ConcurrentSnapshot`] with deltas instead.
    pub fn subtract<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        with_counts(other, |c| self.path.subtract_counts(c))?
    }

    /// Reset (see the module docs for each mode's semantics).
    pub fn reset(&self) {
        self.path.reset()
    }
}

impl<C: AtomicCounter> Shaped for ConcurrentHistogram<C> {
    fn shape(&self) -> Shape {
        self.path.shape()
    }
    fn reset_count(&self) -> u64 {
        self.path.reset_count()
    }
    fn footprint_in_bytes(&self) -> usize {
        self.path.footprint_in_bytes()
    }
}

impl<C: AtomicCounter> Source<C> for ConcurrentHistogram<C> {
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.path.read_into(scratch)
    }
}

impl<C: AtomicCounter> Collect<C> for ConcurrentHistogram<C> {
    /// The mode's collect (see the [module docs](super#collect-take-the-counts-and-start-over)
    /// for each mode's guarantee).
    fn collect_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.path.collect_into(scratch)
    }
}
