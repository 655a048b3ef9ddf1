//! Plain `#[repr(C)]` structs of the perf ABI (`picollo_perf_*`; its enums are in
//! `linux_enums`), and their conversions from picollo-perf's types. Fields are
//! u32/i32/u64/f64 only (no bool): C#'s P/Invoke and ctypes map them field for field.
#![cfg(target_os = "linux")]

use picollo_perf::{Delta, Derived, PathChoice, PmuInfo, ReadPolicy, Reading, SessionCounter};

use crate::handle::caller_owned;
use crate::linux_enums::picollo_perf_read_policy;

caller_owned!(picollo_perf_counter_values);

/// Options of a perf session, from `picollo_perf_config_default`; flags are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct picollo_perf_config {
    /// `sizeof(picollo_perf_config)` as the caller knows it (docs/c-api.md, "Config structs").
    pub struct_size: u32,
    /// Whom to count: 0 = the calling thread (default), or a pid/tid.
    pub pid: i32,
    /// Which CPU: -1 = any (default).
    pub cpu: i32,
    /// 1: the group is always on the PMU or not at all (a read fails with `OS_ERROR` if it does not fit).
    pub pinned: u32,
    /// 1: count kernel and hypervisor work too (needs perf_event_paranoid <= 1). Default 0.
    pub include_kernel: u32,
    /// 1 (default): counting starts at open; 0: only after `picollo_perf_session_enable`.
    pub enabled: u32,
    /// 1 (default): measure the cost of back-to-back reads at open; `corrected` deltas subtract it.
    pub calibrate: u32,
    /// A `picollo_perf_read_policy`: `AUTO` (1, the default) times both read paths at open and
    /// takes the cheaper; `SYSCALL` (0) always `read(2)`; `USER_SPACE` (2) the page's `rdpmc`
    /// wherever allowed. `picollo_perf_session_path_choice` says what the session took and why.
    pub rdpmc: u32,
    /// Relative error of each counter's histogram (default 0.001). Finite and > 0.
    pub relative_error: f64,
    /// A `picollo_perf_record_kind`: what `picollo_perf_session_record` records.
    pub record_kind: u32,
    /// Reserved: must be zero.
    pub reserved: u32,
}

/// One counter's state at one read.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct picollo_perf_reading {
    /// The kernel's 64-bit count (unscaled).
    pub value: u64,
    /// Nanoseconds the counter was enabled.
    pub enabled: u64,
    /// Nanoseconds it was actually on the PMU.
    pub running: u64,
    /// `value × enabled / running` (equal to `value` unless multiplexed; 0 if it never ran).
    pub scaled: u64,
}

impl From<Reading> for picollo_perf_reading {
    fn from(r: Reading) -> Self {
        picollo_perf_reading {
            value: r.value,
            enabled: r.enabled,
            running: r.running,
            scaled: r.scaled,
        }
    }
}

/// The change of one counter between the two latest reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct picollo_perf_delta {
    /// `current − previous` of the raw count, modulo 2^64 (correct across a wrap).
    pub raw: u64,
    /// `raw` scaled by the interval's enabled/running time (`raw` unless multiplexed; 0 if never ran).
    pub scaled: u64,
    /// `scaled` minus the calibrated cost of one read, floored at 0.
    pub corrected: u64,
    /// Enabled nanoseconds in the interval.
    pub enabled: u64,
    /// Running nanoseconds in the interval.
    pub running: u64,
}

impl From<Delta> for picollo_perf_delta {
    fn from(d: Delta) -> Self {
        picollo_perf_delta {
            raw: d.raw,
            scaled: d.scaled,
            corrected: d.corrected,
            enabled: d.enabled,
            running: d.running,
        }
    }
}

/// The read path a session took at open and why (`picollo_perf_session_path_choice`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_perf_path_choice {
    /// A `picollo_perf_read_path`: `RDPMC` (user space) or `SYSCALL`.
    pub path: u32,
    /// The `picollo_perf_read_policy` the session was opened with.
    pub policy: u32,
    /// A `picollo_perf_path_reason`.
    pub reason: u32,
    /// Zero.
    pub reserved: u32,
    /// Nanoseconds a user-space read of the group took at open (median); NaN where not timed.
    pub user_ns: f64,
    /// Nanoseconds a `read(2)` of the group took at open (median); NaN where not timed.
    pub syscall_ns: f64,
}

impl From<PathChoice> for picollo_perf_path_choice {
    fn from(c: PathChoice) -> Self {
        picollo_perf_path_choice {
            path: c.path as u32,
            policy: match c.policy {
                ReadPolicy::Syscall => picollo_perf_read_policy::Syscall,
                ReadPolicy::Auto => picollo_perf_read_policy::Auto,
                ReadPolicy::UserSpace => picollo_perf_read_policy::UserSpace,
            } as u32,
            reason: c.reason as u32,
            reserved: 0,
            user_ns: c.user_ns,
            syscall_ns: c.syscall_ns,
        }
    }
}

/// Everything about one counter of an open session (`picollo_perf_session_counter_values`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct picollo_perf_counter_values {
    /// The latest reading.
    pub current: picollo_perf_reading,
    /// The reading before it.
    pub previous: picollo_perf_reading,
    /// `current − previous`.
    pub delta: picollo_perf_delta,
    /// Calibrated cost of one read through the syscall, in this counter's unit (0: not calibrated).
    pub overhead_syscall: u64,
    /// Calibrated cost of one read through rdpmc (0 when not calibrated or not possible).
    pub overhead_rdpmc: u64,
    /// The kernel's id of the counter (its key in a group read).
    pub id: u64,
    /// 1 when multiplexed in the latest interval (running < enabled): `delta.scaled` is an estimate.
    pub multiplexed: u32,
    /// 1 when the counter's page is mapped for rdpmc (hardware, cache and raw events).
    pub has_page: u32,
}

impl<H> From<&SessionCounter<H>> for picollo_perf_counter_values {
    fn from(c: &SessionCounter<H>) -> Self {
        use picollo_perf::ReadPath;
        picollo_perf_counter_values {
            current: c.current().into(),
            previous: c.previous().into(),
            delta: c.delta().into(),
            overhead_syscall: c.overhead(ReadPath::Syscall),
            overhead_rdpmc: c.overhead(ReadPath::Rdpmc),
            id: c.id(),
            multiplexed: u32::from(c.delta().multiplexed()),
            has_page: u32::from(c.has_page()),
        }
    }
}

/// Ratios between counters; NaN where a counter is missing or its denominator is 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_perf_derived {
    /// Instructions per cycle.
    pub ipc: f64,
    /// Cache misses per cache reference (else LL read misses per LL read access).
    pub cache_miss_ratio: f64,
    /// Branch misses per branch instruction.
    pub branch_miss_ratio: f64,
}

impl From<Derived> for picollo_perf_derived {
    fn from(d: Derived) -> Self {
        picollo_perf_derived {
            ipc: d.ipc.unwrap_or(f64::NAN),
            cache_miss_ratio: d.cache_miss_ratio.unwrap_or(f64::NAN),
            branch_miss_ratio: d.branch_miss_ratio.unwrap_or(f64::NAN),
        }
    }
}

/// What `picollo_perf_discover` found on this machine.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct picollo_perf_info {
    /// 1 when a hardware PMU is usable (cycles open, or only permission stands in the way).
    pub present: u32,
    /// A `picollo_cpu_vendor`.
    pub vendor: u32,
    /// 1 when running under a hypervisor.
    pub hypervisor: u32,
    /// Intel architectural perfmon version (CPUID 0xA); 0 = none.
    pub arch_perfmon_version: u32,
    /// Fixed counters per logical CPU (0 without a PMU, and on AMD; 1 on arm64: the cycle counter).
    pub fixed_counters: u32,
    /// Their width in bits.
    pub fixed_width: u32,
    /// Programmable (general) counters per logical CPU (0 without a PMU).
    pub programmable_counters: u32,
    /// Their width in bits (0 when unknown).
    pub programmable_width: u32,
    /// User-space counter reads: `/sys/bus/event_source/devices/cpu/rdpmc` on x86 (0 off, 1 mmapped
    /// events, 2 always), `/proc/sys/kernel/perf_user_access` on arm64 (0 off, 1 on); -1 unreadable.
    pub rdpmc: i32,
    /// `/proc/sys/kernel/perf_event_paranoid` (valid when `paranoid_known` is 1).
    pub paranoid: i32,
    /// 1 when `paranoid` could be read.
    pub paranoid_known: u32,
    /// errno of a trial open of `Hardware:CpuCycles` (0 = it opened; 2 = ENOENT: no PMU).
    pub cycles_errno: i32,
    /// Core PMUs in sysfs (`cpu`, or `cpu_core` and `cpu_atom` on hybrid Intel; `armv8_pmuv3*` and
    /// others with a `cpus` file on arm64).
    pub core_pmu_count: u32,
    /// Every PMU in sysfs.
    pub pmu_count: u32,
}

impl From<&PmuInfo> for picollo_perf_info {
    fn from(i: &PmuInfo) -> Self {
        picollo_perf_info {
            present: u32::from(i.present()),
            vendor: i.vendor as u32,
            hypervisor: u32::from(i.hypervisor),
            arch_perfmon_version: i.arch_perfmon_version,
            fixed_counters: i.fixed_counters,
            fixed_width: i.fixed_width,
            programmable_counters: i.programmable_counters,
            programmable_width: i.programmable_width,
            rdpmc: i.rdpmc.map_or(-1, |v| i32::try_from(v).unwrap_or(i32::MAX)),
            paranoid: i.paranoid.unwrap_or(0),
            paranoid_known: u32::from(i.paranoid.is_some()),
            cycles_errno: i.cycles_errno,
            core_pmu_count: i.core_pmus.len() as u32,
            pmu_count: i.pmus.len() as u32,
        }
    }
}
