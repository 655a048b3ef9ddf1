//! The session getting-started: fixed counters, branch misses and L1D/L1I read misses
//! around `add_chain(1000)` (256,000 dependent adds ≈ 256,000 cycles), one table per
//! counter. Counters this machine lacks are dropped with the reason; without a hardware PMU
//! the session falls back to Software:TaskClock.
//!
//! `cargo run --release -p picollo-perf --example perf_session`

use picollo_perf::time::add_chain;
use picollo_perf::{
    discover, CacheEvent, CacheLevel, CacheOp, CacheResult, Event, HardwareEvent, PerfError,
    Session, SessionBuilder, SoftwareEvent, FIXED_EVENTS,
};

/// Open what can be opened: drop each counter the machine cannot count (saying why), and
/// fall back to task-clock when nothing is left.
fn open_available(mut wanted: Vec<Event>, pinned: bool) -> Result<Session, PerfError> {
    while !wanted.is_empty() {
        let mut b = SessionBuilder::new()
            .with_target(0, -1) // this thread, any CPU (the default)
            .with_pinned(pinned) // all or nothing on the PMU
            .with_kernel(false) // user space only: what paranoid = 2 allows
            .with_enabled(true);
        for &e in &wanted {
            b = b.with_counter(e);
        }
        match b.open() {
            Ok(s) => return Ok(s),
            Err(e) if e.is_unavailable() && e.event().is_some() => {
                println!("- skipping {e}");
                wanted.retain(|&w| Some(w) != e.event());
            }
            Err(e) => return Err(e),
        }
    }
    println!("No hardware counter available: showing Software:TaskClock (nanoseconds on CPU).");
    SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .open()
}

fn main() -> Result<(), PerfError> {
    let info = discover();
    match info.number_of_counters() {
        Some((fixed, programmable)) => {
            println!("CPU PMU: fixedCounters={fixed}, programmableCounters={programmable}")
        }
        None => println!("CPU PMU: unavailable: {}", info.describe()),
    }

    let mut wanted: Vec<Event> = FIXED_EVENTS.to_vec();
    wanted.push(HardwareEvent::BranchMisses.into());
    wanted.push(CacheEvent::new(CacheLevel::L1D, CacheOp::Read, CacheResult::Miss).into());
    wanted.push(CacheEvent::new(CacheLevel::L1I, CacheOp::Read, CacheResult::Miss).into());
    let mut session = open_available(wanted, true)?;

    for i in 0..10_000 {
        // The syscall path reads the whole group at once: stable, but slower than rdpmc.
        session.read(true)?;
        std::hint::black_box(add_chain(1_000));
        session.read(true)?;
        session.record();
        if i == 1_000 {
            session.reset()?; // drop the warm-up
        }
    }

    for c in session.counters() {
        let mut table = String::new();
        let _ = c
            .histogram()
            .view()
            .summary()
            .write_table(&mut table, c.name());
        println!("{table}");
    }
    println!("Derived (histogram means): {}", session.derived_means());
    Ok(())
}
