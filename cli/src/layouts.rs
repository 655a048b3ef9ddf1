//! `picollo layouts`: K builds of one source that differ only in code layout, for
//! `picollo bench --builds K`. The same objects are linked K times by a linker that shuffles
//! input sections with a seed (`ld.lld --shuffle-sections='*=SEED'`, or mold's
//! `--shuffle-sections=SEED`): with one section per function (`-ffunction-sections` in C;
//! Rust's default) each build places the functions in another order. A C link command is
//! run as given plus the linker and seed flags, once per seed; a Cargo target is built with
//! `cargo rustc ARGS -- -C link-arg=…` once per seed (only the final crate is compiled
//! again, from the same source with the same flags) and its executable copied.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Args, ValueEnum};
use serde_json::Value;

use crate::error::Failure;

/// `picollo layouts --help`'s notes.
pub const LAYOUTS_HELP: &str = "\
Examples:
  cc -O2 -ffunction-sections -c loop.c
  picollo layouts -k 6 -o base -- cc loop.o -o loop      # base/loop.1 … base/loop.6
  picollo layouts -k 6 -o head --cargo -- --release --bin spin
  picollo bench -N --builds 6 base/loop.* head/loop.*

  Without --cargo, the words after -- are a link command: it runs once per seed with its
  -o OUT replaced by DIR/NAME.N (NAME is OUT's file name, a.out without -o) and
  -fuse-ld=LINKER plus the linker's shuffle flag added. With --cargo they are arguments
  of `cargo rustc` (pass --release and the target, e.g. --bin NAME); the target's
  executable is copied to DIR/NAME.N. Seeds run from --seed to --seed + K − 1. The paths
  of the builds are printed, one a line; a note on stderr tells how many of them differ.
  With one section per function (C: -ffunction-sections; Rust by default) the functions
  themselves change places; without, only whole objects do. Exit status 2: the linker or
  cargo not found, a bad command; 6: a link or build failed (its status and output are
  passed on).";

/// The linkers that shuffle sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Linker {
    /// LLVM's lld (`ld.lld`, Debian's package lld)
    Lld,
    /// mold (Debian's package mold)
    Mold,
}

#[derive(Args)]
pub struct LayoutsArgs {
    /// How many builds
    #[arg(short, long = "builds", value_name = "K", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub k: u32,
    /// The directory the builds go to (created if needed)
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// The first seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// The linker that shuffles the sections
    #[arg(long, value_enum, default_value_t = Linker::Lld)]
    pub linker: Linker,
    /// The words after -- are arguments of `cargo rustc`, not a link command
    #[arg(long)]
    pub cargo: bool,
    /// The link command (or with --cargo, the arguments of `cargo rustc`)
    #[arg(last = true, value_name = "COMMAND", required = true)]
    pub command: Vec<String>,
}

impl Linker {
    /// The program that must be on PATH, and the flags that link with `seed`.
    fn flags(self, seed: u64) -> (&'static str, [String; 2]) {
        match self {
            Linker::Lld => (
                "ld.lld",
                [
                    "-fuse-ld=lld".into(),
                    format!("-Wl,--shuffle-sections=*={seed}"),
                ],
            ),
            Linker::Mold => (
                "mold",
                [
                    "-fuse-ld=mold".into(),
                    format!("-Wl,--shuffle-sections={seed}"),
                ],
            ),
        }
    }
}

/// Make the builds, print their paths, and say on stderr how many differ.
pub fn run(args: &LayoutsArgs) -> Result<(), Failure> {
    let (program, _) = args.linker.flags(0);
    if !on_path(program) {
        return Err(Failure::usage(format!(
            "{program} is not on PATH: --linker {} needs it (Debian: apt install {})",
            args.linker.name(),
            args.linker.name()
        )));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| Failure::io(&args.out.to_string_lossy(), &e))?;
    let seeds = args.seed..args.seed + u64::from(args.k);
    let builds: Vec<PathBuf> = seeds
        .map(|seed| match args.cargo {
            true => cargo_build(args, seed),
            false => link(args, seed),
        })
        .collect::<Result<_, _>>()?;
    let mut text = String::new();
    for b in &builds {
        text.push_str(&b.to_string_lossy());
        text.push('\n');
    }
    crate::emit(&text, None)?;
    eprintln!(
        "picollo layouts: {} builds, {} different",
        builds.len(),
        distinct(&builds)
    );
    Ok(())
}

impl Linker {
    /// `lld` or `mold`.
    fn name(self) -> &'static str {
        match self {
            Linker::Lld => "lld",
            Linker::Mold => "mold",
        }
    }
}

/// `program` is an executable file in some directory of PATH.
fn on_path(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
}

/// The link command with `-o DIR/NAME.SEED` for its `-o`, and the linker's flags.
fn link(args: &LayoutsArgs, seed: u64) -> Result<PathBuf, Failure> {
    let mut words = args.command.clone();
    let name = match words.iter().position(|w| w == "-o") {
        Some(i) if i + 1 < words.len() => {
            let out = words.remove(i + 1);
            words.remove(i);
            file_name(&out)
        }
        Some(_) => return Err(Failure::usage("the link command ends with -o and no file")),
        None => "a.out".to_string(),
    };
    let target = args.out.join(format!("{name}.{seed}"));
    let (_, flags) = args.linker.flags(seed);
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]).args(flags).arg("-o").arg(&target);
    run_build(&mut command, &words[0])?;
    Ok(target)
}

/// The file name of a path.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or("a.out".into(), |n| n.to_string_lossy().into_owned())
}

/// Run a link or build, passing its output on; a failure is exit status 6.
fn run_build(command: &mut Command, what: &str) -> Result<std::process::Output, Failure> {
    let output = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Failure::usage(format!("{what} cannot start: {e}")))?;
    if !output.status.success() {
        return Err(Failure::command(format!(
            "layouts: {what} failed ({}); the builds stop here",
            output.status
        )));
    }
    Ok(output)
}

/// `cargo rustc ARGS --message-format=json -- -C link-arg=…` for `seed`; its executable
/// copied to `DIR/NAME.SEED`.
fn cargo_build(args: &LayoutsArgs, seed: u64) -> Result<PathBuf, Failure> {
    let (_, flags) = args.linker.flags(seed);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .arg("rustc")
        .args(&args.command)
        .arg("--message-format=json-render-diagnostics")
        .arg("--");
    for flag in flags {
        command.arg("-C").arg(format!("link-arg={flag}"));
    }
    let output = run_build(&mut command, "cargo rustc")?;
    let built = executable(&output.stdout).ok_or_else(|| {
        Failure::usage("cargo rustc built no executable: name one target, e.g. --bin NAME")
    })?;
    let target = args.out.join(format!("{}.{seed}", file_name(&built)));
    std::fs::copy(&built, &target).map_err(|e| Failure::io(&target.to_string_lossy(), &e))?;
    Ok(target)
}

/// The last executable cargo's JSON messages name.
fn executable(messages: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(messages);
    let messages = text
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok());
    let mut paths = messages.filter_map(|v| v["executable"].as_str().map(str::to_string));
    paths.next()
}

/// How many of the files differ in content.
fn distinct(paths: &[PathBuf]) -> usize {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).unwrap_or_default();
        if !seen.contains(&bytes) {
            seen.push(bytes);
        }
    }
    seen.len()
}
