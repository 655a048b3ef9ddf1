//! What a worker measures a benchmark with: the part of a suite's plan both sides of a
//! comparison must share (the order of the rounds, their offsets and the threshold are the
//! suite's alone).

use std::string::String;
use std::time::Duration;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::measure::plan::Plan;

/// The shared settings, as `open` carries them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The most time the warm-up may take, in nanoseconds.
    pub warmup_ns: u64,
    /// The most samples.
    pub samples: u64,
    /// The most time the samples may take, in nanoseconds.
    pub budget_ns: u64,
    /// The batch asked for (`None`: each side's choice, then the suite's).
    pub batch: Option<u64>,
    /// The rounds asked for.
    pub rounds: Option<u64>,
    /// The histograms' relative error.
    pub relative_error: f64,
    /// The counters asked for, by name (`None`: the default set).
    #[serde(default)]
    pub counters: Option<Vec<String>>,
    /// How the counters are read: `auto`, `user` or `syscall`.
    #[serde(default = "auto")]
    pub read_path: String,
}

fn auto() -> String {
    "auto".into()
}

impl Settings {
    /// The settings of `plan`.
    pub(crate) fn of(plan: &Plan) -> Self {
        Settings {
            warmup_ns: plan.warmup.as_nanos() as u64,
            samples: plan.samples as u64,
            budget_ns: plan.budget.as_nanos() as u64,
            batch: plan.batch,
            rounds: plan.rounds.map(|r| r as u64),
            relative_error: plan.relative_error,
            counters: counter_names(plan),
            read_path: read_path_name(plan).into(),
        }
    }

    /// `plan` with these settings; why not, where a counter or the read path is unknown.
    pub(crate) fn apply(&self, plan: &mut Plan) -> Result<(), String> {
        plan.warmup = Duration::from_nanos(self.warmup_ns);
        plan.budget = Duration::from_nanos(self.budget_ns);
        plan.samples = usize::try_from(self.samples).unwrap_or(usize::MAX);
        plan.batch = self.batch;
        plan.rounds = self
            .rounds
            .map(|r| usize::try_from(r).unwrap_or(usize::MAX));
        plan.relative_error = self.relative_error;
        self.apply_counters(plan)
    }

    /// The counters and their read path.
    #[cfg(feature = "perf")]
    fn apply_counters(&self, plan: &mut Plan) -> Result<(), String> {
        use picollo_perf::{Event, ReadPolicy};
        let path = &self.read_path;
        plan.read_path =
            ReadPolicy::parse(path).ok_or_else(|| std::format!("read path {path:?}"))?;
        plan.counters = match &self.counters {
            None => None,
            Some(names) => {
                let each = names.iter().map(|name| {
                    Event::parse(name).map_err(|e| std::format!("counter {name:?}: {e}"))
                });
                Some(each.collect::<Result<Vec<Event>, String>>()?)
            }
        };
        Ok(())
    }

    /// Without feature `perf` a worker measures time alone, and says so where counters were
    /// asked for.
    #[cfg(not(feature = "perf"))]
    fn apply_counters(&self, _: &mut Plan) -> Result<(), String> {
        match &self.counters {
            Some(c) if !c.is_empty() => {
                Err("counters asked for: built without feature perf".into())
            }
            _ => Ok(()),
        }
    }
}

#[cfg(feature = "perf")]
fn counter_names(plan: &Plan) -> Option<Vec<String>> {
    use std::string::ToString;
    let names = plan.counters.as_ref()?.iter().map(|e| e.to_string());
    Some(names.collect())
}

#[cfg(not(feature = "perf"))]
fn counter_names(_: &Plan) -> Option<Vec<String>> {
    None
}

#[cfg(feature = "perf")]
fn read_path_name(plan: &Plan) -> &'static str {
    plan.read_path.name()
}

#[cfg(not(feature = "perf"))]
fn read_path_name(_: &Plan) -> &'static str {
    "auto"
}
