//! The kernel's perf settings and PMU list as procfs and sysfs show them:
//! perf_event_paranoid, the rdpmc setting and the PMUs under
//! `/sys/bus/event_source/devices`.

use std::format;
use std::string::String;
use std::vec::Vec;

/// Where the kernel lists its PMUs.
pub(crate) const SYSFS_PMUS: &str = "/sys/bus/event_source/devices";

/// A PMU listed under `/sys/bus/event_source/devices`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysfsPmu {
    /// Its directory name (`cpu`, `cpu_core`, `software`, `msr`, …).
    pub name: String,
    /// Its `type` (the `attr.type` for its raw events).
    pub type_: u32,
}

/// `/proc/sys/kernel/perf_event_paranoid`, when readable.
pub fn perf_event_paranoid() -> Option<i32> {
    read_number("/proc/sys/kernel/perf_event_paranoid")
}

/// What a perf_event_paranoid value allows an unprivileged user.
pub fn paranoid_meaning(value: i32) -> &'static str {
    match value {
        i32::MIN..=-1 => "everything is allowed",
        0 => "everything but raw tracepoints: CPU-wide and kernel events allowed",
        1 => "own processes, user and kernel space; no CPU-wide events",
        2 => "own processes in user space only (exclude_kernel); no CPU-wide or kernel events",
        _ => "nothing: perf_event_open is forbidden to unprivileged users (distribution setting)",
    }
}

/// `/sys/bus/event_source/devices/cpu/rdpmc` (or `cpu_core/rdpmc` on hybrid parts).
pub fn rdpmc_setting() -> Option<u32> {
    ["cpu", "cpu_core"].iter().find_map(|p| pmu_rdpmc(p))
}

/// The `rdpmc` file of the PMU named `pmu` (0 off, 1 for mmapped events, 2 always).
pub(crate) fn pmu_rdpmc(pmu: &str) -> Option<u32> {
    read_number(&format!("{SYSFS_PMUS}/{pmu}/rdpmc"))
}

/// Every PMU in sysfs, by type.
pub(crate) fn sysfs_pmus() -> Vec<SysfsPmu> {
    let Ok(dir) = std::fs::read_dir(SYSFS_PMUS) else {
        return Vec::new();
    };
    let mut pmus: Vec<SysfsPmu> = dir
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let type_ = read_number(&format!("{SYSFS_PMUS}/{name}/type"))?;
            Some(SysfsPmu { name, type_ })
        })
        .collect();
    pmus.sort_by_key(|p| p.type_);
    pmus
}

/// A file holding one number (and a newline), parsed.
fn read_number<T: core::str::FromStr>(path: &str) -> Option<T> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paranoid_levels_say_what_they_allow() {
        assert!(paranoid_meaning(-1).contains("everything"));
        assert!(paranoid_meaning(2).contains("user space only"));
        assert!(paranoid_meaning(4).contains("forbidden"));
    }

    #[test]
    fn the_software_pmu_is_listed_with_type_1() {
        assert!(sysfs_pmus()
            .iter()
            .any(|p| p.name == "software" && p.type_ == 1));
    }
}
