#!/usr/bin/env bash
# The .NET binding (dotnet/) on mono: check the C# declarations against include/picollo.h and
# the projects' shape (scripts/csproj.py check), check that the test programs' copies of the
# announcement's snippets are still its lines (seed_snippets.py), build libpicollo, compile
# exactly the files of dotnet/Picollo/Picollo.csproj into Picollo.dll and of each test project
# into its program with mono's mcs (the lists come from the .csproj files, so `dotnet build`
# and this build compile the same sources), run them, and check the output (the struct sizes
# C# sees at run time must equal the C compiler's, sizes.c and perf_sizes.c here; every snippet
# of the Picollo .NET announcement ran; the C# copies of the layout arithmetic gave the answers
# of the Rust layout's own table, core/examples/layout_table.rs, which the tests read from the
# file PICOLLO_LAYOUT_TABLE names). The tests load libpicollo.so from the NuGet package
# nuget.sh makes (runtimes/linux-x64/native/ and runtimes/linux-arm64/native/, the glibc 2.17
# builds of scripts/cross.sh) and checks. suite.sh runs the sample suite of [Benchmark]
# methods (suite_sample.cs) as a program, and bdn.sh a class written for BenchmarkDotNet
# (bdn_sample.cs); placement.sh checks that each worker process of a suite places its JIT code
# at a drawn offset. Where a .NET SDK is on PATH it also builds the
# projects and runs the tests with `dotnet run`. Needs python3 and cargo; installs cc, mcs,
# mono and cargo-c where missing (scripts/needs.sh).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dotnet_dir="$root/dotnet"
build="$here/build"
workspace_lib="$root/target/release/libpicollo.so"

die() { echo "csharp: FAIL: $*" >&2; exit 1; }

# shellcheck source=scripts/needs.sh
. "$root/scripts/needs.sh"
needs cc mono cargo-c || die "the tools above are missing"
for tool in python3 cargo; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

# Fields, signatures and enum values as declared, before anything is built.
python3 "$root/scripts/check_bindings.py" --csharp --quiet \
    || die "the C# binding does not match include/picollo.h (see above)"
python3 "$root/scripts/csproj.py" check || die "the .NET projects under dotnet/ are not as expected (see above)"
# The announcement's snippets the tests compile: its lines, adapted only where mcs must be.
python3 "$here/seed_snippets.py" check || die "the announcement's snippets differ from their copies (see above)"
# What each project compiles (SDK default globbing), as mcs arguments.
project_sources() {
    local list
    list="$(python3 "$root/scripts/csproj.py" sources "$1")" || die "cannot list the sources of $1"
    mapfile -t sources <<<"$list"
}

(cd "$root" && cargo build --release -p picollo-ffi)
[[ -f "$workspace_lib" ]] || die "$workspace_lib was not built"

rm -rf "$build"
mkdir -p "$build"

# The layout's own answers (core/examples/layout_table.rs): the tests check the C# copies of
# its arithmetic (the inline recorder's index, Metrics/BucketLayout.cs) against every row.
(cd "$root" && cargo run --release -q -p picollo --example layout_table -- 300 200 1) > "$build/layout_table.tsv"
export PICOLLO_LAYOUT_TABLE="$build/layout_table.tsv"

# The C side of the layout check.
cc -std=c99 -Wall -Werror -I"$root/include" -o "$build/sizes" "$here/sizes.c"
"$build/sizes" >"$build/c_sizes.txt"

# The line starting "$1" (struct sizes and offsets) must be in the C program's output $2 and
# the same in the C# program's output $3; $4 names the structs for the message.
same_layout() {
    local c_line cs_line
    c_line="$(grep "^$1" "$2")" || die "the C program printed no '$1' line"
    cs_line="$(grep "^$1" "$3")" || die "the C# '$1' line is missing"
    [[ "$cs_line" == "$c_line" ]] || die "$4 layout differs: C says '$c_line', C# says '$cs_line'"
}

project_sources "$dotnet_dir/Picollo/Picollo.csproj"
# With its XML documentation, as `dotnet pack` packs it (GenerateDocumentationFile); mcs reads
# two crefs Roslyn accepts as bad or ambiguous (CS1584, CS0419), and CS1591 is the project's
# NoWarn.
mcs -nologo -warnaserror -unsafe -nowarn:1591,1584,419 -doc:"$build/Picollo.xml" -target:library \
    -out:"$build/Picollo.dll" "${sources[@]}"

# The NuGet package (nuget.sh): the tests load the library from its runtimes/<rid>/native/.
lib="$(bash "$here/nuget.sh" "$build")" || die "the NuGet package (above)"
echo "csharp: the tests load $lib"

# DllImport("picollo"): mono maps it through the dllmap to this very file; LD_LIBRARY_PATH
# covers a mono that ignores the map.
cat > "$build/Picollo.dll.config" <<XML
<configuration>
  <dllmap dll="picollo" target="$lib" />
</configuration>
XML

# Compile the test program $1 (dotnet/$1/$1.csproj) against Picollo.dll, run it from the build
# folder (so a mono crash dump, mono_crash.*.json, lands there) with its output in $2, print
# that, and fail unless it exited 0 and printed "<N> passed, 0 failed".
build_and_run() {
    local program="$1" output="$2" status=0
    project_sources "$dotnet_dir/$program/$program.csproj"
    mcs -nologo -warnaserror -unsafe -r:"$build/Picollo.dll" -out:"$build/$program.exe" "${sources[@]}"
    cp "$build/Picollo.dll.config" "$build/$program.exe.config"
    (cd "$build" && LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    MONO_PATH="$build" \
        timeout 600 mono --debug "$build/$program.exe" </dev/null >"$output" 2>&1) || status=$?
    cat "$output"
    [[ $status -eq 0 ]] || die "$program.exe exited with status $status"
    grep -Eq '^[0-9]+ passed, 0 failed$' "$output" || die "no '<N> passed, 0 failed' line from $program"
}

out="$build/output.txt"
build_and_run Picollo.Tests "$out"
grep -q '^| Percentile | Value ' "$out" || die "the Markdown table header is missing"
grep -Eq '^\| Precision: +\| +0\.7813% ' "$out" || die "the 'Precision: 0.7813%' row is missing"
grep -Eq '^\| Overflow +\|' "$out" || die "the Overflow row is missing"
grep -q '^P99: P99=24,960 \[83 / 609\]: \[24,832, 25,088) 14,190$' "$out" || die "the announcement's P99 line is missing"
grep -Eq '^\| D-value: +\|' "$out" || die "the diff table's D-value row is missing"
same_layout 'struct sizes:' "$build/c_sizes.txt" "$out" "struct"
same_layout 'hdr struct sizes:' "$build/c_sizes.txt" "$out" "picollo_log_interval"
same_layout 'metrics struct sizes:' "$build/c_sizes.txt" "$out" "metrics option struct"
same_layout 'float struct sizes:' "$build/c_sizes.txt" "$out" "float histogram struct"
same_layout 'query struct sizes:' "$build/c_sizes.txt" "$out" "picollo_step/picollo_recorder"
grep -Eq '^layout table: [0-9,]+ rows, ' "$out" || die "the layout table test did not run"
grep -Eq '^cumulative: 50 histograms, [0-9,]+ percentiles .*: 0 differences$' "$out" || die "the cumulative copy test did not pass"
grep -Eq '^bench csharp: percentile=[0-9.]+ bare_percentile=[0-9.]+ merge=[0-9.]+ bare_merge=[0-9.]+$' "$out" \
    || die "no 'bench csharp:' line (the binding's calls beside bare ones)"
grep -Eq '^record paths: [0-9]+ integer configurations .*: 0 mismatches$' "$out" || die "the integer record paths test did not pass"
grep -Eq '^record paths: [0-9]+ float configurations .*: 0 mismatches$' "$out" || die "the float record paths test did not pass"
grep -q '^collect: 400,000 records by 1 writer(s), Interlocked, in [0-9]* intervals$' "$out" || die "the collect line is missing"
grep -q '^       Value     Percentile TotalCount 1/(1-Percentile)$' "$out" \
    || die "the .hgrm header line is missing"
for snippet in GettingStarted GettingStartedSnapshot 'GettingStartedMonitoring(2)' GettingStartedPercentiles \
               GettingStartedCustomPercentiles GettingStartedScopes GettingStartedClockResolution; do
    grep -qxF -- "----- seed $snippet -----" "$out" || die "the announcement's snippet $snippet did not run"
done

# The perf binding (Linux): a second program from the same Picollo.cs plus PicolloPerf.cs.
cc -std=c99 -Wall -Werror -I"$root/include" -o "$build/perf_sizes" "$here/perf_sizes.c"
"$build/perf_sizes" >"$build/c_perf_sizes.txt"
perf_out="$build/perf_output.txt"
build_and_run Picollo.PerfTests "$perf_out"
grep -Eq '^(discovery: (CPU PMU: |no hardware PMU \())' "$perf_out" || die "no discovery line from PerfTests"
for snippet in PerfSessionGettingStarted PerfSessionSorted; do
    grep -qxF -- "----- seed $snippet -----" "$perf_out" || die "the announcement's snippet $snippet did not run"
done
same_layout 'perf struct sizes:' "$build/c_perf_sizes.txt" "$perf_out" "perf struct"
same_layout 'perf path struct:' "$build/c_perf_sizes.txt" "$perf_out" "perf path struct"

# A Debug build of the caller (the JIT optimizer off) is named in its reports; an optimized
# one is not: the same program compiled both ways, each told which it is. Each runs as a
# mono user's program would (docs/install.md): Picollo.dll and libpicollo.so copied beside
# it, no dllmap, no LD_LIBRARY_PATH, no MONO_PATH.
app="$build/app"
rm -rf "$app" && mkdir -p "$app"
cp "$build/Picollo.dll" "$lib" "$app/"
for flags in "-debug" "-debug -optimize"; do
    kind="$([[ $flags == "-debug" ]] && echo debug || echo optimized)"
    mcs -nologo -warnaserror $flags -r:"$app/Picollo.dll" -out:"$app/build_note_$kind.exe" "$here/build_note.cs"
    (cd "$app" && env -u LD_LIBRARY_PATH -u MONO_PATH \
        timeout 120 mono "$app/build_note_$kind.exe" "$kind" </dev/null >"$app/build_note_$kind.txt" 2>&1) ||
        { cat "$app/build_note_$kind.txt"; die "build_note ($flags) failed"; }
    grep -E '^build note ' "$app/build_note_$kind.txt"
done

# The suite (Picollo.Suites): the sample program as its users run it (suite.sh).
bash "$here/suite.sh" "$build" "$lib"
# Each worker's JIT code at a drawn offset (placement.sh).
bash "$here/placement.sh" "$build" "$lib"
# A suite written for BenchmarkDotNet (Picollo.BenchmarkDotNet): bdn.sh.
bash "$here/bdn.sh" "$build" "$lib"

# The same projects through a .NET SDK, where one is installed.
if command -v dotnet >/dev/null 2>&1; then
    for project in Picollo.Tests Picollo.PerfTests; do
        dotnet run -c Release --project "$dotnet_dir/$project/$project.csproj" </dev/null \
            >"$build/dotnet_$project.txt" 2>&1 || {
            tail -n 40 "$build/dotnet_$project.txt" >&2
            die "dotnet run $project failed"
        }
        grep -Eq '^[0-9]+ passed, 0 failed$' "$build/dotnet_$project.txt" ||
            die "dotnet run $project printed no '<N> passed, 0 failed' line"
        echo "dotnet $project: $(grep -E '^[0-9]+ passed' "$build/dotnet_$project.txt")"
    done
else
    echo "csharp: SKIPPED dotnet build/run of dotnet/*.csproj: no .NET SDK on PATH (mono built the same sources above)"
fi

echo "csharp: OK ($(grep -E '^[0-9]+ passed' "$out"); perf: $(grep -E '^[0-9]+ passed' "$perf_out"); C and C# layouts agree)"
