//! Clocks, scopes and CPU helpers for benchmarking.
//!
//! - [`monotonic_nanos`] reads `clock_gettime(CLOCK_MONOTONIC)`.
//! - [`ticks`], [`ticks_begin`] and [`ticks_end`] read the CPU's tick clock where the build
//!   compiled `native/`: the time-stamp counter on x86-64 (`rdtsc`, `lfence; rdtsc`,
//!   `rdtscp; lfence`), the virtual counter on arm64 (`cntvct_el0`, fenced by `isb`); else
//!   monotonic nanoseconds. [`tick_frequency`] is measured once on x86-64 and read from
//!   `cntfrq_el0` on arm64.
//! - [`ticks_to_nanos`] and friends convert without overflow for any tick count.
//! - A [`Scope`] records elapsed ticks/nanos/micros/millis into a histogram when dropped.
//! - [`add_chain`], [`pin_current_thread`], [`set_current_thread_nice`].

mod clock;
mod cpu;
mod scope;

pub use clock::{
    convert_ticks, monotonic_nanos, step_of, tick_frequency, tick_source, tick_step, ticks,
    ticks_and_cpu, ticks_begin, ticks_end, ticks_to_micros, ticks_to_millis, ticks_to_nanos,
    TickSource,
};
pub use cpu::{
    add_chain, current_cpu, current_thread_nice, pin_current_thread, set_current_thread_nice,
    ADD_CHAIN_BLOCK_INSTRUCTIONS,
};
/// What a scope records into: the histogram crate's [`Sink`].
pub use picollo::Sink;
pub use scope::{Scope, ScopeExt, TimeUnit};
