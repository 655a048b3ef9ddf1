//! What the harness reads around each batch: a [`Meter`] gives one value per metric
//! between [`Meter::start`] and [`Meter::stop`]. [`ClockMeter`] reads the time-stamp counter
//! (or the monotonic clock); a [`Source`] of any other figures (perf counters, bytes
//! allocated) goes beside a clock with [`Meter::with`]; `PerfMeter` (feature `perf`) is a
//! clock with the perf counters beside it. Tests drive the harness with a simulated meter.

use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use super::pause;
use crate::error::BenchError;
use picollo_perf::time::{convert_ticks, tick_frequency, tick_step, ticks_begin, ticks_end};

/// Every metric is recorded in thousandths of its unit (picoseconds for `ns`), so a
/// per-operation figure of a batch keeps three decimals.
pub const SCALE: u64 = 1_000;

/// What a metric's figures count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum Unit {
    /// Nanoseconds: time, and the software clocks task-clock and cpu-clock.
    Nanoseconds,
    /// Events: every other counter.
    Events,
    /// Bytes (of memory allocated, say).
    Bytes,
}

impl Unit {
    /// `ns` or `events`, as the reports, the JSON and the C ABI write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Nanoseconds => "ns",
            Unit::Events => "events",
            Unit::Bytes => "bytes",
        }
    }

    /// The unit [`Unit::as_str`] writes as `text`.
    pub fn parse(text: &str) -> Option<Unit> {
        [Unit::Nanoseconds, Unit::Events, Unit::Bytes]
            .into_iter()
            .find(|u| u.as_str() == text)
    }

    /// The unit of a perf event's counts: the software clocks count nanoseconds.
    #[cfg(feature = "perf")]
    pub fn of(event: picollo_perf::Event) -> Unit {
        use picollo_perf::{Event, SoftwareEvent::CpuClock, SoftwareEvent::TaskClock};
        match event {
            Event::Software(TaskClock | CpuClock) => Unit::Nanoseconds,
            _ => Unit::Events,
        }
    }
}

/// Its name, as the JSON of a record writes it.
impl From<Unit> for &'static str {
    fn from(unit: Unit) -> Self {
        unit.as_str()
    }
}

/// The unit a record's JSON names.
impl TryFrom<String> for Unit {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        Unit::parse(&name).ok_or_else(|| std::format!("unknown unit {name:?}"))
    }
}

impl core::fmt::Display for Unit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a metric measures, which says what the harness does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MetricKind {
    /// The time of an operation by the meter's clock: the batch size, the warm-up, the
    /// verdict and the bands of the tail attribution are judged on it.
    Time,
    /// The time the thread spent on a CPU (perf's task-clock): against [`MetricKind::Time`],
    /// the tail attribution's share of time off the CPU.
    OnCpuTime,
    /// Any other figure that varies from run to run: a perf counter, a process's user or
    /// system time, bytes allocated.
    Counter,
    /// An exact count (an emulated counter's, `Emulated:*`): the same work always gives the
    /// same figure, so two figures differ by exactly the work between them.
    Exact,
}

impl MetricKind {
    /// The kind of a perf event's counts: task-clock is time on the CPU, an emulated count
    /// is exact, every other event a counter.
    #[cfg(feature = "perf")]
    pub fn of(event: picollo_perf::Event) -> MetricKind {
        use picollo_perf::{Event, SoftwareEvent::TaskClock};
        match event {
            Event::Software(TaskClock) => MetricKind::OnCpuTime,
            e if e.is_exact() => MetricKind::Exact,
            _ => MetricKind::Counter,
        }
    }
}

/// One metric a meter reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// Its name: `time`, or the counter's (`Hardware:Instructions`).
    pub name: String,
    /// What its figures count.
    pub unit: Unit,
    /// What it measures.
    pub kind: MetricKind,
}

impl Metric {
    /// A metric of this name, unit and kind.
    pub fn new(name: &str, unit: Unit, kind: MetricKind) -> Self {
        Metric {
            name: name.into(),
            unit,
            kind,
        }
    }

    /// The metric of a perf event's counts (its name, unit and kind).
    #[cfg(feature = "perf")]
    pub fn of_event(event: picollo_perf::Event) -> Self {
        Metric::new(&event.to_string(), Unit::of(event), MetricKind::of(event))
    }

    /// A metric known only by its name and unit (read back from a saved result): `time` is
    /// [`MetricKind::Time`], a perf event's name has that event's kind, anything else is a
    /// [`MetricKind::Counter`].
    pub fn named(name: &str, unit: Unit) -> Self {
        #[cfg(feature = "perf")]
        let event = picollo_perf::Event::parse(name).ok().map(MetricKind::of);
        #[cfg(not(feature = "perf"))]
        let event = None;
        let kind = match name {
            "time" => MetricKind::Time,
            _ => event.unwrap_or(MetricKind::Counter),
        };
        Metric::new(name, unit, kind)
    }

    /// The time metric, in nanoseconds.
    pub fn time() -> Self {
        Metric::new("time", Unit::Nanoseconds, MetricKind::Time)
    }

    /// Its figures are exact counts ([`MetricKind::Exact`]): the same work always gives
    /// the same figure, so two figures differ by exactly the work between them and need no
    /// statistics.
    pub fn is_exact(&self) -> bool {
        self.kind == MetricKind::Exact
    }
}

/// The index of the time metric ([`MetricKind::Time`]) among `metrics`; the first where
/// none is.
pub fn time_index(metrics: &[Metric]) -> usize {
    let time = metrics.iter().position(|m| m.kind == MetricKind::Time);
    time.unwrap_or(0)
}

/// One metric's change over a batch, in thousandths of its unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measured {
    /// The change (scaled by time enabled / running when multiplexed).
    pub value: u64,
    /// The counter was multiplexed during the batch.
    pub multiplexed: bool,
    /// Nanoseconds the counter was enabled during the batch (0 for what the kernel does
    /// not schedule: time, an exact count).
    pub enabled: u64,
    /// Of those, the nanoseconds it ran on the PMU and counted.
    pub running: u64,
}

/// A source of per-batch measurements, time among them ([`MetricKind::Time`], by
/// convention the first).
pub trait Meter {
    /// The metrics, in the order [`Meter::stop`] writes them; one is time in `ns`.
    fn metrics(&self) -> Vec<Metric>;
    /// Take the readings a batch starts from.
    fn start(&mut self) -> Result<(), BenchError>;
    /// Write each metric's change since [`Meter::start`] into `out` (one per metric).
    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError>;
    /// What it reads time with, for the report (`Tsc at 2.445 GHz (resolution 0.409 ns)`).
    fn clock(&self) -> String;

    /// The least amount its time moves by, in thousandths of a nanosecond: a clock that
    /// counts in steps of several ticks ([`picollo_perf::time::tick_step`]) tells two
    /// times apart only to within a step, however fine its ticks. 0 where it states none.
    fn clock_step(&self) -> u64 {
        0
    }

    /// Take the reading that ends a batch's time now, and keep it for [`Meter::stop`]: a
    /// meter with a [`Source`] beside it halts its clock before the source reads, so that
    /// time leaves the source's reading out, and converts after, so that the conversion's
    /// work lands in no count. By default nothing: `stop` takes every reading.
    fn halt(&mut self) -> Result<(), BenchError> {
        Ok(())
    }

    /// How its counters are read and why (`read(2): 8,100 ns a read against …`), for the
    /// report's PMU line; `None` for a meter without perf counters.
    fn counters_read(&self) -> Option<String> {
        None
    }

    /// The last batch's figures are not exact: a counter read raced the kernel (a user-space
    /// read that started over, or fell back to read(2)), so the read's own work moved its
    /// counts. The harness measures such a batch again. By default never.
    fn raced(&self) -> bool {
        false
    }

    /// This meter with `source`'s metrics after its own.
    fn with<S: Source>(self, source: S) -> WithSource<Self, S>
    where
        Self: Sized,
    {
        WithSource::new(self, source)
    }
}

/// Figures beside time: one type per kind of figure (perf counters, bytes allocated),
/// read inside a clock's reads once put beside it with [`Meter::with`].
pub trait Source {
    /// The metrics, in the order [`Source::stop`] writes them.
    fn metrics(&self) -> Vec<Metric>;
    /// Take the readings a batch starts from (just before the clock's).
    fn start(&mut self) -> Result<(), BenchError>;
    /// Write each metric's change since [`Source::start`] into `out` (just after the
    /// clock's reading).
    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError>;
    /// The last batch's figures are not exact ([`Meter::raced`]). By default never.
    fn raced(&self) -> bool {
        false
    }
}

/// A boxed meter is the meter it holds (a suite's meters are chosen at run time).
impl Meter for Box<dyn Meter> {
    fn metrics(&self) -> Vec<Metric> {
        (**self).metrics()
    }

    fn start(&mut self) -> Result<(), BenchError> {
        (**self).start()
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        (**self).stop(out)
    }

    fn clock(&self) -> String {
        (**self).clock()
    }

    fn clock_step(&self) -> u64 {
        (**self).clock_step()
    }

    fn halt(&mut self) -> Result<(), BenchError> {
        (**self).halt()
    }

    fn counters_read(&self) -> Option<String> {
        (**self).counters_read()
    }

    fn raced(&self) -> bool {
        (**self).raced()
    }
}

/// A boxed source is the source it holds.
impl Source for Box<dyn Source> {
    fn metrics(&self) -> Vec<Metric> {
        (**self).metrics()
    }

    fn start(&mut self) -> Result<(), BenchError> {
        (**self).start()
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        (**self).stop(out)
    }

    fn raced(&self) -> bool {
        (**self).raced()
    }
}

/// A meter with a [`Source`] beside it ([`Meter::with`]): the meter's metrics, then the
/// source's, read start to stop as source, meter, work, meter, source.
#[derive(Debug)]
pub struct WithSource<M, S> {
    meter: M,
    source: S,
    /// How many metrics the meter writes before the source's.
    split: usize,
}

impl<M: Meter, S: Source> WithSource<M, S> {
    /// `source` beside `meter`.
    pub fn new(meter: M, source: S) -> Self {
        let split = meter.metrics().len();
        WithSource {
            meter,
            source,
            split,
        }
    }
}

impl<M: Meter, S: Source> Meter for WithSource<M, S> {
    fn metrics(&self) -> Vec<Metric> {
        let mut m = self.meter.metrics();
        m.extend(self.source.metrics());
        m
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.source.start()?;
        self.meter.start()
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        // The clock's reading, then the source's, then the clock's conversion.
        self.meter.halt()?;
        let (mine, theirs) = out.split_at_mut(self.split);
        self.source.stop(theirs)?;
        self.meter.stop(mine)
    }

    fn clock(&self) -> String {
        self.meter.clock()
    }

    fn clock_step(&self) -> u64 {
        self.meter.clock_step()
    }

    fn halt(&mut self) -> Result<(), BenchError> {
        self.meter.halt()
    }

    fn counters_read(&self) -> Option<String> {
        self.meter.counters_read()
    }

    fn raced(&self) -> bool {
        self.meter.raced() || self.source.raced()
    }
}

/// Time alone, from the time-stamp counter where built (`lfence; rdtsc` … `rdtscp;
/// lfence`), else the monotonic clock, less the stretches its thread paused
/// ([`crate::pause`] … [`crate::resume`]).
#[derive(Debug)]
pub struct ClockMeter {
    frequency: u64,
    start: u64,
    /// This thread's paused ticks as the batch started ([`super::pause`]).
    paused: u64,
    /// The reading [`Meter::halt`] took and the paused ticks then, for the next
    /// [`Meter::stop`].
    end: Option<(u64, u64)>,
}

impl ClockMeter {
    /// A meter; the first one measures the tick frequency (about 20 ms).
    pub fn new() -> Self {
        ClockMeter {
            frequency: tick_frequency(),
            start: 0,
            paused: 0,
            end: None,
        }
    }

    /// The reading that ends a batch, and this thread's paused ticks up to it.
    fn end_now() -> (u64, u64) {
        let end = ticks_end();
        (end, pause::paused_until(end))
    }

    /// Ticks since `start`, less those paused since, in picoseconds.
    fn elapsed_ps(&self, (end, paused): (u64, u64)) -> u64 {
        let left_out = paused.wrapping_sub(self.paused);
        convert_ticks(
            end.wrapping_sub(self.start).saturating_sub(left_out),
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
        std::vec![Metric::time()]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.paused = pause::started();
        self.start = ticks_begin();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let end = self.end.take().unwrap_or_else(Self::end_now);
        out[0] = Measured {
            value: self.elapsed_ps(end),
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        let source = picollo_perf::time::tick_source();
        let ghz = self.frequency as f64 / 1e9;
        match tick_step() {
            1 => std::format!("{source:?} at {ghz:.3} GHz (resolution {:.3} ns)", 1.0 / ghz),
            step => std::format!(
                "{source:?} at {ghz:.3} GHz (resolution {:.3} ns: it moves in steps of {step} ticks)",
                step as f64 / ghz
            ),
        }
    }

    fn clock_step(&self) -> u64 {
        convert_ticks(tick_step(), self.frequency, 1_000_000_000 * SCALE)
    }

    fn halt(&mut self) -> Result<(), BenchError> {
        if self.end.is_none() {
            self.end = Some(Self::end_now());
        }
        Ok(())
    }
}

#[cfg(feature = "perf")]
pub use perf::{PerfCounters, PerfMeter};

#[cfg(feature = "perf")]
mod perf {
    use std::string::{String, ToString};
    use std::vec::Vec;

    use super::{ClockMeter, Measured, Meter, Metric, MetricKind, Source, Unit, WithSource, SCALE};
    use crate::error::BenchError;
    use picollo_perf::{Event, ReadPolicy, Session, SessionBuilder};

    /// A perf session's counters as a [`Source`], read as one group (rdpmc where the page
    /// allows).
    pub struct PerfCounters {
        session: Session,
    }

    impl PerfCounters {
        /// Open the counters for this thread (user space only, no calibration: the harness
        /// measures its own read overhead), read as `policy` says.
        pub fn open(events: &[Event], policy: ReadPolicy) -> Result<Self, BenchError> {
            let mut b = SessionBuilder::new()
                .with_kernel(false)
                .with_calibration(false)
                .with_read_policy(policy);
            for &e in events {
                b = b.with_counter(e);
            }
            Ok(PerfCounters { session: b.open()? })
        }
    }

    impl Source for PerfCounters {
        fn metrics(&self) -> Vec<Metric> {
            let counters = self.session.counters().iter();
            counters
                .map(|c| Metric {
                    name: c.name().to_string(),
                    unit: Unit::of(c.event()),
                    kind: MetricKind::of(c.event()),
                })
                .collect()
        }

        fn start(&mut self) -> Result<(), BenchError> {
            self.session.read(false)?;
            Ok(())
        }

        fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
            self.session.read(false)?;
            for (o, c) in out.iter_mut().zip(self.session.counters()) {
                let d = c.delta();
                *o = Measured {
                    value: d.scaled.saturating_mul(SCALE),
                    multiplexed: d.multiplexed(),
                    enabled: d.enabled,
                    running: d.running,
                };
            }
            Ok(())
        }

        fn raced(&self) -> bool {
            !self.session.exact()
        }
    }

    /// Time plus a perf session's counters: a clock meter (a [`ClockMeter`] unless built
    /// with [`PerfMeter::over`]) with [`PerfCounters`] beside it.
    pub struct PerfMeter<C = ClockMeter>(WithSource<C, PerfCounters>);

    impl PerfMeter {
        /// The counters of `events` for this thread, read as `policy` says, beside a
        /// [`ClockMeter`].
        pub fn open(events: &[Event], policy: ReadPolicy) -> Result<Self, BenchError> {
            PerfMeter::over(ClockMeter::new(), events, policy)
        }
    }

    impl<C: Meter> PerfMeter<C> {
        /// The counters of `events` for this thread, read as `policy` says, beside `clock`.
        pub fn over(clock: C, events: &[Event], policy: ReadPolicy) -> Result<Self, BenchError> {
            Ok(PerfMeter(clock.with(PerfCounters::open(events, policy)?)))
        }
    }

    impl<C: Meter> Meter for PerfMeter<C> {
        fn metrics(&self) -> Vec<Metric> {
            self.0.metrics()
        }

        fn start(&mut self) -> Result<(), BenchError> {
            self.0.start()
        }

        fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
            self.0.stop(out)
        }

        fn clock(&self) -> String {
            self.0.clock()
        }

        fn clock_step(&self) -> u64 {
            self.0.clock_step()
        }

        fn halt(&mut self) -> Result<(), BenchError> {
            self.0.halt()
        }

        fn counters_read(&self) -> Option<String> {
            Some(self.0.source.session.read_path_line())
        }

        fn raced(&self) -> bool {
            self.0.raced()
        }
    }
}
