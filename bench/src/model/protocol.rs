//! What a suite says to a worker and back: one JSON object a line. A [`Request`] is a line
//! on the worker's standard input; an [`Answer`] is a line on its standard output that
//! starts with [`TAG`], so that whatever else the benchmarks print there is told apart (and
//! passed on). Each request names its kind in `op`, each reply in `reply`; a request the
//! worker cannot carry out is answered `{"error": why}`. `tests/golden/protocol.jsonl`
//! holds the text of every message.
//!
//! | request | reply |
//! |---|---|
//! | [`Request::Hello`] | [`Reply::Hello`]: the protocol, the suite, its benchmarks |
//! | [`Request::Open`]: a benchmark and the [`Settings`] | [`Reply::Opened`]: its batch, warm-up, metrics, warnings |
//! | [`Request::Batch`]: the batch both sides run | [`Reply::Ready`]: what is subtracted from its figures |
//! | [`Request::Turn`]: a quota, a time budget, offsets | [`Reply::Turn`]: the turn's [`TurnFigures`] |
//! | [`Request::Close`] | [`Reply::Closed`] |
//! | [`Request::Quit`] | (the worker exits 0) |
//!
//! A worker that speaks another [`PROTOCOL`] answers `hello` with its own number, and the
//! suite refuses it. Within one protocol the text may gain fields (a reader ignores those it
//! does not know) and its keys may come in any order; one that removes or renames a field,
//! or changes what a value means, is another protocol.

use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};

use super::settings::Settings;
use crate::measure::conditions::WarmUp;
use crate::measure::meter::Metric;
pub use crate::measure::samples::TurnFigures;

/// The protocol's version: a worker and a suite of different versions do not talk.
pub const PROTOCOL: u64 = 1;
/// What starts every reply line.
pub const TAG: &str = "@picollo ";

/// What a suite asks of a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Which protocol the worker speaks, and its benchmarks.
    Hello {
        /// The suite's protocol.
        protocol: u64,
    },
    /// Open benchmark `name` with the settings both sides share: its meter, its read pairs'
    /// overhead, its batch and its warm-up.
    Open {
        /// The benchmark.
        name: String,
        /// What it is measured with.
        settings: Settings,
    },
    /// Run batches of this size from now on, and measure what a batch adds beside its
    /// operations.
    Batch {
        /// The batch size, at least 1.
        batch: u64,
    },
    /// One turn: batches until the quota or the time budget, at these offsets. The wire
    /// calls it `slot`, as the first release of the protocol did.
    #[serde(rename = "slot")]
    Turn {
        /// The most samples.
        quota: u64,
        /// The most time, in nanoseconds.
        budget_ns: u64,
        /// The stack frames below the measured code.
        frames: u64,
        /// The bytes allocated before the measured code.
        heap: u64,
    },
    /// Close the open benchmark.
    Close,
    /// Exit.
    Quit,
}

/// What a worker answers a request it carried out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    /// To [`Request::Hello`].
    Hello(Hello),
    /// To [`Request::Open`].
    Opened(Opened),
    /// To [`Request::Batch`].
    Ready(Ready),
    /// To [`Request::Turn`] (`slot` on the wire).
    #[serde(rename = "slot")]
    Turn(TurnFigures),
    /// To [`Request::Close`].
    Closed,
}

/// A reply line's object: a reply, or why the request was not carried out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    /// The request was carried out.
    Reply(Reply),
    /// It was not: a benchmark that panicked, a setting it cannot measure with.
    Error {
        /// Why, a sentence.
        error: String,
    },
}

/// The worker's protocol and benchmarks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// Its [`PROTOCOL`].
    pub protocol: u64,
    /// The suite's name.
    pub suite: String,
    /// Its benchmarks' names, in the order it declares them.
    pub benchmarks: Vec<String>,
}

/// What a side found when it opened a benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opened {
    /// The batch it would choose.
    pub batch: u64,
    /// What its warm-up found, as `[batches, converged, last change]`.
    #[serde(with = "positional::warm_up")]
    pub warm_up: WarmUp,
    /// What it measures, each as `[name, unit, kind]`.
    #[serde(with = "positional::metrics")]
    pub metrics: Vec<Metric>,
    /// What spoils its figures, each a sentence.
    pub warnings: Vec<String>,
    /// Why its code is known to be unoptimized.
    pub unoptimized: Option<String>,
}

/// What a side subtracts from its figures at the batch asked for, per metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ready {
    /// The read pairs' overhead of a batch.
    pub overhead: Vec<u64>,
    /// The baseline's medians.
    pub baseline: Vec<u64>,
    /// The smallest difference a figure resolves.
    pub resolution: Vec<u64>,
    /// The clock, described.
    pub clock: String,
    /// How the counters are read, described.
    pub counters_read: Option<String>,
}

impl Ready {
    /// Whether it has a figure of each of `metrics` metrics.
    pub fn fits(&self, metrics: usize) -> bool {
        [&self.overhead, &self.baseline, &self.resolution]
            .iter()
            .all(|v| v.len() == metrics)
    }
}

impl Request {
    /// The kind of reply that answers it (`None`: none comes).
    pub fn answered_by(&self) -> Option<&'static str> {
        Some(match self {
            Request::Hello { .. } => "hello",
            Request::Open { .. } => "opened",
            Request::Batch { .. } => "ready",
            Request::Turn { .. } => "slot",
            Request::Close => "closed",
            Request::Quit => return None,
        })
    }

    /// Its line (without the newline).
    pub fn line(&self) -> String {
        text_of(self)
    }

    /// The request of `line`; why not, where it is none.
    pub fn read(line: &str) -> Result<Request, String> {
        serde_json::from_str(line).map_err(|e| std::format!("not a request ({e}): {line}"))
    }
}

impl Answer {
    /// An error answer.
    pub fn error(why: impl Into<String>) -> Self {
        Answer::Error { error: why.into() }
    }

    /// Its line: the tag, then its object (without the newline).
    pub fn line(&self) -> String {
        std::format!("{TAG}{}", text_of(self))
    }

    /// The answer of `text`, a reply line less its tag; why not, where it is none.
    pub fn read(text: &str) -> Result<Answer, String> {
        match serde_json::from_str(text) {
            Ok(answer) => Ok(answer),
            // The untagged form's error names no field: the reply's own says what is wrong.
            Err(e) => Err(match serde_json::from_str::<Reply>(text) {
                Err(why) if !e.is_syntax() => std::format!("{why}: {text}"),
                _ => std::format!("{e}: {text}"),
            }),
        }
    }
}

/// The protocol a hello reply's `text` names (`None`: it is not a hello reply), read alone so
/// that a worker of another protocol is told by its number, whatever else its reply holds.
pub fn hello_protocol(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    #[serde(tag = "reply", rename_all = "snake_case")]
    enum Probe {
        Hello { protocol: u64 },
    }
    match serde_json::from_str(text).ok()? {
        Probe::Hello { protocol } => Some(protocol),
    }
}

/// `v` as one line of JSON.
fn text_of(v: &impl Serialize) -> String {
    // Serializing these types to a string cannot fail: every map key is a string.
    serde_json::to_string(v).unwrap_or_default()
}

/// The arrays two of the replies' fields travel as.
mod positional {
    /// A warm-up as `[batches, converged, last change]` (a change that is not a number: null).
    pub mod warm_up {
        use super::super::WarmUp;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        pub fn serialize<S: Serializer>(w: &WarmUp, s: S) -> Result<S::Ok, S::Error> {
            let change = Some(w.last_change).filter(|c| c.is_finite());
            (w.batches, w.converged, change).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<WarmUp, D::Error> {
            let (batches, converged, change) = <(u64, bool, Option<f64>)>::deserialize(d)?;
            Ok(WarmUp {
                batches,
                converged,
                last_change: change.unwrap_or(f64::NAN),
            })
        }
    }

    /// Metrics as `[name, unit, kind]` each.
    pub mod metrics {
        use std::string::String;
        use std::vec::Vec;

        use crate::measure::meter::{Metric, MetricKind, Unit};
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(metrics: &[Metric], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(metrics.iter().map(|m| (&m.name, m.unit, m.kind)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Metric>, D::Error> {
            let each = Vec::<(String, Unit, MetricKind)>::deserialize(d)?;
            let metrics = each
                .into_iter()
                .map(|(name, unit, kind)| Metric::new(&name, unit, kind));
            Ok(metrics.collect())
        }
    }
}
