#!/usr/bin/env bash
# The demo: the getting-started histogram (summary table, P99, diff table, percentile plot)
# from Python through the C ABI, then the perf counters session where the machine allows.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cargo build -q --release -p picollo-ffi
python3 python-demo/demo.py --plot python-demo/out/percentiles.png
echo
if [ -f python-demo/perf_demo.py ]; then
  echo
  python3 python-demo/perf_demo.py
fi
