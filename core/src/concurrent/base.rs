//! What the concurrent histograms share: the configuration facts a record needs (`Meta`),
//! the underflow/overflow/saturated cells (`Outside`), and the seqlock-protected bucket
//! array (`SeqCounts`) behind the single-writer, interlocked and approximate modes.

use core::marker::PhantomData;

use super::cell::{AtomicCounter, Cell64, Version};
use crate::config::{Config, ConfigError, ValueSelection};
use crate::layout::Layout;
use crate::view::View;

/// Index of the underflow count in [`Outside`] and in `[u64; 3]` outside arrays.
pub(crate) const UNDER: usize = 0;
/// Index of the overflow count.
pub(crate) const OVER: usize = 1;
/// Index of the saturated count.
pub(crate) const SAT: usize = 2;

/// The validated configuration, in the form the record path and views use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meta {
    pub(crate) layout: Layout,
    pub(crate) first_index: usize,
    pub(crate) len: usize,
    pub(crate) min_trackable: u64,
    pub(crate) max_trackable: u64,
    pub(crate) selection: ValueSelection,
}

impl Meta {
    pub(crate) fn new(config: Config) -> Result<Self, ConfigError> {
        let layout = config.validate()?;
        Ok(Meta {
            layout,
            first_index: layout.index(config.min_trackable()),
            len: config.storage_len(),
            min_trackable: config.min_trackable(),
            max_trackable: config.max_trackable(),
            selection: config.value_selection(),
        })
    }

    /// Storage offset of `v`; `>= len` when `v` is outside the range (values below the
    /// first bucket wrap to huge offsets, so one compare catches both ends).
    #[inline(always)]
    pub(crate) fn offset(&self, v: u64) -> usize {
        self.layout.index(v).wrapping_sub(self.first_index)
    }

    /// Which outside count an out-of-range `v` belongs to.
    #[inline]
    pub(crate) fn outside_kind(&self, v: u64) -> usize {
        if v < self.min_trackable {
            UNDER
        } else {
            OVER
        }
    }

    pub(crate) fn config(&self) -> Config {
        Config::new()
            .with_relative_error(self.layout.relative_error())
            .with_range(self.min_trackable, self.max_trackable)
            .with_value_selection(self.selection)
    }

    pub(crate) fn check_len(&self, actual: usize) -> Result<(), ConfigError> {
        if actual == self.len {
            Ok(())
        } else {
            Err(ConfigError::StorageLength {
                expected: self.len,
                actual,
            })
        }
    }

    /// A view over counts copied into caller memory.
    pub(crate) fn view<'a, C>(
        &self,
        counts: &'a [C],
        outside: [u64; 3],
        resets: u64,
    ) -> View<'a, C> {
        View {
            layout: self.layout,
            first_index: self.first_index,
            counts,
            underflow: outside[UNDER],
            overflow: outside[OVER],
            saturated: outside[SAT],
            min_trackable: self.min_trackable,
            max_trackable: self.max_trackable,
            selection: self.selection,
            resets,
        }
    }
}

/// Underflow, overflow and saturated counts as 64-bit cells.
#[derive(Debug)]
pub(crate) struct Outside([Cell64; 3]);

impl Outside {
    pub(crate) fn new() -> Self {
        Outside([u64::new_cell(0), u64::new_cell(0), u64::new_cell(0)])
    }

    /// Interlocked add (writers may race).
    #[inline]
    pub(crate) fn add_atomic(&self, which: usize, n: u64) {
        u64::fetch_add(&self.0[which], n);
    }

    /// Load + store (one writer at a time).
    #[inline]
    pub(crate) fn add_plain(&self, which: usize, n: u64) {
        let c = &self.0[which];
        u64::store(c, u64::load(c).saturating_add(n));
    }

    /// Load + store subtraction (one writer at a time; the caller checked `n` fits).
    pub(crate) fn sub_plain(&self, which: usize, n: u64) {
        let c = &self.0[which];
        u64::store(c, u64::load(c).saturating_sub(n));
    }

    pub(crate) fn load(&self) -> [u64; 3] {
        [0, 1, 2].map(|i| u64::load(&self.0[i]))
    }

    /// Take every count, leaving zeros.
    pub(crate) fn take(&self) -> [u64; 3] {
        [0, 1, 2].map(|i| u64::swap(&self.0[i], 0))
    }
}

/// Add `n` to an atomic bucket, saturating at `C::MAX`; returns what did not fit.
pub(crate) fn add_n_atomic<C: AtomicCounter>(cell: &C::Atomic, n: u64) -> u64 {
    let mut old = C::load(cell);
    loop {
        let (sum, excess) = old.saturating_add_u64(n);
        if sum == old {
            return excess;
        }
        match C::compare_exchange(cell, old, sum) {
            Ok(_) => return excess,
            Err(seen) => old = seen,
        }
    }
}

/// Add `n` to a bucket with one writer, saturating; returns what did not fit.
#[inline]
pub(crate) fn add_n_plain<C: AtomicCounter>(cell: &C::Atomic, n: u64) -> u64 {
    let (sum, excess) = C::load(cell).saturating_add_u64(n);
    C::store(cell, sum);
    excess
}

/// Atomic buckets, outside counts and a seqlock version: the state of the single-writer,
/// interlocked and approximate histograms, which differ only in how they add to a cell.
pub(crate) struct SeqCounts<C: AtomicCounter, S> {
    pub(crate) meta: Meta,
    pub(crate) version: Version,
    pub(crate) outside: Outside,
    pub(crate) counts: S,
    _counter: PhantomData<C>,
}

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> SeqCounts<C, S> {
    /// Over `storage` (length `config.storage_len()`), which is zeroed.
    pub(crate) fn from_storage(config: Config, storage: S) -> Result<Self, ConfigError> {
        let meta = Meta::new(config)?;
        meta.check_len(storage.as_ref().len())?;
        for c in storage.as_ref() {
            C::store(c, C::ZERO);
        }
        Ok(SeqCounts {
            meta,
            version: Version::new(),
            outside: Outside::new(),
            counts: storage,
            _counter: PhantomData,
        })
    }

    /// The cell for `v`, `None` when `v` is outside the range.
    #[inline(always)]
    pub(crate) fn cell(&self, v: u64) -> Option<&C::Atomic> {
        self.counts.as_ref().get(self.meta.offset(v))
    }

    /// Count `n` occurrences of `v` with an atomic add, saturating like
    /// [`crate::Histogram::record_n`] (what did not fit goes to the saturated count).
    #[inline]
    pub(crate) fn record_n_atomic(&self, v: u64, n: u64) {
        match self.cell(v) {
            Some(c) => {
                let excess = add_n_atomic::<C>(c, n);
                if excess != 0 {
                    self.outside.add_atomic(SAT, excess);
                }
            }
            None => self.record_outside_atomic(v, n),
        }
    }

    /// Count `n` out-of-range occurrences of `v` as underflow or overflow (any thread).
    #[cold]
    pub(crate) fn record_outside_atomic(&self, v: u64, n: u64) {
        self.outside.add_atomic(self.meta.outside_kind(v), n);
    }

    /// Copy the counts into `scratch` with the seqlock protocol: the copy never mixes
    /// counts from before and after a reset. Each bucket is read once, at some moment of
    /// the pass; counts only grow between resets, so the copy is what a pause of the
    /// writers somewhere in the pass could have shown bucket by bucket.
    pub(crate) fn read_into<'a>(&self, scratch: &'a mut [C]) -> Result<View<'a, C>, ConfigError> {
        self.meta.check_len(scratch.len())?;
        let mut spins = 0;
        loop {
            let v = self.version.read_begin();
            for (dst, c) in scratch.iter_mut().zip(self.counts.as_ref()) {
                *dst = C::load(c);
            }
            let outside = self.outside.load();
            if self.version.read_validate(v) {
                let resets = self.version.resets(v);
                return Ok(self.meta.view(scratch, outside, resets));
            }
            super::cell::backoff(&mut spins);
        }
    }

    /// Take every count to zero (each bucket by an atomic swap, so a concurrent interlocked
    /// add lands either before the reset, and is cleared, or after, and is kept), inside
    /// the seqlock's write section so readers retry instead of seeing a half-cleared copy.
    pub(crate) fn reset(&self) {
        let odd = self.version.write_begin();
        for c in self.counts.as_ref() {
            C::swap(c, C::ZERO);
        }
        self.outside.take();
        self.version.write_end(odd);
    }

    /// Completed resets so far (wrapping).
    pub(crate) fn reset_count(&self) -> u64 {
        self.version.resets(self.version.read_begin())
    }

    /// Bytes of counters.
    pub(crate) fn footprint(&self) -> usize {
        self.meta.len * C::BYTES
    }
}
