#!/usr/bin/env bash
# Build the picollo wheel (the binding with libpicollo inside), install it into a fresh venv
# and run the Python binding's tests against that installed package (PICOLLO_LIB unset, no
# source tree on sys.path); then test_loading.py against the source checkout (the workspace
# build); then run the getting-started demo from the installed package and check its output
# (the P99 line, both tables, the PNG plot), and the monitoring example for 2 seconds (writer
# threads, a one-line summary per second from a snapshot with deltas), the benchmark's
# quick run, and the harness demo's quick run (two reports naming the baseline, a verdict).
# Picollo's change points against Apache Otava's are a stage of their own (scripts/otava.sh).
# Needs cargo; makes the project venv (.venv, or $PICOLLO_VENV) and installs python3-dbg and
# prometheus where missing (scripts/needs.sh).
#
#   --checkout   only the tests, against the source package in python-demo/ and the workspace
#                build (the quick check, scripts/test.sh --quick): no wheel, no venv made
set -euo pipefail
exec </dev/null

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
venv="${PICOLLO_VENV:-.venv}"
[[ "$venv" == /* ]] || venv="$repo/$venv"
py="$venv/bin/python"
# shellcheck source=scripts/needs.sh
. scripts/needs.sh
needs venv python3-dbg prometheus || exit 1
target="$(mkdir -p "${CARGO_TARGET_DIR:-target}" && cd "${CARGO_TARGET_DIR:-target}" && pwd)"
work="$target/python"  # the wheel, the test venv, the examples' copies
unset PICOLLO_LIB PYTHONPATH
export MPLBACKEND=Agg

if [ "${1:-}" = --checkout ]; then
    echo "== pytest (python-demo/tests, the source checkout and the workspace build)"
    cargo build -q --release -p picollo-ffi
    cd python-demo
    exec "$py" -m pytest -q -rs -p no:cacheprovider tests
fi

echo "== wheel (pip wheel ./python-demo)"
# The wheel's cargo build shares the workspace's target dir: every crate below picollo-ffi
# is built as `cargo build --release -p picollo-ffi` builds it (the C tests' build, when they
# ran first), and only picollo-ffi itself, which setuptools-rust builds as a cdylib alone,
# is compiled again (and once more by the `cargo build` below). python-demo/build is
# setuptools' staging area; stale files there would end in the wheel.
rm -rf "$work/wheels" python-demo/build
start=$SECONDS
CARGO_TARGET_DIR="$target" "$py" -m pip wheel -q --disable-pip-version-check --no-deps \
    -w "$work/wheels" ./python-demo
wheel=("$work"/wheels/picollo-*.whl)
echo "built ${wheel[0]##*/} in $((SECONDS - start))s"

echo "== fresh venv with the wheel and python-demo/requirements.txt"
start=$SECONDS
"$py" -m venv --clear "$work/venv"
# --no-compile: byte-compiling numpy and matplotlib up front would double the install time.
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check --no-compile \
    "${wheel[0]}" -r python-demo/requirements.txt
echo "installed in $((SECONDS - start))s"
tpy="$work/venv/bin/python"

# pytest_halves ARGS...: pytest ARGS on the tests that time nothing (those not marked
# `machine`: their clocks' checks hold with a busy neighbour, docs/testing.md) as two
# processes side by side, each every other test (PICOLLO_TEST_SHARD, tests/conftest.py), in
# temporary folders of their own (pytest empties them first); each one's output whole once
# both have ended.
pytest_halves() {
    local half pids=() status=0
    for half in 0 1; do
        PICOLLO_TEST_SHARD="$half/2" "$tpy" -m pytest "$@" -m "not machine" \
            --basetemp="$work/pytest-$half" >"$work/pytest-$half.log" 2>&1 &
        pids+=($!)
    done
    for half in 0 1; do
        wait "${pids[$half]}" || status=1
        echo "-- half $((half + 1)) of the tests that time nothing:"
        cat "$work/pytest-$half.log"
    done
    return $status
}

echo "== pytest (python-demo/tests, the installed package)"
# From the repository root: python-demo/ (the source package) is not on sys.path. The
# tests marked `machine` (statistical experiments on the clock) then run alone.
export PICOLLO_TEST_INSTALLED=1
start=$SECONDS
pytest_halves -q -rs -p no:cacheprovider python-demo/tests
echo "-- the tests marked machine, alone ($((SECONDS - start)) s so far):"
"$tpy" -m pytest -q -rs -p no:cacheprovider -m machine python-demo/tests
unset PICOLLO_TEST_INSTALLED

echo "== the harness under a CPython debug build (python3-dbg): its reports say so"
if command -v python3-dbg >/dev/null; then
    dpy="$work/venv-dbg/bin/python"
    python3-dbg -m venv --clear "$work/venv-dbg"
    "$dpy" -m pip install -q --disable-pip-version-check --no-compile "${wheel[0]}" pytest
    # Without conftest.py (numpy): the test needs the package and tests/workloads.py only.
    (cd python-demo/tests && PYTHONPATH=. "$dpy" -m pytest -q -rs -p no:cacheprovider \
        --noconftest test_bench.py -k build_is_noted)
else
    echo "SKIPPED: python3-dbg is not installed (apt-get install python3-dbg)"
fi

echo "== pytest (test_loading.py, the source checkout and the workspace build)"
cargo build -q --release -p picollo-ffi
(cd python-demo && "$py" -m pytest -q -rs -p no:cacheprovider tests/test_loading.py)

# The examples run from copies: next to python-demo/demo.py, `import picollo` would find the
# source package before the installed one.
rm -rf "$work/examples"
mkdir -p "$work/examples"
cp python-demo/demo.py python-demo/monitoring.py python-demo/bench.py python-demo/bench_demo.py \
    "$work/examples/"

echo "== demo.py (installed package)"
plot="$repo/python-demo/out/percentiles.png"
rm -f "$plot"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
"$tpy" "$work/examples/demo.py" --plot "$plot" | tee "$log"
elapsed=$((SECONDS - start))

fail() { echo "run_tests.sh: FAIL: $*" >&2; exit 1; }
grep -Eq '^P99: P99=24,960 \[83 / 609\]: \[24,832, 25,088\) [0-9,]+$' "$log" \
    || fail "the P99 line does not read like the announcement's"
grep -qx '##### Histogram Before' "$log" || fail "no 'Histogram Before' table"
grep -Eq '^\| Percentile \| Value +\| ± +\| Count +\|$' "$log" || fail "no table header"
grep -Eq '^\| Overflow +\| +\| +\| +1 \|$' "$log" || fail "no Overflow row"
grep -Eq '^\| Precision: +\| +0\.7813% \|' "$log" || fail "precision is not 0.7813%"
grep -qx '##### Getting Started Diff' "$log" || fail "no diff table"
grep -Eq '^\| Percentile \| Before +\| After +\| Δ% +\|$' "$log" || fail "no diff header"
grep -Eq '^\| D-value: ' "$log" || fail "no D-value row"
test -s "$plot" || fail "no plot at $plot"
[ "$(head -c 8 "$plot" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
    || fail "$plot is not a PNG"
# demo.py's time is a figure (the closing line), not a check: it varies with the machine.

echo "== monitoring.py 2 (installed package)"
mlog="$(mktemp)"
trap 'rm -f "$log" "$mlog"' EXIT
"$tpy" "$work/examples/monitoring.py" 2 | tee "$mlog"
[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \| monitoring: Total=[0-9,]+, Overflow=[0-9,]+, Mean=.*, P100=' "$mlog")" = 2 ] \
    || fail "monitoring.py did not print two one-line summaries"
grep -qx '##### Aggregate' "$mlog" || fail "monitoring.py printed no aggregate table"
echo "== bench.py --quick (installed package; python-demo/bench.py runs it in full)"
blog="$(mktemp)"
trap 'rm -f "$log" "$mlog" "$blog"' EXIT
"$tpy" "$work/examples/bench.py" --quick | tee "$blog"
grep -Eq '^bench python: record=[0-9.]+ bare=[0-9.]+ buffered=[0-9.]+ record_many=[0-9.]+ summary=[0-9.]+ hdrh_record=[0-9.]+ hdrh_summary=[0-9.]+ percentile=[0-9.]+ bare_percentile=[0-9.]+ merge=[0-9.]+ bare_merge=[0-9.]+ record_many_numpy=([0-9.]+|nan)$' "$blog" \
    || fail "bench.py printed no 'bench python:' line"
echo "== bench_demo.py --quick (installed package; the harness on unsorted and sorted bytes)"
hlog="$(mktemp)"
trap 'rm -f "$log" "$mlog" "$blog" "$hlog"' EXIT
"$tpy" "$work/examples/bench_demo.py" --quick | tee "$hlog"
grep -qx '##### unsorted' "$hlog" && grep -qx '##### sorted' "$hlog" \
    || fail "bench_demo.py printed no report for unsorted and sorted"
[ "$(grep -cx -- '- baseline: the medians of the empty function subtracted from every figure' "$hlog")" = 2 ] \
    || fail "bench_demo.py's reports do not name the empty function's baseline"
grep -Eq '^verdict: (sorted is (faster|slower) than unsorted by [0-9.]+ % \[.*\]|sorted is within noise of unsorted: .*|no difference between unsorted and sorted: .*), noise floor [0-9.]+ % \(99 % confidence\)$' "$hlog" \
    || fail "bench_demo.py printed no verdict line"

echo "== python-demo: all checks passed (demo ${elapsed}s, plot $plot; monitoring; bench; bench_demo)"
