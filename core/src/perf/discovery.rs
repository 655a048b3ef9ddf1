//! What this machine can count: CPUID (through `native/`), the PMUs and settings the
//! kernel shows ([`super::system`]), and trial opens.

use std::format;
use std::string::String;
use std::vec::Vec;

use super::builder::SessionBuilder;
use super::error::PerfError;
use super::event::{Event, HardwareEvent};
use super::sys::errno_name;
use super::system::{perf_event_paranoid, pmu_rdpmc, sysfs_pmus, SysfsPmu};

/// The CPU's vendor, from CPUID leaf 0.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuVendor {
    /// GenuineIntel.
    Intel = 0,
    /// AuthenticAMD (or HygonGenuine).
    Amd = 1,
    /// Anything else, or not x86-64.
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
    /// Fixed counters per logical CPU (Intel only; 0 when no PMU).
    pub fixed_counters: u32,
    /// Their width in bits.
    pub fixed_width: u32,
    /// General (programmable) counters per logical CPU (0 when no PMU).
    pub programmable_counters: u32,
    /// Their width in bits (0 when unknown).
    pub programmable_width: u32,
    /// The core PMUs in sysfs (`cpu`, or `cpu_core` and `cpu_atom` on hybrid Intel).
    pub core_pmus: Vec<SysfsPmu>,
    /// Every PMU in sysfs.
    pub pmus: Vec<SysfsPmu>,
    /// `/sys/bus/event_source/devices/cpu/rdpmc` (0 off, 1 for mmapped events, 2 always).
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

    /// One line: `CPU PMU: fixedCounters=3, programmableCounters=8 (Intel, perfmon v5, …)`
    /// or `no hardware PMU (CPUID 0xA version 0; hardware events → ENOENT)`.
    pub fn describe(&self) -> String {
        let rdpmc = self.rdpmc.map_or_else(|| "n/a".into(), |v| format!("{v}"));
        let paranoid = self
            .paranoid
            .map_or_else(|| "n/a".into(), |v| format!("{v}"));
        if self.present() {
            let pmus: Vec<&str> = self.core_pmus.iter().map(|p| p.name.as_str()).collect();
            format!(
                "CPU PMU: fixedCounters={}, programmableCounters={} ({:?}, perfmon v{}, \
                 widths {}/{} bits, sysfs {}, rdpmc={rdpmc}, perf_event_paranoid={paranoid})",
                self.fixed_counters,
                self.programmable_counters,
                self.vendor,
                self.arch_perfmon_version,
                self.fixed_width,
                self.programmable_width,
                pmus.join("+"),
            )
        } else {
            let mut s = format!(
                "no hardware PMU (CPUID 0xA version {}; hardware events → {})",
                self.arch_perfmon_version,
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
}

/// Look at everything (a handful of CPUID leaves, sysfs, procfs and one trial open).
pub fn discover() -> PmuInfo {
    let pmus = sysfs_pmus();
    let core_pmus: Vec<SysfsPmu> = pmus
        .iter()
        .filter(|p| matches!(p.name.as_str(), "cpu" | "cpu_core" | "cpu_atom"))
        .cloned()
        .collect();
    let cycles_errno = match is_counter_supported(HardwareEvent::CpuCycles) {
        Ok(()) => 0,
        Err(e) => e.errno(),
    };
    let cpu = cpuid_counters();
    let mut info = PmuInfo {
        vendor: cpu.vendor,
        hypervisor: cpu.hypervisor,
        arch_perfmon_version: cpu.version,
        fixed_counters: cpu.fixed,
        fixed_width: cpu.fixed_width,
        programmable_counters: cpu.general,
        programmable_width: cpu.general_width,
        rdpmc: core_pmus.first().and_then(|p| pmu_rdpmc(&p.name)),
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

#[cfg(picollo_native)]
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
#[cfg(picollo_native)]
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
#[cfg(picollo_native)]
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

#[cfg(not(picollo_native))]
fn cpuid_counters() -> CpuidCounters {
    CpuidCounters::NONE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_answers_cleanly_with_or_without_a_pmu() {
        let info = discover();
        let line = info.describe();
        std::println!("{line}");
        if info.present() {
            assert!(line.starts_with("CPU PMU: fixedCounters="), "{line}");
            assert!(info.number_of_counters().is_some());
        } else {
            assert!(
                line.starts_with("no hardware PMU (CPUID 0xA version "),
                "{line}"
            );
            assert!(line.contains("hardware events → "), "{line}");
            assert_ne!(info.cycles_errno, 0);
            assert_eq!(info.number_of_counters(), None);
        }
        // The software PMU is always listed where perf_event exists.
        assert!(info
            .pmus
            .iter()
            .any(|p| p.name == "software" && p.type_ == 1));
        assert_eq!(info.paranoid, perf_event_paranoid());
    }
}
