#!/usr/bin/env bash
# Installs what the demo and the tests need, skipping what is already there:
# Debian packages (valgrind, mono, cargo-c, pkg-config), Python packages (pytest, numpy,
# matplotlib) and cbindgen (pinned: the committed header is checked against its output).
set -euo pipefail

CBINDGEN_VERSION=0.29.2
export DEBIAN_FRONTEND=noninteractive

need_apt=()
command -v valgrind >/dev/null || need_apt+=(valgrind)
command -v mcs >/dev/null || need_apt+=(mono-mcs)
command -v mono >/dev/null || need_apt+=(mono-runtime)
command -v cargo-cinstall >/dev/null || need_apt+=(cargo-c)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
command -v gcc >/dev/null || need_apt+=(gcc)
command -v g++ >/dev/null || need_apt+=(g++)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if ! python3 -c "import pytest, numpy, matplotlib" 2>/dev/null; then
  echo "setup: installing Python packages from python-demo/requirements.txt"
  python3 -m pip install -q -r "$(dirname "$0")/../python-demo/requirements.txt"
fi

if ! cbindgen --version 2>/dev/null | grep -q "$CBINDGEN_VERSION"; then
  echo "setup: installing cbindgen $CBINDGEN_VERSION"
  cargo install -q cbindgen --version "$CBINDGEN_VERSION" --locked
fi
echo "setup: ok"
