//! A clock that moves in steps: some hosts update the time-stamp counter tens of ticks at a
//! time (26 ticks, about 10 ns, on a 2-core AMD EPYC VM), so a batch's time is known only to
//! within a step, however fine the ticks. The batch is made long enough that a step is a
//! part in a thousand of it, and a comparison's interval is never narrower than the two
//! sides' steps leave uncertain: rounds whose medians land on the same steps every time
//! would otherwise give an interval of no width around a change the steps rounded.

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use common::Clock;
use picollo_bench::{Bench, BenchError, Measured, Meter, Metric, Verdict, SCALE};

/// [`Clock`] read in steps of `step` ns (each read rounded down to a step), stating its step
/// where `states` is set.
struct Stepped {
    clock: Clock,
    step: f64,
    states: bool,
}

impl Stepped {
    fn new(now: &Rc<Cell<f64>>, step: f64, states: bool) -> Self {
        Stepped {
            clock: Clock::new(now),
            step,
            states,
        }
    }

    fn read(&self) -> f64 {
        (self.clock.now.get() / self.step).floor() * self.step
    }
}

impl Meter for Stepped {
    fn metrics(&self) -> Vec<Metric> {
        self.clock.metrics()
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.clock.started = self.read();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let ns = self.read() - self.clock.started;
        out[0] = Measured {
            value: (ns * SCALE as f64) as u64,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated, in steps".into()
    }

    fn clock_step(&self) -> u64 {
        match self.states {
            true => (self.step * SCALE as f64) as u64,
            false => 0,
        }
    }
}

/// Work of `ns` a operation, and 3 ns to reach it a batch, on the clock reading `now`.
fn work(now: &Rc<Cell<f64>>, ns: f64) -> impl FnMut(u64) {
    let now = Rc::clone(now);
    move |k| now.set(now.get() + 3.0 + ns * k as f64)
}

fn bench(seed: u64) -> Bench {
    Bench::new("stepped")
        .with_samples(2_000)
        .with_rounds(20)
        .with_warmup(Duration::ZERO)
        .with_time_budget(Duration::from_secs(3_600))
        .with_seed(seed)
}

#[test]
fn a_batch_spans_a_thousand_steps_of_the_clock() {
    // 299 ns operations on a clock of 10 ns steps: a batch of 34 (10.2 µs) at least. The
    // simulated reads cost nothing, so a clock that states no step gets batches of 1.
    let now = Rc::new(Cell::new(0.0));
    let r = bench(1)
        .run_with(&mut Stepped::new(&now, 10.0, true), work(&now, 299.0))
        .unwrap();
    let k = r.conditions.batch;
    assert!(k as f64 * 299.0 >= 10_000.0 && k <= 40, "batch {k}");
    let silent = bench(1)
        .run_with(&mut Stepped::new(&now, 10.0, false), work(&now, 299.0))
        .unwrap();
    assert_eq!(silent.conditions.batch, 1);
    // A step is a per-operation resolution of 10 ns over the batch.
    let time = &r.metrics[r.time_index()];
    assert!(time.resolution >= 10 * SCALE / k, "{}", time.resolution);
}

#[test]
fn a_comparisons_interval_holds_the_change_the_steps_round() {
    // Batches of 7 operations of 299 ns against 313.95 ns (+5 %), read in steps of 10 ns: a
    // batch reads 209 or 210 steps on one side, 219 or 220 on the other, and the rounds'
    // medians land on the same steps every time (+5.26 %). The interval widened by the
    // steps holds the true +5 % in every seed; one of no width, around the rounded change,
    // misses it.
    let (mut held, mut missed) = (0, 0);
    for seed in 0..10 {
        for states in [true, false] {
            let now = Rc::new(Cell::new(0.0));
            let mut meter = Stepped::new(&now, 10.0, states);
            let (a, b) = (work(&now, 299.0), work(&now, 299.0 * 1.05));
            let pair = bench(seed)
                .with_batch(7)
                .compare_with(&mut meter, ("A", a), ("B", b))
                .unwrap();
            let c = &pair.comparison;
            assert!(matches!(c.verdict, Verdict::Slower(_)), "{c}");
            let holds = c.change.low <= 5.0 && 5.0 <= c.change.high;
            match states {
                true => held += usize::from(holds),
                false => missed += usize::from(!holds),
            }
        }
    }
    println!("stepped clock: +5 % within the interval {held} of 10; missed without the step {missed} of 10");
    assert_eq!(held, 10);
    assert!(missed >= 8, "{missed}");
}
