//! criterion's API on Picollo's suite runner. A crate whose benches use criterion 0.5 runs
//! them under Picollo by changing one line of its Cargo.toml:
//!
//! ```toml
//! criterion = { package = "picollo-criterion", path = "…" }
//! ```
//!
//! and no line of its benches. Each `group/function/parameter` becomes one benchmark of a
//! [`picollo_bench::suite::Suite`] named as criterion names it, with its throughput;
//! [`criterion_main!`] runs that suite with the command line, so every flag of a suite works
//! (`--list`, `--test`, `--against`, `--shard`, `--save`, the exports), and criterion's own
//! flags are translated ([`args`]).
//!
//! The [`Bencher`] times its routine itself, as criterion's does, so that a batch's setup
//! and the code around a benchmark stay out of its time: the suite measures with
//! [`BencherClock`], which reads what the Bencher timed. `Bencher::to_async` times
//! futures the same way ([`AsyncBencher`], on an [`AsyncExecutor`]), and a measurement of
//! the bench's own ([`measurement::Measurement`]) is read beside the time, as a counter.
//!
//! ```no_run
//! use criterion::{black_box, criterion_group, criterion_main, Criterion};
//! # extern crate picollo_criterion as criterion;
//!
//! fn sums(c: &mut Criterion) {
//!     let values: Vec<u64> = (0..1000).collect();
//!     c.bench_function("sum 1000", |b| b.iter(|| black_box(&values).iter().sum::<u64>()));
//! }
//!
//! criterion_group!(benches, sums);
//! criterion_main!(benches);
//! ```

/// Builders accepted and ignored, as Picollo's runner chooses what they set ([`Criterion`]'s
/// docs): `by_value` writes [`Criterion`]'s (`self` in, `Self` out), `by_ref` a group's.
macro_rules! ignored {
    (by_value $($(#[$doc:meta])* $name:ident($arg:ty);)+) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(self, _: $arg) -> Self {
                self
            }
        )+
    };
    (by_ref $($(#[$doc:meta])* $name:ident($arg:ty);)+) => {
        $(
            $(#[$doc])*
            pub fn $name(&mut self, _: $arg) -> &mut Self {
                self
            }
        )+
    };
}

/// The settings both [`Criterion`] and a [`BenchmarkGroup`] take, ignored (`$how` as for
/// `ignored!`), then `$more` of the caller's own.
macro_rules! run_settings {
    ($how:ident $($more:tt)*) => {
        ignored! {
            $how
            /// Accepted, ignored: the sample count follows from `--budget`.
            sample_size(usize);
            /// Accepted, ignored: `--warmup SECS` sets the warm-up of a run.
            warm_up_time(Duration);
            /// Accepted, ignored: `--budget SECS` sets the time of a run's benchmarks.
            measurement_time(Duration);
            /// Accepted, ignored: Picollo's verdicts do not resample.
            nresamples(usize);
            /// Accepted, ignored: `--threshold PERCENT` sets it for a run.
            noise_threshold(f64);
            /// Accepted, ignored: verdicts are judged at 99 %.
            confidence_level(f64);
            /// Accepted, ignored: verdicts are judged at 99 %.
            significance_level(f64);
            $($more)*
        }
    };
}

pub mod args;
mod async_bencher;
pub mod async_executor;
mod bencher;
mod clock;
mod config;
mod group;
mod id;
pub mod measurement;
pub mod profiler;
mod registry;
mod run;

pub use async_bencher::AsyncBencher;
pub use async_executor::AsyncExecutor;
pub use bencher::{BatchSize, Bencher};
pub use clock::BencherClock;
pub use config::{AxisScale, Criterion, PlotConfiguration, SamplingMode};
pub use group::BenchmarkGroup;
pub use id::{BenchmarkId, IntoBenchmarkId, Throughput};
pub use std::hint::black_box;

#[doc(hidden)]
pub mod __private {
    pub use crate::run::main;
}

/// Define a group of benchmark functions, `fn NAME()`, which calls each target with a
/// [`Criterion`]: `criterion_group!(benches, f1, f2)`, or
/// `criterion_group! { name = benches; config = Criterion::default(); targets = f1, f2 }`.
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args();
            $( $target(&mut criterion); )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// The bench program's `main`: the benchmarks of each group, run by Picollo's suite runner
/// as the command line says.
#[macro_export]
macro_rules! criterion_main {
    ( $( $group:path ),+ $(,)* ) => {
        fn main() -> ::std::process::ExitCode {
            $crate::__private::main(env!("CARGO_CRATE_NAME"), &[ $( $group ),+ ])
        }
    };
}
