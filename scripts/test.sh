#!/usr/bin/env bash
# Runs every test: Rust (unit, integration, doc, no_std guard, loom models), lints, the C
# and C++ ABI tests under valgrind, the hardware check (scripts/hw-check.sh: real counters
# where the machine has a PMU, a loud skip where it has none), the same paths against QEMU's
# emulated arm64 PMU (scripts/pmu-emulated.sh: a loud skip without QEMU), exact counts under
# QEMU's user mode with Picollo's plugin (scripts/emulate.sh: the plugin; scripts/emulated-paths.sh:
# the Rust harness, the C ABI and the Python binding on known counts), the CI gate on
# builds of shuffled code layouts (scripts/layouts.sh), the header check,
# the cargo-c install, the manylinux wheels and C libraries for x86_64 and aarch64 installed
# in Debian 11 roots (scripts/wheels.sh), the C# P/Invoke program, the Python tests and demo
# (from the wheel, installed into a fresh venv), Picollo's native histograms scraped by a
# real Prometheus (scripts/prometheus.sh), the setup and the package install with Debian's
# own python3, the GitHub Action run here on a sample project (scripts/action.sh), and every
# code block of the README and the docs run as written
# (scripts/snippets.py). Installs what it needs first (scripts/setup.sh); each stage also asks
# for its own tools (scripts/needs.sh), so that one run alone works on a fresh machine.
#
#   bash scripts/test.sh           every stage (the gate CI runs)
#   bash scripts/test.sh --quick   the check for development: fmt, clippy, the Rust tests, the C
#                                  ABI tests without valgrind, the Python tests in the checkout
#   bash scripts/test.sh --stage NAME...   those stages alone, each installing what it needs
#
# Every stage tests the code; none asserts how noisy the machine is. The machine's own figures
# (A/A false verdicts in one process, across processes and across builds; detection rates) are
# measurements: scripts/measure.sh prints them. docs/testing.md lists the gate's statistical
# tests, each with its bound and the odds that correct code fails it.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=0
only=()
case "${1:-}" in
  --quick) quick=1 ;;
  --stage) shift; only=("$@"); [ ${#only[@]} -gt 0 ] || { echo "test.sh: --stage needs a name" >&2; exit 2; } ;;
  "") ;;
  *) echo "test.sh: unknown argument '$1' (--quick, --stage NAME..., or none for every stage)" >&2; exit 2 ;;
esac

# Every stage asks for its own tools (scripts/needs.sh); the whole run installs them all
# first, in one apt transaction, rather than stage by stage.
. scripts/needs.sh
[ $quick -eq 0 ] && [ ${#only[@]} -eq 0 ] && { bash scripts/setup.sh || exit 1; }

passed=0
failed=0
failures=()
ran=()
# Each stage's output is also kept, so that a failed stage's last lines are printed again
# at the end, where a CI log that keeps only its tail still shows them.
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
stage() {
  local name=$1
  shift
  [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $name "* ]] || return 0
  ran+=("$name")
  echo
  echo "=== $name: $*"
  local start=$SECONDS
  "$@" 2>&1 | tee "$logs/$name.log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    passed=$((passed + 1))
    echo "=== $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "=== $name: FAILED ($((SECONDS - start)) s)"
  fi
}

# finish: each failed stage's last lines again, the counts, and the exit status.
finish() {
  echo
  local name
  for name in "${only[@]}"; do
    [[ " ${ran[*]} " == *" $name "* ]] && continue
    failed=$((failed + 1))
    failures+=("$name")
    echo "no stage is named '$name'" >"$logs/$name.log"
  done
  for name in "${failures[@]}"; do
    echo "=== $name failed; its last 60 lines again:"
    tail -n 60 "$logs/$name.log" | sed 's/^/  | /'
  done
  if [ $failed -ne 0 ]; then
    echo "failed stages: ${failures[*]}"
  fi
  echo "all stages took $((SECONDS / 60)) min $((SECONDS % 60)) s"
  echo "stages: $passed passed, $failed failed"
  [ $failed -eq 0 ]
  exit
}

# with_needs "TOOL..." CMD...: CMD once the tools of scripts/needs.sh are there.
with_needs() {
  local tools=$1
  shift
  # shellcheck disable=SC2086 # a list of names
  needs $tools || return 1
  "$@"
}

stage needs python3 scripts/check_needs.py
stage fmt cargo fmt --all -- --check
stage clippy cargo clippy --workspace --all-targets --all-features -- -D warnings
# The CLI's tests link with lld and mold, draw plots with DejaVu Sans and run QEMU's user mode.
stage rust-tests with_needs "cc font lld mold qemu-user" cargo test --workspace --all-features
stage rust-tests-no-default cargo test -p picollo --no-default-features --lib
stage no-std-guard bash scripts/no_std.sh
if [ $quick -eq 1 ]; then
  stage c-tests env PICOLLO_NO_VALGRIND=1 bash c-tests/run.sh
  stage python-checkout bash python-demo/run_tests.sh --checkout
  finish
fi
stage build-note bash scripts/build_note.sh
stage package bash scripts/package.sh
[ -f scripts/loom.sh ] && stage loom bash scripts/loom.sh
[ -f scripts/miri.sh ] && stage miri bash scripts/miri.sh
stage c-tests bash c-tests/run.sh
stage c-perf bash c-tests/perf/run.sh
stage hw-check bash scripts/hw-check.sh
stage layouts bash scripts/layouts.sh
stage pmu-emulated bash scripts/pmu-emulated.sh
stage emulate bash scripts/emulate.sh
stage emulated-paths bash scripts/emulated-paths.sh
stage wheels bash scripts/wheels.sh
stage csharp bash c-tests/csharp/run.sh
stage python bash python-demo/run_tests.sh
stage html bash scripts/html.sh
stage action bash scripts/action.sh
stage snippets python3 scripts/snippets.py
stage prometheus bash scripts/prometheus.sh
stage setup-debian bash scripts/test_setup_debian.sh
stage interop-hgrm bash scripts/interop.sh
stage interop-peers bash scripts/interop_peers.sh
stage fuzz bash scripts/fuzz.sh
stage sanitize bash scripts/sanitize.sh
finish
