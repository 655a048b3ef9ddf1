//! Benchmarks written for [divan](https://docs.rs/divan/0.1), run by Picollo's suite
//! runner: in Cargo.toml, `divan = { package = "picollo-divan", path = "…" }`, and the
//! code stays as it is.
//!
//! ```no_run
//! #[divan::bench(args = [10, 1000])]
//! fn sum(n: u64) -> u64 {
//!     (0..divan::black_box(n)).sum()
//! }
//!
//! fn main() {
//!     divan::main(); // `sum::10`, `sum::1000`, with every flag of Picollo's runner
//! }
//! ```
//!
//! `#[divan::bench]` and `#[divan::bench_group]` register their items before `main`
//! (a function pointer in the ELF `.init_array` section, which the loader calls);
//! [`main`] names each benchmark as divan does (`group::function::arg`), registers it
//! with a [`picollo_bench::suite::Suite`] and hands it the command line, divan's flags
//! translated. A bad use of an attribute is a compile error:
//!
//! ```compile_fail
//! #[divan::bench(args = [1, 2, 3])]
//! fn takes_nothing() {}
//! # fn main() {}
//! ```
//!
//! and so is a generic parameter that neither `types` nor `consts` gives values, or a
//! parameter that `args` does not:
//!
//! ```compile_fail
//! #[divan::bench]
//! fn generic<T: Default>() -> T {
//!     T::default()
//! }
//! # fn main() {}
//! ```
//!
//! ```compile_fail
//! #[divan::bench]
//! fn sized(bencher: divan::Bencher, len: usize) {
//!     bencher.bench(|| len);
//! }
//! # fn main() {}
//! ```
#![cfg(target_os = "linux")]

mod alloc;
mod bencher;
mod cli;
pub mod counter;
mod registry;

use picollo_bench::suite::{Mode, Suite};

pub use alloc::AllocProfiler;
pub use bencher::{Bencher, BencherConfig};
pub use picollo_divan_macros::{bench, bench_group};

/// Not an API: what the attributes' expansions use.
#[doc(hidden)]
pub mod __private {
    pub use crate::registry::*;
}

/// `use divan::prelude::*;`: the common items.
pub mod prelude {
    pub use crate::{bench, bench_group, black_box, black_box_drop, AllocProfiler, Bencher, Divan};
}

/// Keeps the compiler from optimizing away a value or the work that made it.
pub use std::hint::black_box;

/// [`black_box`] `dummy`, then drop it.
pub fn black_box_drop<T>(dummy: T) {
    drop(black_box(dummy));
}

/// Run the registered benchmarks as the command line says, then exit with the runner's
/// status.
pub fn main() {
    Divan::from_args().main();
}

/// divan's entry point, kept for its API: its settings are Picollo's runner's to choose.
#[derive(Debug, Default)]
pub struct Divan {
    args: Vec<String>,
}

impl Divan {
    /// The process's command line.
    pub fn from_args() -> Self {
        Divan {
            args: std::env::args().skip(1).collect(),
        }
    }

    /// Run the registered benchmarks, then exit with the runner's status.
    pub fn main(&self) {
        let code = run(&self.args);
        let _ = std::io::Write::flush(&mut std::io::stdout());
        std::process::exit(i32::from(code));
    }

    /// [`Divan::main`], under divan's other name.
    pub fn run_benches(&self) {
        self.main()
    }

    /// Accepted and ignored: Picollo's runner sizes samples itself (as for the flags).
    pub fn sample_count(self, _count: u32) -> Self {
        self
    }

    /// Accepted and ignored: Picollo's runner sizes batches itself.
    pub fn sample_size(self, _size: u32) -> Self {
        self
    }

    /// Accepted and ignored: `--budget SECS` sets each benchmark's time.
    pub fn min_time(self, _time: std::time::Duration) -> Self {
        self
    }

    /// Accepted and ignored: `--budget SECS` sets each benchmark's time.
    pub fn max_time(self, _time: std::time::Duration) -> Self {
        self
    }
}

/// The suite of the registered benchmarks run as `args` say: the exit status.
fn run(args: &[String]) -> u8 {
    match suite_of(args) {
        Ok((mut suite, args)) => suite.main_args(&args, Mode::Once) as u8,
        Err(why) => {
            std::eprintln!("error: {why}");
            picollo_bench::suite::Exit::Usage as u8
        }
    }
}

/// The suite `args` select (`--skip`, `--ignored`), and the arguments its runner reads.
fn suite_of(args: &[String]) -> Result<(Suite<'static>, Vec<String>), String> {
    // A worker of --against reads the variables as its parent did, and says nothing.
    let worker = args.iter().any(|a| a == picollo_bench::suite::WORKER_FLAG);
    let tell = |note: &str| {
        if !worker {
            std::eprintln!("{note}");
        }
    };
    let args = cli::with_env(args, |name| std::env::var(name).ok(), tell)?;
    let ignored: Vec<&str> = registry::ignored_options().into_iter().collect();
    cli::ignored_options(&ignored).iter().for_each(|n| tell(n));
    let line = cli::translate(&args)?;
    let name = suite_name();
    let mut suite = Suite::new(&name);
    if alloc::installed() {
        suite = suite.with_source(|| Box::new(alloc::AllocSource::default()));
    }
    let parsed = picollo_bench::suite::Args::parse(&name, &line.args).ok();
    // Only a measured run's results carry a throughput: probe the benchmarks it measures.
    let measured = parsed.filter(|a| a.mode(Mode::Once) == Mode::Measure);
    for b in registry::benchmarks() {
        let wanted = match line.ignored {
            _ if line.worker => true,
            cli::Ignored::Skip => !b.ignore,
            cli::Ignored::Only => b.ignore,
            cli::Ignored::Include => true,
        };
        if !wanted || cli::skipped(&line, &b.name)? {
            continue;
        }
        let throughput = match &measured {
            Some(a) if a.selects(&b.name) => line.counter.or_else(|| probe(&b.run)),
            _ => None,
        };
        let run = b.run;
        suite.bench_batched(&b.name, move |k| {
            let mut state = bencher::State::new(bencher::Pass::Run(k));
            run(Bencher::new(&mut state));
        });
        if let Some(t) = throughput {
            suite.set_throughput(&b.name, t).map_err(|e| e.message)?;
        }
    }
    Ok((suite, line.args))
}

/// The counter a benchmark declares: its function called once with a bencher that runs
/// nothing (none where it panics: the runner then runs it and reports it failed).
fn probe(run: &dyn Fn(Bencher<'_, '_>)) -> Option<picollo_bench::Throughput> {
    let mut state = bencher::State::new(bencher::Pass::Probe);
    let called = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run(Bencher::new(&mut state));
    }));
    called.ok().and(state.counter)
}

/// The suite's name (its outputs' folder): the program's, without cargo's `-HASH`.
fn suite_name() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(|p| p.file_stem()?.to_str().map(String::from));
    let stem = stem.unwrap_or_else(|| "divan".into());
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.into()
        }
        _ => stem,
    }
}
