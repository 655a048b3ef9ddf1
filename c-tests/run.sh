#!/usr/bin/env bash
# c-tests/run.sh: the C ABI from the C side.
#  1. builds libpicollo (release) and checks that include/picollo.h compiles as C99 and C++17,
#     that include/picollo_inline.h read alone does too and preprocesses to what picollo.h
#     does, and that GCC calls the record functions through the GOT (the header's `noplt`), or
#     through the PLT with PICOLLO_USE_PLT;
#  2. builds test_abi.c (C99) and test_abi.cpp (C++17; its float histogram part records from
#     std::threads) against include/ and target/release, linked to the shared and to the
#     static library, and runs all four normally and the two shared ones under
#     valgrind memcheck (any error, definite leaks included, fails);
#  2a. builds test_build_note.c at -O0 and at -O2: the header's picollo_bench_config_default()
#     notes an unoptimized caller in the one and not in the other;
#  2a'. runs the C and C++ suites (c-tests/suite.sh: suite_sample.c, suite_sample.cpp) as
#     their users do: list, filters, --test, failures, a measurement, --against two builds;
#  2a''. runs a Google Benchmark program built against include/picollo_benchmark.hpp
#     (c-tests/gbench.sh: gbench_sample.cpp): its names, --benchmark_* flags, refusals,
#     throughputs, the JSON Google Benchmark's compare.py reads, --against a copy;
#  2b. checks that c-tests/test_bad_input.c has a row for every function of the header
#     (scripts/check_matrix.py), then builds that matrix of hostile calls (shared and
#     static) and runs both normally and the shared one under valgrind memcheck;
#  2c. builds test_record_paths.c (every record path against picollo_histogram_record over
#     random configurations, and the header's inline arithmetic against the table the Rust
#     layout writes) and runs it; builds it again against the ABI 1.13 header kept in
#     c-tests/fixtures and runs that;
#  3. builds test_threads (test_threads*.c: every concurrency mode from several pthreads) and
#     runs it at full size, then at --quick size under valgrind memcheck (threads run one at
#     a time there); builds test_fork.c (fork() with busy threads; free with parked
#     writers) and runs it, then at --quick size under valgrind; builds monitoring.c and
#     runs it for 2 seconds;
#  4. regenerates the header with cbindgen and fails on any difference, and checks that the
#     files it includes with `#include "..."` are in include/;
#  5. (the install with `cargo cinstall`, a program built against it with pkg-config and from
#     CMake, and a prefix of one's own are c-tests/install.sh: a stage of their own, which
#     times nothing);
#  6. builds the no_std guard crate and links nostd_smoke.c against its static library;
#  7. runs the record benchmark (c-tests/bench.sh: bench_record.c) --quick.
# Needs cargo, binutils and python3; installs gcc, g++, valgrind, cbindgen and Google
# Benchmark's tools where they are missing (scripts/needs.sh). Build outputs go to c-tests/build/ (ignored by git) and a temp dir.
who="c-tests"
# shellcheck source=c-tests/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="$here/build"

# shellcheck source=scripts/needs.sh
. "$root/scripts/needs.sh"
tools=(gcc g++ cbindgen gbench-tools)
[[ "${PICOLLO_NO_VALGRIND:-}" == 1 ]] || tools+=(valgrind)
needs "${tools[@]}" || die "the tools above are missing"
commands_present cargo readelf ldd diff nm python3
fresh_build

step "build libpicollo (release)"
cargo build --release -p picollo-ffi
so="$target/release/libpicollo.so"
static="$target/release/libpicollo.a"
[[ -f "$so" && -f "$static" ]] || die "cargo did not produce $so and $static"

step "the header compiles as C99 and as C++17"
printf '#include "picollo.h"\nint main(void) { return picollo_abi_version() == PICOLLO_ABI_VERSION ? 0 : 1; }\n' \
    >"$build/header_only.c"
cp "$build/header_only.c" "$build/header_only.cpp"
gcc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -c "$build/header_only.c" -o "$build/header_c.o"
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude -c "$build/header_only.cpp" -o "$build/header_cpp.o"

step "include/picollo_inline.h read alone: it compiles, and preprocesses to what picollo.h does"
# An editor or a linter reads the file alone: it includes picollo.h for its declarations
# without picollo.h including it again.
printf '#include "picollo_inline.h"\n' >"$build/inline_only.c"
cp "$build/inline_only.c" "$build/inline_only.cpp"
gcc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$build/inline_only.c"
g++ -std=c++17 -Wall -Wextra -Werror -Iinclude -fsyntax-only "$build/inline_only.cpp"
# gcc -H lists the headers a unit includes, by depth: picollo.h below picollo_inline.h, not
# picollo_inline.h again below that (the outer copy's text would then be skipped by its own
# guards, greyed out in an editor).
included="$(gcc -H -fsyntax-only -Iinclude "$build/inline_only.c" 2>&1 >/dev/null)"
! grep -Eq '^\.\.+ .*picollo_inline\.h$' <<<"$included" ||
    die "picollo_inline.h read alone is included again through picollo.h: $included"
for unit in c cpp; do
    compiler=gcc
    [[ $unit == cpp ]] && compiler=g++
    for defines in "" "-DPICOLLO_NO_INLINE_RECORDER -DPICOLLO_NO_BUILD_NOTE"; do
        # shellcheck disable=SC2086 # a list of flags
        "$compiler" -E -P -Iinclude $defines "$build/header_only.$unit" >"$build/header_only.$unit.i"
        # shellcheck disable=SC2086 # a list of flags
        "$compiler" -E -P -Iinclude $defines "$build/inline_only.$unit" >"$build/inline_only.$unit.i"
        # The units differ in their main(): the header's text is what comes before it.
        sed -i '$d' "$build/header_only.$unit.i"
        cmp -s "$build/header_only.$unit.i" "$build/inline_only.$unit.i" ||
            die "picollo_inline.h alone ($unit${defines:+ $defines}) preprocesses otherwise than picollo.h: diff $build/header_only.$unit.i $build/inline_only.$unit.i"
    done
done

if [[ "$(uname -m)" == x86_64 ]]; then
    step "GCC calls the record functions through the GOT, not the PLT (the header's noplt)"
    cat >"$build/noplt.c" <<'EOF_NOPLT'
#include "picollo.h"
void calls(picollo_histogram *h, picollo_float_histogram *f, picollo_approx_counter *c) {
    (picollo_histogram_record)(h, 1); /* the exported function, not the header's inline call */
    picollo_histogram_record_n(h, 1, 2);
    picollo_float_histogram_record(f, 1.0);
    picollo_float_histogram_record_n(f, 1.0, 2);
    picollo_approx_counter_increment(c);
}
EOF_NOPLT
    cp "$build/noplt.c" "$build/noplt.cpp"
    record_fns="picollo_histogram_record picollo_histogram_record_n picollo_float_histogram_record"
    record_fns="$record_fns picollo_float_histogram_record_n picollo_approx_counter_increment"
    # The relocation type of each call from position-independent code: GOTPCRELX (through
    # the GOT) with the header's noplt, PLT32 with PICOLLO_USE_PLT. -Wredundant-decls: the
    # attribute is on the declarations themselves.
    for unit in noplt.c noplt.cpp; do
        compiler=gcc
        [[ $unit == *.cpp ]] && compiler=g++
        for flavour in got plt; do
            extra=()
            want=GOTPCRELX
            if [[ $flavour == plt ]]; then
                extra=(-DPICOLLO_USE_PLT)
                want=PLT32
            fi
            "$compiler" -O2 -fPIC -Wall -Wextra -Wredundant-decls -Werror -Iinclude "${extra[@]}" \
                -c "$build/$unit" -o "$build/$unit.$flavour.o"
            relocs="$(readelf -rW "$build/$unit.$flavour.o")"
            for fn in $record_fns; do
                grep -Eq "R_X86_64_(REX_)?$want +[0-9a-f]+ +$fn([^a-z_]|$)" <<<"$relocs" ||
                    die "$unit ($flavour): the call of $fn is not a $want relocation: $(grep -E " $fn([^a-z_]|$)" <<<"$relocs")"
            done
        done
    done
fi

step "compile test_abi.c and test_abi.cpp (shared and static)"
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -O1 -g -pthread -Iinclude)
cxxflags=(-std=c++17 -Wall -Wextra -Werror -O1 -g -pthread -Iinclude)
# What a Rust staticlib needs from the system (`rustc --print native-static-libs`).
native_libs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
objects=()
# test_abi and every part of it (c-tests/test_abi_*.c; scripts/sanitize.sh builds the same).
abi_sources=(check text_protocol test_abi)
for part in c-tests/test_abi_*.c; do
    abi_sources+=("$(basename "$part" .c)")
done
for src in "${abi_sources[@]}"; do
    gcc "${cflags[@]}" -c "c-tests/$src.c" -o "$build/$src.o"
    objects+=("$build/$src.o")
done
g++ "${cxxflags[@]}" -c c-tests/test_abi.cpp -o "$build/test_abi_cpp.o"
shared_link=(-L"$target/release" -lpicollo -Wl,-rpath,"$target/release")
# The same C++ test under C++20 too: picollo.hpp's std::span overloads.
g++ "${cxxflags[@]}" -std=c++20 c-tests/test_abi.cpp "${shared_link[@]}" -o "$build/test_abi_cpp20_shared"
gcc -pthread "${objects[@]}" "${shared_link[@]}" -lm -o "$build/test_abi_shared"
gcc -pthread "${objects[@]}" "$static" "${native_libs[@]}" -o "$build/test_abi_static"
g++ -pthread "$build/test_abi_cpp.o" "${shared_link[@]}" -o "$build/test_abi_cpp_shared"
g++ -pthread "$build/test_abi_cpp.o" "$static" "${native_libs[@]}" -o "$build/test_abi_cpp_static"
tests=(test_abi_shared test_abi_static test_abi_cpp_shared test_abi_cpp_static test_abi_cpp20_shared)
for t in "${tests[@]}"; do
    if [[ $t == *_shared ]]; then
        readelf -d "$build/$t" | grep -q 'NEEDED.*\[libpicollo\.so\]' || die "$t does not load libpicollo.so"
    else
        ! readelf -d "$build/$t" | grep -q 'libpicollo' || die "$t is not statically linked"
    fi
done

# Run one test binary (optionally under a wrapper), keep its output, demand "N passed, 0 failed".
run_test() {
    local name=$1 log=$2
    shift 2
    local status=0
    "$@" >"$log" 2>&1 || status=$?
    if [[ $status -ne 0 ]] || ! tail -n 1 "$log" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
        tail -n 60 "$log" >&2
        die "$name exited with status $status (full output: $log)"
    fi
    echo "$name: $(tail -n 1 "$log")"
}

# Run one test binary under valgrind memcheck (OPTIONS before the program), demand "N passed,
# 0 failed" and no memcheck error (definite leaks included). PICOLLO_NO_VALGRIND=1 (the quick
# check, scripts/test.sh --quick) skips it and says so.
memcheck() {
    local name=$1 options=$2
    shift 2
    if [[ "${PICOLLO_NO_VALGRIND:-}" == 1 ]]; then
        echo "$name (valgrind): SKIPPED (PICOLLO_NO_VALGRIND=1)"
        return 0
    fi
    local vlog="$build/$name.valgrind.log"
    # shellcheck disable=SC2086  # OPTIONS are words
    run_test "$name (valgrind)" "$build/$name.valgrind.out" $options valgrind --tool=memcheck \
        --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --log-file="$vlog" "$@"
    grep -q 'ERROR SUMMARY: 0 errors' "$vlog" || {
        cat "$vlog" >&2
        die "valgrind reported errors for $name (log: $vlog)"
    }
}

step "run the tests"
for t in "${tests[@]}"; do
    run_test "$t" "$build/$t.out" "$build/$t"
done

step "run the tests under valgrind memcheck"
# The shared builds: a static build runs the same library code, already checked there. Both
# at once: under memcheck they time nothing, and each is one thread of valgrind's.
pids=()
for t in test_abi_shared test_abi_cpp_shared; do
    # PICOLLO_NO_TIMING_CHECKS: the harness test checks no timing under memcheck.
    # PICOLLO_TEST_UNDER_VALGRIND: the read-path test expects valgrind to be seen.
    memcheck "$t" "env PICOLLO_NO_TIMING_CHECKS=1 PICOLLO_TEST_UNDER_VALGRIND=1" "$build/$t" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid" || die "a test under valgrind failed (above)"
done

step "test_build_note: the header's config notes a caller built without optimization"
for o in O0 O2; do
    gcc -std=c99 -Wall -Wextra -Werror -pedantic -$o -Iinclude c-tests/test_build_note.c \
        "${shared_link[@]}" -o "$build/test_build_note_$o"
    run_test "test_build_note -$o" "$build/test_build_note_$o.out" "$build/test_build_note_$o"
    head -n 1 "$build/test_build_note_$o.out"
done

step "suites: the C and C++ sample suites as programs (c-tests/suite.sh)"
bash "$here/suite.sh"

step "Google Benchmark's API over the suite runner (c-tests/gbench.sh)"
bash "$here/gbench.sh"

step "test_bad_input: hostile arguments to every function of the header (the matrix)"
python3 scripts/check_matrix.py || die "the bad-input matrix misses functions of include/picollo.h"
gcc "${cflags[@]}" -c c-tests/test_bad_input.c -o "$build/test_bad_input.o"
gcc -pthread "$build/check.o" "$build/test_bad_input.o" "${shared_link[@]}" -lm -o "$build/test_bad_input_shared"
gcc -pthread "$build/check.o" "$build/test_bad_input.o" "$static" "${native_libs[@]}" -o "$build/test_bad_input_static"
for t in test_bad_input_shared test_bad_input_static; do
    run_test "$t" "$build/$t.out" "$build/$t"
done
memcheck test_bad_input_shared "" "$build/test_bad_input_shared"
grep -E '^bad-input matrix:' "$build/test_bad_input_shared.out" || true

step "test_record_paths: every record path counts each value where picollo_histogram_record does"
# The layout's own answers (the Rust layout writes them), for the header's inline arithmetic.
cargo run --release -q -p picollo --example layout_table -- 300 200 1 >"$build/layout_table.tsv"
gcc "${cflags[@]}" c-tests/test_record_paths.c "${shared_link[@]}" -lm -o "$build/test_record_paths"
run_test "test_record_paths" "$build/test_record_paths.out" \
    "$build/test_record_paths" 1000 4000 1 "$build/layout_table.tsv"
grep -E '^(integer paths|float paths|layout table):' "$build/test_record_paths.out"
# A program compiled against the header of ABI 1.13 (no unit in its inline recorder).
gcc "${cflags[@]}" -DPICOLLO_OLD_HEADER c-tests/test_record_paths.c "${shared_link[@]}" -lm \
    -o "$build/test_record_paths_abi_1_13"
run_test "test_record_paths (ABI 1.13 header)" "$build/test_record_paths_abi_1_13.out" \
    "$build/test_record_paths_abi_1_13" 300 4000 2
grep -E '^integer paths:' "$build/test_record_paths_abi_1_13.out"

step "test_threads: one histogram, several pthreads, every mode"
for src in test_threads test_threads_reset test_threads_api; do
    gcc "${cflags[@]}" -c "c-tests/$src.c" -o "$build/$src.o"
done
gcc -pthread "$build/check.o" "$build/test_threads.o" "$build/test_threads_reset.o" \
    "$build/test_threads_api.o" "${shared_link[@]}" -lm -o "$build/test_threads"
run_test "test_threads" "$build/test_threads.out" "$build/test_threads"
grep -E '^(approx|thread-local:|-- )' "$build/test_threads.out" || true
memcheck test_threads "" "$build/test_threads" --quick
grep -E '^quick run in' "$build/test_threads.valgrind.out" 2>/dev/null || true

step "test_fork: fork() with busy threads, free with parked writer threads"
gcc "${cflags[@]}" -c c-tests/test_fork.c -o "$build/test_fork.o"
gcc -pthread "$build/check.o" "$build/test_fork.o" "${shared_link[@]}" -lm -o "$build/test_fork"
run_test "test_fork" "$build/test_fork.out" timeout 600 "$build/test_fork"
# The children are not checked: fork leaves the memory of the parent's other threads behind.
# --fair-sched=yes: valgrind runs one thread at a time, and its default lock can hand the
# CPU back to the spinning resetter, reader and recorder threads again and again, so that
# the main thread (sleeping 1 ms between its waits for a child) starved past the test's
# 600 s alarm in some runs; the fair lock takes threads in turn.
memcheck test_fork "timeout 900" --fair-sched=yes --child-silent-after-fork=yes \
    "$build/test_fork" --quick

step "monitoring.c: writer threads, a one-line summary per second from a snapshot with deltas"
gcc "${cflags[@]}" c-tests/monitoring.c "${shared_link[@]}" -o "$build/monitoring"
"$build/monitoring" 2 >"$build/monitoring.out" 2>&1 || {
    cat "$build/monitoring.out" >&2
    die "monitoring failed"
}
cat "$build/monitoring.out"
[[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \| monitoring: Total=[0-9,]+, Overflow=[0-9,]+, Mean=.*, P100=' "$build/monitoring.out")" == 2 ]] ||
    die "monitoring did not print two one-line summaries"
grep -qx '##### Aggregate' "$build/monitoring.out" || die "monitoring printed no aggregate table"

step "bench_record.c: the C record benchmark builds and runs (c-tests/bench.sh --quick, without hg64)"
env -u HG64_DIR bash "$here/bench.sh" --quick 1 2 >"$build/bench_record.out" 2>&1 || {
    cat "$build/bench_record.out" >&2
    die "bench_record failed"
}
# Per precision: 1 thread 5 modes x 3 ways (interlocked twice: 32- and 64-bit counts) + 2
# exact-extremes modes x 2 ways; 2 threads 4 modes x 3 ways + 1 x 2 (no single writer).
[[ "$(grep -c '^bench c: mode=' "$build/bench_record.out")" == 66 ]] ||
    die "bench_record printed $(grep -c '^bench c: mode=' "$build/bench_record.out") figures, not 66"

step "include/picollo.h is cbindgen's output"
cbindgen --quiet --config ffi/cbindgen.toml --crate picollo-ffi --output "$tmp/picollo.h"
if ! diff -u include/picollo.h "$tmp/picollo.h"; then
    die "include/picollo.h differs from what $(cbindgen --version) generates (above); regenerate:
  cbindgen --config ffi/cbindgen.toml --crate picollo-ffi --output include/picollo.h"
fi
# The headers picollo.h includes from beside it (its trailer: picollo_inline.h): each must
# be in include/ (c-tests/install.sh checks that the install puts them beside it).
mapfile -t beside < <(beside_headers)
[[ ${#beside[@]} -gt 0 ]] || die "include/picollo.h includes no header from beside it (picollo_inline.h)"
for f in "${beside[@]}"; do
    [[ -f "include/$f" ]] || die "include/picollo.h includes \"$f\", which include/ lacks"
done
echo "include/picollo.h includes from beside it: ${beside[*]}"

step "the no_std guard crate, linked into C"
cargo build --manifest-path core/no-std-check/Cargo.toml
nostd_target="${CARGO_TARGET_DIR:-$root/core/no-std-check/target}"
nostd_lib="$nostd_target/debug/libpicollo_no_std_check.a"
[[ -f "$nostd_lib" ]] || die "the no_std guard did not produce $nostd_lib"
gcc -std=c99 -Wall -Wextra -Werror -pedantic c-tests/nostd_smoke.c "$nostd_lib" -o "$build/nostd_smoke"
"$build/nostd_smoke" >"$build/nostd_smoke.out" 2>&1 || {
    cat "$build/nostd_smoke.out" >&2
    die "nostd_smoke failed"
}
tail -n 1 "$build/nostd_smoke.out"

echo "c-tests: OK"
