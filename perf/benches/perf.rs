//! Cost of reading a counter session: picollo's syscall group read and rdpmc fast path
//! against the `perf-event2` crate's group read, same counters, same run; and the cost of a
//! scope (begin + end + record). Figures, not assertions.
//!
//! `cargo bench -p picollo-perf --bench perf`
//!
//! Hardware counters are used for rdpmc where the machine has a PMU; the syscall figures
//! use software counters so every machine can compare them. The last line is the summary:
//! `bench perf: syscall_read=<ns> rdpmc_read=<ns|n/a> perf_event2_read=<ns> scope=<ns>
//! chosen=<read(2)|rdpmc|n/a>` (3 counters; `chosen`: the path a default session takes,
//! both timed at its open).

#[path = "../../core/benches/report/mod.rs"]
mod report;

use std::hint::black_box;

use perf_event::events::Software;
use perf_event::{Builder, Group, ReadFormat};
use picollo::{Config, Histogram};
use picollo_perf::time::{current_cpu, monotonic_nanos, pin_current_thread, ticks, ScopeExt};
use picollo_perf::{
    Event, HardwareEvent, ReadPath, ReadPolicy, Session, SessionBuilder, SoftwareEvent,
};

const SOFTWARE: [SoftwareEvent; 6] = [
    SoftwareEvent::TaskClock,
    SoftwareEvent::PageFaults,
    SoftwareEvent::ContextSwitches,
    SoftwareEvent::CpuMigrations,
    SoftwareEvent::MinorPageFaults,
    SoftwareEvent::MajorPageFaults,
];
const PEER_SOFTWARE: [Software; 6] = [
    Software::TASK_CLOCK,
    Software::PAGE_FAULTS,
    Software::CONTEXT_SWITCHES,
    Software::CPU_MIGRATIONS,
    Software::PAGE_FAULTS_MIN,
    Software::PAGE_FAULTS_MAJ,
];
const HARDWARE: [HardwareEvent; 6] = [
    HardwareEvent::CpuCycles,
    HardwareEvent::Instructions,
    HardwareEvent::RefCpuCycles,
    HardwareEvent::BranchInstructions,
    HardwareEvent::BranchMisses,
    HardwareEvent::CacheReferences,
];
const ROUNDS: usize = 7;

/// Cost per call of `f` in (ns, ticks): the best of several rounds (the least disturbed).
fn measure(iterations: u64, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..iterations / 10 {
        f(); // warm up
    }
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        let (n0, t0) = (monotonic_nanos(), ticks());
        for _ in 0..iterations {
            f();
        }
        let (n1, t1) = (monotonic_nanos(), ticks());
        let ns = (n1 - n0) as f64 / iterations as f64;
        if ns < best.0 {
            best = (ns, (t1 - t0) as f64 / iterations as f64);
        }
    }
    best
}

/// A session of `events`, read as `policy` says (the rdpmc column forces the user-space
/// read, to time it even where a session would not choose it).
fn session_read(
    events: impl IntoIterator<Item = Event>,
    policy: ReadPolicy,
) -> Result<Session, String> {
    let mut b = SessionBuilder::new()
        .with_calibration(false)
        .with_read_policy(policy);
    for e in events {
        b = b.with_counter(e);
    }
    b.open().map_err(|e| e.to_string())
}

fn session(events: impl IntoIterator<Item = Event>) -> Result<Session, String> {
    session_read(events, ReadPolicy::UserSpace)
}

/// The path a default session of 3 counters takes (hardware where they open, else
/// software) and its line saying why: `read(2)` or `rdpmc`.
fn chosen() -> (&'static str, String) {
    let hardware = session_read(HARDWARE[..3].iter().map(|&e| e.into()), ReadPolicy::Auto);
    let s = hardware
        .or_else(|_| session_read(SOFTWARE[..3].iter().map(|&e| e.into()), ReadPolicy::Auto));
    match s {
        Ok(s) => {
            let c = s.read_path_choice();
            let name = if c.path == ReadPath::Rdpmc {
                "rdpmc"
            } else {
                "read(2)"
            };
            (name, c.to_string())
        }
        Err(e) => ("n/a", e),
    }
}

fn peer_group(n: usize) -> std::io::Result<(Group, Vec<perf_event::Counter>)> {
    // The first counter leads, like ours (Group::new() would add a dummy leader).
    let mut leader = Builder::new(PEER_SOFTWARE[0]);
    leader.read_format(
        ReadFormat::GROUP
            | ReadFormat::ID
            | ReadFormat::TOTAL_TIME_ENABLED
            | ReadFormat::TOTAL_TIME_RUNNING,
    );
    let mut group = leader.build_group()?;
    let mut members = Vec::new();
    for &e in &PEER_SOFTWARE[1..n] {
        members.push(group.add(&Builder::new(e))?);
    }
    group.enable()?;
    Ok((group, members))
}

fn cell((ns, ticks): (f64, f64)) -> String {
    format!("{ns:>7.1} ns ({ticks:>6.0} ticks)")
}

/// Why the rdpmc column is empty, if it is.
fn rdpmc_unavailable() -> Option<String> {
    match session([Event::Hardware(HARDWARE[0])]) {
        Ok(s) if s.rdpmc_possible() => None,
        Ok(_) => Some("the counter page could not be mapped".to_string()),
        Err(e) => Some(e),
    }
}

/// One table row for `n` counters: (read(2), rdpmc, perf-event2) costs in ns.
fn row(n: usize, iterations: u64, rdpmc: bool) -> (f64, Option<f64>, f64) {
    let mut ours = session(SOFTWARE[..n].iter().map(|&e| Event::Software(e)))
        .expect("software counters open on Linux");
    let syscall = measure(iterations, || {
        black_box(ours.read(true).ok());
    });
    let rdpmc = rdpmc
        .then(|| session(HARDWARE[..n].iter().map(|&e| Event::Hardware(e))).ok())
        .flatten()
        .and_then(|mut s| {
            let path = s.read(false).ok()?;
            (path == ReadPath::Rdpmc).then(|| {
                measure(iterations * 5, || {
                    black_box(s.read(false).ok());
                })
            })
        });
    let (mut group, _members) = peer_group(n).expect("perf-event2 software group");
    let peer = measure(iterations, || {
        black_box(group.read().ok());
    });
    println!(
        "| {n:>8} | {} | {:<25} | {} | {:>21.2} |",
        cell(syscall),
        rdpmc.map_or_else(|| "n/a".to_string(), cell),
        cell(peer),
        syscall.0 / peer.0
    );
    (syscall.0, rdpmc.map(|r| r.0), peer.0)
}

/// The cost of a nano scope and a tick scope (begin + end + record).
fn scopes(iterations: u64) -> (f64, f64) {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().expect("default config");
    let scope = measure(iterations * 50, || {
        let _s = black_box(h.nano_scope());
    });
    let tick_scope = measure(iterations * 50, || {
        let _s = black_box(h.tick_scope());
    });
    println!();
    println!(
        "scope (begin + end + record): nano {} | tick {}",
        cell(scope),
        cell(tick_scope)
    );
    (scope.0, tick_scope.0)
}

fn main() {
    if let Ok(cpu) = current_cpu() {
        let _ = pin_current_thread(cpu); // fewer migrations, steadier figures
    }
    let iterations = 20_000;
    println!("perf_event read cost, best of {ROUNDS} rounds of {iterations} reads");
    println!(
        "syscall and perf-event2 columns: software counters {:?} (first n)",
        &SOFTWARE
    );
    let rdpmc_reason = rdpmc_unavailable();
    if let Some(why) = &rdpmc_reason {
        println!("rdpmc column: n/a: {why}");
    } else {
        println!("rdpmc column: hardware counters {:?} (first n)", &HARDWARE);
    }
    println!();
    println!(
        "| counters | picollo read(2)           | picollo rdpmc             | perf-event2 read          | picollo / perf-event2 |"
    );
    println!("| -------: | :------------------------ | :------------------------ | :------------------------ | --------------------: |");
    let mut summary = (0.0, None, 0.0);
    for n in [1usize, 3, 6] {
        let r = row(n, iterations, rdpmc_reason.is_none());
        if n == 3 {
            summary = r;
        }
    }
    let (scope, _) = scopes(iterations);
    let (path, why) = chosen();
    println!("a default session of 3 counters reads by {why}");
    if let Some(r) = summary.1 {
        println!(
            "rdpmc is {:.1}x cheaper than read(2) (3 counters)",
            summary.0 / r
        );
    }
    report::report(&format!(
        "bench perf: syscall_read={:.0} rdpmc_read={} perf_event2_read={:.0} scope={:.0} \
         chosen={path}",
        summary.0,
        summary
            .1
            .map_or_else(|| "n/a".to_string(), |r| format!("{r:.0}")),
        summary.2,
        scope
    ));
}
