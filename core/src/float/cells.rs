//! The counters of one sign of a floating-point histogram: dense (one array for the range)
//! or sparse (one block per octave, allocated when a value first lands in it).

use alloc::boxed::Box;
use core::sync::atomic::{AtomicPtr, Ordering};

use super::config::{FloatShape, Storage};
use crate::concurrent::AtomicCounter;
use crate::oom::OutOfMemory;

/// The counters of one sign: storage offsets `0..shape.len()`.
pub(crate) struct Cells<C: AtomicCounter> {
    shape: FloatShape,
    kind: Kind<C>,
}

enum Kind<C: AtomicCounter> {
    Dense(Box<[C::Atomic]>),
    /// Per block (octave) of the range: null until first touched, then the first of
    /// `shape.block_offsets(b).len()` cells from a leaked `Box<[C::Atomic]>`, freed on drop.
    Sparse(Box<[AtomicPtr<C::Atomic>]>),
}

impl<C: AtomicCounter> Cells<C> {
    pub(crate) fn new(shape: FloatShape) -> Result<Self, OutOfMemory> {
        let kind = match shape.config().storage() {
            Storage::Dense => Kind::Dense(crate::concurrent::zeroed_cells::<C>(shape.len())?),
            Storage::Sparse => Kind::Sparse(
                crate::oom::try_vec(shape.blocks(), || AtomicPtr::new(core::ptr::null_mut()))?
                    .into_boxed_slice(),
            ),
        };
        Ok(Cells { shape, kind })
    }

    /// The cell of storage offset `offset < len`, if it exists (a sparse block not yet
    /// touched has none: its counts are zero).
    #[inline(always)]
    pub(crate) fn get(&self, offset: usize) -> Option<&C::Atomic> {
        match &self.kind {
            Kind::Dense(cells) => cells.get(offset),
            Kind::Sparse(blocks) => {
                let block = self.shape.block_of(offset);
                let p = blocks.get(block)?.load(Ordering::Acquire);
                if p.is_null() {
                    return None;
                }
                let start = self.shape.block_offsets(block).start;
                // SAFETY: a non-null block pointer is the first of `block_offsets(block)
                // .len()` cells (published with Release after they were made), alive until
                // `self` is dropped; `offset` is in that block, so `offset - start` is
                // inside it.
                Some(unsafe { &*p.add(offset - start) })
            }
        }
    }

    /// The cell of storage offset `offset < len`, allocating its block on first touch
    /// (sparse; a compare-and-swap decides between threads that race to allocate it, the
    /// loser frees its copy). `None` only when the block cannot be allocated.
    #[inline(always)]
    pub(crate) fn get_or_make(&self, offset: usize) -> Option<&C::Atomic> {
        match &self.kind {
            Kind::Dense(cells) => cells.get(offset),
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
        let block = self.shape.block_of(offset);
        let range = self.shape.block_offsets(block);
        let cells = crate::concurrent::zeroed_cells::<C>(range.len()).ok()?;
        let fresh = Box::into_raw(cells) as *mut C::Atomic;
        let slot = blocks.get(block)?;
        let p = match slot.compare_exchange(
            core::ptr::null_mut(),
            fresh,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => fresh,
            Err(winner) => {
                // SAFETY: `fresh` came from `Box::into_raw` of a box of `range.len()` cells
                // just above and was never published.
                drop(unsafe {
                    Box::from_raw(core::ptr::slice_from_raw_parts_mut(fresh, range.len()))
                });
                winner
            }
        };
        // SAFETY: as in `get`: `p` is the block's published first cell.
        Some(unsafe { &*p.add(offset - range.start) })
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
                        let range = self.shape.block_offsets(block);
                        // SAFETY: as in `get`: the block's `range.len()` published cells.
                        f(range.start, unsafe {
                            core::slice::from_raw_parts(p, range.len())
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
                        let range = self.shape.block_offsets(block);
                        // SAFETY: as in `get`.
                        f(range.start, unsafe {
                            core::slice::from_raw_parts(p, range.len())
                        });
                    }
                }
            }
        }
    }

    /// Bytes of counters allocated now.
    pub(crate) fn footprint(&self) -> usize {
        let mut cells = 0;
        self.for_each_run(|_, run| cells += run.len());
        let directory = match &self.kind {
            Kind::Dense(_) => 0,
            Kind::Sparse(blocks) => blocks.len() * core::mem::size_of::<AtomicPtr<C::Atomic>>(),
        };
        cells * C::BYTES + directory
    }
}

impl<C: AtomicCounter> Drop for Cells<C> {
    fn drop(&mut self) {
        if let Kind::Sparse(blocks) = &mut self.kind {
            for (block, slot) in blocks.iter_mut().enumerate() {
                let p = *slot.get_mut();
                if !p.is_null() {
                    let len = self.shape.block_offsets(block).len();
                    // SAFETY: a published block: from `Box::into_raw` of `len` cells in
                    // `make_block`, freed only here, once (`&mut self`: no other user).
                    drop(unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(p, len)) });
                }
            }
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
        assert_eq!(
            sparse.footprint(),
            shape.blocks() * core::mem::size_of::<usize>()
        );
        let offset = shape.offset_of_bits(1.5f64.to_bits()).unwrap();
        assert!(sparse.get(offset).is_none());
        let c = sparse.get_or_make(offset).unwrap();
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
        assert_eq!(dense.footprint(), dense_shape.len() * 8);
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
                        u64::fetch_add(cells.get_or_make(offset).unwrap(), 1);
                    }
                });
            }
        });
        assert_eq!(cells.get(offset).map(u64::load), Some(4000));
    }
}
