//! The approximate mode: every bucket a scalable approximate counter.

use super::approx_counter::{calm_aftermath, ApproxPolicy, Calm, Coins, Collisions, XorShift64};
use super::cell::AtomicCounter;
use super::path::{DirectKind, Mode};
use super::seq_histogram::{SeqHistogram, SeqMode};
use super::seqlock::DefaultCells;
use super::{CellStore, Sealed};
use crate::config::{Config, ConfigError};
use crate::layout::Log2;
use crate::shape::{Shape, Slot, SAT};

/// A histogram any number of threads record into, each bucket an approximate counter
/// ([`ApproxPolicy`]) once threads contend for it: buckets below `2^T` (8,192 by default)
/// are exact; above, a record updates its bucket only with probability `2^-k`, by `2^k`,
/// so a hot bucket's cache line is written rarely and writers scale. Percentile ranks and
/// totals then carry the counter's error (about 2 % at two standard deviations per bucket
/// at T = 13, unbiased); bucket *values* keep the layout's precision.
///
/// Uncontended, it counts exactly (the end note of the .NET Dynamic PGO write-up): each
/// record is one `fetch_add`, nothing read before it, and only when a thread finds that
/// another wrote to a bucket between two of its own adds to it in a row does the bucket's
/// group (one of 1,024, by storage offset) switch to approximate counting above `2^T`, for
/// the histogram's life. (With a caller's generator, [`ApproxHistogram::record_with`], a
/// record loads the bucket first and a collision is a write between that load and the add.)
/// A histogram written by one thread, or by threads that keep to their own buckets, is
/// exact at the interlocked mode's cost; see [`ApproxHistogram::contended_groups`].
///
/// Reads, reset and snapshots behave as in [`super::AtomicHistogram`] (seqlock copy; reset
/// by atomic swap, no "old+1"). [`SeqHistogram::record_n`] adds exactly.
/// [`Collect::collect`](super::Collect::collect) takes each counter by an atomic swap: every
/// counter update lands in exactly one interval, and each interval's bucket is an unbiased
/// estimate with the counter's error for that interval's count (exact below `2^T`).
///
/// A bucket saturates at [`AtomicCounter::INTERLOCKED_MAX`] (`u32`: 4,290,772,991), as in
/// the interlocked mode; what does not fit is counted as saturated.
///
/// It has no direct path for C callers (its coins are the library's); without `std` there
/// is no thread generator, and `record` adds exactly (use
/// [`ApproxHistogram::record_with`]).
pub type ApproxHistogram<C, S = DefaultCells<C>> = SeqHistogram<C, Approximate, S>;

/// The approximate mode of a [`SeqHistogram`]: its policy and the collision marks of its
/// bucket groups. See [`ApproxHistogram`].
///
/// `repr(C)`, the policy first: a record reads it and then its group's collision word,
/// right after the counts.
#[derive(Debug)]
#[repr(C)]
pub struct Approximate {
    policy: ApproxPolicy,
    collisions: Collisions,
}

impl Sealed for Approximate {}

impl<C: AtomicCounter, S: CellStore<C>> SeqHistogram<C, Approximate, S> {
    /// A histogram counting with `policy` over `storage` (`config.storage_len()` cells,
    /// zeroed here).
    pub fn from_storage(
        config: Config,
        policy: ApproxPolicy,
        storage: S,
    ) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?, policy, storage)
    }

    /// A histogram of a checked `shape` counting with `policy` over `storage`
    /// (`shape.len()` cells, zeroed here).
    pub fn from_shape(shape: Shape, policy: ApproxPolicy, storage: S) -> Result<Self, ConfigError> {
        let mode = Approximate {
            policy,
            collisions: Collisions::new(),
        };
        Self::with_mode(shape, mode, storage)
    }

    /// The counting policy.
    pub fn policy(&self) -> ApproxPolicy {
        self.mode.policy
    }

    /// How many of the 1,024 bucket groups (storage offset modulo 1,024) have seen two
    /// threads collide and count approximately at or above `2^T`; 0 means every record so
    /// far was counted exactly.
    pub fn contended_groups(&self) -> u32 {
        self.mode.collisions.count()
    }

    /// Count one occurrence of `v` with a caller-owned generator (one per thread; for
    /// `no_std`, or to choose each generator's seed).
    #[inline(always)]
    pub fn record_with(&self, v: u64, rng: &mut XorShift64) {
        if !self.record_fast_with(v, Log2::ANY_CPU, rng) {
            self.record_n(v, 1);
        }
    }

    #[inline(always)]
    fn record_fast_with<K: Coins>(&self, v: u64, log2: Log2, coins: &mut K) -> bool {
        self.record_slot_with(v, self.counts.shape.slot(v, log2), coins)
    }

    /// [`Self::record_fast_with`] at a slot computed beforehand.
    #[inline(always)]
    fn record_slot_with<K: Coins>(&self, v: u64, slot: Slot, coins: &mut K) -> bool {
        let Some(c) = self.counts.cell(slot) else {
            return false;
        };
        let offset = slot.offset;
        let collisions = &self.mode.collisions;
        match self.mode.policy.bump_if_calm(offset, c, collisions, coins) {
            Calm::Done => true,
            Calm::Noted { found, foreign } => {
                self.after_calm(offset, c, found, foreign);
                true
            }
            // A caller's generator never takes the calm path: its step stays inline.
            Calm::No if !K::REMEMBERS_ADDS => {
                let bumped = self
                    .mode
                    .policy
                    .bump_collided::<C, K>(offset, c, collisions, coins);
                self.counted(bumped)
            }
            Calm::No => {
                self.record_collided(v, offset, c, coins);
                true
            }
        }
    }

    /// After a calm add that saw a collision or reached the ceiling: mark the group,
    /// settle the cell, count what did not fit as saturated.
    #[cold]
    #[inline(never)]
    fn after_calm(&self, offset: usize, c: &C::Atomic, found: C, foreign: bool) {
        let excess = calm_aftermath::<C>(offset, c, &self.mode.collisions, found, foreign);
        if excess != 0 {
            self.saturated(excess);
        }
    }

    /// `record_fast_with` where the cell's group has collided: the
    /// approximate step, or an exact add near the ceiling. Out of line, and it counts `v`
    /// whatever happens, so that the calm path around it saves no registers.
    #[inline(never)]
    fn record_collided<K: Coins>(&self, v: u64, offset: usize, c: &C::Atomic, coins: &mut K) {
        // The group has collided (the calm path just read its bit).
        let bumped =
            self.mode
                .policy
                .bump_in_group::<C, K>(offset, c, &self.mode.collisions, coins, false);
        if !self.counted(bumped) {
            self.record_n(v, 1);
        }
    }

    /// Whether an increment counted (`Some`), noting what did not fit as saturated.
    #[inline(always)]
    fn counted(&self, bumped: Option<u64>) -> bool {
        match bumped {
            Some(0) => true,
            Some(excess) => {
                self.saturated(excess);
                true
            }
            None => false,
        }
    }

    #[cold]
    #[inline(never)]
    fn saturated(&self, excess: u64) {
        self.counts.outside.add_atomic(SAT, excess);
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> ApproxHistogram<C> {
    /// A heap-allocated histogram for `config` with the default policy (T = 13).
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        Self::with_policy(config, ApproxPolicy::new())
    }

    /// A heap-allocated histogram for `config` counting with `policy`.
    pub fn with_policy(config: Config, policy: ApproxPolicy) -> Result<Self, ConfigError> {
        let shape = config.validate()?;
        let cells = super::cell::zeroed_cells::<C>(shape.len())?;
        Self::from_shape(shape, policy, cells)
    }
}

impl<C: AtomicCounter, S: CellStore<C>> SeqMode<C, S> for Approximate {
    const DIRECT: DirectKind = DirectKind::Call;
    const CEILING: C = C::INTERLOCKED_MAX;

    fn mode(&self) -> Mode {
        Mode::Approximate(self.policy)
    }

    /// A calm `fetch_add`, or, in a group that has seen threads collide, the counter's
    /// step (`2^k` with probability `2^-k`), with coins from this thread's generator.
    #[cfg(feature = "std")]
    #[inline(always)]
    fn record_fast_in(h: &ApproxHistogram<C, S>, v: u64, log2: Log2) -> bool {
        h.record_fast_with(v, log2, &mut super::approx_counter::ThreadCoins)
    }

    #[cfg(feature = "std")]
    #[inline(always)]
    fn record_slot_in(h: &ApproxHistogram<C, S>, v: u64, slot: Slot) -> bool {
        h.record_slot_with(v, slot, &mut super::approx_counter::ThreadCoins)
    }

    #[cfg(not(feature = "std"))]
    #[inline(always)]
    fn record_slot_in(h: &ApproxHistogram<C, S>, v: u64, slot: Slot) -> bool {
        let _ = (h, v, slot);
        false
    }

    /// Without `std` there is no thread generator: the common path takes nothing (the
    /// slow path adds exactly).
    #[cfg(not(feature = "std"))]
    #[inline(always)]
    fn record_fast_in(h: &ApproxHistogram<C, S>, v: u64, log2: Log2) -> bool {
        let _ = (h, v, log2);
        false
    }

    /// Outside the range, or a sparse block that cannot be made: an exact add.
    #[inline(always)]
    fn record_declined(h: &ApproxHistogram<C, S>, v: u64) {
        Self::record_n(h, v, 1);
    }

    fn record_with(h: &ApproxHistogram<C, S>, v: u64, rng: &mut XorShift64) {
        h.record_with(v, rng)
    }
}
