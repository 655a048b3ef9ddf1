//! Picollo's measurement toolkit (Linux): perf_event counters and the clocks a benchmark
//! reads, recording into [`picollo`] histograms.
//!
//! - The crate's root: sessions of hardware, cache, software and raw events read as one
//!   group, with an rdpmc fast path, deltas recorded into one histogram per counter,
//!   discovery of what this machine can count, and errors that say why it cannot.
//! - [`time`]: the tick clock, monotonic nanoseconds, scopes that record their elapsed
//!   time, and the CPU helpers a benchmark pins and calibrates with.
//!
//! On x86-64 and arm64 the build script compiles `native/` (the counter read, the tick
//! clock, fences, the known instruction chain) and Picollo's QEMU plugin; other Linux
//! targets read through read(2) and `CLOCK_MONOTONIC`. On other systems the crate is empty.
//!
//! ```no_run
//! use picollo_perf::{HardwareEvent, SessionBuilder, SoftwareEvent};
//! let mut session = SessionBuilder::new()
//!     .with_hardware(HardwareEvent::CpuCycles)
//!     .with_software(SoftwareEvent::TaskClock)
//!     .open()?;
//! for _ in 0..1_000 {
//!     session.read(false)?;
//!     picollo_perf::time::add_chain(100);
//!     session.read(false)?;
//!     session.record();
//! }
//! for c in session.counters() {
//!     println!("{}", c.histogram().view().summary());
//! }
//! # Ok::<(), picollo_perf::PerfError>(())
//! ```
#![cfg(target_os = "linux")]
#![warn(missing_docs)]

// The crate's README (crates.io's front page) is compiled as a doctest, so its snippet stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod builder;
mod counter;
mod derived;
mod discovery;
mod emulated;
mod error;
mod event;
mod event_name;
mod exact;
mod group;
#[cfg(picollo_native)]
mod native;
mod open;
#[cfg(picollo_native)]
mod page;
#[cfg(all(test, picollo_native))]
mod page_race;
mod path;
#[cfg(picollo_native)]
mod plugin;
mod session;
mod sys;
mod system;
pub mod time;
mod values;

pub use builder::SessionBuilder;
pub use counter::{CounterHistogram, SessionCounter};
pub use derived::Derived;
pub use discovery::{
    discover, is_counter_supported, number_of_counters, supported_counters, CpuVendor, PmuInfo,
};
pub use emulated::{
    emulation, EmulatedCounts, Emulation, L1dModel, ALL_THREADS, RECORD_VERSION, SYSCALL,
};
pub use error::{PerfError, PerfErrorKind};
pub use event::{
    CacheEvent, CacheLevel, CacheOp, CacheResult, EmulatedEvent, Event, HardwareEvent, RawEvent,
    SoftwareEvent, FIXED_EVENTS,
};
pub use event_name::{named_events, EventClass, ParseEventError};
pub use exact::ReadStats;
pub use group::MAX_GROUP_COUNTERS;
pub use path::{under_instrumenter, PathChoice, PathReason, ReadPolicy, COST_ROUNDS};
/// What a session records into: the histogram crate's [`Sink`](picollo::Sink), under a
/// name of its own.
pub use picollo::Sink as CounterSink;
#[cfg(picollo_native)]
pub use plugin::{install_qemu_plugin, qemu_plugin};
pub use session::{RecordKind, Session};
pub use system::{paranoid_meaning, perf_event_paranoid, rdpmc_setting, SysfsPmu};
pub use values::{scale, Delta, ReadPath, Reading};
