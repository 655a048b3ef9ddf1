//! `picollo_perf_session_*` of an open session: read, deltas, record, enable/disable/reset,
//! and the per-counter queries (name, values, the borrowed histogram, derived figures).
#![cfg(target_os = "linux")]

use std::ffi::c_char;

use crate::args::{check_room, out, try_slice_mut};
use crate::buffer::write_text;
use crate::choice::flag;
use crate::handle::try_mut;
use crate::histogram::picollo_histogram;
use crate::perf::args::{perf_failure, record_kind};
use crate::perf::histogram::lend;
use crate::perf::types::{
    picollo_perf_counter_values, picollo_perf_delta, picollo_perf_derived, picollo_perf_path_choice,
};
use crate::perf::{invalid, picollo_perf_session, session};
use crate::status::picollo_status;

/// Reads every counter, through rdpmc when allowed and `force_syscall` is 0, else one `read(2)`
/// of the group; `*path` (may be NULL) gets the `picollo_perf_read_path` taken. Errors: NULL
/// `s`; `INVALID_ARGUMENT` when not open or `force_syscall` not 0/1; `OS_ERROR`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_read(
    s: *mut picollo_perf_session,
    force_syscall: u32,
    path: *mut u32,
) -> picollo_status {
    session!(mut s => {
        let force = flag(force_syscall, "force_syscall")?;
        let taken = s.open_session()?.read(force).map_err(perf_failure)?;
        out!(path?, taken as u32)
    })
}

/// Writes the latest deltas, one per counter in the order added, to `out[0..n)`; `*count` (may
/// be NULL) gets the number of counters. Errors: `BUFFER_TOO_SMALL` (nothing written to `out`).
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_deltas(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_delta,
    n: usize,
    count: *mut usize,
) -> picollo_status {
    session!(s => {
        let session = s.opened()?;
        out!(count?, session.len())?;
        check_room(n, session.len(), || {
            format!("room for {n} deltas, the session has {} counters", session.len())
        })?;
        let out = try_slice_mut!(out, n)?;
        for (o, d) in out.iter_mut().zip(session.deltas()) {
            *o = d.into();
        }
        Ok(())
    })
}

/// Records each counter's latest value of the configured `record_kind` into its histogram. Errors:
/// NULL `s`; `INVALID_ARGUMENT` when not open. Threads: no other thread uses its histograms.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_record(
    s: *mut picollo_perf_session,
) -> picollo_status {
    session!(mut s => s.record(s.record_kind))
}

/// Records each counter's latest value of `kind` (a `picollo_perf_record_kind`) into its histogram.
/// Threads: as `picollo_perf_session_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_record_kind(
    s: *mut picollo_perf_session,
    kind: u32,
) -> picollo_status {
    session!(mut s => s.record(record_kind(kind)?))
}

/// Starts counting the whole group. Errors: NULL `s`; `INVALID_ARGUMENT` when not open; `OS_ERROR`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_enable(
    s: *mut picollo_perf_session,
) -> picollo_status {
    session!(mut s => s.open_session()?.enable().map_err(perf_failure))
}

/// Stops counting the whole group; readings keep their last values. Errors: as `_enable`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_disable(
    s: *mut picollo_perf_session,
) -> picollo_status {
    session!(mut s => s.open_session()?.disable().map_err(perf_failure))
}

/// Zeroes the kernel's counts and every counter's histogram, and rebases the readings. Errors: as
/// `_enable`. Threads: as `picollo_perf_session_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_reset(
    s: *mut picollo_perf_session,
) -> picollo_status {
    session!(mut s => {
        // The core session resets the counters' histograms with the kernel counts.
        s.open_session()?.reset().map_err(perf_failure)
    })
}

/// Writes the read path the session took at open, its policy, why, and what each path cost
/// then. Errors: NULL `s` or `out`; `INVALID_ARGUMENT` when not open.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_path_choice(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_path_choice,
) -> picollo_status {
    session!(s => out!(out, s.opened()?.read_path_choice().into()))
}

/// Writes the read path and why as one line into `buf`, e.g. `read(2): 8,100 ns a read against
/// 39,000 ns in user space (…)`; once a user-space read raced the kernel, how often (`…; 3 of
/// 40,000 user-space reads raced the kernel (…)`). Errors: `BUFFER_TOO_SMALL`;
/// `INVALID_ARGUMENT` when not open.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_path_describe(
    s: *const picollo_perf_session,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    session!(s => {
        let text = s.opened()?.read_path_line();
        write_text!(&text, buf, len, needed)
    })
}

/// Writes 1 to `*out` after a successful `picollo_perf_session_open`, else 0.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_is_open(
    s: *const picollo_perf_session,
    out: *mut u32,
) -> picollo_status {
    session!(s => out!(out, u32::from(s.session.is_some())))
}

/// Writes the number of counters added so far (open or not) to `*out`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_count(
    s: *const picollo_perf_session,
    out: *mut usize,
) -> picollo_status {
    session!(s => out!(out, s.builder.counters().len()))
}

/// Writes the name of counter `index` (`Hardware:CpuCycles`…) into `buf`. Errors:
/// `BUFFER_TOO_SMALL`; `OUT_OF_RANGE` past the end.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_name(
    s: *const picollo_perf_session,
    index: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    session!(s => {
        let name = s.builder.counters()[s.index(index)?].to_string();
        write_text!(&name, buf, len, needed)
    })
}

/// Writes the readings, delta, calibrated overheads and flags of counter `index` to `*out`.
/// Errors: NULL `s` or `out`; `INVALID_ARGUMENT` when not open; `OUT_OF_RANGE`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_values(
    s: *const picollo_perf_session,
    index: usize,
    out: *mut picollo_perf_counter_values,
) -> picollo_status {
    session!(s => {
        let k = s.index(index)?;
        let session = s.opened()?;
        let out = try_mut!(out)?;
        let c = session
            .counter(k)
            .ok_or_else(|| invalid("counter missing"))?;
        *out = c.into();
        Ok(())
    })
}

/// Lends in `*out` the histogram of counter `index`: BORROWED, owned by the session until
/// `picollo_perf_session_free`. Errors: NULL `s` or `out`; `OUT_OF_RANGE`. Threads: as the session.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_histogram(
    s: *mut picollo_perf_session,
    index: usize,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    session!(mut s => {
        let k = s.index(index)?;
        out!(out, lend(&s.histograms[k]))
    })
}

/// Writes the IPC, cache-miss and branch-miss ratios of the latest deltas (NaN where a counter
/// or denominator is missing). Errors: NULL; `INVALID_ARGUMENT` when not open.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_derived(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_derived,
) -> picollo_status {
    session!(s => {
        let session = s.opened()?;
        out!(out, session.derived().into())
    })
}

/// Writes the same ratios over the means of the counters' histograms (before open too: NaN).
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_derived_means(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_derived,
) -> picollo_status {
    session!(s => out!(out, s.derived_means().into()))
}
