//! Where `picollo bench --emulate` starts each command's program named by its path:
//! through one link, at one path for every command and every run, re-pointed at the
//! command's program before each of its runs (a program named alone starts from where PATH
//! finds it, the same for every command). The path a program starts from is its `argv[0]`
//! and the auxiliary vector's `AT_EXECFN`, strings that its start-up code walks and whose
//! lengths move everything below them on its stack: started from paths of other lengths,
//! one binary counts tens of instructions apart (`./app`, `../base/app`). The link's path
//! has one length in every process (the process id padded to ten digits), so that a run
//! saved from one checkout and a gate run from another start their programs alike.

use std::io;
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

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
