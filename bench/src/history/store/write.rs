//! A run file added whole and never overwritten: written to a hidden temporary name, flushed
//! to disk, then linked to a name of its own that no other writer takes (`link(2)` fails
//! where the name is taken, where `rename(2)` would replace the file).

use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::string::String;

use super::{format_time, RunKey, StoreError};

/// The longest part of a file name a machine's name gives.
const MACHINE_CHARS: usize = 32;
/// How many names a writer tries before it gives up (each of 64 random bits: a second try
/// is already a sign that something else is wrong).
const TRIES: usize = 8;

/// The start of a run's file name: its time (compact, UTC), its commit's first 12 digits
/// and its machine's name as letters, digits and `-`; sorted by name, a store lists its runs
/// in time order.
pub fn stem(key: &RunKey, seconds: i64) -> String {
    let time: String = format_time(seconds)
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .collect();
    let commit: String = key.commit.chars().take(12).collect();
    let machine = key
        .machine
        .name
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_lowercase(),
            false => '-',
        });
    let machine: String = machine.take(MACHINE_CHARS).collect();
    std::format!("{time}-{commit}-{machine}")
}

/// 64 bits no other writer draws: the process's random hash keys (std draws them from the
/// operating system) over its id, the clock's nanoseconds and a count of calls.
fn random() -> u64 {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    h.write_u128(now.map_or(0, |d| d.as_nanos()));
    h.write_u64(CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.finish()
}

/// Add `bytes` to `dir` as `STEM-RANDOM.json`: its path.
pub fn add_file(dir: &Path, stem: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    for _ in 0..TRIES {
        let name = std::format!("{stem}-{:016x}.json", random());
        let temp = dir.join(std::format!(".{name}.tmp"));
        write_new(&temp, bytes)?;
        let path = dir.join(&name);
        let linked = std::fs::hard_link(&temp, &path);
        let _ = std::fs::remove_file(&temp);
        match linked {
            Ok(()) => {
                // The new name itself made durable: the folder's entry flushed too.
                let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(StoreError::Io(path, e)),
        }
    }
    let why = std::format!(
        "{}: no free name for a run after {TRIES} tries",
        dir.display()
    );
    Err(StoreError::Invalid(why))
}

/// `bytes` written to a new file at `path`, flushed to disk.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let io = |e| StoreError::Io(path.to_path_buf(), e);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)
}
