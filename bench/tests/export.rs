//! The formats for CI (`picollo_bench::export`): each reached by its name; each figure a
//! format writes is the result's own (its median, the 99 % interval of the median, each
//! round's median); the document names its schema; the Markdown summary puts the verdicts
//! first, expands what changed, folds the rest, and stays under GitHub's 1 MiB for 500
//! comparisons; a comparison carries both sides' rates where both declare a throughput of one
//! unit; [`Outputs`] writes each format and the summary to its file, appends the
//! summary to the step summary's, and names a file it cannot write. Python's tests read the
//! same formats with each peer's own reader or schema (python-demo/tests/test_ci_formats.py).

mod common;

use common::{normal, time_result, SplitMix64, TempDir};
use picollo_bench::export::{
    any_format_named, format_named, format_names, median_with_interval, Compared, Entry, Findings,
    OutputError, Outputs, Scope, FORMATS, SUMMARY_LIMIT,
};
use picollo_bench::{BenchResult, Throughput, Verdict};
use serde_json::Value;

/// Two interleaved results of `rounds` rounds: A around `ns` nanoseconds, B the same times
/// (each round's noise shared, as interleaved rounds share the machine's) times `1 + shift`.
fn pair(
    name: &str,
    ns: f64,
    shift: f64,
    rounds: usize,
    rng: &mut SplitMix64,
) -> (BenchResult, BenchResult) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for _ in 0..rounds {
        let round = ns * 1000.0 * (1.0 + 0.02 * normal(rng));
        a.push((round * (1.0 + 0.002 * normal(rng))) as u64);
        b.push((round * (1.0 + shift) * (1.0 + 0.002 * normal(rng))) as u64);
    }
    let (mut ra, mut rb) = (time_result(&format!("{name} A"), a), time_result(name, b));
    ra.pairing = Some(7);
    rb.pairing = Some(7);
    (ra, rb)
}

/// Three pairs: one 20 % slower, one 20 % faster, one unchanged.
fn three(rng: &mut SplitMix64) -> Vec<(BenchResult, BenchResult)> {
    vec![
        pair("parse", 1200.0, 0.2, 20, rng),
        pair("encode", 300.0, -0.2, 20, rng),
        pair("lookup", 45.0, 0.0, 20, rng),
    ]
}

fn text(suite: &Findings<'_>, name: &str) -> String {
    suite.to_text(format_named(name).unwrap()).unwrap()
}

fn json(suite: &Findings<'_>, name: &str) -> Value {
    serde_json::from_str(&text(suite, name)).expect("the format is JSON")
}

#[test]
fn every_format_has_a_name_of_its_own() {
    let names = format_names(None);
    assert_eq!(names.len(), FORMATS.len());
    for (i, name) in names.iter().enumerate() {
        assert!(!names[..i].contains(name), "{name} is in the table twice");
        let lowercase_words = name.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
        assert!(
            lowercase_words,
            "{name:?} is not lowercase words joined by -"
        );
    }
    assert_eq!(
        names,
        [
            "report",
            "summaries",
            "json",
            "log",
            "line",
            "html",
            "bmf",
            "github",
            "gbench",
            "picollo",
            "junit"
        ]
    );
}

#[test]
fn every_format_is_reached_by_its_name_and_an_unknown_name_is_refused() {
    for f in FORMATS {
        assert_eq!(any_format_named(f.name()).unwrap().name(), f.name());
        match f.scope() {
            Scope::All => assert_eq!(format_named(f.name()).unwrap().name(), f.name()),
            Scope::Result => assert!(format_named(f.name()).is_err(), "{}", f.name()),
        }
    }
    assert_eq!(
        format_names(Some(Scope::All)),
        ["bmf", "github", "gbench", "picollo", "junit"]
    );
    let e = format_named("csv").err().expect("no such format");
    assert!(
        e.message().contains(
            "unknown format \"csv\": the formats are bmf, github, gbench, picollo, junit"
        ),
        "{e}"
    );
    let e = any_format_named("csv").err().expect("no such format");
    let all = format_names(None).join(", ");
    assert!(e.message().ends_with(&all), "{e}");
    let e = format_named("report").err().expect("a form of one result");
    assert!(
        e.message()
            .contains("format \"report\" writes one result, not a suite"),
        "{e}"
    );
}

#[test]
fn a_form_of_one_result_writes_one_and_refuses_a_suite_of_two() {
    let mut rng = SplitMix64(3);
    let (a, b) = pair("parse", 100.0, 0.0, 10, &mut rng);
    let line = any_format_named("line").unwrap();
    let one = Findings::of_results(&[&a]).to_text(line).unwrap();
    let mut direct = String::new();
    a.write_line(&mut direct).unwrap();
    assert_eq!(one, direct);
    let e = Findings::of_results(&[&a, &b]).to_text(line).unwrap_err();
    assert!(e.message().contains("writes one result"), "{e}");
}

/// The text between the first `open` and the next `close` after it.
fn between<'t>(text: &'t str, open: &str, close: &str) -> &'t str {
    let start = text.find(open).expect(open) + open.len();
    let end = start + text[start..].find(close).expect(close);
    &text[start..end]
}

#[test]
fn junit_has_a_case_per_benchmark_an_error_per_unmeasured_one_and_a_failure_per_gate() {
    let mut rng = SplitMix64(11);
    let (a, mut b) = pair("x", 1000.0, 0.3, 20, &mut rng);
    b.name = "<&\">'".into();
    let mut suite = Findings::of_pairs(&[(&a, &b)]).unwrap();
    suite.comparisons[0].fails_gate = true;
    let passed = Compared {
        fails_gate: false,
        ..suite.comparisons[0].clone()
    };
    suite.comparisons.push(passed);
    suite.entries.push(Entry {
        name: "broken & gone".into(),
        result: None,
        failed: Some("exit status 3 <core dumped>".into()),
        members: Default::default(),
    });
    let xml = text(&suite, "junit");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite "));
    assert!(xml.ends_with("</testsuite>\n"), "{xml}");
    let head = between(&xml, "<testsuite ", ">");
    assert!(
        head.contains("tests=\"5\" failures=\"1\" errors=\"1\""),
        "{head}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 5, "{xml}");
    assert!(
        xml.contains("name=\"&lt;&amp;&quot;&gt;&apos;\"/>"),
        "{xml}"
    );
    assert!(
        xml.contains("<error message=\"exit status 3 &lt;core dumped&gt;\"/>"),
        "{xml}"
    );
    let mut verdict = String::new();
    suite.comparisons[0]
        .comparison
        .write_verdict(&mut verdict)
        .unwrap();
    assert!(verdict.starts_with("verdict: "), "{verdict}");
    let message = between(&xml, "<failure message=\"", "\"");
    let unescaped = message
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
    assert_eq!(unescaped, verdict);
    assert_eq!(xml.matches("<failure ").count(), 1);
    assert_eq!(xml.matches("<system-out>").count(), 1);
    // Outside the tags, no markup character is bare: every `<` opens a tag, every `&` an
    // entity.
    for (i, _) in xml.match_indices('&') {
        let entity = &xml[i..xml[i..].find(';').map_or(xml.len(), |e| i + e + 1)];
        let known = [
            "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#9;", "&#10;", "&#13;",
        ];
        assert!(known.contains(&entity), "{entity:?} in {xml}");
    }
}

#[test]
fn bencher_gets_each_metric_at_its_median_inside_its_99_percent_interval() {
    let mut rng = SplitMix64(1);
    let pairs = three(&mut rng);
    let results: Vec<&BenchResult> = pairs.iter().map(|p| &p.1).collect();
    let bmf = json(&Findings::of_results(&results), "bmf");
    let object = bmf.as_object().unwrap();
    assert_eq!(object.len(), 3);
    for r in &results {
        let latency = &bmf[&r.name]["latency"];
        let value = latency["value"].as_f64().unwrap();
        assert_eq!(value, r.percentile("time", 50.0).unwrap());
        let (lo, hi) = (
            latency["lower_value"].as_f64().unwrap(),
            latency["upper_value"].as_f64().unwrap(),
        );
        assert!(lo <= value && value <= hi && lo < hi, "{latency}");
        assert_eq!((lo, hi), median_with_interval(r, 0).1.unwrap());
    }
}

#[test]
fn github_action_gets_one_entry_per_benchmark_with_its_range() {
    let mut rng = SplitMix64(2);
    let pairs = three(&mut rng);
    let results: Vec<&BenchResult> = pairs.iter().map(|p| &p.1).collect();
    let entries = json(&Findings::of_results(&results), "github");
    let entries = entries.as_array().unwrap();
    assert_eq!(entries.len(), 3, "time only: no exact metric");
    for (e, r) in entries.iter().zip(&results) {
        assert_eq!(e["name"], r.name.as_str());
        assert_eq!(e["unit"], "ns");
        let (value, (lo, hi)) = (
            e["value"].as_f64().unwrap(),
            median_with_interval(r, 0).1.unwrap(),
        );
        assert_eq!(value, r.percentile("time", 50.0).unwrap());
        let half = ((value - lo).max(hi - value) * 1000.0).round() / 1000.0;
        assert_eq!(e["range"], format!("± {half}"));
        assert!(
            e["extra"]
                .as_str()
                .unwrap()
                .contains(&format!("[{lo}, {hi}] ns")),
            "{e}"
        );
    }
}

#[test]
fn google_benchmark_gets_a_repetition_per_round_and_the_aggregates_over_them() {
    let mut rng = SplitMix64(3);
    let pairs = three(&mut rng);
    let results: Vec<&BenchResult> = pairs.iter().map(|p| &p.1).collect();
    let file = json(&Findings::of_results(&results), "gbench");
    assert_eq!(file["context"]["json_schema_version"], 1);
    let runs = file["benchmarks"].as_array().unwrap();
    assert_eq!(runs.len(), 3 * (20 + 4));
    for (family, r) in results.iter().enumerate() {
        let mine: Vec<&Value> = runs
            .iter()
            .filter(|x| x["run_name"] == r.name.as_str())
            .collect();
        let times: Vec<f64> = mine
            .iter()
            .filter(|x| x["run_type"] == "iteration")
            .map(|x| x["real_time"].as_f64().unwrap())
            .collect();
        let medians: Vec<f64> = r
            .rounds
            .iter()
            .map(|x| x.value(0, 50.0).unwrap() as f64 / 1000.0)
            .collect();
        assert_eq!(times, medians, "each round's median time");
        let mean = &mine
            .iter()
            .find(|x| x["name"] == format!("{}_mean", r.name))
            .unwrap();
        let expected = medians.iter().sum::<f64>() / medians.len() as f64;
        assert!((mean["real_time"].as_f64().unwrap() - expected).abs() < 1e-9 * expected);
        assert!(mine
            .iter()
            .all(|x| x["family_index"] == family && x["time_unit"] == "ns"));
    }
}

#[test]
fn the_document_names_its_schema_and_holds_each_result_and_comparison() {
    let mut rng = SplitMix64(4);
    let pairs = three(&mut rng);
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let doc = json(&Findings::of_pairs(&refs).unwrap(), "picollo");
    assert_eq!(
        (doc["schema"].as_str(), doc["version"].as_u64()),
        (Some("picollo-bench"), Some(1))
    );
    assert_eq!(doc["commands"].as_array().unwrap().len(), 6);
    let verdicts: Vec<&str> = doc["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["slower", "faster", "no difference"]);
    assert_eq!(doc["commands"][1]["result"]["name"], "parse");
    assert!(Findings::of_pairs(&[])
        .unwrap_err()
        .message()
        .contains("no comparison"));
}

#[test]
fn a_comparison_carries_both_sides_rates_where_both_declare_one_unit() {
    let mut rng = SplitMix64(8);
    let mut pairs = three(&mut rng);
    let units = [
        (Some(Throughput::Bytes(4096)), Some(Throughput::Bytes(4096))),
        (Some(Throughput::Elements(10)), None),
        (Some(Throughput::Elements(3)), Some(Throughput::Bytes(3))),
    ];
    for ((a, b), (ta, tb)) in pairs.iter_mut().zip(units) {
        (a.throughput, b.throughput) = (ta, tb);
    }
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let doc = json(&Findings::of_pairs(&refs).unwrap(), "picollo");
    let rate_of = |name: &str| {
        let commands = doc["commands"].as_array().unwrap();
        let c = commands.iter().find(|c| c["name"] == name).unwrap();
        c["result"]["throughput"]["perSecond"].clone()
    };
    let bytes = &doc["comparisons"][0]["throughput"];
    assert_eq!(bytes["unit"], "bytes", "{bytes}");
    assert_eq!(bytes["a"], rate_of("parse A"));
    assert_eq!(bytes["b"], rate_of("parse"));
    // 4096 bytes in about 1200 ns (A) and 20 % more (B): their own medians' rates.
    let (a, b) = (bytes["a"].as_f64().unwrap(), bytes["b"].as_f64().unwrap());
    assert!(a > 3.0e9 && b < a, "{bytes}");
    // One side without a throughput, or rates of two units: nothing to set side by side.
    assert!(doc["comparisons"][1]["throughput"].is_null(), "{doc}");
    assert!(doc["comparisons"][2]["throughput"].is_null(), "{doc}");
    assert!(rate_of("lookup").is_f64());
}

#[test]
fn a_name_given_twice_is_told_apart_in_every_format() {
    let mut rng = SplitMix64(5);
    let (a, mut b) = pair("same", 10.0, 0.0, 10, &mut rng);
    b.name = a.name.clone();
    let suite = Findings::of_results(&[&a, &b]);
    let bmf = json(&suite, "bmf");
    assert!(
        bmf.get("same A").is_some() && bmf.get("same A (2)").is_some(),
        "{bmf}"
    );
}

#[test]
fn a_summary_puts_the_verdicts_first_expands_what_changed_and_folds_the_rest() {
    let mut rng = SplitMix64(6);
    let pairs = three(&mut rng);
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let suite = Findings::of_pairs(&refs).unwrap();
    let verdicts: Vec<Verdict> = suite
        .comparisons
        .iter()
        .map(|c| c.comparison.verdict)
        .collect();
    assert!(
        matches!(
            verdicts[..],
            [
                Verdict::Slower(_),
                Verdict::Faster(_),
                Verdict::NoDifference
            ]
        ),
        "{verdicts:?}"
    );
    let mut md = String::new();
    suite.write_summary(&mut md).unwrap();
    println!("{md}");
    assert!(md.starts_with("### Picollo: 3 comparisons: 🔴 1 slower, 🟢 1 faster, ⚪ 1 unchanged, 🟡 0 not judged\n"), "{md}");
    let at = |needle: &str| {
        md.find(needle)
            .unwrap_or_else(|| panic!("{needle} in {md}"))
    };
    let row = at("| parse vs parse A |");
    assert!(md[row..]
        .lines()
        .next()
        .unwrap()
        .ends_with("| 🔴 ▲ slower |"));
    assert!(at("| encode vs encode A |") < at("| lookup vs lookup A |"));
    let (changed, folded) = (
        at("#### What changed"),
        at("<details><summary>Unchanged or not judged: 1</summary>"),
    );
    assert!(
        row < changed
            && changed < at("##### 🔴 ▲ slower: parse vs parse A (+")
            && at("##### ⚪ = no difference: lookup vs lookup A") > folded
    );
    assert!(at("| P99 | ") > changed, "the percentile rows");
    assert!(at("</details>") < at("#### Method and conditions"));
}

#[test]
fn a_summary_of_500_comparisons_stays_under_githubs_limit() {
    let mut rng = SplitMix64(7);
    let shifts = [0.1, -0.1, 0.0, 0.003];
    let pairs: Vec<_> = (0..500)
        .map(|i| {
            pair(
                &format!("bench_{i:03}"),
                100.0 + i as f64,
                shifts[i % 4],
                16,
                &mut rng,
            )
        })
        .collect();
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut md = String::new();
    Findings::of_pairs(&refs)
        .unwrap()
        .write_summary(&mut md)
        .unwrap();
    println!(
        "summary of 500 comparisons: {} bytes ({:.1} % of GitHub's 1 MiB)",
        md.len(),
        md.len() as f64 / SUMMARY_LIMIT as f64 * 100.0
    );
    assert!(md.len() < SUMMARY_LIMIT);
    assert!(md.matches(" vs bench").count() >= 500);
    assert!(
        md.contains("### Picollo: 500 comparisons: 🔴 125 slower, 🟢 125 faster"),
        "{}",
        &md[..200]
    );
}

/// A folder of this test's own, removed when the test ends.
fn temp(name: &str) -> TempDir {
    TempDir::new(&format!("export-{name}"))
}

#[test]
fn outputs_go_each_to_its_file_and_the_summary_is_appended_to_the_step_summary() {
    let mut rng = SplitMix64(9);
    let pairs = three(&mut rng);
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let suite = Findings::of_pairs(&refs).unwrap();
    let dir = temp("route");
    let step = dir.join("step.md");
    std::fs::write(&step, "an earlier step\n").unwrap();
    let outputs = Outputs {
        exports: vec![(format_named("bmf").unwrap(), dir.join("bmf.json"))],
        summary: Some(dir.join("summary.md")),
        step: Some(step.clone()),
    };
    outputs.check().unwrap();
    // The check empties the files it will write and keeps the step summary's.
    assert_eq!(std::fs::read_to_string(dir.join("bmf.json")).unwrap(), "");
    assert_eq!(std::fs::read_to_string(&step).unwrap(), "an earlier step\n");
    outputs.write(&suite).unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("bmf.json"), text(&suite, "bmf"));
    let mut summary = String::new();
    suite.write_summary(&mut summary).unwrap();
    assert_eq!(read("summary.md"), summary);
    assert_eq!(read("step.md"), format!("an earlier step\n{summary}"));
}

#[test]
fn an_output_that_cannot_be_written_is_named_with_its_cause() {
    let missing = std::path::PathBuf::from("/nonexistent/picollo/out.json");
    let export = Outputs {
        exports: vec![(format_named("gbench").unwrap(), missing.clone())],
        ..Outputs::default()
    };
    let e = export.check().unwrap_err();
    assert!(matches!(&e, OutputError::Io(what, _) if *what == missing.display().to_string()));
    assert!(
        e.to_string().starts_with("/nonexistent/picollo/out.json: "),
        "{e}"
    );
    let step = Outputs {
        step: Some(missing.clone()),
        ..Outputs::default()
    };
    let e = step.check().unwrap_err().to_string();
    assert!(
        e.starts_with("GITHUB_STEP_SUMMARY (/nonexistent/picollo/out.json): "),
        "{e}"
    );
}
