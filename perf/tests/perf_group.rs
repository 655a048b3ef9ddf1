//! The group cap and sinks a session takes from its caller: software counters only, so
//! these run on any Linux (no PMU needed).
#![cfg(target_os = "linux")]

use picollo::concurrent::Source;
use std::sync::Arc;

use picollo::concurrent::{ConcurrentHistogram, Mode};
use picollo::{Config, Sink};
use picollo_perf::{
    Event, PerfErrorKind, RawEvent, SessionBuilder, SoftwareEvent, MAX_GROUP_COUNTERS,
};

/// Task-clock `k`: the software PMU ignores `config1`, so each is a distinct event to the
/// session and a plain task-clock to the kernel.
fn task_clock(k: u64) -> Event {
    Event::Raw(RawEvent {
        type_: 1,
        config: SoftwareEvent::TaskClock as u64,
        config1: k,
        config2: 0,
    })
}

#[test]
fn a_counter_past_the_cap_is_refused_before_the_kernel_sees_it() {
    let mut b = SessionBuilder::new();
    for k in 0..MAX_GROUP_COUNTERS as u64 {
        b.add_counter(task_clock(k)).unwrap();
    }
    let extra = task_clock(MAX_GROUP_COUNTERS as u64);
    let e = b.add_counter(extra).unwrap_err();
    let needle = format!(
        "as counter {}: a perf group holds at most {MAX_GROUP_COUNTERS} counters",
        MAX_GROUP_COUNTERS + 1
    );
    assert!(e.message().contains(&needle), "{e}");
    assert_eq!(e.kind(), PerfErrorKind::InvalidArgument);
    assert_eq!(e.errno(), 0, "no system call was made: {e}");
    assert_eq!(e.event(), Some(extra));
    assert_eq!(b.counters().len(), MAX_GROUP_COUNTERS);
    // The chained form remembers the refusal and open reports it without opening anything.
    let chained = (0..=MAX_GROUP_COUNTERS as u64)
        .fold(SessionBuilder::new(), |b, k| b.with_counter(task_clock(k)));
    let e = chained.open().unwrap_err();
    assert!(e.message().contains(&needle), "{e}");
    assert_eq!(e.errno(), 0, "{e}");
}

#[test]
fn a_full_group_opens_and_reads_every_counter() {
    let b = (0..MAX_GROUP_COUNTERS as u64).fold(SessionBuilder::new(), |b, k| {
        b.with_counter(task_clock(k)).with_calibration(false)
    });
    let mut s = b.open().expect("software counters open on any Linux");
    assert_eq!(s.len(), MAX_GROUP_COUNTERS);
    s.read(true).unwrap();
    std::hint::black_box(picollo_perf::time::add_chain(10_000));
    s.read(true).unwrap();
    assert!(s.deltas().all(|d| d.scaled > 0), "every task-clock ran");
}

#[test]
fn a_session_owns_arcs_of_histograms_that_other_threads_read() {
    let shared: Vec<Arc<ConcurrentHistogram<u64>>> = (0..2)
        .map(|_| Arc::new(ConcurrentHistogram::new(Config::new(), Mode::Interlocked).unwrap()))
        .collect();
    let b = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_software(SoftwareEvent::PageFaults);
    let mut s = b.open_with_sinks(shared.clone()).unwrap();
    for _ in 0..10 {
        s.read(true).unwrap();
        std::hint::black_box(picollo_perf::time::add_chain(100));
        s.read(true).unwrap();
        s.record();
    }
    let reader = {
        let h = Arc::clone(&shared[0]);
        std::thread::spawn(move || h.total_count())
    };
    assert_eq!(
        reader.join().unwrap(),
        10,
        "another thread sees the records"
    );
    assert_eq!(s.counter(1).unwrap().histogram().total(), 10);
    drop(s);
    assert_eq!(
        Arc::strong_count(&shared[0]),
        1,
        "the session's handles went with it"
    );
}

#[test]
fn sinks_must_match_the_counters_one_to_one() {
    let b = SessionBuilder::new().with_software(SoftwareEvent::TaskClock);
    let h = || ConcurrentHistogram::<u64>::new(Config::new(), Mode::Interlocked).unwrap();
    let e = b.open_with_sinks(vec![h(), h()]).unwrap_err();
    assert_eq!(e.kind(), PerfErrorKind::InvalidArgument);
    assert!(e.message().contains("2 sink(s) for 1 counter(s)"), "{e}");
    let borrowed = h();
    let mut s = b.open_with_sinks(vec![&borrowed]).unwrap();
    s.record();
    assert_eq!(
        borrowed.total_count(),
        1,
        "a borrowed histogram is a sink too"
    );
}
