//! A benchmark's own batch (`Suite::set_batch`, Google Benchmark's `->Iterations(n)`), on a
//! simulated clock: its work is called with that batch, whatever the suite's settings and
//! the command line say, measured here, on both sides of a comparison and by `--test` (one
//! batch of it); a batch of 0,
//! above 2^24 or of a name no benchmark has is refused.
#![cfg(target_os = "linux")]

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use common::Clock;
use picollo_bench::suite::{Exit, Mode, Suite};
use picollo_bench::Bench;

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// A suite whose `fixed` (its batch set to 7) and `free` cost 10 ns an operation, the
/// suite's batch 10; each batch size `fixed` is called with goes to `seen`.
fn suite(name: &str, seen: &Rc<RefCell<Vec<u64>>>) -> Suite<'static> {
    let now = Rc::new(Cell::new(0.0));
    let settings = Bench::new("sim")
        .with_batch(10)
        .with_samples(200)
        .with_rounds(4)
        .with_warmup(Duration::ZERO);
    let clock = Rc::clone(&now);
    let mut s = Suite::new(name)
        .with_settings(settings)
        .with_meter(move || Box::new(Clock::new(&clock)));
    let (t, seen) = (Rc::clone(&now), Rc::clone(seen));
    s.bench_batched("fixed", move |k| {
        seen.borrow_mut().push(k);
        t.set(t.get() + 10.0 * k as f64);
    });
    let t = Rc::clone(&now);
    s.bench_batched("free", move |k| t.set(t.get() + 10.0 * k as f64));
    s.set_batch("fixed", 7).unwrap();
    s
}

#[test]
fn a_fixed_batch_overrides_the_suites_and_the_command_lines() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut s = suite("fixed", &seen);
    let mut out = Vec::new();
    let a = args(&["--bench", "--seed", "3", "--budget", "0.1"]);
    let report = s.run_args(&a, Mode::Once, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(report.exit, Exit::Ok, "{out}");
    let batch = |name: &str| {
        let r = report.results.iter().find(|r| r.name == name).unwrap();
        r.conditions.batch
    };
    assert_eq!((batch("fixed"), batch("free")), (7, 10), "{out}");
    assert!(out.contains("; batch 7, "), "{out}");
    assert!(
        !seen.borrow().is_empty() && seen.borrow().iter().all(|&k| k == 7),
        "{seen:?}"
    );
    // --test: one batch, of the benchmark's own size.
    seen.borrow_mut().clear();
    let report = s
        .run_args(&args(&["--test"]), Mode::Once, &mut Vec::new())
        .unwrap();
    assert_eq!(
        (report.exit, seen.borrow().as_slice()),
        (Exit::Ok, &[7u64][..])
    );
}

#[test]
fn both_sides_of_a_comparison_run_the_fixed_batch() {
    let (seen_a, seen_b) = (
        Rc::new(RefCell::new(Vec::new())),
        Rc::new(RefCell::new(Vec::new())),
    );
    let (mut a, mut b) = (suite("a", &seen_a), suite("b", &seen_b));
    let report = b.compare_against(&mut a, &args(&["--seed", "5", "--exact", "fixed"]));
    let compared = report.unwrap().compared.remove(0);
    assert_eq!(
        (
            compared.sides.a.conditions.batch,
            compared.sides.b.conditions.batch
        ),
        (7, 7)
    );
    for seen in [seen_a.borrow(), seen_b.borrow()] {
        assert!(!seen.is_empty() && seen.iter().all(|&k| k == 7), "{seen:?}");
    }
}

#[test]
fn a_batch_out_of_range_or_of_no_benchmark_is_refused() {
    let mut s = Suite::new("refused");
    s.bench_batched("f", |_| {});
    for (name, k, why) in [
        ("f", 0, "batch of \"f\": 0 is not 1 to 2^24"),
        (
            "f",
            (1 << 24) + 1,
            "batch of \"f\": 16777217 is not 1 to 2^24",
        ),
        (
            "g",
            7,
            "batch of \"g\": no benchmark of that name is registered",
        ),
    ] {
        let e = s.set_batch(name, k).err().expect("refused");
        assert_eq!(e.message, why);
    }
    assert!(s.set_batch("f", 1 << 24).is_ok());
}
