//! One type for every mode, chosen at construction (the C ABI's one handle).

use super::{
    ApproxHistogram, ApproxPolicy, AtomicCounter, AtomicHistogram, Collect, SharedHistogram,
    Source, SparseCells, Storage,
};
use crate::config::{Config, ConfigError};
use crate::histogram::MergeError;
use crate::shape::Shape;
use crate::view::View;

/// How a [`ConcurrentHistogram`] counts. The threading rules of each mode are written once,
/// in the [module docs](super).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Mode {
    /// One writer at a time, reads from any thread ([`SharedHistogram`]).
    #[default]
    SingleWriter,
    /// Relaxed atomic adds ([`AtomicHistogram`]).
    Interlocked,
    /// One shard per writer thread ([`super::LocalHistogram`]; needs `std`).
    #[cfg(feature = "std")]
    ThreadLocal,
    /// Scalable approximate buckets ([`ApproxHistogram`]).
    Approximate(ApproxPolicy),
}

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
pub enum ConcurrentHistogram<C: AtomicCounter> {
    /// [`Mode::SingleWriter`].
    SingleWriter(SharedHistogram<C>),
    /// [`Mode::Interlocked`].
    Interlocked(AtomicHistogram<C>),
    /// [`Mode::ThreadLocal`].
    #[cfg(feature = "std")]
    ThreadLocal(super::LocalHistogram<C>),
    /// [`Mode::Approximate`].
    Approximate(ApproxHistogram<C>),
    /// [`Mode::SingleWriter`] over [`Storage::Sparse`].
    SparseSingleWriter(SharedHistogram<C, SparseCells<C>>),
    /// [`Mode::Interlocked`] over [`Storage::Sparse`].
    SparseInterlocked(AtomicHistogram<C, SparseCells<C>>),
    /// [`Mode::Approximate`] over [`Storage::Sparse`].
    SparseApproximate(ApproxHistogram<C, SparseCells<C>>),
}

/// `match` over the modes, binding the histogram to `$h`.
macro_rules! each {
    ($self:expr, $h:ident => $e:expr) => {
        match $self {
            ConcurrentHistogram::SingleWriter($h) => $e,
            ConcurrentHistogram::Interlocked($h) => $e,
            #[cfg(feature = "std")]
            ConcurrentHistogram::ThreadLocal($h) => $e,
            ConcurrentHistogram::Approximate($h) => $e,
            ConcurrentHistogram::SparseSingleWriter($h) => $e,
            ConcurrentHistogram::SparseInterlocked($h) => $e,
            ConcurrentHistogram::SparseApproximate($h) => $e,
        }
    };
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
    /// ([`SparseCells`]). [`ConfigError::SparseThreadLocal`] for sparse storage in the
    /// thread-local mode.
    pub fn with_storage(shape: Shape, mode: Mode, storage: Storage) -> Result<Self, ConfigError> {
        if storage == Storage::Sparse {
            let cells = || SparseCells::<C>::new(shape);
            return Ok(match mode {
                Mode::SingleWriter => {
                    Self::SparseSingleWriter(SharedHistogram::from_shape(shape, cells()?)?)
                }
                Mode::Interlocked => {
                    Self::SparseInterlocked(AtomicHistogram::from_shape(shape, cells()?)?)
                }
                #[cfg(feature = "std")]
                Mode::ThreadLocal => return Err(ConfigError::SparseThreadLocal),
                Mode::Approximate(p) => {
                    Self::SparseApproximate(ApproxHistogram::from_shape(shape, p, cells()?)?)
                }
            });
        }
        let cells = || super::cell::zeroed_cells::<C>(shape.len());
        Ok(match mode {
            Mode::SingleWriter => Self::SingleWriter(SharedHistogram::from_shape(shape, cells()?)?),
            Mode::Interlocked => Self::Interlocked(AtomicHistogram::from_shape(shape, cells()?)?),
            #[cfg(feature = "std")]
            Mode::ThreadLocal => Self::ThreadLocal(super::LocalHistogram::from_shape(shape)?),
            Mode::Approximate(p) => {
                Self::Approximate(ApproxHistogram::from_shape(shape, p, cells()?)?)
            }
        })
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        match self {
            Self::SingleWriter(_) | Self::SparseSingleWriter(_) => Mode::SingleWriter,
            Self::Interlocked(_) | Self::SparseInterlocked(_) => Mode::Interlocked,
            #[cfg(feature = "std")]
            Self::ThreadLocal(_) => Mode::ThreadLocal,
            Self::Approximate(h) => Mode::Approximate(h.policy()),
            Self::SparseApproximate(h) => Mode::Approximate(h.policy()),
        }
    }

    /// The storage kind.
    pub fn storage(&self) -> Storage {
        match self {
            Self::SparseSingleWriter(_)
            | Self::SparseInterlocked(_)
            | Self::SparseApproximate(_) => Storage::Sparse,
            _ => Storage::Dense,
        }
    }

    /// Count one occurrence of `v`. Without `std` there is no thread generator: the
    /// approximate mode then adds exactly (like interlocked); use
    /// [`ConcurrentHistogram::record_with`] to flip coins with your own generator.
    #[inline]
    pub fn record(&self, v: u64) {
        #[cfg(feature = "std")]
        each!(self, h => h.record(v));
        #[cfg(not(feature = "std"))]
        match self {
            Self::SingleWriter(h) => h.record(v),
            Self::Interlocked(h) => h.record(v),
            Self::Approximate(h) => h.record_n(v, 1),
            Self::SparseSingleWriter(h) => h.record(v),
            Self::SparseInterlocked(h) => h.record(v),
            Self::SparseApproximate(h) => h.record_n(v, 1),
        }
    }

    /// Count one occurrence of `v`; the approximate mode flips its coins with `rng` (one
    /// generator per thread), the other modes ignore it.
    #[inline]
    pub fn record_with(&self, v: u64, rng: &mut super::XorShift64) {
        match self {
            Self::Approximate(h) => h.record_with(v, rng),
            Self::SparseApproximate(h) => h.record_with(v, rng),
            _ => self.record(v),
        }
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        each!(self, h => h.record_n(v, n))
    }

    /// Count `n` records as saturated (a record its slow path could not count).
    #[cfg(feature = "std")]
    pub(crate) fn add_saturated(&self, n: u64) {
        each!(self, h => h.add_saturated(n))
    }

    /// Record `v` with coordinated-omission correction, as
    /// [`crate::Histogram::record_corrected`] defines it (exact in every mode: the
    /// corrections are added with `record_n`).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        self.record(v);
        let shape = self.shape();
        crate::histogram::corrected_runs(&shape, v, expected_interval, |x, n| self.record_n(x, n));
    }

    /// Run `query` on a view of the live cells (no copy; see
    /// [`SharedHistogram::query_in_place`]); `None` in the thread-local mode, whose counts
    /// are spread over shards and need a copy ([`Source::try_with_copy`]).
    pub fn query_in_place<R>(&self, query: impl FnMut(super::LiveView<'_, C>) -> R) -> Option<R> {
        match self {
            Self::SingleWriter(h) => Some(h.query_in_place(query)),
            Self::Interlocked(h) => Some(h.query_in_place(query)),
            Self::Approximate(h) => Some(h.query_in_place(query)),
            Self::SparseSingleWriter(h) => Some(h.query_in_place(query)),
            Self::SparseInterlocked(h) => Some(h.query_in_place(query)),
            Self::SparseApproximate(h) => Some(h.query_in_place(query)),
            #[cfg(feature = "std")]
            Self::ThreadLocal(_) => None,
        }
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; safe while other threads record (the added counts
    /// land like any other records).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        each!(self, h => h.add(other))
    }

    /// Remove every count of `other` (for deltas): single-writer mode only, from the
    /// writer thread (see [`SharedHistogram::subtract`]). The other modes cannot take
    /// counts back while writers run: they answer [`MergeError::Unsupported`]; use a
    /// [`super::ConcurrentSnapshot`] with deltas instead.
    pub fn subtract<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        match self {
            Self::SingleWriter(h) => h.subtract(other),
            Self::SparseSingleWriter(h) => h.subtract(other),
            _ => Err(MergeError::Unsupported),
        }
    }

    /// Reset (see the module docs for each mode's semantics).
    pub fn reset(&self) {
        each!(self, h => h.reset())
    }
}

impl<C: AtomicCounter> Source<C> for ConcurrentHistogram<C> {
    fn shape(&self) -> Shape {
        each!(self, h => h.shape())
    }
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        each!(self, h => h.read_into(scratch))
    }
    fn reset_count(&self) -> u64 {
        each!(self, h => h.reset_count())
    }
    fn footprint_in_bytes(&self) -> usize {
        each!(self, h => h.footprint_in_bytes())
    }
}

impl<C: AtomicCounter> Collect<C> for ConcurrentHistogram<C> {
    /// The mode's collect (see the [module docs](super#collect-take-the-counts-and-start-over)
    /// for each mode's guarantee).
    fn collect_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        each!(self, h => h.collect_into(scratch))
    }
}
