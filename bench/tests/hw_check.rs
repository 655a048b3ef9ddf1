//! The hardware check's verdicts (`bench/examples/hw_check/checks.rs`) on simulated
//! figures: the same logic that judges real counters where a PMU exists, exercised on every
//! machine.

#[path = "../examples/hw_check/checks.rs"]
#[allow(dead_code)]
mod checks;

use checks::{
    chain_ipc, harness_compare, harness_instructions, multiplex_scaling, raw_matches_generic,
    rdpmc_read, sorted_branch_misses, user_read, Outcome, PathDelta, Scaled, EXACT_ERROR,
    MULTIPLEX_ERROR,
};

/// Asserts that the outcome `$o` is a `$verdict` whose text holds `$text`.
macro_rules! assert_outcome {
    ($o:expr, $verdict:ident, $text:expr) => {{
        let o = $o;
        assert!(matches!(&o, Outcome::$verdict(s) if s.contains($text)), "{o}");
    }};
}

fn group(scaled: u64, enabled: u64, running: u64) -> Scaled {
    Scaled {
        scaled,
        enabled,
        running,
    }
}

/// The multiplex check of `groups` against a reference count of 100,000, at the bound.
fn multiplex(groups: &[Scaled]) -> Outcome {
    multiplex_scaling(100_000, groups, MULTIPLEX_ERROR)
}

#[test]
fn a_dependent_chain_near_one_instruction_a_cycle_passes() {
    assert_outcome!(chain_ipc(260_000, 259_000, 256_000), Pass, "ipc=0.996");
}

#[test]
fn a_chain_ipc_far_from_one_fails() {
    // A chain running 4 adds a cycle is not dependent; one at 1 add in 2 cycles is stalled.
    assert!(chain_ipc(64_000, 257_000, 256_000).failed());
    assert!(chain_ipc(520_000, 257_000, 256_000).failed());
    assert!(chain_ipc(0, 257_000, 256_000).failed());
    // Fewer instructions than adds: the counter missed work.
    assert!(chain_ipc(200_000, 200_000, 256_000).failed());
}

#[test]
fn multiplexed_groups_scaled_near_the_reference_pass() {
    // Each group ran a third of the time; its raw count times 3 is the scaled one.
    let groups = [
        group(101_000, 300, 100),
        group(98_500, 300, 100),
        group(100_200, 300, 100),
    ];
    assert_outcome!(multiplex(&groups), Pass, "worst scaling error=1.50%");
}

#[test]
fn scaling_off_by_more_than_the_bound_fails() {
    let groups = [group(100_000, 300, 100), group(130_000, 300, 100)];
    assert_outcome!(multiplex(&groups), Fail, "30.00%");
}

#[test]
fn groups_that_were_never_multiplexed_fail_the_multiplex_check() {
    let groups = [group(100_000, 300, 300), group(100_000, 300, 300)];
    assert_outcome!(multiplex(&groups), Fail, "no group was multiplexed");
    // Groups that never ran are left out of the error, but all of them never running fails.
    assert!(!multiplex(&[group(0, 300, 0), group(99_000, 300, 150)]).failed());
    assert!(multiplex(&[group(0, 300, 0), group(0, 300, 0)]).failed());
    assert!(multiplex_scaling(0, &[group(5, 300, 100)], MULTIPLEX_ERROR).failed());
}

#[test]
fn sorting_must_cut_the_branch_misses() {
    assert_outcome!(
        sorted_branch_misses(498_000, 40, 1_000_000),
        Pass,
        "ratio=12450.0x"
    );
    // Too few misses unsorted (the branch became a select), or too many sorted.
    assert!(sorted_branch_misses(20_000, 10, 1_000_000).failed());
    assert!(sorted_branch_misses(498_000, 60_000, 1_000_000).failed());
}

#[test]
fn the_rdpmc_figure_is_read_from_the_bench_line() {
    let line = "bench perf: syscall_read=700 rdpmc_read=35 perf_event2_read=900 scope=60 \
                chosen=rdpmc";
    assert_outcome!(rdpmc_read(line, true), Pass, "rdpmc 20.0x faster");
    // A hypervisor that traps rdpmc: the session must have chosen read(2).
    let trapped = "bench perf: syscall_read=8100 rdpmc_read=39000 perf_event2_read=9000 \
                   scope=60 chosen=read(2)";
    assert_outcome!(rdpmc_read(trapped, true), Pass, "reads by read(2)");
    assert!(rdpmc_read(&trapped.replace("read(2)", "rdpmc"), true).failed());
    assert!(rdpmc_read(&line.replace("chosen=rdpmc", "chosen=read(2)"), true).failed());
    assert!(
        rdpmc_read(&line.replace(" chosen=rdpmc", ""), true).failed(),
        "no chosen path"
    );
    let without = "bench perf: syscall_read=700 rdpmc_read=n/a perf_event2_read=900 scope=60";
    // Allowed by sysfs but not taken: a failure; switched off: a skip with the reason.
    assert!(rdpmc_read(without, true).failed());
    assert_outcome!(rdpmc_read(without, false), Skip, "rdpmc off");
    assert!(rdpmc_read("bench perf: nothing here", true).failed());
}

#[test]
fn an_exact_pmu_is_held_to_one_percent_when_multiplexed() {
    let groups = [group(100_900, 300, 100), group(99_500, 300, 120)];
    assert!(!multiplex_scaling(100_000, &groups, EXACT_ERROR).failed());
    let off = [group(100_000, 300, 100), group(101_500, 300, 100)];
    assert_outcome!(multiplex_scaling(100_000, &off, EXACT_ERROR), Fail, "1.50%");
    assert!(!multiplex(&off).failed(), "within silicon's bound");
}

fn path(name: &str, user: u64, syscall: u64, exact: bool) -> PathDelta {
    PathDelta {
        name: name.into(),
        user,
        syscall,
        exact,
    }
}

#[test]
fn the_user_read_and_read2_must_agree_on_exact_counters() {
    let same = [
        path("Hardware:Instructions", 258_176, 258_176, true),
        path("Hardware:CpuCycles", 300_100, 300_350, false),
    ];
    assert_outcome!(user_read(&same, true, 20.0, 1_300.0), Pass, "65.0x");
    // Instructions counted differently by the two paths: one of them is wrong.
    let differ = [path("Hardware:Instructions", 258_176, 258_177, true)];
    assert_outcome!(user_read(&differ, true, 20.0, 1_300.0), Fail, "disagree");
    // A delta of 0 (the stale-time bug turned every user-read delta into 0).
    let zero = [path("Hardware:Instructions", 0, 258_176, true)];
    assert_outcome!(user_read(&zero, true, 20.0, 1_300.0), Fail, "a delta is 0");
    assert_outcome!(user_read(&same, false, 20.0, 1_300.0), Fail, "refused");
    assert!(user_read(&[], true, 20.0, 1_300.0).failed());
}

#[test]
fn a_raw_event_must_count_what_its_generic_event_counts() {
    assert_outcome!(
        raw_matches_generic("Raw:4:0x8", 258_000, 258_000),
        Pass,
        "generic=258000"
    );
    assert!(raw_matches_generic("Raw:4:0x8", 258_000, 259_000).failed());
    assert!(raw_matches_generic("Raw:4:0x8", 0, 0).failed());
}

#[test]
fn the_harness_must_find_a_known_instruction_count_and_its_double() {
    assert_outcome!(
        harness_instructions(25_803.0, 51_606.0, 25_800, EXACT_ERROR),
        Pass,
        "ratio 2.0000"
    );
    // Overhead left in (a read pair's 600 instructions per op), or a ratio off 2.
    assert!(harness_instructions(26_400.0, 52_200.0, 25_800, EXACT_ERROR).failed());
    assert!(harness_instructions(25_800.0, 48_000.0, 25_800, EXACT_ERROR).failed());
    assert!(harness_instructions(0.0, 0.0, 25_800, EXACT_ERROR).failed());
}

#[test]
fn interleaved_comparisons_on_instructions_must_find_the_known_shift() {
    let pass = |twice: (&str, (f64, f64)), same: (&str, (f64, f64))| {
        let outcome = harness_compare(
            (twice.0.to_string(), twice.1),
            (same.0.to_string(), same.1),
            25_800,
            EXACT_ERROR,
        );
        !outcome.failed()
    };
    let twice = ("slower", (25_790.0, 25_820.0));
    let same = ("no difference", (-3.0, 4.0));
    assert!(pass(twice, same));
    assert!(pass(twice, ("within noise", (0.0, 2.0))));
    // The shift is off the truth by more than 1 %, or its interval reaches past it.
    assert!(!pass(("slower", (25_000.0, 25_820.0)), same));
    assert!(!pass(("slower", (26_400.0, 26_500.0)), same));
    // The time verdict disagrees.
    assert!(!pass(("no difference", (25_790.0, 25_820.0)), same));
    assert!(!pass(twice, ("slower", (-3.0, 4.0))));
    // The same chain's interval misses 0, or is far wider than the counts allow.
    assert!(!pass(twice, ("no difference", (5.0, 9.0))));
    assert!(!pass(twice, ("no difference", (-900.0, 900.0))));
}
