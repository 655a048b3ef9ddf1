//! Figures derived from several counters: instructions per cycle, cache-miss and
//! branch-miss ratios, where the session has the counters they need.

use core::fmt;

use super::event::{CacheLevel, CacheOp, CacheResult, Event, HardwareEvent};

/// Ratios between counters; `None` where a counter is missing or the denominator is 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Derived {
    /// Instructions per cycle.
    pub ipc: Option<f64>,
    /// Cache misses per cache reference (the generic last-level events, else LL read
    /// misses per LL read access).
    pub cache_miss_ratio: Option<f64>,
    /// Branch misses per branch instruction.
    pub branch_miss_ratio: Option<f64>,
}

impl Derived {
    /// The ratios from any source of per-event values (deltas, histogram means).
    pub fn from_values(value: impl Fn(Event) -> Option<f64>) -> Self {
        let hw = |h: HardwareEvent| value(Event::Hardware(h));
        let ll = |r: CacheResult| value(Event::cache(CacheLevel::LL, CacheOp::Read, r));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if b > 0.0 => Some(a / b),
            _ => None,
        };
        let generic = ratio(
            hw(HardwareEvent::CacheMisses),
            hw(HardwareEvent::CacheReferences),
        );
        Derived {
            ipc: ratio(
                hw(HardwareEvent::Instructions),
                hw(HardwareEvent::CpuCycles),
            ),
            cache_miss_ratio: generic
                .or_else(|| ratio(ll(CacheResult::Miss), ll(CacheResult::Access))),
            branch_miss_ratio: ratio(
                hw(HardwareEvent::BranchMisses),
                hw(HardwareEvent::BranchInstructions),
            ),
        }
    }
}

impl fmt::Display for Derived {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ipc {
            Some(v) => write!(f, "IPC={v:.3}")?,
            None => f.write_str("IPC=n/a")?,
        }
        for (label, v) in [
            ("cache-miss", self.cache_miss_ratio),
            ("branch-miss", self.branch_miss_ratio),
        ] {
            match v {
                Some(v) => write!(f, ", {label}={:.3}%", v * 100.0)?,
                None => write!(f, ", {label}=n/a")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn ratios_need_both_counters_and_a_non_zero_denominator() {
        let d = Derived::from_values(|e| match e {
            Event::Hardware(HardwareEvent::Instructions) => Some(300.0),
            Event::Hardware(HardwareEvent::CpuCycles) => Some(200.0),
            Event::Hardware(HardwareEvent::BranchMisses) => Some(5.0),
            Event::Hardware(HardwareEvent::BranchInstructions) => Some(0.0),
            Event::Cache(c) if c.result == CacheResult::Miss => Some(1.0),
            Event::Cache(_) => Some(4.0),
            _ => None,
        });
        assert_eq!(d.ipc, Some(1.5));
        assert_eq!(d.branch_miss_ratio, None, "zero branches: no ratio");
        assert_eq!(
            d.cache_miss_ratio,
            Some(0.25),
            "falls back to LL read events"
        );
        assert_eq!(
            d.to_string(),
            "IPC=1.500, cache-miss=25.000%, branch-miss=n/a"
        );
        assert_eq!(Derived::from_values(|_| None), Derived::default());
    }
}
