//! Documents read back as one run: the shards of a suite (`--shard I/N`), each run on its
//! own, joined into one document ([`merge`]) and rebuilt into the findings every export,
//! the summary and the HTML page are written from ([`Rebuilt`]), with the exit status the
//! run would have ended with.
//!
//! A result is rebuilt from its rounds' medians ([`Saved::read`]), as a saved baseline is:
//! the exports chart those. A comparison keeps the verdict, change, interval, noise floor,
//! threshold and builds its shard judged (the record's), so that no verdict changes in the
//! merge; its tables of percentiles are those of the rebuilt sides.

use std::string::String;
use std::vec::Vec;

use super::{Compared, Entry, Findings, Paired};
use crate::html::Page;
use crate::judge::saved::{Saved, SavedRounds};
use crate::judge::shift::{Design, Shift};
use crate::judge::verdict::{Builds, Comparison, Looks, Verdict};
use crate::measure::result::BenchResult;
use crate::model::document::{ComparisonRecord, Document};
use crate::suite::Exit;
use crate::{compare, compare_on, DEFAULT_THRESHOLD};

/// `documents` (each with the path or name it was read from) as one: their benchmarks and
/// comparisons, in the order given. An error naming a benchmark that two of them hold, or
/// where they were written with different builds a side.
pub fn merge(documents: &[(String, Document)]) -> Result<Document, String> {
    let mut merged = Document::new(Vec::new(), Vec::new());
    let mut from: Vec<&str> = Vec::new();
    for (source, d) in documents {
        let (first, first_doc) = &documents[0];
        if first_doc.builds != d.builds {
            let why = "were written with different builds a side (--builds): not shards of one run";
            return Err(std::format!("{first} and {source} {why}"));
        }
        for c in &d.commands {
            if let Some(i) = merged.commands.iter().position(|m| m.name == c.name) {
                return Err(std::format!(
                    "benchmark {:?} is in both {} and {source}: shards of one run hold each \
                     benchmark once",
                    c.name,
                    from[i]
                ));
            }
            merged.commands.push(c.clone());
            from.push(source);
        }
        merged.comparisons.extend(d.comparisons.iter().cloned());
    }
    merged.builds = documents.first().and_then(|(_, d)| d.builds);
    Ok(merged)
}

/// A document read back as the findings of one run.
#[derive(Debug)]
pub struct Rebuilt {
    /// The document.
    pub document: Document,
    /// Each of its benchmarks' result, rebuilt (`None`: it has none: it failed).
    results: Vec<Option<BenchResult>>,
    /// Each comparison, and where both its sides are benchmarks of the document, their places.
    comparisons: Vec<(Compared, Option<(usize, usize)>)>,
}

impl Rebuilt {
    /// `document`'s results and comparisons rebuilt; an error naming a benchmark whose
    /// record cannot be (a comparison whose B is none of the document's benchmarks, a
    /// verdict no picollo writes).
    pub fn of(document: Document) -> Result<Rebuilt, String> {
        let each = document.commands.iter().map(|c| {
            let t = c.result.as_ref().map(|r| r.threshold);
            let t = t.filter(|t| t.is_finite()).unwrap_or(DEFAULT_THRESHOLD);
            let saved = Saved::read(&c.name, c, Some(t), SavedRounds::Medians);
            saved
                .map(|s| s.result)
                .map_err(|e| std::format!("{}: {e}", c.name))
        });
        let results: Vec<Option<BenchResult>> = each.collect::<Result<_, _>>()?;
        let place = |name: &str| {
            let i = document.commands.iter().position(|c| c.name == name)?;
            results[i].as_ref().map(|_| i)
        };
        let mut comparisons = Vec::new();
        for rec in &document.comparisons {
            let b = place(&rec.b)
                .ok_or_else(|| std::format!("comparison of {:?}: no result of that name", rec.b))?;
            let a = place(&rec.a);
            let sides = (a.and_then(|a| results[a].as_ref()), results[b].as_ref());
            let comparison = comparison(rec, sides)?;
            let compared = Compared {
                comparison,
                baseline: rec.baseline.clone(),
                tag: rec.tag.clone(),
                fails_gate: rec.fails_gate,
            };
            comparisons.push((compared, a.map(|a| (a, b))));
        }
        Ok(Rebuilt {
            document,
            results,
            comparisons,
        })
    }

    /// The findings every export and the summary are written from: each benchmark (a failed
    /// one without a result), each comparison, each compared pair charted under its
    /// benchmark's name.
    pub fn findings(&self) -> Findings<'_> {
        let entries = self.document.commands.iter().zip(&self.results);
        let entries = entries.map(|(c, r)| Entry {
            name: c.name.clone(),
            result: r.as_ref(),
            failed: r.is_none().then(|| failure(c)),
            members: c.members.clone(),
        });
        let records = self.comparisons.iter().zip(&self.document.comparisons);
        let paired = records.filter_map(|((_, sides), rec)| {
            let (a, b) = (*sides)?;
            let head = &self.document.commands[b].name;
            Some(Paired {
                name: rec.benchmark.clone().unwrap_or_else(|| head.clone()),
                base: self.results[a].as_ref(),
                head: self.results[b].as_ref()?,
            })
        });
        Findings {
            entries: entries.collect(),
            comparisons: self.comparisons.iter().map(|(c, _)| c.clone()).collect(),
            paired: paired.collect(),
            builds: self.document.builds,
            ..Findings::default()
        }
    }

    /// The exit status the run would have ended with: a benchmark without a result failed
    /// (6), else a comparison slower (7), else one its shard's gate failed for not settling
    /// (`--unsettled fail`: 8), else 0.
    pub fn exit(&self) -> Exit {
        let verdicts = || self.comparisons.iter().map(|(c, _)| c);
        let slower = verdicts().any(|c| matches!(c.comparison.verdict, Verdict::Slower(_)));
        let failing = verdicts().any(|c| c.fails_gate);
        match (self.results.iter().any(Option::is_none), slower, failing) {
            (true, ..) => Exit::Failed,
            (false, true, _) => Exit::Slower,
            (false, false, true) => Exit::Unsettled,
            _ => Exit::Ok,
        }
    }

    /// One self-contained HTML page titled `title`: the benchmarks without a result and why,
    /// every verdict, then each comparison with both sides' figures; with no comparison, each
    /// result.
    pub fn html(&self, title: &str) -> String {
        let mut page = Page::new(title);
        let findings = self.findings();
        let failed = findings.entries.iter().filter_map(|e| {
            let why = e.failed.as_ref()?;
            Some(std::format!("{}: {why}", e.name))
        });
        let failed: Vec<String> = failed.collect();
        if !failed.is_empty() {
            page.heading(2, "Not measured");
            page.list("not-measured", &failed);
        }
        let all: Vec<&BenchResult> = self.results.iter().flatten().collect();
        if self.comparisons.is_empty() {
            for r in &all {
                page.section(&r.name, |page| r.html_into(page, &all));
            }
        }
        let verdicts = self.comparisons.iter().map(|(c, _)| {
            let mut line = String::new();
            let _ = c.comparison.write_verdict(&mut line);
            line
        });
        page.list("verdicts", &verdicts.collect::<Vec<_>>());
        for (c, sides) in &self.comparisons {
            let pair = sides
                .and_then(|(a, b)| Some((self.results[a].as_ref()?, self.results[b].as_ref()?)));
            let c = &c.comparison;
            let title = std::format!("{} against {}", c.b, c.a);
            page.section(&title, |page| c.html_into(page, pair));
        }
        let mut out = String::new();
        let _ = page.write(&mut out);
        out
    }
}

/// Why a benchmark of the document has no result: its failure's message where the document
/// keeps one (a command's); a suite's document keeps none.
fn failure(c: &crate::model::EntryRecord) -> String {
    match &c.members.failed {
        Some(f) => f.message.clone(),
        None => "no result in its document (it failed in its shard)".into(),
    }
}

/// The comparison `rec` records of `sides` (A where the document holds it, B): the rebuilt
/// sides' tables, with the verdict and figures its shard judged.
fn comparison(
    rec: &ComparisonRecord,
    (a, b): (Option<&BenchResult>, Option<&BenchResult>),
) -> Result<Comparison, String> {
    let b = b.ok_or_else(|| std::format!("comparison of {:?}: B has no result", rec.b))?;
    let side_a = a.unwrap_or(b);
    // Where the rebuilt sides lack the judged metric, time's tables stand in: the verdict
    // and its figures are the record's either way.
    let mut c = compare_on(side_a, b, &rec.metric).unwrap_or_else(|_| compare(side_a, b));
    if a.is_none() {
        // A was not measured in this run (a saved baseline): no table of its figures.
        c.metrics.clear();
    }
    (c.a, c.b) = (rec.a.clone(), rec.b.clone());
    c.verdict = verdict(rec)?;
    c.change = Shift {
        estimate: rec.change.0,
        low: rec.change_low.0,
        high: rec.change_high.0,
    };
    (c.ratio, c.noise_floor, c.threshold) = (rec.ratio.0, rec.noise_floor.0, rec.threshold.0);
    c.rounds = (rec.rounds.0 as usize, rec.rounds.1 as usize);
    c.design = match rec.paired {
        true => Design::Paired,
        false => Design::Unpaired,
    };
    c.looks = rec.looks.map(|l| Looks {
        taken: l.taken as usize,
        of: l.of as usize,
        seconds: l.seconds.0,
        settled: l.settled,
    });
    c.builds = rec.builds.as_ref().map(|b| Builds {
        per_side: b.per_side as usize,
        processes: b.processes as usize,
        layout_spread: b.layout_spread.0,
        noise_floor: b.noise_floor.0,
    });
    Ok(c)
}

/// The verdict `rec` records: its word, and its percentage where the word has one.
fn verdict(rec: &ComparisonRecord) -> Result<Verdict, String> {
    let p = rec.percent.map_or(f64::NAN, |p| p.0);
    Verdict::from_word(&rec.verdict, p).ok_or_else(|| {
        std::format!(
            "comparison of {:?}: verdict {:?} is none picollo writes",
            rec.b,
            rec.verdict
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::PicolloDocument;
    use crate::{Bench, Metric, WarmUp};

    /// A result of time alone named `name`: 40 samples from `ns` nanoseconds up.
    fn side(name: &str, ns: u64) -> BenchResult {
        let rows = (0..40u64).map(|k| ns + 10 * (k % 7)).collect();
        let bench = Bench::new(name).with_rounds(8);
        let time = std::vec![Metric::time()];
        BenchResult::from_rows(&bench, time, rows, "test".into(), WarmUp::default()).unwrap()
    }

    /// The document a suite writes of benchmark `name` compared, its head `head_ns` a sample
    /// against a base of 1000, judged `verdict` (as its shard did).
    fn shard(name: &str, head_ns: u64, verdict: Verdict) -> Document {
        let (a, b) = (
            side(&std::format!("{name} (base)"), 1_000),
            side(&std::format!("{name} (head)"), head_ns),
        );
        let mut findings = Findings::of_pairs(&[(&a, &b)]).unwrap();
        // A suite's findings pair the two sides under the benchmark's own name.
        findings.paired = std::vec![Paired {
            name: name.into(),
            base: Some(&a),
            head: &b,
        }];
        findings.comparisons[0].comparison.verdict = verdict;
        findings.comparisons[0].fails_gate = matches!(verdict, Verdict::Slower(_));
        Document::read(&findings.to_text(&PicolloDocument).unwrap()).unwrap()
    }

    fn named(docs: Vec<Document>) -> Vec<(String, Document)> {
        let each = docs.into_iter().enumerate();
        each.map(|(i, d)| (std::format!("shard{}.json", i + 1), d))
            .collect()
    }

    #[test]
    fn merged_shards_keep_every_benchmark_once_and_each_shards_verdict() {
        let docs = named(std::vec![
            shard("parse", 1_000, Verdict::NoDifference),
            shard("sort", 1_050, Verdict::Slower(5.0)),
        ]);
        let merged = merge(&docs).unwrap();
        let names: Vec<&str> = merged.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["parse (base)", "parse (head)", "sort (base)", "sort (head)"]
        );
        let rebuilt = Rebuilt::of(merged).unwrap();
        assert_eq!(rebuilt.exit(), Exit::Slower);
        let findings = rebuilt.findings();
        let verdicts: Vec<Verdict> = findings
            .comparisons
            .iter()
            .map(|c| c.comparison.verdict)
            .collect();
        assert_eq!(verdicts, [Verdict::NoDifference, Verdict::Slower(5.0)]);
        let charted: Vec<String> = findings.charted().into_iter().map(|(n, _)| n).collect();
        assert_eq!(charted, ["parse", "sort"]);
        let mut summary = String::new();
        findings.write_summary(&mut summary).unwrap();
        assert!(summary.contains("sort (head) vs sort (base)"), "{summary}");
        assert!(rebuilt
            .html("merged")
            .contains("sort (head) against sort (base)"));
    }

    #[test]
    fn a_run_without_a_slower_verdict_exits_0_and_one_without_a_result_exits_6() {
        let ok = merge(&named(std::vec![shard("a", 1_000, Verdict::NoDifference)])).unwrap();
        assert_eq!(Rebuilt::of(ok).unwrap().exit(), Exit::Ok);
        let mut failed = shard("b", 1_000, Verdict::NoDifference);
        failed.comparisons.clear();
        failed.commands[1].result = None;
        let rebuilt = Rebuilt::of(merge(&named(std::vec![failed])).unwrap()).unwrap();
        assert_eq!(rebuilt.exit(), Exit::Failed);
        assert!(rebuilt.findings().entries[1].failed.is_some());
    }

    #[test]
    fn a_benchmark_in_two_documents_is_refused_by_name() {
        let docs = named(std::vec![
            shard("parse", 1_000, Verdict::NoDifference),
            shard("parse", 1_000, Verdict::NoDifference),
        ]);
        let e = merge(&docs).unwrap_err();
        assert!(
            e.starts_with("benchmark \"parse (base)\" is in both shard1.json and shard2.json"),
            "{e}"
        );
    }

    #[test]
    fn a_verdict_no_picollo_writes_is_refused() {
        let mut d = shard("parse", 1_000, Verdict::NoDifference);
        d.comparisons[0].verdict = "better".into();
        let e = Rebuilt::of(d).unwrap_err();
        assert!(e.contains("verdict \"better\""), "{e}");
    }
}
