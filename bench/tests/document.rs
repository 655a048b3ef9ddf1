//! Picollo's JSON document as records: the documents the previous release wrote (a suite's
//! saved baseline of two runs apart, `picollo bench --save` of two commands, a suite's
//! `--against` export) read, their saved results rebuild, and a document written now reads
//! back as the same records.

use std::path::PathBuf;

use picollo_bench::model::document::{ComparisonRecord, Document};
use picollo_bench::saved::{Saved, SavedRounds};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/documents")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_saved_suite_baseline_of_the_previous_release_reads_and_rebuilds() {
    let d = Document::read(&fixture("suite-saved-2-runs.json")).unwrap();
    assert_eq!((d.schema.as_str(), d.version), ("picollo-bench", 1));
    let names: Vec<&str> = d.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sum 1000", "spin 200"]);
    for c in &d.commands {
        let saved = Saved::read(&c.name, c, Some(1.0), SavedRounds::Medians).unwrap();
        assert_eq!(saved.runs_apart.len(), 2, "{}", c.name);
        assert_eq!(saved.runs_apart_by.len(), 3, "{}", c.name);
        assert_eq!(saved.runs_apart_by[0].0, "Software:TaskClock");
        let result = saved.result.as_ref().unwrap();
        let record = c.result.as_ref().unwrap();
        assert_eq!(result.rounds.len(), record.rounds.len());
        assert_eq!(saved.metrics.len(), 4);
        assert!(saved.median.unwrap() > 0.0);
    }
    let sum = Saved::read("sum", &d.commands[0], None, SavedRounds::Medians).unwrap();
    assert_eq!(sum.throughput.unwrap().unwrap().unit(), "elements");
}

#[test]
fn a_saved_picollo_bench_run_of_the_previous_release_reads() {
    let d = Document::read(&fixture("bench-saved-2-commands.json")).unwrap();
    assert_eq!(d.builds, Some(1));
    let tags: Vec<_> = d.commands.iter().map(|c| c.members.tag.clone()).collect();
    assert_eq!(tags, [Some("cmd1".into()), Some("cmd2".into())]);
    assert_eq!(
        d.commands[1].members.command.as_deref(),
        Some("sleep 0.001")
    );
    let saved = Saved::read("truth", &d.commands[0], Some(1.0), SavedRounds::OneRun).unwrap();
    assert_eq!(saved.runs_apart.len(), 2);
    assert_eq!(d.comparisons.len(), 1);
    let c: &ComparisonRecord = &d.comparisons[0];
    assert_eq!(
        (c.baseline.as_deref(), c.tag.as_deref()),
        (Some("cmd1"), Some("cmd2"))
    );
    assert_eq!(c.verdict, "not enough rounds");
}

#[test]
fn a_suites_against_export_of_the_previous_release_reads() {
    let d = Document::read(&fixture("suite-against.json")).unwrap();
    assert_eq!(d.commands.len(), 4);
    assert_eq!(d.comparisons.len(), 2);
    assert!(d.comparisons.iter().all(|c| c.paired && !c.line.is_empty()));
}

#[test]
fn documents_of_another_schema_or_a_later_version_are_refused() {
    let why = Document::read("{\"schema\":\"other\"}").unwrap_err();
    assert!(why.starts_with("not a picollo-bench document"), "{why}");
    let later = "{\"schema\":\"picollo-bench\",\"version\":2,\"commands\":[]}";
    assert!(Document::read(later).unwrap_err().contains("version 2"));
    assert!(Document::read("{not json")
        .unwrap_err()
        .starts_with("not JSON"));
    let bad_unit =
        fixture("bench-saved-2-commands.json").replacen("\"unit\":\"ns\"", "\"unit\":\"ms\"", 1);
    assert!(Document::read(&bad_unit)
        .unwrap_err()
        .contains("unknown unit \"ms\""));
}

/// `v` with every number as an f64 (`0` and `0.0` are one figure).
fn numbers_as_f64(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.into_iter().map(numbers_as_f64).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, numbers_as_f64(v))).collect())
        }
        other => other,
    }
}

#[test]
fn every_member_of_the_previous_release_documents_survives_the_records() {
    for name in [
        "suite-saved-2-runs.json",
        "bench-saved-2-commands.json",
        "suite-against.json",
    ] {
        let text = fixture(name);
        let once = Document::read(&text).unwrap().text();
        let held: serde_json::Value = serde_json::from_str(&text).unwrap();
        let written: serde_json::Value = serde_json::from_str(&once).unwrap();
        assert_eq!(numbers_as_f64(written), numbers_as_f64(held), "{name}");
        // Read and written again, the text is the same.
        assert_eq!(Document::read(&once).unwrap().text(), once, "{name}");
    }
}
