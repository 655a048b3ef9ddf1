//! Histograms shared between threads: four modes, one way to read them.
//!
//! | mode | type | record | scales with writers | exact |
//! |---|---|---|---|---|
//! | single writer | [`SharedHistogram`] | plain load + store | one writer at a time | yes |
//! | interlocked | [`AtomicHistogram`] | relaxed `fetch_add` | no (cache-line contention) | yes |
//! | thread-local (`std`) | [`LocalHistogram`] | TLS lookup + plain load + store | yes | yes |
//! | approximate | [`ApproxHistogram`] | load, rare `fetch_add` of `2^k` | yes | about 2 % (2σ) |
//!
//! The single-writer, interlocked and approximate modes are one type, [`SeqHistogram`],
//! generic over its mode ([`SeqMode`]: [`SingleWriter`], [`Interlocked`], [`Approximate`]);
//! the names in the table are its aliases, and their docs give each mode's rules.
//! [`ConcurrentHistogram`] holds any of them behind one type (the C ABI's one handle),
//! chosen by a [`Mode`]. [`ApproxCounter`] is the approximate counter on its own.
//!
//! # Reading while writers run
//! Every mode reads the same way: [`Source::read_into`] makes **one consistent copy** of the
//! counts into caller memory and returns a [`View`] of it, and every query (percentiles,
//! summary, mean, iteration, reports) runs on that view, so a batch of percentiles agrees
//! with itself and with the total it reports. The queries every mode shares
//! ([`Source::summary`], [`Source::total_count`], [`Source::with_copy`], …) are written once,
//! on [`Source`]; bring it into scope to call them (and [`Shaped`] for the shape, the reset
//! count and the footprint). [`ConcurrentSnapshot`] keeps that copy (and the previous one, for
//! deltas) and allocates nothing after creation.
//!
//! What "consistent" means, per mode:
//! - all modes: a copy never mixes counts from before and after a reset. Each bucket is
//!   read once; between resets counts only grow, so the copy holds, per bucket, every
//!   record that landed before the bucket was read. Totals never exceed what was recorded.
//! - single writer, interlocked, approximate: a version counter (seqlock) brackets each
//!   reset; a copy that overlaps a reset is thrown away and made again (optimistic retry).
//!   After a few such retries the reader holds the next reset off until its copy is made,
//!   so resets run back to back cannot starve it.
//! - thread-local: the copy is summed under the registry lock, which resets, thread exits
//!   (folding a shard) and thread attaches also take; writers never take it.
//!
//! # Reset
//! - single writer: clears the counts. From the writer thread it is exact; from another
//!   thread while the writer records, the bucket being incremented can end up "old + 1"
//!   (a plain increment cannot be made safe against that): reset from the writer, or use
//!   another mode.
//! - interlocked and approximate: an atomic swap to zero per bucket. A racing record is
//!   either cleared or counted after the reset, never written back over the zero.
//! - thread-local: a baseline of the shards' current counts, subtracted by every later
//!   read (the shared accumulator is swapped to zero); the shards are never written by
//!   anyone but their thread, so there is no "old + 1".
//!
//! After a reset, a bucket holds no more than what was recorded into it since the reset
//! began.
//!
//! # Collect: take the counts and start over
//! [`Collect::collect`] (and [`Collect::collect_into`], over caller memory) is a reset that
//! hands back what it cleared: the counts of the interval since the previous collect or
//! reset, underflow, overflow and saturated included, while the histogram goes on counting
//! from zero. It is the delta-temporality primitive of metric exporters (HdrHistogram's
//! interval recorder, an OpenTelemetry collect). Writers never wait for it. Per mode:
//! - interlocked: **exact**. Each bucket is taken by an atomic swap to zero: a record's
//!   add lands before the swap (in this interval) or after it (in the next), never both,
//!   never neither. The sum of the intervals plus what is left is exactly what was
//!   recorded, bucket by bucket, whatever the writers do meanwhile.
//! - thread-local: **exact**. Under the registry lock, each shard bucket is read once;
//!   what was read goes into the interval and becomes the shard's new baseline (the
//!   accumulator and outside counts are swapped to zero). A record lands in the shard
//!   before the read (this interval) or after it (the next). Shards are never written by
//!   anyone but their thread.
//! - single writer: **exact when called from the writer thread** (or while it does not
//!   record). From another thread, the one record in flight at the instant a bucket is
//!   swapped can store "old + 1" back over the zero, so that bucket's interval count is
//!   counted again in the next interval (at most one bucket per collect, by at most its
//!   interval count): collect from the writer, or use the interlocked or thread-local mode.
//! - approximate: every counter update (a `2^k` add) lands in exactly one interval, as in
//!   the interlocked mode, so nothing is lost or counted twice *of what the counters hold*;
//!   each interval's bucket is then an unbiased estimate of its records, with the
//!   counter's error for that interval's count (exact below `2^T`; about 2 % at two
//!   standard deviations above, at T = 13). A collect restarts the counters small, so
//!   intervals are exact while their buckets stay below `2^T`; the one record racing a
//!   bucket's swap may still use the step chosen before it.
//!
//! Readers never see half a collect (it runs inside the seqlock write section, or under
//! the registry lock), and a collect counts as a reset: the interval's [`View`] reports the
//! reset count from before it, so a [`ConcurrentSnapshot`] refreshed with deltas afterwards
//! shows the counts since the collect. [`crate::View`]'s reset count changes with each reset, so a snapshot taken with
//! deltas after a reset shows the counts since the reset (not a negative difference).
//!
//! # Saturation
//! No count ever wraps, in any mode, merge or read: a bucket stops at its ceiling and what
//! did not fit is counted as saturated. The ceiling is `C::MAX` for the single-writer and
//! thread-local modes (a thread-local copy clamps the sum of the shards there) and
//! [`AtomicCounter::INTERLOCKED_MAX`] (`C::MAX − 2²²`) for the interlocked and approximate
//! modes, whose lock-free record needs the margin. Underflow, overflow and saturated counts
//! stop at `u64::MAX`.
//!
//! # Fork
//! A child of `fork()` can use every histogram at once: the fork waits for resets, registry
//! accesses and held reads in flight in other threads (`pthread_atfork`, registered with the
//! first histogram), and a thread-local histogram hands the shards of the threads that did
//! not survive the fork, counts included, to the child's threads.
//!
//! # Targets
//! The cells are native `AtomicU32`/`AtomicU64` where the target has them; elsewhere
//! feature `critical-section` turns every cell access into a critical section (the
//! application links a `critical-section` implementation). Without either, this module
//! is not compiled. [`LocalHistogram`] needs `std`; boxed storage and snapshots need
//! `alloc`; [`SharedHistogram`], [`AtomicHistogram`] and [`ApproxHistogram`] also work
//! over caller storage in plain `no_std`.

mod approx_counter;
mod approximate;
mod cell;
#[cfg(feature = "alloc")]
mod dynamic;
mod fork;
mod interlocked;
mod live;
#[cfg(feature = "alloc")]
mod mode;
#[cfg(feature = "alloc")]
mod modes;
mod path;
#[cfg(feature = "alloc")]
mod raw_slice;
mod seq_histogram;
mod seqlock;
mod single_writer;
#[cfg(feature = "alloc")]
mod snapshot;
mod store;
#[cfg(feature = "std")]
mod thread_local;
#[cfg(feature = "std")]
mod tls;

#[cfg(feature = "std")]
pub use approx_counter::thread_rng_next;
pub use approx_counter::{ApproxCounter, ApproxPolicy, XorShift64};
pub use approximate::{ApproxHistogram, Approximate};
pub use cell::AtomicCounter;
#[cfg(feature = "alloc")]
pub use dynamic::{CounterBits, DynHistogram, DynSnapshot, DynView, RecordFn};
pub use interlocked::{AtomicHistogram, Interlocked};
pub use live::{Cells, LiveView};
#[cfg(feature = "alloc")]
pub use mode::ConcurrentHistogram;
pub use path::{Counts, DirectKind, DirectPath, Mode, ModePath, RecordPath};
pub use seq_histogram::{SeqHistogram, SeqMode};
#[cfg(loom)]
#[doc(hidden)]
pub use seqlock::loom_set_optimistic_reads;
pub use seqlock::DefaultCells;
pub use single_writer::{SharedHistogram, SingleWriter};
#[cfg(feature = "alloc")]
pub use snapshot::ConcurrentSnapshot;
#[cfg(feature = "alloc")]
pub use store::SparseCells;
pub use store::{CellStore, Storage};
#[cfg(feature = "std")]
pub use thread_local::LocalHistogram;

// What the floating-point histogram shares with these modes: cells, counter steps, the
// seqlock version and the fork guard.
#[cfg(picollo_float)]
pub(crate) use cell::backoff;
#[cfg(feature = "alloc")]
pub(crate) use cell::{
    add_n_atomic, add_n_plain, increment_atomic, increment_plain, settle, zeroed_cells, Cell64,
};
#[cfg(feature = "alloc")]
pub(crate) use fork::{enter as fork_section, init as fork_init};
#[cfg(feature = "alloc")]
pub(crate) use raw_slice::RawSlice;
#[cfg(picollo_float)]
pub(crate) use seqlock::{acquire_fence, release_fence};
#[cfg(feature = "alloc")]
pub(crate) use seqlock::{read_consistently, Version};
#[cfg(feature = "alloc")]
pub(crate) use store::{free_blocks, publish_block};

/// Seals [`Shaped`] and so [`Source`], [`Collect`], [`ModePath`] and [`RecordPath`], which
/// require it, and [`SeqMode`]: the modes are this module's types, and a new one is written
/// here.
mod sealed {
    pub trait Sealed {}
}
pub(crate) use sealed::Sealed;

use crate::config::{Config, ConfigError};
use crate::counter::Counter;
use crate::shape::Shape;
use crate::view::View;

/// A concurrent histogram whose counts can be taken atomically, leaving it counting from
/// zero: the interval since the previous collect or reset (see the
/// [module docs](self#collect-take-the-counts-and-start-over) for each mode's guarantee).
pub trait Collect<C: Counter>: Source<C> {
    /// Move the counts into `scratch` (length `shape().len()`) and return a view of them;
    /// the histogram starts again from zero. Allocates nothing.
    fn collect_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError>;

    /// The counts since the previous collect or reset as an owned histogram of the same
    /// layout and range (underflow, overflow and saturated counts included); the source
    /// starts again from zero. [`OutOfMemory`](crate::OutOfMemory) when the copy cannot
    /// be allocated (nothing is taken then).
    #[cfg(feature = "alloc")]
    fn try_collect(&self) -> Result<crate::Histogram<C, alloc::vec::Vec<C>>, crate::OutOfMemory>
    where
        Self: Sized,
    {
        let mut counts = C::try_zeroes(self.storage_len())?;
        let (shape, outside) = match self.collect_into(&mut counts) {
            Ok(view) => (view.shape(), view.outside()),
            Err(_) => unreachable!("the scratch has the storage length"),
        };
        Ok(crate::Histogram::from_parts(shape, counts, outside))
    }

    /// [`Collect::try_collect`], aborting like `Vec` when the copy cannot be allocated.
    ///
    /// ```
    /// use picollo::concurrent::{AtomicHistogram, Collect};
    /// use picollo::Config;
    /// let h = AtomicHistogram::<u64>::new(Config::new()).unwrap();
    /// h.record(5);
    /// let interval = h.collect();
    /// h.record(7);
    /// assert_eq!(interval.view().total_count(), 1);
    /// assert_eq!(h.collect().view().total_count(), 1);
    /// ```
    #[cfg(feature = "alloc")]
    fn collect(&self) -> crate::Histogram<C, alloc::vec::Vec<C>>
    where
        Self: Sized,
    {
        match self.try_collect() {
            Ok(h) => h,
            Err(e) => crate::oom::abort(e),
        }
    }
}

/// What a concurrent histogram tells without naming its counter width: its [`Shape`], its
/// reset count and its footprint. Every mode implements it, for its readers ([`Source`])
/// and for its record path ([`ModePath`]), which both require it.
pub trait Shaped: sealed::Sealed {
    /// The checked shape (a copy's length is its `len()`).
    fn shape(&self) -> Shape;

    /// How many resets completed (wrapping), so snapshots can tell.
    fn reset_count(&self) -> u64;

    /// Bytes taken by the counters now (thread-local: every shard included).
    fn footprint_in_bytes(&self) -> usize;
}

/// A histogram that other threads may be writing while it is read: every mode implements
/// it, and every query on a concurrent histogram goes through it.
///
/// A mode provides a consistent copy ([`Source::read_into`]) beside its [`Shaped`] facts;
/// the queries built on the copy are written here once.
pub trait Source<C: Counter>: Shaped {
    /// Copy the counts into `scratch` (length `shape().len()`) and return a view of the
    /// copy. See the module docs for what the copy guarantees in each mode.
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError>;

    /// The configuration as given (with the current value selection).
    fn config(&self) -> Config {
        self.shape().config()
    }

    /// Counters the configuration needs: the length of the scratch given to `read_into`.
    fn storage_len(&self) -> usize {
        self.shape().len()
    }

    /// Run `f` on a consistent copy of the counts, allocated for the call (use a
    /// [`ConcurrentSnapshot`] to query repeatedly without allocating);
    /// [`OutOfMemory`](crate::OutOfMemory) when the copy cannot be allocated.
    #[cfg(feature = "alloc")]
    fn try_with_copy<R>(&self, f: impl FnOnce(View<'_, C>) -> R) -> Result<R, crate::OutOfMemory>
    where
        Self: Sized,
    {
        let mut scratch = C::try_zeroes(self.storage_len())?;
        match self.read_into(&mut scratch) {
            Ok(view) => Ok(f(view)),
            Err(_) => unreachable!("the scratch has the storage length"),
        }
    }

    /// Run `f` on a consistent copy of the counts, allocated for the call; aborts when the
    /// copy cannot be allocated, like `Vec` (see [`Source::try_with_copy`]).
    #[cfg(feature = "alloc")]
    fn with_copy<R>(&self, f: impl FnOnce(View<'_, C>) -> R) -> R
    where
        Self: Sized,
    {
        match self.try_with_copy(f) {
            Ok(r) => r,
            Err(e) => crate::oom::abort(e),
        }
    }

    /// The standard summary of a consistent copy (allocates the copy).
    #[cfg(feature = "alloc")]
    fn summary(&self) -> crate::Summary
    where
        Self: Sized,
    {
        self.with_copy(|v| v.summary())
    }

    /// Sum of the bucket counts of a consistent copy (allocates the copy).
    #[cfg(feature = "alloc")]
    fn total_count(&self) -> u64
    where
        Self: Sized,
    {
        self.with_copy(|v| v.total_count())
    }
}
