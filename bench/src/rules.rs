//! The harness's own rules by name, for tools that report or check what a run did (the CLI,
//! the C ABI, the tests): the batch and round plan's constants, one operation's share of a
//! batch ([`per_op`], [`net`]), a figure's resolution, the order and drift of a series of
//! rounds, the read jitter under which counts are judged exactly, the figures of runs apart
//! and of builds, and Student's t. A benchmark needs none of it: [`crate::Bench`], its
//! results and comparisons, the meters and the suite are the harness's API; the statistics
//! these rules rest on are [`crate::stats`].

pub use crate::judge::apart::{
    median_round, median_round_at, t_995, NOISE_FLOOR_BOUND, RUNS_APART_NEEDED,
};
pub use crate::judge::builds::{judge_build_times, BUILDS_NEEDED};
pub use crate::judge::steady::{jitter, JITTER_COUNTS, JITTER_RELATIVE};
pub use crate::measure::floor::{quartile_deviation, resolution};
pub use crate::measure::meter::time_index;
pub use crate::measure::plan::{MAX_BATCH, MAX_ROUNDS, ROUND_SECONDS, RUN_ROUNDS};
pub use crate::measure::rounds::{
    drift, drift_size, ordered, von_neumann, DRIFT_WARNED, ROUND_RANKS,
};
pub use crate::measure::run::{
    choose_batch, least_batch_time, net, per_op, read_overhead, WARMUP_STABLE,
};
