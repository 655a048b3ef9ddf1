//! Untimed stretches: what runs between `pause` and `resume` stays out of a batch's time,
//! through the clock meter alone and through a whole run. Each test spins for a fixed wall
//! time paused and does almost nothing timed; it asserts the figure lies far below the
//! spin, which correct code misses only if the little timed work took 100x its usual time
//! (or the batch was preempted for ~0.1 ms at each of half the samples).
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use picollo_bench::{
    black_box, Bench, BenchError, ClockMeter, Measured, Meter, Metric, MetricKind, Source, Unit,
};

/// The wall time each paused stretch spins for.
const SPIN: Duration = Duration::from_millis(1);

/// Busy for at least `d` of wall time.
fn spin(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        black_box(0);
    }
}

/// One batch of `work` by `meter`, in milliseconds.
fn batch_ms(meter: &mut ClockMeter, work: impl FnOnce()) -> f64 {
    let mut out = [Measured::default()];
    meter.start().unwrap();
    work();
    meter.stop(&mut out).unwrap();
    out[0].value as f64 / 1e9
}

#[test]
fn the_clock_meter_leaves_a_paused_stretch_out_and_counts_it_when_not_paused() {
    let mut meter = ClockMeter::new();
    let spin_ms = SPIN.as_secs_f64() * 1e3;
    let timed = batch_ms(&mut meter, || spin(SPIN));
    assert!(
        timed >= spin_ms,
        "unpaused: {timed} ms for a {spin_ms} ms spin"
    );
    let paused = batch_ms(&mut meter, || {
        picollo_bench::pause();
        spin(SPIN);
        picollo_bench::resume();
    });
    assert!(
        paused < spin_ms / 10.0,
        "paused: {paused} ms of a {spin_ms} ms spin"
    );
    let guarded = batch_ms(&mut meter, || {
        let _untimed = picollo_bench::paused();
        spin(SPIN);
    });
    assert!(
        guarded < spin_ms / 10.0,
        "guard: {guarded} ms of {spin_ms} ms"
    );
}

#[test]
fn a_batch_ending_paused_leaves_out_up_to_its_end_and_the_next_runs_timed() {
    let mut meter = ClockMeter::new();
    let spin_ms = SPIN.as_secs_f64() * 1e3;
    let ended_paused = batch_ms(&mut meter, || {
        picollo_bench::pause();
        picollo_bench::pause(); // a second pause does nothing
        spin(SPIN);
    });
    assert!(ended_paused < spin_ms / 10.0, "{ended_paused} ms");
    let next = batch_ms(&mut meter, || {
        picollo_bench::resume(); // resuming while running does nothing
        spin(SPIN);
    });
    assert!(
        next >= spin_ms,
        "the next batch: {next} ms of a {spin_ms} ms spin"
    );
}

#[test]
fn a_run_whose_work_spins_paused_reports_far_less_than_the_spin() {
    let b = Bench::new("paused")
        .with_batch(1)
        .with_samples(30)
        .with_warmup(Duration::from_millis(20));
    let r = b
        .run(|| {
            picollo_bench::pause();
            spin(SPIN);
            picollo_bench::resume();
            black_box(1u64);
        })
        .unwrap();
    let median_ns = r.time().percentile(50.0).unwrap();
    let spin_ns = SPIN.as_secs_f64() * 1e9;
    assert!(
        median_ns < spin_ns / 10.0,
        "median {median_ns} ns per op against a paused spin of {spin_ns} ns"
    );
}

/// A count beside time that the work cannot pause: calls, 1 each.
struct Calls(std::rc::Rc<std::cell::Cell<u64>>, u64);

impl Source for Calls {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("calls", Unit::Events, MetricKind::Counter)]
    }
    fn start(&mut self) -> Result<(), BenchError> {
        self.1 = self.0.get();
        Ok(())
    }
    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        out[0].value = (self.0.get() - self.1) * picollo_bench::SCALE;
        Ok(())
    }
}

#[test]
fn a_run_that_paused_warns_that_its_counters_count_the_paused_work() {
    let b = Bench::new("counted")
        .with_batch(1)
        .with_samples(20)
        .with_warmup(Duration::from_millis(5));
    let warned = |pausing: bool| {
        let calls = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut meter = ClockMeter::new().with(Calls(calls.clone(), 0));
        let r = b
            .run_with(&mut meter, |k| {
                for _ in 0..k {
                    if pausing {
                        picollo_bench::pause();
                    }
                    calls.set(calls.get() + 1);
                    picollo_bench::resume();
                }
            })
            .unwrap();
        let w = r.conditions.warnings.iter();
        w.filter(|w| w.contains("paused its clock"))
            .cloned()
            .collect::<Vec<_>>()
    };
    let paused = warned(true);
    assert!(
        paused.len() == 1 && paused[0].contains("calls count them"),
        "{paused:?}"
    );
    assert!(warned(false).is_empty());
}
