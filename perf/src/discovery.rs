//! What this machine can count: CPUID (through `native/`) on x86-64, a group probe on
//! arm64, the PMUs and settings the kernel shows ([`super::system`]), and trial opens.

use super::builder::SessionBuilder;
use super::error::PerfError;
use super::event::{Event, HardwareEvent};
use super::sys::errno_name;
use super::system::{
    is_core_pmu, perf_event_paranoid, perf_user_access, pmu_rdpmc, sysfs_pmus, SysfsPmu, SYSFS_PMUS,
};

/// The CPU's vendor, from CPUID leaf 0.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuVendor {
    /// GenuineIntel.
    Intel = 0,
    /// AuthenticAMD (or HygonGenuine).
    Amd = 1,
    /// Anything else, or not x86-64 (arm64 included).
    Other = 2,
}

/// What discovery found.
#[derive(Clone, Debug)]
pub struct PmuInfo {
    /// CPU vendor.
    pub vendor: CpuVendor,
    /// Running under a hypervisor (CPUID leaf 1, ECX bit 31).
    pub hypervisor: bool,
    /// Intel architectural perfmon version (CPUID 0xA, EAX bits 7..0); 0 = none (as in most VMs
    /// without a vPMU, and on AMD).
    pub arch_perfmon_version: u32,
    /// Fixed counters per logical CPU (Intel's, from CPUID; arm64's cycle counter
    /// PMCCNTR_EL0; 0 on AMD and when no PMU).
    pub fixed_counters: u32,
    /// Their width in bits.
    pub fixed_width: u32,
    /// General (programmable) counters per logical CPU (0 when no PMU): from CPUID on
    /// x86-64; on arm64, the group of cycle events the kernel accepts, less the cycle counter.
    pub programmable_counters: u32,
    /// Their width in bits (0 when unknown; 32 on arm64, as the kernel runs them without
    /// config1's `long` bit).
    pub programmable_width: u32,
    /// The core PMUs in sysfs: `cpu`, `cpu_core` and `cpu_atom` on Intel and AMD, and any
    /// PMU with a `cpus` file (arm64's `armv8_pmuv3*`, `armv8_cortex_*`, …).
    pub core_pmus: Vec<SysfsPmu>,
    /// Every PMU in sysfs.
    pub pmus: Vec<SysfsPmu>,
    /// Whether user space may read counters: the core PMU's sysfs `rdpmc` on x86 (0 off, 1
    /// for mmapped events, 2 always), `/proc/sys/kernel/perf_user_access` on arm64 (0 off,
    /// 1 on).
    pub rdpmc: Option<u32>,
    /// `/proc/sys/kernel/perf_event_paranoid`.
    pub paranoid: Option<i32>,
    /// The errno of a trial open of `Hardware:CpuCycles` (user space, this thread); 0 = it
    /// opened.
    pub cycles_errno: i32,
}

impl PmuInfo {
    /// A hardware PMU is usable: cycles open, or a core PMU exists and only permission
    /// stands in the way.
    pub fn present(&self) -> bool {
        self.cycles_errno == 0
            || (!self.core_pmus.is_empty()
                && matches!(self.cycles_errno, libc::EACCES | libc::EPERM))
    }

    /// `(fixed, programmable)` counters when a PMU is present.
    pub fn number_of_counters(&self) -> Option<(u32, u32)> {
        self.present()
            .then_some((self.fixed_counters, self.programmable_counters))
    }

    /// The PMU's part of [`PmuInfo::describe`].
    fn describe_pmu(&self) -> String {
        let rdpmc = self.rdpmc.map_or_else(|| "n/a".into(), |v| format!("{v}"));
        let paranoid = self
            .paranoid
            .map_or_else(|| "n/a".into(), |v| format!("{v}"));
        let x86 = cfg!(target_arch = "x86_64");
        if self.present() {
            let pmus: Vec<&str> = self.core_pmus.iter().map(|p| p.name.as_str()).collect();
            let (cpu, setting) = match self.vendor {
                CpuVendor::Intel => (
                    format!("Intel, perfmon v{}", self.arch_perfmon_version),
                    "rdpmc",
                ),
                CpuVendor::Amd => ("Amd".into(), "rdpmc"),
                CpuVendor::Other if x86 => ("Other".into(), "rdpmc"),
                CpuVendor::Other => (std::env::consts::ARCH.into(), "perf_user_access"),
            };
            format!(
                "CPU PMU: fixedCounters={}, programmableCounters={} ({cpu}, widths {}/{} bits, \
                 sysfs {}, {setting}={rdpmc}, perf_event_paranoid={paranoid})",
                self.fixed_counters,
                self.programmable_counters,
                self.fixed_width,
                self.programmable_width,
                pmus.join("+"),
            )
        } else {
            let source = match x86 {
                true => format!("CPUID 0xA version {}", self.arch_perfmon_version),
                false => "no core PMU".into(),
            };
            let mut s = format!(
                "no hardware PMU ({source}; hardware events → {})",
                errno_name(self.cycles_errno)
            );
            if self.hypervisor {
                s.push_str(" under a hypervisor without a vPMU");
            }
            s.push_str(&format!(
                "; software events only; perf_event_paranoid={paranoid}"
            ));
            s
        }
    }

    /// One line: `CPU PMU: fixedCounters=3, programmableCounters=8 (Intel, perfmon v5, …)`
    /// (`(aarch64, …, perf_user_access=1, …)` on arm64) or `no hardware PMU (CPUID 0xA version
    /// 0; hardware events → ENOENT)` (`(no core PMU; …)` off x86-64); under valgrind it adds
    /// that sessions read through read(2) ([`super::under_instrumenter`]).
    pub fn describe(&self) -> String {
        let mut line = self.describe_pmu();
        if super::under_instrumenter() {
            line.push_str("; under valgrind: counters are read through read(2), never rdpmc");
        }
        line
    }
}

/// Look at everything (a handful of CPUID leaves, sysfs, procfs and one trial open).
pub fn discover() -> PmuInfo {
    let pmus = sysfs_pmus();
    let core_pmus: Vec<SysfsPmu> = pmus
        .iter()
        .filter(|p| is_core_pmu(SYSFS_PMUS, &p.name))
        .cloned()
        .collect();
    let cycles_errno = match is_counter_supported(HardwareEvent::CpuCycles) {
        Ok(()) => 0,
        Err(e) => e.errno(),
    };
    let mut cpu = cpuid_counters();
    if cycles_errno == 0 {
        probe_counters(&mut cpu);
    }
    let mut info = PmuInfo {
        vendor: cpu.vendor,
        hypervisor: cpu.hypervisor,
        arch_perfmon_version: cpu.version,
        fixed_counters: cpu.fixed,
        fixed_width: cpu.fixed_width,
        programmable_counters: cpu.general,
        programmable_width: cpu.general_width,
        rdpmc: core_pmus
            .iter()
            .find_map(|p| pmu_rdpmc(&p.name))
            .or_else(perf_user_access),
        core_pmus,
        pmus,
        paranoid: perf_event_paranoid(),
        cycles_errno,
    };
    if !info.present() {
        // CPUID describes the physical part; without a PMU to use, there are no counters.
        info.fixed_counters = 0;
        info.programmable_counters = 0;
    }
    info
}

/// `(fixed, programmable)` counters, or `None` when no hardware PMU is usable.
pub fn number_of_counters() -> Option<(u32, u32)> {
    discover().number_of_counters()
}

/// Whether `event` opens here (a trial open of a one-counter session, user space only,
/// this thread); the error says why not.
pub fn is_counter_supported(event: impl Into<Event>) -> Result<(), PerfError> {
    SessionBuilder::new()
        .with_counter(event)
        .with_calibration(false)
        .with_rdpmc(false)
        .with_enabled(false)
        .open()
        .map(drop)
}

/// The events of `wanted` that open here, in order (a trial open of each, as
/// [`is_counter_supported`]): the defaults a caller can count on this machine, e.g. cycles
/// and instructions under an emulated PMU where branch and cache events are ENOENT.
pub fn supported_counters(wanted: &[Event]) -> Vec<Event> {
    wanted
        .iter()
        .copied()
        .filter(|&e| is_counter_supported(e).is_ok())
        .collect()
}

/// The counters CPUID describes (the physical part, whether or not a PMU is usable).
struct CpuidCounters {
    vendor: CpuVendor,
    hypervisor: bool,
    version: u32,
    fixed: u32,
    fixed_width: u32,
    general: u32,
    general_width: u32,
}

impl CpuidCounters {
    /// Nothing known: another vendor, no perfmon, no counters.
    const NONE: CpuidCounters = CpuidCounters {
        vendor: CpuVendor::Other,
        hypervisor: false,
        version: 0,
        fixed: 0,
        fixed_width: 0,
        general: 0,
        general_width: 0,
    };
}

#[cfg(all(picollo_native, target_arch = "x86_64"))]
fn cpuid_counters() -> CpuidCounters {
    use crate::native::cpuid;
    let [max_leaf, ebx, ecx, edx] = cpuid(0, 0);
    let mut id = [0u8; 12];
    id[..4].copy_from_slice(&ebx.to_le_bytes());
    id[4..8].copy_from_slice(&edx.to_le_bytes());
    id[8..].copy_from_slice(&ecx.to_le_bytes());
    let vendor = match &id {
        b"GenuineIntel" => CpuVendor::Intel,
        b"AuthenticAMD" | b"HygonGenuine" => CpuVendor::Amd,
        _ => CpuVendor::Other,
    };
    let mut c = CpuidCounters {
        vendor,
        hypervisor: max_leaf >= 1 && cpuid(1, 0)[2] & (1 << 31) != 0,
        ..CpuidCounters::NONE
    };
    if max_leaf >= 0xA {
        arch_perfmon(&mut c, cpuid(0xA, 0));
    }
    if vendor == CpuVendor::Amd {
        amd_counters(&mut c);
    }
    c
}

/// Intel's architectural perfmon leaf 0xA. EAX: version [7:0], general counters [15:8],
/// their width [23:16]. EDX: fixed counters [4:0], their width [12:5] (from version 2 on).
#[cfg(all(picollo_native, target_arch = "x86_64"))]
fn arch_perfmon(c: &mut CpuidCounters, [eax, _, _, edx]: [u32; 4]) {
    c.version = eax & 0xFF;
    if c.version > 0 {
        c.general = (eax >> 8) & 0xFF;
        c.general_width = (eax >> 16) & 0xFF;
        if c.version >= 2 {
            c.fixed = edx & 0x1F;
            c.fixed_width = (edx >> 5) & 0xFF;
        }
    }
}

/// AMD has no fixed counters. PerfMonV2 (0x80000022 EAX bit 0) enumerates the core
/// counters in EBX[3:0]; otherwise 6 with PerfCtrExtCore (0x80000001 ECX bit 23), else the
/// legacy 4. All are 48 bits wide.
#[cfg(all(picollo_native, target_arch = "x86_64"))]
fn amd_counters(c: &mut CpuidCounters) {
    use crate::native::cpuid;
    let max_ext = cpuid(0x8000_0000, 0)[0];
    let ext_core = max_ext >= 0x8000_0001 && cpuid(0x8000_0001, 0)[2] & (1 << 23) != 0;
    let v2 = max_ext >= 0x8000_0022 && cpuid(0x8000_0022, 0)[0] & 1 != 0;
    c.general = if v2 {
        cpuid(0x8000_0022, 0)[1] & 0xF
    } else if ext_core {
        6
    } else {
        4
    };
    c.general_width = 48;
}

#[cfg(not(all(picollo_native, target_arch = "x86_64")))]
fn cpuid_counters() -> CpuidCounters {
    CpuidCounters::NONE
}

/// arm64's PMUv3 has a cycle counter (PMCCNTR_EL0, 64 bits) and event counters the kernel
/// runs at 32 bits; no unprivileged register says how many, but the kernel refuses at open
/// a group that does not fit: the cycle events one group holds are the cycle counter and
/// every event counter.
#[cfg(target_arch = "aarch64")]
fn probe_counters(c: &mut CpuidCounters) {
    let held = group_capacity(HardwareEvent::CpuCycles.into());
    if held > 0 {
        c.fixed = 1;
        c.fixed_width = 64;
        c.general = held - 1;
        c.general_width = 32;
    }
}

/// CPUID has told x86-64 what it has.
#[cfg(not(target_arch = "aarch64"))]
fn probe_counters(_: &mut CpuidCounters) {}

/// How many copies of `event` one group of this thread's counters can hold: members join
/// until the kernel refuses one (at most 64); 0 when none opens. The group counts while it
/// is probed: the kernel leaves disabled events out of its check.
#[cfg_attr(not(any(test, target_arch = "aarch64")), allow(dead_code))]
fn group_capacity(event: Event) -> u32 {
    use super::sys::{self, PerfEventAttr};
    let (type_, config, ..) = event.encoding();
    let mut attr = PerfEventAttr::new(type_, config);
    attr.flags = sys::FLAG_EXCLUDE_KERNEL | sys::FLAG_EXCLUDE_HV;
    let Ok(leader) = sys::open(&mut attr.clone(), 0, -1, None) else {
        return 0;
    };
    let mut members = Vec::new();
    while members.len() < 63 {
        match sys::open(&mut attr.clone(), 0, -1, Some(&leader)) {
            Ok(fd) => members.push(fd),
            Err(_) => break,
        }
    }
    members.len() as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SoftwareEvent;

    #[test]
    fn a_group_probe_stops_where_the_kernel_refuses_a_member() {
        // Software events take no counter: the kernel takes them all, up to the probe's cap.
        assert_eq!(group_capacity(SoftwareEvent::TaskClock.into()), 64);
        let wanted = [
            HardwareEvent::CpuCycles.into(),
            SoftwareEvent::TaskClock.into(),
            Event::raw(0x7fff_0000, 1), // a PMU type that does not exist
        ];
        let got = supported_counters(&wanted);
        assert_eq!(got.contains(&wanted[0]), cycles_open(), "{got:?}");
        assert_eq!(
            &got[got.len() - 1..],
            &[wanted[1]],
            "software, not the bogus raw event"
        );
        // Cycles: none without a PMU; on one, the cycle counter and the event counters.
        let cycles = group_capacity(HardwareEvent::CpuCycles.into());
        match cycles_open() {
            true => assert!((2..64).contains(&cycles), "{cycles}"),
            false => assert_eq!(cycles, 0),
        }
    }

    fn cycles_open() -> bool {
        is_counter_supported(HardwareEvent::CpuCycles).is_ok()
    }

    #[test]
    fn discovery_answers_cleanly_with_or_without_a_pmu() {
        let info = discover();
        let line = info.describe();
        std::println!("{line}");
        if info.present() {
            assert!(line.starts_with("CPU PMU: fixedCounters="), "{line}");
            assert!(info.number_of_counters().is_some());
        } else {
            let source = match cfg!(target_arch = "x86_64") {
                true => "no hardware PMU (CPUID 0xA version ",
                false => "no hardware PMU (no core PMU; ",
            };
            assert!(line.starts_with(source), "{line}");
            assert!(line.contains("hardware events → "), "{line}");
            assert_ne!(info.cycles_errno, 0);
            assert_eq!(info.number_of_counters(), None);
        }
        if cfg!(target_arch = "aarch64") && info.present() {
            let (fixed, general) = info.number_of_counters().unwrap();
            assert_eq!(fixed, 1, "PMCCNTR_EL0");
            assert!(general >= 1, "{line}");
        }
        // The software PMU is always listed where perf_event exists.
        assert!(info
            .pmus
            .iter()
            .any(|p| p.name == "software" && p.type_ == 1));
        assert_eq!(info.paranoid, perf_event_paranoid());
    }
}
