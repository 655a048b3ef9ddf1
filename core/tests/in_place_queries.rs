//! Queries of the seqlock modes read the cells in place: they allocate nothing and agree
//! with a query of a copy. Allocations that fail are reported as `OutOfMemory`, never an
//! abort. Counted (and refused on request) by a global allocator acting on this thread only.
#![cfg(feature = "std")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use picollo::concurrent::{CounterBits, DynHistogram, DynSnapshot, Mode};
use picollo::{Config, ConfigError, MergeError, OutOfMemory, Summary};

mod common;

struct Watching;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    /// Allocations above this size fail (usize::MAX: none do).
    static REFUSE_ABOVE: Cell<usize> = const { Cell::new(usize::MAX) };
}

// SAFETY: every call is forwarded to the system allocator unchanged, except that a too
// large request returns NULL, which `alloc` may always do; the thread-locals are
// const-initialised, so touching them never allocates.
unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > REFUSE_ABOVE.with(Cell::get) {
            return std::ptr::null_mut();
        }
        if COUNTING.with(Cell::get) {
            BYTES.with(|n| n.set(n.get() + layout.size()));
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
static ALLOCATOR: Watching = Watching;

/// Bytes this thread allocated while running `f`.
fn allocated_by<R>(f: impl FnOnce() -> R) -> (R, usize) {
    BYTES.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, BYTES.with(Cell::get))
}

fn filled(mode: Mode, bits: CounterBits) -> DynHistogram {
    // The default layout over the whole u64 range: tens of thousands of buckets.
    let h = DynHistogram::new(Config::new(), bits, mode).unwrap();
    for v in 0..20_000u64 {
        h.record(v * v % 1_000_003 + 1);
    }
    h.record_n(u64::MAX, 3);
    h
}

#[test]
fn seqlock_modes_answer_queries_without_copying() {
    let modes = common::seqlock_modes();
    for bits in [CounterBits::U32, CounterBits::U64] {
        for &mode in &modes {
            let h = filled(mode, bits);
            assert!(h.storage_len() > 10_000, "a storage worth copying");
            let ranks = [1.0, 50.0, 99.9, 100.0];
            let mut values = [0u64; 4];
            let (result, bytes) = allocated_by(|| {
                h.with_view(|view| {
                    let v = view.as_view();
                    v.percentile_values(&ranks, &mut values).unwrap();
                    (
                        v.summary(),
                        v.moments(),
                        v.buckets().nth(7),
                        v.total_count(),
                    )
                })
            });
            assert_eq!(bytes, 0, "{mode:?} {bits:?}: the query allocated");
            let (summary, moments, bucket, total) = result.unwrap();
            // The same queries on a copy agree.
            let snap = DynSnapshot::new(&h).unwrap();
            let copy = snap.view();
            let c = copy.as_view();
            let mut copied = [0u64; 4];
            c.percentile_values(&ranks, &mut copied).unwrap();
            assert_eq!(values, copied);
            assert_same(&summary, &c.summary());
            assert_eq!(moments, c.moments());
            assert_eq!(bucket, c.buckets().nth(7));
            assert_eq!(total, c.total_count());
            assert_eq!(total, 20_003);
        }
    }
}

fn assert_same(a: &Summary, b: &Summary) {
    assert_eq!(a.percentiles, b.percentiles);
    assert_eq!(
        (a.total, a.saturated, a.overflow),
        (b.total, b.saturated, b.overflow)
    );
    assert_eq!(a.mean.to_bits(), b.mean.to_bits());
}

#[test]
fn the_thread_local_mode_copies_and_reports_a_failed_copy() {
    let h = filled(Mode::ThreadLocal, CounterBits::U64);
    let (total, bytes) = allocated_by(|| h.total_count());
    assert_eq!(total, Ok(20_003));
    assert!(
        bytes >= h.storage_len() * 8,
        "the shards are summed into a copy"
    );
    let len = h.storage_len();
    let refused = refusing_above(1 << 16, || h.total_count());
    assert_eq!(refused, Err(OutOfMemory { bytes: len * 8 }));
    let other = DynHistogram::new(Config::new(), CounterBits::U64, Mode::Interlocked).unwrap();
    let merge = refusing_above(1 << 16, || other.add(&h));
    assert_eq!(merge, Err(MergeError::OutOfMemory { bytes: len * 8 }));
    assert_eq!(other.total_count(), Ok(0), "nothing was merged");
}

fn refusing_above<R>(limit: usize, f: impl FnOnce() -> R) -> R {
    REFUSE_ABOVE.with(|r| r.set(limit));
    let r = f();
    REFUSE_ABOVE.with(|r| r.set(usize::MAX));
    r
}

#[test]
fn creation_reports_a_failed_allocation() {
    let fine = Config::new().with_relative_error(1e-6);
    let bytes = fine.storage_len() * 8;
    assert!(
        bytes > 100 << 20,
        "the finest full-range layout is large: {bytes}"
    );
    for &mode in Mode::ALL {
        let r = refusing_above(1 << 20, || DynHistogram::new(fine, CounterBits::U64, mode));
        assert_eq!(r.unwrap_err(), ConfigError::OutOfMemory { bytes });
    }
    let r = refusing_above(1 << 20, || fine.build::<u32>());
    assert_eq!(
        r.unwrap_err(),
        ConfigError::OutOfMemory { bytes: bytes / 2 }
    );
    let small = DynHistogram::new(Config::new(), CounterBits::U64, Mode::SingleWriter).unwrap();
    let r = refusing_above(1 << 10, || DynSnapshot::new(&small));
    assert!(matches!(r, Err(ConfigError::OutOfMemory { .. })));
    let text = ConfigError::OutOfMemory { bytes }.to_string();
    assert!(
        text.starts_with("out of memory: could not allocate "),
        "{text}"
    );
}

#[test]
fn a_query_in_place_agrees_with_itself_while_writers_record() {
    let h = DynHistogram::new(Config::new(), CounterBits::U64, Mode::Interlocked).unwrap();
    common::while_recording(&h, 40, || {
        for _ in 0..300 {
            let s = h.with_view(|view| view.as_view().summary()).unwrap();
            if s.total == 0 {
                continue;
            }
            let p100 = s.percentiles[s.percentiles.len() - 1];
            assert_eq!(
                p100.cumulative_count, s.total,
                "P100 holds the query's total"
            );
            for w in s.percentiles.windows(2) {
                assert!(w[0].cumulative_count <= w[1].cumulative_count);
                assert!(w[0].value <= w[1].value);
                assert!(w[1].rank_count <= w[1].cumulative_count);
            }
            assert!(s.mean.is_finite() && s.stdev.is_finite());
        }
    });
}

#[test]
fn a_thread_whose_shard_cannot_be_allocated_still_records_every_value() {
    let h = DynHistogram::new(Config::new(), CounterBits::U64, Mode::ThreadLocal).unwrap();
    let shard_bytes = h.storage_len() * 8;
    std::thread::scope(|s| {
        s.spawn(|| {
            // This thread cannot get a shard: it records into the shared accumulator.
            refusing_above(shard_bytes / 2, || {
                for v in 0..1_000u64 {
                    h.record(v);
                }
            });
        });
        s.spawn(|| (0..500u64).for_each(|v| h.record(v)));
    });
    assert_eq!(h.total_count(), Ok(1_500));
}
