//! The C ABI of Picollo: `libpicollo.so` / `libpicollo.a` with `include/picollo.h`.
//!
//! Conventions (see the header for each function):
//! - every name starts with `picollo_`; handles are opaque, created by `_new`, freed by
//!   `_free` (which accepts NULL);
//! - fallible calls return a `picollo_status` (0 = OK) and set a thread-local message read
//!   by `picollo_last_error_message()`; outputs go through pointers written on success;
//! - the hot paths (`picollo_histogram_record*`) return nothing and never fail;
//! - text goes into caller buffers, snprintf-style, with the needed size reported;
//! - no panic crosses the boundary: every body runs under `catch_unwind`;
//! - `picollo_approx_counter_*` is the scalable approximate counter on its own;
//! - HdrHistogram interoperability: V2 encoding (`picollo_histogram_encode_v2` / `_decode_v2`
//!   / `_add_v2`), the `.hgrm` percentile distribution and interval logs (`picollo_log_*`);
//! - metrics pipelines: interval collection (`picollo_histogram_collect`,
//!   `picollo_snapshot_collect`), OpenMetrics text (`picollo_histogram_openmetrics`,
//!   `picollo_openmetrics_writer_*`), Prometheus client buckets and OTLP exponential
//!   histograms (`picollo_histogram_otlp`);
//! - Linux adds the perf_event layer (`picollo_perf_*`), timers, scopes and CPU helpers,
//!   and the benchmark harness (`picollo_bench_*`).
//!
//! Inside, every exported body runs through one panic boundary (`boundary!`) and reaches
//! its pointer arguments through a few checked helpers (`try_ref!`, `try_mut!`,
//! `try_slice!`, `try_str!`, `out!`, `read_sized!`), each with its safety argument written
//! once; handle types name the Rust value behind them through `handle::Castable`.
//!
//! Safety of the exported functions: one convention for every pointer argument, stated in
//! the header's preamble (`ffi/cbindgen.toml`) and in docs/c-api.md ("Pointer arguments");
//! a function's doc says only what differs from it.

// The `# Safety` of every `unsafe extern "C" fn` is the pointer convention above, stated once
// for the whole C API instead of per function.
#![allow(clippy::missing_safety_doc)]
// C names are snake_case by convention, types included.
#![allow(non_camel_case_types)]

// The Linux-only modules (the perf layer, timers and scopes, the benchmark harness) say so
// with `#![cfg(target_os = "linux")]` at their top. cbindgen reads no inner attribute, so the
// header declares their items without a guard of their own, and its preamble says once that
// only Linux builds export them.
mod args;
mod bench;
mod boundary;
mod buffer;
mod choice;
mod convert;
mod enums;
mod error;
mod float;
mod handle;
mod histogram;
mod linux_enums;
mod metrics;
mod perf;
mod status;
#[cfg(test)]
mod testing;
mod text;
mod time;

pub use bench::*;
pub use enums::*;
pub use error::picollo_last_error_message;
pub use float::*;
pub use histogram::*;
pub use linux_enums::*;
pub use metrics::*;
pub use perf::*;
pub use status::{picollo_status, picollo_status_str};
pub use text::*;
pub use time::*;

/// Major ABI version: bumped on incompatible changes.
pub const PICOLLO_ABI_VERSION_MAJOR: u32 = 1;
/// Minor ABI version: bumped when functions or fields are added compatibly.
pub const PICOLLO_ABI_VERSION_MINOR: u32 = 30;
/// ABI version of this header: major in the high 16 bits, minor in the low 16.
pub const PICOLLO_ABI_VERSION: u32 = (PICOLLO_ABI_VERSION_MAJOR << 16) | PICOLLO_ABI_VERSION_MINOR;

/// Returns the ABI version of the loaded library (see `PICOLLO_ABI_VERSION`).
#[no_mangle]
pub extern "C" fn picollo_abi_version() -> u32 {
    PICOLLO_ABI_VERSION
}
