//! [`AllocProfiler`]: divan's counting allocator. Installed as the program's
//! `#[global_allocator]`, it counts the allocations of the thread that runs the benchmarks,
//! and the suite reads them beside time ([`AllocSource`], a source of the runner's meter):
//! `alloc:count` and `alloc:bytes` an operation, in every result, its JSON and comparisons.
//! Inputs that `with_inputs` makes are left out, as their time is ([`uncounted`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use picollo_bench::{BenchError, Measured, Metric, MetricKind, Source, Unit, SCALE};

/// A thread's allocations: how many, their bytes, and whether counting is off.
#[derive(Clone, Copy)]
struct Counts {
    allocations: u64,
    bytes: u64,
    off: bool,
}

thread_local! {
    // A `const` Cell of a type without drop: reading it never allocates, so the allocator
    // may use it.
    static COUNTS: Cell<Counts> = const {
        Cell::new(Counts {
            allocations: 0,
            bytes: 0,
            off: false,
        })
    };
}

/// Whether an [`AllocProfiler`] allocated anything: it is the global allocator.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// One allocation of `bytes` on this thread, counted unless counting is off.
fn count(bytes: usize) {
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
    // (Nothing once the thread's locals are gone.)
    let _ = COUNTS.try_with(|c| {
        let mut n = c.get();
        if !n.off {
            n.allocations += 1;
            n.bytes = n.bytes.saturating_add(bytes as u64);
        }
        c.set(n);
    });
}

/// This thread's counts so far.
fn counts() -> (u64, u64) {
    let n = COUNTS.try_with(Cell::get).ok();
    n.map_or((0, 0), |n| (n.allocations, n.bytes))
}

/// Whether the program's global allocator is an [`AllocProfiler`].
pub(crate) fn installed() -> bool {
    // An allocation here: the profiler, where it is the global allocator, has seen one.
    drop(std::hint::black_box(Vec::<u8>::with_capacity(1)));
    INSTALLED.load(Ordering::Relaxed)
}

/// Counting off on this thread until the guard drops (it was on).
pub(crate) struct Uncounted(bool);

/// Counting off until the guard returned drops: what runs outside a batch's time.
pub(crate) fn uncounted() -> Uncounted {
    let was = COUNTS.try_with(|c| {
        let mut n = c.get();
        let was = n.off;
        n.off = true;
        c.set(n);
        was
    });
    Uncounted(was.unwrap_or(true))
}

impl Drop for Uncounted {
    fn drop(&mut self) {
        let off = self.0;
        let _ = COUNTS.try_with(|c| c.set(Counts { off, ..c.get() }));
    }
}

/// The allocations a batch made on its thread: the runner's source beside its meter.
#[derive(Debug, Default)]
pub(crate) struct AllocSource {
    start: (u64, u64),
}

impl Source for AllocSource {
    fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::new("alloc:count", Unit::Events, MetricKind::Counter),
            Metric::new("alloc:bytes", Unit::Bytes, MetricKind::Counter),
        ]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.start = counts();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let (allocations, bytes) = counts();
        let made = [allocations - self.start.0, bytes - self.start.1];
        for (out, made) in out.iter_mut().zip(made) {
            *out = Measured {
                value: made.saturating_mul(SCALE),
                ..Measured::default()
            };
        }
        Ok(())
    }
}

/// An allocator for `#[global_allocator]` that counts the allocations (`alloc`,
/// `alloc_zeroed`, `realloc`, each with the bytes it asks for) of each thread, and passes
/// every call to `A` (the system's by default).
#[derive(Debug, Default)]
pub struct AllocProfiler<A = System> {
    alloc: A,
}

impl AllocProfiler {
    /// The profiler of the system's allocator.
    pub const fn system() -> Self {
        AllocProfiler { alloc: System }
    }
}

impl<A> AllocProfiler<A> {
    /// The profiler of `alloc`.
    pub const fn new(alloc: A) -> Self {
        AllocProfiler { alloc }
    }
}

// SAFETY: every method hands its call, with the caller's guarantees, to `A`, which upholds
// GlobalAlloc's contract itself; the counting beside it allocates nothing.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's guarantees for `layout` are `A::alloc`'s.
        unsafe { self.alloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { self.alloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, hence from `A`, with `layout`.
        unsafe { self.alloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: `ptr` came from `A` with `layout`; `new_size` is the caller's, checked by it.
        unsafe { self.alloc.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_reads_the_counts_between_its_start_and_stop_and_not_uncounted_ones() {
        let mut source = AllocSource::default();
        source.start().unwrap();
        count(100);
        count(28);
        {
            let _off = uncounted();
            count(1000);
            let _again = uncounted();
        }
        count(2);
        let mut out = [Measured::default(); 2];
        source.stop(&mut out).unwrap();
        assert_eq!([out[0].value, out[1].value], [3 * SCALE, 130 * SCALE]);
    }
}
