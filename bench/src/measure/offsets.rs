//! Random offsets of the stack and the heap, drawn anew for each turn of an interleaved
//! round: where a function's stack frame and its allocations land moves its time (cache
//! sets, alignment, 4K aliasing), and one fixed placement for a whole comparison would
//! favour one side by chance, a bias no count of rounds averages out. Drawn per turn, the
//! placements spread over both sides' rounds and into the interval.
//!
//! The stack goes deeper by a random count of small frames (0 to [`STACK_FRAMES`] − 1,
//! each at least 16 bytes, so 0 to a few KiB); the heap holds a live block of a random size
//! (0 to [`HEAP_SPAN`] − 1 bytes, in steps of 16) while the turn runs, so the turn's own
//! allocations come from other places.

use std::hint::black_box;
use std::vec::Vec;

use super::draws::Draws;

/// The frames the stack may go deeper by (exclusive).
pub const STACK_FRAMES: u64 = 256;
/// The size of the heap block held during a turn (exclusive bound, bytes).
pub const HEAP_SPAN: u64 = 64 * 1024;

/// One turn's offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offsets {
    /// Frames the stack goes deeper by.
    pub frames: usize,
    /// Bytes of the heap block held.
    pub heap: usize,
}

impl Offsets {
    /// Offsets drawn from `draws`.
    pub fn draw(draws: &mut Draws) -> Self {
        Offsets {
            frames: draws.below(STACK_FRAMES as usize),
            heap: draws.below(HEAP_SPAN as usize) & !15,
        }
    }

    /// Run `f` with the stack `self.frames` frames deeper and a block of `self.heap` bytes
    /// live on the heap.
    pub fn apply<R>(self, f: impl FnOnce() -> R) -> R {
        let block: Vec<u8> = Vec::with_capacity(self.heap);
        let r = deeper(self.frames, f);
        black_box(block);
        r
    }
}

/// `f`, called `n` frames below this one.
#[inline(never)]
fn deeper<R>(n: usize, f: impl FnOnce() -> R) -> R {
    let pad = black_box([0u8; 16]);
    let r = match n {
        0 => f(),
        _ => deeper(n - 1, f),
    };
    black_box(pad);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address of a local of the frame `f` runs in.
    fn frame_of_call(o: Offsets) -> usize {
        o.apply(|| {
            let here = 0u8;
            black_box(&here) as *const u8 as usize
        })
    }

    #[test]
    fn each_frame_lowers_the_stack_and_draws_vary() {
        let shallow = frame_of_call(Offsets::default());
        let deep = frame_of_call(Offsets {
            frames: 100,
            heap: 0,
        });
        assert!(shallow - deep >= 100 * 16, "{shallow:#x} {deep:#x}");
        let mut from = Draws::new(Some(3));
        let draws: Vec<Offsets> = (0..100).map(|_| Offsets::draw(&mut from)).collect();
        assert!(draws.iter().all(|o| (o.frames as u64) < STACK_FRAMES));
        assert!(draws
            .iter()
            .all(|o| (o.heap as u64) < HEAP_SPAN && o.heap % 16 == 0));
        let frames: std::collections::BTreeSet<usize> = draws.iter().map(|o| o.frames).collect();
        assert!(frames.len() > 50);
    }

    #[test]
    fn the_result_comes_back_through_the_frames() {
        let o = Offsets {
            frames: 37,
            heap: 4096,
        };
        assert_eq!(o.apply(|| 42), 42);
    }
}
