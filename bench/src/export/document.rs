//! Picollo's JSON document as a format: the records of [`crate::model::document`] (its
//! schema, `docs/schema/picollo-bench.schema.json`), each benchmark with its name and its
//! result ([`BenchResult::record`](crate::BenchResult::record)), each comparison with its
//! verdict and figures ([`Comparison::record`]). `picollo bench --json` and `--save` write it
//! too, with the members only a command has (its tag, its text, its runs apart, or why it
//! failed).

use core::fmt::{self, Write};

use super::{Compared, Entry, Findings, ResultFormat};
use crate::judge::shift::Design;
use crate::judge::verdict::{Comparison, Verdict};
use crate::measure::throughput::Throughput;
use crate::model::document::{
    BuildsRecord, ComparisonRecord, DeclaredRecord, DiffersRecord, Document, ExactRecord, Figure,
    JitterRecord, LooksRecord, RatesRecord,
};
use crate::model::EntryRecord;

/// Picollo's JSON document (`picollo`), the format: its records are [`Document`].
pub struct PicolloDocument;

impl ResultFormat for PicolloDocument {
    fn name(&self) -> &'static str {
        "picollo"
    }

    fn title(&self) -> &'static str {
        "Picollo's JSON document (docs/schema/picollo-bench.schema.json)"
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        w.write_str(&findings.document().text())
    }
}

impl Findings<'_> {
    /// The document of its entries and comparisons.
    pub fn document(&self) -> Document {
        let entries = self.entries.iter().map(Entry::record);
        let comparisons = self.comparisons.iter().map(|c| {
            let pair = self.paired.iter().find(|p| p.head.name == c.comparison.b);
            ComparisonRecord {
                benchmark: pair.map(|p| p.name.clone()),
                ..c.record()
            }
        });
        let mut d = Document::new(entries.collect(), comparisons.collect());
        (d.builds, d.emulated) = (self.builds, self.emulated.clone());
        d
    }
}

impl Entry<'_> {
    /// Its record: its name, its members, its result's record.
    fn record(&self) -> EntryRecord {
        EntryRecord {
            name: self.name.clone(),
            members: self.members.clone(),
            result: self.result.map(|r| r.record()),
        }
    }
}

impl Compared {
    /// Its record: the comparison's, with what A and B are and whether it fails the gate.
    fn record(&self) -> ComparisonRecord {
        ComparisonRecord {
            baseline: self.baseline.clone(),
            tag: self.tag.clone(),
            fails_gate: self.fails_gate,
            ..self.comparison.record()
        }
    }
}

impl Comparison {
    /// Its record in the document: A, B, the judged metric, the verdict's word and percent,
    /// the ratio, the change and its interval, the noise floor, the threshold, the builds
    /// where judged with builds as the unit, the difference within the read jitter where
    /// judged exactly, each exact metric, both sides' rates, their declared work where it
    /// differs, whether the rounds were paired, each side's rounds and the verdict line.
    pub fn record(&self) -> ComparisonRecord {
        let percent = match self.verdict {
            Verdict::Faster(p) | Verdict::Slower(p) | Verdict::WithinNoise(p) => Some(p),
            _ => None,
        };
        let mut line = std::string::String::new();
        // A write to a String cannot fail.
        let _ = self.write_verdict(&mut line);
        ComparisonRecord {
            a: self.a.clone(),
            b: self.b.clone(),
            metric: self.metric.name.clone(),
            verdict: self.verdict.word().into(),
            percent: percent.filter(|p| p.is_finite()).map(Figure),
            ratio: self.ratio.into(),
            change: self.change.estimate.into(),
            change_low: self.change.low.into(),
            change_high: self.change.high.into(),
            noise_floor: self.noise_floor.into(),
            threshold: self.threshold.into(),
            builds: self.builds_record(),
            looks: self.looks.map(|l| LooksRecord {
                taken: l.taken as u64,
                of: l.of as u64,
                seconds: l.seconds.into(),
                settled: l.settled,
            }),
            within_jitter: self.jitter_record(),
            exact: self.exact_records(),
            throughput: self.rates.map(|(a, b)| RatesRecord {
                unit: a.unit().into(),
                a: a.per_second.into(),
                b: b.per_second.into(),
            }),
            throughput_differs: self.throughput_differs.map(|(a, b)| DiffersRecord {
                a: a.map(declared),
                b: b.map(declared),
            }),
            paired: self.design == Design::Paired,
            rounds: (self.rounds.0 as u64, self.rounds.1 as u64),
            line,
            baseline: None,
            tag: None,
            fails_gate: false,
            benchmark: None,
        }
    }

    /// Its builds, where judged over builds (each of `processes` worker processes).
    fn builds_record(&self) -> Option<BuildsRecord> {
        let b = self.builds.as_ref()?;
        Some(BuildsRecord {
            per_side: b.per_side as u64,
            processes: b.processes as u64,
            layout_spread: b.layout_spread.into(),
            noise_floor: b.noise_floor.into(),
        })
    }

    /// The difference judged within the read jitter (in its unit per operation), where the
    /// judged metric was judged exactly.
    fn jitter_record(&self) -> Option<JitterRecord> {
        let s = self.steady.as_ref()?;
        let finite = |v: f64| Some(Figure(v)).filter(|v| v.0.is_finite());
        Some(JitterRecord {
            difference: s.difference.estimate.into(),
            low: s.difference.low.into(),
            high: s.difference.high.into(),
            spread: (finite(s.spread.0), finite(s.spread.1)),
        })
    }

    /// Each exact metric's figure per operation where every one of a side's counted the same
    /// (else none), and its word (`no difference`, `more`, `fewer`, `varies`).
    fn exact_records(&self) -> std::vec::Vec<ExactRecord> {
        let exact = self.metrics.iter().filter_map(|d| Some((d, d.exact?)));
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite()).map(Figure);
        let each = exact.map(|(d, x)| ExactRecord {
            metric: d.name.clone(),
            a: finite(x.a),
            b: finite(x.b),
            difference: finite(x.difference()),
            verdict: x.word().into(),
        });
        each.collect()
    }
}

/// A side's declared work.
fn declared(t: Throughput) -> DeclaredRecord {
    DeclaredRecord {
        unit: t.unit().into(),
        per_operation: t.per_operation(),
    }
}
