#!/usr/bin/env bash
# c-tests/csharp/suite.sh BUILD LIB: the C# suite (Picollo.Suites: [Benchmark] methods, run by
# the library's runner) as its users run it. Compiles the sample suite (suite_sample.cs) against
# BUILD/Picollo.dll three times, beside Picollo.dll and LIB (libpicollo.so) as a mono user's
# program is (no dllmap, no LD_LIBRARY_PATH): as it is, as a byte-identical copy, and with
# -define:SLOWER (eight times the work in "spin 200"); then runs --list, --filter (a part, a glob),
# --regex, --test, a benchmark and a constructor that throw (exit 6), two benchmarks of one
# name, a benchmark of a shape the suite cannot call and a bad flag (exit 2), a filter that
# matches nothing (5), a short measurement and its results.json, --save/--append/--baseline,
# and --against the copy and the slower build (each build a `mono ASSEMBLY --picollo-worker`
# the library starts). Called by c-tests/csharp/run.sh.
set -euo pipefail

build="$1"
lib="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$build/suite"
die() { echo "csharp suite: FAIL: $*" >&2; exit 1; }

rm -rf "$out" && mkdir -p "$out"
cp "$build/Picollo.dll" "$lib" "$out/"
mcs -nologo -warnaserror -optimize -r:"$out/Picollo.dll" -out:"$out/suite.exe" "$here/suite_sample.cs"
mcs -nologo -warnaserror -optimize -define:SLOWER -r:"$out/Picollo.dll" -out:"$out/suite_slower.exe" "$here/suite_sample.cs"
mcs -nologo -warnaserror -optimize -define:MUCH_SLOWER -r:"$out/Picollo.dll" -out:"$out/suite_much_slower.exe" "$here/suite_sample.cs"
# Another build of the same source: a byte-identical copy in a file of its own.
cp "$out/suite.exe" "$out/suite_copy.exe"

# shellcheck source=c-tests/suite_run.sh
source "$here/../suite_run.sh"
# mono as a user's program runs it: Picollo.dll and libpicollo.so beside the assembly.
mono=(env -u LD_LIBRARY_PATH -u MONO_PATH timeout 120 mono)
# is NAME TEXT: the log of NAME is TEXT.
is() {
    [[ "$(cat "$out/$1.log")" == "$2" ]] || die "$1 printed: $(cat "$out/$1.log")"
}

# The list (in the order of the class), filters, the test mode.
run 0 list "${mono[@]}" suite.exe --list
is list $'sum 1000: benchmark\nspin 200: benchmark\nParse: benchmark'
run 0 filter "${mono[@]}" suite.exe --list --filter spin
is filter "spin 200: benchmark"
run 0 glob "${mono[@]}" suite.exe --list --filter '*a*'
is glob "Parse: benchmark"
run 0 globs "${mono[@]}" suite.exe --list -f 's*' Pa
is globs $'sum 1000: benchmark\nspin 200: benchmark\nParse: benchmark'
run 0 regex "${mono[@]}" suite.exe --list --regex '^sp'
is regex "spin 200: benchmark"
run 0 positional "${mono[@]}" suite.exe --list --exact Parse
is positional "Parse: benchmark"
# A glob's other characters are text: '(' does not open a group (that would be exit 2).
run 5 globtext "${mono[@]}" suite.exe --list --filter 'sum (*'
has globtext "no benchmark matches the filter"
run 5 nomatch "${mono[@]}" suite.exe --list --filter nothing
has nomatch "no benchmark matches the filter (the benchmarks: sum 1000, spin 200, Parse)"
run 0 test "${mono[@]}" suite.exe --test
has test $'bench sum 1000 ... ok\nbench spin 200 ... ok\nbench Parse ... ok\nbench result: 3 ran once, 0 failed'

# Failures: exceptions stop at their benchmark; definitions and flags the runner refuses.
run 6 throwing env PICOLLO_SUITE_CLASS=Throwing "${mono[@]}" suite.exe --test
has throwing "bench fine ... ok"
has throwing "bench throws ... FAILED: InvalidOperationException: the sum was wrong, as the test asked"
has throwing "bench instance ... FAILED: ArgumentException: the constructor failed, as the test asked"
has throwing "bench result: 1 ran once, 2 failed"
run 2 twice env PICOLLO_SUITE_CLASS=Twice "${mono[@]}" suite.exe --list
has twice 'error: two benchmarks are named "same": give each its own name'
run 2 shape env PICOLLO_SUITE_CLASS=BadShape "${mono[@]}" suite.exe --list
has shape "error: [Benchmark] BadShape.TakesAnInt: takes nothing, or a ulong (the batch size k)"
run 2 constructor env PICOLLO_SUITE_CLASS=NoDefaultConstructor "${mono[@]}" suite.exe --list
has constructor "error: [Benchmark] NoDefaultConstructor.Work: an instance method of a class without a public parameterless constructor"
run 2 flag "${mono[@]}" suite.exe --budgte 1
has flag "unknown flag --budgte"
run 2 novalue "${mono[@]}" suite.exe --list --filter
has novalue "error: --filter needs a value"
run 2 globregex "${mono[@]}" suite.exe --list --filter '*a' --regex a
has globregex "error: --filter with a glob (* or ?) and --regex: give one of them"

# Benchmarks of [Arguments] with a [Throughput]: one a value, named name/value by the library,
# listed, filtered, run once; measured, each carries the rate at the median its document
# reports; a throughput the library refuses exits 2 before anything runs.
params=(env PICOLLO_SUITE_CLASS=Params "${mono[@]}" suite.exe)
run 0 params_list "${params[@]}" --list
is params_list $'fill/64: benchmark\nfill/4096: benchmark\nsums/8: benchmark\nsums/64: benchmark\nsum 1000: benchmark'
run 0 params_test "${params[@]}" --test --exact fill/4096
is params_test $'bench fill/4096 ... ok\nbench result: 1 ran once, 0 failed'
run 0 params_measure "${params[@]}" "${short[@]}" --out params
python3 "$here/../check_throughput.py" "$out/params/Params/results.json" --log "$out/params_measure.log" \
    fill/64=bytes:64 fill/4096=bytes:4096 sums/8=elements:8 sums/64=elements:64 "sum 1000=elements:1000" ||
    die "Params: the throughputs"
run 2 badunit env PICOLLO_SUITE_CLASS=BadUnit "${mono[@]}" suite.exe --list
has badunit 'error: [Throughput] a: unknown throughput unit "bits": the units are elements, bytes'
run 2 zero env PICOLLO_SUITE_CLASS=ZeroThroughput "${mono[@]}" suite.exe --list
has zero "error: [Throughput] zero: a throughput of 0 bytes per operation"

# A short measurement (the default without --test): a line a benchmark, the document.
run 0 measure "${mono[@]}" suite.exe "${short[@]}" --out measured
for name in "sum 1000" "spin 200" "Parse"; do has measure "$name: time P50="; done
python3 - "$out/measured/Sums/results.json" <<'EOF' || die "results.json is not the suite's document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "picollo-bench", doc["schema"]
assert [c["name"] for c in doc["commands"]] == ["sum 1000", "spin 200", "Parse"], doc["commands"]
assert all(c["result"]["metrics"][0]["name"] == "time" for c in doc["commands"])
EOF
# A throw while measured: that benchmark FAILED with its message, the others measured.
run 6 measure_throw env PICOLLO_SUITE_CLASS=Throwing "${mono[@]}" suite.exe "${short[@]}"
has measure_throw "fine: time P50="
has measure_throw "throws: FAILED: failed: InvalidOperationException: the sum was wrong, as the test asked"

# Runs apart: three saved, then the slower build judged against them: a verdict against the
# saved file, exit 0 or 7 (runs apart on this VM spread with its speed steps, so no bound on
# eight times the work holds with p <= 1e-4); 1,000 times the work exits 7 (a log change of 6.9
# against an interval of at most 9.9 x 1.15 x 0.35 = 4.0 at this VM's spread).
gate=("${short[@]}" --out gate spin)
run 0 save "${mono[@]}" suite.exe "${gate[@]}" --save main
has save "saved as baseline main: gate/baselines/main.json"
run 0 append1 "${mono[@]}" suite.exe "${gate[@]}" --save main --append
run 0 append2 "${mono[@]}" suite.exe "${gate[@]}" --save main --append
python3 -c 'import json, sys; n = len(json.load(open(sys.argv[1]))["commands"][0]["runsApart"]); sys.exit(n != 3)' \
    "$out/gate/baselines/main.json" || die "baseline main does not hold 3 runs apart"
run "0|7" baseline "${mono[@]}" suite_slower.exe "${gate[@]}" --baseline main
has baseline "spin 200 [saved gate/baselines/main.json]"
run 7 baseline_much "${mono[@]}" suite_much_slower.exe "${gate[@]}" --baseline main
has baseline_much "verdict: spin 200 is slower than spin 200 [saved gate/baselines/main.json] by"
run 3 baseline_missing "${mono[@]}" suite.exe "${gate[@]}" --baseline nothere
has baseline_missing "gate/baselines/nothere.json"

# Two builds through --against, each started as `mono ASSEMBLY --picollo-worker`. Identical
# builds: three verdicts, no failure (a verdict of "slower" is allowed: the rate at which two
# processes' identical code is called different is the Rust suite's to test). Eight times the
# work in the head build's "spin 200": slower, exit 7 (beyond the machine's speed steps in
# every round: not a statistical bound, as docs/testing.md counts it with c-tests/suite.sh).
run "0|7" aa "${mono[@]}" suite.exe "${short[@]}" --against suite_copy.exe
[[ "$(grep -c '^verdict: ' "$out/aa.log")" == 3 ]] || die "against its copy: $(cat "$out/aa.log")"
run 7 slower "${mono[@]}" suite_slower.exe "${short[@]}" --processes 1 --against suite.exe spin
has slower "verdict: spin 200 (head) is slower than spin 200 (base) by"
run 9 missing "${mono[@]}" suite.exe "${short[@]}" --against nothere.exe
has missing "error: base: the worker exited"
grep -h '^verdict: ' "$out"/{aa,slower,baseline}.log
echo "csharp suite: OK (list, filters, test mode, throws, definitions, flags, measurement, save/baseline, --against)"
