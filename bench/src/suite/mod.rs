//! A suite: named benchmarks the library runs the way each ecosystem's runner does — a
//! filter, `--exact`, `--regex`, `--list`, a test mode that runs each once — with the
//! harness's settings, the outputs under one folder, and `--against OTHER`, which compares
//! this build's benchmarks with another build's, benchmark by benchmark, in interleaved
//! rounds between two live processes ([`Endpoint`], [`Process`], [`PROTOCOL`]).
//!
//! ```no_run
//! use picollo_bench::{black_box, suite::Suite};
//! fn sums(s: &mut Suite) {
//!     s.bench("sum 100", || {
//!         black_box((0..100u64).map(black_box).sum::<u64>());
//!     });
//! }
//! picollo_bench::main!(sums);
//! ```
//!
//! `cargo bench -- FILTER` measures the benchmarks whose name holds `FILTER`; `cargo test
//! --benches` runs each once; `cargo bench -- --against ../main/target/release/deps/NAME`
//! judges each benchmark of this build (B) against the other build's (A).

mod against;
mod args;
mod endpoint;
mod exit;
mod gate;
mod landing;
mod outputs;
mod progress;
mod same_file;
mod shard;
mod unwound;
mod worker;

use std::boxed::Box;
use std::cell::RefCell;
use std::fmt::Display;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::string::{String, ToString};
use std::time::Duration;
use std::vec::Vec;

pub use super::model::PROTOCOL;
pub use args::{Args, Mode};
pub use endpoint::{Endpoint, Local, Process, WORKER_FLAG};
pub use exit::{Exit, SuiteError};
pub use outputs::{ComparedBenchmark, Outcome};
pub use shard::{share_of, Shard, MAX_SHARDS};
pub use unwound::fail;

use landing::{Landing, Watch};

use super::{Bench, BenchError, BenchResult, Throughput};
use crate::measure::conditions::default_meter;
use crate::measure::meter::{Meter, Source};
use crate::measure::plan::Plan;

/// How long a worker may take to answer beyond the time a request gives it, unless set.
pub const WORKER_TIMEOUT: Duration = Duration::from_secs(60);

/// The worker processes of each build where `--against` names one build and `--processes`
/// is not given: six processes a side are judged with the processes as the unit, so that
/// what one process's placement in memory adds is not read as the builds' difference, and
/// so that the spread between processes is known well enough to find 5 % (on a quiet
/// 2-core AMD EPYC VM, 2 s a comparison: identical builds called different in 7 of 100
/// comparisons with one process a side, 0 of 100 with three and with six; +5 % found in 13
/// of 20 with three, 20 of 20 with six). Every process's turns share the budget, which is
/// the comparison's whole, and a comparison stops at the first look that settles it
/// ([`crate::sequential`]). Several builds a side are units already: one process each,
/// unless `--processes` says otherwise.
pub const PROCESSES: usize = 6;

/// The threshold of `--against` where neither the suite nor `--threshold` sets one, in
/// percent: two builds of different code lay the same function out differently, and
/// builds of identical source differ by layout alone by ±1.4 % to ±4.9 % (the spread
/// between builds of shuffled layouts measured on 2-core Intel Xeon and AMD EPYC VMs,
/// docs/benchmarks.md); at 1 % a benchmark the change did not touch fails the gate by its
/// new layout. Sampling layouts (several builds a side) judges them instead.
pub const AGAINST_THRESHOLD: f64 = 3.0;

/// A benchmark as registered: its name and its work (`k` operations a call).
pub(crate) struct Registered<'a> {
    pub name: String,
    pub work: Box<dyn FnMut(u64) + 'a>,
    /// The work of one operation, where declared: its results' rate.
    pub throughput: Option<Throughput>,
    /// The operations of each batch, where the benchmark fixes them: they override the
    /// suite's and the command line's batch.
    pub batch: Option<u64>,
    /// The benchmark tells its own time ([`crate::add_manual_time`]), read in place of a
    /// clock.
    pub manual: bool,
}

/// Makes the meter each benchmark is measured with.
type MeterFactory<'a> = Box<dyn FnMut() -> Box<dyn Meter> + 'a>;

/// What makes a [`Source`] of figures beside every meter of a suite.
type SourceFactory<'a> = Box<dyn FnMut() -> Box<dyn Source> + 'a>;

/// A command that starts a suite as a worker: the program and its arguments, before
/// [`WORKER_FLAG`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// Named benchmarks and the settings they run with.
pub struct Suite<'a> {
    pub(crate) name: String,
    pub(crate) bench: Bench,
    pub(crate) benchmarks: Vec<Registered<'a>>,
    meter: Option<MeterFactory<'a>>,
    source: Option<SourceFactory<'a>>,
    worker: Option<WorkerCommand>,
}

impl<'a> Suite<'a> {
    /// An empty suite called `name` (the folder its outputs go to), with the harness's
    /// default settings.
    pub fn new(name: &str) -> Self {
        Suite {
            name: name.into(),
            bench: Bench::new(name),
            benchmarks: Vec::new(),
            meter: None,
            source: None,
            worker: None,
        }
    }

    /// The settings every benchmark runs with (their name aside); the command line's
    /// override them.
    pub fn with_settings(mut self, bench: Bench) -> Self {
        self.bench = bench;
        self
    }

    /// Measure with the meters `meter` makes instead of the default one (a simulated
    /// machine, in tests).
    pub fn with_meter(mut self, meter: impl FnMut() -> Box<dyn Meter> + 'a) -> Self {
        self.meter = Some(Box::new(meter));
        self
    }

    /// Read the figures of the sources `source` makes beside every meter (the default one,
    /// `--counters` as asked, or [`Suite::with_meter`]'s): bytes a counting allocator saw
    /// allocated, say. Their metrics follow the meter's in every result.
    pub fn with_source(mut self, source: impl FnMut() -> Box<dyn Source> + 'a) -> Self {
        self.source = Some(Box::new(source));
        self
    }

    /// Start this build's worker for `--against` with `command` instead of the running
    /// program: for a suite that an interpreter runs (a script), whose program is not the
    /// suite.
    pub fn with_worker(mut self, command: WorkerCommand) -> Self {
        self.worker = Some(command);
        self
    }

    /// Register `op`, one operation a call, as benchmark `name`.
    pub fn bench(&mut self, name: &str, mut op: impl FnMut() + 'a) -> &mut Self {
        self.bench_batched(name, move |k| {
            for _ in 0..k {
                op();
            }
        })
    }

    /// Register `work(k)`, which runs `k` operations, as benchmark `name`.
    pub fn bench_batched(&mut self, name: &str, work: impl FnMut(u64) + 'a) -> &mut Self {
        self.benchmarks.push(Registered {
            name: name.into(),
            work: Box::new(work),
            throughput: None,
            batch: None,
            manual: false,
        });
        self
    }

    /// The name of benchmark `name` of parameter `param`: `name/param` (`sort/100`), as every
    /// language's suite forms it.
    pub fn param_name(name: &str, param: &dyn Display) -> String {
        std::format!("{name}/{param}")
    }

    /// Declare the work one operation of benchmark `name` does (the last registered of that
    /// name): its results then carry the rate at their median time. An error for a name no
    /// benchmark has, or 0 elements or bytes.
    pub fn set_throughput(&mut self, name: &str, t: Throughput) -> Result<&mut Self, SuiteError> {
        let t = t.checked().map_err(SuiteError::usage)?;
        let b = self.benchmarks.iter_mut().rev().find(|b| b.name == name);
        let b = b.ok_or_else(|| {
            SuiteError::usage(std::format!(
                "throughput of {name:?}: no benchmark of that name is registered"
            ))
        })?;
        b.throughput = Some(t);
        Ok(self)
    }

    /// Fix the operations of each batch of benchmark `name` (the last registered of that
    /// name) at `k`, whatever the suite's settings and the command line say: for a benchmark
    /// whose work must run in batches of its own size (`--test` runs one such batch). An
    /// error for a name no benchmark has,
    /// or a `k` outside 1 to [`MAX_BATCH`](crate::rules::MAX_BATCH).
    pub fn set_batch(&mut self, name: &str, k: u64) -> Result<&mut Self, SuiteError> {
        if !(1..=crate::rules::MAX_BATCH).contains(&k) {
            let why = std::format!("batch of {name:?}: {k} is not 1 to 2^24");
            return Err(SuiteError::usage(why));
        }
        let b = self.benchmarks.iter_mut().rev().find(|b| b.name == name);
        let b = b.ok_or_else(|| {
            SuiteError::usage(std::format!(
                "batch of {name:?}: no benchmark of that name is registered"
            ))
        })?;
        b.batch = Some(k);
        Ok(self)
    }

    /// Measure benchmark `name` (the last registered of that name) by the time its work
    /// tells ([`crate::add_manual_time`]) instead of a clock, here and as a worker (no perf
    /// counters are read for it). An error for a name no benchmark has.
    pub fn set_manual_time(&mut self, name: &str) -> Result<&mut Self, SuiteError> {
        let b = self.benchmarks.iter_mut().rev().find(|b| b.name == name);
        let b = b.ok_or_else(|| {
            SuiteError::usage(std::format!(
                "manual time of {name:?}: no benchmark of that name is registered"
            ))
        })?;
        b.manual = true;
        Ok(self)
    }

    /// `plan` with the batch benchmark `plan.name` fixes, where it fixes one.
    pub(crate) fn with_fixed_batch(&self, mut plan: Plan) -> Plan {
        let b = self.benchmarks.iter().rev().find(|b| b.name == plan.name);
        if let Some(k) = b.and_then(|b| b.batch) {
            plan.batch = Some(k);
        }
        plan
    }

    /// Register `op(&p)`, one operation a call, as benchmark `name/p` for each parameter `p`
    /// of `params` (a size, an input's name): one benchmark a parameter, each filtered,
    /// listed, measured and compared as any other (`sort/100`, `sort/10000`).
    pub fn bench_params<P: Display + 'a>(
        &mut self,
        name: &str,
        params: impl IntoIterator<Item = P>,
        op: impl FnMut(&P) + 'a,
    ) -> &mut Self {
        self.params_with(name, params, None, op)
    }

    /// [`Suite::bench_params`] with the work of one operation of each parameter,
    /// `throughput(&p)` (`|&n| Throughput::Elements(n)`): each benchmark's results carry the
    /// rate. A throughput of 0 is refused when the suite runs (exit status 2).
    pub fn bench_params_throughput<P: Display + 'a>(
        &mut self,
        name: &str,
        params: impl IntoIterator<Item = P>,
        throughput: impl Fn(&P) -> Throughput,
        op: impl FnMut(&P) + 'a,
    ) -> &mut Self {
        self.params_with(name, params, Some(&throughput), op)
    }

    fn params_with<P: Display + 'a>(
        &mut self,
        name: &str,
        params: impl IntoIterator<Item = P>,
        throughput: Option<&dyn Fn(&P) -> Throughput>,
        op: impl FnMut(&P) + 'a,
    ) -> &mut Self {
        let op = Rc::new(RefCell::new(op));
        for p in params {
            let t = throughput.map(|f| f(&p));
            let op = Rc::clone(&op);
            self.bench_batched(&Self::param_name(name, &p), move |k| {
                let mut op = op.borrow_mut();
                for _ in 0..k {
                    op(&p);
                }
            });
            self.benchmarks
                .last_mut()
                .expect("just registered")
                .throughput = t;
        }
        self
    }

    /// The benchmarks' names, in the order they were registered.
    pub fn names(&self) -> Vec<&str> {
        self.benchmarks.iter().map(|b| b.name.as_str()).collect()
    }

    /// Run as the process's command line says, with cargo's convention (each benchmark
    /// once unless `--bench`, which `cargo bench` passes); print what went wrong; the exit
    /// status.
    pub fn main(&mut self) -> std::process::ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        std::process::ExitCode::from(self.main_args(&args, Mode::Once) as u8)
    }

    /// Run as `args` say (without the program's name; `default` as in [`Suite::run_args`]),
    /// reporting to the standard output; print what went wrong; the exit status (the C
    /// ABI's `picollo_suite_main`, whose default is to measure).
    pub fn main_args(&mut self, args: &[String], default: Mode) -> Exit {
        let status = match self.run_args(args, default, &mut std::io::stdout()) {
            Ok(outcome) => outcome.exit,
            Err(e) => {
                std::eprintln!("error: {}", e.message);
                e.exit
            }
        };
        let _ = std::io::stdout().flush();
        status
    }

    /// Run as `args` say (without the program's name); `default` is what a run without
    /// `--bench`, `--test` or `--list` does. Reports go to `out`.
    pub fn run_args(
        &mut self,
        args: &[String],
        default: Mode,
        out: &mut dyn Write,
    ) -> Result<Outcome, SuiteError> {
        let args = Args::parse(&self.name, args)?;
        self.check_names()?;
        let mode = args.mode(default);
        if mode == Mode::Help {
            let help = Args::help(&self.name);
            let io = |e: std::io::Error| SuiteError::new(Exit::Io, std::format!("<stdout>: {e}"));
            out.write_all(help.as_bytes()).map_err(io)?;
            return Ok(Outcome::default());
        }
        if mode == Mode::Worker {
            let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
            worker::serve(self, &mut stdin.lock(), &mut stdout.lock())
                .map_err(|e| SuiteError::worker(std::format!("serving requests: {e}")))?;
            return Ok(Outcome::default());
        }
        let selected = self.selected(&args)?;
        let io = |e: std::io::Error| SuiteError::new(Exit::Io, std::format!("<stdout>: {e}"));
        match mode {
            Mode::List => {
                for name in &selected {
                    writeln!(out, "{name}: benchmark").map_err(io)?;
                }
                Ok(Outcome::default())
            }
            Mode::Once => self.once(&selected, out).map_err(io),
            _ => self.measure(&args, &selected, out),
        }
    }

    /// Refuse two benchmarks of one name, an empty name, or one with a control character
    /// (a line of the list, a key of the JSON), and a throughput of 0.
    fn check_names(&self) -> Result<(), SuiteError> {
        for (i, b) in self.benchmarks.iter().enumerate() {
            if let Some(t) = b.throughput {
                let why = |e| std::format!("benchmark {:?}: {e}", b.name);
                t.checked().map_err(|e| SuiteError::usage(why(e)))?;
            }
            if b.name.is_empty() || b.name.chars().any(char::is_control) {
                let why = std::format!(
                    "benchmark name {:?}: empty or with a control character",
                    b.name
                );
                return Err(SuiteError::usage(why));
            }
            if self.benchmarks[..i].iter().any(|o| o.name == b.name) {
                let why = std::format!(
                    "two benchmarks are named {:?}: give each its own name",
                    b.name
                );
                return Err(SuiteError::usage(why));
            }
        }
        Ok(())
    }

    /// The names `args` select; an error where the filters select none (a `--shard` that
    /// holds none of those they select is no error: a share of few benchmarks may be empty).
    fn selected(&self, args: &Args) -> Result<Vec<String>, SuiteError> {
        let names = self.names().into_iter().filter(|n| args.filters_select(n));
        let names: Vec<String> = names.map(String::from).collect();
        if names.is_empty() && !self.benchmarks.is_empty() {
            let all = self.names().join(", ");
            let why = std::format!("no benchmark matches the filter (the benchmarks: {all}); a FILTER is a substring, --regex takes a regular expression");
            return Err(SuiteError::new(Exit::NoMatch, why));
        }
        Ok(names.into_iter().filter(|n| args.in_shard(n)).collect())
    }

    /// How many benchmarks the filters select, every shard's share together: the family
    /// whose comparisons share the 1 % of a false verdict.
    fn family(&self, args: &Args) -> usize {
        let names = self.names().into_iter();
        names.filter(|n| args.filters_select(n)).count()
    }

    /// Each selected benchmark run once, as a test (one batch: of one operation, or of the
    /// batch it fixes): `ok`, or `FAILED` with its panic's message (or [`fail`]'s).
    fn once(&mut self, selected: &[String], out: &mut dyn Write) -> std::io::Result<Outcome> {
        let mut outcome = Outcome::default();
        for b in self
            .benchmarks
            .iter_mut()
            .filter(|b| selected.contains(&b.name))
        {
            let k = b.batch.unwrap_or(1);
            let ran = catch_unwind(AssertUnwindSafe(|| (b.work)(k)));
            match ran {
                Ok(()) => writeln!(out, "bench {} ... ok", b.name)?,
                Err(p) => {
                    let why = unwound::message(&*p);
                    writeln!(out, "bench {} ... FAILED: {why}", b.name)?;
                    outcome.failed.push((b.name.clone(), why));
                }
            }
        }
        let (ok, failed) = (selected.len() - outcome.failed.len(), outcome.failed.len());
        writeln!(out, "bench result: {ok} ran once, {failed} failed")?;
        outcome.exit = if failed > 0 { Exit::Failed } else { Exit::Ok };
        Ok(outcome)
    }

    /// The plan of every benchmark: the suite's settings with the command line's.
    fn plan(&self, args: &Args) -> Result<Plan, SuiteError> {
        let mut b = self.bench.clone();
        if let Some(t) = args.budget {
            b = b.with_time_budget(t);
        }
        if let Some(t) = args.warmup {
            b = b.with_warmup(t);
        }
        if let Some(r) = args.rounds {
            b = b.with_rounds(r);
        }
        if let Some(s) = args.seed {
            b = b.with_seed(s);
        }
        if let Some(t) = args.threshold {
            b = b.with_threshold(t);
        }
        b = with_counters(b, args.counters.as_deref())?;
        b = with_read_path(b, args.read_path.as_deref())?;
        let mut plan = b.plan().map_err(|e| SuiteError::usage(e.to_string()))?;
        let unset = args.threshold.is_none() && plan.threshold == crate::DEFAULT_THRESHOLD;
        if unset && !args.against.is_empty() {
            plan.threshold = AGAINST_THRESHOLD;
        }
        Ok(plan)
    }

    /// The meter of a benchmark measured with `plan` (the time it tells, for one of manual
    /// time), and what it could not count.
    pub(crate) fn meter(
        &mut self,
        plan: &Plan,
    ) -> Result<(Box<dyn Meter>, Vec<String>), BenchError> {
        let b = self.benchmarks.iter().rev().find(|b| b.name == plan.name);
        let manual = b.is_some_and(|b| b.manual);
        let (meter, warnings): (Box<dyn Meter>, Vec<String>) = match &mut self.meter {
            _ if manual => (Box::new(crate::ManualTime), Vec::new()),
            Some(make) => (make(), Vec::new()),
            None => default_meter(plan)?,
        };
        match &mut self.source {
            Some(source) => Ok((Box::new(meter.with(source())), warnings)),
            None => Ok((meter, warnings)),
        }
    }

    /// Measure `selected` alone, or against the other build's suite.
    fn measure(
        &mut self,
        args: &Args,
        selected: &[String],
        out: &mut dyn Write,
    ) -> Result<Outcome, SuiteError> {
        let plan = self.plan(args)?;
        let saved = match &args.baseline {
            Some(name) => Some(gate::load(
                &gate::baseline_path(args, name),
                Some(plan.threshold),
            )?),
            None => None,
        };
        let against = !args.against.is_empty();
        if against && (args.save.is_some() || saved.is_some()) {
            let why = "--save and --baseline measure this build alone: --against compares two builds in one run";
            return Err(SuiteError::usage(why));
        }
        let declared = self
            .benchmarks
            .iter()
            .map(|b| (b.name.clone(), b.throughput));
        let mut landing = Landing::new(out, args, declared.collect());
        let empty_share = selected.is_empty() && args.shard.is_some();
        let mut outcome = match against && !empty_share {
            true => {
                let chosen = (selected, self.family(args));
                against_process(&plan, self.worker.clone(), chosen, args, &mut landing)?
            }
            false => {
                let probing = args.save.is_some() || saved.is_some();
                self.measure_here(&plan, selected, probing, &mut landing)?
            }
        };
        drop(landing);
        let landed = outcome.only.len();
        if let (Some(saved), Some(name)) = (&saved, &args.baseline) {
            gate::judge(&mut outcome, saved, args, name)?;
        }
        outcome.finish(&self.name, args, landed, out)?;
        if let Some(name) = &args.save {
            let path = gate::save(&outcome, args, name)?;
            let _ = writeln!(out, "saved as baseline {name}: {}", path.display());
        }
        Ok(outcome)
    }

    /// Each of `selected` measured in this process, its line landing on `watch` as it comes;
    /// where `probing` (a run that saves or is judged against runs apart), the speed probe
    /// taken around each ([`crate::probe`]).
    fn measure_here(
        &mut self,
        plan: &Plan,
        selected: &[String],
        probing: bool,
        watch: &mut dyn Watch,
    ) -> Result<Outcome, SuiteError> {
        let mut outcome = Outcome::default();
        for (i, name) in selected.iter().enumerate() {
            watch.start(name, (i + 1, selected.len()));
            let named = self.with_fixed_batch(plan.named(name));
            let (measured, probe) = crate::judge::probe::around(probing, || {
                catch_unwind(AssertUnwindSafe(|| self.measure_one(&named, watch)))
            });
            if probing {
                outcome.probes.push((name.clone(), probe));
            }
            let why = match measured {
                Ok(Ok(mut r)) => {
                    watch.result(&mut r)?;
                    outcome.results.push(r);
                    continue;
                }
                Ok(Err(e)) => e.to_string(),
                Err(p) => unwound::described(&*p),
            };
            watch.failed(name, &why)?;
            outcome.failed.push((name.clone(), why));
        }
        Ok(outcome)
    }

    /// One benchmark measured with `plan` (its name is the benchmark's).
    fn measure_one(
        &mut self,
        plan: &Plan,
        watch: &mut dyn Watch,
    ) -> Result<BenchResult, BenchError> {
        plan.apply_placement()?;
        let (mut meter, warnings) = self.meter(plan)?;
        let i = self.benchmarks.iter().position(|b| b.name == plan.name);
        let work = &mut self.benchmarks[i.unwrap_or_default()].work;
        let round = &mut |i, n| watch.round(i, n);
        let mut r = crate::measure::run::run_watched(plan, &mut *meter, &mut **work, round)?;
        r.conditions.warnings.splice(0..0, warnings);
        Ok(r)
    }

    /// This suite (B) against `other` (A), both of this process, through the same requests
    /// and replies as two builds' processes: every benchmark both have that `args` select.
    /// (Two simulated machines, in tests.)
    pub fn compare_against(
        &mut self,
        other: &mut Suite<'_>,
        args: &[String],
    ) -> Result<Outcome, SuiteError> {
        let args = Args::parse(&self.name, args)?;
        let (plan, selected) = (self.plan(&args)?, self.selected(&args)?);
        let family = self.family(&args);
        let ends: &mut [&mut dyn Endpoint] = &mut [
            &mut Local::new("base", other),
            &mut Local::new("head", self),
        ];
        compare_ends(&plan, ends, 1, (&args, &selected, family))
    }

    /// [`Suite::compare_against`], then what a run does at its end: the verdicts judged on
    /// `--metric`, the document under the output folder, the exports and the summary
    /// written, the exit status settled. (Shards of two simulated machines' suites, in tests.)
    pub fn compare_against_written(
        &mut self,
        other: &mut Suite<'_>,
        args: &[String],
        out: &mut dyn Write,
    ) -> Result<Outcome, SuiteError> {
        let parsed = Args::parse(&self.name, args)?;
        let mut outcome = self.compare_against(other, args)?;
        outcome.finish(&self.name, &parsed, 0, out)?;
        Ok(outcome)
    }

    /// Builds of one suite a side, `heads` (B) against `bases` (A), as many each, all of this
    /// process and with the settings of the first head: [`Suite::compare_against`] with
    /// builds as the unit.
    pub fn compare_builds<'b>(
        heads: &mut [Suite<'b>],
        bases: &mut [Suite<'b>],
        args: &[String],
    ) -> Result<Outcome, SuiteError> {
        let k = heads.len();
        if k == 0 || bases.len() != k {
            return Err(SuiteError::usage("as many builds a side, at least one"));
        }
        let args = Args::parse(&heads[0].name, args)?;
        let (plan, selected) = (heads[0].plan(&args)?, heads[0].selected(&args)?);
        let family = heads[0].family(&args);
        let label = |side: &str, i: usize| std::format!("{side} {}", i + 1);
        let base = bases
            .iter_mut()
            .enumerate()
            .map(|(i, s)| Local::new(&label("base", i), s));
        let head = heads
            .iter_mut()
            .enumerate()
            .map(|(i, s)| Local::new(&label("head", i), s));
        let mut locals: Vec<Local<'_, '_>> = base.chain(head).collect();
        let mut ends: Vec<&mut dyn Endpoint> =
            locals.iter_mut().map(|l| l as &mut dyn Endpoint).collect();
        compare_ends(&plan, &mut ends, k, (&args, &selected, family))
    }
}

/// The comparison of `ends` (`k` builds a side) with `plan`'s settings: the benchmarks the
/// first head's suite has that `args` select (`selected`).
fn compare_ends(
    plan: &Plan,
    ends: &mut [&mut dyn Endpoint],
    k: usize,
    (args, selected, family): (&Args, &[String], usize),
) -> Result<Outcome, SuiteError> {
    if selected.is_empty() && args.shard.is_some() {
        // An empty share of `--shard` (the filters select some, else `selected` refused).
        return Ok(Outcome::default());
    }
    let select = |n: &str| args.selects(n);
    let mut quiet = ();
    let mut conduct = conduct(args, &mut quiet, family);
    against::judge_all(plan, ends, k, (selected, &select), &mut conduct)
}

/// How `args` say a comparison runs, told to `watch`, one of a `family` of benchmarks.
fn conduct<'w>(args: &'w Args, watch: &'w mut dyn Watch, family: usize) -> against::Conduct<'w> {
    against::Conduct {
        timeout: args.worker_timeout.unwrap_or(WORKER_TIMEOUT),
        watch,
        metric: args.metric.as_deref(),
        family,
    }
}

/// `b` reading its counters as `--read-path` says (none: as it was set).
fn with_read_path(b: Bench, name: Option<&str>) -> Result<Bench, SuiteError> {
    let Some(name) = name else { return Ok(b) };
    #[cfg(feature = "perf")]
    match picollo_perf::ReadPolicy::parse(name) {
        Some(policy) => Ok(b.with_read_path(policy)),
        None => Err(SuiteError::usage(std::format!(
            "--read-path {name}: auto, user (rdpmc) or syscall (read)"
        ))),
    }
    #[cfg(not(feature = "perf"))]
    Err(SuiteError::usage(std::format!(
        "--read-path {name}: built without feature perf"
    )))
}

/// `b` with the counters named on the command line (none: its own).
fn with_counters(b: Bench, names: Option<&[String]>) -> Result<Bench, SuiteError> {
    let Some(names) = names else { return Ok(b) };
    #[cfg(feature = "perf")]
    {
        let each = names.iter().map(|n| {
            picollo_perf::Event::parse(n)
                .map_err(|e| SuiteError::usage(std::format!("--counters: {n:?}: {e}")))
        });
        let events = each.collect::<Result<Vec<_>, _>>()?;
        Ok(b.with_counters(&events))
    }
    #[cfg(not(feature = "perf"))]
    match names.is_empty() {
        true => Ok(b),
        false => Err(SuiteError::usage(
            "--counters: built without feature perf: time only",
        )),
    }
}

/// This side's builds: each `--head`, else `me` (else this very program) once for each
/// `--against`; a usage error where the two sides' counts differ.
fn heads(me: Option<WorkerCommand>, args: &Args) -> Result<Vec<WorkerCommand>, SuiteError> {
    let k = args.against.len();
    if !args.heads.is_empty() && args.heads.len() == k {
        let each = args.heads.iter().map(|p| WorkerCommand {
            program: p.clone(),
            args: Vec::new(),
        });
        return Ok(each.collect());
    }
    if k > 1 || !args.heads.is_empty() {
        let why = std::format!(
            "--against names {k} builds and this side has {}: give a --head for each of this side's builds",
            args.heads.len().max(1)
        );
        return Err(SuiteError::usage(why));
    }
    let me = match me {
        Some(command) => command,
        None => WorkerCommand {
            program: std::env::current_exe()
                .map_err(|e| SuiteError::worker(std::format!("this program's path: {e}")))?,
            args: Vec::new(),
        },
    };
    Ok(std::vec![me; k])
}

/// On stderr, each build of `bases` whose file is one of the paired head's (its program,
/// or the file it runs: a C# assembly under mono): an A/A.
fn warn_of_a_a<'a>(bases: &[PathBuf], heads: impl Iterator<Item = &'a WorkerCommand>) {
    for (base, head) in bases.iter().zip(heads) {
        let program = std::iter::once(head.program.as_path());
        let files = program.chain(head.args.iter().map(Path::new));
        if let Some(w) = files.filter_map(|f| same_file::a_a_warning(base, f)).next() {
            std::eprintln!("{w}");
        }
    }
}

/// `selected` of this build's builds ([`heads`]) against the builds `--against` names (A),
/// each started as `--processes` worker processes; several processes a side are judged with
/// the processes as the unit, as builds are: each process keeps one placement of its code
/// and data in memory for the whole comparison, and two processes of one build differ by it.
fn against_process(
    plan: &Plan,
    me: Option<WorkerCommand>,
    (selected, family): (&[String], usize),
    args: &Args,
    landing: &mut Landing<'_>,
) -> Result<Outcome, SuiteError> {
    let n = match args.against.len() {
        1 => args.processes.unwrap_or(PROCESSES),
        _ => args.processes.unwrap_or(1),
    };
    let heads: Vec<WorkerCommand> = heads(me, args)?
        .into_iter()
        .flat_map(|c| std::iter::repeat_n(c, n))
        .collect();
    let k = heads.len();
    warn_of_a_a(&args.against, heads.iter().step_by(n));
    // A build's processes share its label: `base`, or `base 2` among several builds.
    let label = |side: &str, i: usize| match k / n {
        1 => side.to_string(),
        _ => std::format!("{side} {}", i / n + 1),
    };
    let base = args
        .against
        .iter()
        .flat_map(|p| std::iter::repeat_n(p, n))
        .enumerate()
        .map(|(i, p)| Process::spawn(&label("base", i), p, &[]));
    let head = heads
        .iter()
        .enumerate()
        .map(|(i, c)| Process::spawn(&label("head", i), &c.program, &c.args));
    let mut workers: Vec<Process> = base.chain(head).collect::<Result<_, _>>()?;
    let mut ends: Vec<&mut dyn Endpoint> =
        workers.iter_mut().map(|w| w as &mut dyn Endpoint).collect();
    let select = |n: &str| args.selects(n);
    landing.processes = n;
    let mut conduct = conduct(args, landing, family);
    let judged = against::judge_all(plan, &mut ends, k, (selected, &select), &mut conduct);
    drop(ends);
    endpoint::stop_all(&mut workers);
    let outcome = judged?;
    Ok(Outcome {
        processes: n,
        ..outcome
    })
}
