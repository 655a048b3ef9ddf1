//! A session's read allocates nothing: the group read buffer is fixed-size and lives in the
//! session. Counted by a global allocator that counts this thread's allocations only while
//! asked to.
#![cfg(target_os = "linux")]

#[path = "../../core/tests/common/counting.rs"]
mod counting;

use counting::{allocations_of, Counting};
use picollo_perf::{SessionBuilder, SoftwareEvent};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn reading_and_recording_a_group_allocates_nothing() {
    let mut s = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_software(SoftwareEvent::PageFaults)
        .with_software(SoftwareEvent::ContextSwitches)
        .open()
        .expect("software counters open on any Linux");
    let allocations = allocations_of(|| {
        for _ in 0..1_000 {
            s.read(true).unwrap();
            s.record();
        }
    });
    assert_eq!(allocations, 0);
    assert_eq!(s.counter(0).unwrap().histogram().total_count(), 1_000);
}
