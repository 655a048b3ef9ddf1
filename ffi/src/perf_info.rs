//! Discovery: what this machine can count (`picollo_perf_discover`,
//! `picollo_perf_describe`, `picollo_perf_counter_supported`).

use std::ffi::c_char;

use picollo::perf::{discover, is_counter_supported};

use crate::perf::parse_event;
use crate::perf_types::{perf_failure, picollo_perf_info};
use crate::status::{as_mut, as_str, fail, guard, picollo_status, status_of, write_text};

/// Look at the machine: CPUID, the PMUs in sysfs, the rdpmc and perf_event_paranoid
/// settings and a trial open of cycles. Takes a few system calls (not for a hot path).
///
/// Errors: NULL `out`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_discover(out: *mut picollo_perf_info) -> picollo_status {
    guard(|| {
        status_of((|| {
            // SAFETY: per this function's contract.
            let out = unsafe { as_mut(out, "out") }?;
            *out = (&discover()).into();
            Ok(())
        })())
    })
}

/// Discovery as one line, snprintf-style (see `picollo_summary_table` for the buffer
/// rules): `CPU PMU: fixedCounters=3, programmableCounters=8 (…)` or, on a machine without
/// one, `no hardware PMU (CPUID 0xA version 0; hardware events → ENOENT)…`.
///
/// # Safety
/// `buf` is NULL or has `len` writable bytes; `needed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_describe(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    guard(|| {
        let text = discover().describe();
        // SAFETY: per this function's contract.
        unsafe { write_text(&text, buf, len, needed) }
    })
}

/// Whether the counter named `name` (`Hardware:CpuCycles`, `Software:TaskClock`, see
/// `picollo_perf_session_add_named`) can be opened here, by a trial open (user space, this
/// thread). `OK` when it can; otherwise the status `picollo_perf_session_open` would
/// return (`UNSUPPORTED`, `PERMISSION_DENIED`…) with the message naming the counter and
/// the cause, e.g. "Hardware:CpuCycles: not supported on this machine (ENOENT: no hardware
/// PMU…)".
///
/// Errors: NULL `name`; `INVALID_UTF8`; `INVALID_ARGUMENT` for an unknown name.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_counter_supported(name: *const c_char) -> picollo_status {
    guard(|| {
        if name.is_null() {
            return fail(picollo_status::NullPointer, "argument `name` is NULL");
        }
        status_of((|| {
            // SAFETY: per this function's contract (non-NULL, checked above).
            let name = unsafe { as_str(name, "name") }?;
            is_counter_supported(parse_event(name)?).map_err(perf_failure)
        })())
    })
}
