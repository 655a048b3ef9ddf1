#!/usr/bin/env bash
# The demo: the getting-started histogram (summary table, P99, diff table, percentile plot)
# from Python through the C ABI, then the perf counters session where the machine allows, then
# the benchmark harness (Linux) on a branchy loop over unsorted and sorted bytes, with short
# budgets: both reports and the comparison's verdict, and the comparison's HTML page
# (python-demo/out/bench.html).
# Python runs in the project venv of scripts/setup.sh (.venv, or $PICOLLO_VENV), with the
# binding from python-demo/ and the library from the workspace build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --demo
py="${PICOLLO_VENV:-.venv}/bin/python"
cargo build -q --release -p picollo-ffi
"$py" python-demo/demo.py --plot python-demo/out/percentiles.png
echo
if [ -f python-demo/perf_demo.py ]; then
  echo
  "$py" python-demo/perf_demo.py
fi
if [ "$(uname -s)" = Linux ]; then
  echo
  "$py" python-demo/bench_demo.py --quick --html python-demo/out/bench.html
fi
