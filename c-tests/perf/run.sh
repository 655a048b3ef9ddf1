#!/usr/bin/env bash
# Build libpicollo (release), compile the perf ABI test and the two examples as C99 with
# -Wall -Wextra -Werror, run the test under valgrind memcheck, then both examples, and
# check their output. Needs cargo; installs cc and valgrind where missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build"
libdir="$root/target/release"

die() { echo "perf: FAIL: $*" >&2; exit 1; }

# shellcheck source=scripts/needs.sh
. "$root/scripts/needs.sh"
needs cc valgrind || die "the tools above are missing"
command -v cargo >/dev/null || die "'cargo' not found"

(cd "$root" && cargo build --release -p picollo-ffi)
[[ -f "$libdir/libpicollo.so" ]] || die "$libdir/libpicollo.so was not built"

rm -rf "$build"
mkdir -p "$build"
cflags=(-std=c99 -Wall -Wextra -Werror -O2 -g -I"$root/include")
ldflags=(-L"$libdir" -lpicollo -Wl,-rpath,"$libdir" -lm)
for prog in test_perf perf_session perf_sorted; do
    cc "${cflags[@]}" -o "$build/$prog" "$here/$prog.c" "${ldflags[@]}"
done
# The header alone, as C++17: it must compile cleanly there too.
if command -v c++ >/dev/null; then
    printf '#include "picollo.h"\nint main() { return picollo_perf_config_default().struct_size == 0; }\n' \
        >"$build/header.cpp"
    c++ -std=c++17 -Wall -Wextra -Werror -I"$root/include" -o "$build/header" "$build/header.cpp" \
        "${ldflags[@]}"
fi

echo "== test_perf under valgrind memcheck"
status=0
PICOLLO_TEST_UNDER_VALGRIND=1 valgrind --error-exitcode=1 --leak-check=full \
    --errors-for-leak-kinds=definite -q "$build/test_perf" </dev/null | tee "$build/test.txt" || status=$?
[[ $status -eq 0 ]] || die "test_perf exited with status $status"
grep -Eq '^[0-9]+ passed, 0 failed$' "$build/test.txt" || die "no '<N> passed, 0 failed' line"
grep -q '^read path (forced user space): read(2): the process runs under valgrind' "$build/test.txt" ||
    die "under valgrind, a session forced onto user-space reads did not say it reads through read(2)"

echo "== test_perf natively (the library must not see valgrind here)"
"$build/test_perf" </dev/null >"$build/native.txt" || { cat "$build/native.txt"; die "test_perf failed natively"; }
grep -E '^read path|^[0-9]+ passed' "$build/native.txt"

echo "== perf_session"
"$build/perf_session" </dev/null | tee "$build/session.txt"
grep -q '^##### ' "$build/session.txt" || die "perf_session printed no table"
grep -Eq '^\| Mean: ' "$build/session.txt" || die "perf_session's table has no Mean row"
grep -Eq '^CPU PMU: ' "$build/session.txt" || die "perf_session printed no discovery line"

echo "== perf_sorted"
"$build/perf_sorted" </dev/null | tee "$build/sorted.txt"
grep -Eq '^\| Percentile \| Unsorted +\| Sorted +\|' "$build/sorted.txt" || die "perf_sorted printed no diff table"
grep -Eq '^\| D-value: ' "$build/sorted.txt" || die "perf_sorted's diff has no D-value row"

echo "perf: OK ($(grep -E '^[0-9]+ passed' "$build/test.txt"))"
