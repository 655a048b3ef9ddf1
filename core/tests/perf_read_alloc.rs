//! A session's read allocates nothing: the group read buffer is fixed-size and lives in the
//! session. Counted by a global allocator that counts this thread's allocations only while
//! asked to.
#![cfg(all(feature = "perf", target_os = "linux"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use picollo::perf::{SessionBuilder, SoftwareEvent};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the thread-locals are
// const-initialised, so touching them never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        // SAFETY: the caller's contract for `alloc`, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn reading_and_recording_a_group_allocates_nothing() {
    let mut s = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_software(SoftwareEvent::PageFaults)
        .with_software(SoftwareEvent::ContextSwitches)
        .open()
        .expect("software counters open on any Linux");
    COUNTING.with(|c| c.set(true));
    for _ in 0..1_000 {
        s.read(true).unwrap();
        s.record();
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCATIONS.with(Cell::get), 0);
    assert_eq!(s.counter(0).unwrap().histogram().total_count(), 1_000);
}
