//! Measuring: the plan of a run, the meters that read a batch, the engine that runs
//! interleaved rounds of slots, and the samples and rounds they fill.

pub(crate) mod conditions;
#[cfg(feature = "perf")]
pub mod counters;
pub mod engine;
pub(crate) mod meter;
pub mod offsets;
pub(crate) mod plan;
pub(crate) mod rounds;
pub(crate) mod run;
pub(crate) mod samples;
