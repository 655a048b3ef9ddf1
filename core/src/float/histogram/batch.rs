//! The single writer's common path, one value ([`FloatHistogram::record`]) or a batch of
//! them ([`FloatHistogram::record_many`]): where a gated magnitude's count and exact sum
//! are, and the batch's sinks of tickets ([`crate::batch::float`]), the single writer's and
//! the interlocked mode's.

use super::{FloatHistogram, CHUNK};
use crate::batch::float::OUTSIDE;
use crate::batch::{Fold, Sink};
use crate::concurrent::{increment_atomic, increment_plain, AtomicCounter, Cell64};
use core::sync::atomic::{AtomicPtr, Ordering};

/// The values a batch sink takes on its common path before it gives those it left to the
/// general path (their marks fill one word).
const WORD: usize = 64;

/// A sign's storage as the common path reaches it: pointers into the histogram's own
/// [`super::Cells`], fixed for its life.
pub(super) struct Side<C: AtomicCounter> {
    /// The sign's first dense cell less `shape.normal_base()` cells, so that a normal
    /// magnitude's cell is at this plus `shape.shifted_normal(bits)` (wrapping arithmetic:
    /// the pointer itself may lie outside the cells); null when sparse.
    pub(super) dense: *const C::Atomic,
    /// The sign's [`super::Cells::sparse_biased_blocks`] (null when dense).
    blocks: *const AtomicPtr<C::Atomic>,
    /// The sign's exact sums: [`crate::float::octaves::OctaveSums::flat_biased_base`]
    /// beside dense cells, [`crate::float::octaves::OctaveSums::chunk_directory`] beside
    /// sparse ones (null in the interlocked mode, whose gates stay empty).
    sums: *const Cell64,
    sum_chunks: *const AtomicPtr<Cell64>,
}

impl<C: AtomicCounter> Clone for Side<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: AtomicCounter> Copy for Side<C> {}

// SAFETY: the pointers are into the heap storage of the histogram's own `Cells` (atomics,
// `Send` and `Sync`), alive and unmoved as long as the histogram.
unsafe impl<C: AtomicCounter> Send for Side<C> {}
// SAFETY: as above.
unsafe impl<C: AtomicCounter> Sync for Side<C> {}

impl<C: AtomicCounter> Side<C> {
    pub(super) fn new(cells: &super::Cells<C>, shape: crate::float::FloatShape) -> Self {
        let dense = cells.dense_ptr();
        Side {
            dense: if dense.is_null() {
                dense
            } else {
                dense.wrapping_add(shape.normal_base())
            },
            blocks: cells.sparse_biased_blocks(),
            sums: cells.sums().flat_biased_base(),
            sum_chunks: cells.sums().chunk_directory(),
        }
    }

    /// Count a value of bits `bits` whose magnitude lay in this sign's gate (now or at any
    /// earlier moment: a gate only ever holds normal magnitudes of the range), `key` its
    /// shifted magnitude (`shape.shifted_normal`): true when counted, false (nothing
    /// changed) for the general path (a block not made yet, a full cell). `sparse` says
    /// whether `dense` is null. `ROOM`: a batch's, which also leaves a cell within a
    /// [`WORD`] of full to the general path: then a bucket that fills within a word gets all
    /// of that word's values there, in their order, and keeps the values `record` keeps
    /// (the first ones; which ones the extremes and the sum see), not the common path's.
    ///
    /// # Safety
    /// The magnitude was in this sign's gate; `mask` is the histogram shape's
    /// [`crate::float::FloatShape::normal_mask`].
    #[inline(always)]
    pub(super) unsafe fn add<const ROOM: bool>(
        &self,
        bits: u64,
        key: usize,
        mask: usize,
        sparse: bool,
    ) -> bool {
        // The biased exponent: the octave's block and the slot of its sum.
        let e = ((bits >> 52) & 0x7FF) as usize;
        // SAFETY: this function's contract.
        let Some(cell) = (unsafe { self.cell(e, key, mask, sparse) }) else {
            return false;
        };
        let lo = if sparse {
            // SAFETY: the chunk directory covers every exponent; a block is published
            // after its exponent's chunk of sums (`Cells::make_block`), and `cell`'s
            // Acquire load of the block makes that chunk visible: it is made, `2·CHUNK`
            // words alive as long as the cells.
            unsafe {
                let chunk = (*self.sum_chunks.add(e / CHUNK)).load(Ordering::Relaxed);
                debug_assert!(!chunk.is_null());
                chunk.add(2 * (e % CHUNK)) as *const Cell64
            }
        } else {
            self.sums.wrapping_add(2 * e)
        };
        if increment::<C, ROOM>(cell) {
            // SAFETY: `lo` is the slot of the magnitude's exponent in the sign's sums
            // (flat sums cover the range's exponents).
            unsafe { crate::float::octaves::add_significand(lo, bits) };
            return true;
        }
        false
    }

    /// The cell of a normal magnitude of the range with biased exponent `e` and shifted
    /// magnitude `key` (`shape.shifted_normal`); `None` where its sparse block is not made
    /// yet (loaded with Acquire). `sparse` says whether `dense` is null.
    ///
    /// # Safety
    /// The magnitude is normal and in the range; `mask` is the histogram shape's
    /// [`crate::float::FloatShape::normal_mask`]. The cell lives as long as the histogram.
    #[inline(always)]
    unsafe fn cell<'c>(
        &self,
        e: usize,
        key: usize,
        mask: usize,
        sparse: bool,
    ) -> Option<&'c C::Atomic> {
        if !sparse {
            // SAFETY: a normal magnitude of the range: its storage offset is below
            // `shape.len()`, the dense cells' length, and this is that offset's cell (see
            // `Side::dense`).
            return Some(unsafe { &*self.dense.wrapping_add(key) });
        }
        // SAFETY: the slot of a normal magnitude's exponent is in the block directory
        // (`sparse_biased_blocks`).
        let block = unsafe { &*self.blocks.wrapping_add(e) }.load(Ordering::Acquire);
        // SAFETY: a made block is the octave's `buckets_per_octave` cells, published with
        // Release after they were made; `key & mask` is below that.
        (!block.is_null()).then(|| unsafe { &*block.add(key & mask) })
    }
}

/// One increment of a single writer's cell: false (nothing changed) when it is full, or,
/// for a batch (`ROOM`, see [`Side::add`]), within a [`WORD`] of full.
#[inline(always)]
fn increment<C: AtomicCounter, const ROOM: bool>(cell: &C::Atomic) -> bool {
    if !ROOM {
        return increment_plain::<C>(cell) == 0;
    }
    let count = C::load(cell);
    let room = count.to_u64() <= C::MAX.to_u64() - WORD as u64;
    if room {
        C::store(cell, count.increment());
    }
    room
}

/// The single writer's batch sink: each value with its ticket, counted by the sign's
/// [`Side`] (held for the batch) or, outside the gate or refused there, the general path.
/// `SPARSE`: the storage's kind, so that the loop has no branch on it.
pub(super) struct Gated<'a, C: AtomicCounter, const SPARSE: bool> {
    pub(super) h: &'a FloatHistogram<C>,
    /// Per sign (positive, negative): its [`Side`]'s pointers, each field an array so that
    /// the sign bit indexes it with no arithmetic.
    pub(super) dense: [*const C::Atomic; 2],
    pub(super) blocks: [*const AtomicPtr<C::Atomic>; 2],
    pub(super) sums: [*const Cell64; 2],
    pub(super) sum_chunks: [*const AtomicPtr<Cell64>; 2],
    /// The shape's [`crate::float::FloatShape::normal_mask`].
    pub(super) mask: usize,
}

impl<'a, C: AtomicCounter, const SPARSE: bool> Gated<'a, C, SPARSE> {
    pub(super) fn new(h: &'a FloatHistogram<C>, sides: [Side<C>; 2], mask: usize) -> Self {
        Gated {
            h,
            dense: sides.map(|s| s.dense),
            blocks: sides.map(|s| s.blocks),
            sums: sides.map(|s| s.sums),
            sum_chunks: sides.map(|s| s.sum_chunks),
            mask,
        }
    }
}

impl<C: AtomicCounter, const SPARSE: bool> Sink<f64> for Gated<'_, C, SPARSE> {
    fn fold(&mut self, _: &Fold) {}

    /// The common path for each value first, the general path after for those it left
    /// (marked in a word): the loop over the values calls nothing, so the sides and the
    /// reach stay in registers. The order does not change a count, nor which values a
    /// bucket keeps: the general path's only effects the common one reads are blocks made
    /// (a value whose block was missing is left, as its later neighbours in that block are)
    /// and full cells (a bucket that could fill within the word is left whole, see
    /// [`Side::add`]), and the sums and extremes are exact, in any order.
    #[inline(always)]
    fn add(&mut self, values: &[f64], tickets: &[u64]) {
        // Copies in registers: the adds' stores cannot change them.
        let (dense, blocks, mask) = (self.dense, self.blocks, self.mask);
        let (sums, sum_chunks) = (self.sums, self.sum_chunks);
        for (values, tickets) in values.chunks(WORD).zip(tickets.chunks(WORD)) {
            let mut left = 0u64;
            for (i, (&x, &t)) in values.iter().zip(tickets).enumerate() {
                // The sign in bit 0 picks the side; the rest is the shifted magnitude.
                let s = (t & 1) as usize;
                let side = Side::<C> {
                    dense: dense[s],
                    blocks: blocks[s],
                    sums: sums[s],
                    sum_chunks: sum_chunks[s],
                };
                let key = (t >> 1) as usize;
                // SAFETY: a ticket other than `OUTSIDE` is of a magnitude in its sign's
                // gate (`crate::batch::float`), `key` its shifted magnitude; `mask` is the
                // shape's.
                if t == OUTSIDE || !unsafe { side.add::<true>(x.to_bits(), key, mask, SPARSE) } {
                    left |= 1 << i;
                }
            }
            while left != 0 {
                self.h
                    .record_general(values[left.trailing_zeros() as usize]);
                left &= left - 1;
            }
        }
    }
}

/// The interlocked batch sink: each value whose ticket is not [`OUTSIDE`] (its magnitude
/// normal and in the range: the interlocked batch's gate is fixed) counted by a `fetch_add`
/// in its cell, found as [`Gated`] finds it; the rest (outside, a sparse block not made yet)
/// on the general path. The sum and extremes of the values counted are gathered over each
/// part of values and added to the shared ones once a part (one compare-exchange for the
/// sum, not one a value): the sum rounds per part as the stripe's running sum would per
/// value, so it may differ from the per-value records' in its last bits.
pub(super) struct Shared<'a, C: AtomicCounter, const SPARSE: bool> {
    h: &'a FloatHistogram<C>,
    /// Per sign (positive, negative): its [`Side`]'s cells.
    dense: [*const C::Atomic; 2],
    blocks: [*const AtomicPtr<C::Atomic>; 2],
    /// The shape's [`crate::float::FloatShape::normal_mask`].
    mask: usize,
    /// The stripe of the sum this batch adds to.
    stripe: usize,
}

impl<'a, C: AtomicCounter, const SPARSE: bool> Shared<'a, C, SPARSE> {
    pub(super) fn new(
        h: &'a FloatHistogram<C>,
        sides: [Side<C>; 2],
        mask: usize,
        stripe: usize,
    ) -> Self {
        Shared {
            h,
            dense: sides.map(|s| s.dense),
            blocks: sides.map(|s| s.blocks),
            mask,
            stripe,
        }
    }

    /// The cell of a value of bits `bits` and ticket `t`: none for [`OUTSIDE`] or where its
    /// sparse block is not made yet.
    #[inline(always)]
    fn cell(&self, bits: u64, t: u64) -> Option<&'a C::Atomic> {
        if t == OUTSIDE {
            return None;
        }
        let s = (t & 1) as usize;
        let side = Side::<C> {
            dense: self.dense[s],
            blocks: self.blocks[s],
            sums: core::ptr::null(),
            sum_chunks: core::ptr::null(),
        };
        let e = ((bits >> 52) & 0x7FF) as usize;
        // SAFETY: a ticket other than `OUTSIDE` is of a normal magnitude of the range
        // (the interlocked batch's fixed gate), `t >> 1` its shifted magnitude; `mask` is
        // the shape's.
        unsafe { side.cell(e, (t >> 1) as usize, self.mask, SPARSE) }
    }
}

/// The sum and extremes of a part's counted values, not yet added to the shared ones.
struct Part {
    sum: f64,
    min: f64,
    max: f64,
}

impl<C: AtomicCounter, const SPARSE: bool> Sink<f64> for Shared<'_, C, SPARSE> {
    fn fold(&mut self, _: &Fold) {}

    /// As [`Gated`]'s: the common path for each value first, the general path after for
    /// those it left. A bucket keeps the values `record` keeps: a full one is settled in
    /// place, in order, and the values left share no bucket with the counted ones (zero,
    /// specials and magnitudes outside the range have none; subnormals' buckets hold no
    /// normal magnitude; a block not made yet leaves all its word's values).
    #[inline(always)]
    fn add(&mut self, values: &[f64], tickets: &[u64]) {
        let mut part = Part {
            sum: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        };
        for (values, tickets) in values.chunks(WORD).zip(tickets.chunks(WORD)) {
            let mut left = 0u64;
            for (i, (&x, &t)) in values.iter().zip(tickets).enumerate() {
                let Some(cell) = self.cell(x.to_bits(), t) else {
                    left |= 1 << i;
                    continue;
                };
                if !increment_atomic::<C>(cell) || self.h.settle_counted(cell) {
                    part.note(self.h, self.stripe, x);
                }
            }
            while left != 0 {
                self.h
                    .record_general(values[left.trailing_zeros() as usize]);
                left &= left - 1;
            }
        }
        if part.min <= part.max {
            self.h
                .track_shared(self.stripe, part.sum, 1, part.min, part.max);
        }
    }
}

impl Part {
    /// `x` (finite) counted; a sum that would overflow goes to the stripe first.
    #[inline(always)]
    fn note<C: AtomicCounter>(&mut self, h: &FloatHistogram<C>, stripe: usize, x: f64) {
        let sum = self.sum + x;
        if sum.is_finite() {
            self.sum = sum;
        } else {
            h.add_sum_shared(stripe, self.sum, 1);
            self.sum = x;
        }
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }
}

#[cfg(test)]
mod tests {
    use crate::batch::BatchPath;
    use crate::float::{FloatConfig, FloatHistogram, Mode, Side, Storage};
    use alloc::vec::Vec;

    type Seen = (Vec<(bool, usize, u64)>, u64, Option<f64>, Option<f64>);

    /// What the histograms must agree on, and the sum apart.
    fn seen(h: &FloatHistogram<u32>) -> (Seen, f64) {
        let c = h.counts().unwrap();
        let buckets = c.buckets();
        let buckets = buckets.map(|b| (b.side == Side::Negative, b.index, b.count));
        let total = c.total_count();
        ((buckets.collect(), total, c.min(), c.max()), c.sum())
    }

    /// Small enough for Miri (the portable path): 300 values over a few octaves of both
    /// signs, zeros, NaN and values outside the range among them, across two chunks and
    /// ragged parts, into fresh histograms of both storages and modes and into ones already
    /// holding values: the batch as `record` of each value. The single writer's sum is
    /// exact; the interlocked mode's rounds per part, not per value, so it lies within
    /// `k·ε·Σ|x|` of the records' (`k` terms).
    #[test]
    fn the_portable_batch_counts_as_record_does() {
        let values: Vec<f64> = (0..300)
            .map(|k| match k % 37 {
                0 => 0.0,
                1 => f64::NAN,
                2 => 1e12,
                _ => {
                    let x = 1.3f64.powi(k % 29) * (1.0 + k as f64 / 1024.0);
                    if k % 3 == 0 {
                        -x
                    } else {
                        x
                    }
                }
            })
            .collect();
        let modes = [Mode::SingleWriter, Mode::Interlocked];
        let scale: f64 = values
            .iter()
            .filter(|x| x.abs() < 1e11)
            .map(|x| x.abs())
            .sum();
        let slack = (values.len() + 2) as f64 * f64::EPSILON * (scale + 5.0);
        for (storage, mode) in [Storage::Dense, Storage::Sparse]
            .into_iter()
            .flat_map(|s| modes.map(|m| (s, m)))
        {
            let config = FloatConfig::new()
                .with_relative_error(0.2)
                .with_range(0.5, 1e11)
                .with_storage(storage)
                .with_mode(mode);
            for before in [&[][..], &[2.0, -3.0][..]] {
                let start = || {
                    let h = FloatHistogram::<u32>::new(config).unwrap();
                    before.iter().for_each(|&x| h.record(x));
                    h
                };
                let (want, got) = (start(), start());
                values.iter().for_each(|&x| want.record(x));
                got.record_many_on(BatchPath::Portable, &values);
                let ((got, sum), (want, want_sum)) = (seen(&got), seen(&want));
                assert!(got == want, "{storage:?} {mode:?} {before:?}");
                let exact = sum.to_bits() == want_sum.to_bits();
                let near = mode == Mode::Interlocked && (sum - want_sum).abs() <= slack;
                assert!(
                    exact || near,
                    "{storage:?} {mode:?} {before:?}: {sum} {want_sum}"
                );
            }
        }
    }
}
