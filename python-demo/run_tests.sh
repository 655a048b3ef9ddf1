#!/usr/bin/env bash
# Build libpicollo, run the Python binding's tests, run the getting-started demo and check
# its output (the P99 line, both tables, the PNG plot), then run the monitoring example for
# 2 seconds (writer threads, a one-line summary per second from a snapshot with deltas). Needs: cargo, python3 with the
# packages in python-demo/requirements.txt.
set -euo pipefail
exec </dev/null

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

echo "== cargo build --release -p picollo-ffi"
cargo build --release -p picollo-ffi
PICOLLO_LIB="$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/libpicollo.so"
export PICOLLO_LIB MPLBACKEND=Agg
test -f "$PICOLLO_LIB"

echo "== pytest (python-demo/tests)"
python3 -m pytest -q -rs python-demo/tests

echo "== demo.py"
plot="python-demo/out/percentiles.png"
rm -f "$plot"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
python3 python-demo/demo.py --plot "$plot" | tee "$log"
elapsed=$((SECONDS - start))

fail() { echo "run_tests.sh: FAIL: $*" >&2; exit 1; }
grep -Eq '^P99: P99=24,960 \[83 / 609\]: \[24,832, 25,088\) [0-9,]+$' "$log" \
    || fail "the P99 line does not read like the seed's"
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
[ "$elapsed" -lt 15 ] || fail "demo.py took ${elapsed}s (budget 15s)"

echo "== monitoring.py 2"
mlog="$(mktemp)"
trap 'rm -f "$log" "$mlog"' EXIT
python3 python-demo/monitoring.py 2 | tee "$mlog"
[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \| monitoring: Total=[0-9,]+, Overflow=[0-9,]+, Mean=.*, P100=' "$mlog")" = 2 ] \
    || fail "monitoring.py did not print two one-line summaries"
grep -qx '##### Aggregate' "$mlog" || fail "monitoring.py printed no aggregate table"
echo "== python-demo: all checks passed (demo ${elapsed}s, plot $plot; monitoring)"
