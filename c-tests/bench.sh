#!/usr/bin/env bash
# c-tests/bench.sh: record cost through libpicollo.so in every mode at 1 and N threads, at
# 1 % and 0.05 % precision (c-tests/bench_record.c), printed as a table and as
# `bench c: ...` lines. Arguments are thread counts (default: 1 and the CPU count).
#
# HG64_DIR=<folder with hg64.c and hg64.h> adds hg64 (https://github.com/fanf2/hg64, the
# version whose hg64_create takes the significant bits) on the same values, side by side.
# Its code is not part of this repository.
# shellcheck source=c-tests/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="$here/build/bench"
mkdir -p "$build"

cargo build --release -p picollo-ffi
flags=(-std=gnu11 -O2 -Wall -Wextra -Werror -pthread -Iinclude)
sources=(c-tests/bench_record.c)
if [[ -n "${HG64_DIR:-}" ]]; then
    [[ -f "$HG64_DIR/hg64.c" && -f "$HG64_DIR/hg64.h" ]] ||
        { echo "bench: HG64_DIR=$HG64_DIR has no hg64.c and hg64.h" >&2; exit 2; }
    flags+=(-DPICOLLO_BENCH_HG64 "-I$HG64_DIR")
    sources+=("$HG64_DIR/hg64.c")
fi
gcc "${flags[@]}" "${sources[@]}" -L"$target/release" -lpicollo \
    -Wl,-rpath,"$target/release" -o "$build/bench_record"
"$build/bench_record" "$@"
