//! Stress tests of the concurrent histograms: exact counts under contention, and the
//! reset/snapshot/query invariants while writers run.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Barrier;

use picollo::concurrent::{ConcurrentHistogram, ConcurrentSnapshot, Mode, Shaped, Source};
use picollo::Histogram;

mod common;
use common::contended_config as config;

const THREADS: usize = 4;
const PER_THREAD: u64 = 100_000;

/// The value thread `t` records at step `i`: spread over the range and around it, with
/// many threads hitting the same buckets.
fn value(t: usize, i: u64) -> u64 {
    common::contended_value(t, i, 1_200_000)
}

fn exact_modes() -> [Mode; 2] {
    [Mode::Interlocked, Mode::ThreadLocal]
}

#[test]
fn exact_modes_count_every_record_in_its_bucket() {
    let mut expected: Histogram<u64, Vec<u64>> = config().build().unwrap();
    for t in 0..THREADS {
        for i in 0..PER_THREAD {
            expected.record(value(t, i));
            expected.record_n(value(t, i) / 2, 2);
        }
    }
    for mode in exact_modes() {
        let h = ConcurrentHistogram::<u32>::new(config(), mode).unwrap();
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let h = &h;
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        h.record(value(t, i));
                        h.record_n(value(t, i) / 2, 2);
                    }
                });
            }
        });
        let mut scratch = vec![0u32; h.storage_len()];
        let view = h.read_into(&mut scratch).unwrap();
        let want = expected.view();
        assert_eq!(view.counts().len(), want.counts().len());
        for (i, (&got, &w)) in view.counts().iter().zip(want.counts()).enumerate() {
            assert_eq!(u64::from(got), w, "{mode:?}: bucket {i}");
        }
        assert_eq!(view.underflow_count(), want.underflow_count(), "{mode:?}");
        assert_eq!(view.overflow_count(), want.overflow_count(), "{mode:?}");
        assert_eq!(view.summary(), want.summary(), "{mode:?}");
    }
}

#[test]
fn one_writer_with_concurrent_readers_is_exact() {
    let h = ConcurrentHistogram::<u32>::new(config(), Mode::SingleWriter).unwrap();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            for i in 0..PER_THREAD {
                h.record(value(0, i));
            }
            done.store(true, Ordering::Release);
        });
        s.spawn(|| {
            let mut snapshot = ConcurrentSnapshot::new(&h).unwrap();
            let mut seen = 0;
            while !done.load(Ordering::Acquire) {
                snapshot.update(&h, false).unwrap();
                let total = snapshot.view().total_count();
                assert!(total >= seen && total <= PER_THREAD);
                seen = total;
            }
        });
    });
    let mut expected: Histogram<u32, Vec<u32>> = config().build().unwrap();
    (0..PER_THREAD).for_each(|i| expected.record(value(0, i)));
    let mut scratch = vec![0u32; h.storage_len()];
    assert_eq!(
        h.read_into(&mut scratch).unwrap().counts(),
        expected.counts()
    );
}

/// Writers each record into their own bucket (value `1_000 × (t + 1)`) and publish how
/// many records they finished; a resetter and a reader check, while they run:
/// - no copy holds more than was recorded (per bucket);
/// - right after a reset, no bucket holds more than what was recorded since the reset
///   began (a stale "old + 1" would hold about everything recorded before);
/// - every copy's percentiles agree with its total;
/// - snapshot deltas never exceed what was recorded between two updates.
fn check_reset_invariants(mode: Mode, writers: usize, resets_from_writer: bool) {
    let h = ConcurrentHistogram::<u32>::new(config(), mode).unwrap();
    let done: Vec<AtomicU64> = (0..writers).map(|_| AtomicU64::new(0)).collect();
    let stop = AtomicBool::new(false);
    let bucket_of = |t: usize| {
        h.config().layout().index(1_000 * (t as u64 + 1)) - h.config().layout().index(100)
    };
    let read_done = |t: usize| done[t].load(Ordering::Acquire);
    let start = Barrier::new(writers + 1 + usize::from(!resets_from_writer));
    let records = if cfg!(debug_assertions) {
        1_000_000
    } else {
        5_000_000
    };
    std::thread::scope(|s| {
        for t in 0..writers {
            let (h, done, stop, start) = (&h, &done, &stop, &start);
            s.spawn(move || {
                start.wait();
                for i in 1..=records {
                    h.record(1_000 * (t as u64 + 1));
                    done[t].store(i, Ordering::Release);
                    if resets_from_writer && i % 8_000 == 0 {
                        h.reset();
                    }
                }
                stop.store(true, Ordering::Release);
            });
        }
        if !resets_from_writer {
            s.spawn(|| {
                start.wait();
                let mut scratch = vec![0u32; h.storage_len()];
                while !stop.load(Ordering::Acquire) {
                    let before: Vec<u64> = (0..writers).map(read_done).collect();
                    h.reset();
                    let view = h.read_into(&mut scratch).unwrap();
                    for (t, &before) in before.iter().enumerate() {
                        let after = read_done(t);
                        let got = u64::from(view.counts()[bucket_of(t)]);
                        // At most one record per writer is counted but not yet published.
                        let since = after - before + 1;
                        assert!(got <= since, "{mode:?}: bucket of writer {t} holds {got} after a reset, {since} recorded since");
                    }
                    std::thread::yield_now();
                }
            });
        }
        s.spawn(|| {
            start.wait();
            // Records published before a copy are in it: a delta between two copies is at
            // most what was published between the read before the first one and the read
            // after the second one (plus one unpublished record).
            let mut before_previous: Vec<u64> = (0..writers).map(read_done).collect();
            let mut snapshot = ConcurrentSnapshot::new(&h).unwrap();
            while !stop.load(Ordering::Acquire) {
                let before: Vec<u64> = (0..writers).map(read_done).collect();
                snapshot.update(&h, true).unwrap();
                let after: Vec<u64> = (0..writers).map(read_done).collect();
                let view = snapshot.view();
                for t in 0..writers {
                    let got = u64::from(view.counts()[bucket_of(t)]);
                    let recorded = after[t] - before_previous[t] + 1;
                    assert!(
                        got <= recorded,
                        "{mode:?}: delta {got} > {recorded} recorded"
                    );
                }
                before_previous = before;
                let total = view.total_count();
                assert!(total <= records * writers as u64);
                if total > 0 {
                    let s = view.summary();
                    assert_eq!(s.total, total);
                    assert_eq!(s.max().cumulative_count, total);
                    assert!(s.p50().value <= s.p99().value);
                }
            }
        });
    });
    // After the writers stop, a reset leaves nothing behind.
    h.reset();
    assert_eq!(h.total_count(), 0, "{mode:?}");
}

#[test]
fn interlocked_reset_never_leaves_old_plus_one() {
    check_reset_invariants(Mode::Interlocked, 2, false);
}

#[test]
fn thread_local_reset_never_leaves_old_plus_one() {
    check_reset_invariants(Mode::ThreadLocal, 2, false);
}

#[test]
fn approximate_reset_never_leaves_old_plus_one() {
    // Buckets count exactly below 2^13, and the writer resets every 8,000 records, so the
    // exact bounds apply.
    check_reset_invariants(Mode::Approximate(Default::default()), 1, true);
}

#[test]
fn single_writer_resetting_itself_is_exact_for_readers() {
    check_reset_invariants(Mode::SingleWriter, 1, true);
}

#[test]
fn snapshots_show_deltas_and_the_counts_since_a_reset() {
    for &mode in Mode::ALL {
        let h = ConcurrentHistogram::<u64>::new(config(), mode).unwrap();
        (0..1_000).for_each(|v| h.record(1_000 + v));
        let mut snap = ConcurrentSnapshot::new(&h).unwrap();
        assert_eq!(snap.view().total_count(), 1_000);
        (0..500).for_each(|v| h.record(5_000 + v));
        h.record(1); // underflow
        snap.update(&h, true).unwrap();
        assert_eq!(snap.view().total_count(), 500, "{mode:?}");
        assert_eq!(snap.view().underflow_count(), 1, "{mode:?}");
        assert_eq!(snap.view().min_recorded().unwrap() / 100, 49, "{mode:?}");
        h.reset();
        (0..7).for_each(|_| h.record(20_000));
        snap.update(&h, true).unwrap();
        assert_eq!(snap.view().total_count(), 7, "{mode:?}");
        assert_eq!(snap.view().underflow_count(), 0, "{mode:?}");
        snap.update(&h, false).unwrap();
        assert_eq!(snap.view().total_count(), 7, "{mode:?}");
        assert_eq!(h.reset_count(), 1, "{mode:?}");
    }
}

#[test]
fn a_snapshot_of_another_configuration_is_refused() {
    let a = ConcurrentHistogram::<u32>::new(config(), Mode::Interlocked).unwrap();
    let b =
        ConcurrentHistogram::<u32>::new(config().with_max(10_000_000), Mode::Interlocked).unwrap();
    let mut snap = ConcurrentSnapshot::new(&a).unwrap();
    assert!(snap.update(&b, true).is_err());
    let mut short = vec![0u32; 3];
    assert!(b.read_into(&mut short).is_err());
    assert!(Source::read_into(&a, &mut short).is_err());
}

#[test]
fn every_mode_reports_itself_and_its_footprint() {
    for &mode in Mode::ALL {
        let h = ConcurrentHistogram::<u32>::new(config(), mode).unwrap();
        assert_eq!(h.mode(), mode);
        assert!(h.footprint_in_bytes() >= h.storage_len() * 4);
    }
}
