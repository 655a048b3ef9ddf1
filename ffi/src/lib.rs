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
//! - Linux adds the perf_event layer (`picollo_perf_*`), timers, scopes and CPU helpers.
//!
//! The modules are `pub(crate)` so that `ffi/benches` can compile this file as a module
//! and glob-import them at its root, where their `crate::…` paths expect them.

pub(crate) mod approx;
pub(crate) mod convert;
pub(crate) mod histogram;
#[cfg(target_os = "linux")]
pub(crate) mod perf;
#[cfg(target_os = "linux")]
pub(crate) mod perf_info;
#[cfg(target_os = "linux")]
pub(crate) mod perf_read;
#[cfg(target_os = "linux")]
pub(crate) mod perf_types;
pub(crate) mod query;
pub(crate) mod snapshot;
pub(crate) mod status;
pub(crate) mod text;
#[cfg(target_os = "linux")]
pub(crate) mod time;
pub(crate) mod types;

pub use approx::*;
pub use histogram::*;
#[cfg(target_os = "linux")]
pub use perf::*;
#[cfg(target_os = "linux")]
pub use perf_info::*;
#[cfg(target_os = "linux")]
pub use perf_read::*;
#[cfg(target_os = "linux")]
pub use perf_types::*;
pub use query::*;
pub use snapshot::*;
pub use status::{picollo_last_error_message, picollo_status, picollo_status_str};
pub use text::*;
#[cfg(target_os = "linux")]
pub use time::*;
pub use types::*;

/// Major ABI version: bumped on incompatible changes.
pub const PICOLLO_ABI_VERSION_MAJOR: u32 = 1;
/// Minor ABI version: bumped when functions or fields are added compatibly.
pub const PICOLLO_ABI_VERSION_MINOR: u32 = 1;
/// ABI version of this header: major in the high 16 bits, minor in the low 16. A library
/// whose `picollo_abi_version() >> 16` differs from `PICOLLO_ABI_VERSION_MAJOR` is
/// incompatible.
pub const PICOLLO_ABI_VERSION: u32 = (PICOLLO_ABI_VERSION_MAJOR << 16) | PICOLLO_ABI_VERSION_MINOR;

/// The ABI version of the loaded library (see `PICOLLO_ABI_VERSION`).
#[no_mangle]
pub extern "C" fn picollo_abi_version() -> u32 {
    PICOLLO_ABI_VERSION
}
