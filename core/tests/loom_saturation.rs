//! loom models of the interlocked ceiling: records racing at the ceiling never wrap and are
//! all counted (bucket or saturated), and a record racing a reset at the ceiling is counted
//! at most once. Run: `RUSTFLAGS="--cfg loom" cargo test -p picollo --release --test
//! loom_saturation`.
#![cfg(loom)]

use loom::sync::Arc;
use picollo::concurrent::{AtomicCounter, AtomicHistogram, Source};
use picollo::Config;

/// Values 0..=3: four exact buckets.
fn config() -> Config {
    Config::new().with_relative_error(0.1).with_range(0, 3)
}

/// (bucket 1, saturated) of a consistent copy.
fn state(h: &AtomicHistogram<u32>) -> (u32, u64) {
    let mut scratch = [0u32; 4];
    let view = h.read_into(&mut scratch).unwrap();
    (view.counts()[1], view.saturated_count())
}

#[test]
fn records_racing_across_the_ceiling_are_all_counted() {
    loom::model(|| {
        let k = u32::INTERLOCKED_MAX;
        let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
        h.record_n(1, u64::from(k - 1));
        let writers: Vec<_> = (0..2)
            .map(|_| {
                let h = h.clone();
                loom::thread::spawn(move || h.record(1))
            })
            .collect();
        // A read in the middle: no wrap (that would show a tiny count), nothing above the
        // ceiling, nothing counted twice.
        let (bucket, sat) = state(&h);
        assert!(bucket >= k - 1 && bucket <= k, "{bucket}");
        assert!(
            u64::from(bucket) + sat <= u64::from(k) + 1,
            "{bucket} + {sat}"
        );
        writers.into_iter().for_each(|w| w.join().unwrap());
        // One record fit, the other is saturated, whichever order they ran in.
        assert_eq!(state(&h), (k, 1));
    });
}

#[test]
fn a_record_at_the_ceiling_racing_a_reset_counts_at_most_once() {
    loom::model(|| {
        let k = u32::INTERLOCKED_MAX;
        let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
        h.record_n(1, u64::from(k));
        let writer = {
            let h = h.clone();
            loom::thread::spawn(move || h.record(1))
        };
        h.reset();
        writer.join().unwrap();
        // Cleared by the reset (0, 0), counted after it (1, 0), or its surplus counted as
        // saturated just after the reset (0, 1); never a wrapped or doubled count.
        let got = state(&h);
        assert!(matches!(got, (0, 0) | (1, 0) | (0, 1)), "{got:?}");
    });
}
