#!/usr/bin/env bash
# Check the C# binding's declarations against include/picollo.h, build libpicollo, compile the
# binding and its tests with mono's mcs, run them, and check the output (the struct sizes C#
# sees at run time must equal the C compiler's). Needs: python3, cargo, cc, mcs and mono
# (Debian: apt-get install mono-mcs mono-runtime).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build"
lib="$root/target/release/libpicollo.so"

die() { echo "csharp: FAIL: $*" >&2; exit 1; }

for tool in python3 cargo cc mcs mono; do
    command -v "$tool" >/dev/null || die "'$tool' not found (mcs/mono: apt-get install mono-mcs mono-runtime)"
done

# Fields, signatures and enum values as declared, before anything is built.
python3 "$root/scripts/check_bindings.py" --csharp --quiet \
    || die "the C# binding does not match include/picollo.h (see above)"

(cd "$root" && cargo build --release -p picollo-ffi)
[[ -f "$lib" ]] || die "$lib was not built"

rm -rf "$build"
mkdir -p "$build"

# The C side of the layout check.
cc -std=c99 -Wall -Werror -I"$root/include" -o "$build/sizes" "$here/sizes.c"
c_sizes="$("$build/sizes" | grep '^struct sizes:')" || die "sizes printed no 'struct sizes:' line"
c_hdr_sizes="$("$build/sizes" | grep '^hdr struct sizes:')" || die "sizes printed no 'hdr struct sizes:' line"
c_metrics_sizes="$("$build/sizes" | grep '^metrics struct sizes:')" || die "sizes printed no 'metrics struct sizes:' line"

mcs -nologo -warnaserror -unsafe -out:"$build/Tests.exe" "$here/Picollo.cs" "$here/PicolloApprox.cs" \
    "$here/PicolloHdr.cs" "$here/PicolloMetrics.cs" "$here/Tests.cs" "$here/ThreadTests.cs" "$here/HdrTests.cs" \
    "$here/MetricsTests.cs"

# DllImport("picollo"): mono maps it through the dllmap to this very file; LD_LIBRARY_PATH
# covers a mono that ignores the map.
cat > "$build/Tests.exe.config" <<XML
<configuration>
  <dllmap dll="picollo" target="$lib" />
</configuration>
XML

# From the build folder, so a mono crash dump (mono_crash.*.json) lands there.
status=0
(cd "$build" && LD_LIBRARY_PATH="$root/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
MONO_PATH="$build" \
    timeout 600 mono --debug "$build/Tests.exe" </dev/null >"$build/output.txt" 2>&1) || status=$?
cat "$build/output.txt"

out="$build/output.txt"
[[ $status -eq 0 ]] || die "Tests.exe exited with status $status"
grep -Eq '^[0-9]+ passed, 0 failed$' "$out" || die "no '<N> passed, 0 failed' line"
grep -q '^| Percentile | Value ' "$out" || die "the Markdown table header is missing"
grep -Eq '^\| Precision: +\| +0\.7813% ' "$out" || die "the 'Precision: 0.7813%' row is missing"
grep -Eq '^\| Overflow +\|' "$out" || die "the Overflow row is missing"
grep -q '^P99: P99=24,960 \[83 / 609\]: \[24,832, 25,088) 14,190$' "$out" || die "the seed's P99 line is missing"
grep -Eq '^\| D-value: +\|' "$out" || die "the diff table's D-value row is missing"
cs_sizes="$(grep '^struct sizes:' "$out")" || die "the C# layout line is missing"
[[ "$cs_sizes" == "$c_sizes" ]] || die "struct layout differs: C says '$c_sizes', C# says '$cs_sizes'"
cs_hdr_sizes="$(grep '^hdr struct sizes:' "$out")" || die "the C# HdrHistogram layout line is missing"
[[ "$cs_hdr_sizes" == "$c_hdr_sizes" ]] \
    || die "picollo_log_interval layout differs: C says '$c_hdr_sizes', C# says '$cs_hdr_sizes'"
cs_metrics_sizes="$(grep '^metrics struct sizes:' "$out")" || die "the C# metrics layout line is missing"
[[ "$cs_metrics_sizes" == "$c_metrics_sizes" ]] \
    || die "metrics option struct layout differs: C says '$c_metrics_sizes', C# says '$cs_metrics_sizes'"
grep -q '^collect: 400,000 records by 1 writer(s), Interlocked, in [0-9]* intervals$' "$out" || die "the collect line is missing"
grep -q '^       Value     Percentile TotalCount 1/(1-Percentile)$' "$out" \
    || die "the .hgrm header line is missing"

# The perf binding (Linux): a second program from the same Picollo.cs plus PicolloPerf.cs.
cc -std=c99 -Wall -Werror -I"$root/include" -o "$build/perf_sizes" "$here/perf_sizes.c"
c_perf_sizes="$("$build/perf_sizes")"
mcs -nologo -warnaserror -unsafe -out:"$build/PerfTests.exe" "$here/Picollo.cs" "$here/PicolloPerf.cs" \
    "$here/PerfTests.cs"
cp "$build/Tests.exe.config" "$build/PerfTests.exe.config"
perf_status=0
(cd "$build" && LD_LIBRARY_PATH="$root/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
MONO_PATH="$build" \
    timeout 600 mono --debug "$build/PerfTests.exe" </dev/null >"$build/perf_output.txt" 2>&1) || perf_status=$?
cat "$build/perf_output.txt"
perf_out="$build/perf_output.txt"
[[ $perf_status -eq 0 ]] || die "PerfTests.exe exited with status $perf_status"
grep -Eq '^[0-9]+ passed, 0 failed$' "$perf_out" || die "no '<N> passed, 0 failed' line from PerfTests"
grep -Eq '^(discovery: (CPU PMU: |no hardware PMU \())' "$perf_out" || die "no discovery line from PerfTests"
cs_perf_sizes="$(grep '^perf struct sizes:' "$perf_out")" || die "the C# perf layout line is missing"
[[ "$cs_perf_sizes" == "$c_perf_sizes" ]] \
    || die "perf struct layout differs: C says '$c_perf_sizes', C# says '$cs_perf_sizes'"

echo "csharp: OK ($(grep -E '^[0-9]+ passed' "$out"); perf: $(grep -E '^[0-9]+ passed' "$perf_out"); C and C# layouts agree)"
