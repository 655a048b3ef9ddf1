#!/usr/bin/env bash
# Installs what the demo or the tests need, skipping what is already there.
#
#   bash scripts/setup.sh --demo   the demo's needs only: a C compiler (the native read path that
#                                  cargo builds) and the project venv with numpy and matplotlib
#                                  (their lines of python-demo/requirements.txt); seconds where
#                                  they are there, about a minute where they are not
#   bash scripts/setup.sh          everything the test command's stages need (below)
#
# Everything:
# Debian packages (valgrind, mono, cargo-c, pkg-config, cmake; the DejaVu font `picollo plot` draws
# its text with; python3-venv for the project venv and the interop stages, nodejs and npm for
# the interop stages: .hgrm and peers; prometheus for the Python metrics test; debootstrap and
# qemu-user-static for the wheels stage's Debian 11 roots; qemu-user, whose emulators load
# Picollo's plugin, and the aarch64 cross compiler for the emulated counters; python3-dbg, a
# CPython debug build the Python stage runs the harness under), the project
# venv .venv with the Python packages of python-demo/requirements.txt (pytest, numpy,
# matplotlib, hdrhistogram 0.10.8 for the Python binding's peer tests, prometheus-client and
# opentelemetry-proto for its metrics tests) and cbindgen (pinned: the committed header is
# checked against its output). The interop stage installs its pinned peers itself
# (scripts/interop_peers.sh: a venv and npm ci).
#
# Python packages go into the venv only, never into the interpreter it is made from: Debian's
# and Ubuntu's python3 are externally managed (PEP 668) and refuse `pip install`.
#   PICOLLO_PYTHON  the interpreter the venv is made from (default: python3 on PATH)
#   PICOLLO_VENV    where the venv lives (default: .venv; relative to the repository root)
set -euo pipefail

CBINDGEN_VERSION=0.29.2
export DEBIAN_FRONTEND=noninteractive
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base_python="${PICOLLO_PYTHON:-python3}"
venv="${PICOLLO_VENV:-.venv}"
[[ "$venv" == /* ]] || venv="$repo/$venv"

# make_venv CHECK PIP_ARGS...: the project venv, made again when it is missing, when its
# interpreter no longer runs (the base one was removed) or when it was made from another
# interpreter than the base one; `pip install PIP_ARGS` run in it unless the Python statement
# CHECK exits 0 there.
make_venv() {
  local check=$1
  shift
  command -v "$base_python" >/dev/null ||
    { echo "setup: FAIL: $base_python not found (set PICOLLO_PYTHON)" >&2; exit 1; }
  local which_python='import sys; print(sys.base_prefix, *sys.version_info[:2])'
  if [ "$("$venv/bin/python" -c "$which_python" 2>/dev/null)" != \
       "$("$base_python" -c "$which_python")" ]; then
    if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
      echo "setup: FAIL: $venv exists and is not a venv; not replacing it" >&2
      exit 1
    fi
    echo "setup: creating the Python venv $venv (from $base_python)"
    rm -rf "$venv"
    "$base_python" -m venv "$venv"
  fi
  if ! "$venv/bin/python" -c "$check" 2>/dev/null; then
    echo "setup: installing Python packages into $venv: $*"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$@"
  fi
}

# apt_get PACKAGE...: installs the Debian packages named (none: nothing to do).
apt_get() {
  [ $# -gt 0 ] || return 0
  echo "setup: installing Debian packages: $*"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# venv_apt: python3-venv where the base interpreter (or python3) lacks ensurepip: Debian's
# python3 is externally managed, the project's packages go into venvs, and `python3 -m venv`
# needs ensurepip, which Debian ships in python3-venv.
venv_apt() {
  local py
  for py in "$base_python" python3; do
    "$py" -c "import ensurepip, venv" 2>/dev/null || { echo python3-venv; return; }
  done
}

if [ "${1:-}" = --demo ]; then
  demo_apt=($(venv_apt))
  command -v cc >/dev/null || demo_apt+=(gcc)
  apt_get "${demo_apt[@]}"
  make_venv "import numpy, matplotlib" \
    $(grep -E '^(numpy|matplotlib)\b' "$repo/python-demo/requirements.txt")
  echo "setup: ok (the demo's needs)"
  exit 0
fi
[ $# -eq 0 ] || { echo "setup: unknown argument '$1' (--demo, or none for everything)" >&2; exit 2; }

need_apt=()
command -v valgrind >/dev/null || need_apt+=(valgrind)
command -v mcs >/dev/null || need_apt+=(mono-mcs)
command -v mono >/dev/null || need_apt+=(mono-runtime)
command -v cargo-cinstall >/dev/null || need_apt+=(cargo-c)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ld.lld >/dev/null || need_apt+=(lld)
command -v mold >/dev/null || need_apt+=(mold)
command -v python3-dbg >/dev/null || need_apt+=(python3-dbg)
command -v gcc >/dev/null || need_apt+=(gcc)
command -v g++ >/dev/null || need_apt+=(g++)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt+=(fonts-dejavu-core)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
# The wheels stage: Debian 11 roots, the arm64 one run by qemu (scripts/bullseye.sh).
command -v debootstrap >/dev/null || need_apt+=(debootstrap)
[ -x /usr/bin/qemu-aarch64-static ] || need_apt+=(qemu-user-static)
# Emulated counters (picollo emulate, scripts/emulate.sh): QEMU's user mode that loads
# plugins (qemu-user; the static build cannot), and the aarch64 guests' compiler and libc.
[ -x /usr/bin/qemu-x86_64 ] || need_apt+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu)
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || need_apt+=(libc6-dev-arm64-cross)
need_apt+=($(venv_apt))
# The browser that opens the HTML reports (scripts/html.sh, headless).
command -v chromium >/dev/null || need_apt+=(chromium)
# The Prometheus server the Python metrics test scrapes with (on 127.0.0.1 only).
command -v prometheus >/dev/null || need_apt+=(prometheus)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt_get "${need_apt[@]}"
  # Debian's package enables a prometheus service listening on every address; the test
  # starts its own on 127.0.0.1, so stop and disable that one (systemd, or the init script
  # where there is no systemd and the package's postinst started it).
  if [[ " ${need_apt[*]} " == *" prometheus "* ]]; then
    if [ -d /run/systemd/system ]; then
      $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
    elif [ -x /etc/init.d/prometheus ]; then
      $SUDO /etc/init.d/prometheus stop >/dev/null 2>&1 || true
    fi
  fi
fi

make_venv "import pytest, numpy, matplotlib, hdrh, \
prometheus_client, importlib.metadata as m, sys, html5lib; import google.protobuf, \
opentelemetry.proto.collector.metrics.v1.metrics_service_pb2; \
sys.exit(m.version('hdrhistogram') != '0.10.8' or m.version('prometheus-client') != '0.26.0' \
or m.version('opentelemetry-proto') != '1.45.2' or m.version('protobuf') != '7.36.2')" \
  -r "$repo/python-demo/requirements.txt"

if ! cbindgen --version 2>/dev/null | grep -q "$CBINDGEN_VERSION"; then
  echo "setup: installing cbindgen $CBINDGEN_VERSION"
  cargo install -q cbindgen --version "$CBINDGEN_VERSION" --locked
fi
# Nightly extras for scripts/fuzz.sh (cargo-fuzz, pinned) and scripts/sanitize.sh (rust-src
# for -Zbuild-std). Without nightly those stages skip and say why; a failed install here
# only warns, and the stage then skips.
CARGO_FUZZ_VERSION=0.13.1
if rustup run nightly rustc --version >/dev/null 2>&1; then
  if [ ! -d "$(rustup run nightly rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
    echo "setup: adding rust-src to the nightly toolchain"
    rustup component add rust-src --toolchain nightly ||
      echo "setup: WARNING: rust-src not installed (the sanitize stage will skip)"
  fi
  if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    echo "setup: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install -q cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked ||
      echo "setup: WARNING: cargo-fuzz not installed (the fuzz stage will skip)"
  fi
fi
echo "setup: ok"
