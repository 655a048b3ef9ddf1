//! Measuring: the plan of a run, the meters that read a batch, the engine that runs
//! interleaved rounds of turns and the draws that order them, the samples and rounds they
//! fill, and the result they make (its rows, its floors at 0, its rates).

pub(crate) mod conditions;
#[cfg(feature = "perf")]
pub mod counters;
pub mod draws;
pub mod engine;
pub(crate) mod floor;
pub(crate) mod manual;
pub(crate) mod meter;
pub mod offsets;
pub(crate) mod pause;
pub(crate) mod plan;
pub(crate) mod result;
pub(crate) mod rounds;
pub(crate) mod rows;
pub(crate) mod run;
pub(crate) mod samples;
pub(crate) mod throughput;
