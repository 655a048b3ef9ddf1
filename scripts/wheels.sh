#!/usr/bin/env bash
# The packages users install, built by scripts/cross.sh and tried where they install:
#  1. the wheels picollo-0.1.0-cp39-abi3-manylinux_2_17_{x86_64,aarch64}: `auditwheel show`
#     must find each consistent with manylinux_2_17_<arch>; each keeps its metadata, licence
#     files, py.typed, the abi3 tag and the manylinux2014 alias; the library inside is for
#     the wheel's machine, needs no GLIBC_ symbol version above 2.17 (objdump -T), holds no object of the host's gcc
#     (.comment), and where core's native/ was compiled the cc crate used zig for it;
#  2. the `cargo cinstall` tarballs of the C library for both, with the same checks and the
#     SONAME libpicollo.so.0;
#  3. both installed and run in Debian 11 roots (scripts/bullseye.sh: the x86_64 wheel with
#     python-demo/tests in an amd64 root, the aarch64 wheel with scripts/wheel_smoke.py in an
#     arm64 root under qemu, and each C library with c-tests/pkgconfig_smoke.c).
# Skips loudly (exit 0, the reason printed) on a host that is not x86-64 Linux or where the
# build tools cannot be installed, and skips part 3 loudly where the roots cannot be made
# (no debootstrap, no qemu-user-static, no answer from the Debian archive).
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
repo="$PWD"

GLIBC=2.17
ARCHES=(x86_64 aarch64)
out="${CARGO_TARGET_DIR:-$repo/target}/cross"
zigcc="$repo/.cache/cross/bin/cc"
started=$SECONDS

die() { echo "wheels: FAIL: $*" >&2; exit 1; }
. scripts/needs.sh
needs cargo-c pkg-config venv || die "the tools above are missing"
skip() { echo "wheels: SKIPPED: $*"; }
step() { echo "--- wheels: $* ($((SECONDS - started)) s)"; }

# highest_glibc ELF: the highest GLIBC_x.y version among the dynamic symbols.
highest_glibc() { objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1; }

# check_elf FILE ARCH WHAT: built for ARCH, glibc floor kept, nothing of the host's gcc.
check_elf() {
  local file=$1 arch=$2 what=$3 machine highest comment
  machine="$(readelf -h "$file" | sed -n 's/^ *Machine: *//p')"
  case "$arch:$machine" in
    x86_64:*X86-64 | aarch64:AArch64) ;;
    *) die "$what is built for '$machine', not $arch" ;;
  esac
  highest="$(highest_glibc "$file")"
  [[ -n "$highest" ]] || die "$what has no GLIBC_ symbol version (objdump -T)"
  [[ "$(printf '%s\n' "GLIBC_$GLIBC" "$highest" | sort -V | tail -n 1)" == "GLIBC_$GLIBC" ]] ||
    die "$what needs $highest, above the floor GLIBC_$GLIBC"
  comment="$(readelf -p .comment "$file" | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | paste -sd ';')"
  [[ "$comment" != *"GCC:"* ]] || die "$what holds code compiled by the host's gcc: $comment"
  echo "$what: $machine, highest symbol version $highest; .comment: $comment"
}

# check_native CARGO_TARGET_DIR ARCH: where core's build script compiled native/, the cc
# crate was handed the zig wrapper for the target.
check_native() {
  local dir="$1/$2-unknown-linux-gnu/release/build" var="CC_${2}_unknown_linux_gnu" found=0 f
  for f in "$dir"/picollo-*/output; do
    [[ -f "$f" ]] && grep -qx 'cargo:rustc-cfg=picollo_native' "$f" || continue
    found=1
    grep -qx "$var = Some($zigcc-$2)" "$f" || die "native/ for $2 was not compiled by zig ($f)"
  done
  if [[ $found == 1 ]]; then
    echo "$2: native/ compiled by $zigcc-$2"
  else
    echo "$2: native/ not compiled for this target (perf/build.rs chooses)"
  fi
}

# check_wheel WHEEL ARCH: auditwheel's tag, the contents, the library inside.
check_wheel() {
  local wheel=$1 arch=$2 tag="manylinux_${GLIBC/./_}_$2" report unpacked
  [[ "${wheel##*/}" == "picollo-0.1.0-cp39-abi3-manylinux2014_$arch.$tag.whl" ]] ||
    die "unexpected wheel name ${wheel##*/}"
  report="$(.cache/cross/venv/bin/auditwheel show "$wheel")" || die "auditwheel show $wheel failed"
  echo "$report"
  report="$(tr -s ' \n' ' ' <<<"$report")"
  [[ "$report" == *"consistent with the following platform tag: \"$tag\""* ]] ||
    die "auditwheel does not find ${wheel##*/} consistent with $tag"
  unpacked="$(mktemp -d)"
  python3 - "$wheel" "$arch" "$tag" "$unpacked" <<'PY' || die "the $arch wheel's contents (above)"
import sys, zipfile
wheel, arch, tag, dest = sys.argv[1:]
z = zipfile.ZipFile(wheel)
names, info = set(z.namelist()), "picollo-0.1.0.dist-info/"
need = [info + f for f in ("METADATA", "WHEEL", "RECORD", "licenses/LICENSE-MIT",
                           "licenses/LICENSE-APACHE")]
need += ["picollo/py.typed", "picollo/__init__.py", "picollo/libpicollo.abi3.so"]
bad = [f"missing {n}" for n in need if n not in names]
meta = z.read(info + "METADATA").decode() if info + "METADATA" in names else ""
for line in ("Requires-Python: >=3.9", "License-Expression: MIT OR Apache-2.0",
             "License-File: LICENSE-MIT", "License-File: LICENSE-APACHE",
             "Classifier: Typing :: Typed"):
    if line not in meta.splitlines():
        bad.append(f"METADATA lacks '{line}'")
tags = sorted(t for t in z.read(info + "WHEEL").decode().splitlines() if t.startswith("Tag:"))
if tags != sorted([f"Tag: cp39-abi3-{tag}", f"Tag: cp39-abi3-manylinux2014_{arch}"]):
    bad.append(f"WHEEL has {tags}")
print("\n".join(f"  {b}" for b in bad) or
      f"{arch} wheel: {len(names)} files; METADATA, licences, py.typed; {', '.join(tags)}")
z.extract("picollo/libpicollo.abi3.so", dest)
sys.exit(1 if bad else 0)
PY
  check_elf "$unpacked/picollo/libpicollo.abi3.so" "$arch" "$arch wheel's libpicollo.abi3.so"
  rm -rf "$unpacked"
}

# check_clib TARBALL ARCH: the files cargo cinstall installs, the shared library's soname.
check_clib() {
  local tarball=$1 arch=$2 lib="$out/clib-$2/usr/local/lib" f list
  list="$(tar tzf "$tarball")"
  for f in include/picollo/picollo.h include/picollo/picollo_inline.h lib/libpicollo.a \
           lib/libpicollo.so lib/libpicollo.so.0 lib/libpicollo.so.0.1.0 lib/pkgconfig/picollo.pc; do
    grep -qx "usr/local/$f" <<<"$list" || die "${tarball##*/} lacks usr/local/$f"
  done
  readelf -d "$lib/libpicollo.so.0.1.0" | grep -q 'SONAME.*\[libpicollo\.so\.0\]' ||
    die "$arch libpicollo.so.0.1.0 has no SONAME libpicollo.so.0"
  check_elf "$lib/libpicollo.so.0.1.0" "$arch" "${tarball##*/}: libpicollo.so.0.1.0"
}

build_and_check() {
  local arch wheel tarball
  for arch in "${ARCHES[@]}"; do
    step "$arch: the wheel (pip wheel ./python-demo through zig)"
    wheel="$(bash scripts/cross.sh wheel "$arch" | tail -n 1)" || die "cross.sh wheel $arch (above)"
    check_wheel "$wheel" "$arch"
    check_native "$out/cargo-$arch" "$arch"
    step "$arch: the C library (cargo cinstall through zig)"
    tarball="$(bash scripts/cross.sh clib "$arch" | tail -n 1)" || die "cross.sh clib $arch (above)"
    check_clib "$tarball" "$arch"
    check_native "$out/cargo-c-$arch" "$arch"
  done
}

status=0
bash scripts/cross.sh tools || status=$?
if [[ $status == 2 ]]; then
  skip "the cross-build tools cannot be installed (above); nothing was built"
  exit 0
fi
[[ $status == 0 ]] || die "scripts/cross.sh tools failed"
# The Debian roots download while the libraries compile (one is network, the other CPU).
mkdir -p "$out"
bash scripts/bullseye.sh prepare >"$out/bullseye-prepare.log" 2>&1 &
prepare=$!
build_and_check
status=0
wait "$prepare" || status=$?
step "the Debian 11 roots"
cat "$out/bullseye-prepare.log"
case $status in
  0) bash scripts/bullseye.sh test ;;
  2) skip "the Debian 11 roots are not to be had (above); the wheels were not installed anywhere" ;;
  *) die "scripts/bullseye.sh prepare failed (above)" ;;
esac
echo "wheels: OK ($((SECONDS - started)) s)"
