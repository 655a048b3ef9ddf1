//! The conditions a run was measured under, for the report's header, and the default
//! meter (which counters the machine allows).

use std::boxed::Box;
use std::string::{String, ToString};
use std::vec::Vec;

use super::meter::{ClockMeter, Meter};
use super::plan::Plan;
use crate::error::BenchError;

/// What the figures depend on: the machine, its frequency policy, the PMU, the clock, the
/// placement and the batch; with warnings where they spoil the figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conditions {
    /// `model name` of /proc/cpuinfo.
    pub cpu_model: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// The kernel release.
    pub kernel: String,
    /// cpufreq's governor of CPU 0, where readable.
    pub governor: Option<String>,
    /// Boost / turbo: `on` or `off`, where readable.
    pub boost: Option<String>,
    /// The PMU as discovery describes it (`n/a` without feature `perf`).
    pub pmu: String,
    /// The CPU the run was pinned to.
    pub pinned_cpu: Option<usize>,
    /// The clock: source and frequency.
    pub clock: String,
    /// The kernel's clocksource.
    pub clocksource: Option<String>,
    /// Operations per sample.
    pub batch: u64,
    /// The warm-up.
    pub warm_up: WarmUp,
    /// What one operation is called in the report: `op` for a function, `run` for a
    /// command.
    pub operation: String,
    /// The result whose medians were subtracted per operation, by name.
    pub baseline: Option<String>,
    /// What spoils the figures, each a sentence.
    pub warnings: Vec<String>,
    /// Why the measured code is known to be unoptimized ([`crate::Bench::with_unoptimized`]).
    pub unoptimized: Option<String>,
}

/// What the warm-up found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WarmUp {
    /// Batches run.
    pub batches: u64,
    /// The medians of the last two windows differed by less than 2 %.
    pub converged: bool,
    /// Their relative difference.
    pub last_change: f64,
}

fn read_trimmed(path: &str) -> Option<String> {
    let s = std::fs::read_to_string(path).ok()?;
    Some(s.trim().to_string()).filter(|s| !s.is_empty())
}

/// Boost from cpufreq (`1` on) or intel_pstate (`no_turbo` 0 on).
fn boost() -> Option<String> {
    let on = |b: bool| if b { "on" } else { "off" }.to_string();
    if let Some(v) = read_trimmed("/sys/devices/system/cpu/cpufreq/boost") {
        return Some(on(v == "1"));
    }
    read_trimmed("/sys/devices/system/cpu/intel_pstate/no_turbo").map(|v| on(v == "0"))
}

/// `model name` of /proc/cpuinfo (`unknown` where it names none).
pub(crate) fn cpu_model() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
        .map_or("unknown", |(_, m)| m.trim())
        .to_string()
}

impl Conditions {
    /// Read the machine's side; the run's side (batch, warm-up, clock) is filled in by it.
    pub fn of_machine(pinned_cpu: Option<usize>) -> Self {
        Conditions {
            cpu_model: cpu_model(),
            cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
            kernel: read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default(),
            governor: read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
            boost: boost(),
            pmu: pmu_line(),
            pinned_cpu,
            operation: "op".into(),
            clocksource: read_trimmed(
                "/sys/devices/system/clocksource/clocksource0/current_clocksource",
            ),
            ..Conditions::default()
        }
    }

    /// Add the warnings the conditions themselves call for.
    pub fn warn_about_machine(&mut self) {
        if let Some(why) = &self.unoptimized {
            self.warnings.push(std::format!(
                "the measured code is unoptimized ({why}): its figures are not those of an \
                 optimized build"
            ));
        }
        if self.governor.as_deref().is_some_and(|g| g != "performance") {
            let g = self.governor.as_deref().unwrap_or_default();
            self.warnings.push(std::format!(
                "frequency scaling is on (governor {g}): figures move with the clock"
            ));
        }
        if self.boost.as_deref() == Some("on") {
            self.warnings
                .push("boost/turbo is on: the clock rises and falls with load".into());
        }
        if !self.warm_up.converged {
            self.warnings.push(std::format!(
                "high variance during warm-up: the median still moved {:.1} % when its \
                 budget ran out",
                self.warm_up.last_change * 100.0
            ));
        }
    }
}

/// What the machine counts with: the PMU discovery's line, and the emulator's where the
/// program runs under Picollo's QEMU plugin (its counts are the guest's, not the host's).
#[cfg(feature = "perf")]
fn pmu_line() -> String {
    let pmu = picollo_perf::discover().describe();
    let emulation = picollo_perf::emulation();
    match emulation.counts {
        Some(_) => std::format!("{pmu}; {}", emulation.description),
        None => pmu,
    }
}

#[cfg(not(feature = "perf"))]
fn pmu_line() -> String {
    "n/a (built without feature perf)".into()
}

/// The meter a run uses, with the warnings its choice calls for.
#[cfg(not(feature = "perf"))]
pub(crate) fn default_meter(_: &Plan) -> Result<(Box<dyn Meter>, Vec<String>), BenchError> {
    let why = "time only: built without feature perf".to_string();
    Ok((Box::new(ClockMeter::new()), std::vec![why]))
}

/// The meter a run uses: the counters asked for, or the default hardware set, falling back
/// to software counters (and to time alone) with the reason.
#[cfg(feature = "perf")]
pub(crate) fn default_meter(b: &Plan) -> Result<(Box<dyn Meter>, Vec<String>), BenchError> {
    use super::counters;
    use super::meter::PerfMeter;
    match &b.counters {
        Some(events) if events.is_empty() => return Ok((Box::new(ClockMeter::new()), Vec::new())),
        Some(events) => return Ok((Box::new(PerfMeter::open(events, b.read_path)?), Vec::new())),
        None => {}
    }
    let emulated = counters::emulated();
    if !emulated.is_empty() {
        return Ok((
            Box::new(PerfMeter::open(&emulated, b.read_path)?),
            Vec::new(),
        ));
    }
    let wanted = counters::default_hardware();
    let full = PerfMeter::open(&wanted, b.read_path);
    let hardware_error =
        match full.or_else(|_| PerfMeter::open(&wanted[..wanted.len().min(3)], b.read_path)) {
            Ok(m) => return Ok((Box::new(m), Vec::new())),
            Err(e) => e,
        };
    let why = std::format!("hardware counters unavailable ({hardware_error})");
    match PerfMeter::open(&counters::software(), b.read_path) {
        Ok(m) => {
            let instead = "counting task-clock, page faults and context switches instead";
            Ok((Box::new(m), std::vec![std::format!("{why}: {instead}")]))
        }
        Err(e) => {
            let warning = std::format!("{why}; software counters too ({e}): time only");
            Ok((Box::new(ClockMeter::new()), std::vec![warning]))
        }
    }
}
