//! Meters compose and say what they measure: a source of figures that is no perf event sits
//! beside a clock with its own kind and unit, and the harness finds time, and time on the
//! CPU, by their kinds wherever they stand.
#![cfg(target_os = "linux")]

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use picollo_bench::rules::median_round;
use picollo_bench::{
    Bench, BenchError, ClockMeter, Measured, Meter, Metric, MetricKind, Source, Unit, SCALE,
};

/// Bytes "allocated" by the work, as a test's allocator would count them.
struct Allocated {
    bytes: Rc<Cell<u64>>,
    at_start: u64,
    log: Rc<RefCell<Vec<&'static str>>>,
}

impl Source for Allocated {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("allocated", Unit::Bytes, MetricKind::Counter)]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.log.borrow_mut().push("source start");
        self.at_start = self.bytes.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        self.log.borrow_mut().push("source stop");
        out[0] = Measured {
            value: (self.bytes.get() - self.at_start) * SCALE,
            ..Measured::default()
        };
        Ok(())
    }
}

/// A clock that charges 7 ns an operation and logs its calls.
struct SimClock {
    ops: Rc<Cell<u64>>,
    at_start: u64,
    halted: Option<u64>,
    log: Rc<RefCell<Vec<&'static str>>>,
}

impl Meter for SimClock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::time()]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.log.borrow_mut().push("clock start");
        self.at_start = self.ops.get();
        Ok(())
    }

    fn halt(&mut self) -> Result<(), BenchError> {
        self.log.borrow_mut().push("clock halt");
        self.halted = Some(self.ops.get());
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        self.log.borrow_mut().push("clock stop");
        let end = self.halted.take().unwrap_or(self.ops.get());
        out[0] = Measured {
            value: (end - self.at_start) * 7 * SCALE,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// Work of `k` operations, each 8 bytes allocated, counted in `ops` and `bytes`.
fn allocating(ops: Rc<Cell<u64>>, bytes: Rc<Cell<u64>>) -> impl FnMut(u64) {
    move |k| {
        ops.set(ops.get() + k);
        bytes.set(bytes.get() + 8 * k);
    }
}

fn quick(name: &str) -> Bench {
    Bench::new(name)
        .with_samples(300)
        .with_warmup(Duration::from_millis(50))
        .with_time_budget(Duration::from_millis(500))
}

#[test]
fn a_source_beside_a_clock_reads_inside_the_clocks_reads() {
    let (ops, bytes, log) = Default::default();
    let clock = SimClock {
        ops: Rc::clone(&ops),
        at_start: 0,
        halted: None,
        log: Rc::clone(&log),
    };
    let source = Allocated {
        bytes: Rc::clone(&bytes),
        at_start: 0,
        log: Rc::clone(&log),
    };
    let mut meter = clock.with(source);
    let mut out = [Measured::default(); 2];
    meter.start().unwrap();
    allocating(ops, bytes)(3);
    meter.stop(&mut out).unwrap();
    let order = [
        "source start",
        "clock start",
        "clock halt",
        "source stop",
        "clock stop",
    ];
    assert_eq!(*log.borrow(), order);
    assert_eq!([out[0].value, out[1].value], [21 * SCALE, 24 * SCALE]);
}

#[test]
fn a_boxed_source_beside_a_boxed_meter_reads_as_the_unboxed_ones() {
    let (ops, bytes, log) = Default::default();
    let clock: Box<dyn Meter> = Box::new(SimClock {
        ops: Rc::clone(&ops),
        at_start: 0,
        halted: None,
        log: Rc::clone(&log),
    });
    let source: Box<dyn Source> = Box::new(Allocated {
        bytes: Rc::clone(&bytes),
        at_start: 0,
        log: Rc::clone(&log),
    });
    let mut meter = clock.with(source);
    assert_eq!(meter.metrics().len(), 2);
    let mut out = [Measured::default(); 2];
    meter.start().unwrap();
    allocating(ops, bytes)(3);
    meter.stop(&mut out).unwrap();
    let order = [
        "source start",
        "clock start",
        "clock halt",
        "source stop",
        "clock stop",
    ];
    assert_eq!(*log.borrow(), order);
    assert_eq!([out[0].value, out[1].value], [21 * SCALE, 24 * SCALE]);
}

#[test]
fn a_source_that_is_no_perf_event_shows_up_with_its_kind_and_unit() {
    let (ops, bytes): (Rc<Cell<u64>>, Rc<Cell<u64>>) = Default::default();
    let log = Rc::default();
    let source = Allocated {
        bytes: Rc::clone(&bytes),
        at_start: 0,
        log,
    };
    let mut meter = ClockMeter::new().with(source);
    let r = quick("alloc")
        .run_with(&mut meter, allocating(ops, bytes))
        .unwrap();
    let metrics: Vec<_> = r.metrics.iter().map(|m| m.metric.clone()).collect();
    assert_eq!(
        metrics,
        [
            Metric::new("time", Unit::Nanoseconds, MetricKind::Time),
            Metric::new("allocated", Unit::Bytes, MetricKind::Counter),
        ]
    );
    assert!(r.samples > 0);
    assert!(r.figures(1).all(|v| v == 8 * SCALE), "8 bytes an operation");
    assert_eq!(r.time().metric.name, "time");
}

/// A meter whose first metric is a counter and whose second is time (a third, time on the
/// CPU, where `on_cpu`): one operation in 100 is slow (1000 ns, 10 of them on the CPU, no
/// events), the others take 7 ns, all on the CPU, and 2 events.
struct TimeSecond {
    ops: Rc<Cell<u64>>,
    at_start: u64,
    on_cpu: bool,
}

impl Meter for TimeSecond {
    fn metrics(&self) -> Vec<Metric> {
        let mut m = vec![
            Metric::new("events", Unit::Events, MetricKind::Counter),
            Metric::new("wall", Unit::Nanoseconds, MetricKind::Time),
        ];
        if self.on_cpu {
            m.push(Metric::new("cpu", Unit::Nanoseconds, MetricKind::OnCpuTime));
        }
        m
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.at_start = self.ops.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let mut sums = [0u64; 3];
        for op in self.at_start..self.ops.get() {
            let slow = op % 100 == 42;
            let cost = if slow { [0, 1000, 10] } else { [2, 7, 7] };
            sums.iter_mut().zip(cost).for_each(|(s, c)| *s += c);
        }
        for (o, s) in out.iter_mut().zip(sums) {
            *o = Measured {
                value: s * SCALE,
                ..Measured::default()
            };
        }
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

fn run_time_second(on_cpu: bool) -> picollo_bench::BenchResult {
    let ops: Rc<Cell<u64>> = Rc::default();
    let mut meter = TimeSecond {
        ops: Rc::clone(&ops),
        at_start: 0,
        on_cpu,
    };
    let work = move |k| ops.set(ops.get() + k);
    let bench = quick("second").with_batch(1).with_samples(1000);
    bench.run_with(&mut meter, work).unwrap()
}

#[test]
fn time_is_found_by_kind_when_it_is_not_first() {
    let r = run_time_second(false);
    assert_eq!(r.samples, 1000);
    assert_eq!(r.time_index(), 1);
    assert_eq!(r.time().metric.name, "wall");
    assert_eq!(r.time().percentile(50.0), Some(7.0));
    // A run apart is judged on its rounds' median times, not on the first metric's.
    assert_eq!(median_round(&r), 7.0 * SCALE as f64);
    // The bands are of time: the slow operations, which count no events, are the tail.
    let a = r.attribution();
    assert_eq!(a.bands[3].samples, 10);
    assert_eq!(a.bands[3].means, [0.0, 1000.0]);
    let findings = a.findings();
    assert_eq!(findings[0], "> P99: 142.9× the wall of ≤ P50");
}

#[test]
fn time_on_the_cpu_is_found_by_kind_whatever_its_name() {
    let findings = run_time_second(true).attribution().findings();
    let off = findings.iter().find(|f| f.contains("off the CPU"));
    assert_eq!(
        off.map(String::as_str),
        Some(
            "> P99: 99 % of the time off the CPU (task-clock 1 % of the time): preemption or \
             waiting, not work"
        )
    );
}
