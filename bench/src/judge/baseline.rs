//! A baseline: a saved document read back for a gate, whoever saved it. `picollo bench
//! --save` keeps commands (matched by their order), a suite's `--save NAME` benchmarks
//! (matched by their names); both read here, with the same checks, into the same
//! [`Saved`] benchmarks.

use std::string::String;
use std::vec::Vec;

use super::saved::{Saved, SavedRounds};
use crate::model::document::{Document, Emulated};

/// One saved benchmark of a baseline: its name, its command where a command was saved, and
/// what a gate reads of it.
#[derive(Clone, Debug)]
pub struct SavedEntry {
    /// The benchmark's name (a command's result is named for its command or `--name`).
    pub name: String,
    /// The command it ran (`picollo bench`'s), `None` for a function's.
    pub command: Option<String>,
    /// Its result and runs apart.
    pub saved: Saved,
}

impl core::ops::Deref for SavedEntry {
    type Target = Saved;

    fn deref(&self) -> &Saved {
        &self.saved
    }
}

/// A saved document as a gate reads it: its benchmarks in order, the builds a side they
/// were saved with (`--builds`; 1 in a file saved without) and, for emulated commands, how
/// their programs started.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// Each saved benchmark, in the document's order.
    pub entries: Vec<SavedEntry>,
    /// The builds of a side: consecutive entries of one side, each saved in as many runs
    /// apart.
    pub builds: usize,
    /// How emulated programs started (`None`: not recorded).
    pub emulated: Option<Emulated>,
}

impl Baseline {
    /// The baseline `document` (read from `source`, which labels its results: `name
    /// [source]`), each result rebuilt where `threshold` is given ([`Saved::read`]), its
    /// rounds as `rounds` requires.
    pub fn of(
        document: &Document,
        source: &str,
        threshold: Option<f64>,
        rounds: SavedRounds,
    ) -> Result<Baseline, String> {
        let each = document.commands.iter().map(|c| {
            let command = c.members.command.clone();
            let label = std::format!("{} [{source}]", command.as_deref().unwrap_or(&c.name));
            let saved = Saved::read(&label, c, threshold, rounds);
            let saved = saved.map_err(|why| std::format!("{}: {why}", c.name))?;
            let name = c.name.clone();
            Ok(SavedEntry {
                name,
                command,
                saved,
            })
        });
        let entries: Vec<SavedEntry> = each.collect::<Result<_, String>>()?;
        let builds = whole_sides(document.builds, entries.len())?;
        even_runs(&entries, builds)?;
        let emulated = document.emulated.clone();
        Ok(Baseline {
            entries,
            builds,
            emulated,
        })
    }

    /// The saved benchmark named `name`.
    pub fn named(&self, name: &str) -> Option<&Saved> {
        let entry = self.entries.iter().find(|e| e.name == name);
        entry.map(|e| &e.saved)
    }
}

/// The builds a side `builds` says (1 where it says nothing), where they split `n`
/// entries into whole sides.
fn whole_sides(builds: Option<u64>, n: usize) -> Result<usize, String> {
    match builds.unwrap_or(1) {
        k if k >= 1 && n % k as usize == 0 => Ok(k as usize),
        k => Err(std::format!(
            "\"builds\" is {k}, which does not split its {n} commands into sides"
        )),
    }
}

/// Every build of a side was saved in as many runs apart (`--append` adds one to each).
fn even_runs(entries: &[SavedEntry], k: usize) -> Result<(), String> {
    for (s, side) in entries.chunks(k).enumerate() {
        let runs: Vec<usize> = side.iter().map(|c| c.runs_apart.len()).collect();
        if runs.iter().any(|&n| n != runs[0]) {
            return Err(std::format!(
                "the builds of side {} hold {runs:?} runs apart: every build of a side is \
                 saved in the same runs",
                s + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::{EntryRecord, Figure, Members};

    /// A document of entries `(name, runs apart of time)`, `builds` a side.
    fn document(entries: &[(&str, &[f64])], builds: Option<u64>) -> Document {
        let entry = |&(name, runs): &(&str, &[f64])| EntryRecord {
            name: name.into(),
            members: Members {
                runs_apart: Some(runs.iter().map(|&v| Some(Figure(v))).collect()),
                ..Members::default()
            },
            result: None,
        };
        let mut d = Document::new(std::vec::Vec::new(), std::vec::Vec::new());
        d.commands = entries.iter().map(entry).collect();
        d.builds = builds;
        d
    }

    #[test]
    fn a_baseline_finds_each_benchmark_by_name_with_its_runs_apart() {
        let d = document(&[("sum", &[10.0, 12.0]), ("spin", &[3.0, 4.0])], None);
        let b = Baseline::of(&d, "saved b.json", None, SavedRounds::Medians).unwrap();
        assert_eq!(b.builds, 1);
        assert_eq!(b.named("spin").unwrap().runs_apart, [3.0, 4.0]);
        assert_eq!(b.entries[0].name, "sum");
        assert!(b.named("other").is_none());
    }

    #[test]
    fn builds_that_do_not_split_the_entries_are_refused() {
        let d = document(&[("a", &[1.0]), ("b", &[1.0]), ("c", &[1.0])], Some(2));
        let e = Baseline::of(&d, "f.json", None, SavedRounds::OneRun).unwrap_err();
        assert!(e.contains("\"builds\" is 2"), "{e}");
        let d = document(&[("a", &[1.0])], Some(0));
        assert!(Baseline::of(&d, "f.json", None, SavedRounds::OneRun).is_err());
    }

    #[test]
    fn the_builds_of_a_side_must_hold_as_many_runs_apart() {
        let d = document(&[("a", &[1.0, 2.0]), ("b", &[1.0])], Some(2));
        let e = Baseline::of(&d, "f.json", None, SavedRounds::OneRun).unwrap_err();
        assert!(e.contains("side 1 hold [2, 1] runs apart"), "{e}");
        let d = document(&[("a", &[1.0, 2.0]), ("b", &[1.0, 3.0])], Some(2));
        assert_eq!(
            Baseline::of(&d, "f.json", None, SavedRounds::OneRun)
                .unwrap()
                .builds,
            2
        );
    }

    #[test]
    fn a_bad_entry_is_named() {
        let d = document(&[("a", &[1.0]), ("bad", &[-1.0])], None);
        let e = Baseline::of(&d, "f.json", None, SavedRounds::Medians).unwrap_err();
        assert!(e.starts_with("bad: \"runsApart\" holds -1"), "{e}");
    }
}
