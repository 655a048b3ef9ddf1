//! Scalable approximate counting (Dice, Lev & Moir, "Scalable statistics counters", 2013;
//! the integer form .NET uses for Dynamic PGO): exact below `2^T`; above, add `2^k` with
//! probability `2^-k`, where `k` grows with the count's magnitude. The expected value is
//! the true count, and updates get rarer as the count grows, so threads hitting the same
//! counter stop fighting over its cache line.

use super::cell::{add_n_atomic, increment_atomic, settle};
use super::cell::{AtomicCounter, Cell64};

/// How an approximate counter counts.
///
/// - `threshold` (T, default 13): counts below `2^T` are exact. At count `c ≥ 2^T` a
///   record adds `2^k` with probability `2^-k`, `k = ⌊log2 c⌋ − T + 1`: first 2 with
///   probability ½ from 8,192 on, then 4 from 16,384 on, and so on. A higher T is more
///   accurate and less scalable; T = 13 keeps two standard deviations near 2 %.
/// - `max_shift` (default 10): `k` never exceeds it, so updates never get rarer than
///   1/1,024 (Dice et al.'s cap: past that, contention is already negligible, and each
///   further halving of the update rate only adds variance). `u32::MAX` means no cap.
/// - `exact_when_uncontended` (default off): try `count → count + 1` with one
///   compare-exchange first and fall back to the probabilistic add only when it fails, so
///   a counter nobody else touches stays exact. It costs an atomic read-modify-write per
///   record, which is what the probabilistic add exists to avoid; see the crate's
///   benchmark figures before turning it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApproxPolicy {
    threshold: u32,
    max_shift: u32,
    exact_when_uncontended: bool,
}

/// A step exponent or threshold clamped to `1..=62`.
const fn clamp_exponent(e: u32) -> u32 {
    if e < 1 {
        1
    } else if e > 62 {
        62
    } else {
        e
    }
}

impl Default for ApproxPolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl ApproxPolicy {
    /// The default threshold (T = 13: exact below 8,192).
    pub const DEFAULT_THRESHOLD: u32 = 13;
    /// The default cap on the step exponent (updates at least every 1,024 records).
    pub const DEFAULT_MAX_SHIFT: u32 = 10;

    /// T = 13, steps capped at 1,024, no compare-exchange.
    pub const fn new() -> Self {
        ApproxPolicy {
            threshold: Self::DEFAULT_THRESHOLD,
            max_shift: Self::DEFAULT_MAX_SHIFT,
            exact_when_uncontended: false,
        }
    }

    /// Set T (clamped to `1..=62`).
    pub const fn with_threshold(mut self, threshold: u32) -> Self {
        self.threshold = clamp_exponent(threshold);
        self
    }

    /// Cap the step exponent (clamped to `1..=62`; `u32::MAX` for no cap).
    pub const fn with_max_shift(mut self, max_shift: u32) -> Self {
        self.max_shift = clamp_exponent(max_shift);
        self
    }

    /// Count exactly while a compare-exchange succeeds (see the type's docs).
    pub const fn with_exact_when_uncontended(mut self, on: bool) -> Self {
        self.exact_when_uncontended = on;
        self
    }

    /// T.
    pub const fn threshold(&self) -> u32 {
        self.threshold
    }

    /// The cap on the step exponent.
    pub const fn max_shift(&self) -> u32 {
        self.max_shift
    }

    /// Whether the compare-exchange variant is on.
    pub const fn exact_when_uncontended(&self) -> bool {
        self.exact_when_uncontended
    }

    /// One approximate increment of `cell`; `rng` is called only when a coin is needed.
    /// Returns what did not fit below [`AtomicCounter::INTERLOCKED_MAX`] (the cell
    /// saturates there instead of wrapping).
    ///
    /// Below `2^T` the increment is one `fetch_add` checked like an interlocked record;
    /// above, the rare update of `2^k` is a compare-exchange that stops at the ceiling
    /// (a `fetch_add` of a large step could not be kept from wrapping).
    #[inline(always)]
    pub(crate) fn bump<C: AtomicCounter>(
        &self,
        cell: &C::Atomic,
        rng: impl FnOnce() -> u64,
    ) -> u64 {
        let c = C::load(cell);
        let count = c.to_u64();
        if count >> self.threshold == 0 {
            return if increment_atomic::<C>(cell) {
                settle::<C>(cell)
            } else {
                0
            };
        }
        if self.exact_when_uncontended
            && c < C::INTERLOCKED_MAX
            && C::compare_exchange(cell, c, c.increment()).is_ok()
        {
            return 0;
        }
        self.flip::<C>(cell, c, rng)
    }

    /// The approximate step of a cell found at `c ≥ 2^T`: add `2^k` with probability
    /// `2^-k`. Returns what did not fit below the ceiling.
    #[inline(always)]
    fn flip<C: AtomicCounter>(&self, cell: &C::Atomic, c: C, rng: impl FnOnce() -> u64) -> u64 {
        // count >= 2^T, so log2(count) >= T and k >= 1.
        let log = 63 - c.to_u64().leading_zeros();
        let k = (log + 1 - self.threshold).min(self.max_shift);
        let step = 1u64 << k;
        if rng() & (step - 1) != 0 {
            return 0;
        }
        add_step::<C>(cell, step)
    }
}

/// The rare update of an approximate step (a compare-exchange loop that stops at the
/// ceiling), out of line so the coin flip around it stays small.
#[cold]
#[inline(never)]
fn add_step<C: AtomicCounter>(cell: &C::Atomic, step: u64) -> u64 {
    add_n_atomic::<C>(cell, step, C::INTERLOCKED_MAX)
}

/// Which buckets of an approximate histogram have seen two threads collide, to 1/1024:
/// bit `g` stands for the buckets whose storage offset is `g` modulo 1,024 (in big
/// histograms, buckets a block or more apart: rarely more than one of them hot). A
/// bucket counts exactly (one `fetch_add`, as the interlocked mode) until a thread sees
/// that another wrote to it between two of its own adds to it in a row (with the
/// per-thread generator; with a caller's generator, between a load and the add just
/// after it); from then on the buckets of its group count approximately at or
/// above `2^T`, for the histogram's life. So a histogram written by one thread, or by
/// threads that keep to their own buckets, stays exact at about the interlocked mode's
/// cost, and a bucket threads fight over (where such races are frequent) stops taking a
/// write per record soon after. 128 bytes, no allocation.
pub(crate) struct Collisions([<u32 as AtomicCounter>::Atomic; Collisions::WORDS]);

impl core::fmt::Debug for Collisions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Collisions({} groups)", self.count())
    }
}

impl Collisions {
    const WORDS: usize = 32;

    pub(crate) fn new() -> Self {
        Collisions(core::array::from_fn(|_| u32::new_cell(0)))
    }

    /// The word and bit of the group of storage offset `offset`.
    #[inline(always)]
    fn place(offset: usize) -> (usize, u32) {
        ((offset / 32) % Self::WORDS, 1 << (offset % 32))
    }

    /// Whether the group of `offset` has seen no collision.
    #[inline(always)]
    fn calm(&self, offset: usize) -> bool {
        let (word, bit) = Self::place(offset);
        u32::load(&self.0[word]) & bit == 0
    }

    /// Mark the group of `offset` (rare: at most once per group).
    #[cold]
    #[inline(never)]
    fn mark(&self, offset: usize) {
        let (word, bit) = Self::place(offset);
        let cell = &self.0[word];
        let mut old = u32::load(cell);
        while old & bit == 0 {
            match u32::compare_exchange(cell, old, old | bit) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }

    /// How many groups are marked.
    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| u32::load(w).count_ones()).sum()
    }
}

impl ApproxPolicy {
    /// One increment of the cell at storage offset `offset` of a histogram whose
    /// collisions `collisions` tracks, first part: while the cell's group has seen no
    /// collision (see [`Collisions`]) and the coins remember their thread's last add, one
    /// exact interlocked increment (nothing read before it, as in the interlocked mode),
    /// and a collision when another thread's write is seen to have reached the cell
    /// between two of this thread's adds. It calls nothing, so a caller keeps it free of
    /// register saves and sends the rest out of line: [`calm_aftermath`] after a
    /// collision seen or at the ceiling, [`ApproxPolicy::bump_collided`] otherwise.
    #[inline(always)]
    pub(crate) fn bump_if_calm<C: AtomicCounter, K: Coins>(
        &self,
        offset: usize,
        cell: &C::Atomic,
        collisions: &Collisions,
        coins: &mut K,
    ) -> Calm<C> {
        if !K::REMEMBERS_ADDS || !collisions.calm(offset) {
            return Calm::No;
        }
        let found = C::fetch_add(cell, C::from_u64_wrapping(1));
        let address = core::ptr::from_ref(cell) as usize;
        let foreign = coins.foreign_write(address, found.to_u64());
        if !foreign && found < C::INTERLOCKED_MAX {
            Calm::Done
        } else {
            Calm::Noted { found, foreign }
        }
    }

    /// The increment where [`ApproxPolicy::bump_if_calm`] did nothing: the group has
    /// collided (or the coins do not remember adds). At or above `2^T` in a collided
    /// group, the approximate step with `coins`' numbers; otherwise an exact add, and a
    /// collision when another write came between the load and the add. `Some` holds what
    /// did not fit below [`AtomicCounter::INTERLOCKED_MAX`]; `None` (nothing changed, no
    /// coin used) where it takes more than the common path: the cell near its ceiling.
    #[inline]
    pub(crate) fn bump_collided<C: AtomicCounter, K: Coins>(
        &self,
        offset: usize,
        cell: &C::Atomic,
        collisions: &Collisions,
        coins: &mut K,
    ) -> Option<u64> {
        let calm = collisions.calm(offset);
        self.bump_in_group::<C, K>(offset, cell, collisions, coins, calm)
    }

    /// The step of [`ApproxPolicy::bump_collided`] once the group's state (`calm`: no
    /// collision seen yet) is known: the per-thread generator's path, which has just read
    /// the group's bit, passes `false` and so does not read it again.
    #[inline(always)]
    pub(crate) fn bump_in_group<C: AtomicCounter, K: Coins>(
        &self,
        offset: usize,
        cell: &C::Atomic,
        collisions: &Collisions,
        coins: &mut K,
        calm: bool,
    ) -> Option<u64> {
        let before = C::load(cell);
        if !calm && before.to_u64() >> self.threshold != 0 {
            return Some(self.flip::<C>(cell, before, || coins.next()));
        }
        // Exact: checked against the ceiling before anything changes.
        if !far_below_ceiling(before) {
            return None;
        }
        let found = C::fetch_add(cell, C::from_u64_wrapping(1));
        if calm && found != before {
            collisions.mark(offset);
        }
        Some(0)
    }
}

/// What [`ApproxPolicy::bump_if_calm`] did.
pub(crate) enum Calm<C> {
    /// Counted exactly; nothing more to do.
    Done,
    /// Counted exactly, and the add found `found`: at the ceiling, or after `foreign`
    /// (another thread's write since this thread's last add): finish with
    /// [`calm_aftermath`].
    Noted { found: C, foreign: bool },
    /// Nothing done: the group has collided (or the coins do not remember adds).
    No,
}

/// After a calm add that found `found`: mark the group when `foreign`, and settle a cell
/// at the ceiling (see `increment_atomic`); what did not fit below
/// [`AtomicCounter::INTERLOCKED_MAX`].
#[inline]
pub(crate) fn calm_aftermath<C: AtomicCounter>(
    offset: usize,
    cell: &C::Atomic,
    collisions: &Collisions,
    found: C,
    foreign: bool,
) -> u64 {
    if foreign {
        collisions.mark(offset);
    }
    if found >= C::INTERLOCKED_MAX {
        settle::<C>(cell)
    } else {
        0
    }
}

/// Whether a count is far enough below the interlocked ceiling that a plain `fetch_add`
/// cannot overshoot it (see `increment_atomic`).
#[inline(always)]
fn far_below_ceiling<C: AtomicCounter>(count: C) -> bool {
    count.to_u64() < C::INTERLOCKED_MAX.to_u64() - super::cell::IN_FLIGHT_MAX
}

/// Marsaglia's xorshift64 generator: three shifts and xors per number, good enough to
/// flip the approximate counter's coins (the published accuracy figures for these counters
/// use the same kind).
#[derive(Clone, Debug)]
pub struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// A generator from `seed` (any value; zero, a fixed point of xorshift, is replaced).
    /// Give every thread a different seed.
    pub const fn new(seed: u64) -> Self {
        let s = splitmix64(seed);
        XorShift64 {
            state: if s == 0 { 0x9E37_79B9_7F4A_7C15 } else { s },
        }
    }

    /// The next number.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }
}

/// Where an approximate histogram's record flips its coins.
pub(crate) trait Coins {
    /// Whether [`Coins::foreign_write`] remembers the thread's last add.
    const REMEMBERS_ADDS: bool = false;

    /// The next random number.
    fn next(&mut self) -> u64;

    /// Note this thread's add to the cell at `address` that found `found`; true when a
    /// write of another thread reached the cell since this thread's previous add to it
    /// (see `tls::foreign_write_since_last_add`). Only with `REMEMBERS_ADDS`.
    fn foreign_write(&mut self, _address: usize, _found: u64) -> bool {
        false
    }
}

impl Coins for XorShift64 {
    #[inline(always)]
    fn next(&mut self) -> u64 {
        XorShift64::next(self)
    }
}

/// The calling thread's generator, in its thread-local words.
#[cfg(feature = "std")]
pub(crate) struct ThreadCoins;

#[cfg(feature = "std")]
impl Coins for ThreadCoins {
    const REMEMBERS_ADDS: bool = true;

    #[inline(always)]
    fn next(&mut self) -> u64 {
        thread_rng_next()
    }

    #[inline(always)]
    fn foreign_write(&mut self, address: usize, found: u64) -> bool {
        super::tls::foreign_write_since_last_add(address, found)
    }
}

/// SplitMix64's increment: the golden ratio in 64 bits (odd, so the sequence visits every
/// state once per period).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Scrambles a seed so that consecutive seeds give unrelated streams.
const fn splitmix64(z: u64) -> u64 {
    mix64(z.wrapping_add(GOLDEN_GAMMA))
}

/// SplitMix64's output function (Stafford's variant 13): every input bit reaches every
/// output bit, so consecutive inputs `GOLDEN_GAMMA` apart give unrelated numbers.
#[inline(always)]
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The next number from this thread's generator (SplitMix64), seeded on first use from a
/// process-wide sequence number (so no two threads share a stream). The state is one of
/// the record paths' thread-local words (see `tls`).
///
/// SplitMix64 rather than xorshift: a record that flips a coin loads the state its
/// thread's previous record stored, so the state's update is a chain through memory from
/// record to record. Here that update is one add, and the mixing that makes the number
/// hangs off the chain instead of lengthening it (xorshift's update is six dependent
/// steps).
#[cfg(feature = "std")]
#[inline]
pub fn thread_rng_next() -> u64 {
    let mut state = super::tls::rng_state();
    if state == 0 {
        state = fresh_seed();
    }
    state = state.wrapping_add(GOLDEN_GAMMA);
    super::tls::set_rng_state(state);
    mix64(state)
}

#[cfg(feature = "std")]
#[cold]
fn fresh_seed() -> u64 {
    use core::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) as u64;
    XorShift64::new(n).state
}

/// A standalone scalable approximate counter (64-bit): `increment` from any number of
/// threads; [`ApproxCounter::get`] is unbiased, exact below `2^T`, and within about 2 % at
/// two standard deviations above it with the default policy (see [`ApproxPolicy`]).
///
/// The count saturates at [`AtomicCounter::INTERLOCKED_MAX`] (`u64::MAX − 2²²`, for the
/// reason given there) and never wraps; there is no saturated count beside it, so what
/// does not fit is dropped.
#[derive(Debug)]
pub struct ApproxCounter {
    cell: Cell64,
    policy: ApproxPolicy,
}

impl Default for ApproxCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl ApproxCounter {
    /// A zero counter with the default policy (T = 13).
    pub fn new() -> Self {
        Self::with_policy(ApproxPolicy::new())
    }

    /// A zero counter with `policy`.
    pub fn with_policy(policy: ApproxPolicy) -> Self {
        ApproxCounter {
            cell: u64::new_cell(0),
            policy,
        }
    }

    /// Count one event, flipping coins with this thread's generator.
    #[cfg(feature = "std")]
    #[inline]
    pub fn increment(&self) {
        self.policy.bump::<u64>(&self.cell, thread_rng_next);
    }

    /// Count one event with a caller-owned generator (one per thread; `no_std`).
    #[inline]
    pub fn increment_with(&self, rng: &mut XorShift64) {
        self.policy.bump::<u64>(&self.cell, || rng.next());
    }

    /// Add `n` exactly, saturating at [`AtomicCounter::INTERLOCKED_MAX`] for `u64`
    /// (`u64::MAX − 2²²`; a compare-exchange loop): the count never wraps.
    pub fn add(&self, n: u64) {
        add_n_atomic::<u64>(&self.cell, n, u64::INTERLOCKED_MAX);
    }

    /// The current estimate.
    pub fn get(&self) -> u64 {
        u64::load(&self.cell)
    }

    /// Take the count to zero and return it (one atomic swap: an increment racing it is
    /// either in the returned count or in the new one).
    pub fn reset(&self) -> u64 {
        u64::swap(&self.cell, 0)
    }

    /// The policy.
    pub fn policy(&self) -> ApproxPolicy {
        self.policy
    }
}

#[cfg(all(test, feature = "std", not(loom)))]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn counts_exactly_below_the_threshold() {
        let c = ApproxCounter::new();
        for _ in 0..8_192 {
            c.increment();
        }
        assert_eq!(c.get(), 8_192);
        assert_eq!(c.reset(), 8_192);
        assert_eq!(c.get(), 0);
    }

    #[test]
    fn steps_grow_with_the_count_and_stop_at_the_cap() {
        // With a generator that always says "update", each record adds the full step.
        let p = ApproxPolicy::new().with_threshold(4).with_max_shift(3);
        let cell = u64::new_cell(15);
        p.bump::<u64>(&cell, || 0); // below 16: +1
        assert_eq!(u64::load(&cell), 16);
        p.bump::<u64>(&cell, || 0); // log2 16 = 4 → k = 1
        assert_eq!(u64::load(&cell), 18);
        u64::store(&cell, 1 << 20);
        p.bump::<u64>(&cell, || 0); // k = 17, capped at 3
        assert_eq!(u64::load(&cell), (1 << 20) + 8);
        p.bump::<u64>(&cell, || 1); // the coin says no
        assert_eq!(u64::load(&cell), (1 << 20) + 8);
    }

    #[test]
    fn a_u32_counter_saturates_instead_of_wrapping() {
        let p = ApproxPolicy::new();
        let cell = u32::new_cell(u32::INTERLOCKED_MAX - 3);
        let excess: u64 = (0..100).map(|_| p.bump::<u32>(&cell, || 0)).sum();
        assert_eq!(u32::load(&cell), u32::INTERLOCKED_MAX);
        // Every step (1,024 at this count) landed in the cell or came back as excess.
        assert_eq!(excess, 100 * 1_024 - 3);
        // A cell left above the ceiling by increments in flight is brought back.
        let cell = u32::new_cell(u32::INTERLOCKED_MAX + 5);
        assert_eq!(p.with_threshold(62).bump::<u32>(&cell, || 0), 6);
        assert_eq!(u32::load(&cell), u32::INTERLOCKED_MAX);
    }

    #[test]
    fn the_compare_exchange_variant_is_exact_on_one_thread() {
        let c = ApproxCounter::with_policy(ApproxPolicy::new().with_exact_when_uncontended(true));
        for _ in 0..100_000 {
            c.increment();
        }
        assert_eq!(c.get(), 100_000);
    }

    /// The coins the approximate step flips are the low `k` bits of the thread's numbers:
    /// each `k`-bit coin comes up zero about `2^-k` of the time, and consecutive numbers'
    /// low bits agree about half the time (an unmixed counter's alternate). Bounds at 6σ
    /// of 2^18 draws.
    #[test]
    fn thread_generator_coins_are_fair_and_consecutive_ones_independent() {
        const DRAWS: u32 = 1 << 18;
        let draws: Vec<u64> = (0..DRAWS).map(|_| thread_rng_next()).collect();
        for k in 1..=10u32 {
            let p = 1.0 / (1u64 << k) as f64;
            let zeros = draws.iter().filter(|&&x| x & ((1 << k) - 1) == 0).count() as f64;
            let sigma = (DRAWS as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (zeros - DRAWS as f64 * p).abs() < 6.0 * sigma,
                "k = {k}: {zeros} zero coins of {DRAWS}"
            );
        }
        for bit in [0, 1, 9, 63] {
            let agree = draws
                .windows(2)
                .filter(|w| (w[0] >> bit) & 1 == (w[1] >> bit) & 1)
                .count() as f64;
            let pairs = (DRAWS - 1) as f64;
            assert!(
                (agree - pairs / 2.0).abs() < 6.0 * (pairs / 4.0).sqrt(),
                "bit {bit}: consecutive numbers agree {agree} times of {pairs}"
            );
        }
    }

    #[test]
    fn thread_generators_differ() {
        let a = std::thread::spawn(|| (0..4).map(|_| thread_rng_next()).collect::<Vec<_>>());
        let b = std::thread::spawn(|| (0..4).map(|_| thread_rng_next()).collect::<Vec<_>>());
        assert_ne!(a.join().unwrap(), b.join().unwrap());
    }
}
