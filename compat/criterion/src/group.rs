//! [`BenchmarkGroup`]: benchmarks named `group/function/parameter`, with their throughput.

use std::time::Duration;

use crate::measurement::Measurement;
use crate::registry::{self, Action};
use crate::{Bencher, Criterion, IntoBenchmarkId, PlotConfiguration, SamplingMode, Throughput};

/// Benchmarks that share a name's first part and the throughput last declared.
pub struct BenchmarkGroup<'a, M: Measurement> {
    criterion: &'a mut Criterion<M>,
    name: String,
    throughput: Option<Throughput>,
}

impl<'a, M: Measurement> BenchmarkGroup<'a, M> {
    pub(crate) fn new(criterion: &'a mut Criterion<M>, name: String) -> Self {
        BenchmarkGroup {
            criterion,
            name,
            throughput: None,
        }
    }

    run_settings! {
        by_ref
        /// Accepted, ignored: the runner chooses its batches.
        sampling_mode(SamplingMode);
        /// Accepted, ignored: Picollo writes its own HTML page.
        plot_config(PlotConfiguration);
    }

    /// The work one iteration of the benchmarks registered after this does.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Register `f` as benchmark `group/id`.
    pub fn bench_function<ID, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        ID: IntoBenchmarkId,
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.run(id, |b| f(b))
    }

    /// Register `f` with `input` as benchmark `group/id`.
    pub fn bench_with_input<ID, F, I>(&mut self, id: ID, input: &I, mut f: F) -> &mut Self
    where
        ID: IntoBenchmarkId,
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        self.run(id, |b| f(b, input))
    }

    /// The group ends (nothing to do: the runner reports).
    pub fn finish(self) {}

    /// Register benchmark `group/id`, and run `f` where the registry says it runs now.
    fn run(&mut self, id: impl IntoBenchmarkId, f: impl FnOnce(&mut Bencher<'_, M>)) -> &mut Self {
        let name = id.into_benchmark_id().under(&self.name);
        let measurement = &self.criterion.measurement;
        let counter = crate::measurement::counter_name(measurement);
        if let Action::Run(iters) = registry::register(name, self.throughput, counter) {
            let mut bencher = Bencher::new(iters, measurement);
            f(&mut bencher);
            assert!(
                bencher.timed(),
                "a benchmark's closure must call Bencher::iter or one of its kin"
            );
            registry::ran();
        }
        self
    }
}
