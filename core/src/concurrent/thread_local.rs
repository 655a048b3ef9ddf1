//! The thread-local histogram: one shard per writer thread, summed by readers.
//!
//! Each thread that records gets a shard (a full bucket array) on its first record and
//! then writes it with a plain load + store: no lock prefix, no shared cache line. The
//! registry (a mutex) is taken only to attach a thread, to let one go, and by readers and
//! resets; records never take it.
//!
//! When a thread exits, its shard goes back to the registry and **keeps its counts**: the
//! next thread that attaches continues it (a hand-off), or, once `keep_idle` shards are
//! already waiting, the shard is folded into the carried sums and freed. Nothing is lost
//! either way, and the number of shards never exceeds the number of threads recording at
//! once (capped by `max_shards`; past the cap, a thread records into the accumulator with
//! an interlocked add: slower, still exact).
//!
//! Saturation: a shard's bucket stops at `C::MAX` (its owner compares before it stores)
//! and a record into a full one goes to the accumulator; the accumulator stops at `C::MAX`
//! too (compare-exchange) and what does not fit there is counted as saturated. Readers
//! sum in 128 bits and clamp each bucket at `C::MAX`, adding the rest to the saturated
//! count of the copy. So bucket + saturated is always exactly what was recorded.
//!
//! The histogram owns its shards; a thread keeps only weak references to them (and to the
//! histogram), so dropping the histogram frees every shard at once, even while the threads
//! that recorded into it are still alive.
//!
//! After `fork()`, the registry knows which thread each attached shard belongs to (a
//! per-thread token): on the child's first registry access, the shards of threads that did
//! not survive the fork become idle, counts included, ready for the child's new threads
//! (see [`super::fork`]).

use super::path::{
    plain_batch, record_batch_by_slot, Counts, DirectKind, DirectPath, Mode, ModePath, RecordPath,
};
use super::Storage;
use crate::batch::BatchPath;
use core::cell::RefCell;

use super::cell::{add_n_atomic, add_n_plain, increment_plain, Outside};
use super::cell::{zeroed_cells, AtomicCounter};
use super::fork;
use super::tls::{self, Last};
use super::{Sealed, Shaped, Source};
use crate::config::{Config, ConfigError};
use crate::layout::Log2;
use crate::merge::{add_view, MergeError};
use crate::shape::{Shape, Slot, SAT};
use crate::view::View;
use alloc::boxed::Box;
use alloc::vec::Vec;

use core::sync::atomic::AtomicU64;
// loom has no `Weak`; the reference counts are not what the models check.
use alloc::sync::{Arc, Weak};
#[cfg(loom)]
use loom::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed},
    Mutex, MutexGuard,
};
#[cfg(not(loom))]
use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed},
    Mutex, MutexGuard,
};

/// One attachment of this thread to a histogram.
struct Entry {
    id: usize,
    base: *const (),
    lease: Box<dyn Lease>,
}

/// Weak links to a histogram's shared state and this thread's shard: gives the shard back
/// when dropped (at thread exit) if the histogram still exists. The histogram, not the
/// lease, keeps the shard alive.
trait Lease {
    fn histogram_dropped(&self) -> bool;
}

struct Attached(Vec<Entry>);

impl Drop for Attached {
    fn drop(&mut self) {
        // The entries' leases give their shards back; the fast path must not use them.
        tls::set_last(Last::EMPTY);
    }
}

#[cfg(not(loom))]
std::thread_local! {
    static ATTACHED: RefCell<Attached> = const { RefCell::new(Attached(Vec::new())) };
}
#[cfg(loom)]
loom::thread_local! {
    static ATTACHED: RefCell<Attached> = RefCell::new(Attached(Vec::new()));
}

/// Histogram ids: never reused, so a stale `Last` can never match a live histogram.
fn next_id() -> usize {
    static NEXT: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(1);
    NEXT.fetch_add(1, core::sync::atomic::Ordering::Relaxed)
}

struct Shard<C: AtomicCounter> {
    counts: Box<[C::Atomic]>,
}

struct Registry<C: AtomicCounter> {
    /// Every live shard, attached or idle.
    shards: Vec<Arc<Shard<C>>>,
    /// Shards whose thread exited, waiting for the next one (also in `shards`).
    idle: Vec<Arc<Shard<C>>>,
    /// Per bucket, what the live shards do not hold of the count since the last reset:
    /// the folded shards' counts minus the live shards' counts at the reset. A read is
    /// live shards + carry + accumulator (never below zero: shards only grow).
    carry: Box<[i128]>,
    /// (shard address, owner's [`fork::thread_token`]) for every attached shard.
    owners: Vec<(usize, u64)>,
    /// The [`fork::epoch`] the owners were last checked at.
    epoch: u64,
    resets: u64,
}

struct ShardSet<C: AtomicCounter> {
    shape: Shape,
    /// Records of threads past the shard cap and records into full shard buckets
    /// (compare-exchange adds, saturating at `C::MAX`); swapped to zero by resets.
    acc: Box<[C::Atomic]>,
    /// Every underflow/overflow/saturated count (interlocked; they are rare).
    outside: Outside,
    registry: Mutex<Registry<C>>,
    /// Shards a thread could get without waiting: idle ones plus room under the cap.
    available: AtomicUsize,
    closed: AtomicBool,
    /// `Registry::epoch`, readable without the lock (a child after a fork must take the
    /// lock once even when no shard looks available).
    epoch: AtomicU64,
    max_shards: usize,
    keep_idle: usize,
}

struct LeaseOf<C: AtomicCounter> {
    shared: Weak<ShardSet<C>>,
    shard: Weak<Shard<C>>,
}

impl<C: AtomicCounter> Lease for LeaseOf<C> {
    fn histogram_dropped(&self) -> bool {
        self.shared.strong_count() == 0
    }
}

impl<C: AtomicCounter> Drop for LeaseOf<C> {
    fn drop(&mut self) {
        // Both links fail once the histogram is dropped: its shards are already gone.
        if let (Some(shared), Some(shard)) = (self.shared.upgrade(), self.shard.upgrade()) {
            shared.release(shard);
        }
    }
}

/// The registry, locked, inside a fork section (a fork waits until it is unlocked).
struct Locked<'a, C: AtomicCounter> {
    registry: MutexGuard<'a, Registry<C>>,
    _section: fork::Section,
}

impl<C: AtomicCounter> core::ops::Deref for Locked<'_, C> {
    type Target = Registry<C>;
    fn deref(&self) -> &Registry<C> {
        &self.registry
    }
}

impl<C: AtomicCounter> core::ops::DerefMut for Locked<'_, C> {
    fn deref_mut(&mut self) -> &mut Registry<C> {
        &mut self.registry
    }
}

impl<C: AtomicCounter> ShardSet<C> {
    fn lock(&self) -> Locked<'_, C> {
        let section = fork::enter();
        // A panic while the lock was held cannot leave the registry half-updated in a way
        // that loses counts (every update is one push, pop or retain), so go on.
        let registry = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        let mut r = Locked {
            registry,
            _section: section,
        };
        let epoch = fork::epoch();
        if r.epoch != epoch {
            self.adopt_orphans(&mut r, epoch);
        }
        r
    }

    /// First access in a child after `fork()`: the shards of threads that did not survive
    /// it are given back as if those threads had exited (kept idle for the child's threads,
    /// or folded), so their counts stay and their places can be reused. Only the thread
    /// that forked survived; a thread made in the child attaches only after this ran.
    #[cold]
    fn adopt_orphans(&self, r: &mut Registry<C>, epoch: u64) {
        r.epoch = epoch;
        self.epoch.store(epoch, Relaxed);
        let survivor = fork::survivor();
        let orphans: Vec<usize> = r
            .owners
            .iter()
            .filter(|&&(_, owner)| owner != survivor)
            .map(|&(addr, _)| addr)
            .collect();
        for addr in orphans {
            let found = r.shards.iter().find(|s| shard_addr(s) == addr).cloned();
            match found {
                Some(shard) => self.release_locked(r, shard),
                None => r.owners.retain(|&(a, _)| a != addr),
            }
        }
    }

    fn update_available(&self, r: &Registry<C>) {
        let room = self.max_shards.saturating_sub(r.shards.len());
        self.available.store(r.idle.len() + room, Relaxed);
    }

    /// A shard for a thread's first record: an idle one (with the counts of the thread
    /// that left it), a new one, or `None` at the cap.
    fn acquire(&self) -> Option<Arc<Shard<C>>> {
        if self.available.load(Relaxed) == 0 && self.epoch.load(Relaxed) == fork::epoch() {
            return None;
        }
        let mut r = self.lock();
        let shard = match r.idle.pop() {
            Some(s) => s,
            None if r.shards.len() < self.max_shards => {
                // Out of memory for a shard: the thread records into the accumulator, as
                // past the cap (slower, never lost).
                let counts = zeroed_cells::<C>(self.shape.len()).ok()?;
                let s = Arc::new(Shard { counts });
                r.shards.push(s.clone());
                s
            }
            None => return None,
        };
        r.owners.push((shard_addr(&shard), fork::thread_token()));
        self.update_available(&r);
        Some(shard)
    }

    /// A thread let `shard` go: keep it for the next thread, or fold it into the carried
    /// sums (exact, 128-bit). Readers sum under the same lock, so they see its counts
    /// exactly once.
    fn release(&self, shard: Arc<Shard<C>>) {
        let mut r = self.lock();
        self.release_locked(&mut r, shard);
    }

    /// [`ShardSet::release`] with the registry locked.
    fn release_locked(&self, r: &mut Registry<C>, shard: Arc<Shard<C>>) {
        let addr = shard_addr(&shard);
        r.owners.retain(|&(a, _)| a != addr);
        if self.closed.load(Relaxed) {
            r.shards.clear();
            r.idle.clear();
            return;
        }
        if r.idle.len() < self.keep_idle {
            r.idle.push(shard);
        } else {
            for (k, s) in r.carry.iter_mut().zip(shard.counts.iter()) {
                *k += i128::from(C::load(s).to_u64());
            }
            r.shards.retain(|s| !Arc::ptr_eq(s, &shard));
        }
        self.update_available(r);
    }

    /// Per bucket, the count since the last reset (live shards + carry + accumulator,
    /// summed in 128 bits), clamped at `C::MAX` into `out`; returns the sum of what did
    /// not fit (under the registry lock).
    fn sum_into(&self, r: &Registry<C>, out: &mut [C]) -> u128 {
        let mut surplus = 0u128;
        for (o, out) in out.iter_mut().enumerate() {
            let mut sum = r.carry[o] + i128::from(C::load(&self.acc[o]).to_u64());
            for shard in &r.shards {
                sum += i128::from(C::load(&shard.counts[o]).to_u64());
            }
            // Not below zero: the carry takes off at most what the shards held at the
            // reset, and shards only grow.
            let sum = u128::try_from(sum).unwrap_or(0);
            let max = u128::from(C::MAX.to_u64());
            *out = C::from_u64_wrapping(sum.min(max) as u64);
            surplus += sum.saturating_sub(max);
        }
        surplus
    }

    /// A record of `n` into this thread's full shard bucket, or past the shard cap: into
    /// the accumulator, saturating; what does not fit is counted as saturated.
    #[cold]
    #[inline(never)]
    fn add_to_acc(&self, offset: usize, n: u64) {
        // `offset < acc.len()` always (the shape's length); `get` keeps a panic path out of
        // the record paths that reach here.
        let excess = match self.acc.get(offset) {
            Some(cell) => add_n_atomic::<C>(cell, n, C::MAX),
            None => n,
        };
        if excess != 0 {
            self.outside.add_atomic(SAT, excess);
        }
    }
}

/// A shard's identity in [`Registry::owners`].
fn shard_addr<C: AtomicCounter>(shard: &Arc<Shard<C>>) -> usize {
    Arc::as_ptr(shard) as usize
}

/// A histogram any number of threads record into, each into its own shard with plain
/// loads and stores (`std`): the record path is a thread-local lookup, a compare, and the
/// same increment as [`crate::Histogram::record`], so it scales flat with threads.
///
/// # Threads
/// A thread attaches on its first record (one lock, one allocation or a reused shard).
/// When it exits, its shard is handed to the next thread or folded into the carried sums,
/// counts included: **no count is ever lost**, and the shard count stays at most the
/// number of threads recording at once (see [`LocalHistogram::shard_count`]). Past
/// `max_shards` concurrent writers, the extra threads add to the accumulator with
/// interlocked adds. Out-of-range values always go to interlocked outside counts. Any
/// number of histograms can be used from any number of threads; memory is one shard per
/// (histogram, concurrently recording thread) pair. Dropping the histogram frees all of
/// it, shards included, at once: threads that recorded into it keep only weak links (a few
/// words each, dropped at their next first record into any histogram, or at exit).
///
/// # Fork
/// A child of `fork()` can use the histogram at once, whatever the parent's other threads
/// were doing: the fork waits for registry accesses in flight (a `pthread_atfork` handler;
/// see the [module docs](crate::concurrent#fork)), and the shards of the threads that did
/// not survive the fork keep their counts and become idle, ready for the child's threads
/// (on the child's first registry access).
///
/// # Reads, reset, snapshots
/// - [`LocalHistogram::read_into`] sums the accumulator and every shard under the registry
///   lock (writers do not wait; attaching and exiting threads do), minus what the shards
///   held at the last reset. Each bucket is read once per shard; counts only grow, so the
///   copy is consistent with itself and with every query on it.
/// - [`LocalHistogram::reset`] writes nothing into the shards (their owners' plain stores
///   would bring back "old+1"): it notes what the shards hold, which every later read
///   subtracts, and swaps the accumulator and the outside counts to zero. A record racing
///   a reset counts after it exactly when the reset's read of that bucket did not see it.
///   The cost is one more array of 16 bytes per bucket.
/// - [`Collect::collect`](super::Collect::collect) is a reset that returns what it cleared,
///   exactly: the shard counts it reads become the baseline, so a record racing it is in
///   this interval or the next, never both or neither.
///
/// # Saturation
/// Exact at `C::MAX` (`u32`: 4,294,967,295): a bucket of the copy is the sum of the shards
/// and the accumulator, computed in 128 bits and clamped at `C::MAX`; what is above goes to
/// the copy's saturated count, as do records that fit neither the thread's full shard
/// bucket nor the accumulator. So, per bucket, the copy shows `min(recorded, C::MAX)` and
/// the rest as saturated, however many threads recorded it. Underflow, overflow and
/// saturated counts stop at `u64::MAX`.
pub struct LocalHistogram<C: AtomicCounter> {
    id: usize,
    shape: Shape,
    shared: Arc<ShardSet<C>>,
}

impl<C: AtomicCounter> LocalHistogram<C> {
    /// A thread-local histogram for `config`, with at most `4 × cores` (at least 16)
    /// shards and `cores` kept for hand-off.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        Self::from_shape(config.validate()?)
    }

    /// A thread-local histogram of a checked `shape`, with the default limits;
    /// [`ConfigError::OutOfMemory`] when its accumulator cannot be allocated.
    pub fn from_shape(shape: Shape) -> Result<Self, ConfigError> {
        let cores = std::thread::available_parallelism().map_or(4, |n| n.get());
        Self::with_shape_limits(shape, (4 * cores).max(16), cores)
    }

    /// A thread-local histogram with explicit limits: at most `max_shards` shards (at
    /// least 1); at most `keep_idle` shards of exited threads kept for hand-off (the
    /// others are folded into the accumulator).
    pub fn with_limits(
        config: Config,
        max_shards: usize,
        keep_idle: usize,
    ) -> Result<Self, ConfigError> {
        Self::with_shape_limits(config.validate()?, max_shards, keep_idle)
    }

    fn with_shape_limits(
        shape: Shape,
        max_shards: usize,
        keep_idle: usize,
    ) -> Result<Self, ConfigError> {
        fork::init();
        let max_shards = max_shards.max(1);
        let shared = ShardSet {
            shape,
            acc: zeroed_cells::<C>(shape.len())?,
            outside: Outside::new(),
            registry: Mutex::new(Registry {
                shards: Vec::new(),
                idle: Vec::new(),
                carry: crate::oom::try_vec(shape.len(), || 0)?.into_boxed_slice(),
                owners: Vec::new(),
                epoch: fork::epoch(),
                resets: 0,
            }),
            available: AtomicUsize::new(max_shards),
            closed: AtomicBool::new(false),
            epoch: AtomicU64::new(fork::epoch()),
            max_shards,
            keep_idle,
        };
        Ok(LocalHistogram {
            id: next_id(),
            shape,
            shared: Arc::new(shared),
        })
    }

    /// This thread's shard cells, when it is attached and was the last one used here.
    #[inline(always)]
    fn my_cells(&self) -> Option<*const C::Atomic> {
        let last = tls::last();
        (last.id == self.id).then_some(last.base as *const C::Atomic)
    }

    /// Add every count of `other` (same relative error, any range), as
    /// [`crate::Histogram::add`] does; the counts land like this thread's records.
    pub fn add<C2: crate::Counter>(&self, other: &View<'_, C2>) -> Result<(), MergeError> {
        add_view(
            &self.shape,
            other,
            |slot, n| self.add_n_mine(slot.offset, n),
            |v, n| self.record_n(v, n),
            |outside| {
                for (which, n) in outside.into_iter().enumerate() {
                    if n != 0 {
                        self.shared.outside.add_atomic(which, n);
                    }
                }
            },
        )
    }

    /// Count `n` records as saturated (a record its slow path could not count).
    pub(crate) fn add_saturated(&self, n: u64) {
        self.shared.outside.add_atomic(SAT, n);
    }

    /// Count one occurrence of `v` (any thread).
    #[inline(always)]
    pub fn record(&self, v: u64) {
        ModePath::record(self, v)
    }

    /// Count one occurrence of `v` and return true when this thread's shard is the one
    /// it used last, `v` lies in the range and its bucket is not full: integer
    /// operations, one thread-local load and one plain load + store, nothing that can
    /// panic, allocate or call. Otherwise return false, recording nothing
    /// ([`LocalHistogram::record`] then takes the slow path). A leaf, so a caller (the
    /// C ABI's record) saves no registers around it.
    #[inline(always)]
    pub fn record_fast(&self, v: u64) -> bool {
        ModePath::record_fast(self, v)
    }

    /// Count `n` occurrences of `v`, saturating (see the type's docs).
    #[inline]
    pub fn record_n(&self, v: u64, n: u64) {
        let offset = self.shape.slot(v, Log2::ANY_CPU).offset;
        if !self.add_n_mine(offset, n) {
            self.record_slow(offset, v, n);
        }
    }

    /// Count `n` at storage offset `offset` in this thread's shard, as
    /// [`LocalHistogram::record_n`] does; `false` (nothing counted) when the offset
    /// is outside the range or this thread's shard is not the one used last here.
    #[inline]
    fn add_n_mine(&self, offset: usize, n: u64) -> bool {
        let Some(base) = self.my_cells().filter(|_| offset < self.shape.len()) else {
            return false;
        };
        // SAFETY: as in `record`.
        let c = unsafe { &*base.add(offset) };
        let excess = add_n_plain::<C>(c, n);
        if excess != 0 {
            self.shared.add_to_acc(offset, excess);
        }
        true
    }

    #[cold]
    #[inline(never)]
    fn record_slow(&self, offset: usize, v: u64, n: u64) {
        if offset >= self.shape.len() {
            self.shared
                .outside
                .add_atomic(self.shape.outside_kind(v), n);
            return;
        }
        let rest = match self.attach() {
            Some(base) => {
                // SAFETY: `attach` returns this histogram's shard of this thread (see
                // `record`); `offset < shape.len()`.
                let c = unsafe { &*(base as *const C::Atomic).add(offset) };
                add_n_plain::<C>(c, n)
            }
            // At the shard cap or during thread teardown: the exact, slower path.
            None => n,
        };
        if rest != 0 {
            self.shared.add_to_acc(offset, rest);
        }
    }

    /// This thread's shard (found or made now): its `shape().len()` cells, which this
    /// thread may count into with a plain load and store (a relaxed atomic load and store,
    /// never a read-modify-write from another thread) while it lives and the histogram
    /// does. A full cell is left alone: that record goes through
    /// [`LocalHistogram::record`]. `None` at the shard cap or during the thread's
    /// teardown (then every record goes through `record`).
    pub fn this_thread_cells(&self) -> Option<*const C::Atomic> {
        self.attach().map(|base| base as *const C::Atomic)
    }

    /// Find or make this thread's shard and make it the fast path's.
    fn attach(&self) -> Option<*const ()> {
        let found = ATTACHED.try_with(|attached| {
            let mut attached = attached.borrow_mut();
            let base = match attached.0.iter().find(|e| e.id == self.id) {
                Some(e) => e.base,
                None => {
                    // Let go of histograms that were dropped (frees their shards).
                    attached.0.retain(|e| !e.lease.histogram_dropped());
                    let shard = self.shared.acquire()?;
                    let base = shard.counts.as_ptr() as *const ();
                    let lease = LeaseOf {
                        shared: Arc::downgrade(&self.shared),
                        shard: Arc::downgrade(&shard),
                    };
                    attached.0.push(Entry {
                        id: self.id,
                        base,
                        lease: Box::new(lease),
                    });
                    base
                }
            };
            tls::set_last(Last { id: self.id, base });
            Some(base)
        });
        found.ok().flatten()
    }

    /// Start every count again from zero, without writing into the shards (see the type's
    /// docs).
    pub fn reset(&self) {
        let mut r = self.shared.lock();
        let r = &mut *r;
        for (o, k) in r.carry.iter_mut().enumerate() {
            *k = 0;
            for shard in &r.shards {
                *k -= i128::from(C::load(&shard.counts[o]).to_u64());
            }
            C::swap(&self.shared.acc[o], C::ZERO);
        }
        self.shared.outside.take();
        r.resets = r.resets.wrapping_add(1);
    }

    /// Live shards (attached or waiting for a next thread).
    pub fn shard_count(&self) -> usize {
        self.shared.lock().shards.len()
    }

    /// Shards waiting for a next thread.
    pub fn idle_shard_count(&self) -> usize {
        self.shared.lock().idle.len()
    }
}

impl<C: AtomicCounter> Drop for LocalHistogram<C> {
    fn drop(&mut self) {
        // The registry holds the only strong links to the shards; a thread giving its shard
        // back right now (it upgraded its weak links) sees `closed` and drops it.
        self.shared.closed.store(true, Relaxed);
        let mut r = self.shared.lock();
        r.idle.clear();
        r.shards.clear();
        r.owners.clear();
    }
}

impl<C: AtomicCounter> Shaped for LocalHistogram<C> {
    fn shape(&self) -> Shape {
        self.shape
    }

    fn reset_count(&self) -> u64 {
        self.shared.lock().resets
    }

    /// The accumulator, every shard, and the 16-byte carried sums.
    fn footprint_in_bytes(&self) -> usize {
        let len = self.shape.len();
        (1 + self.shard_count()) * len * C::BYTES + len * core::mem::size_of::<i128>()
    }
}

impl<C: AtomicCounter> Source<C> for LocalHistogram<C> {
    /// Sum everything since the last reset into `scratch` (length `shape().len()`) and
    /// return a view of it; buckets clamped at `C::MAX`, the rest counted as saturated
    /// (see the type's docs).
    fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.shape.check_len(scratch.len())?;
        let r = self.shared.lock();
        let surplus = self.shared.sum_into(&r, scratch);
        let mut outside = self.shared.outside.load();
        outside[SAT] = crate::view::saturate(u128::from(outside[SAT]) + surplus);
        Ok(View::new(self.shape, scratch, outside, r.resets))
    }
}

impl<C: AtomicCounter> super::Collect<C> for LocalHistogram<C> {
    /// Exact while any number of threads record: under the registry lock, each shard
    /// bucket is read once, and that same reading goes into the interval and becomes the
    /// shard's baseline for the next one (the accumulator and the outside counts are
    /// swapped to zero). Buckets are clamped at `C::MAX` like a read, the rest counted as
    /// saturated.
    fn collect_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.shape.check_len(scratch.len())?;
        let mut r = self.shared.lock();
        let r = &mut *r;
        let max = u128::from(C::MAX.to_u64());
        let mut surplus = 0u128;
        for (o, out) in scratch.iter_mut().enumerate() {
            let mut held = 0i128;
            for shard in &r.shards {
                held += i128::from(C::load(&shard.counts[o]).to_u64());
            }
            let acc = i128::from(C::swap(&self.shared.acc[o], C::ZERO).to_u64());
            // Not below zero: the carry takes off at most what the shards held at the
            // previous reset or collect, and shards only grow.
            let sum = u128::try_from(r.carry[o] + held + acc).unwrap_or(0);
            r.carry[o] = -held;
            *out = C::from_u64_wrapping(sum.min(max) as u64);
            surplus += sum.saturating_sub(max);
        }
        let mut outside = self.shared.outside.take();
        outside[SAT] = crate::view::saturate(u128::from(outside[SAT]) + surplus);
        let resets = r.resets;
        r.resets = r.resets.wrapping_add(1);
        Ok(View::new(self.shape, scratch, outside, resets))
    }
}

impl<C: AtomicCounter> core::fmt::Debug for LocalHistogram<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LocalHistogram")
            .field("config", &self.shape.config())
            .field("shards", &self.shard_count())
            .finish_non_exhaustive()
    }
}

impl<C: AtomicCounter> Sealed for LocalHistogram<C> {}

/// The thread-local mode's record: a plain load and store into this thread's own shard,
/// the first record of a thread (which attaches it) out of line. Behind a pointer
/// ([`super::ConcurrentHistogram`], the C ABI's handle) queries sum the shards into a copy;
/// the direct path is this thread's shard.
impl<C: AtomicCounter> ModePath for LocalHistogram<C> {
    fn mode(&self) -> Mode {
        Mode::ThreadLocal
    }
    fn storage(&self) -> Storage {
        Storage::Dense
    }

    /// A thread-local load, then a plain load and store into this thread's shard.
    #[inline(always)]
    fn record_fast_in(&self, v: u64, log2: Log2) -> bool {
        self.record_slot_in(v, self.shape.slot(v, log2))
    }

    #[inline(always)]
    fn record_slot_in(&self, _v: u64, slot: Slot) -> bool {
        let offset = slot.offset;
        if offset < self.shape.len() {
            if let Some(base) = self.my_cells() {
                // SAFETY: `base` came from `Last` with this histogram's id (ids are never
                // reused), so it points at the `shape.len()` cells of this thread's shard of
                // this histogram (cells of `C::Atomic`), kept alive by the registry until the
                // thread lets it go or the histogram is dropped (`&self`: it is not);
                // `offset < shape.len()`.
                let c = unsafe { &*base.add(offset) };
                return increment_plain::<C>(c) == 0;
            }
        }
        false
    }

    /// This thread's shard found once for the batch (made if it has none), its cells a
    /// slice held for every value.
    fn record_batch(&self, values: &[u64], path: BatchPath) {
        let Some(base) = self.attach() else {
            return record_batch_by_slot(self, values, path);
        };
        // SAFETY: `attach` returns this histogram's shard of this thread: `shape.len()`
        // cells of `C::Atomic`, kept alive by the registry until this thread lets it go (at
        // its exit) or the histogram is dropped (`&self`: it is not), both after this call.
        let cells =
            unsafe { core::slice::from_raw_parts(base.cast::<C::Atomic>(), self.shape.len()) };
        plain_batch::<_, C>(self, cells, values, path);
    }

    /// Outside the range, into a full bucket, or the first of this thread (or the first
    /// after another histogram's).
    #[inline(always)]
    fn record_declined(&self, v: u64) {
        self.record_slow(self.shape.slot(v, Log2::ANY_CPU).offset, v, 1);
    }

    fn record_n(&self, v: u64, n: u64) {
        LocalHistogram::record_n(self, v, n)
    }
    fn add_saturated(&self, n: u64) {
        LocalHistogram::add_saturated(self, n)
    }
    fn add_counts(&self, other: Counts<'_, '_>) -> Result<(), MergeError> {
        other.apply(|v| self.add(v), |v| self.add(v))
    }
    fn reset(&self) {
        LocalHistogram::reset(self)
    }
    fn direct_path(&self) -> DirectPath {
        match self.this_thread_cells() {
            Some(cells) => DirectPath::over::<C>(DirectKind::Plain, cells),
            None => DirectPath::CALL,
        }
    }
}

/// Queries sum the shards into a copy: nothing is read in place.
impl<C: AtomicCounter> RecordPath<C> for LocalHistogram<C> {}
