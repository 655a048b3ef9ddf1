//! Where `picollo bench --emulate` starts each command's program named by its path:
//! through one link, at one path for every command and every run, re-pointed at the
//! command's program before each of its runs (a program named alone starts from where PATH
//! finds it, the same for every command). The path a program starts from is its `argv[0]`
//! and the auxiliary vector's `AT_EXECFN`, strings that its start-up code walks and whose
//! lengths move everything below them on its stack: started from paths of other lengths,
//! one binary counts tens of instructions apart (`./app`, `../base/app`). The link's path
//! has one length in every process (the process id padded to ten digits), so that a run
//! saved from one checkout and a gate run from another start their programs alike.
//! What else the start-up sees that moves its count, the environment, is the user's: a
//! saved run records it ([`Start`]), so that a gate started in another environment says so.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use picollo_bench::model::document::Emulated;

use super::command::environment;
use crate::error::Failure;

/// The folder of this process's link, and the link (`program` in it).
pub struct Stage {
    dir: PathBuf,
    link: PathBuf,
}

impl Stage {
    /// The folder, made (a folder of a process of this id that ended without removing it is
    /// taken over). Fails when the temporary folder cannot hold it.
    pub fn new() -> Result<Stage, Failure> {
        let link = link_path();
        let dir = link
            .parent()
            .expect("the link lies in a folder")
            .to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|e| {
            Failure::emulator(format!(
                "{}: the folder the programs start from: {e}",
                dir.display()
            ))
        })?;
        Ok(Stage { dir, link })
    }

    /// The link every program starts as.
    pub fn link(&self) -> &Path {
        &self.link
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.link);
        let _ = std::fs::remove_file(self.link.with_extension("next"));
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// The link's path in this process: `program` in `picollo-emulate-NNNNNNNNNN` (the process
/// id, ten digits) in the temporary folder.
fn link_path() -> PathBuf {
    let dir = format!("picollo-emulate-{:010}", std::process::id());
    std::env::temp_dir().join(dir).join("program")
}

/// A command's program and the link it starts as.
pub struct Link {
    pub link: PathBuf,
    pub program: PathBuf,
}

impl Link {
    /// Point the link at the program: a new link renamed over the old one.
    pub fn point(&self) -> io::Result<()> {
        let next = self.link.with_extension("next");
        let _ = std::fs::remove_file(&next);
        std::os::unix::fs::symlink(&self.program, &next)?;
        std::fs::rename(&next, &self.link)
    }
}

/// What moves the count of a guest's start-up, as a saved run records it: the length of the
/// path the program starts from, and the environment's variables (how many, their bytes,
/// and a digest of their names and their values' lengths, in order; no value itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub path: usize,
    pub variables: usize,
    pub bytes: usize,
    pub digest: u64,
}

impl Start {
    /// This process's: its link, and the environment its runs get.
    pub fn here() -> Start {
        let link = link_path();
        Start::of(link.as_os_str(), &environment(Some(link.as_os_str())))
    }

    /// Of a program started as `path` with `env`.
    fn of(path: &OsStr, env: &[(std::ffi::OsString, std::ffi::OsString)]) -> Start {
        use std::os::unix::ffi::OsStrExt;
        // FNV-1a, 64 bits: a digest that moves with any name or length.
        let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                digest = (digest ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (name, value) in env {
            eat(name.as_bytes());
            eat(&(value.len() as u64).to_le_bytes());
        }
        let bytes = env.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
        Start {
            path: path.len(),
            variables: env.len(),
            bytes,
            digest,
        }
    }

    /// Its record in the document (`"emulated"`).
    pub fn record(&self) -> Emulated {
        Emulated {
            path: self.path as u64,
            variables: self.variables as u64,
            bytes: self.bytes as u64,
            digest: format!("{:016x}", self.digest),
        }
    }

    /// The start [`record`](Self::record) wrote; why not, where a count or the digest does
    /// not read.
    pub fn of_record(e: &Emulated) -> Result<Start, String> {
        let count = |n: u64| usize::try_from(n).map_err(|_| format!("\"emulated\" holds {n}"));
        let digest = u64::from_str_radix(&e.digest, 16);
        Ok(Start {
            path: count(e.path)?,
            variables: count(e.variables)?,
            bytes: count(e.bytes)?,
            digest: digest.map_err(|_| format!("\"emulated\" has no hexadecimal digest: {e:?}"))?,
        })
    }

    /// What differs in `now` from this (saved) start, in words; `None` when nothing does.
    pub fn differences(&self, now: &Start) -> Option<String> {
        let mut said = Vec::new();
        if self.path != now.path {
            said.push(format!(
                "the programs started from a path of {} bytes then and {} now (another \
                 temporary folder: TMPDIR)",
                self.path, now.path
            ));
        }
        let (then_size, now_size) = ((self.variables, self.bytes), (now.variables, now.bytes));
        if then_size != now_size {
            said.push(format!(
                "the environment held {} variables of {} bytes then and {} of {} now",
                self.variables, self.bytes, now.variables, now.bytes
            ));
        } else if self.digest != now.digest {
            said.push(format!(
                "the environment's variables had other names or lengths ({} of {} bytes then \
                 and now)",
                self.variables, self.bytes
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    #[test]
    fn a_start_differs_with_a_name_a_length_or_the_order_and_not_with_a_value_alone() {
        let path = OsStr::new("/tmp/picollo-emulate-0000000001/program");
        let base = Start::of(path, &env(&[("HOME", "/root"), ("PWD", "/a/b")]));
        let same_lengths = Start::of(path, &env(&[("HOME", "/home"), ("PWD", "/c/d")]));
        assert_eq!(base, same_lengths);
        let others = [
            env(&[("HOME", "/root"), ("PWD", "/a/bc")]),
            env(&[("HOME", "/root"), ("OLDPWD", "/a/b")]),
            env(&[("PWD", "/a/b"), ("HOME", "/root")]),
            env(&[("HOME", "/root")]),
        ];
        for other in others {
            let start = Start::of(path, &other);
            assert!(base.differences(&start).is_some(), "{other:?}");
        }
        let renamed = Start::of(path, &env(&[("HOME", "/root"), ("PWX", "/a/b")]));
        let said = base.differences(&renamed).expect("a name differs");
        assert!(
            said.contains("other names or lengths (2 of 20 bytes"),
            "{said}"
        );
        let longer = Start::of(OsStr::new("/var/tmp/x/program"), &env(&[]));
        let shorter = Start::of(OsStr::new("/tmp/x/program"), &env(&[]));
        let said = longer.differences(&shorter).expect("the paths differ");
        assert!(said.contains("18 bytes then and 14 now"), "{said}");
    }

    #[test]
    fn a_start_reads_back_what_it_wrote_and_refuses_a_record_without_its_counts() {
        let start = Start::of(OsStr::new("/p"), &env(&[("A", "1")]));
        let text = serde_json::to_string(&start.record()).unwrap();
        let back: Emulated = serde_json::from_str(&text).unwrap();
        assert_eq!(Start::of_record(&back), Ok(start));
        let partial = serde_json::from_str::<Emulated>("{\"path\":3,\"variables\":1}");
        let why = partial.unwrap_err().to_string();
        assert!(why.contains("missing field `bytes`"), "{why}");
        let odd = Emulated {
            digest: "xyz".into(),
            ..back
        };
        assert!(Start::of_record(&odd)
            .unwrap_err()
            .contains("no hexadecimal digest"));
    }

    #[test]
    fn the_link_points_at_each_program_in_turn_from_one_path() {
        let stage = Stage::new().unwrap();
        let link = |program: &str| Link {
            link: stage.link().to_path_buf(),
            program: PathBuf::from(program),
        };
        for program in ["/bin/true", "/usr/bin/env", "/bin/true"] {
            link(program).point().unwrap();
            assert_eq!(
                std::fs::read_link(stage.link()).unwrap(),
                Path::new(program)
            );
        }
        let dir = stage.dir.clone();
        drop(stage);
        assert!(!dir.exists(), "{} is removed", dir.display());
    }
}
