//! The single writer's common path, one value ([`FloatHistogram::record`]) or a batch of
//! them ([`FloatHistogram::record_many`]): where a gated magnitude's count and exact sum
//! are, and the batch's sink of tickets ([`crate::batch::float`]).

use super::{FloatHistogram, CHUNK};
use crate::batch::float::OUTSIDE;
use crate::batch::{Fold, Sink};
use crate::concurrent::{increment_plain, AtomicCounter, Cell64};
use core::sync::atomic::{AtomicPtr, Ordering};

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
    /// whether `dense` is null.
    ///
    /// # Safety
    /// The magnitude was in this sign's gate; `mask` is the histogram shape's
    /// [`crate::float::FloatShape::normal_mask`].
    #[inline(always)]
    pub(super) unsafe fn add(&self, bits: u64, key: usize, mask: usize, sparse: bool) -> bool {
        // The biased exponent: the octave's block and the slot of its sum.
        let e = ((bits >> 52) & 0x7FF) as usize;
        let (cell, lo) = if sparse {
            // SAFETY: a magnitude in the gate is normal and in the range, so the slot
            // of its exponent is in the block directory (`sparse_biased_blocks`).
            let block = unsafe { &*self.blocks.wrapping_add(e) }.load(Ordering::Acquire);
            if block.is_null() {
                return false;
            }
            // SAFETY: the chunk directory covers every exponent; a block is published
            // after its exponent's chunk of sums (`Cells::make_block`), and the Acquire
            // load above makes that chunk visible: it is made, `2·CHUNK` words alive as
            // long as the cells. A made block is the octave's `buckets_per_octave`
            // cells, published with Release after they were made; the place is below
            // that.
            unsafe {
                let chunk = (*self.sum_chunks.add(e / CHUNK)).load(Ordering::Relaxed);
                debug_assert!(!chunk.is_null());
                (
                    &*block.add(key & mask),
                    chunk.add(2 * (e % CHUNK)) as *const Cell64,
                )
            }
        } else {
            // SAFETY: a magnitude in the gate is normal and in the range, so its storage
            // offset is below `shape.len()`, the dense cells' length, and this is that
            // offset's cell (see `Side::dense`).
            (
                unsafe { &*self.dense.wrapping_add(key) },
                self.sums.wrapping_add(2 * e),
            )
        };
        if increment_plain::<C>(cell) == 0 {
            // SAFETY: `lo` is the slot of the magnitude's exponent in the sign's sums
            // (flat sums cover the range's exponents).
            unsafe { crate::float::octaves::add_significand(lo, bits) };
            return true;
        }
        false
    }
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
    /// reach stay in registers. The order does not change a count: the general path's only
    /// effects the common one reads are blocks made (a value whose block was missing is
    /// left, as its later neighbours in that block are) and full cells (likewise), and the
    /// sums and extremes are exact, in any order.
    #[inline(always)]
    fn add(&mut self, values: &[f64], tickets: &[u64]) {
        // Copies in registers: the adds' stores cannot change them.
        let (dense, blocks, mask) = (self.dense, self.blocks, self.mask);
        let (sums, sum_chunks) = (self.sums, self.sum_chunks);
        for (values, tickets) in values.chunks(64).zip(tickets.chunks(64)) {
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
                if t == OUTSIDE || !unsafe { side.add(x.to_bits(), key, mask, SPARSE) } {
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

#[cfg(test)]
mod tests {
    use crate::batch::BatchPath;
    use crate::float::{FloatConfig, FloatHistogram, Side, Storage};
    use alloc::vec::Vec;

    type Seen = (Vec<(bool, usize, u64)>, u64, u64, Option<f64>, Option<f64>);

    fn seen(h: &FloatHistogram<u32>) -> Seen {
        let c = h.counts().unwrap();
        let buckets = c.buckets();
        let buckets = buckets.map(|b| (b.side == Side::Negative, b.index, b.count));
        let (sum, total) = (c.sum().to_bits(), c.total_count());
        (buckets.collect(), sum, total, c.min(), c.max())
    }

    /// Small enough for Miri (the portable path): 300 values over a few octaves of both
    /// signs, zeros, NaN and values outside the range among them, across two chunks and
    /// ragged parts, into fresh histograms of both storages and into ones already holding
    /// values: the batch as `record` of each value.
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
        for storage in [Storage::Dense, Storage::Sparse] {
            let config = FloatConfig::new()
                .with_relative_error(0.2)
                .with_range(0.5, 1e11)
                .with_storage(storage);
            for before in [&[][..], &[2.0, -3.0][..]] {
                let start = || {
                    let h = FloatHistogram::<u32>::new(config).unwrap();
                    before.iter().for_each(|&x| h.record(x));
                    h
                };
                let (want, got) = (start(), start());
                values.iter().for_each(|&x| want.record(x));
                got.record_many_on(BatchPath::Portable, &values);
                assert!(seen(&got) == seen(&want), "{storage:?} {before:?}");
            }
        }
    }
}
