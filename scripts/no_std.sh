#!/usr/bin/env bash
# The histogram crate without an operating system:
#  1. the guard crate (core/no-std-check) links picollo into a `#![no_std]` static library
#     with its own panic handler: linking fails if std or an allocator sneaks in;
#  2. picollo builds without default features, and without a warning, for
#     thumbv7em-none-eabihf (Cortex-M4F: no OS, no std in its sysroot, no 64-bit atomics);
#  3. picollo's normal and build dependencies include no `cc`: its build script compiles no C
#     (perf_event and the clocks, which do, are the crate picollo-perf).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/needs.sh
needs thumbv7em || exit 1

echo "no-std: the guard crate (core/no-std-check)"
cargo build -q --manifest-path core/no-std-check/Cargo.toml

echo "no-std: picollo --no-default-features for thumbv7em-none-eabihf (warnings denied)"
RUSTFLAGS="-D warnings" cargo build -q -p picollo --no-default-features --target thumbv7em-none-eabihf

echo "no-std: picollo's normal and build dependencies (cargo tree)"
for features in "" "--all-features"; do
    # shellcheck disable=SC2086 # an optional flag
    tree="$(cargo tree -q -p picollo -e normal,build --prefix none $features)"
    if grep -E '^cc v' <<<"$tree"; then
        echo "no-std: FAIL: picollo $features depends on cc (above)" >&2
        exit 1
    fi
done
echo "no-std: OK (no cc among picollo's dependencies, default and all features)"
