//! The time a [`crate::Bencher`] timed, and [`BencherClock`], the meter that hands it to
//! the suite runner.
//!
//! The runner reads its meter around a benchmark's whole work; a criterion benchmark's work
//! holds what must not be timed (its group's code that makes the inputs, a batched
//! routine's setup). So the Bencher reads the tick clock around the routine alone and adds
//! what it read to this thread's total, and the meter's reading of a batch is how much the
//! total grew: the routine's time, or the time an `iter_custom` routine reports.

use std::cell::Cell;
use std::time::Duration;

use picollo_bench::{BenchError, Measured, Meter, Metric, MetricKind, Unit, SCALE};
use picollo_perf::time::{
    convert_ticks, tick_frequency, tick_source, tick_step, ticks_begin, ticks_end,
};

thread_local! {
    /// The time the Benchers of this thread timed, in picoseconds (thousandths of a ns).
    static TIMED: Cell<u64> = const { Cell::new(0) };
    /// What the Benchers of this thread read with a measurement other than time, in
    /// thousandths of its unit.
    static MEASURED: Cell<u64> = const { Cell::new(0) };
}

/// Picoseconds a second: the meter's unit, `ns` in thousandths ([`SCALE`]).
const PER_SECOND: u64 = 1_000_000_000 * SCALE;

/// The tick a timed stretch starts at.
#[inline]
pub(crate) fn start() -> u64 {
    ticks_begin()
}

/// The ticks since `start` added to the thread's total.
#[inline]
pub(crate) fn add_since(start: u64) {
    let end = ticks_end();
    let ps = convert_ticks(end.wrapping_sub(start), tick_frequency(), PER_SECOND);
    TIMED.set(TIMED.get().saturating_add(ps));
}

/// `took`, timed by the routine itself, added to the thread's total.
pub(crate) fn add(took: Duration) {
    let ps = u64::try_from(took.as_nanos().saturating_mul(u128::from(SCALE)));
    TIMED.set(TIMED.get().saturating_add(ps.unwrap_or(u64::MAX)));
}

/// `value`, a custom measurement's figure (`to_f64`), added to the thread's total of it
/// (a negative or NaN figure adds nothing).
pub(crate) fn add_measured(value: f64) {
    let thousandths = (value * SCALE as f64).round();
    // (`as` saturates: NaN and negatives give 0, too large gives u64::MAX.)
    MEASURED.set(MEASURED.get().saturating_add(thousandths as u64));
}

/// A meter of time alone, whose reading of a batch is the time the Benchers timed in it.
/// `criterion_main!` gives it to the suite: the runner's own meters read the whole batch.
#[derive(Debug, Default)]
pub struct BencherClock {
    start: u64,
    /// The name of the custom measurement's counter, where the benches bring one.
    measured: Option<String>,
    measured_start: u64,
}

impl BencherClock {
    /// A meter; the first one measures the tick frequency (about 20 ms).
    pub fn new() -> Self {
        tick_frequency();
        BencherClock::default()
    }

    /// A meter of time and of a custom measurement's figures, as counter `name`.
    pub(crate) fn measuring(name: String) -> Self {
        BencherClock {
            measured: Some(name),
            ..BencherClock::new()
        }
    }
}

impl Meter for BencherClock {
    fn metrics(&self) -> Vec<Metric> {
        let measured = self.measured.iter();
        let measured = measured.map(|name| Metric::new(name, Unit::Events, MetricKind::Counter));
        std::iter::once(Metric::time()).chain(measured).collect()
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.start = TIMED.get();
        self.measured_start = MEASURED.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        if TIMED.get() == self.start {
            // Nothing timed: the runner is reading its read overhead with empty batches. A
            // Bencher's own pair of tick reads is that overhead here (each batch holds one
            // around its routine), so an empty batch reads one such pair: the runner then
            // takes it off every batch and sizes its batches to 100 times it.
            add_since(start());
        }
        out[0] = Measured {
            value: TIMED.get().wrapping_sub(self.start),
            ..Measured::default()
        };
        if let Some(out) = out.get_mut(1) {
            *out = Measured {
                value: MEASURED.get().wrapping_sub(self.measured_start),
                ..Measured::default()
            };
        }
        Ok(())
    }

    fn clock(&self) -> String {
        let ghz = tick_frequency() as f64 / 1e9;
        format!(
            "{:?} at {ghz:.3} GHz (resolution {:.3} ns, steps of {} ticks), read by criterion's \
             Bencher around its routine",
            tick_source(),
            tick_step() as f64 / ghz,
            tick_step()
        )
    }

    fn clock_step(&self) -> u64 {
        convert_ticks(tick_step(), tick_frequency(), PER_SECOND)
    }
}
