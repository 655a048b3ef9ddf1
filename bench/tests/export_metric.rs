//! The formats for CI of comparisons judged on a named metric ([`compare_on`]): the document
//! names the judged metric of each comparison and, where a count was judged exactly within
//! its read jitter, holds B − A with its bounds and spreads as the comparison has them; the
//! summary names the metric in its head and in each row, with that metric's medians; the
//! github chart carries the judged metric beside time, and no other counter; Google
//! Benchmark's file has it as a benchmark of its own beside time, every counter a user counter.

mod common;

use common::{normal, SplitMix64};
use picollo_bench::export::{format_named, Compared, Findings};
use picollo_bench::{
    compare, compare_on, Bench, BenchResult, Comparison, Metric, MetricKind, Unit, Verdict, WarmUp,
    SCALE,
};
use serde_json::Value;

/// `runs` runs of `instructions` each (read ±1) taking about 0.3 ns an instruction (±2 %),
/// beside cycles that spread ±5 %.
fn counted(name: &str, instructions: f64, runs: usize, rng: &mut SplitMix64) -> BenchResult {
    let metrics = vec![
        Metric::time(),
        Metric::new("Hardware:Instructions", Unit::Events, MetricKind::Counter),
        Metric::new("Hardware:CpuCycles", Unit::Events, MetricKind::Counter),
    ];
    let mut rows = Vec::new();
    for _ in 0..runs {
        let ns = 0.3 * instructions * (1.0 + 0.02 * normal(rng));
        let read = instructions + rng.below(3) as f64 - 1.0;
        let cycles = instructions * (1.0 + 0.05 * normal(rng));
        rows.extend([ns, read, cycles].map(|v| (v * SCALE as f64) as u64));
    }
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let bench = Bench::new(name);
    BenchResult::from_rows(&bench, metrics, rows, "simulated".into(), warm_up).unwrap()
}

/// A suite of B (2 % more instructions than A) against A judged on instructions (failing a
/// gate), then on time.
fn judged_suite<'a>(a: &'a BenchResult, b: &'a BenchResult) -> (Findings<'a>, Comparison) {
    let on_count = compare_on(a, b, "instructions").unwrap();
    let compared = [(on_count.clone(), true), (compare(a, b), false)];
    let suite = Findings {
        entries: Findings::of_results(&[a, b]).entries,
        sides: Vec::new(),
        comparisons: compared
            .into_iter()
            .map(|(comparison, fails_gate)| Compared {
                comparison,
                baseline: None,
                tag: None,
                fails_gate,
            })
            .collect(),
        ..Findings::default()
    };
    (suite, on_count)
}

fn json(suite: &Findings<'_>, format: &str) -> Value {
    let text = suite.to_text(format_named(format).unwrap()).unwrap();
    serde_json::from_str(&text).expect("the format is JSON")
}

#[test]
fn the_document_names_the_judged_metric_and_holds_its_exact_difference() {
    let mut rng = SplitMix64(21);
    let a = counted("A", 1_000_000.0, 10, &mut rng);
    let b = counted("B", 1_020_000.0, 10, &mut rng);
    let (suite, on_count) = judged_suite(&a, &b);
    let steady = on_count.steady.expect("reads within ±1 are judged exactly");
    assert!(matches!(on_count.verdict, Verdict::Slower(_)), "{on_count}");
    let doc = json(&suite, "picollo");
    let (count, time) = (&doc["comparisons"][0], &doc["comparisons"][1]);
    assert_eq!(count["metric"], "Hardware:Instructions", "{count}");
    let within = &count["withinJitter"];
    let figure = |key: &str| within[key].as_f64().unwrap();
    assert_eq!(figure("difference"), steady.difference.estimate);
    assert_eq!(
        (figure("low"), figure("high")),
        (steady.difference.low, steady.difference.high)
    );
    assert!(
        (19_998.0..=20_002.0).contains(&figure("difference")),
        "{within}"
    );
    let spread = within["spread"].as_array().unwrap();
    assert_eq!(spread[0].as_f64(), Some(steady.spread.0));
    assert!(
        spread.iter().all(|s| s.as_f64().unwrap() <= 2.0),
        "{within}"
    );
    assert_eq!(count["failsGate"], true);
    assert_eq!(time["metric"], "time", "{time}");
    assert!(time["withinJitter"].is_null(), "{time}");
}

#[test]
fn the_summary_names_the_judged_metric_in_its_head_and_rows() {
    let mut rng = SplitMix64(22);
    let a = counted("A", 1_000_000.0, 10, &mut rng);
    let b = counted("B", 1_020_000.0, 10, &mut rng);
    let (suite, _) = judged_suite(&a, &b);
    let mut md = String::new();
    suite.write_summary(&mut md).unwrap();
    println!("{md}");
    let mut lines = md.lines().filter(|l| !l.is_empty());
    assert!(lines
        .next()
        .unwrap()
        .starts_with("### Picollo: 2 comparisons"));
    assert_eq!(
        lines.next(),
        Some(
            "Judged on Hardware:Instructions (slower: B counts more of it than A; faster: fewer)."
        )
    );
    let row = md
        .lines()
        .find(|l| l.starts_with("| B vs A on Hardware:Instructions |"))
        .unwrap_or_else(|| panic!("the judged row in {md}"));
    // A's and B's medians of instructions (a million, and 2 % more, within the histogram's
    // precision), not their times (0.3 ms).
    let medians = |row: &str| -> Vec<f64> {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let figure = |cell: &str| cell.split(' ').next().unwrap().replace(',', "").parse();
        cells[2..4].iter().map(|c| figure(c).unwrap()).collect()
    };
    let near = |v: f64, to: f64| (v / to - 1.0).abs() < 1e-3;
    let (a_count, b_count) = (medians(row)[0], medians(row)[1]);
    assert!(near(a_count, 1e6) && near(b_count, 1.02e6), "{row}");
    assert!(row.ends_with("| 🔴 ▲ slower **✗ gate** |"), "{row}");
    let time_row = md.lines().find(|l| l.starts_with("| B vs A |")).unwrap();
    assert!(time_row.contains(" µs |"), "{time_row}");
    assert!(
        md.contains("(time, unless a row names another: `on NAME`)"),
        "{md}"
    );
    assert!(md.contains("Method: exact within read jitter: the figures of Hardware:Instructions"));
}

#[test]
fn the_github_chart_carries_the_judged_metric_and_no_other_counter() {
    let mut rng = SplitMix64(23);
    let a = counted("A", 1_000_000.0, 10, &mut rng);
    let b = counted("B", 1_020_000.0, 10, &mut rng);
    let names = |suite: &Findings<'_>| -> Vec<String> {
        let entries = json(suite, "github");
        let entries = entries.as_array().unwrap().iter();
        entries
            .map(|e| e["name"].as_str().unwrap().into())
            .collect()
    };
    let (judged, _) = judged_suite(&a, &b);
    assert_eq!(
        names(&judged),
        [
            "A",
            "A (Hardware:Instructions)",
            "B",
            "B (Hardware:Instructions)"
        ]
    );
    assert_eq!(names(&Findings::of_results(&[&a, &b])), ["A", "B"]);
}

/// The per-operation median of metric `index` in each round of `r`, in its unit.
fn round_medians(r: &BenchResult, index: usize) -> Vec<f64> {
    let each = r.rounds.iter().map(|x| x.value(index, 50.0).unwrap());
    each.map(|v| v as f64 / SCALE as f64).collect()
}

#[test]
fn google_benchmark_gets_the_judged_metric_as_a_benchmark_and_every_counter_as_a_user_counter() {
    let mut rng = SplitMix64(24);
    let a = counted("A", 1_000_000.0, 10, &mut rng);
    let b = counted("B", 1_020_000.0, 10, &mut rng);
    let families = |suite: &Findings<'_>| -> Vec<String> {
        let file = json(suite, "gbench");
        let mut names: Vec<String> = Vec::new();
        for run in file["benchmarks"].as_array().unwrap() {
            let name = run["run_name"].as_str().unwrap().to_string();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    };
    let (judged, _) = judged_suite(&a, &b);
    assert_eq!(
        families(&judged),
        [
            "A",
            "A (Hardware:Instructions)",
            "B",
            "B (Hardware:Instructions)"
        ]
    );
    assert_eq!(families(&Findings::of_results(&[&a, &b])), ["A", "B"]);
    let file = json(&judged, "gbench");
    let runs = file["benchmarks"].as_array().unwrap();
    let of = |name: &str, run_type: &str| -> Vec<&Value> {
        let mine = runs.iter().filter(|x| x["run_name"] == name);
        mine.filter(|x| x["run_type"] == run_type).collect()
    };
    let figures = |runs: &[&Value], key: &str| -> Vec<f64> {
        runs.iter().map(|x| x[key].as_f64().unwrap()).collect()
    };
    // compare.py compares real_time and cpu_time: of the count's entry, each round's median
    // count, labelled as not ns.
    let counted_runs = of("B (Hardware:Instructions)", "iteration");
    let instructions = round_medians(&b, 1);
    assert_eq!(figures(&counted_runs, "real_time"), instructions);
    assert_eq!(figures(&counted_runs, "cpu_time"), instructions);
    let label = format!(
        "Hardware:Instructions: events per {}, not ns",
        b.conditions.operation
    );
    let labelled = |x: &&Value| x["label"] == label.as_str() && x["time_unit"] == "ns";
    assert!(counted_runs.iter().all(labelled), "{}", counted_runs[0]);
    // The time's entry: each round's median time, and each counter's median as a user
    // counter, its aggregates over the rounds too.
    let timed = of("B", "iteration");
    assert_eq!(figures(&timed, "real_time"), round_medians(&b, 0));
    assert_eq!(figures(&timed, "Hardware:Instructions"), instructions);
    let cycles = round_medians(&b, 2);
    assert_eq!(figures(&timed, "Hardware:CpuCycles"), cycles);
    assert!(timed.iter().all(|x| x.get("label").is_none()));
    let aggregates = of("B", "aggregate");
    let mean = aggregates.iter().find(|x| x["aggregate_name"] == "mean");
    let mean = mean.expect("two rounds or more")["Hardware:CpuCycles"]
        .as_f64()
        .unwrap();
    let expected = cycles.iter().sum::<f64>() / cycles.len() as f64;
    assert!(
        (mean - expected).abs() <= 1e-9 * expected,
        "{mean} {expected}"
    );
}
