//! Readers of the seqlock modes finish while another thread resets back to back: after a
//! few spoiled copies a reader holds new resets off until its copy is made.
//!
//! A watchdog turns a starved reader into a failure instead of a hung test; nothing here
//! asserts on speed.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use picollo::concurrent::{AtomicHistogram, SharedHistogram, Source};
use picollo::Config;

/// Reads each reader must complete (and at least two of them must see a new reset count).
const READS: usize = 20;
/// Far beyond what the reads need on a loaded machine; only a starved reader reaches it.
const DEADLINE: Duration = Duration::from_secs(120);

/// A large bucket array (6,400 cells), so a reset and a copy both take a while and
/// resets run back to back leave almost no time between them.
fn config() -> Config {
    Config::new()
        .with_relative_error(0.002)
        .with_range(1, 1 << 32)
}

/// A reader thread copies `h` while another resets it in a loop, until it made `READS`
/// copies and saw the reset count change twice (so resets really ran during its reads);
/// it must finish before the deadline.
fn reader_finishes_under_back_to_back_resets<H>(h: Arc<H>, reset: fn(&H))
where
    H: Source<u32> + Send + Sync + 'static,
{
    assert!(h.storage_len() > 5_000, "{}", h.storage_len());
    let stop = Arc::new(AtomicBool::new(false));
    let resetter = {
        let (h, stop) = (h.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                reset(&h);
                n += 1;
            }
            n
        })
    };
    // The resetter is running before the first read.
    while h.reset_count() == 0 {
        std::thread::yield_now();
    }
    let (done, finished) = mpsc::channel();
    {
        let h = h.clone();
        std::thread::spawn(move || {
            let mut scratch = vec![0u32; h.storage_len()];
            let mut last = h.read_into(&mut scratch).unwrap().reset_count();
            let (mut reads, mut changes) = (1, 0);
            while reads < READS || changes < 2 {
                let now = h.read_into(&mut scratch).unwrap().reset_count();
                changes += usize::from(now != last);
                last = now;
                reads += 1;
            }
            let _ = done.send(());
        });
    }
    if finished.recv_timeout(DEADLINE).is_err() {
        panic!("the reader did not finish its reads: starved by resets");
    }
    stop.store(true, Ordering::Relaxed);
    assert!(resetter.join().unwrap() > 0);
}

#[test]
fn an_interlocked_reader_finishes_under_back_to_back_resets() {
    let h = Arc::new(AtomicHistogram::<u32>::new(config()).unwrap());
    reader_finishes_under_back_to_back_resets(h, AtomicHistogram::reset);
}

#[test]
fn a_single_writer_reader_finishes_under_back_to_back_resets() {
    let h = Arc::new(SharedHistogram::<u32>::new(config()).unwrap());
    h.record(7);
    reader_finishes_under_back_to_back_resets(h, SharedHistogram::reset);
}
