//! Where a concurrent histogram keeps its cells: one dense array for the whole range, or
//! sparse blocks allocated when a value first lands in them.

#[cfg(feature = "alloc")]
use super::raw_slice::RawSlice;
#[cfg(feature = "alloc")]
use alloc::boxed::Box;
#[cfg(feature = "alloc")]
use core::sync::atomic::{AtomicPtr, Ordering};

use super::cell::AtomicCounter;
use crate::shape::Slot;

/// How a histogram keeps its counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Storage {
    /// One counter per bucket of the range, allocated up front: no allocation while
    /// recording, memory set by the range.
    #[default]
    Dense,
    /// Blocks of counters allocated when a value first lands in them (a compare-and-swap
    /// decides between threads racing to make one): memory follows the range of the data,
    /// not the configured range. Records into a block that exists cost a pointer load more
    /// than dense ones.
    Sparse,
}

/// The cells of a concurrent histogram, storage offsets `0..len()`: any dense array
/// (`AsRef<[C::Atomic]>`: a box, a borrowed slice, an array) or [`SparseCells`].
pub trait CellStore<C: AtomicCounter>: sealed::Sealed<C> {
    /// Number of storage offsets.
    fn cells_len(&self) -> usize;

    /// The cell of `offset`, if it exists: `None` past the end, and for a sparse block
    /// not yet made (its counts are zero).
    fn existing_cell(&self, offset: usize) -> Option<&C::Atomic>;

    /// The cell of `offset` for a record, making its sparse block on first touch. `None`
    /// past the end, or when the block cannot be allocated (the record then counts as
    /// saturated: nothing is lost).
    fn get_or_make(&self, offset: usize) -> Option<&C::Atomic>;

    /// The cell for a record in `slot` ([`crate::Shape::slot`]): as
    /// [`CellStore::get_or_make`] of its offset. A sparse store works from the slot's
    /// index alone (and its own first index): it finds the block from the index directly,
    /// and a wrong offset cannot make it reach outside its cells.
    #[inline(always)]
    fn get_or_make_slot(&self, slot: Slot) -> Option<&C::Atomic> {
        self.get_or_make(slot.offset)
    }

    /// As [`CellStore::existing_cell`] of the slot's offset (see
    /// [`CellStore::get_or_make_slot`]).
    #[inline(always)]
    fn existing_slot(&self, slot: Slot) -> Option<&C::Atomic> {
        self.existing_cell(slot.offset)
    }

    /// Check that these cells can hold the counts of `shape`: as many cells (and, for
    /// sparse cells, made for the same first bucket).
    fn fits(&self, shape: crate::Shape) -> Result<(), crate::config::ConfigError> {
        shape.check_len(self.cells_len())
    }

    /// Each run of cells that exists, with the storage offset of its first cell, in
    /// storage order (a dense store is one run).
    fn for_each_run(&self, f: &mut dyn FnMut(usize, &[C::Atomic]));

    /// The cells as one array, when they are one.
    fn as_dense(&self) -> Option<&[C::Atomic]>;

    /// Bytes of counters allocated now (a sparse store: its blocks and directory).
    fn footprint(&self) -> usize;

    /// The storage kind.
    fn storage(&self) -> Storage {
        if self.as_dense().is_some() {
            Storage::Dense
        } else {
            Storage::Sparse
        }
    }
}

pub(crate) mod sealed {
    pub trait Sealed<C> {}
}

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> sealed::Sealed<C> for S {}

impl<C: AtomicCounter, S: AsRef<[C::Atomic]>> CellStore<C> for S {
    #[inline(always)]
    fn cells_len(&self) -> usize {
        self.as_ref().len()
    }
    #[inline(always)]
    fn existing_cell(&self, offset: usize) -> Option<&C::Atomic> {
        self.as_ref().get(offset)
    }
    #[inline(always)]
    fn get_or_make(&self, offset: usize) -> Option<&C::Atomic> {
        self.as_ref().get(offset)
    }
    fn for_each_run(&self, f: &mut dyn FnMut(usize, &[C::Atomic])) {
        f(0, self.as_ref())
    }
    #[inline(always)]
    fn as_dense(&self) -> Option<&[C::Atomic]> {
        Some(self.as_ref())
    }
    fn footprint(&self) -> usize {
        self.as_ref().len() * C::BYTES
    }
}

/// Cells in blocks of `2^bits` consecutive buckets, aligned on the layout's logical
/// index (so a cell's place in its block is the low bits of its index), each allocated
/// when first touched. The directory of block pointers is made up front: one pointer per
/// block of the range.
#[cfg(feature = "alloc")]
pub struct SparseCells<C: AtomicCounter> {
    /// Per block: null until first touched, then the first of its `2^bits` cells (the
    /// whole block, even where the range begins or ends inside it) from a leaked
    /// `Box<[C::Atomic]>`, freed on drop.
    blocks: RawSlice<AtomicPtr<C::Atomic>>,
    /// The directory's first slot less `first_block` slots (wrapping: never dereferenced
    /// itself), so that the slot of logical index `i` is `biased + (i >> bits)`.
    biased: *const AtomicPtr<C::Atomic>,
    /// `2^bits - 1`: a cell's place in its block is `index & mask`.
    mask: usize,
    /// The logical index of storage offset 0.
    first: usize,
    /// The block of logical index `first` (`first >> bits`).
    first_block: usize,
    len: usize,
    bits: u32,
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> SparseCells<C> {
    /// Cells for storage offsets `0..len`, offset 0 being logical index `first`, in blocks
    /// of `2^bits` (at most 2^30).
    pub(crate) fn with_geometry(
        first: usize,
        len: usize,
        bits: u32,
    ) -> Result<Self, crate::OutOfMemory> {
        let bits = bits.min(30);
        let blocks = if len == 0 {
            0
        } else {
            ((first + len - 1) >> bits) - (first >> bits) + 1
        };
        let blocks = crate::oom::try_vec(blocks, || AtomicPtr::new(core::ptr::null_mut()))?
            .into_boxed_slice();
        let blocks = RawSlice::new(blocks);
        let biased = blocks.as_ptr().wrapping_sub(first >> bits);
        Ok(SparseCells {
            blocks,
            biased,
            mask: (1 << bits) - 1,
            first,
            first_block: first >> bits,
            len,
            bits,
        })
    }

    /// Sparse cells for an integer histogram of `shape`: blocks of the layout's block
    /// size, but at most 4,096 cells (an octave of a very fine layout would be megabytes).
    pub fn new(shape: crate::Shape) -> Result<Self, crate::OutOfMemory> {
        let bits = shape.layout().block_scale().min(12);
        Self::with_geometry(shape.first_index(), shape.len(), bits)
    }

    /// The slot of storage offset `offset` (its logical index is `first + offset`).
    #[inline(always)]
    fn slot_of(&self, offset: usize) -> Slot {
        Slot {
            index: self.first.wrapping_add(offset),
            offset,
        }
    }

    /// The block and the place in it of storage offset `offset`.
    #[inline(always)]
    fn place(&self, offset: usize) -> (usize, usize) {
        let index = self.first + offset;
        (
            (index >> self.bits) - self.first_block,
            index & ((1 << self.bits) - 1),
        )
    }

    /// The cell of logical index `index`, whose storage offset (`index - first`) is below
    /// `len`, if its block exists.
    #[inline(always)]
    fn get_at_index(&self, index: usize) -> Option<&C::Atomic> {
        debug_assert!(index.wrapping_sub(self.first) < self.len);
        // SAFETY: `index` lies in `first..first + len` (the callers check `index - first`
        // themselves), so `index >> bits` lies in `first_block..=last block`, and `biased`
        // plus it is one of the directory's slots (never moved out of or reallocated).
        let slot = unsafe { &*self.biased.wrapping_add(index >> self.bits) };
        let p = slot.load(Ordering::Acquire);
        if p.is_null() {
            return None;
        }
        // SAFETY: a non-null block pointer is the first of `2^bits` cells (published with
        // Release after they were made), alive until `self` is dropped; `index & mask` is
        // below `2^bits`.
        Some(unsafe { &*p.add(index & self.mask) })
    }

    #[cold]
    #[inline(never)]
    fn make_block(&self, offset: usize) -> Option<&C::Atomic> {
        let (block, within) = self.place(offset);
        let p = publish_block::<C>(self.blocks.get(block)?, 1 << self.bits)?;
        // SAFETY: as in `get_at_index`: `p` is the block's published first cell of
        // `2^bits`, and `within` is below that.
        Some(unsafe { &*p.add(within) })
    }

    /// Where block `block` meets the range: the storage offset of its first cell in the
    /// range, how many of its cells come before that, and how many lie in the range.
    fn block_span(&self, block: usize) -> (usize, usize, usize) {
        let block_start = (self.first_block + block) << self.bits;
        let start = block_start.max(self.first);
        let end = (block_start + (1 << self.bits)).min(self.first + self.len);
        (start - self.first, start - block_start, end - start)
    }

    /// The runs of `block` in the range, if it exists.
    fn run(&self, block: usize) -> Option<(usize, &[C::Atomic])> {
        let p = self.blocks.get(block)?.load(Ordering::Acquire);
        if p.is_null() {
            return None;
        }
        let (start, skip, len) = self.block_span(block);
        // SAFETY: as in `get_at_index`: the block's published `2^bits` cells, of which
        // `skip..skip + len` lie in the range (`block_span`).
        Some((start, unsafe {
            core::slice::from_raw_parts(p.add(skip), len)
        }))
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> sealed::Sealed<C> for SparseCells<C> {}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> CellStore<C> for SparseCells<C> {
    #[inline(always)]
    fn cells_len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn existing_cell(&self, offset: usize) -> Option<&C::Atomic> {
        self.existing_slot(self.slot_of(offset))
    }
    #[inline(always)]
    fn get_or_make(&self, offset: usize) -> Option<&C::Atomic> {
        self.get_or_make_slot(self.slot_of(offset))
    }
    /// The slot's offset is not trusted: it is computed here from its index.
    #[inline(always)]
    fn get_or_make_slot(&self, slot: Slot) -> Option<&C::Atomic> {
        let index = slot.index;
        let offset = index.wrapping_sub(self.first);
        if offset >= self.len {
            return None;
        }
        self.get_at_index(index).or_else(|| self.make_block(offset))
    }
    /// The slot's offset is not trusted: it is computed here from its index.
    #[inline(always)]
    fn existing_slot(&self, slot: Slot) -> Option<&C::Atomic> {
        if slot.index.wrapping_sub(self.first) >= self.len {
            return None;
        }
        self.get_at_index(slot.index)
    }
    fn fits(&self, shape: crate::Shape) -> Result<(), crate::config::ConfigError> {
        shape.check_len(self.len)?;
        if self.first == shape.first_index() {
            Ok(())
        } else {
            Err(crate::config::ConfigError::StorageFirstIndex {
                expected: shape.first_index(),
                actual: self.first,
            })
        }
    }
    fn for_each_run(&self, f: &mut dyn FnMut(usize, &[C::Atomic])) {
        for block in 0..self.blocks.len() {
            if let Some((start, run)) = self.run(block) {
                f(start, run);
            }
        }
    }
    fn as_dense(&self) -> Option<&[C::Atomic]> {
        None
    }
    fn footprint(&self) -> usize {
        let made = self
            .blocks
            .iter()
            .filter(|p| !p.load(Ordering::Relaxed).is_null())
            .count();
        (made << self.bits) * C::BYTES
            + self.blocks.len() * core::mem::size_of::<AtomicPtr<C::Atomic>>()
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> Drop for SparseCells<C> {
    fn drop(&mut self) {
        // SAFETY: every block was published by `publish_block` with `2^bits` cells;
        // `&mut self`: no other user, and this is the only free.
        unsafe { free_blocks::<C>(&mut self.blocks, 1 << self.bits) };
    }
}

/// Make a zeroed block of `size` cells and publish it in `slot`, unless another thread
/// published one first (a compare-and-swap decides; the loser frees its copy): the
/// published block's first cell. `None` when the block cannot be allocated.
#[cfg(feature = "alloc")]
pub(crate) fn publish_block<C: AtomicCounter>(
    slot: &AtomicPtr<C::Atomic>,
    size: usize,
) -> Option<*mut C::Atomic> {
    let cells = super::cell::zeroed_cells::<C>(size).ok()?;
    let fresh = Box::into_raw(cells) as *mut C::Atomic;
    match slot.compare_exchange(
        core::ptr::null_mut(),
        fresh,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => Some(fresh),
        Err(winner) => {
            // SAFETY: `fresh` came from `Box::into_raw` of a box of `size` cells just
            // above and was never published.
            drop(unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(fresh, size)) });
            Some(winner)
        }
    }
}

/// Free every block published in `blocks`.
///
/// # Safety
/// Each non-null pointer of `blocks` came from [`publish_block`] with `size`, and nothing
/// uses the blocks any more (nor frees them again).
#[cfg(feature = "alloc")]
pub(crate) unsafe fn free_blocks<C: AtomicCounter>(
    blocks: &mut [AtomicPtr<C::Atomic>],
    size: usize,
) {
    for slot in blocks.iter_mut() {
        let p = *slot.get_mut();
        if !p.is_null() {
            // SAFETY: the caller's promise: from `Box::into_raw` of `size` cells in
            // `publish_block`, freed only here.
            drop(unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(p, size)) });
        }
    }
}

#[cfg(feature = "alloc")]
impl<C: AtomicCounter> core::fmt::Debug for SparseCells<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SparseCells")
            .field("len", &self.len)
            .field("block_cells", &(1usize << self.bits))
            .field("footprint", &self.footprint())
            .finish()
    }
}

// SAFETY: the cells are atomics and the block pointers `AtomicPtr`s: sharing them between
// threads is what they are for; the blocks are owned by `SparseCells` and freed only by
// `drop`.
#[cfg(feature = "alloc")]
unsafe impl<C: AtomicCounter> Send for SparseCells<C> {}
// SAFETY: as above.
#[cfg(feature = "alloc")]
unsafe impl<C: AtomicCounter> Sync for SparseCells<C> {}
