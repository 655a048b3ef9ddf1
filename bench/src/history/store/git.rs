//! What git knows of a run's commit: its full id, its parents, the branch checked out, and
//! the order of a history's commits.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::string::String;
use std::vec::Vec;

use super::StoreError;

/// git in a repository (or a folder inside one).
#[derive(Clone, Debug)]
pub struct Git {
    /// The folder git runs in.
    pub dir: PathBuf,
}

impl Git {
    /// git in `dir`.
    pub fn at(dir: impl AsRef<Path>) -> Git {
        Git {
            dir: dir.as_ref().to_path_buf(),
        }
    }

    /// What `git ARGS` prints, trimmed; an error with git's message where it fails.
    pub fn output(&self, args: &[&str]) -> Result<String, StoreError> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(args)
            .output()
            .map_err(|e| StoreError::Git(std::format!("git cannot run: {e}")))?;
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
            return Err(StoreError::Git(std::format!(
                "git {}: {why}",
                args.join(" ")
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// The full id of the commit `rev` names.
    pub fn commit(&self, rev: &str) -> Result<String, StoreError> {
        self.output(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &std::format!("{rev}^{{commit}}"),
        ])
        .and_then(|id| match id.is_empty() {
            true => Err(StoreError::Git(std::format!("git knows no commit {rev:?}"))),
            false => Ok(id),
        })
    }

    /// The parents of commit `id`.
    pub fn parents(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let line = self.output(&["rev-list", "--parents", "-n", "1", id])?;
        Ok(line.split_whitespace().skip(1).map(String::from).collect())
    }

    /// The branch checked out, where one is (not a detached HEAD).
    pub fn branch(&self) -> Option<String> {
        let name = self
            .output(&["symbolic-ref", "--short", "-q", "HEAD"])
            .ok()?;
        Some(name).filter(|n| !n.is_empty())
    }
}

/// The commits of `rev`'s history, oldest first, parents before children (`git rev-list
/// --topo-order --reverse`); only the first parent of each merge with `first_parent`.
pub fn commit_order(git: &Git, rev: &str, first_parent: bool) -> Result<Vec<String>, StoreError> {
    let mut args = std::vec!["rev-list", "--topo-order", "--reverse"];
    if first_parent {
        args.push("--first-parent");
    }
    args.extend([rev, "--"]);
    let list = git.output(&args)?;
    Ok(list.lines().map(String::from).collect())
}
