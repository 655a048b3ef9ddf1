#!/usr/bin/env bash
# The harness names an unoptimized build: docs/benchmarks.md's compare_fns example
# (bench/examples/compare_fns.rs) built by cargo's dev profile warns in both reports and in
# the comparison; the same example built with --release does not. (C: c-tests/run.sh's
# test_build_note; C#: c-tests/csharp/run.sh's build_note; Python: python-demo/run_tests.sh
# under python3-dbg.)
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail() { echo "build_note: FAIL: $*" >&2; exit 1; }

cargo run -q -p picollo-bench --example compare_fns >"$out/debug.txt"
cargo run -q --release -p picollo-bench --example compare_fns >"$out/release.txt"
reports=$(grep -c -- '^- warning: the measured code is unoptimized (a Rust build with debug assertions' "$out/debug.txt" || true)
[ "$reports" -eq 2 ] || fail "the debug build's two reports warned $reports times"
grep -q 'is unoptimized code (a Rust build with debug assertions' "$out/debug.txt" \
    || fail "the debug build's comparison does not warn"
! grep -q 'unoptimized' "$out/release.txt" || fail "the release build warns"
echo "build_note: the debug build warns (reports: $reports, and the comparison); the release build does not"
grep -E '^verdict: ' "$out/debug.txt" | sed 's/^/  debug   /'
grep -E '^verdict: ' "$out/release.txt" | sed 's/^/  release /'
