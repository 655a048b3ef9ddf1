//! The step summary's table of verdicts: one statistic per column, labelled as what it is
//! (each side's whole-run median, and the change as the verdict judged it), and one unit
//! per column, whatever the rows' sizes.

use picollo_bench::export::Findings;
use picollo_bench::{BenchResult, Verdict};

mod common;
use common::{normal, time_result, SplitMix64};

/// Two interleaved results of 20 rounds around `ns` nanoseconds, B `1 + shift` times A.
fn pair(name: &str, ns: f64, shift: f64, rng: &mut SplitMix64) -> (BenchResult, BenchResult) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        let round = ns * 1000.0 * (1.0 + 0.02 * normal(rng));
        a.push((round * (1.0 + 0.002 * normal(rng))) as u64);
        b.push((round * (1.0 + shift) * (1.0 + 0.002 * normal(rng))) as u64);
    }
    let (mut ra, mut rb) = (time_result(&format!("{name} A"), a), time_result(name, b));
    (ra.pairing, rb.pairing) = (Some(7), Some(7));
    (ra, rb)
}

/// The table's lines: its head, its rule and its rows.
fn table(md: &str) -> Vec<&str> {
    let lines = md
        .lines()
        .skip_while(|l| !l.starts_with("| Benchmark (B vs A) |"));
    lines.take_while(|l| l.starts_with('|')).collect()
}

/// A row's cells, trimmed.
fn cells(row: &str) -> Vec<&str> {
    row.trim_matches('|').split('|').map(str::trim).collect()
}

#[test]
fn a_column_of_microseconds_and_milliseconds_shows_one_unit() {
    let mut rng = SplitMix64(3);
    let pairs = [
        pair("small", 5_000.0, 0.0, &mut rng),
        pair("large", 50_000_000.0, 0.0, &mut rng),
    ];
    let refs: Vec<_> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut md = String::new();
    Findings::of_pairs(&refs)
        .unwrap()
        .write_summary(&mut md)
        .unwrap();
    let rows = table(&md);
    assert_eq!(rows.len(), 4, "{md}");
    let head = cells(rows[0]);
    assert_eq!(head[1], "A: median of the run (µs)", "{md}");
    assert_eq!(head[2], "B: median of the run (µs)", "{md}");
    for row in &rows[2..] {
        for cell in &cells(row)[1..3] {
            let number: String = cell.chars().filter(|c| *c != ',').collect();
            let v: f64 = number
                .parse()
                .unwrap_or_else(|_| panic!("{cell:?} in {md}"));
            assert!(v >= 1.0, "{cell} in {md}");
        }
    }
    let large: f64 = cells(rows[3])[1].replace(',', "").parse().unwrap();
    assert!((large / 50_000.0 - 1.0).abs() < 0.05, "{md}");
}

#[test]
fn a_change_judged_against_the_medians_sign_is_labelled_as_another_estimator() {
    let mut rng = SplitMix64(9);
    let (a, b) = pair("drifted", 1_000.0, -0.1, &mut rng);
    let mut suite = Findings::of_pairs(&[(&a, &b)]).unwrap();
    let c = &mut suite.comparisons[0].comparison;
    let p50 = c.metrics[0].rows.iter().find(|r| r.rank == 50.0).unwrap();
    assert!(p50.a > p50.b, "A's whole-run median is the larger: {p50:?}");
    // The rounds' shift says B is slower (rounds that drifted, say): the labels must say
    // the two columns and Δ are different estimators.
    (c.change.estimate, c.change.low, c.change.high) = (5.0, 3.0, 7.0);
    c.verdict = Verdict::Slower(5.0);
    let mut md = String::new();
    suite.write_summary(&mut md).unwrap();
    let rows = table(&md);
    let head = cells(rows[0]);
    assert_eq!(
        &head[1..5],
        [
            "A: median of the run (ns)",
            "B: median of the run (ns)",
            "Δ % as judged",
            "99 % interval of Δ"
        ],
        "{md}"
    );
    assert!(cells(rows[2])[3] == "+5.00 %", "{md}");
    assert!(md.contains("over all its samples (the whole run)"), "{md}");
    assert!(md.contains("the two can differ, even in sign"), "{md}");
}
