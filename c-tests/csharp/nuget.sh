#!/usr/bin/env bash
# The NuGet package of dotnet/Picollo, for c-tests/csharp/run.sh:
#   bash c-tests/csharp/nuget.sh BUILD     (BUILD holds mcs's Picollo.dll and Picollo.xml)
# gets the glibc 2.17 libpicollo.so for linux-x64 and linux-arm64 from scripts/cross.sh
# (`clib`), packs BUILD/Picollo.0.1.0.nupkg with scripts/csproj.py (what `dotnet pack` makes;
# with a .NET SDK on PATH, `dotnet pack` too, and both file lists must agree), checks the file
# list and that each runtime's library is built for its machine, and unpacks it into
# BUILD/package. Prints on its last line the library the tests load: this machine's
# runtimes/<rid>/native/libpicollo.so from the unpacked package. Where scripts/cross.sh cannot
# get its tools (exit 2), it says so loudly and prints the workspace's target/release library.
set -euo pipefail
exec </dev/null

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$1"
nupkg="$build/Picollo.0.1.0.nupkg"
EXPECTED="Picollo.nuspec [Content_Types].xml _rels/.rels lib/net8.0/Picollo.dll lib/net8.0/Picollo.xml
runtimes/linux-arm64/native/libpicollo.so runtimes/linux-x64/native/libpicollo.so"

die() { echo "nuget: FAIL: $*" >&2; exit 1; }

# The package's names, the core-properties part (a name of its own in each package) checked
# and left out.
names() {
  local list
  list="$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1")"
  [[ "$(grep -c '^package/services/metadata/core-properties/[^/]*\.psmdcp$' <<<"$list")" == 1 ]] ||
    die "$1 has no single core-properties part"
  grep -v '^package/services/' <<<"$list" | sort | paste -sd ' '
}

for arch in x86_64 aarch64; do
  status=0
  bash "$root/scripts/cross.sh" clib "$arch" >"$build/cross-$arch.log" 2>&1 || status=$?
  if [[ $status == 2 ]]; then
    echo "nuget: SKIPPED the package: scripts/cross.sh cannot build the runtimes' libraries" \
      "($(tail -n 1 "$build/cross-$arch.log")); the tests load target/release/libpicollo.so" >&2
    echo "$root/target/release/libpicollo.so"
    exit 0
  fi
  [[ $status == 0 ]] || { tail -n 20 "$build/cross-$arch.log" >&2; die "scripts/cross.sh clib $arch failed"; }
done

python3 "$root/scripts/csproj.py" pack "$nupkg" "$build/Picollo.dll" "$build/Picollo.xml" >&2 ||
  die "scripts/csproj.py pack failed"
expected="$(tr ' \n' '\n\n' <<<"$EXPECTED" | sort | paste -sd ' ')"
[[ "$(names "$nupkg")" == "$expected" ]] ||
  die "the package holds '$(names "$nupkg")', expected '$expected'"
if command -v dotnet >/dev/null 2>&1; then
  dotnet pack "$root/dotnet/Picollo/Picollo.csproj" -c Release -o "$build/dotnet-pack" >&2 ||
    die "dotnet pack failed"
  [[ "$(names "$build/dotnet-pack/Picollo.0.1.0.nupkg")" == "$expected" ]] ||
    die "dotnet pack's package holds '$(names "$build/dotnet-pack/Picollo.0.1.0.nupkg")'"
else
  echo "nuget: no .NET SDK on PATH: the package was made by scripts/csproj.py pack only" >&2
fi

rm -rf "$build/package"
python3 -m zipfile -e "$nupkg" "$build/package"
cmp -s "$build/package/lib/net8.0/Picollo.dll" "$build/Picollo.dll" || die "the packed Picollo.dll is not mcs's"
for pair in linux-x64:X86-64 linux-arm64:AArch64; do
  so="$build/package/runtimes/${pair%%:*}/native/libpicollo.so"
  readelf -h "$so" | grep -q "Machine:.*${pair#*:}\$" || die "${pair%%:*}'s libpicollo.so is not built for ${pair#*:}"
done
echo "nuget: Picollo.0.1.0.nupkg holds $expected" >&2
case "$(uname -m)" in
  x86_64) echo "$build/package/runtimes/linux-x64/native/libpicollo.so" ;;
  aarch64) echo "$build/package/runtimes/linux-arm64/native/libpicollo.so" ;;
  *) die "no runtime of the package for $(uname -m)" ;;
esac
