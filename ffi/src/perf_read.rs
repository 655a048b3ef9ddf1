//! `picollo_perf_session_*` of an open session: read, deltas, record, enable/disable/reset,
//! and the per-counter queries (name, values, the borrowed histogram, derived figures).

use std::ffi::c_char;

use crate::histogram::{picollo_histogram, Failure};
use crate::perf::{flag, invalid, picollo_perf_session, with_session, with_session_ref};
use crate::perf_types::{
    perf_failure, picollo_perf_counter_values, picollo_perf_delta, picollo_perf_derived,
    record_kind,
};
use crate::status::{as_mut, as_ref, as_slice_mut, guard, picollo_status, write_text};

/// Read every counter: through rdpmc when allowed and `force_syscall` is 0, else (or when a
/// page says rdpmc is unavailable right now) one `read(2)` of the group. The previous
/// reading becomes `previous`; deltas update. `*path` (if not NULL) receives the
/// `picollo_perf_read_path` taken.
///
/// Errors: NULL `s`; `INVALID_ARGUMENT` when not open or `force_syscall` is not 0/1;
/// `OS_ERROR` when the read fails or a pinned group cannot be scheduled.
///
/// # Safety
/// `s` as in `picollo_perf_session_add_hardware`; `path` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_read(
    s: *mut picollo_perf_session,
    force_syscall: u32,
    path: *mut u32,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> {
        let force = flag(force_syscall, "force_syscall")?;
        let taken = s.open_session()?.read(force).map_err(perf_failure)?;
        // SAFETY: per this function's contract; NULL gives None.
        if let Some(path) = unsafe { path.as_mut() } {
            *path = taken as u32;
        }
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// The latest deltas, one per counter in the order they were added, into `out[0..n)`.
/// `*count` (if not NULL) receives the number of counters, even on `BUFFER_TOO_SMALL`
/// (when `n` is smaller: nothing is written to `out`).
///
/// # Safety
/// `s` is NULL or a live session; `out` points to `n` writable entries (NULL allowed when
/// `n` is 0); `count` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_deltas(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_delta,
    n: usize,
    count: *mut usize,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        let session = s.opened()?;
        // SAFETY: per this function's contract; NULL gives None.
        if let Some(count) = unsafe { count.as_mut() } {
            *count = session.len();
        }
        if n < session.len() {
            return Err((
                picollo_status::BufferTooSmall,
                format!(
                    "room for {n} deltas, the session has {} counters",
                    session.len()
                ),
            ));
        }
        // SAFETY: per this function's contract.
        let out = unsafe { as_slice_mut(out, n, "out") }?;
        for (o, d) in out.iter_mut().zip(session.deltas()) {
            *o = d.into();
        }
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}

/// Record each counter's latest value of the configured kind (`picollo_perf_config.
/// record_kind`, by default the scaled delta) into its histogram.
///
/// Errors: NULL `s`; `INVALID_ARGUMENT` when not open.
///
/// # Safety
/// As `picollo_perf_session_add_hardware`; no borrowed histogram of this session is used
/// by another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_record(
    s: *mut picollo_perf_session,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> { s.record(s.record_kind) };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// Record each counter's latest value of `kind` (a `picollo_perf_record_kind`) into its
/// histogram.
///
/// # Safety
/// As `picollo_perf_session_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_record_kind(
    s: *mut picollo_perf_session,
    kind: u32,
) -> picollo_status {
    let body =
        |s: &mut picollo_perf_session| -> Result<(), Failure> { s.record(record_kind(kind)?) };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// Start counting (the whole group). Errors: NULL `s`; `INVALID_ARGUMENT` when not open;
/// `OS_ERROR` if the ioctl fails.
///
/// # Safety
/// As `picollo_perf_session_add_hardware`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_enable(
    s: *mut picollo_perf_session,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> {
        s.open_session()?.enable().map_err(perf_failure)
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// Stop counting (the whole group); readings keep their last values. Errors as for
/// `picollo_perf_session_enable`.
///
/// # Safety
/// As `picollo_perf_session_add_hardware`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_disable(
    s: *mut picollo_perf_session,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> {
        s.open_session()?.disable().map_err(perf_failure)
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// Zero the kernel's counts and every counter's histogram, and rebase the readings (deltas
/// 0). Errors as for `picollo_perf_session_enable`.
///
/// # Safety
/// As `picollo_perf_session_record`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_reset(
    s: *mut picollo_perf_session,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> {
        // The core session resets the counters' histograms with the kernel counts.
        s.open_session()?.reset().map_err(perf_failure)
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// Whether the session is open: `*out` = 1 after a successful `picollo_perf_session_open`,
/// else 0.
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_is_open(
    s: *const picollo_perf_session,
    out: *mut u32,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        *out = u32::from(s.session.is_some());
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}

/// Number of counters added so far (open or not).
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_count(
    s: *const picollo_perf_session,
    out: *mut usize,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        *out = s.builder.counters().len();
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}

/// The name of counter `index` (`Hardware:CpuCycles`, `Software:TaskClock`…), written
/// snprintf-style: at most `len − 1` bytes and a NUL; `*needed` (if not NULL) gets the full
/// length without the NUL; `BUFFER_TOO_SMALL` when truncated. `OUT_OF_RANGE` for an index
/// past the end.
///
/// # Safety
/// `s` is NULL or a live session; `buf` is NULL or has `len` writable bytes; `needed` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_name(
    s: *const picollo_perf_session,
    index: usize,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> picollo_status {
    guard(|| {
        let name = (|| {
            // SAFETY: per this function's contract.
            let s = unsafe { as_ref(s, "session") }?;
            let k = s.index(index)?;
            Ok::<_, Failure>(s.builder.counters()[k].to_string())
        })();
        match name {
            // SAFETY: per this function's contract.
            Ok(name) => unsafe { write_text(&name, buf, len, needed) },
            Err((status, m)) => crate::status::fail(status, m),
        }
    })
}

/// Readings, delta, calibrated overheads and flags of counter `index` of an open session.
///
/// Errors: NULL `s` or `out`; `INVALID_ARGUMENT` when not open; `OUT_OF_RANGE`.
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_values(
    s: *const picollo_perf_session,
    index: usize,
    out: *mut picollo_perf_counter_values,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        let k = s.index(index)?;
        let session = s.opened()?;
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        let c = session
            .counter(k)
            .ok_or_else(|| invalid("counter missing"))?;
        *out = c.into();
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}

/// The histogram of counter `index`: a BORROWED handle, usable with every
/// `picollo_histogram_*` function (queries, tables, snapshots; recording and reset too).
/// It exists from the moment the counter is added, is owned by the session and stays
/// valid until `picollo_perf_session_free`: never pass it to `picollo_histogram_free`.
/// Like the session, it is used by one thread at a time.
///
/// Errors: NULL `s` or `out`; `OUT_OF_RANGE`.
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_counter_histogram(
    s: *mut picollo_perf_session,
    index: usize,
    out: *mut *mut picollo_histogram,
) -> picollo_status {
    let body = |s: &mut picollo_perf_session| -> Result<(), Failure> {
        let k = s.index(index)?;
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        *out = s.histograms[k].as_ptr();
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session, not used by another thread.
    unsafe { with_session(s, body) }
}

/// IPC, cache-miss and branch-miss ratios of the latest deltas (NaN where the session lacks
/// a counter or a denominator is 0). Errors: NULL; `INVALID_ARGUMENT` when not open.
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_derived(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_derived,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        let session = s.opened()?;
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        *out = session.derived().into();
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}

/// The same ratios over the means of the counters' histograms (every recorded interval).
/// Works before open too (NaN everywhere while the histograms are empty).
///
/// # Safety
/// `s` is NULL or a live session; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_derived_means(
    s: *const picollo_perf_session,
    out: *mut picollo_perf_derived,
) -> picollo_status {
    let body = |s: &picollo_perf_session| -> Result<(), Failure> {
        // SAFETY: per this function's contract.
        let out = unsafe { as_mut(out, "out") }?;
        *out = s.derived_means().into();
        Ok(())
    };
    // SAFETY: forwarded contract: `s` is NULL or a live session.
    unsafe { with_session_ref(s, body) }
}
