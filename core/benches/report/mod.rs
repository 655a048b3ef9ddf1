//! The closing summary of `cargo bench --workspace`: each bench prints its last line (or
//! lines) through [`report`], which also keeps them under `bench-lines/` beside the bench
//! binaries, marked with the `cargo bench` run they belong to; the `summary` bench of
//! `picollo-ffi`, the last one cargo runs, prints this run's lines together, ending with
//! `bench values:`. Shared by both packages' benches.

use std::path::PathBuf;

/// Where the lines are kept: `target/<profile>/bench-lines/` (the bench binaries live in
/// `target/<profile>/deps/`).
#[allow(dead_code)]
pub fn lines_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.join("bench-lines"))
}

/// The `cargo bench` run a bench belongs to: the process that started it.
#[allow(dead_code)]
pub fn run_id() -> u32 {
    #[cfg(unix)]
    {
        std::os::unix::process::parent_id()
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// Print `line` (`bench <name>: …`) and keep it for the summary (a failure to keep it
/// only leaves it out of the summary).
#[allow(dead_code)]
pub fn report(line: &str) {
    println!("{line}");
    let Some(dir) = lines_dir() else {
        return;
    };
    let name = line
        .strip_prefix("bench ")
        .and_then(|rest| rest.split(':').next())
        .unwrap_or("other")
        .replace(' ', "_");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(name), format!("{}\n{line}\n", run_id()));
}
