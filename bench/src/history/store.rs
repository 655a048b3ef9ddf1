//! A store of runs: each run's document ([`Document`], what `--save`, `--json` and
//! `--export picollo=FILE` write), kept with its key (the commit it measured, when, on
//! which machine, on which branch) as one file of its own under `DIR/runs/`. Files are only
//! ever added, each under a name no other writer can take (its time, commit, machine and 64
//! random bits), written whole to a hidden temporary name and then linked to its own, so
//! that two writers at once, or two CI runners whose stores a git branch joins, never touch
//! one file. `docs/history.md` describes the format.
//!
//! Reading parses every file; one that is not a run of this format (truncated, of a later
//! version, not JSON) is reported by path and reason ([`Skipped`]) and the others are read.

pub mod export;
mod git;
mod heads;
mod time;
mod write;

use std::fmt;
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::model::Document;

pub use git::{commit_order, Git};
pub use heads::heads;
pub use time::{format as format_time, now, parse as parse_time};

/// What a run file's `format` member holds.
pub const STORE_FORMAT: &str = "picollo-history";
/// Its `version`: a reader refuses a later one it does not know.
pub const STORE_VERSION: u32 = 1;
/// The folder of a store that holds its run files.
pub const RUNS: &str = "runs";

/// What a run is kept under: the commit it measured, when, where and on which branch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunKey {
    /// The commit, in lower-case hexadecimal (a full id where git knew it).
    pub commit: String,
    /// Its parents, where git knew them when the run was added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// When it ran, RFC 3339 in UTC (`2026-11-29T05:30:00Z`).
    pub time: String,
    /// The machine it ran on.
    pub machine: Machine,
    /// The branch it ran on, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
}

/// The machine a run measured on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Its name: a label given (a CI runner's kind), else its host name.
    pub name: String,
    /// Its CPU, as /proc/cpuinfo names it.
    pub cpu: String,
    /// Its logical CPUs.
    pub cores: u64,
}

/// A run read back from a store.
#[derive(Clone, Debug)]
pub struct StoredRun {
    /// Its name in the store: its file's name without `.json`.
    pub id: String,
    /// Its file.
    pub path: PathBuf,
    /// Its key.
    pub key: RunKey,
    /// Its time, in seconds since the Unix epoch.
    pub seconds: i64,
    /// Its document.
    pub document: Document,
}

/// A file of the store that is not read as a run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its path.
    pub path: PathBuf,
    /// Why it was skipped.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: skipped: {}", self.path.display(), self.reason)
    }
}

/// What goes wrong with a store.
#[derive(Debug)]
pub enum StoreError {
    /// A file or folder could not be read or written.
    Io(PathBuf, std::io::Error),
    /// What was given is not what a run needs (a key's member, a document).
    Invalid(String),
    /// git could not answer (not a repository, an unknown revision).
    Git(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            StoreError::Invalid(why) | StoreError::Git(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for StoreError {}

/// A run file: the format's name and version, the key, the document.
#[derive(Serialize)]
struct Envelope<'a> {
    format: &'a str,
    version: u32,
    key: &'a RunKey,
    document: &'a Document,
}

/// A run file as read: the document held raw, to be read by [`Document::read`] with its own
/// checks.
#[derive(Deserialize)]
struct Read {
    key: RunKey,
    document: Box<RawValue>,
}

/// A store: a folder of run files.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The store in `dir`, which must be a folder (an empty one is a store of no runs).
    pub fn open(dir: impl AsRef<Path>) -> Result<Store, StoreError> {
        let dir = dir.as_ref().to_path_buf();
        match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => Ok(Store { dir }),
            Ok(_) => Err(StoreError::Invalid(std::format!(
                "{}: not a folder: a store is a folder of runs",
                dir.display()
            ))),
            Err(e) => Err(StoreError::Io(dir, e)),
        }
    }

    /// The store in `dir`, made (with its parents) where it is not yet.
    pub fn create(dir: impl AsRef<Path>) -> Result<Store, StoreError> {
        let dir = dir.as_ref();
        let runs = dir.join(RUNS);
        std::fs::create_dir_all(&runs).map_err(|e| StoreError::Io(runs, e))?;
        Store::open(dir)
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Add `document` under `key`: its new file's path. Refused where the key's commit is not
    /// hexadecimal, its time not RFC 3339, or its machine unnamed.
    pub fn add(&self, key: &RunKey, document: &Document) -> Result<PathBuf, StoreError> {
        let seconds = key.seconds()?;
        let envelope = Envelope {
            format: STORE_FORMAT,
            version: STORE_VERSION,
            key,
            document,
        };
        // Serializing these records cannot fail: every map key is a string.
        let text = serde_json::to_string(&envelope).unwrap_or_default() + "\n";
        let runs = self.dir.join(RUNS);
        std::fs::create_dir_all(&runs).map_err(|e| StoreError::Io(runs.clone(), e))?;
        write::add_file(&runs, &write::stem(key, seconds), text.as_bytes())
    }

    /// Every run, oldest first (by time, then by name), and every file skipped.
    pub fn runs(&self) -> Result<(Vec<StoredRun>, Vec<Skipped>), StoreError> {
        let (mut runs, skipped) = self.read_all()?;
        runs.sort_by(|a, b| (a.seconds, &a.id).cmp(&(b.seconds, &b.id)));
        Ok((runs, skipped))
    }

    /// The runs of the commits of `order` (oldest first, as [`commit_order`] lists them), in
    /// that order (a commit's runs by time); a run of another commit is skipped, saying so.
    pub fn runs_along(
        &self,
        order: &[String],
    ) -> Result<(Vec<StoredRun>, Vec<Skipped>), StoreError> {
        let (runs, mut skipped) = self.runs()?;
        let place: std::collections::HashMap<&str, usize> = order
            .iter()
            .enumerate()
            .map(|(i, c)| (c.as_str(), i))
            .collect();
        let mut placed = Vec::new();
        for run in runs {
            match place_of(&place, order, &run.key.commit) {
                Some(i) => placed.push((i, run)),
                None => skipped.push(Skipped {
                    reason: std::format!(
                        "commit {} is not in the history it is ordered along",
                        run.key.commit
                    ),
                    path: run.path,
                }),
            }
        }
        // A stable sort: a commit's runs stay in time order.
        placed.sort_by_key(|(i, _)| *i);
        Ok((placed.into_iter().map(|(_, r)| r).collect(), skipped))
    }

    /// Every file of `runs/`, read: the runs in name order, and the files skipped.
    fn read_all(&self) -> Result<(Vec<StoredRun>, Vec<Skipped>), StoreError> {
        let runs_dir = self.dir.join(RUNS);
        let mut paths = Vec::new();
        match std::fs::read_dir(&runs_dir) {
            Ok(entries) => {
                for entry in entries {
                    let entry = entry.map_err(|e| StoreError::Io(runs_dir.clone(), e))?;
                    paths.push(entry.path());
                }
            }
            // A store no run was added to yet.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::Io(runs_dir, e)),
        }
        paths.sort();
        let (mut runs, mut skipped) = (Vec::new(), Vec::new());
        for path in paths {
            match read_run(&path) {
                Ok(Some(run)) => runs.push(run),
                Ok(None) => {}
                Err(reason) => skipped.push(Skipped { path, reason }),
            }
        }
        Ok((runs, skipped))
    }
}

/// The place in `order` of `commit`: its own, or, for a commit kept abbreviated, that of the
/// one full id it begins.
fn place_of(
    place: &std::collections::HashMap<&str, usize>,
    order: &[String],
    commit: &str,
) -> Option<usize> {
    if let Some(i) = place.get(commit) {
        return Some(*i);
    }
    let mut matching = order
        .iter()
        .enumerate()
        .filter(|(_, c)| c.starts_with(commit));
    let (i, _) = matching.next()?;
    matching.next().is_none().then_some(i)
}

/// The run in the file at `path`; `None` for a hidden file (a writer's temporary one); why
/// not, where it is not a run of this format.
fn read_run(path: &Path) -> Result<Option<StoredRun>, String> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    if name.starts_with('.') {
        return Ok(None);
    }
    let Some(id) = name.strip_suffix(".json") else {
        return Err("not a run file: its name does not end in .json".into());
    };
    let bytes = std::fs::read(path).map_err(|e| std::format!("cannot be read: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| String::from("not UTF-8 text"))?;
    let (key, document) = read_text(text)?;
    let seconds = key.seconds().map_err(|e| e.to_string())?;
    Ok(Some(StoredRun {
        id: id.into(),
        path: path.to_path_buf(),
        key,
        seconds,
        document,
    }))
}

/// The key and document a run file's `text` holds; why not, where it is not JSON, not of
/// this format, of a later version, or its document is not one.
pub fn read_text(text: &str) -> Result<(RunKey, Document), String> {
    #[derive(Deserialize)]
    struct Head {
        format: Option<String>,
        version: Option<u32>,
    }
    let head: Head = serde_json::from_str(text).map_err(|e| std::format!("not JSON: {e}"))?;
    if head.format.as_deref() != Some(STORE_FORMAT) {
        return Err(std::format!("not a {STORE_FORMAT} run file"));
    }
    match head.version {
        None => return Err("no version".into()),
        Some(v) if v > STORE_VERSION => {
            return Err(std::format!(
                "version {v}, later than this reader's {STORE_VERSION}"
            ));
        }
        Some(_) => {}
    }
    let read: Read = serde_json::from_str(text).map_err(|e| std::format!("{e}"))?;
    let document =
        Document::read(read.document.get()).map_err(|e| std::format!("its document: {e}"))?;
    Ok((read.key, document))
}

impl RunKey {
    /// Its time in seconds since the epoch; an error where its commit (or a parent) is not
    /// 4 to 64 lower-case hexadecimal digits, its time not RFC 3339, or its machine unnamed.
    pub fn seconds(&self) -> Result<i64, StoreError> {
        let hex = |c: &String| {
            (4..=64).contains(&c.len()) && c.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        let why = "is not a commit id (4 to 64 lower-case hexadecimal digits)";
        if !hex(&self.commit) {
            return Err(StoreError::Invalid(std::format!("{:?} {why}", self.commit)));
        }
        if let Some(p) = self.parents.iter().find(|p| !hex(p)) {
            return Err(StoreError::Invalid(std::format!("parent {p:?} {why}")));
        }
        if self.machine.name.trim().is_empty() {
            return Err(StoreError::Invalid("the machine has no name".into()));
        }
        parse_time(&self.time).map_err(StoreError::Invalid)
    }
}

impl Machine {
    /// This machine, named `name` (`None`: its host name).
    pub fn this(name: Option<&str>) -> Machine {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let host = Some(host.trim())
            .filter(|h| !h.is_empty())
            .unwrap_or("unknown");
        Machine {
            name: name.unwrap_or(host).into(),
            cpu: crate::measure::conditions::cpu_model(),
            cores: std::thread::available_parallelism().map_or(0, |n| n.get() as u64),
        }
    }
}
