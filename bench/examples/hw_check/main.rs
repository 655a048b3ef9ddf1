//! The hardware check: what this machine's PMU offers, then the checks that need real
//! counters (IPC of a dependent add chain, multiplex scaling with more groups than counters,
//! branch misses of sorted and unsorted bytes, the benchmark harness on the chain, the
//! user-space read against read(2), a raw event against its generic one, and the harness's
//! instructions per operation against the chain's known count). Each check uses the events
//! this PMU opens and is skipped, with the reason, where they do not (an emulated PMU has no
//! branch events). Without a hardware PMU each check says why it is skipped and the program
//! exits 0; with one, a failed check exits 1. Every line starts `hw-check:`.
//! `scripts/hw-check.sh` runs it with the hardware tests and the perf bench;
//! `scripts/pmu-emulated.sh` runs it in an arm64 guest with `exact`.
//!
//! `cargo run --release -p picollo-bench --example hw_check [-- exact]`: `exact` says the
//! PMU counts exactly (an emulator with a fixed instruction clock) and holds the kernel's
//! own multiplexed scaling to 1 %; elsewhere Picollo's scaling is held to the kernel's own
//! error on the machine, measured by the check.
//! `… --example hw_check -- rdpmc '<the bench perf: line>'` judges the perf bench's line.

use std::process::ExitCode;

use picollo_bench::Bench;
use picollo_perf::time::{add_chain, ADD_CHAIN_BLOCK_INSTRUCTIONS};
use picollo_perf::{
    discover, is_counter_supported, supported_counters, Event, HardwareEvent, PerfError, PmuInfo,
    RecordKind, Session, SessionBuilder,
};

#[path = "../../../core/examples/common/branchy.rs"]
mod branchy;
mod checks;
mod paths;

use checks::{Outcome, Repeat, Scaled};

/// The checks `main` runs, by name, in order.
const CHECKS: [&str; 8] = [
    "chain-ipc",
    "multiplex",
    "sorted-branch-misses",
    "harness-chain-ipc",
    "user-read",
    "raw-events",
    "harness-instructions",
    "harness-compare",
];

fn say(what: &str, outcome: &Outcome) {
    println!("hw-check: {what}: {outcome}");
}

/// CPU model, logical CPUs and kernel, as the harness's report reads them.
fn machine() -> String {
    let c = picollo_bench::Conditions::of_machine(None);
    format!(
        "{}, {} logical CPUs, Linux {}",
        c.cpu_model, c.cpus, c.kernel
    )
}

/// The PMU-related CPU flags (/proc/cpuinfo) and the kernel's event sources (sysfs): the
/// evidence of what a machine offers, whether or not counters open.
fn evidence() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let family = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("cpu family")?.split_once(':'))
        .map_or("?", |(_, f)| f.trim());
    let flags: Vec<&str> = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags")?.split_once(':'))
        .map(|(_, f)| f.split_whitespace())
        .into_iter()
        .flatten()
        .filter(|f| {
            matches!(
                *f,
                "hypervisor" | "arch_perfmon" | "perfctr_core" | "perfmon_v2"
            )
        })
        .collect();
    let mut sources: Vec<String> = std::fs::read_dir("/sys/bus/event_source/devices")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    sources.sort();
    format!(
        "cpu family {family}; PMU flags: {}; event sources: {}",
        if flags.is_empty() {
            "none".into()
        } else {
            flags.join(" ")
        },
        sources.join(", ")
    )
}

/// Median per run of `work` of one hardware event's corrected delta.
fn median_of(
    events: &[HardwareEvent],
    runs: usize,
    mut work: impl FnMut(),
) -> Result<Vec<u64>, PerfError> {
    let mut b = SessionBuilder::new().with_kernel(false);
    for &e in events {
        b = b.with_hardware(e);
    }
    let mut s = b.open()?;
    for _ in 0..runs {
        s.read(true)?;
        work();
        s.read(true)?;
        s.record_kind(RecordKind::Corrected);
    }
    let medians = s.counters().iter().map(|c| {
        let v = c.histogram().view();
        v.percentile_value(50.0).unwrap_or(0)
    });
    Ok(medians.collect())
}

fn chain_ipc() -> Result<Outcome, PerfError> {
    const BLOCKS: u64 = 1_000;
    let events = [HardwareEvent::CpuCycles, HardwareEvent::Instructions];
    let m = median_of(&events, 200, || {
        std::hint::black_box(add_chain(std::hint::black_box(BLOCKS)));
    })?;
    Ok(checks::chain_ipc(m[0], m[1], 256 * BLOCKS))
}

/// Repeats of the multiplex check: the kernel's own scaling error is the worst and the
/// median over all of them.
const MULTIPLEX_REPEATS: usize = 5;

/// Branch instructions (one branch per block of 256 adds, none on a fixed counter), or
/// instructions where branch events do not open: the event the multiplex check counts.
fn multiplexed_event() -> Event {
    let wanted = [
        HardwareEvent::BranchInstructions.into(),
        HardwareEvent::Instructions.into(),
    ];
    let supported = supported_counters(&wanted);
    supported.first().copied().unwrap_or(wanted[0])
}

/// One counter's reading of the work, as the kernel gave it and as Picollo scaled it.
fn reading(s: &Session) -> Scaled {
    let d = s.counters()[0].delta();
    Scaled {
        raw: d.raw,
        enabled: d.enabled,
        running: d.running,
        scaled: d.scaled,
    }
}

/// One repeat: `event` alone around a chain, then in `groups` groups at once around the
/// same chain.
fn multiplex_repeat(event: Event, groups: usize) -> Result<Repeat, PerfError> {
    const BLOCKS: u64 = 400_000;
    let open = || {
        SessionBuilder::new()
            .with_kernel(false)
            .with_calibration(false)
            .with_counter(event)
            .open()
    };
    let mut alone = open()?;
    alone.read(true)?;
    std::hint::black_box(add_chain(BLOCKS));
    alone.read(true)?;
    let alone = reading(&alone);
    let mut sessions = (0..groups).map(|_| open()).collect::<Result<Vec<_>, _>>()?;
    for s in &mut sessions {
        s.read(true)?;
    }
    std::hint::black_box(add_chain(BLOCKS));
    let mut readings = Vec::with_capacity(groups);
    for s in &mut sessions {
        s.read(true)?;
        readings.push(reading(s));
    }
    Ok(Repeat {
        alone,
        groups: readings,
    })
}

/// [`MULTIPLEX_REPEATS`] repeats of `groups` groups against the event alone: Picollo's
/// scaled counts against the kernel's own error on this machine (`exact`: a PMU that
/// counts exactly, whose own error must be within it).
fn multiplex(groups: usize, exact: Option<f64>) -> Result<Outcome, PerfError> {
    let event = multiplexed_event();
    let repeats = (0..MULTIPLEX_REPEATS).map(|_| multiplex_repeat(event, groups));
    let repeats = repeats.collect::<Result<Vec<_>, _>>()?;
    Ok(checks::multiplex_scaling(&repeats, exact))
}

fn sorted_branch_misses() -> Result<Outcome, PerfError> {
    const BYTES: usize = 1_000_000;
    if let Err(e) = is_counter_supported(HardwareEvent::BranchMisses) {
        return Ok(Outcome::Skip(format!(
            "this PMU counts no branch misses: {e}"
        )));
    }
    let mut values = branchy::random_bytes(BYTES, 0x9e37_79b9_7f4a_7c15);
    let pass = |v: &[u8]| {
        median_of(&[HardwareEvent::BranchMisses], 30, || {
            std::hint::black_box(branchy::branchy(v, 0.0));
        })
    };
    let unsorted = pass(&values)?[0];
    values.sort_unstable();
    let sorted = pass(&values)?[0];
    Ok(checks::sorted_branch_misses(unsorted, sorted, BYTES as u64))
}

/// The benchmark harness on the same chain, with its default counters (those of cycles,
/// instructions, branch misses and L1D read misses that open here): its per-op medians of
/// cycles and instructions.
fn harness_chain_ipc() -> Result<Outcome, PerfError> {
    const BLOCKS: u64 = 100;
    let bench = Bench::new("add chain").with_samples(500);
    let r = match bench.run(|| {
        std::hint::black_box(add_chain(std::hint::black_box(BLOCKS)));
    }) {
        Ok(r) => r,
        Err(e) => return Ok(Outcome::Fail(format!("the harness failed: {e}"))),
    };
    let median = |event: HardwareEvent| {
        let name = Event::from(event).to_string();
        let m = r.metrics.iter().find(|m| m.metric.name == name)?;
        Some(m.percentile(50.0).unwrap_or(0.0) as u64)
    };
    match (
        median(HardwareEvent::CpuCycles),
        median(HardwareEvent::Instructions),
    ) {
        (Some(cycles), Some(instructions)) => {
            Ok(checks::chain_ipc(cycles, instructions, 256 * BLOCKS))
        }
        _ => {
            let names: Vec<&str> = r.metrics.iter().map(|m| m.metric.name.as_str()).collect();
            Ok(Outcome::Fail(format!(
                "the harness's default counters lack cycles or instructions: {}",
                names.join(", ")
            )))
        }
    }
}

/// Per-operation instructions medians of the harness on a chain of `blocks`.
fn harness_per_op(blocks: u64) -> Result<f64, String> {
    let events: [Event; 1] = [HardwareEvent::Instructions.into()];
    let bench = Bench::new("add chain")
        .with_counters(&events)
        .with_samples(300);
    let r = bench
        .run(|| {
            std::hint::black_box(add_chain(std::hint::black_box(blocks)));
        })
        .map_err(|e| format!("the harness failed: {e}"))?;
    r.metrics[1]
        .percentile(50.0)
        .ok_or_else(|| "no instructions recorded".into())
}

/// The harness's instructions per operation of a chain of known count, and of one twice as
/// long, against the truth (instructions count exactly on silicon and on the emulator).
fn harness_instructions() -> Result<Outcome, PerfError> {
    const BLOCKS: u64 = 100;
    let Some(per_block) = ADD_CHAIN_BLOCK_INSTRUCTIONS else {
        return Ok(Outcome::Skip(
            "add_chain is a Rust loop in this build: no known instruction count".into(),
        ));
    };
    let measured = harness_per_op(BLOCKS).and_then(|one| Ok((one, harness_per_op(2 * BLOCKS)?)));
    let (one, two) = match measured {
        Ok(m) => m,
        Err(e) => return Ok(Outcome::Fail(e)),
    };
    Ok(checks::harness_instructions(
        one,
        two,
        per_block * BLOCKS,
        checks::EXACT_ERROR,
    ))
}

/// An interleaved comparison of the chains of `a` and `b` blocks with the instructions
/// counter: the time verdict's word and the 99 % interval of B − A at the median
/// instructions per operation.
fn compared_chains(a: u64, b: u64) -> Result<(String, (f64, f64)), String> {
    let events: [Event; 1] = [HardwareEvent::Instructions.into()];
    let chain = |blocks: u64| {
        move || {
            std::hint::black_box(add_chain(std::hint::black_box(blocks)));
        }
    };
    let pair = Bench::new("add chains")
        .with_counters(&events)
        .with_samples(300)
        .with_rounds(10)
        .compare_fns(("A", chain(a)), ("B", chain(b)))
        .map_err(|e| format!("the comparison failed: {e}"))?;
    let c = &pair.comparison;
    let p50 = c
        .metrics
        .get(1)
        .and_then(|m| m.rows.iter().find(|r| r.rank == 50.0));
    let interval = p50.and_then(|r| r.interval);
    let interval = interval.ok_or_else(|| format!("no instructions interval at P50:\n{c}"))?;
    Ok((c.verdict.word().to_string(), interval))
}

/// Interleaved comparisons on instructions: a chain against one twice as long (the
/// instructions' shift at the median is the known count, time is slower) and against
/// itself (a shift of 0, time not faster nor slower).
fn harness_compare() -> Result<Outcome, PerfError> {
    const BLOCKS: u64 = 100;
    let Some(per_block) = ADD_CHAIN_BLOCK_INSTRUCTIONS else {
        return Ok(Outcome::Skip(
            "add_chain is a Rust loop in this build: no known instruction count".into(),
        ));
    };
    let compared = compared_chains(BLOCKS, 2 * BLOCKS)
        .and_then(|twice| Ok((twice, compared_chains(BLOCKS, BLOCKS)?)));
    match compared {
        Ok((twice, same)) => Ok(checks::harness_compare(
            twice,
            same,
            per_block * BLOCKS,
            checks::EXACT_ERROR,
        )),
        Err(e) => Ok(Outcome::Fail(e)),
    }
}

/// Run every check; an error opening or reading counters is a failed check. `exact`: the
/// PMU counts exactly, and its own multiplexed scaling must land within 1 %.
fn run_checks(info: &PmuInfo, exact: bool) -> bool {
    let groups = match info.programmable_counters {
        0 => 10,
        p => p as usize + 2,
    };
    let results = [
        chain_ipc(),
        multiplex(groups, exact.then_some(checks::EXACT_ERROR)),
        sorted_branch_misses(),
        harness_chain_ipc(),
        paths::user_read(),
        paths::raw_events(),
        harness_instructions(),
        harness_compare(),
    ];
    let mut failed = false;
    for (name, r) in CHECKS.iter().zip(results) {
        let outcome = r.unwrap_or_else(|e| Outcome::Fail(format!("perf error: {e}")));
        failed |= outcome.failed();
        say(name, &outcome);
    }
    !failed
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let info = discover();
    if let [mode, line] = args.as_slice() {
        if mode == "rdpmc" {
            let outcome = checks::rdpmc_read(line, matches!(info.rdpmc, Some(1 | 2)));
            say("rdpmc-read", &outcome);
            return ExitCode::from(u8::from(outcome.failed()));
        }
    }
    println!("hw-check: machine: {}", machine());
    println!("hw-check: evidence: {}", evidence());
    println!("hw-check: discover: {}", info.describe());
    if !info.present() || info.cycles_errno != 0 {
        let why = match info.present() {
            false => info.describe(),
            true => format!(
                "a PMU is present but hardware events may not be opened here \
                 (errno {}; see perf_event_paranoid)",
                info.cycles_errno
            ),
        };
        println!("hw-check: pmu: absent");
        for name in CHECKS {
            say(name, &Outcome::Skip(why.clone()));
        }
        return ExitCode::SUCCESS;
    }
    println!("hw-check: pmu: present");
    let exact = args.first().is_some_and(|a| a == "exact");
    if run_checks(&info, exact) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
