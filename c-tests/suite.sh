#!/usr/bin/env bash
# c-tests/suite.sh: the C and C++ suites as their users run them. Builds the sample C suite
# (suite_sample.c: PICOLLO_BENCH, PICOLLO_BENCH_MAIN; again as C++; with -DSLOWER, -DFAILING,
# and with suite_sample_twice.c, which registers a name twice) and the sample C++ suite
# (suite_sample.cpp: picollo::Suite with lambdas; with -DSLOWER) against target/release, then
# runs them: --list, a filter, a filter matching nothing, --test, a benchmark that fails or
# throws, a duplicate name, a short measurement and its results.json, --against a
# byte-identical copy and against a build doing eight times the work of one benchmark, --save and
# --baseline against a build doing 1,000 times the work of one, and of a benchmark with a
# throughput (both sides' rates). Under
# valgrind memcheck (unless PICOLLO_NO_VALGRIND=1), only --list and --test. Called by
# c-tests/run.sh; runs alone too (it builds libpicollo first).
who="c-tests/suite"
# shellcheck source=c-tests/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out="$here/build/suite"
rm -rf "$out"
mkdir -p "$out"

cargo build --release -q -p picollo-ffi
link=(-L"$target/release" -lpicollo -Wl,-rpath,"$target/release")
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -O2 -g -Iinclude)
cxxflags=(-std=c++17 -Wall -Wextra -Werror -O2 -g -Iinclude)
gcc "${cflags[@]}" c-tests/suite_sample.c "${link[@]}" -o "$out/c"
gcc "${cflags[@]}" -DSLOWER c-tests/suite_sample.c "${link[@]}" -o "$out/c_slower"
gcc "${cflags[@]}" -DMUCH_SLOWER c-tests/suite_sample.c "${link[@]}" -o "$out/c_much_slower"
gcc "${cflags[@]}" -DFAILING c-tests/suite_sample.c "${link[@]}" -o "$out/c_failing"
gcc "${cflags[@]}" -DPARAMS c-tests/suite_sample.c "${link[@]}" -o "$out/c_params"
g++ "${cxxflags[@]}" -DPARAMS -x c++ c-tests/suite_sample.c "${link[@]}" -o "$out/c_params_as_cpp"
gcc "${cflags[@]}" c-tests/suite_sample.c c-tests/suite_sample_twice.c "${link[@]}" -o "$out/c_twice"
g++ "${cxxflags[@]}" -x c++ c-tests/suite_sample.c "${link[@]}" -o "$out/c_as_cpp"
g++ "${cxxflags[@]}" c-tests/suite_sample.cpp "${link[@]}" -o "$out/cpp"
g++ "${cxxflags[@]}" -DSLOWER c-tests/suite_sample.cpp "${link[@]}" -o "$out/cpp_slower"
# Another build of the same source: a byte-identical copy in a file of its own.
cp "$out/c" "$out/c_copy"
cp "$out/cpp" "$out/cpp_copy"

# shellcheck source=c-tests/suite_run.sh
source "$here/suite_run.sh"

# The list, filters, test mode, failures and duplicates of both languages.
run 0 c_list ./c --list
[[ "$(cat "$out/c_list.log")" == $'sum_1000: benchmark\nspin_200: benchmark' ]] ||
    die "c --list printed: $(cat "$out/c_list.log")"
run 0 c_filter ./c --list spin
[[ "$(cat "$out/c_filter.log")" == "spin_200: benchmark" ]] || die "c --list spin: $(cat "$out/c_filter.log")"
run 5 c_nomatch ./c --list --exact spin
has c_nomatch "no benchmark matches the filter (the benchmarks: sum_1000, spin_200)"
run 0 c_test ./c --test
has c_test $'bench spin_200 ... ok\nbench result: 2 ran once, 0 failed'
run 0 c_as_cpp ./c_as_cpp --test
has c_as_cpp "bench result: 2 ran once, 0 failed"
run 6 c_failing ./c_failing --test
has c_failing "bench fails ... FAILED: the result was wrong, as the test asked"
run 2 c_twice ./c_twice --list
has c_twice 'error: two benchmarks are named "sum_1000": give each its own name'
run 0 cpp_list ./cpp --list
[[ "$(cat "$out/cpp_list.log")" == $'sum 1000: benchmark\nspin 200: benchmark' ]] ||
    die "cpp --list printed: $(cat "$out/cpp_list.log")"
run 0 cpp_regex ./cpp --list --regex '^spin'
[[ "$(cat "$out/cpp_regex.log")" == "spin 200: benchmark" ]] || die "cpp --regex: $(cat "$out/cpp_regex.log")"
run 0 cpp_test ./cpp --test
has cpp_test "bench result: 2 ran once, 0 failed"
run 6 cpp_throws env PICOLLO_SUITE_THROW=1 ./cpp --test
has cpp_throws "bench throws ... FAILED: out of range, as the test asked"
has cpp_throws "bench result: 2 ran once, 1 failed"
run 2 cpp_twice env PICOLLO_SUITE_DUPLICATE=1 ./cpp --list
has cpp_twice 'error: two benchmarks are named "sum 1000"'
run 2 cpp_flag ./cpp --budgte 1
has cpp_flag "unknown flag --budgte"
run 0 cpp_help ./cpp --help
has cpp_help "--shard <I/N>"
has cpp_help "--unsettled <pass|fail>"
# Two shards list every benchmark once between them.
run 0 c_shard1 ./c --list --shard 1/2
run 0 c_shard2 ./c --list --shard 2/2
[[ "$(cat "$out/c_shard1.log" "$out/c_shard2.log" | sort)" == "$(cd "$out" && ./c --list | sort)" ]] ||
    die "c --shard 1/2 and 2/2 listed: $(cat "$out/c_shard1.log" "$out/c_shard2.log")"
has cpp_help "--threshold <PERCENT>"
has cpp_help "--against <SUITE>"

# A short measurement (the default without --test): a line a benchmark, the document.
run 0 c_measure ./c "${short[@]}" --out measured
has c_measure "sum_1000: time P50="
has c_measure "spin_200: time P50="
python3 - "$out/measured/c/results.json" <<'EOF' || die "c: results.json is not the suite's document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "picollo-bench", doc["schema"]
assert [c["name"] for c in doc["commands"]] == ["sum_1000", "spin_200"], doc["commands"]
assert all(c["result"]["metrics"][0]["name"] == "time" for c in doc["commands"])
EOF
# Benchmarks of parameters with a throughput: one benchmark a parameter, named name/param by
# the library, listed, filtered, run once; measured, each line and result carries the rate
# at the median time its own document reports.
run 0 c_params_list ./c_params --list
[[ "$(cat "$out/c_params_list.log")" == $'sum_1000: benchmark\nspin_200: benchmark\ncopy/64: benchmark\ncopy/4096: benchmark' ]] ||
    die "c_params --list printed: $(cat "$out/c_params_list.log")"
run 0 c_params_test ./c_params --test --exact copy/4096
[[ "$(cat "$out/c_params_test.log")" == $'bench copy/4096 ... ok\nbench result: 1 ran once, 0 failed' ]] ||
    die "c_params --test --exact copy/4096 printed: $(cat "$out/c_params_test.log")"
run 0 c_params_cpp ./c_params_as_cpp --test copy
has c_params_cpp "bench result: 2 ran once, 0 failed"
run 0 c_params_measure ./c_params "${short[@]}" --out params copy sum
python3 "$here/check_throughput.py" "$out/params/c_params/results.json" --log "$out/c_params_measure.log" \
    copy/64=bytes:64 copy/4096=bytes:4096 sum_1000=elements:1000 || die "c_params: the throughputs"
# Compared, the verdict stays on time, and the rate of both sides shows beside it.
run "0|7" c_params_aa ./c_params "${short[@]}" --processes 1 --against ./c_params --exact copy/4096
has c_params_aa "throughput at P50: copy/4096 (base) "
run 0 cpp_params_list env PICOLLO_SUITE_PARAMS=1 ./cpp --list fill
[[ "$(cat "$out/cpp_params_list.log")" == $'fill/64: benchmark\nfill/4096: benchmark' ]] ||
    die "cpp --list fill printed: $(cat "$out/cpp_params_list.log")"
run 0 cpp_params_measure env PICOLLO_SUITE_PARAMS=1 ./cpp "${short[@]}" --out params fill sum
python3 "$here/check_throughput.py" "$out/params/suite_sample_cpp/results.json" --log "$out/cpp_params_measure.log" \
    fill/64=bytes:64 fill/4096=bytes:4096 "sum 1000=elements:1000" || die "cpp: the throughputs"

# A throw while measured: that benchmark FAILED with its message, the other measured.
run 6 cpp_measure env PICOLLO_SUITE_THROW=1 ./cpp "${short[@]}" sum throws
has cpp_measure "sum 1000: time P50="
has cpp_measure "throws: FAILED: failed: out of range, as the test asked"

# Two builds through --against. Identical builds: two verdicts, no failure (a verdict of
# "slower" is allowed: correct code gives one with p <= 0.1, the rate the Rust suite tests
# and bench/tests/verdicts.rs states exactly). Eight times the work in the head build's
# "spin": slower, exit 7 in every round's pair, not by odds: a machine's speed steps (a busy
# neighbour on the core's other hardware thread halves a round's speed) hid twice the work
# in half of one run's rounds, but leave eight times the work at least 4x (docs/testing.md).
run "0|7" c_aa ./c "${short[@]}" --against ./c_copy
[[ "$(grep -c '^verdict: ' "$out/c_aa.log")" == 2 ]] || die "c against its copy: $(cat "$out/c_aa.log")"
# Each verdict says the look it settled at, or that its budget ended first.
if grep '^verdict: ' "$out/c_aa.log" | grep -v -e ', settled at look [1-8] of [1-8] (' -e '^verdict: not settled in '; then
    die "c against its copy: a verdict that names no look"
fi
run 7 c_slower ./c_slower "${short[@]}" --processes 1 --against ./c spin
has c_slower "verdict: spin_200 (head) is slower than spin_200 (base) by"
run "0|7" cpp_aa ./cpp "${short[@]}" --against ./cpp_copy
[[ "$(grep -c '^verdict: ' "$out/cpp_aa.log")" == 2 ]] || die "cpp against its copy: $(cat "$out/cpp_aa.log")"
run 7 cpp_slower ./cpp_slower "${short[@]}" --processes 1 --against ./cpp spin
has cpp_slower "verdict: spin 200 (head) is slower than spin 200 (base) by"
# A worker that exits (at once, or after its hello, before the first benchmark): a clear
# error and exit 9, never this process ended by SIGPIPE (exit 141), which C and C++ programs
# leave at its default, when the request is written to the exited worker's input.
printf '#!/bin/sh\nexit 3\n' >"$out/exits.sh"
printf '#!/bin/sh\nread line\necho %s\nexit 4\n' \
  "'@picollo {\"reply\":\"hello\",\"protocol\":1,\"suite\":\"x\",\"benchmarks\":[\"sum_1000\"]}'" \
  >"$out/hello_exits.sh"
chmod +x "$out/exits.sh" "$out/hello_exits.sh"
for i in 1 2 3; do
  run 9 "cpp_worker_exits_$i" ./cpp "${short[@]}" --against ./exits.sh
  has "cpp_worker_exits_$i" "error: base: the worker exited: exit status: 3"
  run 9 "c_worker_hello_exits_$i" ./c "${short[@]}" --against ./hello_exits.sh
  has "c_worker_hello_exits_$i" "error: base: the worker exited: exit status: 4"
done

# Functions saved run apart by run apart (--save, --append), then gated (--baseline): 1,000
# times the work in "spin" is slower, exit 7, even against 3 runs apart whose spread is this
# VM's 1.8x speed steps (a log change of 6.9 against an interval of at most 9.9 x 1.15 x
# 0.35 = 4.0).
for i in 1 2 3; do run 0 "c_save$i" ./c "${short[@]}" --out saved --save main --append spin; done
has c_save3 "saved as baseline main: saved/baselines/main.json"
run 7 c_gate ./c_much_slower "${short[@]}" --out saved --baseline main spin
has c_gate "verdict: spin_200 is slower than spin_200 [saved saved/baselines/main.json] by"
run "0|7" c_gate_same ./c "${short[@]}" --out saved --baseline main spin
# A throughput is saved with its benchmark: judged against the baseline (one run apart: not
# judged, exit 0), the comparison carries the saved rate beside this run's.
run 0 c_params_save ./c_params "${short[@]}" --out saved_params --save main --exact copy/4096
run 0 c_params_gate ./c_params "${short[@]}" --out saved_params --baseline main --exact copy/4096
python3 "$here/check_throughput.py" "$out/saved_params/c_params/results.json" \
    --baseline "$out/saved_params/baselines/main.json" --log "$out/c_params_gate.log" \
    copy/4096=bytes:4096 || die "c_params --baseline: the saved rate"
grep -h '^verdict: ' "$out"/{c_aa,c_slower,cpp_aa,cpp_slower,c_gate}.log

# Under valgrind memcheck: the list and the test mode, a throw and a failure included.
if [[ "${PICOLLO_NO_VALGRIND:-}" == 1 ]]; then
    echo "suites (valgrind): SKIPPED (PICOLLO_NO_VALGRIND=1)"
else
    memcheck=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
    run 0 c_list_vg "${memcheck[@]}" --log-file=c_list.vg ./c --list
    run 6 c_failing_vg "${memcheck[@]}" --log-file=c_failing.vg ./c_failing --test
    run 6 cpp_throws_vg env PICOLLO_SUITE_THROW=1 "${memcheck[@]}" --log-file=cpp_throws.vg ./cpp --test
    has cpp_throws_vg "bench throws ... FAILED: out of range, as the test asked"
    for vg in c_list c_failing cpp_throws; do
        grep -q 'ERROR SUMMARY: 0 errors' "$out/$vg.vg" || {
            cat "$out/$vg.vg" >&2
            die "valgrind reported errors for $vg"
        }
    done
    echo "suites (valgrind): --list, --test with a failure and a throw: no error"
fi
echo "c-tests/suite: OK (C and C++ suites: list, filters, test mode, failures, duplicates, measurement, --against, --save and --baseline)"
