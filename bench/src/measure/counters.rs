//! The counters a benchmark counts unless told otherwise, in one list each: the emulated
//! set under Picollo's QEMU plugin, the hardware set where the PMU has it, the software set
//! where it does not. The harness's default
//! meter and `picollo bench` both choose from these.

use picollo_perf::{
    emulation, supported_counters, CacheEvent, CacheLevel, CacheOp, CacheResult, EmulatedEvent,
    Event, HardwareEvent, SoftwareEvent,
};

/// Cycles, instructions, branch misses and L1D read misses.
pub fn hardware() -> [Event; 4] {
    let l1d = CacheEvent::new(CacheLevel::L1D, CacheOp::Read, CacheResult::Miss);
    [
        HardwareEvent::CpuCycles.into(),
        HardwareEvent::Instructions.into(),
        HardwareEvent::BranchMisses.into(),
        l1d.into(),
    ]
}

/// Task-clock, page faults and context switches.
pub fn software() -> [Event; 3] {
    [
        SoftwareEvent::TaskClock.into(),
        SoftwareEvent::PageFaults.into(),
        SoftwareEvent::ContextSwitches.into(),
    ]
}

/// The events of [`hardware`] to open here: those that open (cycles and instructions alone
/// where branch and cache events are missing, as on QEMU's arm64 PMU), or all of them when
/// none does, so that opening them says why.
pub fn default_hardware() -> Vec<Event> {
    let available = supported_counters(&hardware());
    match available.is_empty() {
        true => hardware().to_vec(),
        false => available,
    }
}

/// Under Picollo's QEMU plugin, every emulated count it keeps (instructions, and loads,
/// stores and L1D misses where it counts them); empty elsewhere.
pub fn emulated() -> Vec<Event> {
    let Some(counts) = emulation().counts else {
        return Vec::new();
    };
    let all = [
        EmulatedEvent::Instructions,
        EmulatedEvent::Loads,
        EmulatedEvent::Stores,
        EmulatedEvent::L1DMisses,
    ];
    let counted = all.into_iter().filter(|&e| counts.get(e).is_some());
    counted.map(Event::Emulated).collect()
}
