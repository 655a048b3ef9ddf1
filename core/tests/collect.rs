//! `Collect`: the intervals taken while writers run, plus what is left at the end, add up
//! to exactly what was recorded, bucket by bucket, in every exact mode.
#![cfg(all(not(loom), feature = "std"))]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use picollo::concurrent::{
    ApproxPolicy, Collect, ConcurrentHistogram, ConcurrentSnapshot, LocalHistogram, Mode, Shaped,
    Source,
};
use picollo::{Counter, Histogram, View};

mod common;
use common::contended_config as config;

const WRITERS: usize = 2;
const PER_WRITER: u64 = 150_000;

/// What writer `t` records at step `i`: spread over the range and past both ends, the two
/// writers often hitting the same buckets.
fn value(t: usize, i: u64) -> u64 {
    common::contended_value(t, i, 1_100_000)
}

fn expected(writers: usize, per_writer: u64) -> Histogram<u64, Vec<u64>> {
    let mut h: Histogram<u64, Vec<u64>> = config().build().unwrap();
    for t in 0..writers {
        for i in 0..per_writer {
            h.record(value(t, i));
        }
    }
    h
}

fn assert_same<C: Counter>(got: &View<'_, u64>, want: &View<'_, C>, what: &str) {
    assert_eq!(got.counts().len(), want.counts().len(), "{what}");
    for (i, (&g, &w)) in got.counts().iter().zip(want.counts()).enumerate() {
        assert_eq!(g, w.to_u64(), "{what}: bucket {i}");
    }
    assert_eq!(got.outside(), want.outside(), "{what}: outside counts");
}

/// Collect from `h` until `done`, alternating the owned and the caller-memory forms and a
/// snapshot; returns the sum of the intervals and how many were taken.
fn collect_until<C: Counter, H: Collect<C>>(
    h: &H,
    done: &AtomicBool,
) -> (Histogram<u64, Vec<u64>>, usize) {
    let mut sum: Histogram<u64, Vec<u64>> = config().build().unwrap();
    let mut scratch = vec![C::ZERO; h.storage_len()];
    let mut snapshot = ConcurrentSnapshot::new(h).unwrap();
    // The snapshot's first copy is a read, not a collect: nothing is taken by it.
    let mut intervals = 0;
    loop {
        // Read `done` before collecting: the last collect starts after the writers ended.
        let last = done.load(Ordering::Acquire);
        match intervals % 3 {
            0 => sum.add(&h.collect().view()).unwrap(),
            1 => sum.add(&h.collect_into(&mut scratch).unwrap()).unwrap(),
            _ => {
                snapshot.collect(h).unwrap();
                sum.add(&snapshot.view()).unwrap();
            }
        }
        intervals += 1;
        if last {
            return (sum, intervals);
        }
        std::thread::yield_now();
    }
}

/// Two writers record while a collector takes intervals; the intervals and what is left
/// add up to the records.
fn writers_and_collector(h: &ConcurrentHistogram<u32>, record: impl Fn(u64) + Sync) {
    let done = AtomicBool::new(false);
    let writing = AtomicUsize::new(WRITERS);
    let (mut sum, intervals) = std::thread::scope(|s| {
        for t in 0..WRITERS {
            let (record, done, writing) = (&record, &done, &writing);
            s.spawn(move || {
                for i in 0..PER_WRITER {
                    record(value(t, i));
                }
                if writing.fetch_sub(1, Ordering::AcqRel) == 1 {
                    done.store(true, Ordering::Release);
                }
            });
        }
        s.spawn(|| collect_until(h, &done)).join().unwrap()
    });
    // Nothing is left after the collector's last interval, which began after the writers
    // ended; collect once more to check (and to count anything left if it were not).
    let rest = h.collect();
    assert_eq!(rest.view().total_count(), 0, "{:?}", h.mode());
    sum.add(&rest.view()).unwrap();
    assert!(intervals >= 1);
    assert_same(
        &sum.view(),
        &expected(WRITERS, PER_WRITER).view(),
        &format!("{:?}", h.mode()),
    );
}

#[test]
fn interlocked_intervals_add_up_to_every_record() {
    let h = ConcurrentHistogram::<u32>::new(config(), Mode::Interlocked).unwrap();
    writers_and_collector(&h, |v| h.record(v));
}

#[test]
fn thread_local_intervals_add_up_to_every_record() {
    let h = ConcurrentHistogram::<u32>::new(config(), Mode::ThreadLocal).unwrap();
    writers_and_collector(&h, |v| h.record(v));
}

#[test]
fn approximate_intervals_of_exact_adds_add_up_to_every_record() {
    // `record_n` adds exactly in the approximate mode: the collect itself loses nothing.
    let mode = Mode::Approximate(ApproxPolicy::new());
    let h = ConcurrentHistogram::<u32>::new(config(), mode).unwrap();
    writers_and_collector(&h, |v| h.record_n(v, 1));
}

#[test]
fn thread_local_intervals_stay_exact_while_shards_are_folded_and_handed_off() {
    // No shard kept idle at first: every exiting writer folds its shard into the carried
    // sums while the collector runs; then one kept, handed to the next writer.
    for keep_idle in [0, 1] {
        let h = LocalHistogram::<u64>::with_limits(config(), 8, keep_idle).unwrap();
        let done = AtomicBool::new(false);
        let rounds = 4;
        let per_round = PER_WRITER / rounds;
        let (mut sum, _) = std::thread::scope(|s| {
            let collector = s.spawn(|| collect_until(&h, &done));
            for r in 0..rounds {
                std::thread::scope(|w| {
                    for t in 0..WRITERS {
                        let h = &h;
                        w.spawn(move || {
                            for i in r * per_round..(r + 1) * per_round {
                                h.record(value(t, i));
                            }
                        });
                    }
                });
            }
            done.store(true, Ordering::Release);
            collector.join().unwrap()
        });
        sum.add(&h.collect().view()).unwrap();
        let what = format!("keep_idle {keep_idle}");
        assert_same(
            &sum.view(),
            &expected(WRITERS, rounds * per_round).view(),
            &what,
        );
    }
}

#[test]
fn single_writer_collecting_from_its_own_thread_is_exact_while_readers_run() {
    let h = ConcurrentHistogram::<u32>::new(config(), Mode::SingleWriter).unwrap();
    let done = AtomicBool::new(false);
    let sum = std::thread::scope(|s| {
        // A reader racing the collects (each runs in the seqlock's write section).
        s.spawn(|| {
            let mut scratch = vec![0u32; h.storage_len()];
            while !done.load(Ordering::Acquire) {
                // Never more than one interval (997 records), never half a collect.
                let v = h.read_into(&mut scratch).unwrap();
                let seen = v.total_count() + v.underflow_count() + v.overflow_count();
                assert!(seen <= 997, "{seen}");
            }
        });
        let mut sum: Histogram<u64, Vec<u64>> = config().build().unwrap();
        for i in 0..PER_WRITER {
            h.record(value(0, i));
            if i % 997 == 0 {
                sum.add(&h.collect().view()).unwrap();
            }
        }
        sum.add(&h.collect().view()).unwrap();
        done.store(true, Ordering::Release);
        sum
    });
    assert_same(
        &sum.view(),
        &expected(1, PER_WRITER).view(),
        "single writer",
    );
}

#[test]
fn a_collect_counts_as_a_reset_for_snapshots_and_readers() {
    for &mode in Mode::ALL {
        let h = ConcurrentHistogram::<u64>::new(config(), mode).unwrap();
        h.record(500);
        h.record(5_000_000);
        let mut snapshot = ConcurrentSnapshot::new(&h).unwrap();
        let before = h.reset_count();
        let mut scratch = vec![0u64; h.storage_len()];
        let v = h.collect_into(&mut scratch).unwrap();
        assert_eq!((v.total_count(), v.overflow_count()), (1, 1), "{mode:?}");
        assert_eq!(v.range(), h.with_copy(|c| c.range()), "{mode:?}");
        // The interval belongs to the epoch before the collect; the source moved on.
        assert_eq!(v.reset_count(), before, "{mode:?}");
        assert_eq!(h.reset_count(), before.wrapping_add(1), "{mode:?}");
        let owned = h.collect();
        assert_eq!(owned.view().total_count(), 0, "{mode:?}");
        assert_eq!(owned.view().layout(), h.shape().layout(), "{mode:?}");
        h.record(600);
        snapshot.update(&h, true).unwrap();
        assert_eq!(
            snapshot.view().total_count(),
            1,
            "{mode:?}: deltas since the collect"
        );
        assert_eq!(h.total_count(), 1, "{mode:?}");
        let mut scratch = vec![0u64; 1];
        assert!(h.collect_into(&mut scratch).is_err(), "{mode:?}");
        assert_eq!(
            h.total_count(),
            1,
            "{mode:?}: a failed collect takes nothing"
        );
    }
}
