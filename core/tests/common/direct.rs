//! What a `DynHistogram` holds, cell by cell, and a record through its direct path as the C
//! header's inline recorder makes it: shared by the record-path test and the fuzz target
//! that compares the record paths.

use picollo::concurrent::{CounterBits, DirectKind, DynHistogram};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// What a histogram holds: every counter by storage index, underflow, overflow, saturated,
/// and the exact extremes.
pub type Counts = (Vec<u64>, [u64; 3], Option<(u64, u64)>);

pub fn counts_of_dyn(h: &DynHistogram) -> Counts {
    let (cells, outside) = h
        .with_view(|v| {
            let v = v.as_view();
            let cells = (0..v.shape().len()).map(|i| v.count(i).unwrap()).collect();
            (cells, v.outside())
        })
        .unwrap();
    (cells, outside, h.exact_extremes())
}

/// The cell of `v` through the direct path, as the header's inline recorder finds and counts
/// it; the records it declines go through `record`.
pub fn record_direct(h: &DynHistogram, v: u64) {
    let path = h.direct_path();
    let shape = h.shape();
    let offset = (shape.layout().index(v) as u64).wrapping_sub(shape.first_index() as u64);
    if path.kind != DirectKind::Call && offset < shape.len() as u64 {
        let relaxed = Ordering::Relaxed;
        macro_rules! count {
            ($atomic:ty) => {{
                // SAFETY: `offset` is below `storage_len()` cells of this width, live while
                // `h` is (DirectPath's contract; this thread is the recording one).
                let cell = unsafe { &*path.cells.cast::<$atomic>().add(offset as usize) };
                if path.kind == DirectKind::Plain {
                    let c = cell.load(relaxed);
                    if u64::from(c) < path.limit {
                        cell.store(c + 1, relaxed);
                        return;
                    }
                } else if u64::from(cell.fetch_add(1, relaxed)) < path.limit {
                    return;
                } else {
                    cell.fetch_sub(1, relaxed);
                }
            }};
        }
        match h.counter_bits() {
            CounterBits::U32 => count!(AtomicU32),
            CounterBits::U64 => count!(AtomicU64),
        }
    }
    h.record(v);
}
