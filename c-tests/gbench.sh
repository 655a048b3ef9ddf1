#!/usr/bin/env bash
# c-tests/gbench.sh: a Google Benchmark program built against Picollo (include/
# picollo_benchmark.hpp). Builds c-tests/gbench_sample.cpp, which uses Google Benchmark's API
# in its idioms, with g++ -std=c++14 (c-tests/run.sh builds it again with Google Benchmark's
# own include line, against the install's shim folder). Then runs it: the names (--list,
# --benchmark_list_tests, --benchmark_filter), --test and --benchmark_dry_run, a short
# measurement whose --benchmark_out JSON Google Benchmark's compare.py reads and whose
# throughputs come from SetItemsProcessed/SetBytesProcessed, --benchmark_format=json alone on
# stdout, user counters, labels, Complexity fits, Setup/Teardown, Iterations(7) and
# UseManualTime (c-tests/check_gbench_report.py), an A/A of the program against a copy of
# itself, and bad use: a Range whose start is above its end, Threads(4) (left out with a
# note), SkipWithError, an unknown --benchmark_ flag. Then c-tests/bench_oneliner.cpp:
# picollo::Bench().run("name", work) printing its rows. Under valgrind memcheck (unless PICOLLO_NO_VALGRIND=1), only --test.
# Called by c-tests/run.sh; runs alone too (it builds libpicollo first).
who="c-tests/gbench"
# shellcheck source=c-tests/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
out="$here/build/gbench"
rm -rf "$out"
mkdir -p "$out"

cargo build --release -q -p picollo-ffi
link=(-L"$target/release" -lpicollo -Wl,-rpath,"$target/release")
cxxflags=(-std=c++14 -Wall -Wextra -Werror -O2 -g)
g++ "${cxxflags[@]}" -Iinclude c-tests/gbench_sample.cpp "${link[@]}" -o "$out/sample"
cp "$out/sample" "$out/sample_copy"

# shellcheck source=c-tests/suite_run.sh
source "$here/suite_run.sh"

# The names, as Google Benchmark 1.7.1 lists this program's (checked once against it).
names='BM_sum/8
BM_sum/16
BM_sum/64
BM_sum/256
BM_copy/8/64
BM_copy/1/128
BM_copy/2/128
BM_dense_named/0
BM_dense_named/2
BM_dense_named/4
BM_settings/iterations:100/repeats:3/real_time/threads:1
BM_settings/min_time:0.500
BM_signed/delta:-8
BM_signed/delta:-1
BM_signed/delta:0
BM_signed/delta:1
BM_signed/delta:8
BM_capture/small
BM_t<int>
BM_t<double>
BM_t2<int,long>
BM_skip
Filled/Sum
BM_counters
BM_linear/64
BM_linear/256
BM_linear/1024
BM_linear/4096
BM_linear_auto/64
BM_linear_auto/256
BM_linear_auto/1024
BM_linear_auto/4096
BM_setup
BM_fixed/iterations:7
BM_manual_time/manual_time
BM_registered/32'
run 0 list ./sample --list
[[ "$(sed 's/: benchmark$//' "$out/list.log")" == "$names" ]] || die "--list printed: $(cat "$out/list.log")"
run 0 list_tests ./sample --benchmark_list_tests
cmp -s "$out/list.log" "$out/list_tests.log" || die "--benchmark_list_tests printed: $(cat "$out/list_tests.log")"
run 0 filter ./sample --benchmark_list_tests --benchmark_filter='^BM_t'
[[ "$(cat "$out/filter.log")" == $'BM_t<int>: benchmark\nBM_t<double>: benchmark\nBM_t2<int,long>: benchmark' ]] ||
    die "--benchmark_filter='^BM_t' listed: $(cat "$out/filter.log")"
run 0 filter_all ./sample --benchmark_list_tests=true --benchmark_filter=all
cmp -s "$out/list.log" "$out/filter_all.log" || die "--benchmark_filter=all listed: $(cat "$out/filter_all.log")"

# Each run once, under either flag; a skip with an error is that benchmark FAILED.
run 0 test ./sample --test
has test "bench result: 36 ran once, 0 failed"
run 0 dry_run ./sample --benchmark_dry_run --benchmark_filter='^BM_(sum|copy)/'
[[ "$(tail -n 1 "$out/dry_run.log")" == "bench result: 7 ran once, 0 failed" ]] || die "dry run: $(cat "$out/dry_run.log")"
run 6 skip env GBENCH_SAMPLE_SKIP=1 ./sample --test
has skip "bench BM_skip ... FAILED: the input was empty, as the test asked"
has skip "bench result: 35 ran once, 1 failed"

# Refused at startup, exit status 2, naming the benchmark and the call; unknown flags too.
run 2 bad_range env GBENCH_SAMPLE_BAD_RANGE=1 ./sample --list
has bad_range "error: BM_bad: Range(64, 8): its start is above its limit"
run 2 bad_iterations env GBENCH_SAMPLE_BAD_ITERATIONS=1 ./sample --list
has bad_iterations "error: BM_bad: Iterations(0): needs 1 to 2^24 (16777216)"
# What the runner cannot measure is left out, each instance with a note; the rest runs.
run 0 left_out env GBENCH_SAMPLE_LEFT_OUT=1 ./sample --test
has left_out "note: BM_threads/8/threads:2 is left out: Threads(2): Picollo runs a benchmark on one thread"
has left_out "note: BM_threads/8/threads:4 is left out: Threads(4): Picollo runs a benchmark on one thread"
has left_out "bench BM_threads/8/threads:1 ... ok"
has left_out "bench BM_manual/8/manual_time ... ok"
has left_out "bench result: 38 ran once, 0 failed"
run 2 unknown ./sample --benchmark_foo=1
has unknown "error: unknown flag --benchmark_foo: Picollo takes --benchmark_filter"
run 2 csv ./sample --benchmark_format=csv
has csv "error: --benchmark_format=csv: Picollo writes console or json"
run 2 runner_flag ./sample --budgte 1
has runner_flag "unknown flag --budgte"

# A short measurement: the runner's lines with the rates SetItemsProcessed and
# SetBytesProcessed declared (per iteration), and Google Benchmark's JSON in --benchmark_out.
three='^(BM_sum/8|BM_copy/8/64|BM_t<int>)$'
run 0 measure ./sample "${short[@]}" --out measured --benchmark_filter="$three" \
    --benchmark_min_time=2 --benchmark_repetitions=5 --benchmark_out=one.json --benchmark_out_format=json
python3 "$here/check_throughput.py" "$out/measured/sample/results.json" --log "$out/measure.log" \
    BM_sum/8=elements:8 BM_copy/8/64=bytes:512 "BM_t<int>=-" || die "the throughputs"
python3 - "$out/one.json" <<'EOF' || die "--benchmark_out is not Google Benchmark's JSON"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
assert {b["name"] for b in runs} == {"BM_sum/8", "BM_copy/8/64", "BM_t<int>"}, runs
assert all(b["time_unit"] == "ns" and b["real_time"] > 0 for b in runs)
# An aggregate's stddev is 0 where every run's figure was the same bucket.
assert all(b["time_unit"] == "ns" and b["real_time"] >= 0 for b in doc["benchmarks"])
assert all("items_per_second" in b for b in runs if b["name"] == "BM_sum/8")
assert all("bytes_per_second" in b for b in runs if b["name"] == "BM_copy/8/64")
EOF
# PauseTiming/ResumeTiming: a 1 ms spin between them is left out of the time (its median far
# below the spin: fails for correct code only if the few timed instructions took 100 us), as
# is a fixture's SetUp spinning 1 ms, and the same spin not paused is counted (at least the spin's 1 ms, by construction).
run 0 paused env GBENCH_SAMPLE_PAUSED=1 ./sample --budget 0.1 --warmup 0.02 --counters none \
    --out paused --benchmark_filter='^(BM_spin/|SlowSetUp/)'
python3 - "$out/paused/sample/results.json" <<'EOF' || die "PauseTiming: $(cat "$out/paused.log")"
import json, sys
doc = json.load(open(sys.argv[1]))
def median_ns(name):
    (r,) = [c["result"] for c in doc["commands"] if c["name"] == name]
    (p50,) = [p for p in r["metrics"][0]["summary"]["percentiles"] if p["rank"] == 50]
    return p50["value"] / r["scale"]
paused, timed = median_ns("BM_spin/paused:1"), median_ns("BM_spin/paused:0")
setup = median_ns("SlowSetUp/Case")
print(f"gbench: PauseTiming around a 1 ms spin: P50 {paused:.1f} ns; not paused: {timed:.0f} ns; "
      f"a fixture whose SetUp spins 1 ms: {setup:.1f} ns")
assert timed >= 1e6 and paused < 1e5 and setup < 1e5, (paused, timed, setup)
EOF
# What the header adds to the runner's report: state.counters (each flag's arithmetic against
# the round's time), SetLabel, Complexity's _BigO and _RMS (against a fit computed from the
# JSON's medians), Setup/Teardown (paused; the sample fails without them), Iterations(7) and
# UseManualTime (1 us told an iteration).
run 0 report ./sample --budget 0.1 --warmup 0.02 --counters none --out report \
    --benchmark_filter='^(BM_counters|BM_linear(_auto)?/|BM_setup|BM_fixed/|BM_manual_time/)' --benchmark_out=report.json
python3 "$here/check_gbench_report.py" "$out/report.json" "$out/report.log" 'BM_fixed/iterations:7' ||
    die "the counters, label, fits or batch: $(cat "$out/report.log")"
# With --benchmark_format=json, the standard output is the JSON alone, the counters in it.
(cd "$out" && ./sample "${short[@]}" --benchmark_filter='^BM_counters$' --benchmark_format=json) \
    >"$out/stdout.json" 2>"$out/stderr.log" || die "--benchmark_format=json: $(cat "$out/stderr.log")"
python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert (b["name"], b["plain"], b["label"]) == ("BM_counters", 5, "eight items an iteration"), b' \
    "$out/stdout.json" || die "--benchmark_format=json printed: $(head -c 400 "$out/stdout.json")"
grep -qF "BM_counters: time P50=" "$out/stderr.log" || die "the runner's line is not on stderr: $(cat "$out/stderr.log")"
grep -qF "BM_counters: counters at " "$out/stderr.log" || die "the counters are not on stderr: $(cat "$out/stderr.log")"

# A/A: against a byte-identical copy, a verdict per benchmark and no failure (a "slower"
# verdict is allowed: correct code gives one with p <= 0.1, c-tests/suite.sh says why).
run "0|7" aa ./sample "${short[@]}" --benchmark_filter="$three" --against ./sample_copy \
    --benchmark_out=aa.json
[[ "$(grep -c '^verdict: ' "$out/aa.log")" == 3 ]] || die "against its copy: $(cat "$out/aa.log")"
# Google Benchmark's compare.py reads both files (scripts/needs.sh gbench-tools).
compare=/usr/share/benchmark/compare.py
/usr/bin/python3 "$compare" --no-color benchmarks "$out/one.json" "$out/aa.json" >"$out/compare.log" 2>&1 ||
    die "compare.py: $(cat "$out/compare.log")"
for name in BM_sum/8 BM_copy/8/64 'BM_t<int>'; do
    grep -qF "${name}_median" "$out/compare.log" || die "compare.py does not report $name: $(cat "$out/compare.log")"
done
# It reads a file of counters, labels and _BigO/_RMS records too (it skips the two).
/usr/bin/python3 "$compare" --no-color benchmarks "$out/report.json" "$out/report.json" >"$out/compare2.log" 2>&1 ||
    die "compare.py on the counters: $(cat "$out/compare2.log")"
grep -qF "BM_counters_median" "$out/compare2.log" || die "compare.py on the counters: $(cat "$out/compare2.log")"
grep -h '^verdict: ' "$out/aa.log"

# Under valgrind memcheck (unless PICOLLO_NO_VALGRIND=1): the test mode, a SkipWithError included.
if [[ "${PICOLLO_NO_VALGRIND:-}" == 1 ]]; then
    echo "gbench (valgrind): SKIPPED (PICOLLO_NO_VALGRIND=1)"
else
    memcheck=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
    run 6 skip_vg env GBENCH_SAMPLE_SKIP=1 "${memcheck[@]}" --log-file=skip.vg ./sample --test
    has skip_vg "bench BM_skip ... FAILED: the input was empty, as the test asked"
    grep -q 'ERROR SUMMARY: 0 errors' "$out/skip.vg" || {
        cat "$out/skip.vg" >&2
        die "valgrind reported errors for the sample's --test"
    }
    echo "gbench (valgrind): --test with a SkipWithError: no error"
fi

# nanobench's shape: picollo::Bench().run("name", work) prints a row of one table a run.
g++ -std=c++17 -Wall -Wextra -Werror -O2 -Iinclude c-tests/bench_oneliner.cpp "${link[@]}" -o "$out/oneliner"
run 0 oneliner ./oneliner
row='^\| +[0-9]+\.[0-9]{2} \| +[0-9]+\.[0-9]{2} \| +[0-9]+\.[0-9] \| '
[[ "$(sed -n 1p "$out/oneliner.log")" == "|    ns/op (P50) |    ns/op (P99) |       op/s (P50) | benchmark" &&
   "$(wc -l <"$out/oneliner.log")" == 4 ]] || die "Bench().run(name, work) printed: $(cat "$out/oneliner.log")"
for name in "sum 1000" "sum 10"; do
    grep -qE "${row}${name}\$" "$out/oneliner.log" || die "Bench().run(name, work) rows: $(cat "$out/oneliner.log")"
done
echo "c-tests/gbench: OK (Google Benchmark's API: names, filters, test mode, refusals, throughputs, JSON read by compare.py, --against)"
