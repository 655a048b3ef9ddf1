//! What a benchmark measures: wall time alone ([`WallTime`]), read by the
//! [`crate::Bencher`] around its routine. criterion lets a crate bring its own measurement;
//! Picollo's suites read their counters through the runner's meters instead (`--counters`
//! of a `picollo_bench` suite), so the trait is sealed.

use std::time::Duration;

mod private {
    pub trait Sealed {}
}

/// A kind of measurement: [`WallTime`] is the one there is.
pub trait Measurement: private::Sealed {
    /// What a routine timed by itself reports (`Bencher::iter_custom`).
    type Value;
}

/// Time on the wall clock (the CPU's tick clock where the build has it).
#[derive(Clone, Copy, Debug, Default)]
pub struct WallTime;

impl private::Sealed for WallTime {}

impl Measurement for WallTime {
    type Value = Duration;
}
