//! Which benchmarks the groups register, and each one's replay.
//!
//! A criterion target registers a benchmark by calling `bench_function` with a closure that
//! may borrow the target's locals (its inputs), so the closure lives only while the call
//! does. The suite runner, though, calls a benchmark's work whenever it likes (listing,
//! interleaving with another build's worker). So each group is called once to learn the
//! names (the closures are not run), and the work of benchmark N calls its group again:
//! every `bench_function` before N and after it is passed over, and N's closure runs with a
//! [`crate::Bencher`] of the iterations asked for. What runs around the closure (building
//! the inputs) is not timed: the Bencher times its routine alone.

use std::cell::RefCell;

use crate::Throughput;

/// A benchmark a group registered.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// Its whole name, `group/function/parameter`.
    pub name: String,
    /// The work of one iteration, where the group declared it.
    pub throughput: Option<Throughput>,
    /// The counter of its custom measurement's figures, where it has one.
    pub counter: Option<String>,
    /// Its group's place among `criterion_main!`'s groups.
    pub group: usize,
    /// Its place among its group's registrations.
    pub index: usize,
}

/// What the calls of `bench_function` mean now.
enum Pass {
    /// Outside `criterion_main!`.
    Idle,
    /// Learning the names: nothing runs.
    Collect {
        group: usize,
        entries: Vec<Entry>,
        errors: Vec<String>,
    },
    /// Running registration `index` of its group with `iters` iterations.
    Run {
        entry: Entry,
        seen: usize,
        iters: u64,
        ran: bool,
    },
}

thread_local! {
    static PASS: RefCell<Pass> = const { RefCell::new(Pass::Idle) };
}

/// Whether a registered benchmark's closure runs now, and with how many iterations.
pub(crate) enum Action {
    Skip,
    Run(u64),
}

/// Benchmark `name` registered (`bench_function`), its figures beside time going to
/// `counter`: what to do with its closure.
pub(crate) fn register(
    name: String,
    throughput: Option<Throughput>,
    counter: Option<String>,
) -> Action {
    PASS.with_borrow_mut(|pass| match pass {
        Pass::Idle => panic!(
            "benchmark {name:?} registered outside criterion_main!: Picollo's runner calls the groups"
        ),
        Pass::Collect {
            group,
            entries,
            errors: _,
        } => {
            let (group, index) = (*group, entries.iter().filter(|e| e.group == *group).count());
            entries.push(Entry {
                name,
                throughput,
                counter,
                group,
                index,
            });
            Action::Skip
        }
        Pass::Run {
            entry, seen, iters, ..
        } => {
            let this = *seen;
            *seen += 1;
            if this != entry.index {
                return Action::Skip;
            }
            assert_eq!(
                name, entry.name,
                "the group registered other benchmarks this time: register the same ones on every call"
            );
            Action::Run(*iters)
        }
    })
}

/// The benchmark [`register`] said to run has run.
pub(crate) fn ran() {
    PASS.with_borrow_mut(|pass| {
        if let Pass::Run { ran, .. } = pass {
            *ran = true;
        }
    });
}

/// A use criterion refuses too (an empty group name): reported before anything runs.
pub(crate) fn refuse(why: String) {
    PASS.with_borrow_mut(|pass| {
        if let Pass::Collect { errors, .. } = pass {
            errors.push(why);
        }
    });
}

/// Every benchmark the groups register, in order; or what they did that criterion refuses.
pub(crate) fn collect(groups: &[fn()]) -> Result<Vec<Entry>, Vec<String>> {
    let fresh = || Pass::Collect {
        group: 0,
        entries: Vec::new(),
        errors: Vec::new(),
    };
    PASS.set(fresh());
    for (i, group) in groups.iter().enumerate() {
        PASS.with_borrow_mut(|pass| {
            if let Pass::Collect { group, .. } = pass {
                *group = i;
            }
        });
        group();
    }
    match PASS.replace(Pass::Idle) {
        Pass::Collect {
            entries, errors, ..
        } if errors.is_empty() => Ok(entries),
        Pass::Collect { errors, .. } => Err(errors),
        _ => unreachable!("the pass was set to collect above"),
    }
}

/// `entry`'s closure run with a Bencher of `iters` iterations, by calling its group again.
pub(crate) fn replay(groups: &[fn()], entry: &Entry, iters: u64) {
    PASS.set(Pass::Run {
        entry: entry.clone(),
        seen: 0,
        iters,
        ran: false,
    });
    groups[entry.group]();
    let ran = matches!(PASS.replace(Pass::Idle), Pass::Run { ran: true, .. });
    assert!(
        ran,
        "benchmark {:?} was not registered this time: its group must register the same benchmarks on every call",
        entry.name
    );
}
