//! A suite's run as it goes: each benchmark's line lands on the output as its result or
//! verdict comes (its failure, or that only one build has it, as soon as that is known),
//! while a live line on a terminal says which benchmark runs and how far
//! ([`super::progress`]).

use std::io::{Stderr, Write};
use std::string::{String, ToString};
use std::vec::Vec;

use super::super::{BenchResult, Throughput};
use super::args::Args;
use super::exit::{Exit, SuiteError};
use super::outputs::ComparedBenchmark;
use super::progress::Progress;
use crate::judge::verdict::Comparison;

/// What a suite's run tells as it goes. Comparisons made for a caller that prints nothing
/// ([`super::Suite::compare_against`]) watch with `()`, which tells nothing.
pub(crate) trait Watch {
    /// Benchmark `name`, the `i`th (from 1) of `n`, starts.
    fn start(&mut self, _name: &str, _which: (usize, usize)) {}

    /// The running benchmark is in round `round` (from 0) of `rounds`.
    fn round(&mut self, _round: usize, _rounds: usize) {}

    /// The running comparison's look `look` of `looks` judged it so: its interval so far.
    fn looked(&mut self, _at: (usize, usize), _c: &Comparison) {}

    /// A benchmark measured alone: its result.
    fn result(&mut self, _r: &mut BenchResult) -> Result<(), SuiteError> {
        Ok(())
    }

    /// A benchmark compared with the other build's, `builds` builds a side.
    fn compared(&mut self, _p: &mut ComparedBenchmark, _builds: usize) -> Result<(), SuiteError> {
        Ok(())
    }

    /// Benchmark `name` failed, for `why`.
    fn failed(&mut self, _name: &str, _why: &str) -> Result<(), SuiteError> {
        Ok(())
    }

    /// Benchmark `name` is only in `side` (`base`, `head`): listed, not judged.
    fn only(&mut self, _name: &str, _side: &str) -> Result<(), SuiteError> {
        Ok(())
    }
}

impl Watch for () {}

/// An error writing the standard output.
pub(crate) fn stdout(e: std::io::Error) -> SuiteError {
    SuiteError::new(Exit::Io, std::format!("<stdout>: {e}"))
}

/// The lines of a suite's run, landing on `out` as each benchmark's comes, with its whole
/// report under `--verbose`; the live line on the standard error.
pub(crate) struct Landing<'o> {
    out: &'o mut dyn Write,
    progress: Progress<Stderr>,
    verbose: bool,
    /// The work of an operation each benchmark declares here (by name).
    declared: Vec<(String, Option<Throughput>)>,
    /// The worker processes of each build of a comparison (0 or 1: one).
    pub(crate) processes: usize,
}

impl<'o> Landing<'o> {
    /// Lines on `out` as `args` say, with the throughput each benchmark of `declared`
    /// declares.
    pub(crate) fn new(
        out: &'o mut dyn Write,
        args: &Args,
        declared: Vec<(String, Option<Throughput>)>,
    ) -> Self {
        Landing {
            out,
            progress: Progress::stderr(),
            verbose: args.verbose,
            declared,
            processes: 0,
        }
    }

    fn declared(&self, name: &str) -> Option<Throughput> {
        let d = self.declared.iter().find(|(n, _)| n == name);
        d.and_then(|(_, t)| *t)
    }

    fn land(&mut self, text: &str) -> Result<(), SuiteError> {
        self.progress.land(self.out, text).map_err(stdout)
    }
}

impl Watch for Landing<'_> {
    fn start(&mut self, name: &str, which: (usize, usize)) {
        self.progress.start(name, which);
    }

    fn round(&mut self, round: usize, rounds: usize) {
        self.progress.round(round, rounds);
    }

    fn looked(&mut self, at: (usize, usize), c: &Comparison) {
        let ch = &c.change;
        self.progress.looked(at, (ch.estimate, ch.low, ch.high));
    }

    /// Its rate where its benchmark declares one, and its line (its report).
    fn result(&mut self, r: &mut BenchResult) -> Result<(), SuiteError> {
        r.throughput = self.declared(&r.name);
        let mut text = String::new();
        let _ = match self.verbose {
            true => r.write_report(&mut text),
            false => r.write_line(&mut text).map(|_| text.push('\n')),
        };
        self.land(&text)
    }

    /// Both sides with the throughput the benchmark declares here (the other build's work
    /// an operation is taken to be this build's), and its verdict (its report) and rates.
    fn compared(&mut self, p: &mut ComparedBenchmark, _builds: usize) -> Result<(), SuiteError> {
        let t = self.declared(&p.benchmark);
        (p.sides.a.throughput, p.sides.b.throughput) = (t, t);
        let (a, b) = (p.sides.a.work(), p.sides.b.work());
        p.sides.comparison.set_rates(a, b);
        p.judged.set_rates(a, b);
        let c = judged(p, self.processes);
        let mut text = match self.verbose {
            true => p.to_string(),
            false => {
                let mut line = String::new();
                let _ = c.write_verdict(&mut line);
                line
            }
        };
        text.push('\n');
        let _ = c.write_rates_line(&mut text);
        self.land(&text)
    }

    fn failed(&mut self, name: &str, why: &str) -> Result<(), SuiteError> {
        self.land(&std::format!("{name}: FAILED: {why}\n"))
    }

    fn only(&mut self, name: &str, side: &str) -> Result<(), SuiteError> {
        self.land(&only_text(name, side))
    }
}

/// The line of a benchmark only `side` has.
pub(crate) fn only_text(name: &str, side: &str) -> String {
    std::format!("{name}: only in {side}: not judged\n")
}

/// `p`'s comparison as the gate judges it ([`ComparedBenchmark::judged`]), with the worker
/// `processes` of each build.
pub(crate) fn judged(p: &ComparedBenchmark, processes: usize) -> Comparison {
    let mut c = p.judged.clone();
    if let Some(b) = c.builds.as_mut() {
        b.processes = processes.max(1);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::super::Suite;
    use std::cell::Cell;
    use std::io::{self, Write};
    use std::rc::Rc;
    use std::string::String;
    use std::vec::Vec;

    /// An output that keeps, with each write, the calls each benchmark's work had had by
    /// then.
    struct Stamped<'c> {
        calls: &'c [Rc<Cell<u64>>; 2],
        writes: Vec<(String, [u64; 2])>,
    }

    impl Write for Stamped<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let calls = [self.calls[0].get(), self.calls[1].get()];
            let text = String::from_utf8_lossy(buf).into_owned();
            self.writes.push((text, calls));
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn each_line_lands_once_in_benchmark_order_as_its_benchmark_finishes() {
        let calls = [Rc::new(Cell::new(0)), Rc::new(Cell::new(0))];
        let mut suite = Suite::new("landing");
        for (name, c) in ["first", "second"].into_iter().zip(&calls) {
            let c = Rc::clone(c);
            suite.bench_batched(name, move |k| c.set(c.get() + k));
        }
        let dir = std::env::temp_dir().join(std::format!("picollo-landing-{}", std::process::id()));
        let args = ["--bench", "--budget", "0.05", "--warmup", "0.01", "--out"];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(dir.display().to_string());
        let mut out = Stamped {
            calls: &calls,
            writes: Vec::new(),
        };
        let run = suite.run_args(&args, super::super::Mode::Measure, &mut out);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(run.expect("the run").results.len(), 2);
        let at = |name: &str| {
            let mut lines = out.writes.iter().filter(|(t, _)| t.starts_with(name));
            let first = lines.next().expect("its line");
            assert!(
                lines.next().is_none(),
                "{name}'s line twice: {:?}",
                out.writes
            );
            first.1
        };
        let (first, second) = (at("first"), at("second"));
        assert!(first[0] > 0 && first[1] == 0, "{:?}", out.writes);
        assert!(second[1] > 0, "{:?}", out.writes);
    }
}
