//! `picollo emulate`: a program run under QEMU's user mode (`qemu-x86_64`, `qemu-aarch64`)
//! with Picollo's plugin, which counts its guest instructions (and with `--memory` its loads
//! and stores, with `--l1d` the misses of a modelled L1D cache) exactly, per thread: the
//! program reads its own counts as `Emulated:*` counters, and the run's totals are printed
//! when it ends. `picollo bench --emulate` runs each command so.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Args, ValueEnum};
use picollo_perf::{install_qemu_plugin, EmulatedCounts, EmulatedEvent};
use serde::Serialize;

use crate::error::Failure;

/// `picollo emulate --help`'s notes.
pub const EMULATE_HELP: &str = "\
Examples:
  picollo emulate -- ./app --input data.bin
  picollo emulate --memory -- python3 bench.py
  picollo emulate --l1d 65536:8:64 --json counts.json -- ./app

  The program runs under qemu-ARCH (ARCH from its ELF header, or its #! interpreter's;
  Debian's package qemu-user: qemu-user-static cannot load plugins) with the plugin this
  picollo carries (written once under ~/.cache/picollo). Counts are of the guest's user
  space: its instructions, not the host's, and nothing of the kernel. A program the guest
  execs runs natively, uncounted. Inside, `Emulated:Instructions` (`Emulated:Loads`,
  `Emulated:Stores`, `Emulated:L1DMisses`) open like any counter, per thread; the run's
  totals are printed on stderr at the end (--json writes them too). Address-space
  randomization is off (--randomize keeps it), so that the same work counts the same.
  Exit status: the program's (128 + N when killed by signal N); 8 when QEMU or the plugin
  cannot run it (the message says which and why).";

/// What the plugin counts beside instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Instructions only.
    Instructions,
    /// Loads and stores too.
    Memory,
    /// Loads, stores and the misses of an L1D of this geometry (`BYTES:WAYS:LINE`, or the
    /// plugin's default).
    L1d(Option<String>),
}

impl Counted {
    /// The plugin's arguments for it.
    fn plugin_args(&self) -> Vec<String> {
        match self {
            Counted::Instructions => vec![],
            Counted::Memory => vec!["mem=on".into()],
            Counted::L1d(None) => vec!["l1d=on".into()],
            Counted::L1d(Some(g)) => vec![format!("l1d={g}")],
        }
    }

    /// The emulated events it counts, in report order.
    pub fn events(&self) -> Vec<EmulatedEvent> {
        use EmulatedEvent::*;
        match self {
            Counted::Instructions => vec![Instructions],
            Counted::Memory => vec![Instructions, Loads, Stores],
            Counted::L1d(_) => vec![Instructions, Loads, Stores, L1DMisses],
        }
    }
}

/// What `picollo bench --emulate` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EmulateWhat {
    /// Guest instructions
    Instructions,
    /// Instructions, loads and stores
    Memory,
    /// Instructions, loads, stores and the misses of the plugin's default L1D model
    L1d,
}

impl From<EmulateWhat> for Counted {
    fn from(w: EmulateWhat) -> Self {
        match w {
            EmulateWhat::Instructions => Counted::Instructions,
            EmulateWhat::Memory => Counted::Memory,
            EmulateWhat::L1d => Counted::L1d(None),
        }
    }
}

/// Which QEMU and which plugin run a program (`picollo emulate`, `picollo bench --emulate`).
#[derive(Args, Clone, Default)]
pub struct EmulatorPaths {
    /// The QEMU user-mode emulator to run (default: qemu-ARCH on PATH)
    #[arg(long, value_name = "PATH")]
    pub qemu: Option<PathBuf>,
    /// The plugin to load (default: the one this picollo carries; or $PICOLLO_QEMU_PLUGIN)
    #[arg(long, value_name = "PATH")]
    pub plugin: Option<PathBuf>,
}

#[derive(Args)]
pub struct EmulateArgs {
    /// Count loads and stores too
    #[arg(long)]
    pub memory: bool,
    /// Model an L1D cache and count its misses (default geometry 32768:8:64; implies
    /// --memory)
    #[arg(long, value_name = "BYTES:WAYS:LINE", num_args = 0..=1, default_missing_value = "")]
    pub l1d: Option<String>,
    #[command(flatten)]
    pub paths: EmulatorPaths,
    /// Also write the run's counts to FILE as JSON
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Keep address-space randomization (counts may then vary between runs)
    #[arg(long)]
    pub randomize: bool,
    /// Print no totals at the end
    #[arg(short, long)]
    pub quiet: bool,
    /// The program and its arguments
    #[arg(last = true, value_name = "PROGRAM", required = true)]
    pub command: Vec<String>,
}

impl EmulateArgs {
    fn counted(&self) -> Counted {
        match (&self.l1d, self.memory) {
            (Some(g), _) if g.is_empty() => Counted::L1d(None),
            (Some(g), _) => Counted::L1d(Some(g.clone())),
            (None, true) => Counted::Memory,
            (None, false) => Counted::Instructions,
        }
    }
}

/// QEMU and the plugin, ready to run programs under.
pub struct Emulator {
    qemu: Option<PathBuf>,
    plugin: PathBuf,
    counted: Counted,
    randomize: bool,
}

/// The emulator's own failure (exit 8).
fn failed(message: impl Into<String>) -> Failure {
    Failure::emulator(message)
}

impl Emulator {
    /// The plugin given (it must exist), `$PICOLLO_QEMU_PLUGIN`, or the one this picollo
    /// carries, written out; QEMU as given, or found per program.
    pub fn new(counted: Counted, paths: EmulatorPaths) -> Result<Self, Failure> {
        let EmulatorPaths { qemu, plugin } = paths;
        if let Some(q) = qemu
            .as_ref()
            .filter(|q| q.to_string_lossy().ends_with("-static"))
        {
            return Err(failed(format!(
                "{}: a static QEMU cannot load plugins; use qemu-user's (Debian: apt-get \
                 install qemu-user)",
                q.display()
            )));
        }
        let given = plugin.or_else(|| std::env::var_os("PICOLLO_QEMU_PLUGIN").map(PathBuf::from));
        let plugin = match given {
            Some(p) if p.is_file() => p,
            Some(p) => {
                return Err(failed(format!(
                    "the QEMU plugin {} does not exist",
                    p.display()
                )))
            }
            None => install_qemu_plugin().map_err(|e| failed(format!("the QEMU plugin: {e}")))?,
        };
        Ok(Emulator {
            qemu,
            plugin,
            counted,
            randomize: false,
        })
    }

    /// What it counts.
    pub fn counted(&self) -> &Counted {
        &self.counted
    }

    /// The command line that runs `words` under QEMU with the plugin, which writes the
    /// run's totals to `totals` at the end.
    pub fn command_line(&self, words: &[String], totals: &Path) -> Result<Vec<String>, Failure> {
        let (program, interpreter) = resolve(&words[0])?;
        self.line(&program, interpreter, &program, &words[1..], totals)
    }

    /// [`command_line`](Self::command_line), a program named by its path started as `link`
    /// (`picollo bench --emulate`'s link to it): the line, and the program's own path, where
    /// the link must point when the line runs (for a script, the script's; its interpreter
    /// runs as its `#!` line names it). A program named alone starts from where PATH finds
    /// it, as from a shell (`None`): the same file and path for every command, and a
    /// virtual environment's `python` still finds its environment beside it.
    pub fn staged_line(
        &self,
        words: &[String],
        totals: &Path,
        link: &Path,
    ) -> Result<(Vec<String>, Option<PathBuf>), Failure> {
        let (program, interpreter) = resolve(&words[0])?;
        if !words[0].contains('/') {
            let line = self.line(&program, interpreter, &program, &words[1..], totals)?;
            return Ok((line, None));
        }
        let own = std::fs::canonicalize(&program)
            .map_err(|e| failed(format!("{}: {e}", program.display())))?;
        let line = self.line(&program, interpreter, link, &words[1..], totals)?;
        Ok((line, Some(own)))
    }

    /// QEMU with the plugin, then the interpreter's words (for a script), `started_as` (the
    /// program, or a link to it) and `rest`.
    fn line(
        &self,
        program: &Path,
        interpreter: Option<Vec<PathBuf>>,
        started_as: &Path,
        rest: &[String],
        totals: &Path,
    ) -> Result<Vec<String>, Failure> {
        let target = match &interpreter {
            Some(i) => &i[0],
            None => program,
        };
        let qemu = match &self.qemu {
            Some(q) => q.clone(),
            None => qemu_for(target)?,
        };
        let mut args = self.counted.plugin_args();
        args.push(format!("totals={}", totals.display()));
        let mut line = vec![qemu.to_string_lossy().into_owned()];
        line.push("-plugin".into());
        line.push(format!("{},{}", self.plugin.display(), args.join(",")));
        if let Some(i) = interpreter {
            line.extend(i.iter().map(|p| p.to_string_lossy().into_owned()));
        }
        line.push(started_as.to_string_lossy().into_owned());
        line.extend(rest.iter().cloned());
        Ok(line)
    }
}

/// `name` as a path: as given when it holds a slash, else found on PATH; and the `#!`
/// interpreter (with its one argument) when it is a script.
fn resolve(name: &str) -> Result<(PathBuf, Option<Vec<PathBuf>>), Failure> {
    let path = match name.contains('/') {
        true => PathBuf::from(name),
        false => on_path(name).ok_or_else(|| failed(format!("{name}: not found on PATH")))?,
    };
    let mut head = [0u8; 256];
    let n = std::fs::File::open(&path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    let Some(line) = head[..n].strip_prefix(b"#!") else {
        return Ok((path, None));
    };
    let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
    let mut words: Vec<PathBuf> = String::from_utf8_lossy(line)
        .split_whitespace()
        .map(PathBuf::from)
        .collect();
    // `#!/usr/bin/env NAME`: env would exec NAME natively; run NAME from PATH instead.
    if words.len() == 2 && words[0].file_name().is_some_and(|n| n == "env") {
        let name = words[1].to_string_lossy().into_owned();
        let found = on_path(&name).ok_or_else(|| {
            failed(format!(
                "{}: its interpreter {name} is not on PATH",
                path.display()
            ))
        })?;
        words = vec![found];
    }
    match words.first() {
        Some(_) => Ok((path, Some(words))),
        None => Err(failed(format!("{}: an empty #! line", path.display()))),
    }
}

/// The first executable file `name` in a directory of PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The user-mode QEMU for `program`'s architecture (its ELF header's machine), on PATH.
fn qemu_for(program: &Path) -> Result<PathBuf, Failure> {
    let mut header = [0u8; 20];
    let n = std::fs::File::open(program)
        .and_then(|mut f| f.read(&mut header))
        .map_err(|e| failed(format!("{}: {e}", program.display())))?;
    if n < header.len() || &header[..4] != b"\x7fELF" {
        return Err(failed(format!(
            "{}: not an ELF program: QEMU runs ELF programs, and what a wrapper script execs \
             would run natively, uncounted (give the program's own path, e.g. /usr/bin/python3)",
            program.display()
        )));
    }
    let machine = u16::from_le_bytes([header[18], header[19]]);
    let arch = match machine {
        0x3e => "x86_64",
        0xb7 => "aarch64",
        other => {
            return Err(failed(format!(
                "{}: ELF machine {other:#x}: picollo emulate runs x86-64 and aarch64 programs",
                program.display()
            )))
        }
    };
    let name = format!("qemu-{arch}");
    on_path(&name).ok_or_else(|| {
        let static_only = on_path(&format!("{name}-static")).is_some();
        let hint = match static_only {
            true => format!(" ({name}-static is there, but a static QEMU cannot load plugins)"),
            false => String::new(),
        };
        failed(format!(
            "{name} not found on PATH{hint}: install QEMU's user mode (Debian: apt-get install \
             qemu-user) or pass --qemu"
        ))
    })
}

/// The counts the plugin wrote to `path` at the run's end.
pub fn read_totals(path: &Path) -> Result<EmulatedCounts, Failure> {
    let bytes = std::fs::read(path).map_err(|e| {
        failed(format!(
            "the plugin wrote no counts ({}: {e}): QEMU did not load it, or the program was killed",
            path.display()
        ))
    })?;
    EmulatedCounts::from_record(&bytes).map_err(|e| failed(format!("{}: {e}", path.display())))
}

/// `picollo emulate`: run the program, print its counts; its exit status.
pub fn run(args: &EmulateArgs) -> Result<i32, Failure> {
    let mut emulator = Emulator::new(args.counted(), args.paths.clone())?;
    emulator.randomize = args.randomize;
    let dir = std::env::temp_dir();
    let totals = dir.join(format!("picollo-emulate-{}.counts", std::process::id()));
    let line = emulator.command_line(&args.command, &totals)?;
    let mut command = Command::new(&line[0]);
    command.args(&line[1..]);
    if !emulator.randomize {
        fixed_addresses(&mut command);
    }
    let status = command
        .status()
        .map_err(|e| failed(format!("{}: {e}", line[0])))?;
    let code = status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    let counts = read_totals(&totals);
    let _ = std::fs::remove_file(&totals);
    let counts = counts?;
    if !args.quiet {
        eprintln!("picollo emulate: {}", summary(&counts, emulator.counted()));
    }
    if let Some(path) = &args.json {
        std::fs::write(path, json(&counts, emulator.counted()))
            .map_err(|e| Failure::io(&path.display().to_string(), &e))?;
    }
    Ok(code)
}

/// Address-space randomization off in the child (`setarch -R`): the guest's layout, and
/// with it every address-dependent path, repeats.
fn fixed_addresses(command: &mut Command) {
    // SAFETY: personality is one async-signal-safe system call on the child's own state.
    unsafe {
        command.pre_exec(|| {
            libc::personality(libc::ADDR_NO_RANDOMIZE as libc::c_ulong);
            Ok(())
        });
    }
}

/// `1,234,567 instructions, 345,678 loads, 123,456 stores, 4,321 L1D misses (guest user
/// space, every thread, exact)`.
fn summary(c: &EmulatedCounts, counted: &Counted) -> String {
    let parts: Vec<String> = counted
        .events()
        .into_iter()
        .filter_map(|e| Some(format!("{} {}", grouped(c.get(e)?), noun(e))))
        .collect();
    format!(
        "{} (guest user space, every thread, exact)",
        parts.join(", ")
    )
}

/// What a count of `e` counts, in the plural.
fn noun(e: EmulatedEvent) -> &'static str {
    match e {
        EmulatedEvent::Instructions => "instructions",
        EmulatedEvent::Loads => "loads",
        EmulatedEvent::Stores => "stores",
        EmulatedEvent::L1DMisses => "L1D misses",
    }
}

/// `1234567` as `1,234,567`.
fn grouped(v: u64) -> String {
    picollo::GroupedF64(v as f64, 0).to_string()
}

/// The totals `--json` writes: each counted event's count under its metric's name, then
/// the modelled cache where there was one.
#[derive(Serialize)]
struct Totals {
    #[serde(
        rename = "Emulated:Instructions",
        skip_serializing_if = "Option::is_none"
    )]
    instructions: Option<u64>,
    #[serde(rename = "Emulated:Loads", skip_serializing_if = "Option::is_none")]
    loads: Option<u64>,
    #[serde(rename = "Emulated:Stores", skip_serializing_if = "Option::is_none")]
    stores: Option<u64>,
    #[serde(rename = "Emulated:L1DMisses", skip_serializing_if = "Option::is_none")]
    l1d_misses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l1d: Option<Cache>,
}

/// The modelled L1D: its size and line in bytes, its ways.
#[derive(Serialize)]
struct Cache {
    bytes: u64,
    ways: u64,
    line: u64,
}

/// The totals of `c` for the events of `counted`.
fn totals(c: &EmulatedCounts, counted: &Counted) -> Totals {
    let events = counted.events();
    let count = |e: EmulatedEvent| c.get(e).filter(|_| events.contains(&e));
    Totals {
        instructions: count(EmulatedEvent::Instructions),
        loads: count(EmulatedEvent::Loads),
        stores: count(EmulatedEvent::Stores),
        l1d_misses: count(EmulatedEvent::L1DMisses),
        l1d: c.l1d.map(|m| Cache {
            bytes: m.bytes,
            ways: m.ways,
            line: m.line,
        }),
    }
}

/// `{"Emulated:Instructions": N, …, "l1d": {"bytes": B, "ways": W, "line": L}}` and a
/// newline ([`Totals`]).
fn json(c: &EmulatedCounts, counted: &Counted) -> String {
    let text = serde_json::to_string(&totals(c, counted)).expect("totals have no map");
    text + "\n"
}

#[cfg(test)]
mod tests {
    use picollo_perf::{L1dModel, ALL_THREADS};

    use super::*;

    /// Counts of a whole run, with loads and stores, misses and the cache where `l1d`.
    fn counts(l1d: bool) -> EmulatedCounts {
        EmulatedCounts {
            thread: ALL_THREADS,
            instructions: 1_234_567,
            memory: Some((345_678, 123_456)),
            l1d_misses: l1d.then_some(4_321),
            l1d: l1d.then_some(L1dModel {
                bytes: 32_768,
                ways: 8,
                line: 64,
            }),
        }
    }

    #[test]
    fn each_count_is_written_under_its_events_name_in_report_order() {
        let c = EmulatedCounts {
            l1d: None,
            ..counts(true)
        };
        let counted = Counted::L1d(None);
        assert_eq!(counted.events(), EmulatedEvent::ALL);
        let members: Vec<String> = EmulatedEvent::ALL
            .iter()
            .map(|&e| {
                format!(
                    "\"{}\":{}",
                    picollo_perf::Event::Emulated(e),
                    c.get(e).unwrap()
                )
            })
            .collect();
        assert_eq!(json(&c, &counted), format!("{{{}}}\n", members.join(",")));
    }

    #[test]
    fn the_json_names_each_counted_event_as_its_metric_and_the_cache_last() {
        assert_eq!(
            json(&counts(false), &Counted::Instructions),
            "{\"Emulated:Instructions\":1234567}\n"
        );
        assert_eq!(
            json(&counts(false), &Counted::Memory),
            "{\"Emulated:Instructions\":1234567,\"Emulated:Loads\":345678,\
             \"Emulated:Stores\":123456}\n"
        );
        assert_eq!(
            json(&counts(true), &Counted::L1d(None)),
            "{\"Emulated:Instructions\":1234567,\"Emulated:Loads\":345678,\
             \"Emulated:Stores\":123456,\"Emulated:L1DMisses\":4321,\
             \"l1d\":{\"bytes\":32768,\"ways\":8,\"line\":64}}\n"
        );
        // The cache is written where the counts have it, whatever was asked.
        let text = json(&counts(true), &Counted::Instructions);
        assert_eq!(
            text,
            "{\"Emulated:Instructions\":1234567,\"l1d\":{\"bytes\":32768,\"ways\":8,\"line\":64}}\n"
        );
    }
}
