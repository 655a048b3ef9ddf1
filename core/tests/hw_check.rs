//! The hardware check's verdicts (`core/examples/hw_check/checks.rs`) on simulated
//! figures: the same logic that judges real counters where a PMU exists, exercised on every
//! machine.

#[path = "../examples/hw_check/checks.rs"]
#[allow(dead_code)]
mod checks;

use checks::{chain_ipc, multiplex_scaling, rdpmc_read, sorted_branch_misses, Outcome, Scaled};

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
    assert_outcome!(
        multiplex_scaling(100_000, &groups),
        Pass,
        "worst scaling error=1.50%"
    );
}

#[test]
fn scaling_off_by_more_than_the_bound_fails() {
    let groups = [group(100_000, 300, 100), group(130_000, 300, 100)];
    assert_outcome!(multiplex_scaling(100_000, &groups), Fail, "30.00%");
}

#[test]
fn groups_that_were_never_multiplexed_fail_the_multiplex_check() {
    let groups = [group(100_000, 300, 300), group(100_000, 300, 300)];
    assert_outcome!(
        multiplex_scaling(100_000, &groups),
        Fail,
        "no group was multiplexed"
    );
    // Groups that never ran are left out of the error, but all of them never running fails.
    assert!(!multiplex_scaling(100_000, &[group(0, 300, 0), group(99_000, 300, 150)]).failed());
    assert!(multiplex_scaling(100_000, &[group(0, 300, 0), group(0, 300, 0)]).failed());
    assert!(multiplex_scaling(0, &[group(5, 300, 100)]).failed());
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
    let line = "bench perf: syscall_read=700 rdpmc_read=35 perf_event2_read=900 scope=60";
    assert_outcome!(rdpmc_read(line, true), Pass, "rdpmc 20.0x faster");
    let without = "bench perf: syscall_read=700 rdpmc_read=n/a perf_event2_read=900 scope=60";
    // Allowed by sysfs but not taken: a failure; switched off: a skip with the reason.
    assert!(rdpmc_read(without, true).failed());
    assert_outcome!(rdpmc_read(without, false), Skip, "rdpmc off");
    assert!(rdpmc_read("bench perf: nothing here", true).failed());
}
