//! loom models of the thread-local histogram's shard registration, hand-off and fold,
//! racing readers and resets.
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p picollo --release --test loom_local`.
//!
//! Under loom a join returns before the joined thread's thread-locals are destroyed (std
//! waits for them), so the shard hand-off or fold at thread exit races everything the main
//! thread does after the join too: the totals must be exact regardless.
#![cfg(loom)]

#[path = "common/loom_model.rs"]
mod loom_model;

use loom::sync::Arc;
use loom_model::{model, spawn_with};
use picollo::concurrent::{Collect, LocalHistogram, Source};
use picollo::Config;

fn config() -> Config {
    Config::new().with_relative_error(0.1).with_range(0, 1)
}

fn total(h: &LocalHistogram<u32>) -> u64 {
    let mut scratch = [0u32; 2];
    h.read_into(&mut scratch).unwrap().total_count()
}

#[test]
fn exiting_threads_hand_off_or_fold_without_losing_counts() {
    for keep_idle in [0, 1] {
        model(move || {
            // keep_idle = 0: every exiting thread folds its shard into the accumulator;
            // 1: the first one is kept and may be handed to the second thread.
            let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), 2, keep_idle).unwrap());
            let threads: Vec<_> = (0..2)
                .map(|t| spawn_with(&h, move |h| h.record(t)))
                .collect();
            // A reader racing registration, records and exits.
            let seen = total(&h);
            assert!(seen <= 2, "{seen}");
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(total(&h), 2);
            assert!(h.shard_count() <= 2);
        });
    }
}

#[test]
fn a_reset_racing_a_record_and_an_exit_never_resurrects_counts() {
    model(|| {
        let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), 1, 0).unwrap());
        let writer = spawn_with(&h, move |h| h.record(1));
        h.reset();
        let after_reset = total(&h);
        writer.join().unwrap();
        let end = total(&h);
        // The record is before the reset (gone) or after it (kept), never counted twice,
        // and the later read never sees less than the earlier one.
        assert!(end <= 1 && after_reset <= end, "{after_reset} then {end}");
    });
}

#[test]
fn a_thread_past_the_shard_cap_falls_back_to_the_accumulator() {
    model(|| {
        let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), 1, 1).unwrap());
        let threads: Vec<_> = (0..2)
            .map(|_| spawn_with(&h, move |h| h.record(0)))
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(total(&h), 2);
        assert_eq!(h.shard_count(), 1);
    });
}

#[test]
fn a_collect_racing_records_and_exits_takes_each_record_once() {
    for keep_idle in [0, 1] {
        model(move || {
            let h = Arc::new(LocalHistogram::<u32>::with_limits(config(), 2, keep_idle).unwrap());
            h.record(0);
            let writer = spawn_with(&h, move |h| {
                h.record(1);
                h.record(1);
            });
            let mut interval = [0u32; 2];
            let taken = h.collect_into(&mut interval).unwrap().counts().to_vec();
            writer.join().unwrap();
            let mut rest = [0u32; 2];
            let left = h.collect_into(&mut rest).unwrap().counts().to_vec();
            // The main thread's own record is in the first interval; the writer's are
            // split between the two, each exactly once (its exit may fold or hand off its
            // shard at any point).
            assert_eq!((taken[0], left[0]), (1, 0));
            assert_eq!(taken[1] + left[1], 2, "{taken:?} then {left:?}");
        });
    }
}
