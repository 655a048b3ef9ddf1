//! `picollo_perf_session_*`: a group of perf_event counters read together, with one
//! histogram per counter that the caller can query with every `picollo_histogram_*`
//! function.
//!
//! Life of a session: `_new` (options) → `_add_*` (counters) → `_open` → (`_read`, work,
//! `_read`, `_record`)… → `_free`. The histograms belong to the session: each is a
//! `picollo_histogram` allocated when its counter is added, shared (`Arc`) between the
//! session's list and, once open, the Rust session's counter that records into it, and
//! freed with the session; the handle `picollo_perf_session_counter_histogram` lends out
//! stays at one address for the session's whole life.
#![cfg(target_os = "linux")]

pub(crate) mod args;
pub(crate) mod histogram;
pub(crate) mod info;
pub(crate) mod read;
pub(crate) mod types;

pub use info::*;
pub use read::*;
pub use types::*;

use std::ffi::c_char;

use picollo_core::Config;
use picollo_perf::{
    Derived, Event, ParseEventError, RawEvent, RecordKind, Session, SessionBuilder,
};

use crate::args::{create, try_str, StructSized};
use crate::choice::flag;
use crate::error::Failure;
use crate::handle::free_boxed;
use crate::histogram::any::config_error;
use crate::linux_enums::{picollo_perf_read_policy, picollo_perf_record_kind};
use crate::perf::args::{
    cache_event, hardware_event, perf_failure, read_policy, record_kind, software_event,
};
use crate::perf::histogram::{session_histogram, SessionHistogram};
use crate::status::picollo_status;

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, integers and a float only.
crate::args::struct_sized!(picollo_perf_config);

/// Returns the default options: this thread on any CPU, not pinned, user space only, enabled at
/// open, calibrated, the cheaper read path timed at open (`rdpmc` = `AUTO`), histograms at 0.001
/// recording scaled deltas.
#[no_mangle]
pub extern "C" fn picollo_perf_config_default() -> picollo_perf_config {
    picollo_perf_config {
        cpu: -1,
        enabled: 1,
        calibrate: 1,
        rdpmc: picollo_perf_read_policy::Auto as u32,
        relative_error: picollo_core::layout::DEFAULT_RELATIVE_ERROR,
        record_kind: picollo_perf_record_kind::Delta as u32,
        ..picollo_perf_config::sized()
    }
}

/// A perf_event counter session (opaque; docs/c-api.md, "Perf sessions"); `_free` frees its
/// histograms too. By default it counts the thread that opened it, which alone uses it.
pub struct picollo_perf_session {
    _private: [u8; 0],
}

crate::handle::boxed!(picollo_perf_session => PerfSession);

/// The Rust value behind a `picollo_perf_session` handle.
pub(crate) struct PerfSession {
    pub(crate) builder: SessionBuilder,
    /// The open session; each counter owns an `Arc` of its histogram.
    pub(crate) session: Option<Session<SessionHistogram>>,
    /// One histogram per counter, in order: the handles lent to C, from `add_*` on.
    pub(crate) histograms: Vec<SessionHistogram>,
    relative_error: f64,
    pub(crate) record_kind: RecordKind,
}

pub(crate) fn invalid(message: impl Into<String>) -> Failure {
    Failure::invalid(message.into())
}

impl PerfSession {
    fn add(&mut self, event: Event) -> Result<(), Failure> {
        if self.session.is_some() {
            return Err(invalid(format!(
                "{event}: the session is already open: add counters before \
                 picollo_perf_session_open"
            )));
        }
        // Allocate first: a failure must leave the counter list unchanged.
        let h = session_histogram(self.relative_error)?;
        self.builder.add_counter(event).map_err(perf_failure)?;
        self.histograms.push(h);
        Ok(())
    }

    pub(crate) fn open_session(&mut self) -> Result<&mut Session<SessionHistogram>, Failure> {
        self.session
            .as_mut()
            .ok_or_else(|| invalid("the session is not open: call picollo_perf_session_open first"))
    }

    pub(crate) fn opened(&self) -> Result<&Session<SessionHistogram>, Failure> {
        self.session
            .as_ref()
            .ok_or_else(|| invalid("the session is not open: call picollo_perf_session_open first"))
    }

    pub(crate) fn index(&self, index: usize) -> Result<usize, Failure> {
        let n = self.builder.counters().len();
        if index < n {
            Ok(index)
        } else {
            Err(Failure::out_of_range(format_args!(
                "counter index {index} is past the end (the session has {n} counters)"
            )))
        }
    }

    pub(crate) fn record(&mut self, kind: RecordKind) -> Result<(), Failure> {
        self.open_session()?.record_kind(kind);
        Ok(())
    }

    pub(crate) fn derived_means(&self) -> Derived {
        let events = self.builder.counters();
        Derived::from_values(|e| {
            let k = events.iter().position(|&x| x == e)?;
            let mean = self.histograms[k].mean().ok()?;
            mean.is_finite().then_some(mean)
        })
    }
}

/// `session!(mut s => body)` (or `session!(s => body)` to read it): the body of a call on the
/// session argument `s`, with `s` bound to the `&mut` (or `&`) session inside `body`; a NULL
/// `s` is a failure naming it `session`.
macro_rules! session {
    (mut $s:ident => $body:expr) => {
        $crate::boundary::boundary!({
            let $s = $crate::handle::try_mut!($s, "session")?;
            $body
        })
    };
    ($s:ident => $body:expr) => {
        $crate::boundary::boundary!({
            let $s = $crate::handle::try_ref!($s, "session")?;
            $body
        })
    };
}
pub(crate) use session;

fn parse_config(c: &picollo_perf_config) -> Result<PerfSession, Failure> {
    if c.pid < -1 || c.cpu < -1 {
        return Err(invalid(format!(
            "pid {} / cpu {}: each must be -1 or more (pid 0 = this thread, cpu -1 = any)",
            c.pid, c.cpu
        )));
    }
    if c.reserved != 0 {
        return Err(invalid("reserved must be zero"));
    }
    Config::new()
        .with_relative_error(c.relative_error)
        .validate()
        .map_err(config_error)?;
    let builder = SessionBuilder::new()
        .with_target(c.pid, c.cpu)
        .with_pinned(flag(c.pinned, "pinned")?)
        .with_kernel(flag(c.include_kernel, "include_kernel")?)
        .with_enabled(flag(c.enabled, "enabled")?)
        .with_calibration(flag(c.calibrate, "calibrate")?)
        .with_read_policy(read_policy(c.rdpmc)?)
        .with_relative_error(c.relative_error);
    Ok(PerfSession {
        builder,
        session: None,
        histograms: Vec::new(),
        relative_error: c.relative_error,
        record_kind: record_kind(c.record_kind)?,
    })
}

/// Creates a session with no counters that the caller frees with `picollo_perf_session_free`.
/// Errors: NULL `config` or `out`; `STRUCT_SIZE`; `INVALID_ARGUMENT` for a flag other than 0/1,
/// pid or cpu below -1, a bad relative error or record kind, a non-zero `reserved`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_new(
    config: *const picollo_perf_config,
    out: *mut *mut picollo_perf_session,
) -> picollo_status {
    create!(config, out = |c| parse_config(&c)?)
}

/// Frees a session, its counters and their histograms (borrowed handles become invalid); NULL
/// is ignored.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_free(s: *mut picollo_perf_session) {
    free_boxed!(s)
}

/// Adds a generic hardware counter (a `picollo_perf_hardware_event`) before open; the first
/// counter leads the group. Errors: NULL `s`; `INVALID_ARGUMENT` for an unknown id, a duplicate
/// or an open session (whether the machine counts it is known at open).
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_hardware(
    s: *mut picollo_perf_session,
    id: u32,
) -> picollo_status {
    session!(mut s => s.add(hardware_event(id)?.into()))
}

/// Adds a cache counter (level × op × result, e.g. `HardwareCache:L1DReadMiss`). Errors: as
/// `picollo_perf_session_add_hardware`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_cache(
    s: *mut picollo_perf_session,
    level: u32,
    op: u32,
    result: u32,
) -> picollo_status {
    session!(mut s => s.add(cache_event(level, op, result)?.into()))
}

/// Adds a software counter (a `picollo_perf_software_event`; no PMU needed). Errors: as
/// `picollo_perf_session_add_hardware`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_software(
    s: *mut picollo_perf_session,
    id: u32,
) -> picollo_status {
    session!(mut s => s.add(software_event(id)?.into()))
}

/// Adds a raw counter: `attr.type` and its config words (docs/c-api.md, "Perf sessions"); the
/// kernel judges them at open. Errors: as `picollo_perf_session_add_hardware`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_raw(
    s: *mut picollo_perf_session,
    type_: u32,
    config: u64,
    config1: u64,
    config2: u64,
) -> picollo_status {
    session!(mut s => {
        s.add(Event::Raw(RawEvent {
            type_,
            config,
            config1,
            config2,
        }))
    })
}

/// Adds cycles, instructions and reference cycles, all or none (`INVALID_ARGUMENT` when any is
/// already there).
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_fixed(
    s: *mut picollo_perf_session,
) -> picollo_status {
    session!(mut s => {
        if let Some(e) = picollo_perf::FIXED_EVENTS
            .iter()
            .find(|e| s.builder.counters().contains(e))
        {
            return Err(invalid(format!(
                "{e}: added to the session twice (fixed counters add none)"
            )));
        }
        picollo_perf::FIXED_EVENTS
            .iter()
            .try_for_each(|&e| s.add(e))
    })
}

/// Adds a counter by name, case aside (`Hardware:CpuCycles`, `HardwareCache:L1DReadMiss`,
/// `Software:TaskClock`, `Raw:<type>:<config>[:<config1>:<config2>]`). Errors: NULL `s` or
/// `name`; `INVALID_UTF8`; `INVALID_ARGUMENT` for an unknown name, a duplicate or an open session.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_add_named(
    s: *mut picollo_perf_session,
    name: *const c_char,
) -> picollo_status {
    session!(mut s => s.add(parse_event(try_str!(name)?)?))
}

/// An event from its name (case aside), or an error that says why it is not one, names the
/// event meant for a near miss and lists what the class holds.
pub(crate) fn parse_event(name: &str) -> Result<Event, Failure> {
    Event::parse(name).map_err(|e| match e {
        ParseEventError::Empty => invalid("an empty counter name (a comma too many in a list?)"),
        e => invalid(format!("`{name}` is not a counter name: {e}")),
    })
}

/// Opens every counter as one group, maps the rdpmc pages, calibrates and takes a first reading.
/// Errors (session unchanged; the message names the counter): NULL `s`; `INVALID_ARGUMENT`;
/// `UNSUPPORTED` (no PMU); `PERMISSION_DENIED`; `OS_ERROR`.
#[no_mangle]
pub unsafe extern "C" fn picollo_perf_session_open(s: *mut picollo_perf_session) -> picollo_status {
    session!(mut s => {
        if s.session.is_some() {
            return Err(invalid("the session is already open"));
        }
        let session = s.builder.open_with_sinks(s.histograms.clone());
        s.session = Some(session.map_err(perf_failure)?);
        Ok(())
    })
}
