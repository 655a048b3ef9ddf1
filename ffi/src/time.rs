//! Timers, scopes and CPU helpers: `picollo_ticks*`, `picollo_monotonic_nanos`,
//! `picollo_scope_begin/end`, `picollo_add_chain`, `picollo_pin_thread`,
//! `picollo_set_thread_nice`.

use picollo::time::{self, TimeUnit};

use crate::histogram::{picollo_histogram, Failure};
use crate::status::{as_mut, as_ref, guard, guard_value, picollo_status, status_of};

/// The unit a scope records in (`picollo_scope_begin`).
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_time_unit {
    /// Raw ticks (TSC on x86-64 Linux, else monotonic nanoseconds).
    Ticks = 0,
    /// Nanoseconds.
    Nanos = 1,
    /// Microseconds.
    Micros = 2,
    /// Milliseconds.
    Millis = 3,
}

fn time_unit(unit: u32) -> Option<TimeUnit> {
    Some(match unit {
        0 => TimeUnit::Ticks,
        1 => TimeUnit::Nanos,
        2 => TimeUnit::Micros,
        3 => TimeUnit::Millis,
        _ => return None,
    })
}

/// Ticks now, unserialized (the cheapest read): the TSC (`rdtsc`) on x86-64 Linux, else
/// monotonic nanoseconds. Never fails.
#[no_mangle]
pub extern "C" fn picollo_ticks() -> u64 {
    guard_value(0, time::ticks)
}

/// Ticks at the start of a region: earlier instructions complete first (`lfence; rdtsc`).
#[no_mangle]
pub extern "C" fn picollo_ticks_begin() -> u64 {
    guard_value(0, time::ticks_begin)
}

/// Ticks at the end of a region: the region completes first (`rdtscp; lfence`).
#[no_mangle]
pub extern "C" fn picollo_ticks_end() -> u64 {
    guard_value(0, time::ticks_end)
}

/// `CLOCK_MONOTONIC` in nanoseconds.
#[no_mangle]
pub extern "C" fn picollo_monotonic_nanos() -> u64 {
    guard_value(0, time::monotonic_nanos)
}

/// Ticks per second: measured once against `CLOCK_MONOTONIC_RAW` over about 20 ms (the
/// first call takes that long), 10^9 when ticks are monotonic nanoseconds.
#[no_mangle]
pub extern "C" fn picollo_tick_frequency() -> u64 {
    guard_value(0, time::tick_frequency)
}

/// Ticks → nanoseconds at `picollo_tick_frequency()`, exact and saturating: no overflow
/// for any tick count (10^6 s of ticks converts exactly).
#[no_mangle]
pub extern "C" fn picollo_ticks_to_nanos(ticks: u64) -> u64 {
    guard_value(0, || time::ticks_to_nanos(ticks))
}

/// `ticks × per_second / frequency`, rounded down, saturating at UINT64_MAX, without
/// intermediate overflow; 0 when `frequency` is 0.
#[no_mangle]
pub extern "C" fn picollo_convert_ticks(ticks: u64, frequency: u64, per_second: u64) -> u64 {
    guard_value(0, || time::convert_ticks(ticks, frequency, per_second))
}

/// A running measurement (`picollo_scope_begin`), held by value on the caller's stack.
/// Treat the fields as private.
#[allow(non_camel_case_types)]
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

/// Start measuring now; `picollo_scope_end` records the elapsed time in `unit` (a
/// `picollo_time_unit`) into `h`. For units other than ticks the tick frequency is measured
/// first (once per process) so the region does not pay for it. Never fails: a NULL `h` or
/// a bad unit is reported by `picollo_scope_end`. `h` must still be live (and not used by
/// another thread) when the scope ends.
#[no_mangle]
pub extern "C" fn picollo_scope_begin(h: *mut picollo_histogram, unit: u32) -> picollo_scope {
    guard_value(
        picollo_scope {
            histogram: std::ptr::null_mut(),
            start: 0,
            unit,
            reserved: 0,
        },
        || {
            if matches!(time_unit(unit), Some(u) if u != TimeUnit::Ticks) {
                time::tick_frequency();
            }
            picollo_scope {
                histogram: h,
                unit,
                reserved: 0,
                start: time::ticks_begin(),
            }
        },
    )
}

/// End a scope: record the elapsed time into its histogram once, write it to `*elapsed`
/// (if not NULL) and mark the scope ended.
///
/// Errors: NULL `scope`; `NULL_POINTER` when its histogram is NULL (begun with NULL, or
/// already ended); `INVALID_ARGUMENT` for an unknown unit (nothing recorded).
///
/// # Safety
/// `scope` is NULL or a writable scope from `picollo_scope_begin`, whose histogram is
/// still live and not used by another thread; `elapsed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_scope_end(
    scope: *mut picollo_scope,
    elapsed: *mut u64,
) -> picollo_status {
    let end = time::ticks_end();
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let scope = unsafe { as_mut(scope, "scope") }?;
            let unit = time_unit(scope.unit).ok_or_else(|| -> Failure {
                (
                    picollo_status::InvalidArgument,
                    format!(
                        "scope unit {} is unknown: it must be a picollo_time_unit (0 ticks, 1 \
                         nanos, 2 micros, 3 millis)",
                        scope.unit
                    ),
                )
            })?;
            // SAFETY: per this function's contract: the histogram is NULL or live. Only a
            // shared reference: histograms record through atomics, other threads may too.
            let h = unsafe { as_ref(scope.histogram.cast_const(), "scope->histogram") }.map_err(
                |_| {
                    (
                        picollo_status::NullPointer,
                        "the scope has no histogram: it was begun with NULL or has already ended"
                            .to_string(),
                    )
                },
            )?;
            let value = unit.from_ticks(end.wrapping_sub(scope.start));
            h.record(value);
            scope.histogram = std::ptr::null_mut();
            // SAFETY: per this function's contract; NULL gives None.
            if let Some(elapsed) = unsafe { elapsed.as_mut() } {
                *elapsed = value;
            }
            Ok(())
        })())
    })
}

/// A chain of 256 dependent additions per block (native asm on x86-64 Linux): known work,
/// ≈ 256 × `blocks` cycles on a PMU machine. Returns 256 × `blocks`.
#[no_mangle]
pub extern "C" fn picollo_add_chain(blocks: u64) -> u64 {
    guard_value(0, || time::add_chain(blocks))
}

fn os_failure(what: &str, e: std::io::Error) -> Failure {
    let status = match e.kind() {
        std::io::ErrorKind::PermissionDenied => picollo_status::PermissionDenied,
        std::io::ErrorKind::InvalidInput => picollo_status::InvalidArgument,
        _ => picollo_status::OsError,
    };
    (status, format!("{what}: {e}"))
}

/// Pin the calling thread to CPU `cpu` (`sched_setaffinity`).
///
/// Errors: `INVALID_ARGUMENT` for a CPU that does not exist or is not allowed (EINVAL);
/// `OS_ERROR` otherwise.
#[no_mangle]
pub extern "C" fn picollo_pin_thread(cpu: u32) -> picollo_status {
    guard(|| {
        status_of(
            time::pin_current_thread(cpu as usize)
                .map_err(|e| os_failure(&format!("pinning this thread to CPU {cpu}"), e)),
        )
    })
}

/// Set the calling thread's nice value (-20 highest … 19 lowest). Lowering the value
/// (raising priority) needs CAP_SYS_NICE or RLIMIT_NICE: `PERMISSION_DENIED` otherwise.
#[no_mangle]
pub extern "C" fn picollo_set_thread_nice(nice: i32) -> picollo_status {
    guard(|| {
        if !(-20..=19).contains(&nice) {
            return crate::status::fail(
                picollo_status::InvalidArgument,
                format!("nice value {nice} is outside -20..=19"),
            );
        }
        status_of(
            time::set_current_thread_nice(nice)
                .map_err(|e| os_failure(&format!("setting this thread's nice value to {nice}"), e)),
        )
    })
}
