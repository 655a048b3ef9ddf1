//! A benchmark's own time (Google Benchmark's `UseManualTime`): its work tells the time of
//! what it timed itself, [`add_manual_time`], on the thread that runs the batch, and
//! [`ManualTime`] reads their sum over the batch in place of a clock (a GPU's kernel time, a
//! remote call's own report). The runner divides it by the batch's operations as any time.

use core::cell::Cell;
use std::string::String;
use std::vec;
use std::vec::Vec;

use super::meter::{Measured, Meter, Metric, MetricKind, Unit, SCALE};
use crate::BenchError;

thread_local! {
    /// The nanoseconds the work on this thread told since its batch started.
    static TOLD: Cell<f64> = const { Cell::new(0.0) };
}

/// Adds `seconds` to the time of the batch running on this thread, which a benchmark of
/// manual time reports (`Suite::set_manual_time`); outside such a batch it is dropped when
/// the next starts. An error for a negative or non-finite time.
pub fn add_manual_time(seconds: f64) -> Result<(), String> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(std::format!(
            "manual time {seconds} s: not a finite time of 0 or more"
        ));
    }
    TOLD.with(|t| t.set(t.get() + seconds * 1e9));
    Ok(())
}

/// A meter of the time the work tells ([`add_manual_time`]): time alone, no clock read.
#[derive(Clone, Copy, Debug, Default)]
pub struct ManualTime;

impl Meter for ManualTime {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("time", Unit::Nanoseconds, MetricKind::Time)]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        TOLD.with(|t| t.set(0.0));
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        // Rounded to the meter's thousandths of a nanosecond.
        let ns = TOLD.with(|t| t.replace(0.0));
        out[0] = Measured {
            value: (ns * SCALE as f64).round() as u64,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "manual (the time the benchmark told)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_reads_the_time_told_since_its_start_and_refuses_a_bad_one() {
        let mut m = ManualTime;
        add_manual_time(1.0).unwrap(); // before the batch: dropped
        m.start().unwrap();
        add_manual_time(2.5e-9).unwrap();
        add_manual_time(0.5e-9).unwrap();
        let mut out = [Measured::default()];
        m.stop(&mut out).unwrap();
        assert_eq!(out[0].value, 3 * SCALE);
        for bad in [-1e-9, f64::NAN, f64::INFINITY] {
            assert!(add_manual_time(bad)
                .unwrap_err()
                .contains("not a finite time"));
        }
    }
}
