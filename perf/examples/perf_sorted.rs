//! Sorted vs unsorted: a branchy loop over 1,000,000 random bytes, measured before and
//! after sorting them, as diff tables of cycles and branch misses (the famous Stack
//! Overflow question). Without a hardware PMU it shows Software:TaskClock instead.
//!
//! `cargo run --release -p picollo-perf --example perf_sorted [iterations]`

use picollo::Summary;
use picollo_perf::{
    discover, Event, HardwareEvent, PerfError, Session, SessionBuilder, SoftwareEvent,
};

#[path = "../../core/examples/common/branchy.rs"]
mod branchy;
use branchy::{branchy, random_bytes};

/// Cycles and branch misses, or task-clock where the machine has no hardware counters.
fn open_session() -> Result<Session, PerfError> {
    let hardware: [Event; 2] = [
        HardwareEvent::CpuCycles.into(),
        HardwareEvent::BranchMisses.into(),
    ];
    let mut b = SessionBuilder::new().with_kernel(false).with_enabled(true);
    for e in hardware {
        b = b.with_counter(e);
    }
    match b.open() {
        Ok(s) => Ok(s),
        Err(e) if e.is_unavailable() => {
            println!("Hardware counters unavailable: {e}");
            println!("Showing Software:TaskClock (nanoseconds on CPU) instead.\n");
            SessionBuilder::new()
                .with_software(SoftwareEvent::TaskClock)
                .open()
        }
        Err(e) => Err(e),
    }
}

/// `iterations` measured passes over `values`, recorded into the session's histograms.
fn measure(session: &mut Session, values: &[u8], iterations: usize) -> Result<f64, PerfError> {
    let mut acc = 0.0;
    for _ in 0..iterations {
        session.read(true)?;
        acc = branchy(values, acc);
        session.read(true)?;
        session.record();
    }
    Ok(acc)
}

fn main() -> Result<(), PerfError> {
    let iterations: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let info = discover();
    match info.number_of_counters() {
        Some((f, p)) => println!("CPU PMU: fixedCounters={f}, programmableCounters={p}"),
        None => println!("CPU PMU: unavailable: {}", info.describe()),
    }
    let mut session = open_session()?;

    let mut values = random_bytes(1_000_000, 0x9e37_79b9_7f4a_7c15);
    assert!(measure(&mut session, &values, iterations)? >= 0.0);
    let unsorted: Vec<Summary> = session
        .counters()
        .iter()
        .map(|c| c.histogram().view().summary())
        .collect();
    session.reset()?;
    values.sort_unstable();
    let acc = measure(&mut session, &values, iterations)?;
    assert!(acc >= 0.0, "keep the work observable");

    for (c, before) in session.counters().iter().zip(&unsorted) {
        let after = c.histogram().view().summary();
        let mut table = String::new();
        let _ = before.write_diff(&after, &mut table, c.name(), "Unsorted", "Sorted");
        println!("{table}");
    }
    Ok(())
}
