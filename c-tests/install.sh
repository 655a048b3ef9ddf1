#!/usr/bin/env bash
# c-tests/install.sh: the C library as a user installs it.
#  1. installs with `cargo cinstall` (the README's command, no environment variables) into a
#     temporary destdir, checks that the headers picollo.h includes are installed beside it
#     as they are in include/, and builds pkgconfig_smoke.c with `pkg-config --cflags --libs
#     picollo` and a Google Benchmark program as written against the install's shim folder,
#     and pkgconfig_smoke.c again from CMake (c-tests/cmake: find_package(PkgConfig)), then
#     runs them against the installed library;
#  2. installs into a temporary prefix of its own (docs/install.md's steps) and runs the
#     program built with the .pc file's libdir as its rpath, with no LD_LIBRARY_PATH.
# It times nothing: scripts/test.sh runs it beside the other stages that time nothing.
# Needs cargo and binutils; installs gcc, g++, pkg-config, cmake and cargo-c where
# they are missing (scripts/needs.sh). Build outputs go to c-tests/build/install/ and a temp dir.
who="c-tests install"
# shellcheck source=c-tests/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="$here/build/install"

# shellcheck source=scripts/needs.sh
. "$root/scripts/needs.sh"
needs gcc g++ pkg-config cargo-c cmake || die "the tools above are missing"
commands_present cargo readelf ldd nm
fresh_build

mapfile -t beside < <(beside_headers)
[[ ${#beside[@]} -gt 0 ]] || die "include/picollo.h includes no header from beside it (picollo_inline.h)"

step "cargo cinstall, then a program built with pkg-config"
dest="$tmp/destdir"
# Exactly the README's command, from the workspace root, with no environment variables: the
# repository's .cargo/config.toml gives Debian's cargo-c (0.9.14, an older cargo inside) the
# sparse index, and Cargo.lock stays at format 3, which that cargo reads. Its own target
# folder only keeps the two cargos from reusing each other's build-script outputs.
if ! CARGO_TARGET_DIR="$target/cargo-c" cargo cinstall --release -p picollo-ffi --prefix /usr/local --libdir /usr/local/lib \
    --destdir "$dest" >"$build/cinstall.log" 2>&1; then
    tail -n 40 "$build/cinstall.log" >&2
    die "cargo cinstall failed (log: $build/cinstall.log)"
fi
inst="$dest/usr/local"
for f in lib/libpicollo.so lib/libpicollo.a include/picollo/picollo.h include/picollo/picollo_inline.h \
    include/picollo/picollo_suite.h include/picollo/picollo.hpp include/picollo/picollo_benchmark.hpp \
    include/picollo/picollo_benchmark_main.hpp include/picollo/picollo_benchmark_report.hpp \
    include/picollo/gbench/benchmark/benchmark.h lib/pkgconfig/picollo.pc; do
    [[ -e "$inst/$f" ]] || die "cargo cinstall did not install $f"
done
cmp -s include/picollo.h "$inst/include/picollo/picollo.h" || die "the installed header is not include/picollo.h"
for f in "${beside[@]}"; do
    cmp -s "include/$f" "$inst/include/picollo/$f" ||
        die "picollo.h includes \"$f\", and the install lacks include/$f beside it (or has another)"
done
readelf -d "$inst/lib/libpicollo.so" | grep -q 'SONAME.*\[libpicollo\.so\.0\]' ||
    die "the installed libpicollo.so has no soname libpicollo.so.0"
# core's build script compiled native/ (the rdpmc page read) into what cargo-c built too: an
# older cargo ignores `cargo::` build-script lines, which would drop it silently.
if [[ "$(uname -m)" == x86_64 ]]; then
    # (the symbol list is read whole first: grep -q would close the pipe on nm under pipefail)
    symbols="$(nm "$inst/lib/libpicollo.so")"
    grep -q 'picollo_native_page_read' <<<"$symbols" ||
        die "the installed libpicollo.so lacks native/ (picollo_native_page_read)"
fi
# The .pc names /usr/local; the sysroot points pkg-config at the destdir copy.
pc_flags="$(PKG_CONFIG_PATH="$inst/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" pkg-config --cflags --libs picollo)"
echo "pkg-config --cflags --libs picollo: $pc_flags"
[[ "$pc_flags" == *"-I$inst/include"* && "$pc_flags" == *"-L$inst/lib"* && "$pc_flags" == *"-lpicollo"* ]] ||
    die "unexpected pkg-config flags: $pc_flags"
# shellcheck disable=SC2086 # pkg-config output is a list of flags
gcc -std=c99 -Wall -Wextra -Werror -pedantic c-tests/pkgconfig_smoke.c $pc_flags -o "$build/pkgconfig_smoke"
# A Google Benchmark program as written (`#include <benchmark/benchmark.h>`, a main of its own
# calling benchmark::Initialize and RunSpecifiedBenchmarks), built against the install through
# its shim folder: the link line and an -I are all that change.
sed 's|^#include <picollo_benchmark.hpp>|#include <benchmark/benchmark.h>|' c-tests/gbench_sample.cpp >"$build/gbench_installed.cpp"
grep -q '^#include <benchmark/benchmark.h>' "$build/gbench_installed.cpp" || die "gbench_sample.cpp's include line moved"
# shellcheck disable=SC2086 # pkg-config output is a list of flags
g++ -std=c++14 -Wall -Wextra -Werror -O2 -DGBENCH_SAMPLE_OWN_MAIN "-I$inst/include/picollo/gbench" \
    "$build/gbench_installed.cpp" $pc_flags -o "$build/gbench_installed"
# Run a program built against the install: it must load the installed libpicollo.so.0 and pass.
# ARGS after the program are its arguments.
run_installed() {
    local what=$1 program=$2 deps
    shift 2
    deps="$(LD_LIBRARY_PATH="$inst/lib" ldd "$program")"
    grep -q "libpicollo.so.0 => $inst/lib/libpicollo.so.0" <<<"$deps" ||
        die "$what does not load the installed libpicollo.so.0"
    LD_LIBRARY_PATH="$inst/lib" "$program" "$@" >"$program.out" 2>&1 || {
        cat "$program.out" >&2
        die "$what failed"
    }
    echo "$what: $(tail -n 1 "$program.out")"
}
run_installed "pkgconfig_smoke (pkg-config flags)" "$build/pkgconfig_smoke"
run_installed "gbench_sample.cpp as written, installed shim (--test)" "$build/gbench_installed" --test
# RunSpecifiedBenchmarks exits with the runner's status where it is not 0 (a failure: 6).
status=0
GBENCH_SAMPLE_SKIP=1 LD_LIBRARY_PATH="$inst/lib" "$build/gbench_installed" --test >"$build/gbench_skip.out" 2>&1 || status=$?
if [[ $status != 6 ]] || ! grep -qF "bench BM_skip ... FAILED: the input was empty" "$build/gbench_skip.out"; then
    cat "$build/gbench_skip.out" >&2
    die "gbench_sample.cpp's own main with a SkipWithError: exit status $status, not 6"
fi

step "the same program from CMake: find_package(PkgConfig) + pkg_check_modules (the snippet of docs/install.md)"
cmake_build="$build/cmake"
if ! PKG_CONFIG_PATH="$inst/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
    cmake -S c-tests/cmake -B "$cmake_build" -DCMAKE_BUILD_TYPE=Release >"$build/cmake.log" 2>&1 ||
    ! cmake --build "$cmake_build" >>"$build/cmake.log" 2>&1; then
    tail -n 40 "$build/cmake.log" >&2
    die "the CMake build against the installed library failed (log: $build/cmake.log)"
fi
run_installed "pkgconfig_smoke (CMake)" "$cmake_build/pkgconfig_smoke"

step "a prefix of one's own: the documented steps (docs/install.md), the program run with no variable set"
prefix="$tmp/prefix"
if ! CARGO_TARGET_DIR="$target/cargo-c" cargo cinstall --release -p picollo-ffi --prefix "$prefix" \
    --libdir "$prefix/lib" >"$build/cinstall-prefix.log" 2>&1; then
    tail -n 40 "$build/cinstall-prefix.log" >&2
    die "cargo cinstall into $prefix failed (log: $build/cinstall-prefix.log)"
fi
own_flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs picollo)"
own_libdir="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=libdir picollo)"
# shellcheck disable=SC2086 # pkg-config output is a list of flags
gcc -std=c99 -Wall -Wextra -Werror -pedantic c-tests/pkgconfig_smoke.c $own_flags \
    -Wl,-rpath,"$own_libdir" -o "$build/pkgconfig_smoke_prefix"
deps="$(env -u LD_LIBRARY_PATH ldd "$build/pkgconfig_smoke_prefix")"
grep -q "libpicollo.so.0 => $prefix/lib/libpicollo.so.0" <<<"$deps" ||
    die "the program built into a prefix of its own does not load $prefix/lib/libpicollo.so.0"
env -u LD_LIBRARY_PATH "$build/pkgconfig_smoke_prefix" >"$build/pkgconfig_smoke_prefix.out" 2>&1 || {
    cat "$build/pkgconfig_smoke_prefix.out" >&2
    die "the program built into a prefix of its own failed"
}
echo "pkgconfig_smoke (own prefix, rpath, no LD_LIBRARY_PATH): $(tail -n 1 "$build/pkgconfig_smoke_prefix.out")"

echo "c-tests install: OK"
