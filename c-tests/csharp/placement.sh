#!/usr/bin/env bash
# c-tests/csharp/placement.sh BUILD LIB: the drawn placement of a C# suite's JIT code
# (dotnet/Picollo/Suites/Placement.cs). The sample (placement_sample.cs) runs --against
# itself, 6 worker processes a side, each writing where its benchmark's code starts, modulo
# 64. Drawn, the places must not all be one: under mono 6.8 (x64) each count of the draw
# (0 to 63) puts the code on one of the 4 places a 16-byte-aligned entry can take, 17, 16,
# 15 and 16 of the counts on each, so n workers (10 at least of the 12 must have written)
# all land on one place with probability at most 0.27^(n-1) < 1e-5. A count fixed by
# PICOLLO_SUITE_CODE_PAD that is not one (or out of range) stops the workers with its name.
# Called by c-tests/csharp/run.sh.
set -euo pipefail

build="$1"
lib="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$build/placement"
die() { echo "csharp placement: FAIL: $*" >&2; exit 1; }

rm -rf "$out" && mkdir -p "$out"
cp "$build/Picollo.dll" "$lib" "$out/"
mcs -nologo -warnaserror -optimize -r:"$out/Picollo.dll" -out:"$out/placed.exe" "$here/placement_sample.cs"

# shellcheck source=c-tests/suite_run.sh
source "$here/../suite_run.sh"
mono=(env -u LD_LIBRARY_PATH -u MONO_PATH timeout 120 mono)

log="$out/places.txt"
run "0|7" drawn env PLACEMENT_LOG="$log" "${mono[@]}" placed.exe --budget 0.1 --warmup 0.02 \
    --counters none --processes 6 --against placed.exe
written="$(wc -l <"$log")"
[[ $written -ge 10 ]] || die "10 of the 12 workers should have written their place: $(cat "$log")"
places="$(sort -n "$log" | uniq -c | awk '{printf "%s at %s, ", $1, $2}')"
[[ "$(sort -u "$log" | wc -l)" -ge 2 ]] || die "all $written workers placed the benchmark alike: ${places%, }"
echo "csharp placement: $written workers' code of add, mod 64: ${places%, }"

run 9 bad env PICOLLO_SUITE_CODE_PAD=64 "${mono[@]}" placed.exe --budget 0.1 --against placed.exe
has bad "PICOLLO_SUITE_CODE_PAD=64: give a count of 0 to 63"
echo "csharp placement: OK (drawn per worker; a bad PICOLLO_SUITE_CODE_PAD refused)"
