#!/usr/bin/env bash
# The HTML reports in a real browser. Renders the demo's comparison (Python through the C
# ABI), a benchmark of two commands (picollo bench --html), an interval log (picollo report
# --html), the page of a selection that picks nothing, and the Rust example's pages (a
# comparison, one result, 16 metrics × 100 rounds a side) and the timeline of change points
# (bench/examples/history_detect.rs), then scripts/html_check.py opens
# each in headless Chromium: html5lib's strict parse, no console error, no request beyond
# the page, the verdict line the command printed in the rendered text, every figure drawn
# inside the page with a title and a caption. Screenshots (light and dark) and the printed
# PDFs go to target/html-report/shots. The 16-metric page must stay under 1 MB.
# Then Picollo in CI (scripts/ci_check.py): a gate of three commands with every --export read
# by its peer and its --summary, and the summary of 500 constructed comparisons
# (bench/examples/ci_summary.rs, under GitHub's 1 MiB), both rendered from Markdown with
# markdown-it-py and opened in Chromium too (target/html-report/shots/summary-*.png).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/needs.sh
needs chromium emoji-font venv gbench-tools || exit 1
py="${PICOLLO_VENV:-.venv}/bin/python"
out=target/html-report
rm -rf "$out"
mkdir -p "$out"
cargo build -q --release -p picollo-ffi -p picollo-cli
cargo build -q --release -p picollo-bench --example html_report --example ci_summary \
  --example history_detect
picollo=target/release/picollo

# The first verdict line of FILE (of a line that starts with PREFIX, which is cut).
verdict_of() { sed -n "s/^${2:-}\(verdict: \)/\1/p" "$1" | head -n 1; }

"$py" python-demo/bench_demo.py --quick --html "$out/demo.html" >"$out/demo.txt"
"$picollo" bench -r 12 -n "sleep 5 ms" -n "sleep 6 ms" --html "$out/bench.html" \
  "sleep 0.005" "sleep 0.006" >"$out/bench.txt"
"$picollo" report cli/tests/data/peer_hdrh.hlog --html "$out/log.html" 2>/dev/null
status=0
"$picollo" report cli/tests/data/latency.hlog --tag none --html "$out/empty.html" 2>/dev/null ||
  status=$?
[ "$status" = 5 ] || { echo "html: an empty selection exited $status, not 5 (no data)"; exit 1; }
target/release/examples/html_report "$out" >"$out/example.txt"
target/release/examples/history_detect --series bench/tests/data/history-timeline.json \
  --html "$out/timeline.html" >"$out/timeline.txt"

size=$(stat -c %s "$out/sixteen.html")
echo "html: 16 metrics x 100 rounds a side: $size bytes"
[ "$size" -lt 1000000 ] || { echo "html: the 16-metric page is 1 MB or more"; exit 1; }

"$py" scripts/html_check.py --out "$out/shots" \
  "$out/demo.html" "$(verdict_of "$out/demo.txt")" \
  "$out/bench.html" "$(verdict_of "$out/bench.txt")" \
  "$out/log.html" "api, interval by interval" \
  "$out/empty.html" "Nothing to draw: cli/tests/data/latency.hlog: no intervals tagged none" \
  "$out/comparison.html" "$(verdict_of "$out/example.txt" "comparison.html: ")" \
  "$out/result.html" "4506 bytes: time P50=" \
  "$out/sixteen.html" "$(verdict_of "$out/example.txt" "sixteen.html: ")" \
  "$out/timeline.html" "tail at 4cbd87a (run 41): P50 +0.0 %"

mkdir -p "$out/ci"
target/release/examples/ci_summary "$out/ci/summary-500.md"
"$py" scripts/ci_check.py --picollo "$picollo" --out "$out/ci" --summary-500 "$out/ci/summary-500.md" \
  --compare-py /usr/share/benchmark/compare.py
"$py" scripts/html_check.py --out "$out/shots" --text-only \
  "$out/ci/summary-3.html" "Picollo: 5 comparisons: " \
  "$out/ci/summary-500.html" "Picollo: 500 comparisons: 🔴 125 slower, 🟢 125 faster"
