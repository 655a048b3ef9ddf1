//! [`AllocProfiler`]: divan's counting allocator, kept so that benches that install it
//! build; Picollo counts no allocations, so it hands every call to the allocator it wraps.

use std::alloc::{GlobalAlloc, Layout, System};

/// An allocator for `#[global_allocator]` that passes every call to `A` (the system's by
/// default): divan's allocation counts have no Picollo metric.
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
// GlobalAlloc's contract itself.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are `A::alloc`'s.
        unsafe { self.alloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe { self.alloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, hence from `A`, with `layout`.
        unsafe { self.alloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `A` with `layout`; `new_size` is the caller's, checked by it.
        unsafe { self.alloc.realloc(ptr, layout, new_size) }
    }
}
