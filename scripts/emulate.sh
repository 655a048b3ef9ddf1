#!/usr/bin/env bash
# Exact counts where there is no PMU: builds native/qemu/picollo_qemu_plugin.c (a TCG plugin
# for QEMU's user mode) and runs the guest programs of c-tests/emulate/ under it, as x86_64
# (qemu-x86_64) and aarch64 (qemu-aarch64) guests, against loops of a known instruction
# count: per-thread instructions exact over 20 repeats, loads and stores with mem=on, the
# L1D model (l1d=) to the miss under three geometries, two threads apart; the totals at exit
# (totals=PATH) the same in every run and larger by exactly 3 instructions a chain step;
# a thread past the plugin's slots flagged incomplete. Then what goes wrong is told: the
# program without the plugin (exit 77 and why), a plugin writing another record version
# (exit 3, named), an argument the plugin does not know, a bad cache geometry and a plugin
# file that is not there (QEMU refuses to start), totals to a path that cannot be written
# (said on stderr at exit; the run goes on). All of it runs under the host's QEMU (7.2 on
# Debian 12: plugin API version 1) and, where one is found, a newer one (API 2 and later:
# native/qemu/newer_qemu.sh; "SKIPPED: <why>" otherwise). Last, the cost:
#   bench emulate: read_ns=<a read pair under QEMU> slowdown=<QEMU with the plugin over
#   native, a compiled loop> slowdown_mem=<with mem=on> slowdown_l1d=<with l1d=on> exact=<n>/<n>
# Installs what it needs (qemu-user, the aarch64 cross gcc and libc: scripts/needs.sh), or
# says why it cannot and exits 0. Fails on any failed check.
#   PICOLLO_EMULATE_BUILD_QEMU=1  build a newer QEMU from Debian's source once (cached)
set -uo pipefail
cd "$(dirname "$0")/.."

work=target/emulate
build=$work/build
start=$SECONDS
mkdir -p "$build"
say() { echo "emulate: $*"; }
skip() { say "SKIPPED: $*"; exit 0; }

# needs NAME...: the tools of scripts/needs.sh, installed where missing; 1 having said why not.
. scripts/needs.sh

# The host's QEMU user mode (with plugins), the cross compiler and the aarch64 libc.
install_host_packages() {
    needs qemu-user aarch64-cross ||
        skip "the host packages are missing (see above)"
    for tool in qemu-x86_64 qemu-aarch64 aarch64-linux-gnu-gcc; do
        command -v "$tool" >/dev/null || skip "$tool missing"
    done
    qemu-x86_64 -h | grep -q -- '^-plugin' ||
        skip "the host's qemu-x86_64 ($(qemu-x86_64 --version | head -n 1)) cannot load plugins (a static build)"
}

# The plugin (and three test builds of it: another record version, 2 slots, API version 1
# fixed) and the guest programs, for x86_64 (dynamic) and aarch64 (static).
build_all() {
    local c=(-std=c11 -O2 -Wall -Wextra -Werror -I native/qemu)
    local so=(cc "${c[@]}" -shared -fPIC -fvisibility=hidden)
    local src=(native/qemu/picollo_qemu_plugin.c) prog
    "${so[@]}" -o "$build/plugin.so" "${src[@]}" &&
        "${so[@]}" -DPICOLLO_PLUGIN_RECORD_VERSION=2 -o "$build/plugin-v2.so" "${src[@]}" &&
        "${so[@]}" -DPICOLLO_PLUGIN_MAX_THREADS=2 -o "$build/plugin-2slots.so" "${src[@]}" &&
        "${so[@]}" -DPICOLLO_PLUGIN_API_VERSION=1 -o "$build/plugin-api1.so" "${src[@]}" || return 1
    for prog in test_emulated test_l1d work emulated_cost; do
        cc "${c[@]}" -pthread -o "$build/$prog-x86_64" "c-tests/emulate/$prog.c" &&
            aarch64-linux-gnu-gcc "${c[@]}" -static -pthread -o "$build/$prog-aarch64" \
                "c-tests/emulate/$prog.c" || return 1
    done
}

source c-tests/emulate/checks.sh
source native/qemu/newer_qemu.sh

install_host_packages
build_all || { say "FAILED: the build"; exit 1; }
host_version=$(qemu-x86_64 --version | head -n 1 | awk '{print $3}')
all_checks "QEMU $host_version" "$(command -v qemu-x86_64)" "$(command -v qemu-aarch64)"
if find_newer_qemu; then
    for dir in "${newer_dirs[@]}"; do
        all_checks "QEMU ${dir##*/qemu-}" "$dir/qemu-x86_64" "$dir/qemu-aarch64"
        newer_refuses_api1 "${dir##*/qemu-}" "$dir/qemu-x86_64"
    done
else
    say "SKIPPED: the checks under a QEMU newer than $host_version: $newer_reason"
fi
cost_figures "$(command -v qemu-x86_64)"
verdict=FAILED
[ "$exact" -eq "$runs" ] && [ "$fail" -eq 0 ] && verdict=ok
say "$verdict in $((SECONDS - start)) s"
echo "bench emulate: read_ns=$read_ns slowdown=$slowdown slowdown_mem=$slowdown_mem" \
    "slowdown_l1d=$slowdown_l1d exact=$exact/$runs"
[ "$verdict" = ok ]
