//! A benchmark's settings, once: [`crate::Bench`]'s `with_` methods set the fields of its
//! [`Plan`]; a measurement checks the plan ([`Plan::check`]) and hands a copy to the
//! measuring loop, its samples, its conditions and its result, which read the plan alone.
//! What the settings leave open, the plan's methods resolve (the rounds).

use std::string::String;
use std::time::Duration;
use std::vec::Vec;

use super::meter::Metric;
use crate::error::BenchError;

/// The largest batch the automatic choice picks.
pub const MAX_BATCH: u64 = 1 << 24;
/// The rounds a run's samples are cut into unless set: enough for a 99 % verdict against
/// another run's (5 a side), with room for rounds lost to a slow operation.
pub const RUN_ROUNDS: usize = 10;
/// The most rounds a setting may ask for.
pub const MAX_ROUNDS: usize = 1_000_000;
/// An interleaved comparison without a set count of rounds runs one round per this many
/// seconds of its time budget, 10 to 100.
pub const ROUND_SECONDS: f64 = 0.1;

/// A baseline's figures of one metric, per operation in thousandths of the unit.
#[derive(Clone, Debug)]
pub(crate) struct BaselineMetric {
    /// The metric's name: the figures go to the metric of that name.
    pub name: String,
    /// The median, subtracted from every figure.
    pub median: u64,
    /// The quartile deviation, which bounds the resolution.
    pub spread: u64,
}

/// What one measurement does, every setting checked and every open one resolved.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The name the result carries.
    pub name: String,
    /// The counters asked for (`None`: the default set).
    #[cfg(feature = "perf")]
    pub counters: Option<Vec<picollo_perf::Event>>,
    /// How the counters are read (the cheaper path by default).
    #[cfg(feature = "perf")]
    pub read_path: picollo_perf::ReadPolicy,
    /// The most time the warm-up may take.
    pub warmup: Duration,
    /// The most samples.
    pub samples: usize,
    /// The most time the samples may take.
    pub budget: Duration,
    /// The batch asked for (`None`: chosen by the run, the larger of the two sides' in a
    /// comparison).
    pub batch: Option<u64>,
    /// The CPU to run on.
    pub pin: Option<usize>,
    /// The nice value to run at.
    pub nice: Option<i32>,
    /// The histograms' relative error.
    pub relative_error: f64,
    /// The baseline's name and its figures per metric.
    pub baseline: Option<(String, Vec<BaselineMetric>)>,
    /// The rounds asked for (`None`: [`Plan::run_rounds`] and [`Plan::comparison_rounds`]
    /// choose).
    pub rounds: Option<usize>,
    /// The threshold of a comparison, in percent.
    pub threshold: f64,
    /// The seed of an interleaved comparison's order (`None`: the clock's ticks).
    pub seed: Option<u64>,
    /// Each turn of an interleaved comparison runs at random offsets.
    pub random_offsets: bool,
    /// Why the measured code is known to be unoptimized.
    pub unoptimized: Option<String>,
}

impl Plan {
    /// The settings checked: a measurement starts only from a plan that passes.
    pub fn check(&self) -> Result<(), BenchError> {
        if self.samples == 0 {
            return Err(BenchError::invalid("samples must be at least 1"));
        }
        if self.rounds.is_some_and(|r| r == 0 || r > MAX_ROUNDS) {
            return Err(BenchError::invalid("rounds must be 1 to 1,000,000"));
        }
        if !(self.threshold.is_finite() && self.threshold >= 0.0) {
            return Err(BenchError::invalid(
                "threshold must be a finite percentage, 0 or more",
            ));
        }
        if self.batch == Some(0) || self.batch.is_some_and(|k| k > MAX_BATCH) {
            return Err(BenchError::invalid("batch must be 1 to 2^24"));
        }
        if self.nice.is_some_and(|n| !(-20..=19).contains(&n)) {
            return Err(BenchError::invalid("nice must be -20 to 19"));
        }
        picollo::Config::new()
            .with_relative_error(self.relative_error)
            .build::<u64>()?;
        Ok(())
    }

    /// The rounds a run's samples are cut into: those asked for, else [`RUN_ROUNDS`].
    pub fn run_rounds(&self) -> usize {
        self.rounds.unwrap_or(RUN_ROUNDS)
    }

    /// The rounds of an interleaved comparison: those asked for, else one per
    /// [`ROUND_SECONDS`] of the time budget, 10 to 100.
    pub fn comparison_rounds(&self) -> usize {
        let by_budget = (self.budget.as_secs_f64() / ROUND_SECONDS).round() as usize;
        self.rounds.unwrap_or(by_budget.clamp(10, 100))
    }

    /// What each turn of an interleaved comparison of `rounds` rounds of `turns` turns
    /// each runs at most: its share of the samples, and of the time budget (the budget is
    /// the comparison's whole, every participant's turns together).
    pub fn slot_share(&self, rounds: usize, turns: usize) -> (usize, Duration) {
        (
            self.samples.div_ceil(rounds),
            self.budget / (rounds * turns.max(1)) as u32,
        )
    }

    /// The batch both sides of an interleaved comparison run, once each side chose its
    /// own (`a`, `b`): the one they share (the one set, or one a benchmark fixes on both
    /// sides), else the one set, else the larger. Whatever of a batch's time or count is
    /// not linear in its size (a call into the work, a loop's setup) then weighs the same on
    /// both, where two sizes would part an A/A by it.
    pub fn common_batch(&self, a: u64, b: u64) -> u64 {
        match a == b {
            true => a,
            false => self.batch.unwrap_or(a.max(b)),
        }
    }

    /// The same plan under another name.
    pub fn named(&self, name: &str) -> Self {
        Plan {
            name: name.into(),
            ..self.clone()
        }
    }

    /// Per metric, the baseline's median to subtract (0 without one).
    pub fn baseline_of(&self, metrics: &[Metric]) -> Vec<u64> {
        self.baseline_column(metrics, |b| b.median)
    }

    /// Per metric, the quartile deviation of the baseline's figures (0 without one).
    pub fn baseline_spreads(&self, metrics: &[Metric]) -> Vec<u64> {
        self.baseline_column(metrics, |b| b.spread)
    }

    /// Per metric, `pick` of the baseline's figures for it (0 without them).
    fn baseline_column(&self, metrics: &[Metric], pick: fn(&BaselineMetric) -> u64) -> Vec<u64> {
        let find = |name: &str| {
            let (_, figures) = self.baseline.as_ref()?;
            figures.iter().find(|f| f.name == name).map(pick)
        };
        metrics.iter().map(|m| find(&m.name).unwrap_or(0)).collect()
    }

    /// Pin the calling thread and set its nice value, as the plan says.
    pub fn apply_placement(&self) -> Result<(), BenchError> {
        if let Some(cpu) = self.pin {
            picollo_perf::time::pin_current_thread(cpu).map_err(BenchError::os("pin to a CPU"))?;
        }
        if let Some(nice) = self.nice {
            picollo_perf::time::set_current_thread_nice(nice)
                .map_err(BenchError::os("set nice"))?;
        }
        Ok(())
    }
}
