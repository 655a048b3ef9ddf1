//! [`Criterion`]: the settings a group's targets get, and the benchmarks they register.
//!
//! Picollo's runner chooses the settings criterion lets a bench set in code: the time a
//! benchmark's samples take and its warm-up are one per run (`--budget`, `--warmup`, which
//! criterion's `--measurement-time` and `--warm-up-time` become), the sample count and batch
//! sizes follow from the budget, and a verdict is judged by its own test (interleaved rounds
//! against another build, or runs apart against a saved baseline) at `--threshold`. So the
//! builders below are accepted, so that a bench compiles unchanged, and change nothing.

use std::time::Duration;

use crate::measurement::{Measurement, WallTime};
use crate::profiler::Profiler;
use crate::{Bencher, BenchmarkGroup, BenchmarkId};

/// The harness a criterion target registers its benchmarks with, and the measurement its
/// Benchers read ([`WallTime`] by default).
pub struct Criterion<M: Measurement = WallTime> {
    pub(crate) measurement: M,
}

impl Default for Criterion {
    fn default() -> Self {
        Criterion {
            measurement: WallTime,
        }
    }
}

impl<M: Measurement> Criterion<M> {
    run_settings! {
        by_value
        /// Accepted, ignored: the reports choose their own colors.
        with_output_color(bool);
    }

    /// Accepted, ignored: Picollo writes its own HTML page.
    #[must_use]
    pub fn with_plots(self) -> Self {
        self
    }

    /// Accepted, ignored: Picollo writes its own HTML page.
    #[must_use]
    pub fn without_plots(self) -> Self {
        self
    }

    /// Accepted, ignored: `criterion_main!` hands the whole command line to the runner,
    /// criterion's flags translated ([`crate::args`]).
    #[must_use]
    pub fn configure_from_args(self) -> Self {
        self
    }

    /// Accepted, ignored: the summary is the runner's.
    pub fn final_summary(&self) {}

    /// The benchmarks registered after this read `measurement` around their routines,
    /// beside the time (its figures are a counter of the suite: [`crate::measurement`]).
    pub fn with_measurement<M2: Measurement>(self, measurement: M2) -> Criterion<M2> {
        Criterion { measurement }
    }

    /// Accepted, ignored: Picollo's runner has no profiling mode, so the profiler is never
    /// started ([`crate::profiler`]).
    #[must_use]
    pub fn with_profiler<P: Profiler + 'static>(self, profiler: P) -> Self {
        drop(profiler);
        self
    }

    /// Accepted, ignored: Picollo's runner has no profiling mode (`--profile-time` is
    /// refused with the replacement, [`crate::args`]).
    #[must_use]
    pub fn profile_time(self, profile_time: Option<Duration>) -> Self {
        let _ = profile_time;
        self
    }

    /// Register `f` as benchmark `id`.
    pub fn bench_function<F>(&mut self, id: &str, f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.benchmark_group(id)
            .bench_function(BenchmarkId::no_function(), f);
        self
    }

    /// Register `f` with `input` as benchmark `function/parameter` of `id`
    /// (`BenchmarkId::new`; criterion refuses `from_parameter` here, and so does this).
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let Some(function) = id.function.clone() else {
            let why = "Criterion::bench_with_input needs a BenchmarkId::new(function, parameter): a parameter alone belongs in a benchmark_group";
            crate::registry::refuse(why.into());
            return self;
        };
        let parameter = BenchmarkId::from_parameter(id.parameter.unwrap_or_default());
        self.benchmark_group(function)
            .bench_with_input(parameter, input, f);
        self
    }

    /// A group of benchmarks named `group/…`.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        let name = group_name.into();
        if name.is_empty() {
            crate::registry::refuse("a benchmark group's name is empty: name it".into());
        }
        BenchmarkGroup::new(self, name)
    }
}

impl BenchmarkId {
    /// A benchmark named by its group alone (`bench_function("name")`).
    pub(crate) fn no_function() -> BenchmarkId {
        BenchmarkId {
            function: None,
            parameter: None,
        }
    }
}

/// How criterion spaces the iteration counts of its samples: accepted and ignored, the
/// runner chooses its batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SamplingMode {
    /// criterion's choice.
    #[default]
    Auto,
    /// Counts growing linearly.
    Linear,
    /// One count for every sample.
    Flat,
}

/// The scale of criterion's summary plots: accepted and ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxisScale {
    /// A linear axis.
    #[default]
    Linear,
    /// A logarithmic axis.
    Logarithmic,
}

/// criterion's plot settings: accepted and ignored (Picollo writes its own page).
#[derive(Clone, Debug, Default)]
pub struct PlotConfiguration {
    summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Accepted, ignored.
    #[must_use]
    pub fn summary_scale(mut self, scale: AxisScale) -> Self {
        self.summary_scale = scale;
        self
    }
}
