//! The HTML reports: for random results and comparisons (names with `<`, `&` and quotes
//! included), the numbers the page prints are the result's own (percentiles, max, the
//! comparison's intervals) to the digits shown, the verdict line is there word for word,
//! every tag is closed; a result without rounds and a metric without samples get a page that
//! says so; a report of 16 metrics × 100 rounds stays under 1 MB.

mod common;

use common::SplitMix64;
use picollo_bench::html::escape;
use picollo_bench::rules::ROUND_RANKS;
use picollo_bench::{compare, Bench, BenchResult, Metric, MetricKind, Round, Unit, WarmUp};

/// A result of `metrics` metrics (time first, then event counts) over `samples` samples of
/// log-normal-ish figures around `scale` (thousandths of the unit), in histograms of a
/// relative error drawn from 1 %, 0.1 % and the harness's 0.01 %.
fn random_result(
    name: &str,
    rng: &mut SplitMix64,
    metrics: usize,
    samples: usize,
    scale: f64,
) -> BenchResult {
    let error = [0.01, 0.001, 0.0001][(rng.next_f64() * 3.0) as usize % 3];
    let mut list = vec![Metric::new(
        "time",
        Unit::parse("ns").unwrap(),
        MetricKind::Time,
    )];
    list.extend((1..metrics).map(|i| {
        Metric::new(
            &format!("Counter<{i}>&\"x\""),
            Unit::parse("events").unwrap(),
            MetricKind::Counter,
        )
    }));
    let rows: Vec<u64> = (0..samples * metrics)
        .map(|_| (scale * (1.5 * common::normal(rng)).exp()) as u64)
        .collect();
    let bench = Bench::new(name).with_relative_error(error);
    BenchResult::from_rows(&bench, list, rows, "test".into(), WarmUp::default()).unwrap()
}

fn page_of(r: &BenchResult) -> String {
    let mut page = String::new();
    r.write_html(&mut page).unwrap();
    page
}

/// The text of the cell `<td … data-metric="M" data-side="S" data-rank="R">`.
fn cell<'a>(page: &'a str, metric: &str, side: &str, rank: f64) -> Option<&'a str> {
    let key = format!(
        "data-metric=\"{}\" data-side=\"{}\" data-rank=\"{rank}\">",
        escape(metric),
        escape(side)
    );
    let from = page.find(&key)? + key.len();
    Some(&page[from..from + page[from..].find("</td>")?])
}

/// A shown number (`12,345.678`) and the size of its last digit.
fn parse_shown(text: &str) -> (f64, f64) {
    let digits: String = text.chars().filter(|c| *c != ',').collect();
    let decimals = digits.split('.').nth(1).map_or(0, str::len);
    (digits.parse().unwrap(), 10f64.powi(-(decimals as i32)))
}

/// How many of the metric's units one shown unit holds (`µs per op` → 1,000 ns).
fn divisor(unit_cell: &str) -> f64 {
    match unit_cell.split(' ').next().unwrap() {
        "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => 1.0,
    }
}

/// The unit column of metric `name`'s row in the summary table.
fn unit_of(page: &str, name: &str) -> f64 {
    let key = format!("<td>{}</td><td>", escape(name));
    let from = page.find(&key).unwrap() + key.len();
    divisor(&page[from..from + page[from..].find("</td>").unwrap()])
}

/// `shown` (in units `div` of the metric) is `value` rounded to its digits.
fn assert_shown(shown: &str, value: f64, div: f64, what: &str) {
    let (v, ulp) = parse_shown(shown);
    let diff = (v * div - value).abs();
    assert!(
        diff <= 0.5 * ulp * div * (1.0 + 1e-9) + 1e-9,
        "{what}: page shows {shown}, result {value}"
    );
}

/// Every open tag is closed in order (the void ones excepted), nothing stray.
fn assert_balanced(page: &str) {
    const VOID: [&str; 2] = ["meta", "!DOCTYPE"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').expect("a tag ends") + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if tag.starts_with('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.as_str()),
                "closing </{name}>"
            );
        } else if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "left open: {stack:?}");
}

#[test]
fn a_results_page_prints_its_own_percentiles_and_max() {
    let mut rng = SplitMix64(7);
    for trial in 0..24 {
        let metrics = 1 + trial % 4;
        let scale = [800.0, 40_000.0, 3e7, 5e10][trial % 4];
        let name = format!("r{trial} <a&b> \"q\" 'x'");
        let r = random_result(&name, &mut rng, metrics, 50 + 37 * trial, scale);
        let page = page_of(&r);
        assert_balanced(&page);
        for (i, m) in r.metrics.iter().enumerate() {
            let div = unit_of(&page, &m.metric.name);
            for rank in [0.0, 50.0, 90.0, 99.0, 99.9] {
                let shown =
                    cell(&page, &m.metric.name, &r.name, rank).expect("a percentile's cell");
                assert_shown(
                    shown,
                    r.percentile_at(i, rank).unwrap(),
                    div,
                    &format!("{} P{rank}", m.metric.name),
                );
            }
            let max = cell(&page, &m.metric.name, &r.name, 100.0).unwrap();
            assert_shown(max, r.max_at(i).unwrap(), div, "max");
        }
    }
}

#[test]
fn a_comparisons_page_prints_its_verdict_and_every_interval() {
    let mut rng = SplitMix64(11);
    for trial in 0..15 {
        let metrics = 1 + trial % 3;
        let scale = [900.0, 70_000.0, 2e8][trial % 3];
        let a = random_result("A <&>", &mut rng, metrics, 200, scale);
        let b = random_result(
            "B \"new\"",
            &mut rng,
            metrics,
            200,
            scale * (1.0 + 0.05 * (trial % 5) as f64),
        );
        let c = compare(&a, &b);
        let mut page = String::new();
        c.write_html(&a, &b, &mut page).unwrap();
        assert_balanced(&page);
        let mut verdict = String::new();
        c.write_verdict(&mut verdict).unwrap();
        assert!(
            page.contains(&format!("<p class=\"verdict\">{}</p>", escape(&verdict))),
            "{verdict}"
        );
        for d in &c.metrics {
            let div = unit_of_diff(&page, &d.name);
            for row in &d.rows {
                let key = format!(
                    "data-metric=\"{}\" data-interval=\"{}\">",
                    escape(&d.name),
                    row.rank
                );
                let from = page.find(&key).expect("an interval's cell") + key.len();
                let text = &page[from..from + page[from..].find("</td>").unwrap()];
                match row.interval {
                    None => assert_eq!(text, "—"),
                    Some((lo, hi)) => {
                        let (l, h) = text.trim_matches(['[', ']']).split_once(", ").unwrap();
                        assert_shown(l, lo, div, "interval low");
                        assert_shown(h, hi, div, "interval high");
                    }
                }
                let a_cell = cell(&page, &d.name, &c.a, row.rank).unwrap();
                assert_shown(a_cell, row.a, div, "A's percentile");
            }
        }
    }
}

/// The unit of metric `name` in the verdict table (`time (µs per op)`).
fn unit_of_diff(page: &str, name: &str) -> f64 {
    let key = format!("<td>{} (", escape(name));
    let from = page.find(&key).unwrap() + key.len();
    divisor(&page[from..])
}

#[test]
fn a_result_without_rounds_or_samples_gets_a_page_that_says_so() {
    let mut rng = SplitMix64(3);
    let mut r = random_result("empty parts", &mut rng, 2, 100, 5_000.0);
    r.rounds.clear();
    r.metrics[1].histogram.reset();
    let page = page_of(&r);
    assert_balanced(&page);
    assert!(
        page.contains("time: no rounds, so no round medians to draw."),
        "{page}"
    );
    assert!(page.contains(&escape("Counter<1>&\"x\": no samples, so nothing to draw.")));
    assert!(page.contains("no samples</td>"));
}

#[test]
fn sixteen_metrics_of_a_hundred_rounds_stay_under_a_megabyte() {
    let mut rng = SplitMix64(5);
    let mut a = random_result("A", &mut rng, 16, 20_000, 3e6);
    let mut b = random_result("B", &mut rng, 16, 20_000, 3.1e6);
    for r in [&mut a, &mut b] {
        r.rounds = (0..100)
            .map(|k| Round {
                start: k as f64 * 0.01,
                length: 0.01,
                samples: 200,
                first: k % 2 == 0,
                quantiles: vec![ROUND_RANKS.map(|q| 3_000_000 + 1_000 * k + q as u64); 16],
            })
            .collect();
    }
    let c = compare(&a, &b);
    let mut page = String::new();
    c.write_html(&a, &b, &mut page).unwrap();
    assert_balanced(&page);
    println!(
        "16 metrics × 100 rounds × 2 sides, 20,000 samples a side: {} bytes",
        page.len()
    );
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
}
