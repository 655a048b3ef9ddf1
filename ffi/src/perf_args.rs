//! Arguments of the perf ABI read into core types (event ids, record kinds), and perf
//! errors turned into failures.
#![cfg(target_os = "linux")]

use picollo_core::perf::{
    CacheEvent, CacheLevel, CacheOp, CacheResult, HardwareEvent, PerfError, PerfErrorKind,
    RecordKind, SoftwareEvent,
};

use crate::error::Failure;
use crate::status::picollo_status;

/// The status of a perf error's kind: unavailable events are `UNSUPPORTED` or
/// `PERMISSION_DENIED` (what a caller skips on), caller mistakes `INVALID_ARGUMENT`,
/// everything the OS refused at run time `OS_ERROR`.
pub(crate) fn perf_status(kind: PerfErrorKind) -> picollo_status {
    match kind {
        PerfErrorKind::Unsupported => picollo_status::Unsupported,
        PerfErrorKind::Permission => picollo_status::PermissionDenied,
        PerfErrorKind::InvalidArgument
        | PerfErrorKind::DuplicateCounter
        | PerfErrorKind::EmptySession
        | PerfErrorKind::NoSuchProcess => picollo_status::InvalidArgument,
        PerfErrorKind::AttrSize
        | PerfErrorKind::TooManyFiles
        | PerfErrorKind::Busy
        | PerfErrorKind::Unschedulable
        | PerfErrorKind::BadRead
        | PerfErrorKind::Os => picollo_status::OsError,
        // A kind added later: an operating-system refusal unless mapped above.
        _ => picollo_status::OsError,
    }
}

/// A perf error as a failure: its kind's status ([`perf_status`]), its message naming the
/// counter.
pub(crate) fn perf_failure(e: PerfError) -> Failure {
    Failure::new(perf_status(e.kind()), e.message())
}

fn invalid(message: String) -> Failure {
    Failure::invalid(message)
}

/// A hardware event from its C id.
pub(crate) fn hardware_event(id: u32) -> Result<HardwareEvent, Failure> {
    HardwareEvent::from_id(id).ok_or_else(|| {
        invalid(format!(
            "hardware event id {id} is unknown: it must be a picollo_perf_hardware_event \
             (0..={})",
            HardwareEvent::ALL.len() - 1
        ))
    })
}

/// A software event from its C id.
pub(crate) fn software_event(id: u32) -> Result<SoftwareEvent, Failure> {
    SoftwareEvent::from_id(id).ok_or_else(|| {
        invalid(format!(
            "software event id {id} is unknown: it must be a picollo_perf_software_event \
             (0..={})",
            SoftwareEvent::ALL.len() - 1
        ))
    })
}

/// A cache event from its C level, operation and result.
pub(crate) fn cache_event(level: u32, op: u32, result: u32) -> Result<CacheEvent, Failure> {
    let level = CacheLevel::from_id(level).ok_or_else(|| {
        invalid(format!(
            "cache level {level} is unknown: it must be a picollo_perf_cache_level (0..={})",
            CacheLevel::ALL.len() - 1
        ))
    })?;
    let op = CacheOp::from_id(op).ok_or_else(|| {
        invalid(format!(
            "cache operation {op} is unknown: it must be a picollo_perf_cache_op (0..={})",
            CacheOp::ALL.len() - 1
        ))
    })?;
    let result = CacheResult::from_id(result).ok_or_else(|| {
        invalid(format!(
            "cache result {result} is unknown: it must be a picollo_perf_cache_result (0..={})",
            CacheResult::ALL.len() - 1
        ))
    })?;
    Ok(CacheEvent::new(level, op, result))
}

/// A record kind from its C value.
pub(crate) fn record_kind(kind: u32) -> Result<RecordKind, Failure> {
    Ok(match kind {
        0 => RecordKind::Delta,
        1 => RecordKind::Corrected,
        2 => RecordKind::RawDelta,
        3 => RecordKind::Value,
        _ => {
            return Err(invalid(format!(
                "record kind {kind} is unknown: it must be 0 (delta), 1 (corrected), 2 (raw \
                 delta) or 3 (value)"
            )))
        }
    })
}
