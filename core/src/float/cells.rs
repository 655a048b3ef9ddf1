//! The counters of one sign of a floating-point histogram: dense (one array for the range)
//! or sparse (one block per octave, allocated when a value first lands in it).

use core::sync::atomic::{AtomicPtr, Ordering};

use super::config::{FloatShape, Writers};
use super::octaves::{OctaveSums, SumStorage};
use crate::concurrent::{free_blocks, publish_block, AtomicCounter, RawSlice, Storage};
use crate::oom::OutOfMemory;

/// The counters of one sign: storage offsets `0..shape.len()`; and the single writer's
/// exact sum of the values counted in them.
pub(crate) struct Cells<C: AtomicCounter> {
    shape: FloatShape,
    kind: Kind<C>,
    sums: OctaveSums,
}

enum Kind<C: AtomicCounter> {
    Dense(RawSlice<C::Atomic>),
    /// Per octave of the range: null until first touched, then the first of the octave's
    /// `buckets_per_octave` cells (the whole octave, even where the range begins or ends
    /// inside it, so a cell's place is the low bits of its bucket index) from a leaked
    /// `Box<[C::Atomic]>`, freed on drop.
    Sparse(RawSlice<AtomicPtr<C::Atomic>>),
}

/// The single writer keeps exact sums, flat beside dense counters and in chunks made on
/// first use beside sparse ones; the interlocked mode keeps none (its sum is striped).
fn sum_storage(shape: FloatShape) -> SumStorage {
    match (shape.writers(), shape.config().storage()) {
        (Writers::Many, _) => SumStorage::None,
        (Writers::One, Storage::Dense) => SumStorage::Flat,
        (Writers::One, Storage::Sparse) => SumStorage::Chunked,
    }
}

impl<C: AtomicCounter> Cells<C> {
    pub(crate) fn new(shape: FloatShape) -> Result<Self, OutOfMemory> {
        let kind = match shape.config().storage() {
            Storage::Dense => Kind::Dense(RawSlice::new(crate::concurrent::zeroed_cells::<C>(
                shape.len(),
            )?)),
            Storage::Sparse => Kind::Sparse(RawSlice::new(
                crate::oom::try_vec(shape.blocks(), || AtomicPtr::new(core::ptr::null_mut()))?
                    .into_boxed_slice(),
            )),
        };
        let (low, high) = shape.range();
        Ok(Cells {
            shape,
            kind,
            sums: OctaveSums::new(low, high, sum_storage(shape))?,
        })
    }

    /// The single writer's exact sum of this sign's values.
    #[inline(always)]
    pub(crate) fn sums(&self) -> &OctaveSums {
        &self.sums
    }

    /// The cell of storage offset `offset < len`, if it exists (a sparse block not yet
    /// touched has none: its counts are zero).
    #[inline(always)]
    pub(crate) fn get(&self, offset: usize) -> Option<&C::Atomic> {
        match &self.kind {
            Kind::Dense(cells) => cells.get(offset),
            Kind::Sparse(blocks) => {
                let (block, within) = self.place(offset);
                let p = blocks.get(block)?.load(Ordering::Acquire);
                if p.is_null() {
                    return None;
                }
                // SAFETY: a non-null block pointer is the first of `buckets_per_octave`
                // cells (published with Release after they were made), alive until `self`
                // is dropped; `within` is below `buckets_per_octave`.
                Some(unsafe { &*p.add(within) })
            }
        }
    }

    /// Sparse storage: where the record finds a normal magnitude's block pointer, at this
    /// plus its biased exponent (wrapping arithmetic: the pointer itself may lie outside
    /// the directory); null for dense storage. A normal magnitude's bucket index shifted
    /// by the scale is its biased exponent plus 52 (`FloatLayout::index`), whose block is
    /// that less the first bucket's octave.
    pub(crate) fn sparse_biased_blocks(&self) -> *const AtomicPtr<C::Atomic> {
        match &self.kind {
            Kind::Dense(_) => core::ptr::null(),
            Kind::Sparse(blocks) => blocks
                .as_ptr()
                .wrapping_add(52)
                .wrapping_sub(self.shape.first_index() >> self.shape.layout().scale()),
        }
    }

    /// The first dense cell, or null for sparse storage (the record's path reads it).
    pub(crate) fn dense_ptr(&self) -> *const C::Atomic {
        match &self.kind {
            Kind::Dense(cells) => cells.as_ptr(),
            Kind::Sparse(_) => core::ptr::null(),
        }
    }

    /// The block (octave of the range) and the place in it of storage offset `offset`.
    #[inline(always)]
    fn place(&self, offset: usize) -> (usize, usize) {
        let layout = self.shape.layout();
        let index = self.shape.first_index() + offset;
        let block = (index >> layout.scale()) - (self.shape.first_index() >> layout.scale());
        (block, index & (layout.buckets_per_octave() - 1))
    }

    /// The cell of storage offset `offset`, allocating its block on first touch (sparse;
    /// a compare-and-swap decides between threads that race to allocate it, the loser
    /// frees its copy). `None` only when the block cannot be allocated.
    ///
    /// # Safety
    /// `offset < shape.len()` (as `FloatShape::offset_of_bits` gives): the range test the
    /// caller made is not repeated here.
    #[inline(always)]
    pub(crate) unsafe fn get_or_make(&self, offset: usize) -> Option<&C::Atomic> {
        debug_assert!(offset < self.shape.len());
        match &self.kind {
            Kind::Dense(cells) => {
                // SAFETY: `offset < shape.len()` (the caller's promise), the length of the
                // dense cells (`Cells::new`).
                Some(unsafe { cells.get_unchecked(offset) })
            }
            Kind::Sparse(_) => match self.get(offset) {
                Some(c) => Some(c),
                None => self.make_block(offset),
            },
        }
    }

    #[cold]
    #[inline(never)]
    fn make_block(&self, offset: usize) -> Option<&C::Atomic> {
        let Kind::Sparse(blocks) = &self.kind else {
            return None;
        };
        let (block, within) = self.place(offset);
        let size = self.shape.layout().buckets_per_octave();
        // The octave's exact-sum words first (chunked sums), so that a record finding the
        // block made (Acquire) finds them made too.
        let octave = (self.shape.first_index() + offset) >> self.shape.layout().scale();
        if !self.sums.make_for(octave.saturating_sub(52) as u64) {
            return None;
        }
        let p = publish_block::<C>(blocks.get(block)?, size)?;
        // SAFETY: as in `get`: `p` is the block's published first cell of `size`, and
        // `within` is below that.
        Some(unsafe { &*p.add(within) })
    }

    /// Where a block's cells meet the range: the storage offset of its first cell in the
    /// range, how many of its cells come before that, and how many lie in the range.
    fn block_span(&self, block: usize) -> (usize, usize, usize) {
        let layout = self.shape.layout();
        let first = self.shape.first_index();
        let octave_start = ((first >> layout.scale()) + block) << layout.scale();
        let start = octave_start.max(first);
        let end = (octave_start + layout.buckets_per_octave()).min(first + self.shape.len());
        (start - first, start - octave_start, end - start)
    }

    /// Each run of cells that exists, with the storage offset of its first cell, in
    /// storage order.
    pub(crate) fn for_each_run(&self, mut f: impl FnMut(usize, &[C::Atomic])) {
        match &self.kind {
            Kind::Dense(cells) => f(0, cells),
            Kind::Sparse(blocks) => {
                for (block, slot) in blocks.iter().enumerate() {
                    let p = slot.load(Ordering::Acquire);
                    if !p.is_null() {
                        let (start, skip, len) = self.block_span(block);
                        // SAFETY: as in `get`: the block's published cells, of which
                        // `skip..skip + len` lie in the range.
                        f(start, unsafe {
                            core::slice::from_raw_parts(p.add(skip), len)
                        });
                    }
                }
            }
        }
    }

    /// The same runs from the highest storage offset down (for the negative side, whose
    /// values fall as their magnitudes rise).
    pub(crate) fn for_each_run_rev(&self, mut f: impl FnMut(usize, &[C::Atomic])) {
        match &self.kind {
            Kind::Dense(cells) => f(0, cells),
            Kind::Sparse(blocks) => {
                for (block, slot) in blocks.iter().enumerate().rev() {
                    let p = slot.load(Ordering::Acquire);
                    if !p.is_null() {
                        let (start, skip, len) = self.block_span(block);
                        // SAFETY: as in `for_each_run`.
                        f(start, unsafe {
                            core::slice::from_raw_parts(p.add(skip), len)
                        });
                    }
                }
            }
        }
    }

    /// Bytes of counters allocated now (and of the block directory and the sums).
    pub(crate) fn footprint(&self) -> usize {
        self.sums.footprint()
            + match &self.kind {
                Kind::Dense(cells) => cells.len() * C::BYTES,
                Kind::Sparse(blocks) => {
                    let size = self.shape.layout().buckets_per_octave();
                    let made = blocks
                        .iter()
                        .filter(|p| !p.load(Ordering::Relaxed).is_null())
                        .count();
                    made * size * C::BYTES
                        + blocks.len() * core::mem::size_of::<AtomicPtr<C::Atomic>>()
                }
            }
    }
}

impl<C: AtomicCounter> Drop for Cells<C> {
    fn drop(&mut self) {
        let size = self.shape.layout().buckets_per_octave();
        if let Kind::Sparse(blocks) = &mut self.kind {
            // SAFETY: every block was published by `publish_block` with
            // `buckets_per_octave` cells; `&mut self`: no other user, the only free.
            unsafe { free_blocks::<C>(blocks, size) };
        }
    }
}

// SAFETY: the cells are atomics and the block pointers `AtomicPtr`s: sharing them between
// threads is what they are for; the blocks are owned by `Cells` and freed only by `drop`.
unsafe impl<C: AtomicCounter> Send for Cells<C> {}
// SAFETY: as above.
unsafe impl<C: AtomicCounter> Sync for Cells<C> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FloatConfig;

    #[test]
    fn sparse_blocks_appear_on_first_touch_and_dense_ones_are_there() {
        let shape = FloatConfig::new()
            .with_relative_error(0.01)
            .validate()
            .unwrap();
        let sparse = Cells::<u32>::new(shape).unwrap();
        let sums = sparse.sums().footprint();
        assert!(sums > 0 && sums <= 2 * 2047 * 8, "{sums}");
        assert_eq!(
            sparse.footprint(),
            shape.blocks() * core::mem::size_of::<usize>() + sums
        );
        let offset = shape.offset_of_bits(1.5f64.to_bits()).unwrap();
        assert!(sparse.get(offset).is_none());
        // SAFETY: an offset from `offset_of_bits`.
        let c = unsafe { sparse.get_or_make(offset) }.unwrap();
        u32::store(c, 7);
        assert_eq!(sparse.get(offset).map(u32::load), Some(7));
        let mut runs = 0;
        sparse.for_each_run(|start, run| {
            runs += 1;
            assert!(start <= offset && offset < start + run.len());
        });
        assert_eq!(runs, 1);
        let dense_shape = FloatConfig::new()
            .with_range(1e-3, 1e3)
            .with_storage(Storage::Dense)
            .validate()
            .unwrap();
        let dense = Cells::<u64>::new(dense_shape).unwrap();
        assert_eq!(
            dense.footprint(),
            dense_shape.len() * 8 + dense.sums().footprint()
        );
        assert!(dense.get(0).is_some());
    }

    #[cfg(feature = "std")]
    #[test]
    fn threads_racing_for_a_block_share_the_winners() {
        let shape = FloatConfig::new().validate().unwrap();
        let cells = Cells::<u64>::new(shape).unwrap();
        let offset = shape.offset_of_bits(3.0f64.to_bits()).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        // SAFETY: an offset from `offset_of_bits`.
                        u64::fetch_add(unsafe { cells.get_or_make(offset) }.unwrap(), 1);
                    }
                });
            }
        });
        assert_eq!(cells.get(offset).map(u64::load), Some(4000));
    }
}
