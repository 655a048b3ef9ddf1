//! The kernel's perf settings and PMU list as procfs and sysfs show them:
//! perf_event_paranoid, the user-space counter read setting (x86's `rdpmc`, arm64's
//! `perf_user_access`), the PMUs under `/sys/bus/event_source/devices`, which of them count
//! the CPU's own events, and the config bits that ask a PMU for user-space reads.

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

/// Whether user space may read its counters, as the kernel's setting says:
/// `/sys/bus/event_source/devices/cpu/rdpmc` on x86 (or `cpu_core/rdpmc` on hybrid parts: 0
/// off, 1 for mmapped events, 2 always), else `/proc/sys/kernel/perf_user_access` on arm64
/// (0 off, 1 for events that ask for it).
pub fn rdpmc_setting() -> Option<u32> {
    ["cpu", "cpu_core"]
        .iter()
        .find_map(|p| pmu_rdpmc(p))
        .or_else(perf_user_access)
}

/// `/proc/sys/kernel/perf_user_access` (arm64 kernels only).
pub(crate) fn perf_user_access() -> Option<u32> {
    read_number("/proc/sys/kernel/perf_user_access")
}

/// The `rdpmc` file of the PMU named `pmu` (0 off, 1 for mmapped events, 2 always).
pub(crate) fn pmu_rdpmc(pmu: &str) -> Option<u32> {
    read_number(&format!("{SYSFS_PMUS}/{pmu}/rdpmc"))
}

/// Every PMU in sysfs, by type.
pub(crate) fn sysfs_pmus() -> Vec<SysfsPmu> {
    pmus_in(SYSFS_PMUS)
}

/// Every PMU listed under `root` (a directory laid out as `/sys/bus/event_source/devices`),
/// by type.
pub(crate) fn pmus_in(root: &str) -> Vec<SysfsPmu> {
    let Ok(dir) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut pmus: Vec<SysfsPmu> = dir
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let type_ = read_number(&format!("{root}/{name}/type"))?;
            Some(SysfsPmu { name, type_ })
        })
        .collect();
    pmus.sort_by_key(|p| p.type_);
    pmus
}

/// Whether the PMU `name` under `root` counts the CPU's own events: `cpu` (x86),
/// `cpu_core` and `cpu_atom` (hybrid Intel), or one that lists the CPUs it serves in a
/// `cpus` file (arm64's `armv8_pmuv3*`, `armv8_cortex_*` and other core PMUs; uncore PMUs
/// have a `cpumask` instead).
pub(crate) fn is_core_pmu(root: &str, name: &str) -> bool {
    matches!(name, "cpu" | "cpu_core" | "cpu_atom")
        || std::path::Path::new(&format!("{root}/{name}/cpus")).is_file()
}

/// The bits that ask the PMU `name` under `root` to let user space read an event's counter,
/// as `[config, config1, config2]` masks, from its `format/rdpmc` file (arm64's PMUv3:
/// `config1:1`). `None` where the PMU has no such format (x86 grants the read without one).
pub(crate) fn user_read_bits(root: &str, name: &str) -> Option<[u64; 3]> {
    let spec = std::fs::read_to_string(format!("{root}/{name}/format/rdpmc")).ok()?;
    format_bits(spec.trim())
}

/// A sysfs format (`config1:1`, `config:0-7`, `config2:0,4-5`) as masks of the three config
/// words; `None` for any other shape.
pub(crate) fn format_bits(spec: &str) -> Option<[u64; 3]> {
    let (word, bits) = spec.split_once(':')?;
    let slot = ["config", "config1", "config2"]
        .iter()
        .position(|w| *w == word)?;
    let mut masks = [0u64; 3];
    for part in bits.split(',') {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        let (lo, hi): (u32, u32) = (lo.parse().ok()?, hi.parse().ok()?);
        if lo > hi || hi > 63 {
            return None;
        }
        masks[slot] |= (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
    }
    Some(masks)
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
    fn format_specs_become_masks_of_their_config_word() {
        assert_eq!(format_bits("config1:1"), Some([0, 2, 0]));
        assert_eq!(format_bits("config:0-7"), Some([0xFF, 0, 0]));
        assert_eq!(format_bits("config2:0,4-5"), Some([0, 0, 0x31]));
        assert_eq!(format_bits("config:63"), Some([1 << 63, 0, 0]));
        for bad in [
            "config3:1",
            "config1",
            "config1:",
            "config1:2-1",
            "config:64",
            "x:1",
        ] {
            assert_eq!(format_bits(bad), None, "{bad}");
        }
    }

    /// A sysfs PMU directory under `root`: its type, and its other files.
    fn fake_pmu(root: &std::path::Path, name: &str, type_: u32, files: &[(&str, &str)]) {
        let dir = root.join(name);
        std::fs::create_dir_all(dir.join("format")).unwrap();
        std::fs::write(dir.join("type"), format!("{type_}\n")).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
    }

    #[test]
    fn arm64_core_pmus_are_found_by_their_cpus_file_and_give_their_user_read_bit() {
        // The layout of an arm64 guest's sysfs: a PMUv3 core PMU (type 8, `cpus`, the
        // `rdpmc` format), an uncore PMU with a `cpumask`, and the software PMU.
        let root = std::env::temp_dir().join(format!("picollo-sysfs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        fake_pmu(
            &root,
            "armv8_pmuv3_0",
            8,
            &[("cpus", "0-3\n"), ("format/rdpmc", "config1:1\n")],
        );
        fake_pmu(&root, "arm_dsu_0", 9, &[("cpumask", "0\n")]);
        fake_pmu(&root, "software", 1, &[]);
        let root_str = root.to_str().unwrap();
        let pmus = pmus_in(root_str);
        let names: Vec<&str> = pmus.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["software", "armv8_pmuv3_0", "arm_dsu_0"], "by type");
        let core: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| is_core_pmu(root_str, n))
            .collect();
        assert_eq!(core, ["armv8_pmuv3_0"]);
        assert!(is_core_pmu(root_str, "cpu"), "x86's core PMU by its name");
        assert_eq!(user_read_bits(root_str, "armv8_pmuv3_0"), Some([0, 2, 0]));
        assert_eq!(user_read_bits(root_str, "arm_dsu_0"), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_software_pmu_is_listed_with_type_1() {
        assert!(sysfs_pmus()
            .iter()
            .any(|p| p.name == "software" && p.type_ == 1));
    }
}
