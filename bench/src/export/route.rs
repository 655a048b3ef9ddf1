//! Where a suite's files go in CI: each format to its path, the Markdown summary to its
//! path and appended to the file of a GitHub Actions step's summary (`$GITHUB_STEP_SUMMARY`).
//! `picollo bench` and the suites of `picollo_bench::suite` route their outputs here, once.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use super::{Findings, ResultFormat};
use crate::error::BenchError;

/// The variable that names the file of a GitHub Actions step's summary.
pub const STEP_SUMMARY: &str = "GITHUB_STEP_SUMMARY";

/// The file `GITHUB_STEP_SUMMARY` names, where it names one.
pub fn step_summary() -> Option<PathBuf> {
    std::env::var_os(STEP_SUMMARY)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

/// Why an output could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// A file (or stdout) that could not be created or written: what it is (its path,
    /// `<stdout>`, or `GITHUB_STEP_SUMMARY (PATH)`), and why.
    Io(String, std::io::Error),
    /// A format or the summary could not be written out of the findings.
    Format(BenchError),
}

impl core::fmt::Display for OutputError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            OutputError::Io(what, e) => write!(f, "{what}: {e}"),
            OutputError::Format(e) => write!(f, "writing: {e}"),
        }
    }
}

impl std::error::Error for OutputError {}

/// `text` to the file at `path`, or to stdout where `path` is `-` (a reader that stopped
/// reading, a closed pipe, is no error).
pub fn emit(text: &[u8], path: &Path) -> Result<(), OutputError> {
    if path != Path::new("-") {
        return std::fs::write(path, text).map_err(|e| io(path, e));
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| OutputError::Io("<stdout>".into(), e)),
    }
}

fn io(path: &Path, e: std::io::Error) -> OutputError {
    OutputError::Io(path.display().to_string(), e)
}

/// `text` appended to the step summary's file at `path` (made where missing).
fn append_step(path: &Path, text: &str) -> Result<(), OutputError> {
    let open = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    let what = || std::format!("{STEP_SUMMARY} ({})", path.display());
    open.and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| OutputError::Io(what(), e))
}

/// Where a suite's outputs go.
#[derive(Clone, Default)]
pub struct Outputs {
    /// Each format, and the file it goes to (`-`: stdout).
    pub exports: Vec<(&'static dyn ResultFormat, PathBuf)>,
    /// The file of the Markdown summary (`-`: stdout).
    pub summary: Option<PathBuf>,
    /// The file the summary is appended to as well: the step summary's ([`step_summary`]).
    pub step: Option<PathBuf>,
}

impl Outputs {
    /// Refuse, before a run, an output that cannot be written: each export's file and the
    /// summary's are created (emptied), the step summary's is opened to append (kept).
    pub fn check(&self) -> Result<(), OutputError> {
        let paths = self.exports.iter().map(|(_, p)| p).chain(&self.summary);
        for path in paths.filter(|p| *p != Path::new("-")) {
            std::fs::File::create(path).map_err(|e| io(path, e))?;
        }
        match &self.step {
            Some(path) => append_step(path, ""),
            None => Ok(()),
        }
    }

    /// Every export of `findings`, each to its file, then its summary to its file and appended
    /// to the step summary's (written only where one of them is asked for).
    pub fn write(&self, findings: &Findings<'_>) -> Result<(), OutputError> {
        for (format, path) in &self.exports {
            let text = findings.to_text(*format).map_err(OutputError::Format)?;
            emit(text.as_bytes(), path)?;
        }
        if self.summary.is_none() && self.step.is_none() {
            return Ok(());
        }
        let mut text = String::new();
        findings
            .write_summary(&mut text)
            .map_err(|e| OutputError::Format(e.into()))?;
        if let Some(path) = &self.summary {
            emit(text.as_bytes(), path)?;
        }
        match &self.step {
            Some(path) => append_step(path, &text),
            None => Ok(()),
        }
    }
}
