//! What a session can count: hardware, cache, software and raw events, each with a stable
//! name (`Hardware:CpuCycles`, `HardwareCache:L1DReadMiss`, `Software:TaskClock`).
//!
//! Plain `#[repr(u32)]` enums whose discriminants are the kernel's ids, so a C ABI can pass
//! them as integers.

use core::fmt;

use super::sys;

macro_rules! named_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $value:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[repr(u32)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant = $value),+
        }

        impl $name {
            /// Every value, in id order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The variant's name (`CpuCycles`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($variant)),+
                }
            }

            /// The value with this kernel id, if any.
            pub fn from_id(id: u32) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| *v as u32 == id)
            }
        }
    };
}

named_enum! {
    /// `PERF_COUNT_HW_*`: generic hardware events (the kernel maps them to the CPU's own).
    HardwareEvent {
        /// Core cycles (fixed counter on Intel); scales with frequency.
        CpuCycles = 0,
        /// Retired instructions (fixed counter on Intel).
        Instructions = 1,
        /// Last-level cache references.
        CacheReferences = 2,
        /// Last-level cache misses.
        CacheMisses = 3,
        /// Retired branch instructions.
        BranchInstructions = 4,
        /// Mispredicted branches.
        BranchMisses = 5,
        /// Bus cycles.
        BusCycles = 6,
        /// Cycles stalled in the front end.
        StalledCyclesFrontend = 7,
        /// Cycles stalled in the back end.
        StalledCyclesBackend = 8,
        /// Reference cycles at the nominal frequency (fixed counter on Intel).
        RefCpuCycles = 9,
    }
}

named_enum! {
    /// `PERF_COUNT_HW_CACHE_*`: which cache.
    CacheLevel {
        /// Level-1 data cache.
        L1D = 0,
        /// Level-1 instruction cache.
        L1I = 1,
        /// Last-level cache.
        LL = 2,
        /// Data TLB.
        DTLB = 3,
        /// Instruction TLB.
        ITLB = 4,
        /// Branch prediction unit.
        BPU = 5,
        /// Local memory (NUMA node) accesses.
        NODE = 6,
    }
}

named_enum! {
    /// `PERF_COUNT_HW_CACHE_OP_*`.
    CacheOp {
        /// Loads.
        Read = 0,
        /// Stores.
        Write = 1,
        /// Prefetches.
        Prefetch = 2,
    }
}

named_enum! {
    /// `PERF_COUNT_HW_CACHE_RESULT_*`.
    CacheResult {
        /// All accesses.
        Access = 0,
        /// Misses only.
        Miss = 1,
    }
}

named_enum! {
    /// `PERF_COUNT_SW_*`: counted by the kernel, available without a PMU.
    SoftwareEvent {
        /// Wall-clock nanoseconds on a CPU timer.
        CpuClock = 0,
        /// Nanoseconds this task ran.
        TaskClock = 1,
        /// All page faults.
        PageFaults = 2,
        /// Context switches.
        ContextSwitches = 3,
        /// Migrations to another CPU.
        CpuMigrations = 4,
        /// Minor page faults (no I/O).
        MinorPageFaults = 5,
        /// Major page faults (I/O).
        MajorPageFaults = 6,
        /// Unaligned accesses fixed up by the kernel.
        AlignmentFaults = 7,
        /// Instructions emulated by the kernel.
        EmulationFaults = 8,
    }
}

named_enum! {
    /// Counted by Picollo's QEMU plugin for the calling guest thread, exactly (no PMU
    /// involved): user-space guest instructions, memory accesses, and the misses of a
    /// modelled L1D cache ([`super::emulation`]).
    EmulatedEvent {
        /// Guest instructions executed (user space only).
        Instructions = 0,
        /// Guest memory loads (the plugin's `mem=on`).
        Loads = 1,
        /// Guest memory stores (the plugin's `mem=on`).
        Stores = 2,
        /// Loads and stores that missed the plugin's modelled L1D cache (`l1d=on`).
        L1DMisses = 3,
    }
}

/// A cache event: level × operation × result (`HardwareCache:L1DReadMiss`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CacheEvent {
    /// Which cache.
    pub level: CacheLevel,
    /// Which operation.
    pub op: CacheOp,
    /// Accesses or misses.
    pub result: CacheResult,
}

impl CacheEvent {
    /// A cache event.
    pub const fn new(level: CacheLevel, op: CacheOp, result: CacheResult) -> Self {
        CacheEvent { level, op, result }
    }

    /// The kernel's config word: `level | op << 8 | result << 16`.
    pub const fn config(self) -> u64 {
        self.level as u64 | (self.op as u64) << 8 | (self.result as u64) << 16
    }
}

/// A raw event: the PMU type and its config words, as `perf list` or the vendor's tables
/// give them (`type` 4 is the core PMU's raw encoding; dynamic PMUs have their sysfs type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawEvent {
    /// `attr.type`.
    pub type_: u32,
    /// `attr.config`.
    pub config: u64,
    /// `attr.config1`.
    pub config1: u64,
    /// `attr.config2`.
    pub config2: u64,
}

/// One countable event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Event {
    /// A generic hardware event.
    Hardware(HardwareEvent),
    /// A cache event.
    Cache(CacheEvent),
    /// A software event.
    Software(SoftwareEvent),
    /// A raw event.
    Raw(RawEvent),
    /// An exact count of the emulator's (QEMU user mode with Picollo's plugin): never a
    /// perf_event.
    Emulated(EmulatedEvent),
}

/// Cycles, instructions and reference cycles: the events Intel counts on fixed counters,
/// which do not take a programmable slot.
pub const FIXED_EVENTS: [Event; 3] = [
    Event::Hardware(HardwareEvent::CpuCycles),
    Event::Hardware(HardwareEvent::Instructions),
    Event::Hardware(HardwareEvent::RefCpuCycles),
];

impl Event {
    /// A raw event with `config` only.
    pub const fn raw(type_: u32, config: u64) -> Self {
        Event::Raw(RawEvent {
            type_,
            config,
            config1: 0,
            config2: 0,
        })
    }

    /// A cache event.
    pub const fn cache(level: CacheLevel, op: CacheOp, result: CacheResult) -> Self {
        Event::Cache(CacheEvent::new(level, op, result))
    }

    /// `(attr.type, attr.config, attr.config1, attr.config2)`.
    pub const fn encoding(self) -> (u32, u64, u64, u64) {
        match self {
            Event::Hardware(h) => (sys::TYPE_HARDWARE, h as u64, 0, 0),
            Event::Cache(c) => (sys::TYPE_HW_CACHE, c.config(), 0, 0),
            Event::Software(s) => (sys::TYPE_SOFTWARE, s as u64, 0, 0),
            Event::Raw(r) => (r.type_, r.config, r.config1, r.config2),
            Event::Emulated(e) => (sys::TYPE_EMULATED, e as u64, 0, 0),
        }
    }

    /// Counted by the kernel rather than the PMU: never readable with rdpmc.
    pub const fn is_software(self) -> bool {
        matches!(self, Event::Software(_))
    }

    /// Counted by the emulator, not by perf_event: read with a request to Picollo's QEMU
    /// plugin ([`super::emulation`]).
    pub const fn is_emulated(self) -> bool {
        matches!(self, Event::Emulated(_))
    }

    /// Its counts are exact: the same work always gives the same count, so two counts
    /// differ by exactly the work between them (the emulated events).
    pub const fn is_exact(self) -> bool {
        self.is_emulated()
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.class().as_str())?;
        match *self {
            Event::Hardware(h) => f.write_str(h.as_str()),
            Event::Cache(c) => {
                let (l, o, r) = (c.level.as_str(), c.op.as_str(), c.result.as_str());
                write!(f, "{l}{o}{r}")
            }
            Event::Software(s) => f.write_str(s.as_str()),
            Event::Emulated(e) => f.write_str(e.as_str()),
            Event::Raw(r) if r.config1 == 0 && r.config2 == 0 => {
                write!(f, "{}:{:#x}", r.type_, r.config)
            }
            Event::Raw(r) => write!(
                f,
                "{}:{:#x}:{:#x}:{:#x}",
                r.type_, r.config, r.config1, r.config2
            ),
        }
    }
}

/// `From` each kind of event for [`Event`]: its variant.
macro_rules! event_from {
    ($($variant:ident($kind:ty)),+) => {$(
        impl From<$kind> for Event {
            fn from(e: $kind) -> Self {
                Event::$variant(e)
            }
        }
    )+};
}

event_from!(
    Hardware(HardwareEvent),
    Cache(CacheEvent),
    Software(SoftwareEvent),
    Raw(RawEvent),
    Emulated(EmulatedEvent)
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn names_follow_the_class_colon_name_pattern() {
        assert_eq!(
            Event::Hardware(HardwareEvent::CpuCycles).to_string(),
            "Hardware:CpuCycles"
        );
        assert_eq!(
            Event::cache(CacheLevel::L1D, CacheOp::Read, CacheResult::Miss).to_string(),
            "HardwareCache:L1DReadMiss"
        );
        assert_eq!(
            Event::Software(SoftwareEvent::TaskClock).to_string(),
            "Software:TaskClock"
        );
        assert_eq!(Event::raw(4, 0x1c2).to_string(), "Raw:4:0x1c2");
        assert_eq!(
            Event::Emulated(EmulatedEvent::L1DMisses).to_string(),
            "Emulated:L1DMisses"
        );
    }

    #[test]
    fn every_name_parses_back_to_its_event() {
        let mut events: std::vec::Vec<Event> = std::vec::Vec::new();
        events.extend(HardwareEvent::ALL.iter().map(|&h| Event::Hardware(h)));
        events.extend(SoftwareEvent::ALL.iter().map(|&s| Event::Software(s)));
        events.extend(EmulatedEvent::ALL.iter().map(|&e| Event::Emulated(e)));
        for &l in CacheLevel::ALL {
            for &o in CacheOp::ALL {
                for &r in CacheResult::ALL {
                    events.push(Event::cache(l, o, r));
                }
            }
        }
        events.push(Event::raw(4, 0x1c2));
        events.push(Event::Raw(RawEvent {
            type_: 9,
            config: 1,
            config1: 2,
            config2: 3,
        }));
        for e in events {
            assert_eq!(Event::parse(&e.to_string()), Ok(e), "{e}");
            let lower = e.to_string().to_lowercase();
            assert_eq!(Event::parse(&lower), Ok(e), "{lower}: case aside");
        }
        assert!(Event::parse("Hardware:Nope").is_err());
        assert!(Event::parse("HardwareCache:L1DReadMis").is_err());
        assert!(Event::parse("Raw:4").is_err());
        assert!(Event::parse("CpuCycles").is_err());
        assert!(Event::parse("Emulated:Cycles").is_err());
    }

    #[test]
    fn cache_config_packs_level_op_result() {
        let c = CacheEvent::new(CacheLevel::LL, CacheOp::Prefetch, CacheResult::Miss);
        assert_eq!(c.config(), 2 | 2 << 8 | 1 << 16);
        assert_eq!(
            Event::Cache(c).encoding(),
            (sys::TYPE_HW_CACHE, 0x1_0202, 0, 0)
        );
    }
}
