//! What a suite's run gives and writes at its end: the verdicts against a baseline, the
//! JSON document under the output folder, the formats `--export` names, the CI summary,
//! and the exit status (each benchmark's line lands as it comes: [`super::landing`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use super::super::BenchResult;
use super::args::Args;
use super::exit::{Exit, SuiteError};
use super::landing::{judged, only_text, stdout};
use crate::export::{Compared, Entry, Findings, Paired, PicolloDocument, ResultFormat};
use crate::judge::verdict::{Comparison, Interleaved, Verdict};

/// What a suite's run measured, compared and could not, and how it ends.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Each benchmark measured alone, in order.
    pub results: Vec<BenchResult>,
    /// Each benchmark compared with the other build's (A the other, B this), in order.
    pub compared: Vec<ComparedBenchmark>,
    /// The comparisons the gate judges: each of [`Outcome::compared`] on the metric asked
    /// for (time by default), then each of [`Outcome::against_saved`].
    pub judged: Vec<Comparison>,
    /// Each benchmark measured here judged against its saved runs apart (`--baseline`).
    pub against_saved: Vec<Comparison>,
    /// Benchmarks that failed, and why.
    pub failed: Vec<(String, String)>,
    /// Benchmarks only one build has, and which (`base` or `head`): listed, not judged.
    pub only: Vec<(String, String)>,
    /// The builds a side of [`Outcome::compared`] (several: judged with builds as the unit).
    pub builds: usize,
    /// The worker processes of each build among them (`--processes`; 0 or 1: one).
    pub processes: usize,
    /// The exit status.
    pub exit: Exit,
    /// A comparison not settled in its budget fails the gate (`--unsettled fail`).
    pub unsettled_fails: bool,
    /// The speed probe taken before each benchmark measured here, by name, in ns, where
    /// the run saves or is judged against runs apart ([`crate::probe`]).
    pub probes: Vec<(String, f64)>,
}

/// The gate fails `v`: slower by the threshold or more, or not settled where
/// `unsettled_fails` (`--unsettled fail`).
pub fn fails_gate(v: &Verdict, unsettled_fails: bool) -> bool {
    match v {
        Verdict::Slower(_) => true,
        Verdict::NotSettled => unsettled_fails,
        _ => false,
    }
}

/// The standard error's note on the comparisons of `judged` not settled in their budget.
fn unsettled_note(judged: &[Comparison], fails: bool) -> String {
    let names: Vec<&str> = judged
        .iter()
        .filter(|c| c.verdict == Verdict::NotSettled)
        .map(|c| c.b.as_str())
        .collect();
    let rule = match fails {
        true => "--unsettled fail fails them",
        false => "the gate passes them; --unsettled fail would fail them",
    };
    std::format!(
        "{} comparison(s) not settled in their budget ({}): {rule}; a longer --budget or a \
         larger --threshold settles more",
        names.len(),
        names.join(", ")
    )
}

/// A benchmark both builds have, measured side against side: its name, and its sides'
/// results (named `name (base)` and `name (head)`) and comparison.
#[derive(Debug)]
pub struct ComparedBenchmark {
    /// The benchmark's name, as both builds register it.
    pub benchmark: String,
    /// Its two sides, interleaved round by round.
    pub sides: Interleaved,
    /// The comparison the gate judges: on the metric asked for (time by default), at the
    /// look that settled it or the last ([`crate::sequential`]).
    pub judged: Comparison,
}

impl core::ops::Deref for ComparedBenchmark {
    type Target = Interleaved;

    fn deref(&self) -> &Interleaved {
        &self.sides
    }
}

/// The folder outputs go to: `--out`, else `picollo` under cargo's target folder (that of
/// a program cargo built: `target/<profile>/deps/<name>`), else `.picollo`.
pub fn out_dir(args: &Args) -> PathBuf {
    if let Some(dir) = &args.out {
        return dir.clone();
    }
    let exe = std::env::current_exe().ok();
    let deps = exe.as_deref().and_then(Path::parent);
    let target = deps
        .filter(|d| d.file_name().is_some_and(|n| n == "deps"))
        .and_then(|d| d.parent()?.parent());
    match target {
        Some(t) => t.join("picollo"),
        None => PathBuf::from(".picollo"),
    }
}

impl Outcome {
    /// The speed probe taken before benchmark `name` (NaN: none).
    pub fn probe_of(&self, name: &str) -> f64 {
        let found = self.probes.iter().find(|(n, _)| n == name);
        found.map_or(f64::NAN, |(_, p)| *p)
    }

    /// Judge, print what did not land as it came (the verdicts against a baseline, and the
    /// benchmarks of `only` from `landed` on), write every output, and settle the exit
    /// status.
    pub(crate) fn finish(
        &mut self,
        suite: &str,
        args: &Args,
        landed: usize,
        out: &mut dyn Write,
    ) -> Result<(), SuiteError> {
        self.unsettled_fails = args.unsettled_fails;
        self.judged = self
            .compared
            .iter()
            .map(|p| judged(p, self.processes))
            .collect();
        self.judged.extend(self.against_saved.iter().cloned());
        self.print(args.verbose, landed, out).map_err(stdout)?;
        self.write_files(suite, args)?;
        let any = |v: fn(&Verdict) -> bool| self.judged.iter().any(|c| v(&c.verdict));
        let slower = any(|v| matches!(v, Verdict::Slower(_)));
        let unsettled = any(|v| *v == Verdict::NotSettled);
        self.exit = match (self.failed.is_empty(), slower, unsettled) {
            (false, ..) => Exit::Failed,
            (true, true, _) => Exit::Slower,
            (true, false, true) if args.unsettled_fails => Exit::Unsettled,
            _ => Exit::Ok,
        };
        if unsettled {
            std::eprintln!("{}", unsettled_note(&self.judged, args.unsettled_fails));
        }
        Ok(())
    }

    /// The verdicts against a baseline, and the benchmarks of `only` from `landed` on; the
    /// rest landed as it came ([`super::landing::Landing`]).
    fn print(&self, verbose: bool, landed: usize, out: &mut dyn Write) -> std::io::Result<()> {
        let mut text = String::new();
        for c in &self.against_saved {
            let _ = match verbose {
                true => std::fmt::Write::write_fmt(&mut text, format_args!("{c}")),
                false => c.write_verdict(&mut text),
            };
            text.push('\n');
            let _ = c.write_rates_line(&mut text);
        }
        out.write_all(text.as_bytes())?;
        for (name, side) in self.only.iter().skip(landed) {
            out.write_all(only_text(name, side).as_bytes())?;
        }
        Ok(())
    }

    /// The suite as the export formats see it: each benchmark compared as a pair whose head
    /// the dashboards chart under the benchmark's name.
    pub(crate) fn written(&self) -> Findings<'_> {
        let results = self
            .results
            .iter()
            .chain(self.compared.iter().flat_map(|p| [&p.a, &p.b]));
        let mut w = Findings::of_results(&results.collect::<Vec<_>>());
        let failed = self.failed.iter().map(|(name, why)| Entry {
            name: name.clone(),
            result: None,
            failed: Some(why.clone()),
            members: Default::default(),
        });
        w.entries.extend(failed);
        w.comparisons = self
            .judged
            .iter()
            .map(|c| Compared {
                comparison: c.clone(),
                baseline: None,
                tag: None,
                fails_gate: fails_gate(&c.verdict, self.unsettled_fails),
            })
            .collect();
        let paired = self.compared.iter().map(|p| Paired {
            name: p.benchmark.clone(),
            base: Some(&p.a),
            head: &p.b,
        });
        w.paired = paired.collect();
        w
    }

    /// The JSON document under the output folder, the exports, the summary.
    fn write_files(&self, suite: &str, args: &Args) -> Result<(), SuiteError> {
        let dir = out_dir(args).join(suite);
        std::fs::create_dir_all(&dir).map_err(|e| SuiteError::io(&dir, &e))?;
        let document: &dyn ResultFormat = &PicolloDocument;
        let mut outputs = args.ci.outputs();
        outputs
            .exports
            .insert(0, (document, dir.join("results.json")));
        let mut findings = self.written();
        findings.with_bases = args.ci.export_base;
        let written = outputs.write(&findings);
        written.map_err(|e| SuiteError::new(Exit::Io, e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{Bencher, GithubAction, GoogleBenchmark, FORMATS};
    use crate::{Bench, Metric, WarmUp};

    /// A result of time alone named `name`: 12 samples from `ns` nanoseconds up.
    fn side(name: &str, ns: u64) -> BenchResult {
        let rows = (0..12u64).map(|k| ns + 10 * k).collect();
        let bench = Bench::new(name);
        let warm_up = WarmUp::default();
        let time = std::vec![Metric::time()];
        BenchResult::from_rows(&bench, time, rows, "test".into(), warm_up).unwrap()
    }

    /// Findings of `listed` alone, each under the name given.
    fn listed<'a>(listed: &[(&str, &'a BenchResult)]) -> Findings<'a> {
        let entries = listed.iter().map(|&(name, r)| Entry {
            name: name.into(),
            result: Some(r),
            failed: None,
            members: Default::default(),
        });
        Findings {
            entries: entries.collect(),
            ..Findings::default()
        }
    }

    #[test]
    fn the_dashboards_chart_a_compared_benchmark_once_under_its_name_unless_bases_are_asked() {
        let sides = Interleaved::new(side("parse (base)", 1_000), side("parse (head)", 5_000));
        let outcome = Outcome {
            compared: std::vec![ComparedBenchmark {
                benchmark: "parse".into(),
                judged: sides.comparison.clone(),
                sides,
            }],
            ..Outcome::default()
        };
        let (base, head) = (&outcome.compared[0].a, &outcome.compared[0].b);
        let mut findings = outcome.written();
        let dashboards: [&dyn ResultFormat; 3] = [&Bencher, &GithubAction, &GoogleBenchmark];
        for with_bases in [false, true] {
            findings.with_bases = with_bases;
            let expected = match with_bases {
                false => listed(&[("parse", head)]),
                true => listed(&[("parse (base)", base), ("parse", head)]),
            };
            for format in dashboards {
                let text = findings.to_text(format).unwrap();
                assert_eq!(text, expected.to_text(format).unwrap(), "{}", format.name());
                assert!(!text.contains("(head)"), "{text}");
                assert_eq!(text.contains("parse (base)"), with_bases, "{text}");
            }
            // The document and JUnit list both sides under their own names either way.
            for name in ["picollo", "junit"] {
                let format = FORMATS.iter().find(|f| f.name() == name).unwrap();
                let text = findings.to_text(*format).unwrap();
                for label in ["parse (base)", "parse (head)"] {
                    assert!(text.contains(label), "{name}: {text}");
                }
            }
        }
        // Without the pairing the dashboards would chart both sides under their labels.
        findings.paired.clear();
        findings.with_bases = false;
        let both = listed(&[("parse (base)", base), ("parse (head)", head)]);
        assert_eq!(
            findings.to_text(&Bencher).unwrap(),
            both.to_text(&Bencher).unwrap()
        );
    }
}
