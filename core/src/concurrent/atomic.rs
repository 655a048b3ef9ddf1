//! The single-writer histogram with shared reads, and the interlocked histogram.

use super::base::{add_n_plain, SeqCounts, SAT};
use super::cell::AtomicCounter;
use super::Source;
use crate::config::{Config, ConfigError};
use crate::view::View;

/// Methods every seqlock-protected histogram has, written once.
macro_rules! seq_common {
    ($ty:ident) => {
        impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> $ty<C, S> {
            /// The configuration (value selection included).
            pub fn config(&self) -> Config {
                self.counts.meta.config()
            }

            /// Counters the configuration needs: the length of `storage` and of the
            /// scratch buffers given to [`Self::read_into`].
            pub fn storage_len(&self) -> usize {
                self.counts.meta.len
            }

            /// Copy the counts into `scratch` (length [`Self::storage_len`]) and return a
            /// view of the copy, on which every query runs (percentiles, summary, mean,
            /// iteration). The copy never mixes counts from before and after a reset: a
            /// reset that overlaps it makes it start again.
            pub fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
                self.counts.read_into(scratch)
            }

            /// How many resets completed (wrapping), so snapshots can tell.
            pub fn reset_count(&self) -> u64 {
                self.counts.reset_count()
            }

            /// Add to the underflow, overflow and saturated counts (for merges).
            pub(crate) fn add_outside(&self, outside: [u64; 3]) {
                for (which, n) in outside.into_iter().enumerate() {
                    if n != 0 {
                        self.counts.outside.add_atomic(which, n);
                    }
                }
            }

            /// Bytes taken by the counters.
            pub fn footprint_in_bytes(&self) -> usize {
                self.counts.footprint()
            }

            /// The standard summary of a consistent copy (allocates the copy; use a
            /// [`super::ConcurrentSnapshot`] to query without allocating).
            #[cfg(feature = "alloc")]
            pub fn summary(&self) -> crate::Summary {
                let mut scratch = alloc::vec![C::ZERO; self.storage_len()];
                match self.read_into(&mut scratch) {
                    Ok(view) => view.summary(),
                    Err(_) => unreachable!("the scratch has the storage length"),
                }
            }

            /// Sum of the bucket counts of a consistent copy (allocates the copy).
            #[cfg(feature = "alloc")]
            pub fn total_count(&self) -> u64 {
                let mut scratch = alloc::vec![C::ZERO; self.storage_len()];
                self.read_into(&mut scratch).map_or(0, |v| v.total_count())
            }
        }

        impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> Source<C> for $ty<C, S> {
            fn config(&self) -> Config {
                $ty::config(self)
            }
            fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
                $ty::read_into(self, scratch)
            }
        }

        impl<C: AtomicCounter, S> core::fmt::Debug for $ty<C, S> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("config", &self.counts.meta.config())
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use seq_common;

/// The default storage: a box of cells with `alloc`, a borrowed slice without.
#[cfg(feature = "alloc")]
macro_rules! alloc_or_slice {
    ($c:ident) => { alloc::boxed::Box<[<$c as AtomicCounter>::Atomic]> };
}
#[cfg(not(feature = "alloc"))]
macro_rules! alloc_or_slice {
    ($c:ident) => { &'static [<$c as AtomicCounter>::Atomic] };
}
pub(crate) use alloc_or_slice;

/// A histogram with **one writer at a time** whose reads may come from any thread.
///
/// The counters are atomics written with a plain load and store (no lock prefix: the same
/// instructions as [`crate::Histogram::record`]), so sharing it is sound, and with one
/// writer every count is exact. Two threads recording at once do not corrupt anything but
/// may lose counts (both load the same count, both store count + 1): give each writer
/// thread its own histogram, or use [`AtomicHistogram`] or [`super::LocalHistogram`].
///
/// # Reads, reset, snapshots
/// - [`SharedHistogram::read_into`] copies the counts with the seqlock protocol: a reset
///   that overlaps the copy makes it retry, so a reader never sees a half-cleared
///   histogram. Counts only grow between resets; every query on the copy is consistent
///   with itself (one copy, one total).
/// - [`SharedHistogram::reset`] clears every count. Called **by the writer thread** (or
///   while it does not record) it is exact. Called from another thread while the writer
///   records, the writer's load+store can race it: the bucket being incremented at that
///   instant may come back as its old count + 1 ("old+1"). That is the cost of a plain
///   increment; the interlocked and thread-local modes do not have it.
pub struct SharedHistogram<C: AtomicCounter, S = alloc_or_slice!(C)> {
    counts: SeqCounts<C, S>,
}

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> SharedHistogram<C, S> {
    /// A histogram over `storage` (`config.storage_len()` cells, zeroed here).
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Ok(SharedHistogram {
            counts: SeqCounts::from_storage(config, storage)?,
        })
    }

    /// Count one occurrence of `v` (one writer at a time; see the type's docs).
    #[inline(always)]
    pub fn record(&self, v: u64) {
        match self.counts.cell(v) {
            Some(c) => C::store(c, C::load(c).increment()),
            None => self.record_outside(v, 1),
        }
    }

    /// Count `n` occurrences of `v`, saturating like [`crate::Histogram::record_n`].
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        match self.counts.cell(v) {
            Some(c) => {
                let excess = add_n_plain::<C>(c, n);
                if excess != 0 {
                    self.counts.outside.add_plain(SAT, excess);
                }
            }
            None => self.record_outside(v, n),
        }
    }

    #[cold]
    fn record_outside(&self, v: u64, n: u64) {
        let kind = self.counts.meta.outside_kind(v);
        self.counts.outside.add_plain(kind, n);
    }

    /// Clear every count; readers never see it half done (see the type's docs for a reset
    /// from a thread other than the writer's).
    pub fn reset(&self) {
        self.counts.reset();
    }

    /// Remove every count of `other` (same relative error, any range), for deltas, from
    /// the writer thread. Fails without changing anything if some count would go below
    /// zero, like [`crate::Histogram::subtract`].
    pub fn subtract<C2: crate::Counter>(
        &self,
        other: &View<'_, C2>,
    ) -> Result<(), crate::MergeError> {
        let meta = &self.counts.meta;
        check_layout(meta.layout, other)?;
        let cells = self.counts.counts.as_ref();
        let cell_of = |logical: usize| cells.get(logical.wrapping_sub(meta.first_index));
        let (mut under, mut over) = (other.underflow_count(), other.overflow_count());
        for (i, c) in other.counts().iter().enumerate() {
            let (logical, n) = (other.first_index() + i, c.to_u64());
            if n == 0 {
                continue;
            }
            match cell_of(logical) {
                Some(cell) if C::load(cell).to_u64() >= n => {}
                Some(_) => {
                    return Err(crate::MergeError::WouldGoNegative {
                        logical_index: Some(logical as u64),
                    })
                }
                None if logical < meta.first_index => under = under.saturating_add(n),
                None => over = over.saturating_add(n),
            }
        }
        let mine = self.counts.outside.load();
        let wanted = [under, over, other.saturated_count()];
        if wanted.iter().zip(mine.iter()).any(|(w, m)| w > m) {
            return Err(crate::MergeError::WouldGoNegative {
                logical_index: None,
            });
        }
        for (i, c) in other.counts().iter().enumerate() {
            if let Some(cell) = cell_of(other.first_index() + i) {
                let left = C::load(cell).to_u64() - c.to_u64();
                C::store(cell, C::from_u64_wrapping(left));
            }
        }
        for (which, n) in wanted.into_iter().enumerate() {
            self.counts.outside.sub_plain(which, n);
        }
        Ok(())
    }
}

/// The merge check: both histograms must have the same layout (relative error).
pub(crate) fn check_layout<C2>(
    layout: crate::Layout,
    other: &View<'_, C2>,
) -> Result<(), crate::MergeError>
where
    C2: crate::Counter,
{
    if other.layout() == layout {
        Ok(())
    } else {
        Err(crate::MergeError::LayoutMismatch {
            this: layout.relative_error(),
            other: other.layout().relative_error(),
        })
    }
}

seq_common!(SharedHistogram);

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> SharedHistogram<C, alloc::boxed::Box<[C::Atomic]>> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let len = config.storage_len();
        Self::from_storage(config, super::cell::zeroed_cells::<C>(len))
    }
}

/// A histogram any number of threads record into at once, with one relaxed atomic add
/// (`lock xadd` on x86) per record: exact, but writers hitting the same cache line slow
/// each other down (see [`super::LocalHistogram`] for the scalable mode).
///
/// # Reads, reset, snapshots
/// - [`AtomicHistogram::read_into`] copies the counts with the seqlock protocol (a reset
///   overlapping the copy makes it retry). Writers keep adding during the copy: each bucket
///   is read once, so the copy holds, per bucket, every record that landed before its read.
/// - [`AtomicHistogram::reset`] takes each bucket to zero with an atomic swap: a record
///   racing it is either cleared with the rest or counted after the reset, never written
///   back over the zero, so there is no "old+1" corruption. After a reset, a bucket holds
///   exactly the records whose add followed the swap.
pub struct AtomicHistogram<C: AtomicCounter, S = alloc_or_slice!(C)> {
    counts: SeqCounts<C, S>,
}

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> AtomicHistogram<C, S> {
    /// A histogram over `storage` (`config.storage_len()` cells, zeroed here).
    pub fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        Ok(AtomicHistogram {
            counts: SeqCounts::from_storage(config, storage)?,
        })
    }

    /// Count one occurrence of `v` (any thread, any time). A bucket wraps after `C::MAX`
    /// records, like [`crate::Histogram::record`].
    #[inline(always)]
    pub fn record(&self, v: u64) {
        match self.counts.cell(v) {
            Some(c) => {
                C::fetch_add(c, C::from_u64_wrapping(1));
            }
            None => self.counts.record_outside_atomic(v, 1),
        }
    }

    /// Count `n` occurrences of `v`, saturating like [`crate::Histogram::record_n`].
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        self.counts.record_n_atomic(v, n);
    }

    /// Take every count to zero (see the type's docs: no "old+1", readers never see it
    /// half done).
    pub fn reset(&self) {
        self.counts.reset();
    }
}

seq_common!(AtomicHistogram);

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> AtomicHistogram<C, alloc::boxed::Box<[C::Atomic]>> {
    /// A heap-allocated histogram for `config`.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        let len = config.storage_len();
        Self::from_storage(config, super::cell::zeroed_cells::<C>(len))
    }
}
