//! The read path of the harness's counters: the setting reaches the session, and the report's
//! PMU line says which path the counters took and why.
#![cfg(all(feature = "perf", target_os = "linux"))]

use std::time::Duration;

use picollo_bench::Bench;
use picollo_perf::{ReadPolicy, SoftwareEvent};

fn pmu_line(policy: ReadPolicy) -> String {
    let result = Bench::new("read path")
        .with_counters(&[SoftwareEvent::TaskClock.into()])
        .with_read_path(policy)
        .with_warmup(Duration::from_millis(5))
        .with_time_budget(Duration::from_millis(20))
        .run(|| {
            std::hint::black_box(picollo_perf::time::add_chain(10));
        })
        .unwrap();
    result.conditions.pmu
}

#[test]
fn the_pmu_line_says_how_the_counters_were_read() {
    let forced = pmu_line(ReadPolicy::Syscall);
    assert!(
        forced.contains("; counters read by read(2): the read policy says so"),
        "{forced}"
    );
    // A software counter has no page: whatever the policy, read(2), and why.
    for policy in [ReadPolicy::Auto, ReadPolicy::UserSpace] {
        let line = pmu_line(policy);
        assert!(line.contains("; counters read by read(2): "), "{line}");
        assert!(!line.contains("policy says so"), "{policy:?}: {line}");
    }
    let time_only = Bench::new("time")
        .with_counters(&[])
        .with_time_budget(Duration::from_millis(10))
        .run(|| {})
        .unwrap();
    assert!(
        !time_only.conditions.pmu.contains("counters read by"),
        "no counters, no read path: {}",
        time_only.conditions.pmu
    );
}
