//! What the harness reads around each batch: a [`Meter`] gives one value per metric
//! between [`Meter::start`] and [`Meter::stop`]. [`ClockMeter`] reads the time-stamp counter
//! (or the monotonic clock); `PerfMeter` (feature `perf`) adds perf counters. Tests drive
//! the harness with a simulated meter.

use std::string::String;
use std::vec::Vec;

use super::BenchError;
use picollo::time::{convert_ticks, tick_frequency, ticks_begin, ticks_end};

/// Every metric is recorded in thousandths of its unit (picoseconds for `ns`), so a
/// per-operation figure of a batch keeps three decimals.
pub const SCALE: u64 = 1_000;

/// What a metric's figures count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Nanoseconds: time, and the software clocks task-clock and cpu-clock.
    Nanoseconds,
    /// Events: every other counter.
    Events,
}

impl Unit {
    /// `ns` or `events`, as the reports, the JSON and the C ABI write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "ns",
            Unit::Events => "events",
        }
    }

    /// The unit [`Unit::as_str`] writes as `text`.
    pub fn parse(text: &str) -> Option<Unit> {
        [Unit::Nanoseconds, Unit::Events]
            .into_iter()
            .find(|u| u.as_str() == text)
    }

    /// The unit of a perf event's counts: the software clocks count nanoseconds.
    #[cfg(feature = "perf")]
    pub fn of(event: picollo::perf::Event) -> Unit {
        use picollo::perf::{Event, SoftwareEvent::CpuClock, SoftwareEvent::TaskClock};
        match event {
            Event::Software(TaskClock | CpuClock) => Unit::Nanoseconds,
            _ => Unit::Events,
        }
    }
}

impl core::fmt::Display for Unit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One metric a meter reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// Its name: `time`, or the counter's (`Hardware:Instructions`).
    pub name: String,
    /// What its figures count.
    pub unit: Unit,
}

impl Metric {
    /// Its figures are exact counts (an emulated counter's, `Emulated:*`): the same work
    /// always gives the same figure, so two figures differ by exactly the work between
    /// them and need no statistics.
    pub fn is_exact(&self) -> bool {
        #[cfg(feature = "perf")]
        return picollo::perf::Event::parse(&self.name).is_ok_and(|e| e.is_exact());
        #[cfg(not(feature = "perf"))]
        false
    }
}

/// One metric's change over a batch, in thousandths of its unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measured {
    /// The change (scaled by time enabled / running when multiplexed).
    pub value: u64,
    /// The counter was multiplexed during the batch.
    pub multiplexed: bool,
}

/// A source of per-batch measurements. The first metric is time.
pub trait Meter {
    /// The metrics, in the order [`Meter::stop`] writes them; the first is time in `ns`.
    fn metrics(&self) -> Vec<Metric>;
    /// Take the readings a batch starts from.
    fn start(&mut self) -> Result<(), BenchError>;
    /// Write each metric's change since [`Meter::start`] into `out` (one per metric).
    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError>;
    /// What it reads time with, for the report (`Tsc at 2.445 GHz (resolution 0.409 ns)`).
    fn clock(&self) -> String;
}

/// Time alone, from the time-stamp counter where built (`lfence; rdtsc` … `rdtscp;
/// lfence`), else the monotonic clock.
#[derive(Debug)]
pub struct ClockMeter {
    frequency: u64,
    start: u64,
}

impl ClockMeter {
    /// A meter; the first one measures the tick frequency (about 20 ms).
    pub fn new() -> Self {
        ClockMeter {
            frequency: tick_frequency(),
            start: 0,
        }
    }

    /// Ticks since `start`, in picoseconds.
    fn elapsed_ps(&self, end: u64) -> u64 {
        convert_ticks(
            end.wrapping_sub(self.start),
            self.frequency,
            1_000_000_000 * SCALE,
        )
    }
}

impl Default for ClockMeter {
    fn default() -> Self {
        Self::new()
    }
}

impl Meter for ClockMeter {
    fn metrics(&self) -> Vec<Metric> {
        std::vec![time_metric()]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.start = ticks_begin();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let end = ticks_end();
        out[0] = Measured {
            value: self.elapsed_ps(end),
            multiplexed: false,
        };
        Ok(())
    }

    fn clock(&self) -> String {
        let source = picollo::time::tick_source();
        let ghz = self.frequency as f64 / 1e9;
        std::format!(
            "{source:?} at {ghz:.3} GHz (resolution {:.3} ns)",
            1.0 / ghz
        )
    }
}

/// The time metric.
pub fn time_metric() -> Metric {
    Metric {
        name: "time".into(),
        unit: Unit::Nanoseconds,
    }
}

#[cfg(feature = "perf")]
pub use perf::PerfMeter;

#[cfg(feature = "perf")]
mod perf {
    use std::string::{String, ToString};
    use std::vec::Vec;

    use super::{ticks_end, ClockMeter, Measured, Meter, Metric, Unit, SCALE};
    use crate::BenchError;
    use picollo::perf::{Event, Session, SessionBuilder};

    /// Time plus a perf session's counters, read as one group (rdpmc where the page allows)
    /// around the clock's reads.
    pub struct PerfMeter {
        clock: ClockMeter,
        session: Session,
    }

    impl PerfMeter {
        /// Open the counters for this thread (user space only, no calibration: the harness
        /// measures its own read overhead).
        pub fn open(events: &[Event]) -> Result<Self, BenchError> {
            let mut b = SessionBuilder::new()
                .with_kernel(false)
                .with_calibration(false);
            for &e in events {
                b = b.with_counter(e);
            }
            Ok(PerfMeter {
                clock: ClockMeter::new(),
                session: b.open()?,
            })
        }
    }

    impl Meter for PerfMeter {
        fn metrics(&self) -> Vec<Metric> {
            let mut m = self.clock.metrics();
            m.extend(self.session.counters().iter().map(|c| Metric {
                name: c.name().to_string(),
                unit: Unit::of(c.event()),
            }));
            m
        }

        fn start(&mut self) -> Result<(), BenchError> {
            self.session.read(false)?;
            self.clock.start()
        }

        fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
            // The ticks, then the counters, then the ticks' conversion: its instructions
            // depend on the value and must not land in an exact count.
            let end = ticks_end();
            self.session.read(false)?;
            out[0] = Measured {
                value: self.clock.elapsed_ps(end),
                multiplexed: false,
            };
            for (o, c) in out[1..].iter_mut().zip(self.session.counters()) {
                let d = c.delta();
                *o = Measured {
                    value: d.scaled.saturating_mul(SCALE),
                    multiplexed: d.multiplexed(),
                };
            }
            Ok(())
        }

        fn clock(&self) -> String {
            self.clock.clock()
        }
    }
}
