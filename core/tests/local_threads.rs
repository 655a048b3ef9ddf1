//! Thread-local histograms with threads that come and go, and many histograms at once.
#![cfg(not(loom))]

use picollo::concurrent::LocalHistogram;
use picollo::concurrent::Source;
use picollo::Config;

fn config() -> Config {
    Config::new()
        .with_relative_error(0.01)
        .with_range(1, 1_000_000)
}

#[test]
fn a_thousand_short_lived_threads_lose_nothing_and_keep_few_shards() {
    const WAVE: usize = 8;
    const K: u64 = 50;
    let h = LocalHistogram::<u32>::with_limits(config(), 64, 2).unwrap();
    for wave in 0..1_000 / WAVE {
        // Joined explicitly: a join waits for the thread's thread-locals to be destroyed
        // (which gives its shard back); the end of a scope does not.
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..WAVE)
                .map(|t| {
                    let h = &h;
                    s.spawn(move || {
                        (0..K).for_each(|i| h.record(1 + (wave * WAVE + t) as u64 * K + i))
                    })
                })
                .collect();
            threads.into_iter().for_each(|t| t.join().unwrap());
        });
        // At most one shard per thread recording at once.
        assert!(h.shard_count() <= WAVE, "{} shards", h.shard_count());
    }
    assert_eq!(h.total_count(), 1_000 * K);
    // Exited threads' shards were handed on or folded: at most `keep_idle` remain, all
    // idle (fewer where no two threads ever recorded at once: a loaded machine may run each
    // wave's threads one after another, and they then share one shard).
    let shards = h.shard_count();
    assert!((1..=2).contains(&shards), "{shards} shards");
    assert_eq!(h.idle_shard_count(), shards);
    // Every value is in its bucket: the summary matches a single-threaded histogram.
    let mut expected = config().build::<u32>().unwrap();
    (1..=1_000 * K).for_each(|v| expected.record(v));
    assert_eq!(h.summary(), expected.view().summary());
}

#[test]
fn sequential_threads_reuse_one_shard() {
    let h = LocalHistogram::<u64>::new(config()).unwrap();
    for t in 0..100 {
        std::thread::scope(|s| {
            s.spawn(|| (0..10).for_each(|_| h.record(t + 1)))
                .join()
                .unwrap();
        });
    }
    assert_eq!(h.shard_count(), 1);
    assert_eq!(h.total_count(), 1_000);
}

#[test]
fn threads_past_the_shard_cap_fall_back_without_losing_counts() {
    let h = LocalHistogram::<u32>::with_limits(config(), 2, 1).unwrap();
    let barrier = std::sync::Barrier::new(6);
    std::thread::scope(|s| {
        for t in 0..6u64 {
            let (h, barrier) = (&h, &barrier);
            s.spawn(move || {
                h.record(t + 1); // attach (or not) while every thread is alive
                barrier.wait();
                (0..9_999).for_each(|i| h.record_n(t + 1 + i % 100, 1));
                assert!(h.shard_count() <= 2);
            });
        }
    });
    assert!(h.shard_count() <= 2);
    assert_eq!(h.total_count(), 60_000);
}

#[test]
fn many_histograms_times_many_threads() {
    let histograms: Vec<_> = (0..40)
        .map(|_| LocalHistogram::<u32>::new(config()).unwrap())
        .collect();
    std::thread::scope(|s| {
        for t in 0..6u64 {
            let histograms = &histograms;
            s.spawn(move || {
                for round in 0..200u64 {
                    for (k, h) in histograms.iter().enumerate() {
                        h.record(1 + t * 1_000 + round + k as u64);
                    }
                }
            });
        }
    });
    for h in &histograms {
        assert_eq!(h.total_count(), 6 * 200);
        assert!(h.shard_count() <= 6);
    }
    // Dropping histograms while a thread still holds their shards, then using new ones
    // from that thread, frees the old shards and keeps counting right.
    let keep = LocalHistogram::<u32>::new(config()).unwrap();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let keep = &keep;
        let worker = s.spawn(move || {
            for _ in rx {
                keep.record(7);
            }
        });
        drop(histograms);
        for _ in 0..100 {
            tx.send(()).unwrap();
        }
        drop(tx);
        worker.join().unwrap();
    });
    assert_eq!(keep.total_count(), 100);
}

#[test]
fn out_of_range_and_saturating_records_are_counted() {
    let h = LocalHistogram::<u32>::new(config().with_range(10, 1_000)).unwrap();
    h.record(5);
    h.record(5_000);
    h.record_n(500, u64::from(u32::MAX) + 10);
    let mut scratch = vec![0u32; h.storage_len()];
    let view = h.read_into(&mut scratch).unwrap();
    assert_eq!(view.underflow_count(), 1);
    assert_eq!(view.overflow_count(), 1);
    assert_eq!(view.saturated_count(), 10);
    assert_eq!(view.total_count(), u64::from(u32::MAX));
}
