//! Errors that name the counter and the cause, with a kind a C ABI can map to a status.

use core::fmt;

use super::event::Event;
use super::group::MAX_GROUP_COUNTERS;
use super::sys::{errno_name, PerfEventAttr};
use super::system::{paranoid_meaning, perf_event_paranoid, sysfs_pmus, SysfsPmu, SYSFS_PMUS};

/// What went wrong, as a plain code.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PerfErrorKind {
    /// The event does not exist here (ENOENT, EOPNOTSUPP, ENODEV): no PMU, a VM without a
    /// vPMU, or a CPU without that event.
    Unsupported = 1,
    /// Not allowed (EACCES, EPERM): see `perf_event_paranoid` or CAP_PERFMON.
    Permission = 2,
    /// The kernel rejected the attributes (EINVAL).
    InvalidArgument = 3,
    /// The kernel and we disagree on `perf_event_attr`'s size (E2BIG).
    AttrSize = 4,
    /// Out of file descriptors (EMFILE, ENFILE).
    TooManyFiles = 5,
    /// Another user holds the PMU exclusively (EBUSY).
    Busy = 6,
    /// The target process or thread does not exist (ESRCH).
    NoSuchProcess = 7,
    /// The same event was added to a session twice.
    DuplicateCounter = 8,
    /// A session needs at least one counter.
    EmptySession = 9,
    /// A pinned group could not be put on the PMU (read returned 0 bytes).
    Unschedulable = 10,
    /// A group read came back malformed (short, or with ids we did not open).
    BadRead = 11,
    /// Any other system error.
    Os = 12,
    /// Picollo's QEMU plugin writes records of another version than this library reads.
    EmulatorVersion = 13,
}

/// An error from the perf layer: a kind, the errno (0 when none), the counter it concerns
/// (if any) and a message that says what happened and what would fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfError {
    kind: PerfErrorKind,
    errno: i32,
    event: Option<Event>,
    message: String,
}

impl PerfError {
    /// An error with a ready message (`errno` 0 when no system call failed), e.g. from a
    /// sink factory given to [`super::SessionBuilder::open_with`].
    pub fn new(kind: PerfErrorKind, errno: i32, event: Option<Event>, message: String) -> Self {
        PerfError {
            kind,
            errno,
            event,
            message,
        }
    }

    /// The error of a failed `perf_event_open` for `event`, explained per errno.
    pub(crate) fn open_failed(event: Event, errno: i32, expected_size: u32) -> Self {
        let (kind, why) = explain_open_errno(event, errno, expected_size);
        PerfError::new(kind, errno, Some(event), format!("{event}: {why}"))
    }

    /// Adding `event` as counter number `asked` (counting from 1) would take the group past
    /// [`MAX_GROUP_COUNTERS`].
    pub(crate) fn group_full(event: Event, asked: usize) -> Self {
        PerfError::new(
            PerfErrorKind::InvalidArgument,
            0,
            Some(event),
            format!(
                "{event}: cannot add it as counter {asked}: a perf group holds at most \
                 {MAX_GROUP_COUNTERS} counters; open the others in a second session"
            ),
        )
    }

    /// An error of a session operation (`read`, ioctl) with an errno.
    pub(crate) fn os(what: &str, errno: i32) -> Self {
        PerfError::new(
            PerfErrorKind::Os,
            errno,
            None,
            format!(
                "{what} failed ({} {errno}: {})",
                errno_name(errno),
                std::io::Error::from_raw_os_error(errno)
            ),
        )
    }

    /// The same error, about `event` (its name prefixes the message).
    pub(crate) fn for_event(self, event: Event) -> Self {
        let message = format!("{event}: {}", self.message);
        PerfError::new(self.kind, self.errno, Some(event), message)
    }

    /// The kind.
    pub fn kind(&self) -> PerfErrorKind {
        self.kind
    }

    /// The errno behind it, 0 when it did not come from the kernel.
    pub fn errno(&self) -> i32 {
        self.errno
    }

    /// The counter it concerns, when it concerns one.
    pub fn event(&self) -> Option<Event> {
        self.event
    }

    /// The full message (also `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// True when the event cannot be counted on this machine as configured (unsupported
    /// or not permitted): what a test or example should skip on rather than fail.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self.kind,
            PerfErrorKind::Unsupported | PerfErrorKind::Permission
        )
    }
}

/// The kind and the reason for a failed `perf_event_open`, per errno.
fn explain_open_errno(event: Event, errno: i32, expected_size: u32) -> (PerfErrorKind, String) {
    let name = errno_name(errno);
    if let Event::Raw(raw) = event {
        // The kernel answers ENOENT (or EINVAL) for a type no PMU has, as it does for a
        // missing PMU: tell the caller's typo from the machine's lack.
        if matches!(
            errno,
            libc::ENOENT | libc::EINVAL | libc::EOPNOTSUPP | libc::ENODEV
        ) && !known_type(raw.type_, &sysfs_pmus())
        {
            return (
                PerfErrorKind::InvalidArgument,
                unknown_type_text(raw.type_, name, &sysfs_pmus()),
            );
        }
    }
    match errno {
        libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV => {
            (PerfErrorKind::Unsupported, unsupported_text(event, name))
        }
        libc::EACCES | libc::EPERM => (PerfErrorKind::Permission, permission_text(name)),
        libc::EINVAL => (
            PerfErrorKind::InvalidArgument,
            format!(
                "the kernel rejected the attributes ({name}: an unknown config, or pinned \
                 or exclusive on a group member)"
            ),
        ),
        libc::E2BIG => (PerfErrorKind::AttrSize, attr_size_text(name, expected_size)),
        libc::EMFILE | libc::ENFILE => (
            PerfErrorKind::TooManyFiles,
            format!("out of file descriptors ({name}): raise `ulimit -n` or use fewer counters"),
        ),
        libc::EBUSY => (
            PerfErrorKind::Busy,
            format!("the PMU is held exclusively by another user ({name})"),
        ),
        libc::ESRCH => (
            PerfErrorKind::NoSuchProcess,
            format!("no such process or thread ({name})"),
        ),
        _ => (
            PerfErrorKind::Os,
            format!(
                "perf_event_open failed ({name} {errno}: {})",
                std::io::Error::from_raw_os_error(errno)
            ),
        ),
    }
}

/// The generic `PERF_TYPE_*` types: hardware, software, tracepoint, hardware cache, raw,
/// breakpoint. Dynamic PMUs have their own types, listed in sysfs.
const GENERIC_TYPES: core::ops::RangeInclusive<u32> = 0..=5;

/// Whether `type_` is a generic type or the type of a PMU of this machine.
fn known_type(type_: u32, pmus: &[SysfsPmu]) -> bool {
    GENERIC_TYPES.contains(&type_) || pmus.iter().any(|p| p.type_ == type_)
}

fn unknown_type_text(type_: u32, name: &str, pmus: &[SysfsPmu]) -> String {
    let mut known = String::new();
    for p in pmus {
        if !known.is_empty() {
            known.push_str(", ");
        }
        known.push_str(&format!("{} = {}", p.name, p.type_));
    }
    if known.is_empty() {
        known.push_str("none readable");
    }
    format!(
        "unknown perf event type {type_} ({name}): not a PERF_TYPE_* ({}..={}) nor the \
         type of a PMU under {SYSFS_PMUS} ({known})",
        GENERIC_TYPES.start(),
        GENERIC_TYPES.end()
    )
}

fn unsupported_text(event: Event, name: &str) -> String {
    match event {
        Event::Software(_) => format!("not supported by this kernel ({name})"),
        _ => format!(
            "not supported on this machine ({name}: no hardware PMU, a VM without a vPMU, or \
             a CPU without this event)"
        ),
    }
}

/// E2BIG: the kernel wrote back the attr size it expects. When that is our size, the size
/// was not the problem: the kernel also answers E2BIG when a group's read would not fit
/// its read buffer.
fn attr_size_text(name: &str, expected_size: u32) -> String {
    let ours = core::mem::size_of::<PerfEventAttr>();
    if expected_size as usize == ours {
        format!("the kernel refused the group as too large to read at once ({name})")
    } else {
        format!(
            "perf_event_attr size mismatch ({name}: we pass {ours} bytes, the kernel \
             expects {expected_size})"
        )
    }
}

fn permission_text(name: &str) -> String {
    match perf_event_paranoid() {
        Some(p) => format!(
            "permission denied ({name}); perf_event_paranoid = {p}: {}; CAP_PERFMON (or \
             root) or a lower value in /proc/sys/kernel/perf_event_paranoid lifts this",
            paranoid_meaning(p)
        ),
        None => format!(
            "permission denied ({name}); /proc/sys/kernel/perf_event_paranoid is unreadable"
        ),
    }
}

impl fmt::Display for PerfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PerfError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{HardwareEvent, RawEvent, SoftwareEvent};

    #[test]
    fn each_errno_maps_to_its_kind_and_names_the_counter() {
        let cycles = Event::Hardware(HardwareEvent::CpuCycles);
        let cases = [
            (libc::ENOENT, PerfErrorKind::Unsupported, "ENOENT"),
            (libc::EOPNOTSUPP, PerfErrorKind::Unsupported, "EOPNOTSUPP"),
            (
                libc::EACCES,
                PerfErrorKind::Permission,
                "perf_event_paranoid",
            ),
            (libc::EPERM, PerfErrorKind::Permission, "EPERM"),
            (libc::EINVAL, PerfErrorKind::InvalidArgument, "EINVAL"),
            (libc::E2BIG, PerfErrorKind::AttrSize, "expects 112"),
            (libc::EMFILE, PerfErrorKind::TooManyFiles, "EMFILE"),
            (libc::EBUSY, PerfErrorKind::Busy, "EBUSY"),
            (libc::ESRCH, PerfErrorKind::NoSuchProcess, "ESRCH"),
            (libc::EIO, PerfErrorKind::Os, "perf_event_open failed"),
        ];
        for (errno, kind, needle) in cases {
            let e = PerfError::open_failed(cycles, errno, 112);
            assert_eq!(e.kind(), kind, "{e}");
            assert_eq!(e.errno(), errno);
            assert_eq!(e.event(), Some(cycles));
            assert!(e.message().starts_with("Hardware:CpuCycles: "), "{e}");
            assert!(e.message().contains(needle), "{e} lacks {needle}");
        }
        let sw = PerfError::open_failed(Event::Software(SoftwareEvent::TaskClock), libc::ENOENT, 0);
        assert!(sw.message().contains("kernel"), "{sw}");
        assert!(sw.is_unavailable());
    }

    fn raw(type_: u32) -> Event {
        Event::Raw(RawEvent {
            type_,
            config: 0,
            config1: 0,
            config2: 0,
        })
    }

    #[test]
    fn an_unknown_raw_type_is_an_invalid_argument_not_a_missing_pmu() {
        for errno in [libc::ENOENT, libc::EINVAL, libc::EOPNOTSUPP] {
            let e = PerfError::open_failed(raw(0xDEAD_BEEF), errno, 0);
            assert_eq!(e.kind(), PerfErrorKind::InvalidArgument, "{e}");
            assert!(
                e.message()
                    .starts_with("Raw:3735928559:0x0: unknown perf event type 3735928559 ("),
                "{e}"
            );
            assert!(!e.message().contains("PMU,"), "{e}");
            assert!(e.message().contains("software = 1"), "{e}");
        }
        // The raw type of the core PMU stays a missing PMU when the kernel has none.
        let e = PerfError::open_failed(raw(4), libc::ENOENT, 0);
        assert_eq!(e.kind(), PerfErrorKind::Unsupported, "{e}");
        // A type some PMU here has: the kernel's answer is explained as usual.
        let e = PerfError::open_failed(raw(1), libc::EINVAL, 0);
        assert!(e.message().contains("rejected the attributes"), "{e}");
        let e = PerfError::open_failed(raw(0xDEAD_BEEF), libc::EACCES, 0);
        assert_eq!(e.kind(), PerfErrorKind::Permission, "{e}");
    }

    #[test]
    fn a_full_group_names_the_cap_and_the_count() {
        let e = PerfError::group_full(raw(1), MAX_GROUP_COUNTERS + 1);
        assert_eq!(e.kind(), PerfErrorKind::InvalidArgument);
        assert!(e.message().contains("counter 65"), "{e}");
        assert!(e.message().contains("at most 64 counters"), "{e}");
    }
}
