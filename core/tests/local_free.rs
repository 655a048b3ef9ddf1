//! Dropping a thread-local histogram frees its shards at once, while the threads that
//! recorded into it are still alive (parked): they keep only weak links.
//!
//! The test binary counts live heap bytes with a wrapping global allocator; this file holds
//! one test so no other test allocates meanwhile.
#![cfg(not(loom))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;

mod common;

use common::Parked;
use picollo::concurrent::{LocalHistogram, Shaped, Source};
use picollo::Config;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every method forwards to `System` with the same arguments; the counter is only
// bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: forwarded as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn dropping_the_histogram_frees_every_shard_while_its_threads_live_on() {
    const THREADS: usize = 4;
    // About 50,000 cells of 8 bytes: 400 kB per shard, far above any other allocation.
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1, 1 << 40);
    let h = Arc::new(LocalHistogram::<u64>::new(config).unwrap());
    // The threads stay alive, attached and idle while the histogram is dropped.
    let threads = Parked::after(THREADS, |t| {
        let h = h.clone();
        move || {
            (1..=1_000).for_each(|v| h.record(v * (t as u64 + 1)));
            drop(h);
        }
    });
    assert_eq!(h.shard_count(), THREADS);
    assert_eq!(h.total_count(), THREADS as u64 * 1_000);
    let footprint = h.footprint_in_bytes();
    let shards = THREADS * h.storage_len() * 8;
    assert!(footprint > shards, "{footprint} {shards}");

    let before = LIVE.load(Ordering::Relaxed);
    let h = Arc::into_inner(h).expect("the threads dropped their handles");
    drop(h);
    let freed = before - LIVE.load(Ordering::Relaxed);
    // Every shard, the accumulator and the baseline: the whole footprint.
    assert!(
        freed >= footprint as isize,
        "freed {freed} bytes of a {footprint}-byte footprint while the threads live"
    );

    threads.release();
}
