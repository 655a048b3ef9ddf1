//! Discovery: what this machine can count (`picollo_perf_discover`,
//! `picollo_perf_describe`, `picollo_perf_counter_supported`).
#![cfg(target_os = "linux")]

use std::ffi::c_char;

use picollo_perf::{discover, emulation, is_counter_supported};

use crate::args::{out, try_str};
use crate::boundary::boundary;
use crate::buffer::write_text;
use crate::perf::args::perf_failure;
use crate::perf::parse_event;
use crate::perf::types::picollo_perf_info;
use crate::status::picollo_status;

/// Writes what the machine offers to `*out`: CPUID, the PMUs in sysfs, rdpmc and
/// perf_event_paranoid, a trial open of cycles (a few system calls). Errors: NULL `out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_discover(out: *mut picollo_perf_info) -> picollo_status {
    boundary!({ out!(out, (&discover()).into()) })
}

/// Writes discovery as one line into `buf`, e.g. `no hardware PMU (CPUID 0xA version 0; …)`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_describe(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({ write_text!(&discover().describe(), buf, len, needed) })
}

/// Writes into `buf` what the emulator counts for this process (`emulated by Picollo's QEMU
/// plugin: instructions, loads, stores`) or why it counts nothing (`not running under
/// Picollo's QEMU plugin: …`); `picollo_perf_counter_supported("Emulated:Instructions")` says
/// the same as a status. Errors: `BUFFER_TOO_SMALL`. ABI 1.16.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_emulation_describe(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    boundary!({ write_text!(&emulation().description, buf, len, needed) })
}

/// Tells by a trial open (user space, this thread) whether the counter `name` can be opened:
/// `OK`, or the status `picollo_perf_session_open` would return, with the message. Errors: NULL
/// `name`; `INVALID_UTF8`; `INVALID_ARGUMENT` for an unknown name.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_counter_supported(name: *const c_char) -> picollo_status {
    boundary!({ is_counter_supported(parse_event(try_str!(name)?)?).map_err(perf_failure) })
}
