//! Judging: the statistics read from histograms, the verdict of two results compared in
//! interleaved rounds, across runs apart or across builds, and the floors and jitter under
//! which a figure is judged at all.

pub(crate) mod apart;
pub mod baseline;
pub(crate) mod builds;
pub(crate) mod compare;
pub(crate) mod lookup;
pub mod probe;
pub mod saved;
pub mod sequential;
pub mod shift;
pub(crate) mod steady;
pub mod tails;
pub(crate) mod verdict;
