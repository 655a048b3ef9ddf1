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
# The stages that time anything run first, one at a time; the stages that time nothing then
# run side by side, two at a time on two CPUs (`pooled` below; PICOLLO_STAGE_JOBS=1 runs them
# one at a time too).
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

# On CI (a fresh clone, every crate built once), cargo does the least work that tests the
# same code: no incremental caches (a cache no later build reads), no debug information in
# debug builds (a failed test's message names its file and line without it; a run's debug
# build took 7.4 GB of disk with full information, on machines whose free disk varies), and
# release builds in 16 code-generation units without cross-crate LTO (the run makes a dozen
# release builds, of the library, the CLI, examples and snippets, each linked on its own; the
# C library's took 205 s on a 2-core AMD EPYC (Zen 3) VM with the workspace's profile, 103 s
# in 16 units). How fast the code runs is not tested here (docs/performance.md has the
# figures, taken with the workspace's release profile). `0` and `false` are forms that
# Debian's cargo-c (an older cargo inside) reads too.
if [ "${CI:-}" = true ]; then
  export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0
  export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=false
fi

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
# selected NAME: whether NAME runs (every stage, or those of --stage); counts it as run.
selected() {
  [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]] || return 1
  ran+=("$1")
}

# disk_free: the space left on the checkout's file system, in GiB (a full disk fails builds
# in ways that name no disk: a linker's bus error, a file not found).
disk_free() {
  local kib
  kib=$(df -Pk . 2>/dev/null | awk 'NR == 2 { print $4 }')
  [[ $kib =~ ^[0-9]+$ ]] || { echo "?"; return; }
  echo "$((kib / 1048576)).$((kib % 1048576 * 10 / 1048576))"
}

# with_cpu NAME CMD...: CMD, then the CPU seconds (user + system) of the processes it waited
# for, into $logs/NAME.cpu. Run as a pipeline's element (a subshell of its own), so that
# `times`' second line (the shell's children) counts this stage's processes alone; `times`
# writes to a file, since in a pipe or `$(...)` it would run in a subshell that has no
# children yet.
with_cpu() {
  local name=$1 rc
  shift
  "$@"
  rc=$?
  times >"$logs/$name.times"
  awk 'NR == 2 {
    for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); cpu += t[1] * 60 + t[2] }
    printf "%d\n", cpu + 0.5 }' "$logs/$name.times" >"$logs/$name.cpu"
  return $rc
}

# record NAME STATUS SECONDS: a stage's closing line with its wall and CPU seconds (the CPU
# seconds over the wall's tell how much of the machine it kept busy), and its result in
# the counts.
cpu_total=0
record() {
  local cpu
  cpu=$(cat "$logs/$1.cpu" 2>/dev/null)
  [[ $cpu =~ ^[0-9]+$ ]] && cpu_total=$((cpu_total + cpu))
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1))
    echo "=== $1: ok ($3 s, CPU ${cpu:-?} s)"
  else
    failed=$((failed + 1))
    failures+=("$1")
    echo "=== $1: FAILED ($3 s, CPU ${cpu:-?} s)"
  fi
  echo "    disk: $(disk_free) GiB free"
}

# stamped: the lines of standard input, each step's heading ("--- ..." or "== ...") with
# the seconds since the stage began after it, so that a log tells which step took the time.
stamped() {
  local start=$SECONDS line
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      ---\ * | ==\ *) printf '%s  [+%d s]\n' "$line" $((SECONDS - start)) ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
}

# stage NAME CMD...: CMD alone on the machine, its output as it comes.
stage() {
  local name=$1
  shift
  selected "$name" || return 0
  echo
  echo "=== $name: $*"
  local start=$SECONDS
  with_cpu "$name" "$@" 2>&1 | stamped | tee "$logs/$name.log"
  record "$name" "${PIPESTATUS[0]}" $((SECONDS - start))
}

# The stages that measure nothing about the machine's speed (builds, Miri, QEMU's exact
# counts, fuzzing, sanitizers) run side by side, after every stage that times anything:
# much of each one's time is one thread (a release build's last crate, QEMU, Miri,
# libFuzzer, a test under a sanitizer), so two of them keep two CPUs busy where one left a
# CPU idle. At most PICOLLO_STAGE_JOBS at once (default: the CPUs, at most 4); each one's
# output is printed whole when it ends, with its own time.
jobs_at_once=${PICOLLO_STAGE_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs_at_once =~ ^[1-9][0-9]*$ ]] || { echo "test.sh: PICOLLO_STAGE_JOBS must be a positive integer" >&2; exit 2; }
[ "$jobs_at_once" -gt 4 ] && [ -z "${PICOLLO_STAGE_JOBS:-}" ] && jobs_at_once=4
pool=()

# pooled NAME CMD...: CMD started beside the other pooled stages once one of the slots is free.
# Its status is taken from its process (wait), never from a file: on a full disk a stage
# that could not write one would otherwise be waited for until CI's time ran out.
declare -A pid_of start_of
pooled() {
  local name=$1
  shift
  selected "$name" || return 0
  while [ ${#pool[@]} -ge "$jobs_at_once" ]; do
    reap || sleep 1
  done
  echo "$*" >"$logs/$name.cmd"
  (
    with_cpu "$name" "$@" 2>&1 | stamped >"$logs/$name.log"
    exit "${PIPESTATUS[0]}"
  ) &
  pid_of[$name]=$!
  start_of[$name]=$SECONDS
  pool+=("$name")
}

# The build folders that one pooled stage alone uses: on CI they go when it ends, so that
# the run's peak disk use is the shared builds and the two stages running, not every
# stage's builds at once (a CI run once failed on a full disk).
declare -A scratch_of=(
  [wheels]="target/cross"
  [miri]="target/miri"
  [sanitize]="target/asan target/tsan"
  [fuzz]="fuzz/target"
  [loom]="target/loom"
  [package]="target/package-verify"
  [emulate]="target/emulate"
  [c-install]="target/cargo-c"
)

# clear_scratch NAME: on CI, remove the build folders of stage NAME (scratch_of).
clear_scratch() {
  [ "${CI:-}" = true ] && [ -n "${scratch_of[$1]:-}" ] || return 0
  local dir
  for dir in ${scratch_of[$1]}; do
    rm -rf "$dir"
  done
}

# reap: print and count the pooled stages that have ended; false when none had.
reap() {
  local name left=() rc seconds any=1
  for name in "${pool[@]}"; do
    if kill -0 "${pid_of[$name]}" 2>/dev/null; then
      left+=("$name")
      continue
    fi
    wait "${pid_of[$name]}"
    rc=$?
    seconds=$((SECONDS - ${start_of[$name]}))
    echo
    echo "=== $name: $(cat "$logs/$name.cmd" 2>/dev/null)"
    cat "$logs/$name.log"
    clear_scratch "$name"
    record "$name" "$rc" "$seconds"
    any=0
  done
  pool=(${left[@]+"${left[@]}"})
  return $any
}

# pool_wait: every pooled stage ended, printed and counted.
pool_wait() {
  while [ ${#pool[@]} -gt 0 ]; do
    reap || sleep 1
  done
  wait
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
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  echo "all stages took $((SECONDS / 60)) min $((SECONDS % 60)) s on ${cpu:-an unnamed CPU} ($(nproc 2>/dev/null || echo '?') CPUs)"
  echo "their CPU time: $((cpu_total / 60)) min $((cpu_total % 60)) s (user and system, the stages' processes)"
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

echo "test.sh: $(disk_free) GiB free on the checkout's file system at the start"
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
# Alone on the machine: the stages that time anything (verdicts, gates, A/A comparisons).
stage c-tests bash c-tests/run.sh
stage c-perf bash c-tests/perf/run.sh
stage hw-check bash scripts/hw-check.sh
stage layouts bash scripts/layouts.sh
stage csharp bash c-tests/csharp/run.sh
stage python bash python-demo/run_tests.sh
stage snippets python3 scripts/snippets.py
# mode: suite's verdicts are on time: the action's runs time their sample suites.
stage action bash scripts/action.sh
# Alone too: it runs scripts/setup.sh (apt) and the demo.
stage setup-debian bash scripts/test_setup_debian.sh
# Side by side, the longest first (their times in a full run on a 2-core AMD EPYC VM, Zen 3,
# two at a time: wheels 15 min, sanitize 11, pmu-emulated, emulated-paths, package and fuzz
# 5-6, miri about 5 (280 s alone), the rest 4 or less), so that the last to start are short.
pooled wheels bash scripts/wheels.sh
pooled sanitize bash scripts/sanitize.sh
pooled pmu-emulated bash scripts/pmu-emulated.sh
pooled emulated-paths bash scripts/emulated-paths.sh
pooled package bash scripts/package.sh
pooled fuzz bash scripts/fuzz.sh
pooled miri bash scripts/miri.sh
pooled c-install bash c-tests/install.sh
pooled otava bash scripts/otava.sh
pooled loom bash scripts/loom.sh
pooled prometheus bash scripts/prometheus.sh
pooled html bash scripts/html.sh
pooled interop-hgrm bash scripts/interop.sh
pooled interop-peers bash scripts/interop_peers.sh
pooled emulate bash scripts/emulate.sh
pooled build-note bash scripts/build_note.sh
pool_wait
finish
