#!/usr/bin/env bash
# The hardware check: everything that needs real counters, on any machine.
#   1. what the machine offers (CPU, discovery, perf_event_paranoid, rdpmc);
#   2. the checks of the hw_check example (IPC of a dependent add chain, multiplex scaling
#      with more groups than counters held to the kernel's own scaling error here, which it
#      prints, branch misses of sorted and unsorted bytes, the benchmark harness on the
#      chain, the user-space read against read(2), a raw event against its generic one, the
#      harness's instructions per operation against a known count), each skipped with the
#      reason where its events do not open;
#   3. the hardware tests that skip where there is no PMU (they must not skip here);
#   4. the perf bench's `bench perf:` line, with the rdpmc read against the read(2) group
#      read.
# Without a hardware PMU it prints why each part is skipped and exits 0; with one, any
# failed check fails the script. Every line it prints about the hardware starts `hw-check:`.
set -uo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT
failed=0
fail() { echo "hw-check: FAILED: $*"; failed=1; }

echo "hw-check: building the hw_check example"
cargo build --release -q -p picollo-bench --example hw_check || {
  fail "the hw_check example did not build"; exit 1; }
check=target/release/examples/hw_check

"$check" | tee "$log/check.txt"
status=${PIPESTATUS[0]}
grep -q '^hw-check: discover: ' "$log/check.txt" || fail "no discovery line"
[ "$status" -eq 0 ] || fail "the hw_check example exited with $status"

if grep -q '^hw-check: pmu: absent' "$log/check.txt"; then
  why="$(sed -n 's/^hw-check: discover: //p' "$log/check.txt")"
  echo "hw-check: hardware tests: skipped: $why"
  echo "hw-check: rdpmc-read: skipped: $why"
  echo "hw-check: summary: no PMU here; the same verdicts ran on simulated figures (bench/tests/hw_check.rs)"
  exit $failed
fi

echo "hw-check: hardware tests (perf_session, perf_group), which skip only without a PMU"
cargo test -p picollo-perf --test perf_session --test perf_group \
  -- --nocapture --test-threads=1 >"$log/tests.txt" 2>&1
status=$?
grep -oE '(hardware \(|SKIPPED: |note: ).*' "$log/tests.txt" | sed 's/^/hw-check:   /'
[ "$status" -eq 0 ] || { tail -n 40 "$log/tests.txt"; fail "the hardware tests failed"; }
if grep -q 'SKIPPED: hardware_cycles_and_instructions' "$log/tests.txt"; then
  fail "the cycles and instructions test skipped on a machine with a PMU"
fi

echo "hw-check: perf bench (rdpmc against the read(2) group read)"
cargo bench -q -p picollo-perf --bench perf >"$log/bench.txt" 2>&1 ||
  { tail -n 40 "$log/bench.txt"; fail "the perf bench failed"; }
line="$(grep '^bench perf:' "$log/bench.txt" | tail -n 1)"
echo "hw-check: $line"
"$check" rdpmc "$line" || fail "rdpmc read check"

[ $failed -eq 0 ] && echo "hw-check: summary: every real-counter check passed" ||
  echo "hw-check: summary: a real-counter check failed"
exit $failed
