#!/usr/bin/env bash
# c-tests/csharp/bdn.sh BUILD LIB: a suite written for BenchmarkDotNet (bdn_sample.cs, its
# `using` lines naming Picollo.BenchmarkDotNet.*) as its users run it. Compiles it against
# BUILD/Picollo.dll beside LIB twice (as it is, and with -define:BAD: the classes the runner
# must refuse or fail), then runs --list flat and --list tree (BenchmarkDotNet's lines),
# Picollo's --list (the full names), --filter globs and categories, --test (each body ran once,
# as its [GlobalCleanup] prints), BenchmarkDotNet's flags mapped, ignored and refused, an
# exit status through Environment.ExitCode, bad definitions (exit 2), a benchmark, a setup and
# a cleanup that throw (exit 6), the config API (category filters, configs given to the entry
# points, what they hold that Picollo ignores named once), generic classes, the Consumer,
# OperationsPerInvoke's rate, and --against a byte-identical copy. Called by
# c-tests/csharp/run.sh.
set -euo pipefail

build="$1"
lib="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$build/bdn"
die() { echo "csharp bdn: FAIL: $*" >&2; exit 1; }

rm -rf "$out" && mkdir -p "$out"
cp "$build/Picollo.dll" "$lib" "$out/"
mcs -nologo -warnaserror -optimize -r:"$out/Picollo.dll" -out:"$out/bdn.exe" "$here/bdn_sample.cs"
mcs -nologo -warnaserror -optimize -define:BAD -r:"$out/Picollo.dll" -out:"$out/bdn_bad.exe" "$here/bdn_sample.cs"
cp "$out/bdn.exe" "$out/bdn_copy.exe"

# shellcheck source=c-tests/suite_run.sh
source "$here/../suite_run.sh"
mono=(env -u LD_LIBRARY_PATH -u MONO_PATH -u BDN_SAMPLE_CLASS timeout 120 mono)
is() {
    [[ "$(cat "$out/$1.log")" == "$2" ]] || die "$1 printed: $(cat "$out/$1.log")"
}

# BenchmarkDotNet's lists: each method once, classes in name order, methods in declaration order.
run 0 flat "${mono[@]}" bdn.exe --list flat
is flat $'Samples.Shapes.Area\nSamples.Strings.Repeat\nSamples.Strings.Add\nSamples.Sums.Sum\nSamples.Sums.Unrolled'
run 0 tree "${mono[@]}" bdn.exe --list tree
is tree $'Samples\n ├─Shapes\n │  └─Area\n ├─Strings\n │  ├─Repeat\n │  └─Add\n └─Sums\n    ├─Sum\n    └─Unrolled'
# Picollo's list: one benchmark a combination of [Params] ([ParamsSource], [ParamsAllValues])
# and row of [Arguments] ([ArgumentsSource]), named as BenchmarkDotNet's full names.
run 0 list "${mono[@]}" bdn.exe --list
is list 'Samples.Shapes.Area(Kind: Square): benchmark
Samples.Shapes.Area(Kind: Circle): benchmark
Samples.Strings.Repeat(text: "a", times: 2, Length: 1): benchmark
Samples.Strings.Repeat(text: "bc", times: 3, Length: 1): benchmark
Samples.Strings.Add(a: 1, b: 2, Length: 1): benchmark
Samples.Strings.Repeat(text: "a", times: 2, Length: 8): benchmark
Samples.Strings.Repeat(text: "bc", times: 3, Length: 8): benchmark
Samples.Strings.Add(a: 1, b: 2, Length: 8): benchmark
Samples.Sums.Sum(N: 10): benchmark
Samples.Sums.Unrolled(N: 10): benchmark
Samples.Sums.Sum(N: 100): benchmark
Samples.Sums.Unrolled(N: 100): benchmark'

# Globs match the whole name, with or without its parameters, in any case; several add up.
run 0 glob "${mono[@]}" bdn.exe --list flat --filter '*.Sums.*' samples.strings.add
is glob $'Samples.Strings.Add\nSamples.Sums.Sum\nSamples.Sums.Unrolled'
run 0 globparams "${mono[@]}" bdn.exe --list -f '*Sum(N: 1?)'
is globparams "Samples.Sums.Sum(N: 10): benchmark"
run 0 category "${mono[@]}" bdn.exe --list --anyCategories unrolled
is category $'Samples.Sums.Unrolled(N: 10): benchmark\nSamples.Sums.Unrolled(N: 100): benchmark'
run 0 allcategories "${mono[@]}" bdn.exe --list flat --allCategories sums unrolled
is allcategories "Samples.Sums.Unrolled"
run 5 nomatch "${mono[@]}" bdn.exe --list flat --filter 'Samples.Sums'
has nomatch "error: no benchmark matches the filter"

# The test mode: each benchmark ran once (its instance's [GlobalCleanup] counts the calls);
# [GlobalSetup(Target)] ran for Repeat alone, [IterationSetup(Target)] for Add alone.
run 0 test "${mono[@]}" bdn.exe --test
has test "bench result: 12 ran once, 0 failed"
[[ "$(grep -c '^cleanup \(Sums\|Strings\) .*: 1 call(s)' "$out/test.log")" == 10 ]] || die "test: not 10 cleanups of 1 call: $(cat "$out/test.log")"
has test $'bench Samples.Strings.Add(a: 1, b: 2, Length: 8) ... ok\ncleanup Strings Length=8 padding=none: 1 call(s), 1 iteration(s)'
has test $'bench Samples.Strings.Repeat(text: "bc", times: 3, Length: 1) ... ok\ncleanup Strings Length=1 padding=1: 1 call(s), 0 iteration(s)'
has test "cleanup Shapes Kind=Circle: 2 call(s) in all"
# What the configs and attributes hold that Picollo ignores: one note a kind, each thing named
# once though two classes carry [MemoryDiagnoser] (the lists above print none).
for kind in jobs columns exporters diagnosers loggers options; do
    [[ "$(grep -c "^note: BenchmarkDotNet $kind ignored" "$out/test.log")" == 1 ]] || die "test: not one note of $kind: $(cat "$out/test.log")"
done
has test "note: BenchmarkDotNet diagnosers ignored ([MemoryDiagnoser], MemoryDiagnoser): Picollo reads time and the CPU's counters (--counters), not allocations"
has test "note: BenchmarkDotNet exporters ignored (MarkdownExporter.GitHub, JsonExporter.Full, [MarkdownExporter.GitHub]): results.json is always written under --out"
has test "note: BenchmarkDotNet options ignored (ConfigOptions.JoinSummary, ConfigOptions.StopOnFirstError)"
# BenchmarkRunner.Run<Sums>() reads the process's arguments; a void Main exits with its status.
sums=(env -u LD_LIBRARY_PATH -u MONO_PATH BDN_SAMPLE_CLASS=Sums timeout 120 mono)
run 0 runner "${sums[@]}" bdn.exe --test --job dry -m --join
has runner "bench result: 4 ran once, 0 failed"
has runner "note: --join ignored: the benchmarks of every class already run as one suite"
run 2 runner_flag "${sums[@]}" bdn.exe --budgte 1
has runner_flag "unknown flag --budgte"
run 2 runtimes "${mono[@]}" bdn.exe --runtimes net8.0
has runtimes "error: --runtimes: not supported: the benchmarks run in this process's runtime; build once a runtime and judge one build --against the other"
run 2 csv "${mono[@]}" bdn.exe --exporters csv
has csv "error: --exporters csv: not supported"
run 2 listjson "${mono[@]}" bdn.exe --list json
has listjson "error: --list json: give --list flat, --list tree, or --list alone (Picollo's list)"

# Definitions refused before anything runs; a benchmark that throws fails with its message.
bad() { env -u LD_LIBRARY_PATH -u MONO_PATH BDN_SAMPLE_CLASS="$1" timeout 120 mono bdn_bad.exe "${@:2}"; }
run 2 wrongparams bad WrongParams --test
is wrongparams 'error: [Params] WrongParams.N: "ten" (String) is not of type Int32'
run 2 wrongcount bad WrongCount --list
is wrongcount "error: [Arguments] WrongCount.Work: 2 value(s) for 1 parameter(s)"
run 6 throws bad Throws --test
has throws "bench Samples.Throws.Fine ... ok"
has throws "bench Samples.Throws.Broken ... FAILED: InvalidOperationException: the sum was wrong, as the test asked"
run 6 setup bad SetupThrows --test
has setup "bench Samples.SetupThrows.Work ... FAILED: InvalidOperationException: the setup failed, as the test asked"
# A cleanup runs after its benchmark ended: it fails the run (6), not a benchmark.
run 6 cleanup bad CleanupThrows --test
has cleanup "bench Samples.CleanupThrows.Work ... ok"
has cleanup "error: [GlobalCleanup] of Samples.CleanupThrows.Work: InvalidOperationException: the cleanup failed, as the test asked"

# The config API. A class's [AnyCategoriesFilter("A", "1")] keeps A1, A2, B1 (IntroCategories);
# the command line's categories select among them; a config given to BenchmarkRunner joins
# the class's (category b: B1 alone), and its artifacts path is the output folder.
run 0 tagged bad Tagged --list flat
is tagged $'Samples.Tagged.A1\nSamples.Tagged.A2\nSamples.Tagged.B1'
run 0 tagged_any bad Tagged --list flat --anyCategories B
is tagged_any "Samples.Tagged.B1"
run 0 tagged_all bad Tagged --list flat --allCategories a 2
is tagged_all "Samples.Tagged.A2"
run 0 configured bad Configured --list flat
is configured "Samples.Tagged.B1"
run 0 configured_test bad Configured --test
has configured_test "bench result: 1 ran once, 0 failed"
has configured_test "note: BenchmarkDotNet jobs ignored (Job Dry): the runner decides how long"
has configured_test "note: BenchmarkDotNet options ignored (ConfigOptions.JoinSummary)"
run 0 configured_out bad Configured --budget 0.1 --warmup 0.02 --counters none
[[ -f "$out/configured/Tagged/results.json" ]] || die "WithArtifactsPath: no configured/Tagged/results.json: $(ls "$out")"
# A fluent config on DefaultConfig.Instance given to BenchmarkSwitcher.Run(args, config): a
# disjunction of name filters; generic classes closed as [GenericTypeArguments] say, named as
# BenchmarkDotNet names them.
run 0 switched bad Switched --list flat
is switched $'Samples.Tagged.A1\nSamples.Tagged.A2\nSamples.Boxes<Int32>.Make\nSamples.Boxes<String>.Make'
run 0 generic bad 'Boxes`1' --list
is generic $'Samples.Boxes<Int32>.Make: benchmark\nSamples.Boxes<String>.Make: benchmark'
run 0 generic_tree bad 'Boxes`1' --list tree
is generic_tree $'Samples\n ├─Boxes<Int32>\n │  └─Make\n └─Boxes<String>\n    └─Make'
run 0 generic_test bad 'Boxes`1' --test -f '*<String>*'
has generic_test "bench Samples.Boxes<String>.Make ... ok"
has generic_test "bench result: 1 ran once, 0 failed"
run 2 arity bad 'WrongArity`1' --list
has arity "error: [GenericTypeArguments(typeof(Int32), typeof(Int32))] WrongArity: "
run 2 notconfig bad WrongConfig --test
is notconfig "error: [Config] WrongConfig: NotAConfig is not a class implementing IConfig (derive it from ManualConfig)"
# The Consumer ran the lazy query to its end: its 10 items counted.
run 0 consumer bad Lazy --test
has consumer $'bench Samples.Lazy.Query(N: 10) ... ok\ncleanup Lazy N=10: 10 item(s) consumed'

# [IterationSetup] and [IterationCleanup] run paused: 1 ms spins in them are left out of the
# time (the median far below them; were they timed, a batch would hold one call and 2 ms),
# while the same spin in a body is counted (at least its 1 ms, by construction).
run 0 spins bad Spins --budget 0.1 --warmup 0.02 --counters none --artifacts spins --exporters json
python3 - "$out/spins/Spins/results.json" <<'EOF' || die "[IterationSetup] untimed: $(cat "$out/spins.log")"
import json, sys
doc = json.load(open(sys.argv[1]))
def median_ns(name):
    (r,) = [c["result"] for c in doc["commands"] if c["name"] == name]
    (p50,) = [p for p in r["metrics"][0]["summary"]["percentiles"] if p["rank"] == 50]
    return p50["value"] / r["scale"]
untimed, timed = median_ns("Samples.Spins.Untimed"), median_ns("Samples.Spins.Timed")
print(f"csharp bdn: 1 ms spins in [IterationSetup]/[IterationCleanup]: P50 {untimed:.1f} ns; in the body: {timed:.0f} ns")
assert timed >= 1e6 and untimed < 1e5, (untimed, timed)
EOF

# A short measurement into --artifacts (results.json, --exporters json), then an A/A of two
# builds: a verdict a benchmark, none failed (0, or 7 where noise reads as slower: the rate of
# that is the Rust suite's to test).
run 0 measure "${mono[@]}" bdn.exe "${short[@]}" --artifacts art --exporters json github -f '*Unrolled(N: 100)'
has measure "Samples.Sums.Unrolled(N: 100): time P50="
has measure "elem/s"
[[ -f "$out/art/bdn/results.json" ]] || die "no art/bdn/results.json: $(ls -R "$out/art")"
# [Benchmark(OperationsPerInvoke = 4)]: the time is the call's; the rate, 4 operations a call at
# the median call, is the operations' (the time of one operation is its inverse).
python3 - "$out/art/bdn/results.json" <<'EOF' || die "OperationsPerInvoke: $(cat "$out/measure.log")"
import json, sys
doc = json.load(open(sys.argv[1]))
(r,) = [c["result"] for c in doc["commands"] if c["name"] == "Samples.Sums.Unrolled(N: 100)"]
(p50,) = [p for p in r["metrics"][0]["summary"]["percentiles"] if p["rank"] == 50]
call_s = p50["value"] / r["scale"] * 1e-9
t = r["throughput"]
print(f"csharp bdn: OperationsPerInvoke = 4: {call_s * 1e9:.1f} ns a call, {t['perSecond'] / 1e6:.1f} M op/s, {1e9 / t['perSecond']:.2f} ns an operation")
assert t["unit"] == "elements" and t["perOperation"] == 4, t
assert abs(t["perSecond"] * call_s / 4 - 1) < 1e-3, (t, call_s)
EOF
grep -qF 'Samples.Sums.Unrolled(N: 100)' "$out/art/summary.md" || die "--exporters github wrote no art/summary.md naming the benchmark"
run "0|7" aa "${mono[@]}" bdn.exe --budget 0.2 --warmup 0.05 --counters none --processes 2 --against bdn_copy.exe -f '*.Sum'
[[ "$(grep -c '^verdict: ' "$out/aa.log")" == 2 ]] || die "against its copy: $(cat "$out/aa.log")"
grep -h '^verdict: ' "$out/aa.log"
# The workers of --against print no note: the run's own, once.
[[ "$(grep -c '^note: BenchmarkDotNet diagnosers ignored' "$out/aa.log")" == 1 ]] || die "against: not one note: $(cat "$out/aa.log")"
echo "csharp bdn: OK (lists, globs, categories, test mode, flags, definitions, a throw, configs and their notes, generic classes, the Consumer, measurement, OperationsPerInvoke, --against)"
