//! Arguments of the perf ABI read into core types (event ids, record kinds), and perf
//! errors turned into failures.
#![cfg(target_os = "linux")]

use picollo_perf::{
    CacheEvent, CacheLevel, CacheOp, CacheResult, HardwareEvent, PerfError, PerfErrorKind,
    ReadPolicy, RecordKind, SoftwareEvent,
};

use crate::choice::{choice, unknown_choice};
use crate::error::Failure;
use crate::linux_enums::{picollo_perf_read_policy, picollo_perf_record_kind};
use crate::status::picollo_status;

/// The status of a perf error's kind: unavailable events are `UNSUPPORTED` or
/// `PERMISSION_DENIED` (what a caller skips on), caller mistakes `INVALID_ARGUMENT`,
/// everything the OS refused at run time `OS_ERROR`.
pub(crate) fn perf_status(kind: PerfErrorKind) -> picollo_status {
    match kind {
        // A plugin of another record version: not countable with this library, as a
        // missing event is not.
        PerfErrorKind::Unsupported | PerfErrorKind::EmulatorVersion => picollo_status::Unsupported,
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

/// `by_id!(c_enum => Core, "what" id)`: the value of picollo-perf's enum `Core` with the id
/// `id` (a value of the C enum `c_enum`), or the failure naming the argument as `what` and
/// the C enum with its range.
macro_rules! by_id {
    ($c_enum:ident => $core:ident, $what:literal $id:ident) => {
        $core::from_id($id).ok_or_else(|| {
            let values = $core::ALL.iter().map(|&e| (e as u32, e.as_str()));
            unknown_choice($what, $id, stringify!($c_enum), values)
        })
    };
}

/// A hardware event from its C id.
pub(crate) fn hardware_event(id: u32) -> Result<HardwareEvent, Failure> {
    by_id!(picollo_perf_hardware_event => HardwareEvent, "hardware event id" id)
}

/// A software event from its C id.
pub(crate) fn software_event(id: u32) -> Result<SoftwareEvent, Failure> {
    by_id!(picollo_perf_software_event => SoftwareEvent, "software event id" id)
}

/// A cache event from its C level, operation and result.
pub(crate) fn cache_event(level: u32, op: u32, result: u32) -> Result<CacheEvent, Failure> {
    let level = by_id!(picollo_perf_cache_level => CacheLevel, "cache level" level)?;
    let op = by_id!(picollo_perf_cache_op => CacheOp, "cache operation" op)?;
    let result = by_id!(picollo_perf_cache_result => CacheResult, "cache result" result)?;
    Ok(CacheEvent::new(level, op, result))
}

/// A record kind from its C value.
pub(crate) fn read_policy(policy: u32) -> Result<ReadPolicy, Failure> {
    Ok(match choice(policy, "rdpmc (a read policy)")? {
        picollo_perf_read_policy::Syscall => ReadPolicy::Syscall,
        picollo_perf_read_policy::Auto => ReadPolicy::Auto,
        picollo_perf_read_policy::UserSpace => ReadPolicy::UserSpace,
    })
}

pub(crate) fn record_kind(kind: u32) -> Result<RecordKind, Failure> {
    Ok(match choice(kind, "record kind")? {
        picollo_perf_record_kind::Delta => RecordKind::Delta,
        picollo_perf_record_kind::Corrected => RecordKind::Corrected,
        picollo_perf_record_kind::RawDelta => RecordKind::RawDelta,
        picollo_perf_record_kind::Value => RecordKind::Value,
    })
}
