//! Comparisons judged on a named metric, on simulated commands: each run's wall time (noisy,
//! its level moving from process to process as a busy machine's does) beside its counts of
//! instructions (the work's exact count, read with a jitter of ±1 an event), cycles (±5 %)
//! and an emulated count. A count whose runs agree within its read jitter is judged exactly
//! (B − A and its bounds), any other on its rounds or runs apart, as time is. Then two
//! functions interleaved in one process on a simulated thread whose instructions read ±1.

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use picollo_bench::rules::{median_round, median_round_at, JITTER_COUNTS};
use picollo_bench::{
    compare, compare_on, judge_apart, Bench, BenchError, BenchErrorKind, BenchResult, Comparison,
    Measured, Meter, Metric, MetricKind, Unit, Verdict, WarmUp, SCALE,
};

use common::{normal, SplitMix64};

/// How each simulated process runs a command: its instructions, its speed level against
/// the typical process (log scale), the spread of its runs' times, and its cycles' spread.
#[derive(Clone, Copy)]
struct Process {
    instructions: u64,
    level: f64,
    time_noise: f64,
    cycles_noise: f64,
}

fn metrics() -> Vec<Metric> {
    let (ns, events) = (Unit::Nanoseconds, Unit::Events);
    vec![
        Metric::time(),
        Metric::new("Hardware:Instructions", events, MetricKind::Counter),
        Metric::new("Hardware:CpuCycles", events, MetricKind::Counter),
        Metric::new("Emulated:Instructions", events, MetricKind::Exact),
        Metric::new("user", ns, MetricKind::Counter),
    ]
}

/// `runs` runs of a command in process `p`: a run of `n` instructions takes about 0.3 ns
/// each (times its level and noise), counts them ±1, and as many cycles ±5 %.
fn command(name: &str, p: Process, runs: usize, rng: &mut SplitMix64) -> BenchResult {
    let mut rows = Vec::new();
    for _ in 0..runs {
        let n = p.instructions as f64;
        let ns = 0.3 * n * (p.level + p.time_noise * normal(rng)).exp();
        let jitter = rng.below(3) as f64 - 1.0;
        let cycles = n * (1.0 + p.cycles_noise * normal(rng));
        for figure in [ns, n + jitter, cycles, n, ns * 0.9] {
            rows.push((figure * SCALE as f64) as u64);
        }
    }
    let warm_up = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let bench = Bench::new(name);
    BenchResult::from_rows(&bench, metrics(), rows, "simulated".into(), warm_up).unwrap()
}

/// A steady process of `instructions` (time ±2 % a run, cycles ±5 %).
fn steady(instructions: u64) -> Process {
    Process {
        instructions,
        level: 0.0,
        time_noise: 0.02,
        cycles_noise: 0.05,
    }
}

/// A saved baseline's last run, `new` measured apart, judged on `metric` (on runs apart
/// `saved` for a metric that needs them) with `threshold`.
fn gate(saved: &[BenchResult], new: &BenchResult, metric: &str, threshold: f64) -> Comparison {
    let mut base = saved.last().unwrap().clone();
    base.threshold = threshold;
    let mut c = compare_on(&base, new, metric).unwrap();
    let judged = c.metric.clone();
    let index = |r: &BenchResult| r.metrics.iter().position(|m| m.metric == judged);
    let runs: Vec<f64> = saved
        .iter()
        .map(|r| median_round_at(r, index(r).unwrap()))
        .collect();
    judge_apart(&mut c, &runs, median_round_at(new, index(new).unwrap()));
    c
}

#[test]
fn identical_code_read_with_a_jitter_of_one_is_judged_exactly_and_never_differs() {
    let mut rng = SplitMix64(11);
    for trial in 0..20 {
        let a = command("A", steady(1_234_567), 10, &mut rng);
        let b = command("B", steady(1_234_567), 10, &mut rng);
        let c = compare_on(&a, &b, "Hardware:Instructions").unwrap();
        let s = c
            .steady
            .unwrap_or_else(|| panic!("trial {trial}: not judged exactly: {c}"));
        assert_eq!(c.verdict, Verdict::NoDifference, "trial {trial}: {c}");
        assert!(s.spread.0 <= 2.0 && s.spread.1 <= 2.0, "{s:?}");
        assert!(
            s.difference.low >= -2.0 && s.difference.high <= 2.0,
            "{s:?}"
        );
        assert_eq!(c.metric.name, "Hardware:Instructions");
        let line = verdict_line(&c);
        assert!(
            line.starts_with("verdict: no difference between A and B in Hardware:Instructions"),
            "{line}"
        );
        assert!(
            line.contains("(exact within read jitter: B − A = "),
            "{line}"
        );
    }
}

#[test]
fn one_percent_more_instructions_is_caught_every_time() {
    let mut rng = SplitMix64(12);
    for trial in 0..20 {
        let mut a = command("A", steady(1_000_000), 10, &mut rng);
        a.threshold = 0.5;
        let mut b = command("B", steady(1_010_000), 10, &mut rng);
        b.threshold = 0.5;
        let c = compare_on(&a, &b, "hardware:instructions").unwrap();
        let Verdict::Slower(p) = c.verdict else {
            panic!("trial {trial}: {c}");
        };
        assert!((p - 1.0).abs() < 0.001, "trial {trial}: {p} %");
        assert!(
            c.change.low > 0.99 && c.change.high < 1.01,
            "{:?}",
            c.change
        );
        let line = verdict_line(&c);
        let prefix = "verdict: B counts more Hardware:Instructions than A by ";
        assert!(line.starts_with(prefix), "{line}");
        // The other way: fewer.
        let back = compare_on(&b, &a, "Hardware:Instructions").unwrap();
        assert!(matches!(back.verdict, Verdict::Faster(_)), "{back}");
        assert!(verdict_line(&back).contains("counts fewer Hardware:Instructions than"));
    }
}

#[test]
fn a_noisy_time_passes_its_gate_while_thirty_percent_more_instructions_fail_theirs() {
    // A busy machine: each process runs at its own speed level (σ 0.5 in log time, as a
    // noise floor of 60 % and more shows), its runs ±20 % around it.
    let mut rng = SplitMix64(13);
    let process = |instructions: u64, rng: &mut SplitMix64| Process {
        instructions,
        level: 0.5 * normal(rng),
        time_noise: 0.2,
        cycles_noise: 0.05,
    };
    for trial in 0..20 {
        let saved: Vec<BenchResult> = (0..5)
            .map(|_| {
                let p = process(2_000_000, &mut rng);
                command("A", p, 10, &mut rng)
            })
            .collect();
        // 30 % more instructions, hence about 30 % more time.
        let new = command("B", process(2_600_000, &mut rng), 10, &mut rng);
        let time = gate(&saved, &new, "time", 1.0);
        assert!(
            !matches!(time.verdict, Verdict::Slower(_)),
            "trial {trial}: {time}"
        );
        assert_eq!(
            time.verdict,
            judged_on_time(&saved, &new),
            "one rule for time"
        );
        let counted = gate(&saved, &new, "Hardware:Instructions", 1.0);
        let Verdict::Slower(p) = counted.verdict else {
            panic!("trial {trial}: {counted}");
        };
        assert!((p - 30.0).abs() < 0.01, "{p}");
        assert!(
            counted.steady.is_some() && counted.apart.is_none(),
            "{counted}"
        );
    }
}

/// The verdict of `new` against `saved` on time as [`compare`] and [`judge_apart`] give it.
fn judged_on_time(saved: &[BenchResult], new: &BenchResult) -> Verdict {
    let mut c = compare(saved.last().unwrap(), new);
    let runs: Vec<f64> = saved.iter().map(median_round).collect();
    judge_apart(&mut c, &runs, median_round(new));
    c.verdict
}

#[test]
fn a_count_that_varies_is_judged_on_its_rounds_and_runs_apart_as_time_is() {
    let mut rng = SplitMix64(14);
    // Interleaved: the rounds pair up; cycles ±5 % a run, 10 % more found.
    let (mut a, mut b) = (
        command("A", steady(1_000_000), 30, &mut rng),
        command("B", steady(1_100_000), 30, &mut rng),
    );
    (a.pairing, b.pairing) = (Some(7), Some(7));
    let c = compare_on(&a, &b, "Hardware:CpuCycles").unwrap();
    assert!(c.steady.is_none(), "{c}");
    assert!(
        matches!(c.verdict, Verdict::Slower(p) if (5.0..15.0).contains(&p)),
        "{c}"
    );
    let text = c.to_string();
    assert!(
        text.contains(
            "the Wilcoxon signed-rank test on each round's difference of median Hardware:CpuCycles"
        ),
        "{text}"
    );
    // Measured apart: no verdict from the rounds; from runs apart, one.
    let saved: Vec<BenchResult> = (0..5)
        .map(|_| command("A", steady(1_000_000), 10, &mut rng))
        .collect();
    let new = command("B", steady(1_200_000), 10, &mut rng);
    let apart = compare_on(saved.last().unwrap(), &new, "Hardware:CpuCycles").unwrap();
    assert_eq!(apart.verdict, Verdict::NotEnoughRunsApart, "{apart}");
    let c = gate(&saved, &new, "Hardware:CpuCycles", 1.0);
    assert!(matches!(c.verdict, Verdict::Slower(_)), "{c}");
    assert!(c.to_string().contains(
        "B's median round figure of Hardware:CpuCycles against the median round figures of \
         Hardware:CpuCycles of 5 runs apart of A"
    ));
}

#[test]
fn a_count_is_exact_up_to_its_jitter_and_no_further() {
    // Ten runs a side, identical but for one run of A's that lands `off` counts away.
    let judged = |n: u64, off: u64| {
        let rows = |first: u64| {
            let figures = std::iter::once(first).chain(std::iter::repeat_n(n, 9));
            figures
                .flat_map(|x| [1_000 * SCALE, x * SCALE])
                .collect::<Vec<u64>>()
        };
        let metric = vec![
            Metric::time(),
            Metric::new("Software:PageFaults", Unit::Events, MetricKind::Counter),
        ];
        let result = |name: &str, rows: Vec<u64>| {
            let bench = Bench::new(name);
            BenchResult::from_rows(
                &bench,
                metric.clone(),
                rows,
                "test".into(),
                WarmUp::default(),
            )
            .unwrap()
        };
        let (a, b) = (result("A", rows(n + off)), result("B", rows(n)));
        compare_on(&a, &b, "page-faults").unwrap()
    };
    assert!(judged(100, JITTER_COUNTS).steady.is_some());
    assert!(judged(100, JITTER_COUNTS + 1).steady.is_none());
    // One part in ten thousand of the median, where that is wider.
    assert!(judged(1_000_000, 100).steady.is_some());
    assert!(judged(1_000_000, 101).steady.is_none());
    // Nothing in nanoseconds is ever exact, however steady.
    let flat = judged(100, 0);
    assert!(flat.steady.is_some());
    let time = compare(
        &common::time_result("A", vec![5_000; 10]),
        &common::time_result("B", vec![5_000; 10]),
    );
    assert!(time.steady.is_none(), "{time}");
}

#[test]
fn a_count_read_with_jitter_needs_five_runs_a_side_and_an_exact_count_one() {
    let mut rng = SplitMix64(15);
    let a = command("A", steady(1_000_000), 4, &mut rng);
    let b = command("B", steady(1_300_000), 4, &mut rng);
    let c = compare_on(&a, &b, "Hardware:Instructions").unwrap();
    assert_eq!(c.verdict, Verdict::NotEnoughRounds, "{c}");
    assert!(verdict_line(&c).starts_with(
        "verdict: not enough figures to judge B against A in Hardware:Instructions: 4 and 4, \
         where the bounds of B − A hold at 99 % from 5 a side"
    ));
    // Emulated counts have no jitter: one run a side is enough.
    let a = command("A", steady(1_000_000), 1, &mut rng);
    let b = command("B", steady(1_000_001), 1, &mut rng);
    let mut base = a.clone();
    base.threshold = 0.0;
    let c = compare_on(&base, &b, "Emulated:Instructions").unwrap();
    assert!(matches!(c.verdict, Verdict::Slower(_)), "{c}");
    assert_eq!(c.steady.unwrap().difference.estimate, 1.0);
    assert!(c.to_string().contains("(none, an exact count;"), "{c}");
}

#[test]
fn a_metric_the_results_lack_is_refused_with_the_metrics_they_have() {
    let mut rng = SplitMix64(16);
    let a = command("A", steady(1_000), 5, &mut rng);
    let e = compare_on(&a, &a, "Hardware:BranchMisses").unwrap_err();
    assert_eq!(e.kind(), BenchErrorKind::Invalid);
    assert_eq!(
        e.message(),
        "no metric \"Hardware:BranchMisses\" among time, Hardware:Instructions, \
         Hardware:CpuCycles, Emulated:Instructions, user"
    );
    // "instructions" alone names two of them.
    let e = compare_on(&a, &a, "instructions").unwrap_err();
    assert!(e.message().contains("give the whole name"), "{e}");
    // Only the metrics both results have.
    let bench = Bench::new("B");
    let time_only = BenchResult::from_rows(
        &bench,
        vec![Metric::time()],
        vec![1_000; 5],
        "t".into(),
        WarmUp::default(),
    )
    .unwrap();
    let e = compare_on(&a, &time_only, "user").unwrap_err();
    assert_eq!(e.message(), "no metric \"user\" among time");
}

/// A simulated thread: its time in ns and the instructions it retired, both advanced by
/// the work; each read of the instructions lands one either side at random (±1).
struct Thread {
    ns: Rc<Cell<f64>>,
    instructions: Rc<Cell<u64>>,
    rng: SplitMix64,
    started: (f64, i64),
}

impl Thread {
    fn read(&mut self) -> i64 {
        self.instructions.get() as i64 + self.rng.below(3) as i64 - 1
    }
}

impl Meter for Thread {
    fn metrics(&self) -> Vec<Metric> {
        let events = Unit::Events;
        vec![
            Metric::time(),
            Metric::new("Hardware:Instructions", events, MetricKind::Counter),
        ]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.started = (self.ns.get(), self.read());
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        out[0].value = ((self.ns.get() - self.started.0) * SCALE as f64) as u64;
        out[1].value = (self.read() - self.started.1).max(0) as u64 * SCALE;
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// Functions A and B of `a` and `b` instructions, about 0.5 ns each ±30 %, interleaved in
/// one process (100 rounds of one call a sample), judged on instructions.
fn interleaved(a: u64, b: u64, seed: u64) -> Comparison {
    let (ns, instructions) = (Rc::new(Cell::new(0.0)), Rc::new(Cell::new(0)));
    let work = |n: u64, seed: u64| {
        let (ns, instructions) = (ns.clone(), instructions.clone());
        let mut rng = SplitMix64(seed);
        move |k: u64| {
            for _ in 0..k {
                instructions.set(instructions.get() + n);
                ns.set(ns.get() + 0.5 * n as f64 * (0.7 + 0.6 * rng.next_f64()));
            }
        }
    };
    let mut meter = Thread {
        ns: ns.clone(),
        instructions: instructions.clone(),
        rng: SplitMix64(seed ^ 0x5eed),
        started: (0.0, 0),
    };
    let bench = Bench::new("jitter")
        .with_batch(1)
        .with_samples(400)
        .with_rounds(20)
        .with_warmup(Duration::ZERO)
        .with_threshold(0.5)
        .with_seed(seed);
    let pair = bench
        .compare_with(&mut meter, ("A", work(a, seed)), ("B", work(b, seed + 1)))
        .unwrap();
    compare_on(&pair.a, &pair.b, "Hardware:Instructions").unwrap()
}

#[test]
fn in_one_process_identical_functions_never_differ_in_instructions_and_one_percent_is_found() {
    let (mut same, mut found) = (0, 0);
    for seed in 0..20 {
        let c = interleaved(100_000, 100_000, seed);
        assert!(c.steady.is_some(), "{c}");
        same += usize::from(c.verdict == Verdict::NoDifference);
        let c = interleaved(100_000, 101_000, seed);
        found += usize::from(matches!(c.verdict, Verdict::Slower(p) if (p - 1.0).abs() < 0.01));
    }
    println!(
        "instructions read ±1, in one process: A/A no difference {same}/20, +1 % found {found}/20"
    );
    assert_eq!((same, found), (20, 20));
}

/// `c`'s verdict line.
fn verdict_line(c: &Comparison) -> String {
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    line
}
