//! One type for every mode, chosen at construction (the C ABI's one handle).

use super::atomic::check_layout;
use super::{
    ApproxHistogram, ApproxPolicy, AtomicCounter, AtomicHistogram, SharedHistogram, Source,
};
use crate::config::{Config, ConfigError};
use crate::histogram::MergeError;
use crate::view::View;

/// How a [`ConcurrentHistogram`] counts (see the [module docs](super) for each mode's
/// guarantees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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

impl Mode {
    /// From the C enum value (0 single writer, 1 interlocked, 2 thread-local,
    /// 3 approximate) and, for 3, the threshold T (0 means the default, 13).
    pub fn from_c(mode: u32, threshold: u32) -> Option<Mode> {
        match mode {
            0 => Some(Mode::SingleWriter),
            1 => Some(Mode::Interlocked),
            #[cfg(feature = "std")]
            2 => Some(Mode::ThreadLocal),
            3 => {
                let p = ApproxPolicy::new();
                Some(Mode::Approximate(if threshold == 0 {
                    p
                } else {
                    p.with_threshold(threshold)
                }))
            }
            _ => None,
        }
    }
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
        }
    };
}

impl<C: AtomicCounter> ConcurrentHistogram<C> {
    /// A heap-allocated histogram for `config` counting in `mode`.
    pub fn new(config: Config, mode: Mode) -> Result<Self, ConfigError> {
        Ok(match mode {
            Mode::SingleWriter => Self::SingleWriter(SharedHistogram::new(config)?),
            Mode::Interlocked => Self::Interlocked(AtomicHistogram::new(config)?),
            #[cfg(feature = "std")]
            Mode::ThreadLocal => Self::ThreadLocal(super::LocalHistogram::new(config)?),
            Mode::Approximate(p) => Self::Approximate(ApproxHistogram::with_policy(config, p)?),
        })
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        match self {
            Self::SingleWriter(_) => Mode::SingleWriter,
            Self::Interlocked(_) => Mode::Interlocked,
            #[cfg(feature = "std")]
            Self::ThreadLocal(_) => Mode::ThreadLocal,
            Self::Approximate(h) => Mode::Approximate(h.policy()),
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
        }
    }

    /// Count one occurrence of `v`; the approximate mode flips its coins with `rng` (one
    /// generator per thread), the other modes ignore it.
    #[inline]
    pub fn record_with(&self, v: u64, rng: &mut super::XorShift64) {
        match self {
            Self::Approximate(h) => h.record_with(v, rng),
            _ => self.record(v),
        }
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        each!(self, h => h.record_n(v, n))
    }

    /// Record `v` with coordinated-omission correction, as
    /// [`crate::Histogram::record_corrected`] defines it (exact in every mode: the
    /// corrections are added with `record_n`).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        self.record(v);
        let config = self.config();
        let layout = config.layout();
        let first = layout.index(config.min_trackable());
        crate::histogram::corrected_runs(
            layout,
            first,
            config.storage_len(),
            v,
            expected_interval,
            |x, n| self.record_n(x, n),
        );
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; safe while other threads record (the added counts
    /// land like any other records).
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        check_layout(self.config().layout(), other)?;
        for b in other.buckets_with_values() {
            self.record_n(b.lower, b.count);
        }
        let outside = [
            other.underflow_count(),
            other.overflow_count(),
            other.saturated_count(),
        ];
        each!(self, h => h.add_outside(outside));
        Ok(())
    }

    /// Remove every count of `other` (for deltas): single-writer mode only, from the
    /// writer thread (see [`SharedHistogram::subtract`]). The other modes cannot take
    /// counts back while writers run: they answer [`MergeError::Unsupported`]; use a
    /// [`super::ConcurrentSnapshot`] with deltas instead.
    pub fn subtract<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        match self {
            Self::SingleWriter(h) => h.subtract(other),
            _ => Err(MergeError::Unsupported),
        }
    }

    /// Reset (see the module docs for each mode's semantics).
    pub fn reset(&self) {
        each!(self, h => h.reset())
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        each!(self, h => h.config())
    }

    /// Counters the configuration needs (the scratch length of `read_into`).
    pub fn storage_len(&self) -> usize {
        each!(self, h => h.storage_len())
    }

    /// Copy the counts consistently into `scratch` and view the copy.
    pub fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        each!(self, h => h.read_into(scratch))
    }

    /// Completed resets (wrapping).
    pub fn reset_count(&self) -> u64 {
        each!(self, h => h.reset_count())
    }

    /// Bytes of counters now (thread-local: every shard included).
    pub fn footprint_in_bytes(&self) -> usize {
        each!(self, h => h.footprint_in_bytes())
    }

    /// The standard summary of a consistent copy (allocates the copy).
    pub fn summary(&self) -> crate::Summary {
        each!(self, h => h.summary())
    }

    /// Sum of the bucket counts of a consistent copy (allocates the copy).
    pub fn total_count(&self) -> u64 {
        each!(self, h => h.total_count())
    }
}

impl<C: AtomicCounter> Source<C> for ConcurrentHistogram<C> {
    fn config(&self) -> Config {
        ConcurrentHistogram::config(self)
    }
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        ConcurrentHistogram::read_into(self, scratch)
    }
}
