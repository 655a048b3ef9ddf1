//! Exact metrics (emulated counts) judged without statistics, on a simulated emulator: a
//! meter whose time is noisy and whose `Emulated:Instructions` counts exactly what the work
//! executed plus a fixed cost per read. The same paths run under QEMU with Picollo's plugin
//! in `scripts/emulate.sh`.
#![cfg(target_os = "linux")]

#[path = "../../core/benches/splitmix/mod.rs"]
mod splitmix;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use picollo_bench::{
    Bench, BenchError, Comparison, Measured, Meter, Metric, MetricKind, Unit, SCALE,
};
use splitmix::SplitMix64;

/// Instructions one read of the simulated emulator costs (as the plugin's system call and
/// the pipe read do): the harness calibrates it away.
const READ_COST: u64 = 57;

/// The simulated guest: time in ns and instructions executed, both advanced by the work.
#[derive(Clone, Default)]
struct Guest {
    ns: Rc<Cell<f64>>,
    instructions: Rc<Cell<u64>>,
}

struct Emulator {
    guest: Guest,
    started: (f64, u64),
}

impl Meter for Emulator {
    fn metrics(&self) -> Vec<Metric> {
        let events = Unit::parse("events").unwrap();
        let time = Unit::parse("ns").unwrap();
        vec![
            Metric::new("time", time, MetricKind::Time),
            Metric::new("Emulated:Instructions", events, MetricKind::Exact),
        ]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        let i = &self.guest.instructions;
        i.set(i.get() + READ_COST);
        self.started = (self.guest.ns.get(), i.get());
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        out[0].value = ((self.guest.ns.get() - self.started.0) * SCALE as f64) as u64;
        out[1].value = (self.guest.instructions.get() - self.started.1) * SCALE;
        let i = &self.guest.instructions;
        i.set(i.get() + READ_COST);
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// Work of `k` operations, each `instructions` long (plus `varying(rng)` when given) and
/// taking about 2 ns an instruction, ±20 %.
fn work(
    guest: &Guest,
    instructions: u64,
    seed: u64,
    varying: Option<u64>,
) -> impl FnMut(u64) + use<> {
    let g = guest.clone();
    let mut rng = SplitMix64(seed);
    move |k| {
        for _ in 0..k {
            let n = instructions + varying.map_or(0, |v| rng.below(v));
            let jitter = 0.8 + 0.4 * rng.next_f64();
            g.instructions.set(g.instructions.get() + n);
            g.ns.set(g.ns.get() + 2.0 * n as f64 * jitter);
        }
    }
}

fn bench() -> Bench {
    Bench::new("exact")
        .with_batch(1)
        .with_samples(400)
        .with_rounds(10)
        .with_warmup(Duration::ZERO)
}

/// An interleaved comparison of operations of `a` and `b` instructions.
fn compared(a: u64, b: u64, seed: u64, varying: Option<u64>) -> Comparison {
    let guest = Guest::default();
    let mut meter = Emulator {
        guest: guest.clone(),
        started: (0.0, 0),
    };
    let pair = bench()
        .with_seed(seed)
        .compare_with(
            &mut meter,
            ("A", work(&guest, a, seed, varying)),
            ("B", work(&guest, b, seed + 1, varying)),
        )
        .unwrap();
    pair.comparison
}

#[test]
fn identical_work_counts_exactly_the_same_with_the_interval_0_0() {
    for seed in 0..20 {
        let c = compared(40_049, 40_049, seed, None);
        let d = c
            .metrics
            .iter()
            .find(|d| d.name == "Emulated:Instructions")
            .unwrap();
        let exact = d.exact.expect("an exact metric");
        assert_eq!(exact.a, Some(40_049.0 + 0.0), "{c}");
        assert_eq!(exact.word(), "no difference", "{c}");
        for r in &d.rows {
            assert_eq!((r.a, r.b), (40_049.0, 40_049.0), "P{}: {c}", r.rank);
            assert_eq!(r.interval, Some((0.0, 0.0)), "P{}: {c}", r.rank);
        }
        let text = c.to_string();
        assert!(
            text.contains(
                "exact: no difference in Emulated:Instructions between A and B: 40,049 per \
                 operation in both, on every operation (B − A = 0, [0, 0])"
            ),
            "{text}"
        );
        // Time is noisy (±20 % an operation): no exact verdict on it.
        assert!(c.metrics[0].exact.is_none());
    }
}

#[test]
fn one_instruction_more_per_operation_is_found_every_time() {
    for seed in 0..20 {
        let c = compared(40_049, 40_050, seed, None);
        let d = &c.metrics[1];
        let exact = d.exact.unwrap();
        assert_eq!(exact.difference(), Some(1.0), "{c}");
        assert_eq!(exact.word(), "more");
        assert!(d.rows.iter().all(|r| r.interval == Some((1.0, 1.0))), "{c}");
        assert!(
            c.to_string().contains(
                "exact: B takes 1 more Emulated:Instructions per operation than A: 40,050 \
                 against 40,049, on every operation (B − A = +1, [+1, +1])"
            ),
            "{c}"
        );
        let back = compared(40_050, 40_049, seed, None);
        assert_eq!(back.metrics[1].exact.unwrap().word(), "fewer");
    }
}

#[test]
fn a_result_s_percentiles_of_an_exact_metric_are_the_counts_themselves() {
    let guest = Guest::default();
    let mut meter = Emulator {
        guest: guest.clone(),
        started: (0.0, 0),
    };
    // 987,654 instructions: a histogram bucket there is ~60 wide at this precision.
    let r = bench()
        .with_relative_error(0.0001)
        .run_with(&mut meter, work(&guest, 987_654, 7, None))
        .unwrap();
    for rank in [0.0, 50.0, 100.0] {
        assert_eq!(r.percentile("Emulated:Instructions", rank), Some(987_654.0));
    }
    assert_eq!(r.constant("Emulated:Instructions"), Some(987_654.0));
    assert_eq!(r.constant("time"), None, "time is not exact");
    // The histogram alone gives its bucket's midpoint, not the count.
    let bucket = r.metric("Emulated:Instructions").unwrap().percentile(50.0);
    assert_ne!(bucket, Some(987_654.0));
    let report = r.to_string();
    assert!(
        report.contains("| Emulated:Instructions (events, exact) | 987,654 | 987,654 |"),
        "{report}"
    );
    let mut json = String::new();
    r.write_json(&mut json).unwrap();
    assert!(json.contains("\"name\":\"Emulated:Instructions\",\"unit\":\"events\",\"exact\":true"));
    assert!(json.contains("\"name\":\"time\",\"unit\":\"ns\",\"exact\":false"));
}

#[test]
fn operations_that_count_differently_are_compared_by_percentile() {
    let c = compared(40_000, 40_000, 3, Some(100));
    let d = &c.metrics[1];
    assert_eq!(d.exact.unwrap().word(), "varies", "{c}");
    assert!(c
        .to_string()
        .contains("exact: Emulated:Instructions varies from operation to operation"));
    // Their percentiles are still the exact counts at those ranks, judged by the rounds.
    let p50 = d.rows.iter().find(|r| r.rank == 50.0).unwrap();
    assert_eq!(p50.a, p50.a.round(), "{c}");
    assert!(p50.interval.is_some(), "{c}");
}

/// The emulator with `inside` instructions of the harness's own between its two reads (the
/// part of a batch's fixed count that the window holds), whose first two batches of
/// `disturbed` instructions count `extra` more each (code the program runs once: a symbol
/// bound at the first call, say).
struct Disturbed {
    emulator: Emulator,
    inside: u64,
    disturbed: u64,
    extra: Vec<u64>,
}

impl Meter for Disturbed {
    fn metrics(&self) -> Vec<Metric> {
        self.emulator.metrics()
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.emulator.start()?;
        let i = &self.emulator.guest.instructions;
        i.set(i.get() + self.inside);
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let i = &self.emulator.guest.instructions;
        if i.get() - self.emulator.started.1 == self.disturbed && !self.extra.is_empty() {
            i.set(i.get() + self.extra.remove(0));
        }
        self.emulator.stop(out)
    }

    fn clock(&self) -> String {
        self.emulator.clock()
    }
}

#[test]
fn a_fixed_part_disturbed_twice_still_gives_the_exact_count() {
    // Batches of 1 and 9 operations of 3,007 instructions with 336 of the harness's in the
    // window; the first two batches of 9 count 3 and 1 more. Their tries' fixed parts,
    // 335.625 and 335.875, are not whole counts; the three that agree give 336, and every
    // operation its 3,007 (the median of the first three tries gave 3,007.125).
    let guest = Guest::default();
    let mut meter = Disturbed {
        emulator: Emulator {
            guest: guest.clone(),
            started: (0.0, 0),
        },
        inside: 336,
        disturbed: 336 + 9 * 3_007,
        extra: vec![3, 1],
    };
    let r = bench()
        .run_with(&mut meter, work(&guest, 3_007, 7, None))
        .unwrap();
    assert_eq!(r.constant("Emulated:Instructions"), Some(3_007.0));
}

/// Instructions of one more turn of the user-space read's loop, which a read that started
/// over (the kernel rewrote the counter's page under it) adds to the count it closes.
const TURN: u64 = 23;

/// A hardware counter read in user space whose closing read races the kernel in one batch
/// of `odds` (drawn from the seed): that batch counts [`TURN`] more and says so
/// ([`Meter::raced`]), as a perf session's reads do ([`picollo_perf::Session::exact`]).
struct Racing {
    emulator: Emulator,
    rng: SplitMix64,
    odds: u64,
    raced: bool,
    races: u64,
}

impl Meter for Racing {
    fn metrics(&self) -> Vec<Metric> {
        let events = Unit::parse("events").unwrap();
        let mut m = self.emulator.metrics();
        m[1] = Metric::new("Hardware:Instructions", events, MetricKind::Counter);
        m
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.emulator.start()
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        self.raced = self.rng.below(self.odds) == 0;
        if self.raced {
            let i = &self.emulator.guest.instructions;
            i.set(i.get() + TURN);
            self.races += 1;
        }
        self.emulator.stop(out)
    }

    fn clock(&self) -> String {
        self.emulator.clock()
    }

    fn raced(&self) -> bool {
        self.raced
    }
}

#[test]
fn a_batch_whose_counter_read_raced_the_kernel_is_measured_again() {
    // 2,000 samples of 4,450 instructions, one read in 20 racing: every sample counts 4,450
    // (recorded as it was, a tenth of them would count 4,473).
    let guest = Guest::default();
    let mut meter = Racing {
        emulator: Emulator {
            guest: guest.clone(),
            started: (0.0, 0),
        },
        rng: SplitMix64(60),
        odds: 20,
        raced: false,
        races: 0,
    };
    let r = bench()
        .with_samples(2_000)
        .run_with(&mut meter, work(&guest, 4_450, 7, None))
        .unwrap();
    let i = r
        .metrics
        .iter()
        .position(|m| m.metric.name == "Hardware:Instructions");
    let figures: Vec<u64> = r.figures(i.unwrap()).collect();
    assert_eq!(figures.len(), 2_000);
    let off = figures.iter().filter(|&&v| v != 4_450 * SCALE).count();
    assert_eq!(off, 0, "samples that do not count 4,450");
    assert!(meter.races >= 50, "{} batches raced", meter.races);
}
