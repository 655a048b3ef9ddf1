#!/usr/bin/env bash
# The loom models of the concurrent histograms: the seqlock read path and the thread-local
# shard registration/fold, explored under every interleaving loom allows. A separate target
# dir keeps `--cfg loom` builds from invalidating the normal ones.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
  cargo test -p picollo --release --test loom_seqlock --test loom_local --test loom_saturation
