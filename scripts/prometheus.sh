#!/usr/bin/env bash
# Picollo's native histograms scraped by a real Prometheus: installs Debian's prometheus when
# it is missing (scripts/needs.sh, which stops the service the package starts), builds
# libpicollo, then runs scripts/prometheus_native.py with the python-demo package of this
# checkout: two exposition servers and a prometheus with native histograms on, all on
# 127.0.0.1, queried through its HTTP API (see that script for the checks); then the
# sections below, each a service of its own language scraped by its own prometheus.
set -euo pipefail
exec </dev/null
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/needs.sh
needs prometheus venv || exit 1
prometheus --version 2>&1 | head -1

cargo build -q --release -p picollo-ffi
cargo build -q --release -p picollo-metrics --example serve
target="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)"
venv="${PICOLLO_VENV:-.venv}"
py="$venv/bin/python"
[ -x "$py" ] || py=python3
# The source package (standard library only) with the workspace's library.
export PYTHONPATH="$PWD/python-demo" PICOLLO_LIB="$target/release/libpicollo.so"
"$py" scripts/prometheus_native.py

# rust_service: a Rust service recording through the `metrics` facade
# (metrics/examples/serve.rs), scraped by two prometheus, native and classic
# (scripts/prometheus_rust.py).
rust_service() {
  "$py" scripts/prometheus_rust.py "$target/release/examples/serve"
}
rust_service

# python_service: a Python service's picollo.prometheus.Histogram (a known distribution,
# fixed seed), served as native histograms (protobuf) and as classic buckets (text); the
# quantiles Prometheus answers against the true ones (scripts/prometheus_python.py).
python_service() {
  "$py" scripts/prometheus_python.py
}
python_service
