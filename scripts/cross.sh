#!/usr/bin/env bash
# Builds what ships to users for Linux x86_64 and aarch64 against glibc 2.17, on any x86-64
# Linux host: zig (PyPI `ziglang`) compiles the C of native/ and links, through the `zig cc`
# wrapper of cargo-zigbuild (PyPI `cargo-zigbuild`), which adapts rustc's linker arguments.
#
#   scripts/cross.sh tools          the tools venv (.cache/cross/venv: cargo-zigbuild, ziglang,
#                                   auditwheel, wheel) and the Rust standard library for aarch64
#   scripts/cross.sh wheel ARCH     the Python wheel (pip wheel ./python-demo) in
#                                   target/cross/wheels/, tagged manylinux_2_17_ARCH and its
#                                   legacy alias manylinux2014_ARCH, which pip < 20.3 reads
#   scripts/cross.sh clib ARCH      `cargo cinstall` (lib, include, pkg-config; prefix
#                                   /usr/local) under target/cross/clib-ARCH/ and its tarball
#                                   target/cross/picollo-0.1.0-linux-ARCH-glibc2.17.tar.gz
# ARCH is x86_64 or aarch64. `wheel` and `clib` print the path they made on their last line.
# Both set CC_<target>, AR_<target> and CARGO_TARGET_<TARGET>_LINKER for the one target they
# build, so the cc crate (core's native/) and rustc's link both go through zig and nothing is
# linked against the host's newer glibc. Exit status 2: the tools could not be installed (no
# network, no rustup), with the reason on stderr.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
root="$PWD"

GLIBC=2.17
ZIGLANG_VERSION=0.17.1
CARGO_ZIGBUILD_VERSION=0.24.1
AUDITWHEEL_VERSION=6.8.2
WHEEL_VERSION=0.48.0
cache="$root/.cache/cross"
venv="$cache/venv"
out="${CARGO_TARGET_DIR:-$root/target}/cross"

die() { echo "cross: FAIL: $*" >&2; exit 1; }
unavailable() { echo "cross: UNAVAILABLE: $*" >&2; exit 2; }

tools() {
  local pins=("ziglang==$ZIGLANG_VERSION" "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
              "auditwheel==$AUDITWHEEL_VERSION" "wheel==$WHEEL_VERSION")
  if ! "$venv/bin/python" -c "import importlib.metadata as m, sys
sys.exit(any(m.version(n) != v for n, v in (p.split('==') for p in sys.argv[1:])))" \
      "${pins[@]}" 2>/dev/null; then
    echo "cross: creating $venv (${pins[*]})" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" || unavailable "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "${pins[@]}" >&2 ||
      unavailable "pip could not install ${pins[*]} (is PyPI reachable?)"
  fi
  if ! rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu; then
    echo "cross: rustup target add aarch64-unknown-linux-gnu" >&2
    rustup target add aarch64-unknown-linux-gnu >&2 ||
      unavailable "rustup could not add the aarch64-unknown-linux-gnu standard library"
  fi
  # The wrappers cargo and cc call: zig for the target at the glibc floor, and zig's ar.
  local zig arch
  zig="$("$venv/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"
  mkdir -p "$cache/bin"
  local env="CARGO_ZIGBUILD_ZIG_PATH='$zig' CARGO_ZIGBUILD_CACHE_DIR='$cache/zigbuild'"
  for arch in x86_64 aarch64; do
    printf '#!/bin/sh\nexport %s\nexec "%s" zig cc -- -target %s-linux-gnu.%s "$@"\n' \
      "$env" "$venv/bin/cargo-zigbuild" "$arch" "$GLIBC" >"$cache/bin/cc-$arch"
  done
  printf '#!/bin/sh\nexport %s\nexec "%s" zig ar -- "$@"\n' "$env" "$venv/bin/cargo-zigbuild" >"$cache/bin/ar"
  chmod +x "$cache/bin/"*
}

# Points cargo and the cc crate at zig for ARCH's target (and at nothing else).
use_zig_for() {
  local arch=$1 triple="$1-unknown-linux-gnu"
  local var="${triple//-/_}"
  export "CC_$var=$cache/bin/cc-$arch" "AR_$var=$cache/bin/ar"
  export "CARGO_TARGET_${var^^}_LINKER=$cache/bin/cc-$arch"
  target="$triple"
}

wheel() {
  local arch=$1 dist="$out/wheels" log="$out/wheel-$1.log" built
  use_zig_for "$arch"
  mkdir -p "$dist"
  rm -f "$dist"/picollo-*_"$arch".whl
  # setuptools' staging folder: a stale one would put the other architecture's library in.
  rm -rf python-demo/build
  if ! CARGO_BUILD_TARGET="$target" CARGO_TARGET_DIR="$out/cargo-$arch" \
      "$venv/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$dist" \
      --config-settings=--build-option=--plat-name="manylinux_${GLIBC/./_}_$arch" \
      ./python-demo >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "pip wheel for $arch failed (log: $log)"
  fi
  rm -rf python-demo/build
  built=("$dist"/picollo-*-manylinux_2_17_"$arch".whl)
  [[ -f "${built[0]}" ]] || die "pip wheel wrote no $arch wheel into $dist"
  "$venv/bin/python" -m wheel tags --remove --platform-tag \
    "manylinux_${GLIBC/./_}_$arch.manylinux2014_$arch" "${built[0]}" >"$log" 2>&1 ||
    { cat "$log" >&2; die "wheel tags failed on ${built[0]}"; }
  built=("$dist"/picollo-*-manylinux2014_"$arch".manylinux_2_17_"$arch".whl)
  [[ -f "${built[0]}" ]] || die "wheel tags wrote no manylinux2014_$arch wheel into $dist"
  echo "${built[0]}"
}

clib() {
  local arch=$1 dest="$out/clib-$1" log="$out/clib-$1.log"
  local tarball="$out/picollo-0.1.0-linux-$1-glibc$GLIBC.tar.gz"
  use_zig_for "$arch"
  rm -rf "$dest"
  mkdir -p "$out"
  # Debian's cargo-c runs an older cargo than rustup's: its builds get a folder of their own.
  if ! CARGO_TARGET_DIR="$out/cargo-c-$arch" cargo cinstall --release -p picollo-ffi \
      --target "$target" --prefix /usr/local --libdir /usr/local/lib --destdir "$dest" \
      >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "cargo cinstall for $arch failed (log: $log)"
  fi
  tar czf "$tarball" --owner=0 --group=0 -C "$dest" usr
  echo "$tarball"
}

[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] || unavailable "the cross builds run on x86-64 Linux hosts"
case "${1:-} ${2:-}" in
  "tools ") tools ;;
  "wheel x86_64" | "wheel aarch64") tools; wheel "$2" ;;
  "clib x86_64" | "clib aarch64") tools; clib "$2" ;;
  *) sed -n '2,20p' "$0" >&2; exit 64 ;;
esac
