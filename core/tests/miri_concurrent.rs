//! Small, fast runs of the unsafe paths of the concurrent histograms, sized for Miri
//! (`scripts/miri.sh`): the thread-local record fast path through raw shard pointers,
//! hand-off and fold at thread exit, a histogram dropped while a thread that recorded into
//! it lives on (its weak links must not touch freed shards), the seqlock read, reset
//! and held-read paths, and sparse blocks made by racing threads. They also run, in
//! milliseconds, with the normal tests.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use picollo::concurrent::{AtomicHistogram, LocalHistogram, SharedHistogram, Source};
use picollo::Config;

fn config() -> Config {
    Config::new().with_relative_error(0.1).with_range(1, 100)
}

#[test]
fn thread_local_shards_survive_hand_off_fold_and_reuse() {
    // One shard kept idle: the first exiting thread's shard is kept, the second's folded.
    let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), 4, 1).unwrap());
    for round in 0..2u64 {
        let threads: Vec<_> = (0..2u64)
            .map(|t| {
                let h = h.clone();
                std::thread::spawn(move || {
                    for v in 1..=10 {
                        h.record(v + t + round);
                    }
                    h.record_n(50, 3);
                    h.record(1_000); // overflow
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
    }
    h.record(5);
    let mut scratch = vec![0u32; h.storage_len()];
    let view = h.read_into(&mut scratch).unwrap();
    assert_eq!(view.total_count(), 4 * 13 + 1);
    assert_eq!(view.overflow_count(), 4);
    assert!(h.shard_count() <= 2, "{}", h.shard_count());
    h.reset();
    assert_eq!(h.total_count(), 0);
}

#[test]
fn dropping_a_thread_local_histogram_while_its_writer_lives_frees_its_shard_safely() {
    let h = Arc::new(LocalHistogram::<u64>::new(config()).unwrap());
    let (recorded, wait_recorded) = mpsc::channel();
    let (go_on, wait_go_on) = mpsc::channel::<()>();
    let writer = {
        let h = h.clone();
        std::thread::spawn(move || {
            h.record(7);
            drop(h);
            recorded.send(()).unwrap();
            wait_go_on.recv().unwrap();
            // A new histogram on the same thread: the attach prunes the dead links.
            let other = LocalHistogram::<u64>::new(config()).unwrap();
            other.record(9);
            other.total_count()
            // At exit the thread's links to the dropped histogram find nothing to give back.
        })
    };
    wait_recorded.recv().unwrap();
    assert_eq!(h.total_count(), 1);
    let h = Arc::into_inner(h).unwrap();
    drop(h);
    go_on.send(()).unwrap();
    assert_eq!(writer.join().unwrap(), 1);
}

#[test]
fn seqlock_reads_racing_resets_and_records_stay_whole() {
    let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
    let s = Arc::new(SharedHistogram::<u64>::new(config()).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let resetter = {
        let (h, s, stop) = (h.clone(), s.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) || n < 20 {
                h.reset();
                s.reset();
                n += 1;
            }
        })
    };
    let writer = {
        let h = h.clone();
        std::thread::spawn(move || {
            for v in 0..200 {
                h.record(1 + v % 100);
            }
        })
    };
    let mut scratch = vec![0u32; h.storage_len()];
    let mut scratch64 = vec![0u64; s.storage_len()];
    for _ in 0..20 {
        let total = h.read_into(&mut scratch).unwrap().total_count();
        assert!(total <= 200, "{total}");
        assert_eq!(s.read_into(&mut scratch64).unwrap().total_count(), 0);
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    resetter.join().unwrap();
}

#[test]
fn sparse_blocks_made_by_racing_threads_are_shared_read_reset_and_freed() {
    use picollo::concurrent::SparseCells;
    let shape = config().validate().unwrap();
    let cells = SparseCells::new(shape).unwrap();
    let h = Arc::new(AtomicHistogram::<u32, _>::from_shape(shape, cells).unwrap());
    let threads: Vec<_> = (0..2u64)
        .map(|t| {
            let h = h.clone();
            std::thread::spawn(move || {
                for v in 1..=20 {
                    h.record(v * 4 + t);
                }
            })
        })
        .collect();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let mut scratch = vec![0u32; h.storage_len()];
    // Values 4..=81: every one in the range 1..=100.
    assert_eq!(h.read_into(&mut scratch).unwrap().total_count(), 40);
    h.reset();
    assert_eq!(h.total_count(), 0);
    // The single writer finds blocks through a directory pointer made before the cells
    // moved into the histogram: the first record of a block makes it, later ones find it.
    let cells = SparseCells::new(shape).unwrap();
    let single = SharedHistogram::<u64, _>::from_shape(shape, cells).unwrap();
    for v in [7, 7, 90, 7, 1, 100] {
        single.record(v);
    }
    single.record(1000);
    let (total, sevens, above) = single.query_in_place(|v| {
        (
            v.total_count(),
            v.count(v.shape().offset(7)),
            v.overflow_count(),
        )
    });
    assert_eq!((total, sevens, above), (6, Some(3), 1));
}
