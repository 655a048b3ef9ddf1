#!/usr/bin/env bash
# Exact counts through every path of the library, each run under `picollo emulate` (QEMU's
# user mode with the plugin picollo carries), on operations of known instruction counts:
#   - Rust: bench/examples/emulated_check (the harness: P0 = P50 = P100 per operation, a
#     chain twice as long exactly its blocks more, A/A [0, 0] in 20 of 20, one `nop` more
#     found in 20 of 20, two threads each counting their own), x86_64 and aarch64;
#   - C: c-tests/emulate/test_emulated_bench.c through picollo_bench_run and
#     picollo_bench_compare_run (the same checks), x86_64 and aarch64;
#   - the header's inline recorder on an x86-64 CPU without `lzcnt` (qemu-x86_64 -cpu qemu64,
#     no counts): c-tests/test_record_paths.c, every path and the layout's table, built by GCC
#     and by Clang (Clang's also natively);
#   - Python: python-demo/tests/test_emulated.py, the interpreter itself under QEMU;
#   - the batch record's NEON path (aarch64): core/tests/batch_record.rs, every path against
#     the per-value record (it asserts NEON is among them on aarch64), and the float tickets'
#     unit test, run by qemu-aarch64 alone (no counts: emulated speed means nothing);
#   - C#: mono's JIT does not run under QEMU 7.2's user mode (it asks for code memory with
#     MAP_32BIT, which QEMU ignores, and then cannot reach its code with 32-bit calls): the
#     reason is printed, the C# tests of exact metrics run natively in the csharp stage.
# Installs qemu-user, the aarch64 cross compiler, Clang and the project venv where missing
# (scripts/needs.sh); where they cannot be, it says why and exits 0. The aarch64 builds share
# scripts/pmu-emulated.sh's profile and target folder.
set -uo pipefail
cd "$(dirname "$0")/.."

say() { echo "emulated-paths: $*"; }
. scripts/needs.sh
needs qemu-user aarch64-cross venv clang || { say "SKIPPED: the tools above could not be installed"; exit 0; }
start=$SECONDS
failed=0
work=target/emulated-paths
mkdir -p "$work"

# Run one check under the emulator: it must exit 0.
check() {
    local name=$1 t=$SECONDS
    shift
    echo "== $name"
    if "$picollo" emulate -- "$@"; then
        say "$name: ok ($((SECONDS - t)) s)"
    else
        say "$name: FAILED (exit $?)"
        failed=1
    fi
}

cargo build -q --release -p picollo-cli -p picollo-ffi || { say "FAILED: the build"; exit 1; }
cargo build -q --release -p picollo-bench --example emulated_check || { say "FAILED: the build"; exit 1; }
picollo=$PWD/target/release/picollo
cc=(-std=c11 -O2 -Wall -Wextra -Werror -Iinclude -Inative/qemu -Ic-tests/emulate)
gcc "${cc[@]}" -o "$work/test_emulated_bench" c-tests/emulate/test_emulated_bench.c \
    -Ltarget/release -lpicollo -lm -Wl,-rpath,"$PWD/target/release" || { say "FAILED: the C build"; exit 1; }

check "Rust harness, x86_64" target/release/examples/emulated_check
check "C ABI, x86_64" "$work/test_emulated_bench"

# The header's inline recorder on an x86-64 CPU without `lzcnt` (QEMU's `qemu64` model), where
# the encoding of `lzcnt` it takes its logarithm with runs as `bsr`: c-tests/test_record_paths.c
# (every record path against picollo_histogram_record, and picollo_recorder_index against the
# layout's table), built by GCC (the c-tests stage runs that one natively, on a CPU with
# `lzcnt`) and by Clang (run here natively too).
record_paths() {
    local out
    echo "== $1"
    shift
    out=$("$@" 2>&1)
    echo "$out" | tail -n 4
    grep -Eq '^[1-9][0-9]* passed, 0 failed$' <<<"$out" && grep -q "lzcnt's encoding on 1 gives" <<<"$out"
}
header_index() {
    local t=$SECONDS compiler bin ok=1
    cargo run -q --release -p picollo --example layout_table -- 300 200 1 >"$work/layout_table.tsv" ||
        { say "FAILED: the layout table"; failed=1; return; }
    for compiler in gcc clang; do
        bin=$work/test_record_paths-$compiler
        $compiler "${cc[@]}" -o "$bin" c-tests/test_record_paths.c -Ltarget/release -lpicollo -lm \
            -Wl,-rpath,"$PWD/target/release" ||
            { say "FAILED: $compiler's build of test_record_paths"; ok=0; continue; }
        record_paths "header's inline recorder ($compiler), x86_64 without lzcnt (qemu-x86_64 -cpu qemu64)" \
            qemu-x86_64 -cpu qemu64 "$bin" 100 1000 1 "$work/layout_table.tsv" || ok=0
    done
    record_paths "header's inline recorder (clang), this CPU" \
        "$work/test_record_paths-clang" 300 2000 3 "$work/layout_table.tsv" || ok=0
    if [ $ok -eq 1 ]; then
        say "header's index, GCC and Clang, without lzcnt (qemu64) and with: ok ($((SECONDS - t)) s)"
    else
        say "header's index, GCC and Clang, without lzcnt (qemu64) and with: FAILED"
        failed=1
    fi
}
header_index
python=$(readlink -f .venv/bin/python 2>/dev/null)
if [ -x "$python" ]; then
    # The venv's own interpreter (a wrapper script would exec it natively, uncounted), with
    # the venv's packages and the checkout's binding and library.
    site=$(.venv/bin/python -c 'import site; print(site.getsitepackages()[0])')
    (cd python-demo && PYTHONPATH="$PWD:$site" check "Python (the interpreter under QEMU)" \
        "$python" -m pytest -q -p no:cacheprovider tests/test_emulated.py) || failed=1
else
    say "FAILED: no .venv/bin/python (scripts/setup.sh makes it)"
    failed=1
fi

# The cost for Python: one loop of 2 million additions natively and under the emulator (the
# interpreter's own start included in neither: the loop times itself).
if [ -x "$python" ]; then
    loop='import time; t = time.perf_counter(); s = 0
for i in range(2000000): s += i
print(time.perf_counter() - t)'
    native=$("$python" -c "$loop")
    emulated=$("$picollo" emulate -q -- "$python" -c "$loop")
    say "$(awk -v e="$emulated" -v n="$native" 'BEGIN { printf "bench emulate python: native=%.3fs emulated=%.3fs slowdown=%.1f", n, e, e / n }')"
fi

# Runs an aarch64 test executable under qemu-aarch64: it must pass and run at least one test
# (a filter that matches nothing passes too).
passes() {
    local out rc
    out=$(qemu-aarch64 "$@" 2>&1)
    rc=$?
    echo "$out" | tail -n 3
    [ $rc -eq 0 ] && grep -Eq 'test result: ok\. [1-9][0-9]* passed' <<<"$out"
}

# The batch record's NEON path under qemu-aarch64: the differential tests (batch_record) and
# the float tickets' unit test (picollo's lib tests under batch::). QEMU's user mode cannot run an
# aarch64 child without binfmt_misc, so the test that re-runs itself with each
# PICOLLO_RECORD_PATH is skipped in the whole run and its child's check run here, once a name.
neon_batch() {
    local t=$SECONDS exe names=(portable avx2 avx512 neon sse9) ok=1
    cargo test -q --no-run "${profile[@]}" --target $triple -p picollo --all-features --lib \
        --test batch_record --message-format=json >"$work/neon-tests.json" ||
        { say "FAILED: the aarch64 build of the batch record's tests"; failed=1; return; }
    mapfile -t exe < <(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["target"]["name"], m["executable"])' "$work/neon-tests.json" | sort | cut -d" " -f2)
    # Sorted by target name: batch_record, then picollo (the lib's unit tests).
    if [ ${#exe[@]} -ne 2 ]; then
        say "FAILED: expected 2 test executables, got ${#exe[@]}"
        failed=1
        return
    fi
    echo "== batch record, aarch64 (qemu-aarch64)"
    passes "${exe[0]}" --skip the_environment_variable_forces_a_path || ok=0
    for name in "${names[@]}"; do
        PICOLLO_RECORD_PATH=$name passes "${exe[0]}" --exact \
            the_environment_variable_forces_a_path || { echo "(PICOLLO_RECORD_PATH=$name)"; ok=0; }
    done
    passes "${exe[1]}" batch:: || ok=0
    if [ $ok -eq 1 ]; then
        say "NEON batch path (aarch64, qemu-aarch64): ok, every batch_record test on it and the float tickets' ($((SECONDS - t)) s)"
    else
        say "NEON batch path (aarch64, qemu-aarch64): FAILED"
        failed=1
    fi
}

# aarch64: static builds, as scripts/pmu-emulated.sh makes them.
triple=aarch64-unknown-linux-gnu
profile=(--config 'profile.pmu.inherits="dev"' --config profile.pmu.opt-level=2
    --config profile.pmu.debug=false --config profile.pmu.incremental=false --profile pmu)
if command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null &&
    rustup target add $triple >/dev/null 2>&1; then
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
    export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static"
    build=target/$triple/pmu
    if cargo build -q "${profile[@]}" --target $triple -p picollo-ffi -p picollo-bench \
        --lib --example emulated_check &&
        aarch64-linux-gnu-gcc "${cc[@]}" -static -o "$work/test_emulated_bench-aarch64" \
            c-tests/emulate/test_emulated_bench.c "$build/libpicollo.a" -lm -lpthread -ldl; then
        check "Rust harness, aarch64" "$build/examples/emulated_check"
        check "C ABI, aarch64" "$work/test_emulated_bench-aarch64"
    else
        say "FAILED: the aarch64 build"
        failed=1
    fi
    neon_batch
else
    say "FAILED: qemu-aarch64, the aarch64 cross gcc or rustup's $triple target is missing"
    failed=1
fi

say "C#: not run under QEMU: mono's JIT asks for its code memory with MAP_32BIT, which QEMU 7.2's user mode ignores, and then cannot reach that code with its 32-bit calls (an assertion in x86-codegen.h); mono's interpreter runs but its counts vary from call to call. The C# binding's exact-metric API is tested natively (csharp stage)."
say "$([ $failed -eq 0 ] && echo ok || echo FAILED) in $((SECONDS - start)) s"
exit $failed
