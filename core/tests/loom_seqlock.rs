//! loom model of the seqlock read path: a reader racing a reset never sees a half-cleared
//! copy. Run: `RUSTFLAGS="--cfg loom" cargo test -p picollo --release --test loom_seqlock`.
#![cfg(loom)]

#[path = "common/loom_model.rs"]
mod loom_model;

use loom::sync::Arc;
use loom_model::{model, spawn_with};
use picollo::concurrent::{AtomicHistogram, Collect, SharedHistogram, Source};
use picollo::Config;

/// Values 0..=3: four exact buckets.
fn config() -> Config {
    Config::new().with_relative_error(0.1).with_range(0, 3)
}

/// A seqlocked histogram with one count in bucket 1 and one in bucket 2.
fn two_counts() -> Arc<SharedHistogram<u32>> {
    let h = Arc::new(SharedHistogram::<u32>::new(config()).unwrap());
    h.record(1);
    h.record(2);
    h
}

#[test]
fn a_reader_sees_all_or_nothing_of_a_reset() {
    model(|| {
        // Two buckets hold one count each before the race.
        let h = two_counts();
        let resetter = spawn_with(&h, move |h| h.reset());
        let mut scratch = [0u32; 4];
        let view = h.read_into(&mut scratch).unwrap();
        // Both counts (before the reset) or neither (after), never one of them.
        let c = view.counts();
        assert!(
            c == [0, 1, 1, 0] || c == [0, 0, 0, 0],
            "half-cleared copy {c:?}"
        );
        resetter.join().unwrap();
    });
}

#[test]
fn interlocked_records_racing_a_reset_are_counted_once_or_cleared() {
    loom::model(|| {
        let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
        h.record(1);
        let writer = spawn_with(&h, move |h| h.record(1));
        h.reset();
        writer.join().unwrap();
        let mut scratch = [0u32; 4];
        let got = h.read_into(&mut scratch).unwrap().counts()[1];
        // The racing record landed after the swap (1) or before it (0); the one recorded
        // before the race is always gone ("old + 1" would give 2).
        assert!(got <= 1, "{got}");
    });
}

#[test]
fn a_reader_holding_resets_off_throws_away_a_copy_spoiled_by_a_reset_that_slipped_in() {
    // The reader holds resets off from its first copy. A reset that read the hold before
    // the reader raised it can still spoil one held copy, which must be thrown away too;
    // the second reset waits for the read, and nothing waits once the hold is released.
    // Two buckets and two preemptions (enough for the slip) keep the space small.
    picollo::concurrent::loom_set_optimistic_reads(0);
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(2);
    builder.check(|| {
        let two = Config::new().with_relative_error(0.1).with_range(0, 1);
        let h = Arc::new(SharedHistogram::<u32>::new(two).unwrap());
        h.record(0);
        h.record(1);
        let resetter = spawn_with(&h, move |h| {
            h.reset();
            h.reset();
        });
        let mut scratch = [0u32; 2];
        let c = h.read_into(&mut scratch).unwrap().counts().to_vec();
        assert!(c == [1, 1] || c == [0, 0], "half-cleared copy {c:?}");
        resetter.join().unwrap();
        h.record(1);
        h.reset();
        assert_eq!(h.read_into(&mut scratch).unwrap().counts(), [0, 0]);
    });
    picollo::concurrent::loom_set_optimistic_reads(1);
}

#[test]
fn interlocked_records_racing_a_collect_land_in_exactly_one_interval() {
    model(|| {
        let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
        h.record(1);
        let writer = spawn_with(&h, move |h| {
            h.record(1);
            h.record(5); // overflow: an outside count racing the collect
        });
        let mut interval = [0u32; 4];
        let taken = h.collect_into(&mut interval).unwrap();
        let (bucket, over) = (taken.counts()[1], taken.overflow_count());
        writer.join().unwrap();
        let mut rest = [0u32; 4];
        let left = h.read_into(&mut rest).unwrap();
        // The record before the race is always in the interval; the racing ones are in
        // the interval or left for the next, never both, never neither.
        assert!(bucket >= 1, "{bucket}");
        assert_eq!(bucket + left.counts()[1], 2);
        assert_eq!(over + left.overflow_count(), 1);
    });
}

#[test]
fn a_reader_sees_all_or_nothing_of_a_collect() {
    model(|| {
        let h = two_counts();
        let collector = spawn_with(&h, move |h| {
            let mut interval = [0u32; 4];
            let taken = h.collect_into(&mut interval).unwrap().total_count();
            assert_eq!(taken, 2);
        });
        let mut scratch = [0u32; 4];
        let c = h.read_into(&mut scratch).unwrap().counts().to_vec();
        assert!(
            c == [0, 1, 1, 0] || c == [0, 0, 0, 0],
            "half-collected copy {c:?}"
        );
        collector.join().unwrap();
    });
}
