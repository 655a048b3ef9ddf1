//! Timers, scopes and CPU helpers: `picollo_ticks*`, `picollo_monotonic_nanos`,
//! `picollo_scope_begin/end`, `picollo_add_chain`, `picollo_pin_thread`,
//! `picollo_set_thread_nice`.
#![cfg(target_os = "linux")]

use picollo_perf::time::{self, TimeUnit};

use crate::args::out;
use crate::boundary::boundary;
use crate::choice::choice;
use crate::error::Failure;
use crate::handle::{caller_owned, try_mut, try_ref};
use crate::histogram::picollo_histogram;
use crate::linux_enums::picollo_time_unit;
use crate::status::picollo_status;

/// The core unit of a scope's `unit` (a `picollo_time_unit`), by [`choice`].
fn time_unit(unit: u32) -> Result<TimeUnit, Failure> {
    Ok(match choice(unit, "scope unit")? {
        picollo_time_unit::Ticks => TimeUnit::Ticks,
        picollo_time_unit::Nanos => TimeUnit::Nanos,
        picollo_time_unit::Micros => TimeUnit::Micros,
        picollo_time_unit::Millis => TimeUnit::Millis,
    })
}

/// Returns the ticks now, unserialized: `rdtsc` on x86-64 Linux, else monotonic nanoseconds.
#[no_mangle]
pub extern "C" fn picollo_ticks() -> u64 {
    boundary!({ time::ticks() })
}

/// Returns the ticks at the start of a region, after earlier instructions (`lfence; rdtsc`).
#[no_mangle]
pub extern "C" fn picollo_ticks_begin() -> u64 {
    boundary!({ time::ticks_begin() })
}

/// Returns the ticks at the end of a region: the region completes first (`rdtscp; lfence`).
#[no_mangle]
pub extern "C" fn picollo_ticks_end() -> u64 {
    boundary!({ time::ticks_end() })
}

/// Returns `CLOCK_MONOTONIC` in nanoseconds.
#[no_mangle]
pub extern "C" fn picollo_monotonic_nanos() -> u64 {
    boundary!({ time::monotonic_nanos() })
}

/// Returns the ticks per second, measured once against `CLOCK_MONOTONIC_RAW` (the first call
/// takes about 20 ms); 10^9 when ticks are nanoseconds.
#[no_mangle]
pub extern "C" fn picollo_tick_frequency() -> u64 {
    boundary!({ time::tick_frequency() })
}

/// Converts ticks to nanoseconds at `picollo_tick_frequency()`, exact and saturating.
#[no_mangle]
pub extern "C" fn picollo_ticks_to_nanos(ticks: u64) -> u64 {
    boundary!({ time::ticks_to_nanos(ticks) })
}

/// Returns `ticks × per_second / frequency` rounded down, saturating, without intermediate
/// overflow; 0 when `frequency` is 0.
#[no_mangle]
pub extern "C" fn picollo_convert_ticks(ticks: u64, frequency: u64, per_second: u64) -> u64 {
    boundary!({ time::convert_ticks(ticks, frequency, per_second) })
}

caller_owned!(picollo_scope);

/// A running measurement from `picollo_scope_begin`, on the caller's stack; fields private.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_scope {
    /// The histogram it records into; NULL once ended.
    pub histogram: *mut picollo_histogram,
    /// Ticks at the start.
    pub start: u64,
    /// A `picollo_time_unit`.
    pub unit: u32,
    /// Reserved, zero.
    pub reserved: u32,
}

/// Starts measuring now, for `picollo_scope_end` to record the elapsed time in `unit` into `h`.
/// Never fails; `h` stays live and unused by other threads until the scope ends.
#[no_mangle]
pub extern "C" fn picollo_scope_begin(h: *mut picollo_histogram, unit: u32) -> picollo_scope {
    let start: Option<u64> = boundary!({
        if matches!(time_unit(unit), Ok(u) if u != TimeUnit::Ticks) {
            time::tick_frequency();
        }
        Some(time::ticks_begin())
    });
    // After a panic: an ended scope (no histogram), which `picollo_scope_end` reports.
    picollo_scope {
        histogram: start.map_or(std::ptr::null_mut(), |_| h),
        start: start.unwrap_or(0),
        unit,
        reserved: 0,
    }
}

/// Ends a scope: records its elapsed time once into its histogram and to `*elapsed` unless NULL.
/// Errors: NULL `scope`, or its histogram (a scope ended already); `INVALID_ARGUMENT` for an
/// unknown unit. Safety: `scope`'s histogram is live and used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn picollo_scope_end(
    scope: *mut picollo_scope,
    elapsed: *mut u64,
) -> picollo_status {
    let end = time::ticks_end();
    boundary!({
        let scope = try_mut!(scope)?;
        let unit = time_unit(scope.unit)?;
        // Only a shared reference: histograms record through atomics, other threads may too.
        let h = try_ref!(scope.histogram).map_err(|_| {
            Failure::new(
                picollo_status::NullPointer,
                "the scope has no histogram: it was begun with NULL or has already ended",
            )
        })?;
        let value = unit.from_ticks(end.wrapping_sub(scope.start));
        h.changeable("picollo_scope_end")?.record(value);
        scope.histogram = std::ptr::null_mut();
        out!(elapsed?, value)
    })
}

/// Runs 256 dependent additions per block (known work, ≈ 256 × `blocks` cycles) and returns
/// 256 × `blocks`.
#[no_mangle]
pub extern "C" fn picollo_add_chain(blocks: u64) -> u64 {
    boundary!({ time::add_chain(blocks) })
}

fn os_failure(what: &str, e: std::io::Error) -> Failure {
    let status = match e.kind() {
        std::io::ErrorKind::PermissionDenied => picollo_status::PermissionDenied,
        std::io::ErrorKind::InvalidInput => picollo_status::InvalidArgument,
        _ => picollo_status::OsError,
    };
    Failure::new(status, format_args!("{what}: {e}"))
}

/// Pins the calling thread to CPU `cpu`. Errors: `INVALID_ARGUMENT` for a CPU that does not
/// exist or is not allowed; `OS_ERROR`.
#[no_mangle]
pub extern "C" fn picollo_pin_thread(cpu: u32) -> picollo_status {
    boundary!({
        time::pin_current_thread(cpu as usize)
            .map_err(|e| os_failure(&format!("pinning this thread to CPU {cpu}"), e))
    })
}

/// Sets the calling thread's nice value (-20..19). Errors: `PERMISSION_DENIED` when raising the
/// priority without CAP_SYS_NICE or RLIMIT_NICE.
#[no_mangle]
pub extern "C" fn picollo_set_thread_nice(nice: i32) -> picollo_status {
    boundary!({
        if !(-20..=19).contains(&nice) {
            return Err(Failure::invalid(format_args!(
                "nice value {nice} is outside -20..=19"
            )));
        }
        time::set_current_thread_nice(nice)
            .map_err(|e| os_failure(&format!("setting this thread's nice value to {nice}"), e))
    })
}
