//! Picollo's JSON document as records: `{"schema": "picollo-bench", "version": 1,
//! "commands": [...], "comparisons": [...]}`, what `picollo bench --json` and `--save`, a
//! suite's `--save` and `--export picollo=…` write, and what a gate against a saved run
//! reads back. `docs/schema/picollo-bench.schema.json` is its JSON Schema; the members only a
//! command of `picollo bench` has (its tag, its text, why it failed) are optional here.
//!
//! A figure that is not a number (a rate without time, an interval without rounds) is
//! written `null` and read back as NaN ([`nan_as_null`]).

use std::boxed::Box;
use std::string::String;
use std::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::measure::meter::Unit;

/// What the document's `schema` member holds.
pub const DOCUMENT_SCHEMA: &str = "picollo-bench";
/// Its `version`: a reader refuses a later one it does not know.
pub const DOCUMENT_VERSION: u32 = 1;

/// The whole document.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    /// [`DOCUMENT_SCHEMA`].
    pub schema: String,
    /// [`DOCUMENT_VERSION`].
    pub version: u32,
    /// The builds a side of `picollo bench --builds K` (`picollo bench` writes 1 without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builds: Option<u64>,
    /// Under `picollo bench --emulate`, how the programs started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulated: Option<Emulated>,
    /// Each benchmark (each command), in order.
    pub commands: Vec<EntryRecord>,
    /// Each comparison, in order.
    #[serde(default)]
    pub comparisons: Vec<ComparisonRecord>,
}

/// How the programs of an emulated `picollo bench` started: what moves the count of their
/// start-up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Emulated {
    /// The length of the path they started from, in bytes.
    pub path: u64,
    /// The environment's variables.
    pub variables: u64,
    /// The environment's bytes.
    pub bytes: u64,
    /// A digest of the environment, 16 hexadecimal digits.
    pub digest: String,
}

/// One benchmark (a `command` of the schema): its name, its result, and what a command or a
/// saved baseline adds ([`Members`]).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct EntryRecord {
    /// The name it goes by (a command's text, where a file names none).
    #[serde(default)]
    pub name: String,
    /// What a command or a saved baseline adds.
    #[serde(flatten)]
    pub members: Members,
    /// Its result, where it was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultRecord>,
}

/// The members of a benchmark's object beside its name and result: a command's tag, text
/// and failure, a saved baseline's runs apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Members {
    /// `cmdN`, a command's place on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// A command's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Time's median round figure in each run apart it was saved from (0: a run floored at 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_apart: Option<Vec<Option<Figure>>>,
    /// Every other metric's, by name, in the result's order.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "ordered_map")]
    pub runs_apart_by: Option<Vec<(String, Vec<Option<Figure>>)>>,
    /// The speed probe taken before it in each run apart (none in a file saved before
    /// probes were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_probe: Option<ProbeRecord>,
    /// Why a command has no result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<Failure>,
}

/// The speed probe of a saved benchmark's runs apart ([`crate::probe`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeRecord {
    /// Its workload's name: a probe of another is not compared.
    pub workload: String,
    /// Its median time in ns in each run apart, as `runsApart` (`null`: a run without).
    pub runs: Vec<Option<Figure>>,
}

/// Why a command has no result: the run that failed and how it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// The run (1-based) that failed.
    pub run: u64,
    /// It was a warm-up run.
    pub warm_up: bool,
    /// How it ended, in words.
    pub status: String,
    /// Its exit code, where it exited.
    pub code: Option<i32>,
    /// Why it did not start, where it did not.
    pub not_started: Option<String>,
    /// The message the run ended with.
    pub message: String,
}

/// A benchmark's result: its conditions, each metric's figures and summary, its rate and
/// its rounds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultRecord {
    /// The name it was measured under.
    #[serde(default)]
    pub name: String,
    /// Operations a batch.
    #[serde(default)]
    pub batch: u64,
    /// Samples taken.
    #[serde(default)]
    pub samples: u64,
    /// The figures' unit: thousandths of each metric's unit.
    #[serde(default = "scale")]
    pub scale: u64,
    /// What spoils the figures, each a sentence.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Why the code is known to be unoptimized.
    #[serde(default)]
    pub unoptimized: Option<String>,
    /// The result whose medians were subtracted, by name.
    #[serde(default)]
    pub baseline: Option<String>,
    /// Each metric.
    pub metrics: Vec<MetricRecord>,
    /// Its declared work and rate (`Some(None)`: `null`, none declared; `None`: the member is
    /// missing, from a file saved before rates were kept).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub throughput: Option<Option<RateRecord>>,
    /// The threshold of a comparison, in percent.
    #[serde(default, with = "nan_as_null")]
    pub threshold: f64,
    /// The seed that paired its rounds with another's, hexadecimal.
    #[serde(default)]
    pub pairing: Option<String>,
    /// The ranks each round's `values` are at.
    #[serde(default)]
    pub round_ranks: Vec<f64>,
    /// Its rounds, in the order they ran.
    #[serde(default)]
    pub rounds: Vec<RoundRecord>,
}

/// One metric of a result.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricRecord {
    /// Its name.
    pub name: String,
    /// What its figures count.
    pub unit: Unit,
    /// It is an exact count.
    #[serde(default)]
    pub exact: bool,
    /// The read pairs' overhead subtracted from a batch, in thousandths of the unit.
    #[serde(default)]
    pub overhead: u64,
    /// The baseline's median subtracted per operation.
    #[serde(default)]
    pub baseline: u64,
    /// Its counter shared the PMU.
    #[serde(default)]
    pub multiplexed: bool,
    /// Samples floored at 0 by the subtraction.
    #[serde(default)]
    pub floored: u64,
    /// The smallest difference a figure resolves.
    #[serde(default)]
    pub resolution: u64,
    /// Its median lies below the resolution.
    #[serde(default)]
    pub below_resolution: bool,
    /// Its figures are flagged (floored or below the resolution).
    #[serde(default)]
    pub flagged: bool,
    /// The histogram's summary, as the histogram crate writes it (its percentiles in
    /// thousandths of the unit): [`Summary`] reads what the harness needs of it (`null` where
    /// a file holds none).
    #[serde(default = "no_summary")]
    pub summary: Box<RawValue>,
}

/// What a reader needs of a metric's summary: its percentiles' ranks and values.
#[derive(Clone, Debug, Deserialize)]
pub struct Summary {
    /// The percentiles, by rank.
    pub percentiles: Vec<Percentile>,
}

/// One percentile of a summary.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Percentile {
    /// Its rank, 0 to 100.
    pub rank: f64,
    /// Its value, in thousandths of the unit.
    pub value: f64,
}

/// A result's declared work per operation and its rate at the median time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RateRecord {
    /// `elements` or `bytes`.
    pub unit: String,
    /// Of them an operation.
    pub per_operation: u64,
    /// Of them a second.
    #[serde(default, with = "nan_as_null")]
    pub per_second: f64,
}

/// One round of a result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// When it started, in seconds since the run's start.
    #[serde(default, with = "nan_as_null")]
    pub start: f64,
    /// How long it ran, in seconds.
    #[serde(default, with = "nan_as_null")]
    pub length: f64,
    /// Its samples.
    #[serde(default)]
    pub samples: u64,
    /// It ran first in an interleaved round.
    #[serde(default)]
    pub first: bool,
    /// Per metric, its values at the result's `roundRanks`.
    pub values: Vec<Vec<u64>>,
}

/// A comparison of B against A and its verdict.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparisonRecord {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// The judged metric.
    pub metric: String,
    /// The verdict's word.
    pub verdict: String,
    /// The percentage of a faster, slower or within-noise verdict.
    pub percent: Option<Figure>,
    /// B's median round against A's.
    pub ratio: Figure,
    /// The change, in percent.
    pub change: Figure,
    /// Its interval's low end.
    pub change_low: Figure,
    /// Its interval's high end.
    pub change_high: Figure,
    /// Half the interval's width.
    pub noise_floor: Figure,
    /// The threshold, in percent.
    pub threshold: Figure,
    /// Where judged with builds as the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builds: Option<BuildsRecord>,
    /// Where judged at looks of a sequential design: which look, of how many, when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub looks: Option<LooksRecord>,
    /// Where judged exactly: the difference within the read jitter.
    pub within_jitter: Option<JitterRecord>,
    /// Each exact metric.
    #[serde(default)]
    pub exact: Vec<ExactRecord>,
    /// Both sides' rates, where both declare work of one unit.
    pub throughput: Option<RatesRecord>,
    /// Each side's declared work, where they differ.
    pub throughput_differs: Option<DiffersRecord>,
    /// The rounds were paired (interleaved).
    pub paired: bool,
    /// Each side's rounds.
    pub rounds: (u64, u64),
    /// The verdict line.
    pub line: String,
    /// What A is, where a command line names it (`cmd1`, `saved:cmd2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// What B is (`cmd2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// It fails a gate.
    #[serde(default)]
    pub fails_gate: bool,
    /// The benchmark a suite compared in two builds, by its own name (its sides are named
    /// `NAME (base)` and `NAME (head)`): what the dashboards chart the head under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<String>,
}

/// The look of a sequential design a verdict is from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LooksRecord {
    /// The look, from 1.
    pub taken: u64,
    /// The most looks.
    pub of: u64,
    /// The rounds' seconds until then.
    pub seconds: Figure,
    /// That look settled the verdict.
    pub settled: bool,
}

/// A comparison judged with builds as the unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildsRecord {
    /// Builds a side.
    pub per_side: u64,
    /// Worker processes of each.
    #[serde(default)]
    pub processes: u64,
    /// The spread between builds of one side, in percent.
    pub layout_spread: Figure,
    /// The noise floor at the builds' level, in percent.
    pub noise_floor: Figure,
}

/// A difference judged exactly, within the read jitter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JitterRecord {
    /// B − A, per operation.
    pub difference: Figure,
    /// Its low bound.
    pub low: Figure,
    /// Its high bound.
    pub high: Figure,
    /// A's and B's spread.
    pub spread: (Option<Figure>, Option<Figure>),
}

/// An exact metric of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExactRecord {
    /// Its name.
    pub metric: String,
    /// A's figure per operation, where every one of A's counted the same.
    pub a: Option<Figure>,
    /// B's.
    pub b: Option<Figure>,
    /// B − A.
    pub difference: Option<Figure>,
    /// Its word.
    pub verdict: String,
}

/// Both sides' rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatesRecord {
    /// `elements` or `bytes`.
    pub unit: String,
    /// A's, a second.
    pub a: Figure,
    /// B's.
    pub b: Figure,
}

/// Each side's declared work, where the two differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffersRecord {
    /// A's, or none.
    pub a: Option<DeclaredRecord>,
    /// B's.
    pub b: Option<DeclaredRecord>,
}

/// A side's declared work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclaredRecord {
    /// `elements` or `bytes`.
    pub unit: String,
    /// Of them an operation.
    pub per_operation: u64,
}

impl Document {
    /// A document of `commands` and `comparisons`, of this schema and version.
    pub fn new(commands: Vec<EntryRecord>, comparisons: Vec<ComparisonRecord>) -> Self {
        Document {
            schema: DOCUMENT_SCHEMA.into(),
            version: DOCUMENT_VERSION,
            builds: None,
            emulated: None,
            commands,
            comparisons,
        }
    }

    /// The document `text` holds; why not, where it is not JSON, not of this schema, or of a
    /// later version.
    pub fn read(text: &str) -> Result<Document, String> {
        #[derive(Deserialize)]
        struct Head {
            schema: Option<String>,
            version: Option<u32>,
        }
        let head: Head = serde_json::from_str(text).map_err(|e| std::format!("not JSON: {e}"))?;
        if head.schema.as_deref() != Some(DOCUMENT_SCHEMA) {
            return Err(std::format!("not a {DOCUMENT_SCHEMA} document"));
        }
        if let Some(v) = head.version.filter(|v| *v > DOCUMENT_VERSION) {
            let why = std::format!("version {v}, later than this reader's {DOCUMENT_VERSION}");
            return Err(why);
        }
        serde_json::from_str(text).map_err(|e| std::format!("{e}"))
    }

    /// Its text: one line of JSON and a newline.
    pub fn text(&self) -> String {
        // Serializing these records cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }
}

impl MetricRecord {
    /// Its summary's P50, in thousandths of the unit (`None`: the summary holds none).
    pub fn median(&self) -> Option<f64> {
        self.percentile(50.0)
    }

    /// Its summary's percentile of `rank` (0 to 100), in thousandths of the unit (`None`:
    /// the summary holds none of that rank).
    pub fn percentile(&self, rank: f64) -> Option<f64> {
        let summary: Summary = serde_json::from_str(self.summary.get()).ok()?;
        let p = summary.percentiles.iter().find(|p| p.rank == rank)?;
        Some(p.value)
    }
}

/// A comparison's or a saved run's figure: written as the shortest text that reads back as
/// it (a whole number without a fraction), `null` where it is not finite; `null` read as NaN.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figure(pub f64);

impl From<f64> for Figure {
    fn from(v: f64) -> Self {
        Figure(v)
    }
}

impl Serialize for Figure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        // Whole numbers up to 2^53 are exact as integers: `0`, not `0.0`.
        match v.is_finite() {
            false => s.serialize_none(),
            true if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 => {
                s.serialize_i64(v as i64)
            }
            true => s.serialize_f64(v),
        }
    }
}

impl<'de> Deserialize<'de> for Figure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Figure(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN)))
    }
}

/// The scale of a result's figures where a file does not say: thousandths.
fn scale() -> u64 {
    crate::measure::meter::SCALE
}

/// A summary a file does not hold: `null`.
pub(crate) fn no_summary() -> Box<RawValue> {
    RawValue::from_string("null".into()).expect("null is JSON")
}

/// `f64` written as a number, or `null` where it is not finite; `null` read as NaN.
pub mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// `v`, or `null` where it is not finite.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        Some(*v).filter(|v| v.is_finite()).serialize(s)
    }

    /// A number, or NaN for `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// A member that may be missing (`None`) or `null` (`Some(None)`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Pairs written as a JSON object whose members keep their order.
mod ordered_map {
    use std::string::String;
    use std::vec::Vec;

    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serializer};

    type Pairs<T> = Vec<(String, T)>;

    pub fn serialize<S: Serializer, T: serde::Serialize>(
        pairs: &Option<Pairs<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let Some(pairs) = pairs else {
            return s.serialize_none();
        };
        let mut map = s.serialize_map(Some(pairs.len()))?;
        for (k, v) in pairs {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Option<Pairs<T>>, D::Error> {
        struct Ordered<T>(core::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Ordered<T> {
            type Value = Pairs<T>;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs<T>, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(pairs)
            }
        }
        d.deserialize_map(Ordered(core::marker::PhantomData))
            .map(Some)
    }
}
