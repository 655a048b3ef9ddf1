//! The runs of every command, interleaved: the warm-ups, then `--runs` rounds, each running
//! every command once in a random order, and with them the shell alone (`SHELL -c ''`),
//! whose start is subtracted from every command's figures. A machine that drifts during
//! the benchmark then drifts under every command alike.

use std::time::Instant;

use indicatif::ProgressBar;

use std::path::PathBuf;

use super::command::{run_once, Argv, Counters, Ended, Ran};
use super::stage::{Link, Stage};
use super::BenchArgs;
use crate::emulate::{read_totals, Emulator};
use crate::error::Failure;
use picollo_bench::draws::Draws;
use picollo_bench::engine::{run_rounds, RoundRobin, Turn};
use picollo_bench::SCALE;

/// One run's figures, metric after metric, and per counter its nanoseconds enabled and
/// running.
type Figures = (Vec<u64>, Vec<(u64, u64)>);

/// When a run started and how long it took (seconds from the first round), and whether
/// it ran first in its round.
pub type RunTime = (f64, f64, bool);

/// One command's runs so far.
pub struct Track {
    /// The command as given (`''` for the shell alone).
    pub command: String,
    /// What it is called (`--name`; the command by default).
    pub name: String,
    argv: Argv,
    /// Each measured run's figures, metric after metric.
    pub rows: Vec<u64>,
    /// Per counter: nanoseconds enabled and running, summed over the measured runs (it was
    /// multiplexed in some run where it ran less than it was enabled).
    pub times: Vec<(u64, u64)>,
    /// Each measured run's start and length in seconds from the first round, and whether
    /// it ran first in its round.
    pub runs: Vec<RunTime>,
    /// The run that failed (1-based), whether it was a warm-up, and how it ended.
    pub failed: Option<(u32, bool, Ended)>,
    /// Under `--emulate`: where the plugin writes each run's totals.
    totals: Option<PathBuf>,
    /// Under `--emulate`: the link the program starts as, pointed at it before each run.
    link: Option<Link>,
}

impl Track {
    /// The track called `name`.
    pub fn named(self, name: &str) -> Self {
        Track {
            name: name.into(),
            ..self
        }
    }

    /// A command to run through `shell` (`None`: its own words, without a shell); under
    /// `emulator` its words run under QEMU, a program named by its path started as the
    /// stage's link (and `_` in the environment naming the link), and QEMU writes each
    /// run's totals to a file of the track's own (`index` tells the tracks apart).
    pub fn new(
        command: &str,
        shell: Option<&str>,
        emulator: Option<(&Emulator, &Stage, usize)>,
    ) -> Result<Self, Failure> {
        let bad = |e: std::io::Error| Failure::usage(format!("command {command:?}: {e}"));
        let words = Argv::words(command, shell).map_err(bad)?;
        let (words, totals, link) = match emulator {
            Some((e, stage, index)) => {
                let name = format!("picollo-bench-{}-{index}.counts", std::process::id());
                let totals = std::env::temp_dir().join(name);
                let link = stage.link().to_path_buf();
                let (line, program) = e.staged_line(&words, &totals, &link)?;
                let link = program.map(|program| Link { link, program });
                (line, Some(totals), link)
            }
            None => (words, None, None),
        };
        let mut argv = Argv::from_words(words).map_err(bad)?;
        if let Some((_, stage, _)) = emulator {
            argv.started_as(stage.link());
        }
        Ok(Track {
            command: command.into(),
            name: command.into(),
            argv,
            rows: Vec::new(),
            times: Vec::new(),
            runs: Vec::new(),
            failed: None,
            totals,
            link,
        })
    }

    /// Run once; `Some(row, times)` when it succeeded, else the status is kept as
    /// the failure of `run` (a warm-up's when `warm_up`).
    fn run(
        &mut self,
        args: &BenchArgs,
        counters: &Counters,
        (run, warm_up): (u32, bool),
        draws: &mut Draws,
    ) -> Result<Option<Figures>, Failure> {
        let bound = args.env_pad() as usize;
        let pad = (bound > 0).then(|| draws.below(bound));
        self.argv.pad_environment(pad);
        if let Some(totals) = &self.totals {
            let _ = std::fs::remove_file(totals);
        }
        if let Some(link) = &self.link {
            link.point().map_err(|e| {
                let at = link.link.display();
                Failure::emulator(format!("{at}: the link the program starts as: {e}"))
            })?;
        }
        let ran = run_once(&self.argv, counters, args.show_output)
            .map_err(|e| Failure::io(&format!("running {:?}", self.command), &e))?;
        match ran {
            Ran::Measured(mut row, m) => {
                self.add_totals(&mut row, counters)?;
                Ok(Some((row, m)))
            }
            Ran::Failed(ended) => {
                self.failed = Some((run, warm_up, ended));
                Ok(None)
            }
        }
    }

    /// Under `--emulate`, the run's emulated counts (the plugin's totals) after its other
    /// figures.
    fn add_totals(&self, row: &mut Vec<u64>, counters: &Counters) -> Result<(), Failure> {
        let Some(path) = &self.totals else {
            return Ok(());
        };
        let counts = read_totals(path)
            .map_err(|f| Failure::emulator(format!("command {:?}: {}", self.command, f.message)))?;
        let _ = std::fs::remove_file(path);
        for &e in counters.emulated_events() {
            let v = counts.get(e).ok_or_else(|| {
                Failure::emulator(format!("the plugin did not count {}", e.as_str()))
            })?;
            row.push(v.saturating_mul(SCALE));
        }
        Ok(())
    }

    /// Keep a measured run that started at `start` seconds and ended now.
    fn keep(&mut self, (row, m): Figures, start: f64, end: f64, first: bool) {
        self.rows.extend(row);
        self.times.resize(m.len(), (0, 0));
        for ((enabled, running), (e, r)) in self.times.iter_mut().zip(m) {
            (*enabled, *running) = (enabled.saturating_add(e), running.saturating_add(r));
        }
        self.runs.push((start, end - start, first));
    }
}

/// The tracks as the engine's participants: a warm-up pass or a measured one.
struct Pass<'a> {
    tracks: &'a mut [Track],
    args: &'a BenchArgs,
    counters: &'a Counters,
    bar: &'a ProgressBar,
    /// Warm-ups (nothing kept), or measured rounds timed from this instant.
    measured: Option<Instant>,
}

impl RoundRobin for Pass<'_> {
    type Error = Failure;

    fn order(&mut self, draws: &mut Draws) -> Vec<usize> {
        draws.shuffled(self.tracks.len())
    }

    fn turn(&mut self, at: Turn, draws: &mut Draws) -> Result<bool, Failure> {
        let track = &mut self.tracks[at.participant];
        let live = track.failed.is_none();
        if live {
            let run = (at.round as u32 + 1, self.measured.is_none());
            let start = self.measured.map(|t0| t0.elapsed().as_secs_f64());
            let ran = track.run(self.args, self.counters, run, draws)?;
            if let (Some(ran), Some(start), Some(t0)) = (ran, start, self.measured) {
                track.keep(ran, start, t0.elapsed().as_secs_f64(), at.first);
            }
        }
        self.bar.inc(1);
        Ok(live)
    }
}

/// The warm-ups, then the measured rounds, of every track not failed, each round in its own
/// random order (the harness's engine, [`run_rounds`]); a failed run drops its track from
/// the rounds after it.
pub fn interleave(
    tracks: &mut [Track],
    args: &BenchArgs,
    counters: &Counters,
    (bar, draws): (&ProgressBar, &mut Draws),
) -> Result<(), Failure> {
    let mut pass = Pass {
        tracks,
        args,
        counters,
        bar,
        measured: None,
    };
    run_rounds(&mut pass, 0..args.warmup as usize, draws)?;
    pass.measured = Some(Instant::now());
    run_rounds(&mut pass, 0..args.runs as usize, draws)
}
