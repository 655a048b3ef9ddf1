//! Figures the subtraction floors at 0, and medians below the resolution, on a simulated
//! meter whose read pairs and operations cost what each test sets: the flag, its count and
//! its notes where they must be (the report's row, the line, the JSON, the warnings, the
//! HTML page, a comparison's verdict line), and nowhere where they must not.
#![cfg(target_os = "linux")]

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use picollo_bench::{
    compare, Bench, BenchError, BenchResult, Measured, Meter, Metric, MetricKind, Unit, SCALE,
};

/// What one operation costs: nanoseconds, and events of the counter `misses`.
type Cost = (u64, u64);

/// A meter whose read pairs cost `pairs[i % len]` nanoseconds in turn (and 3 events), and
/// whose operations cost what `cost` says for each (by its number since the meter was made).
struct SimMeter<F: FnMut(u64) -> Cost> {
    ops: Rc<Cell<u64>>,
    started_at: u64,
    pairs: Vec<u64>,
    reads: usize,
    cost: F,
}

impl<F: FnMut(u64) -> Cost> Meter for SimMeter<F> {
    fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::new("time", Unit::Nanoseconds, MetricKind::Time),
            Metric::new("misses", Unit::Events, MetricKind::Counter),
        ]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.started_at = self.ops.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let (mut ns, mut events) = (self.pairs[self.reads % self.pairs.len()], 3);
        self.reads += 1;
        for op in self.started_at..self.ops.get() {
            let (n, e) = (self.cost)(op);
            ns += n;
            events += e;
        }
        out[0] = Measured {
            value: ns * SCALE,
            ..Measured::default()
        };
        out[1] = Measured {
            value: events * SCALE,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// A meter with read pairs of `pairs` ns in turn, and the work that advances it.
fn sim<F: FnMut(u64) -> Cost>(pairs: &[u64], cost: F) -> (SimMeter<F>, impl FnMut(u64)) {
    let ops = Rc::new(Cell::new(0));
    let counter = ops.clone();
    let meter = SimMeter {
        ops,
        started_at: 0,
        pairs: pairs.to_vec(),
        reads: 0,
        cost,
    };
    (meter, move |k| counter.set(counter.get() + k))
}

/// 500 samples of one operation each, after a short warm-up.
fn quick(name: &str) -> Bench {
    Bench::new(name)
        .with_samples(500)
        .with_batch(1)
        .with_warmup(Duration::from_millis(200))
}

fn run(bench: Bench, pairs: &[u64], cost: impl FnMut(u64) -> Cost) -> BenchResult {
    let (mut meter, work) = sim(pairs, cost);
    bench.run_with(&mut meter, work).unwrap()
}

/// Read pairs of 36, 38, 40, 42 and 44 ns in turn: a median of 40 ns and, over 101 of
/// them, a quartile deviation of (42 − 38) / 2 = 2 ns whichever pair comes first.
const JITTER: [u64; 5] = [36, 38, 40, 42, 44];

fn text(write: impl FnOnce(&mut String) -> std::fmt::Result) -> String {
    let mut s = String::new();
    write(&mut s).unwrap();
    s
}

/// The report's row of `metric`.
fn row<'a>(report: &'a str, metric: &str) -> &'a str {
    let start = format!("| {metric} (");
    report.lines().find(|l| l.starts_with(&start)).unwrap()
}

#[test]
fn a_baseline_above_the_work_floors_exactly_the_samples_it_exceeds() {
    // The empty call costs 10 ns; the function 4 ns every fourth call (less than the empty
    // call: floored), 15 ns otherwise.
    let empty = run(quick("the empty function"), &[40], |_| (10, 1));
    assert_eq!(empty.time().resolution, 1, "no spread: a picosecond");
    let bench = quick("f").with_baseline(&empty);
    let r = run(bench, &[40], |op| (if op % 4 == 0 { 4 } else { 15 }, 3));
    assert_eq!(r.samples, 500);
    let t = r.time();
    assert_eq!((t.baseline, t.floored), (10 * SCALE, 125));
    assert!(t.flagged() && !t.below_resolution());
    assert_eq!(t.percentile(50.0), Some(5.0));
    let misses = r.metric("misses").unwrap();
    assert_eq!((misses.floored, misses.resolution), (0, 0));
    assert!(!misses.flagged());

    let report = r.to_string();
    assert!(
        row(&report, "time").contains("(floored 25.0 %)"),
        "{report}"
    );
    assert!(!row(&report, "misses").contains("floored"), "{report}");
    let warning = "- warning: time: floored at 0 in 125 of 500 samples (25.0 %): what was \
                   subtracted (the read pair's median and the median of the empty function)";
    assert!(report.contains(warning), "{report}");
    let line = text(|s| r.write_line(s));
    assert!(line.ends_with("; time: floored 25.0 %"), "{line}");
    let json = text(|s| r.write_json(s));
    let time_json = "\"floored\":125,\"resolution\":1,\"belowResolution\":false,\"flagged\":true";
    let misses_json = "\"floored\":0,\"resolution\":0,\"belowResolution\":false,\"flagged\":false";
    assert!(
        json.contains(time_json) && json.contains(misses_json),
        "{json}"
    );
    let html = text(|s| r.write_html(s));
    assert!(html.contains("(floored 25.0 %)"), "the summary table");
    assert!(html.contains("<p class=\"note\">f: time: floored at 0 in 125"));
}

#[test]
fn a_median_within_the_read_pairs_spread_is_below_the_resolution() {
    // 1 ns of work against read pairs of 40 ± 4 ns: net figures of −3 (floored), −1
    // (floored), 1, 3 and 5 ns in turn.
    let r = run(quick("tiny"), &JITTER, |_| (1, 2));
    let t = r.time();
    assert_eq!((t.overhead, t.resolution), (40 * SCALE, 2 * SCALE));
    assert_eq!(t.floored, 200);
    assert_eq!(t.percentile(50.0), Some(1.0));
    assert!(t.below_resolution() && t.flagged());
    let report = r.to_string();
    let mark = "(floored 40.0 %, P50 ≤ resolution 2.000 ns)";
    assert!(row(&report, "time").contains(mark), "{report}");
    assert!(
        report.contains(
            "- warning: time: its median, 1.000 ns, is within the resolution of \
                         2.000 ns"
        ),
        "{report}"
    );
    assert!(text(|s| r.write_json(s)).contains("\"belowResolution\":true"));
    // The counter's read pairs never vary: its subtraction is exact, a count is a count.
    assert!(!r.metric("misses").unwrap().flagged());
}

#[test]
fn work_well_above_the_read_pairs_spread_is_not_flagged() {
    let r = run(quick("plenty"), &JITTER, |_| (100, 2));
    let t = r.time();
    assert_eq!((t.floored, t.resolution), (0, 2 * SCALE));
    assert!(!t.flagged());
    assert!(r.metrics.iter().all(|m| !m.flagged()));
    let report = r.to_string();
    assert!(
        !report.contains("floored") && !report.contains("resolution"),
        "{report}"
    );
    assert!(!text(|s| r.write_json(s)).contains("\"flagged\":true"));
    assert!(!text(|s| r.write_line(s)).contains("floored"));
}

#[test]
fn a_comparison_says_which_sides_time_was_floored() {
    // Both sides advance one meter; each sets the price of its operations first.
    let price = Rc::new(Cell::new(0u64));
    let charged = price.clone();
    let (mut meter, advance) = sim(&JITTER, move |_| (charged.get(), 0));
    let advance = Rc::new(std::cell::RefCell::new(advance));
    let side = |ns: u64| {
        let (price, advance) = (price.clone(), advance.clone());
        move |k: u64| {
            price.set(ns);
            (advance.borrow_mut())(k);
        }
    };
    let pair = Bench::new("pair")
        .with_samples(400)
        .with_batch(1)
        .with_rounds(10)
        .with_warmup(Duration::from_millis(100))
        .compare_with(&mut meter, ("cheap", side(1)), ("dear", side(200)))
        .unwrap();
    assert!(pair.a.time().flagged() && !pair.b.time().flagged());
    let verdict = text(|s| pair.comparison.write_verdict(s));
    let caveat = " [cheap's time: floored 40.0 %, P50 ≤ resolution 2.000 ns]";
    assert!(verdict.ends_with(caveat), "{verdict}");
    assert!(!verdict.contains("dear's"), "{verdict}");
    let shown = pair.comparison.to_string();
    assert!(
        shown.contains("- warning: cheap: time: floored at 0"),
        "{shown}"
    );
    let again = compare(&pair.b, &pair.b);
    assert!(again.caveat.is_empty());
    assert!(again.warnings.iter().all(|w| !w.contains("floored")));
}

/// A result of runs measured elsewhere: per row, time (ns) and page faults, both × 1000;
/// less the medians of `baseline` where one is given.
fn from_rows(name: &str, rows: &[(u64, u64)], baseline: Option<&BenchResult>) -> BenchResult {
    let metrics = vec![
        Metric::new("time", Unit::Nanoseconds, MetricKind::Time),
        Metric::new("faults", Unit::Events, MetricKind::Counter),
    ];
    let rows = rows
        .iter()
        .flat_map(|&(t, f)| [t * SCALE, f * SCALE])
        .collect();
    let bench = match baseline {
        Some(b) => Bench::new(name).with_baseline(b),
        None => Bench::new(name),
    };
    let warm_up = picollo_bench::WarmUp::default();
    BenchResult::from_rows(&bench, metrics, rows, "elsewhere".into(), warm_up).unwrap()
}

#[test]
fn runs_measured_elsewhere_count_the_floors_of_their_baseline() {
    // A shell's start: 1,000 to 1,300 ns (median 1,100 by nearest rank), 150,001 to
    // 150,004 faults (median 150,002: a sample, not a histogram's bucket).
    let shell = [
        (1_000, 150_001),
        (1_200, 150_002),
        (1_300, 150_004),
        (1_100, 150_003),
    ];
    let shell = from_rows("the shell", &shell, None);
    assert_eq!(
        shell.time().floored,
        0,
        "nothing subtracted, nothing floored"
    );
    let runs = [
        (900, 150_010),
        (1_050, 150_001),
        (5_200, 150_002),
        (1_150, 150_020),
    ];
    let r = from_rows("cmd", &runs, Some(&shell));
    let t = r.time();
    assert_eq!((t.baseline, t.floored), (1_100 * SCALE, 2));
    // The resolution is the baseline's quartile deviation: (1,200 − 1,000) / 2.
    assert_eq!(t.resolution, 100 * SCALE);
    assert_eq!(r.figures(0).collect::<Vec<_>>(), [0, 0, 4_100_000, 50_000]);
    let faults = r.metric("faults").unwrap();
    assert_eq!((faults.baseline, faults.floored), (150_002 * SCALE, 1));
    assert_eq!(r.figures(1).collect::<Vec<_>>(), [8_000, 0, 0, 18_000]);
    assert!(faults.whole(1), "whole counts less a whole count");
    assert!(t.flagged() && faults.flagged());
    let report = r.to_string();
    assert!(row(&report, "time").contains("(floored 50.0 %"), "{report}");
    let warning = "- warning: time: floored at 0 in 2 of 4 runs (50.0 %): what was subtracted \
                   (the median of the shell) exceeded what the run measured";
    assert!(report.contains(warning), "{report}");
    let json = text(|s| r.write_json(s));
    assert!(json.contains("\"baseline\":\"the shell\""), "{json}");
    assert!(
        json.contains("\"baseline\":1100000,\"multiplexed\":false,\"floored\":2"),
        "{json}"
    );
}

#[test]
fn runs_measured_elsewhere_above_their_baseline_are_not_flagged() {
    let shell = from_rows("the shell", &[(1_000, 90), (1_100, 92), (1_050, 91)], None);
    let r = from_rows(
        "cmd",
        &[(6_000, 95), (6_100, 96), (5_900, 97)],
        Some(&shell),
    );
    assert!(
        r.metrics.iter().all(|m| m.floored == 0 && !m.flagged()),
        "{r}"
    );
    assert!(!r.to_string().contains("floored"), "{r}");
}
