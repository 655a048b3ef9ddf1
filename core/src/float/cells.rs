//! The counters of one sign of a floating-point histogram: dense (one array for the range)
//! or sparse (one block per octave, allocated when a value first lands in it).

use alloc::boxed::Box;

use super::config::{FloatShape, Storage};
use crate::concurrent::{AtomicCounter, CellStore, SparseCells};
use crate::oom::OutOfMemory;

/// The counters of one sign: storage offsets `0..shape.len()`.
pub(crate) enum Cells<C: AtomicCounter> {
    Dense(Box<[C::Atomic]>),
    /// One block per octave (aligned to the octave, so a cell's place is the low bits of
    /// its bucket index).
    Sparse(SparseCells<C>),
}

impl<C: AtomicCounter> Cells<C> {
    pub(crate) fn new(shape: FloatShape) -> Result<Self, OutOfMemory> {
        Ok(match shape.config().storage() {
            Storage::Dense => Cells::Dense(crate::concurrent::zeroed_cells::<C>(shape.len())?),
            Storage::Sparse => Cells::Sparse(SparseCells::with_geometry(
                shape.first_index(),
                shape.len(),
                shape.layout().scale(),
            )?),
        })
    }

    /// The cell of storage offset `offset < len`, if it exists (a sparse block not yet
    /// touched has none: its counts are zero).
    #[cfg(test)]
    pub(crate) fn get(&self, offset: usize) -> Option<&C::Atomic> {
        match self {
            Cells::Dense(cells) => cells.get(offset),
            Cells::Sparse(blocks) => blocks.existing_cell(offset),
        }
    }

    /// The cell of storage offset `offset`, allocating its sparse block on first touch.
    /// `None` only when the block cannot be allocated.
    ///
    /// # Safety
    /// `offset < shape.len()` (as `FloatShape::offset_of_bits` gives): the range test the
    /// caller made is not repeated for dense storage.
    #[inline(always)]
    pub(crate) unsafe fn get_or_make(&self, offset: usize) -> Option<&C::Atomic> {
        match self {
            Cells::Dense(cells) => {
                debug_assert!(offset < cells.len());
                // SAFETY: `offset < shape.len()` (the caller's promise), the length of the
                // dense cells (`Cells::new`).
                Some(unsafe { cells.get_unchecked(offset) })
            }
            Cells::Sparse(blocks) => blocks.get_or_make(offset),
        }
    }

    /// Each run of cells that exists, with the storage offset of its first cell, in
    /// storage order.
    pub(crate) fn for_each_run(&self, mut f: impl FnMut(usize, &[C::Atomic])) {
        match self {
            Cells::Dense(cells) => f(0, cells),
            Cells::Sparse(blocks) => blocks.for_each_run(&mut f),
        }
    }

    /// The same runs from the highest storage offset down (for the negative side, whose
    /// values fall as their magnitudes rise).
    pub(crate) fn for_each_run_rev(&self, mut f: impl FnMut(usize, &[C::Atomic])) {
        match self {
            Cells::Dense(cells) => f(0, cells),
            Cells::Sparse(blocks) => blocks.for_each_run_rev(&mut f),
        }
    }

    /// Bytes of counters allocated now (and of the block directory).
    pub(crate) fn footprint(&self) -> usize {
        match self {
            Cells::Dense(cells) => cells.len() * C::BYTES,
            Cells::Sparse(blocks) => blocks.footprint(),
        }
    }
}

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
        // The block directory only: one pointer per octave of the range.
        assert_eq!(
            sparse.footprint(),
            shape.blocks() * core::mem::size_of::<usize>()
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
                        // SAFETY: an offset from `offset_of_bits`.
                        u64::fetch_add(unsafe { cells.get_or_make(offset) }.unwrap(), 1);
                    }
                });
            }
        });
        assert_eq!(cells.get(offset).map(u64::load), Some(4000));
    }
}
