//! The Picollo benchmark harness: measure a function in one call and get the distribution
//! of its time, and of every counter, per operation (Linux; counters with feature `perf`,
//! on by default); compare two in interleaved rounds. It stands on the `picollo` crate's
//! public API: histograms and their formats, the clocks, the perf_event layer.
//!
//! ```no_run
//! use picollo_bench::{black_box, Bench};
//! let result = Bench::new("sum")
//!     .run(|| {
//!         black_box((0..100u64).map(black_box).sum::<u64>());
//!     })
//!     .unwrap();
//! println!("{result}"); // conditions, a table of every metric, tail attribution
//! ```
//!
//! A run measures the cost of a read pair (its median over empty pairs, subtracted from
//! every batch), picks the batch size `k` (the smallest whose read-pair overhead is ≤ 1 %
//! of a batch, or the one given; `k = 1` records every call), warms up until the median of
//! consecutive windows of batches moves less than 2 % (or the warm-up budget is spent),
//! then records each batch's figures divided by `k` into one histogram per metric. Every
//! figure is kept in thousandths of its unit (picoseconds for time); a figure the subtraction
//! floors at 0, and a median within the resolution of the read pair or the baseline, flag
//! their metric ([`MetricResult::flagged`]). The samples fall into
//! rounds of time; [`Bench::compare_fns`] runs two functions in interleaved rounds, and
//! [`compare`] tells whether two results differ, round against round, with a 99 % interval
//! of the change, of each percentile's difference, and a noise floor; [`compare_on`] judges
//! another metric than time (a count whose figures agree within its read jitter exactly:
//! [`rules::jitter`]).
#![cfg(target_os = "linux")]

mod calendar;
mod error;
pub mod export;
pub mod flags;
pub mod history;
pub mod html;
mod judge;
mod measure;
pub mod model;
pub mod rules;
pub mod stats;
pub mod suite;
mod tell;

pub use judge::{baseline, probe, saved, sequential, shift, tails};
#[cfg(feature = "perf")]
pub use measure::counters;
pub use measure::{draws, engine, offsets};

use std::string::String;
use std::time::Duration;
use std::vec::Vec;

pub use error::{BenchError, BenchErrorKind};
pub use judge::apart::{judge_apart, judge_apart_builds};
pub use judge::builds::judge_builds;
pub use judge::compare::{compare, compare_on};
pub use judge::lookup::find_metric;
pub use judge::verdict::{
    Apart, Builds, Comparison, Interleaved, Steady, Verdict, DEFAULT_THRESHOLD,
};
pub use measure::conditions::Conditions;
pub use measure::conditions::WarmUp;
pub use measure::manual::{add_manual_time, ManualTime};
pub use measure::meter::{
    ClockMeter, Measured, Meter, Metric, MetricKind, Source, Unit, WithSource, SCALE,
};
#[cfg(feature = "perf")]
pub use measure::meter::{PerfCounters, PerfMeter};
pub use measure::pause::{pause, paused, resume, Paused};
pub use measure::result::{BenchResult, MetricResult};
pub use measure::rounds::Round;
pub use measure::throughput::{Rate, Throughput, Work, THROUGHPUT_UNITS};
pub use tell::attribution::{Attribution, Band};

use measure::floor::quartile_deviation;
use measure::plan::{BaselineMetric, Plan};

/// A `main` that runs a suite ([`suite::Suite`]) of the benchmarks each function given
/// registers (`fn(&mut Suite)`), named after the bench target, with cargo's convention:
/// `cargo bench` measures, `cargo test --benches` runs each once.
#[macro_export]
macro_rules! main {
    ($($register:path),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let mut suite = $crate::suite::Suite::new(env!("CARGO_CRATE_NAME"));
            $($register(&mut suite);)+
            suite.main()
        }
    };
}

/// Keeps the compiler from optimizing away a value or the work that made it.
#[inline]
pub fn black_box<T>(x: T) -> T {
    core::hint::black_box(x)
}

/// Builder methods that each set one field: `fn with_x(x: T) => field = value;`.
macro_rules! setters {
    ($($(#[$doc:meta])* fn $name:ident($arg:ident: $ty:ty) => $field:ident = $value:expr;)+) => {$(
        $(#[$doc])*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.plan.$field = $value;
            self
        }
    )+};
}

/// `op` as work that runs `k` operations a call.
fn batched(op: &mut impl FnMut()) -> impl FnMut(u64) + '_ {
    move |k| {
        for _ in 0..k {
            op();
        }
    }
}

impl BenchResult {
    /// A result from figures measured elsewhere (each run of a command, say): `rows` holds
    /// each sample's figures in `metrics` order, in thousandths of each unit (time first,
    /// in picoseconds); `clock` and `warm_up` say how they were taken. Refused when `rows`
    /// is empty or not a whole number of samples. The report calls each sample a `run`,
    /// and each run is a round of its own (with no time: set `rounds` and `pairing` where
    /// the runs were interleaved with another command's). With a baseline
    /// ([`Bench::with_baseline`]: a shell's start, say), its medians are subtracted from
    /// every figure as a run subtracts them: floored at 0, each floor counted, its spread
    /// the resolution, so that figures the subtraction emptied are flagged
    /// ([`MetricResult::flagged`]). No note of an unoptimized build: the harness's own build
    /// says nothing of code measured elsewhere.
    pub fn from_rows(
        bench: &Bench,
        metrics: Vec<Metric>,
        rows: Vec<u64>,
        clock: String,
        warm_up: WarmUp,
    ) -> Result<Self, BenchError> {
        // Measured elsewhere: this build says nothing of the code that ran.
        let plan = Plan {
            unoptimized: None,
            ..bench.plan.clone()
        };
        BenchResult::from_plan_rows(plan, metrics, rows, clock, warm_up)
    }
}

/// A benchmark's settings: build with [`Bench::new`] and the `with_` methods, then
/// [`Bench::run`].
#[derive(Clone, Debug)]
pub struct Bench {
    /// The settings as set: checked when a measurement starts.
    plan: Plan,
}

/// The most samples a run takes unless set: enough that the time budget, not the count,
/// ends a run of any operation the harness can time (a batch is at least 100 read pairs),
/// so that its rounds spread over the budget and see the machine change.
pub const DEFAULT_SAMPLES: usize = 1_000_000;
/// In a build with debug assertions (cargo's dev profile: `cargo run` without
/// `--release`), why its code is unoptimized; `None` in a release build.
pub const RUST_UNOPTIMIZED: Option<&str> = match cfg!(debug_assertions) {
    true => Some("a Rust build with debug assertions, cargo's dev profile: run it with --release"),
    false => None,
};

impl Bench {
    /// Defaults: the default counters, up to 1 s of warm-up, samples for 5 s (at most
    /// [`DEFAULT_SAMPLES`]), an automatic batch, no pinning, relative error 0.01 % (exact
    /// below 16.384 units, so a figure of a few nanoseconds shows its three decimals as
    /// measured).
    pub fn new(name: &str) -> Self {
        let plan = Plan {
            name: name.into(),
            #[cfg(feature = "perf")]
            counters: None,
            #[cfg(feature = "perf")]
            read_path: picollo_perf::ReadPolicy::Auto,
            warmup: Duration::from_secs(1),
            samples: DEFAULT_SAMPLES,
            budget: Duration::from_secs(5),
            batch: None,
            pin: None,
            nice: None,
            relative_error: 0.0001,
            baseline: None,
            rounds: None,
            threshold: DEFAULT_THRESHOLD,
            seed: None,
            random_offsets: true,
            unoptimized: RUST_UNOPTIMIZED.map(Into::into),
        };
        Bench { plan }
    }

    /// The counters to read beside time (an empty list: time only). Without this, cycles,
    /// instructions, branch misses and L1D read misses where the PMU allows them, otherwise
    /// task-clock, page faults and context switches.
    #[cfg(feature = "perf")]
    pub fn with_counters(mut self, events: &[picollo_perf::Event]) -> Self {
        self.plan.counters = Some(events.to_vec());
        self
    }

    /// How the counters are read: the cheaper of the user-space read and `read(2)`, both
    /// timed when the counters open ([`ReadPolicy::Auto`], the default), or the one forced.
    /// The report's PMU line says which was taken and why.
    ///
    /// [`ReadPolicy::Auto`]: picollo_perf::ReadPolicy::Auto
    #[cfg(feature = "perf")]
    pub fn with_read_path(mut self, policy: picollo_perf::ReadPolicy) -> Self {
        self.plan.read_path = policy;
        self
    }

    setters! {
        /// The most time the warm-up may take.
        fn with_warmup(budget: Duration) => warmup = budget;
        /// How many samples (batches) to record at most.
        fn with_samples(samples: usize) => samples = samples;
        /// The most time the samples may take (at least one sample is taken).
        fn with_time_budget(budget: Duration) => budget = budget;
        /// Operations per sample; 1 records every call. Without this, the batch is chosen.
        fn with_batch(k: u64) => batch = Some(k);
        /// Run on this CPU (the calling thread stays pinned after the run).
        fn with_pinned_cpu(cpu: usize) => pin = Some(cpu);
        /// Run at this nice value, -20 to 19 (the calling thread keeps it after the run).
        fn with_nice(nice: i32) => nice = Some(nice);
        /// How many rounds to cut the samples into: a run's (default
        /// [`rules::RUN_ROUNDS`]), or an interleaved comparison's, each round running both
        /// sides back to back (default one round per [`rules::ROUND_SECONDS`] of the time
        /// budget, 10 to 100). Comparisons judge round against round.
        fn with_rounds(rounds: usize) => rounds = Some(rounds);
        /// The change in percent below which a comparison against this result calls a
        /// significant difference `within noise` rather than faster or slower (default
        /// [`DEFAULT_THRESHOLD`]; 0 turns it off).
        fn with_threshold(percent: f64) => threshold = percent;
        /// The seed of the order in which each interleaved round runs its two sides
        /// (default: the clock's ticks).
        fn with_seed(seed: u64) => seed = Some(seed);
        /// The histograms' relative error (as [`picollo::Config::with_relative_error`]).
        fn with_relative_error(relative_error: f64) => relative_error = relative_error;
        /// Whether each turn of an interleaved comparison runs at a random stack depth and
        /// with a random heap block held ([`offsets`]; default on): `false` keeps one
        /// placement for the whole comparison.
        fn with_random_offsets(on: bool) => random_offsets = on;
    }

    /// Why the measured code is known to be unoptimized (`None`: optimized, or nothing
    /// says otherwise): every result then warns that its figures are not an optimized
    /// build's, in the report, the JSON and each comparison. By default
    /// [`RUST_UNOPTIMIZED`]: cargo builds the harness with the caller's profile. The C ABI
    /// and the bindings set what they know of their caller instead.
    pub fn with_unoptimized(mut self, why: Option<&str>) -> Self {
        self.plan.unoptimized = why.map(Into::into);
        self
    }

    /// Subtract `baseline`'s median per operation from every figure of the metric of the
    /// same name: the cost of what the measurement cannot avoid but the caller does not
    /// want (a language binding's call of an empty function; a shell's start, for figures
    /// made with [`BenchResult::from_rows`]), floored at 0; each figure floored is counted,
    /// and the baseline's spread bounds the resolution ([`MetricResult::flagged`]).
    pub fn with_baseline(mut self, baseline: &BenchResult) -> Self {
        let figures = baseline.metrics.iter().enumerate().map(|(i, m)| {
            // The median sample itself: a histogram's bucket would shift every figure by a
            // fraction, and a whole count would no longer be one.
            let median = baseline.sample_at(i, 50.0).unwrap_or(0);
            let spread = quartile_deviation(&mut baseline.figures(i).collect::<Vec<u64>>());
            BaselineMetric {
                name: m.metric.name.clone(),
                median,
                spread,
            }
        });
        self.plan.baseline = Some((baseline.name.clone(), figures.collect()));
        self
    }

    /// The name the report shows.
    pub fn name(&self) -> &str {
        &self.plan.name
    }

    /// Measure `op`, one operation per call.
    pub fn run(&self, mut op: impl FnMut()) -> Result<BenchResult, BenchError> {
        self.run_batched(batched(&mut op))
    }

    /// Measure `work(k)`, which runs `k` operations (the C ABI's callback form).
    pub fn run_batched(&self, work: impl FnMut(u64)) -> Result<BenchResult, BenchError> {
        let plan = self.plan()?;
        plan.apply_placement()?;
        let (mut meter, warnings) = measure::conditions::default_meter(&plan)?;
        let mut r = measure::run::run(&plan, &mut *meter, work)?;
        r.conditions.warnings.splice(0..0, warnings);
        Ok(r)
    }

    /// Measure `work(k)` with any meter (a simulated one in tests).
    pub fn run_with<M: Meter + ?Sized>(
        &self,
        meter: &mut M,
        work: impl FnMut(u64),
    ) -> Result<BenchResult, BenchError> {
        measure::run::run(&self.plan()?, meter, work)
    }

    /// Compare `a` with `b`, one operation a call each, interleaved: after both warm up,
    /// every round runs both back to back in a random order, each for its share of the
    /// samples and of the time budget; [`compare`] of the two results judges the rounds'
    /// paired differences.
    pub fn compare_fns(
        &self,
        (name_a, mut a): (&str, impl FnMut()),
        (name_b, mut b): (&str, impl FnMut()),
    ) -> Result<Interleaved, BenchError> {
        self.compare_batched((name_a, batched(&mut a)), (name_b, batched(&mut b)))
    }

    /// [`Bench::compare_fns`] of `work(k)`, which runs `k` operations (the C ABI's form).
    pub fn compare_batched(
        &self,
        a: (&str, impl FnMut(u64)),
        b: (&str, impl FnMut(u64)),
    ) -> Result<Interleaved, BenchError> {
        let plan = self.plan()?;
        plan.apply_placement()?;
        let (mut meter, warnings) = measure::conditions::default_meter(&plan)?;
        let (a, b) = measure::run::interleave(&plan, &mut *meter, a, b)?;
        let mut pair = Interleaved::new(a, b);
        for r in [&mut pair.a, &mut pair.b] {
            r.conditions.warnings.splice(0..0, warnings.iter().cloned());
        }
        Ok(pair)
    }

    /// [`Bench::compare_batched`] with any meter (a simulated one in tests).
    pub fn compare_with<M: Meter + ?Sized>(
        &self,
        meter: &mut M,
        a: (&str, impl FnMut(u64)),
        b: (&str, impl FnMut(u64)),
    ) -> Result<Interleaved, BenchError> {
        let (a, b) = measure::run::interleave(&self.plan()?, meter, a, b)?;
        Ok(Interleaved::new(a, b))
    }

    /// The settings checked: the plan a measurement follows.
    fn plan(&self) -> Result<Plan, BenchError> {
        self.plan.check()?;
        Ok(self.plan.clone())
    }
}
