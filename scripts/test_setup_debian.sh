#!/usr/bin/env bash
# The README's commands with Debian's own python3 (/usr/bin/python3, externally managed:
# PEP 668), whatever python3 is first on PATH:
#   1. scripts/setup.sh with PICOLLO_PYTHON=/usr/bin/python3 and a scratch PICOLLO_VENV makes
#      the venv from it and installs python-demo/requirements.txt there;
#   2. scripts/demo.sh runs with that venv;
#   3. `pip install ./python-demo` into a fresh venv of /usr/bin/python3 gives a working
#      `import picollo` (the bundled library, PICOLLO_LIB unset, run outside the checkout);
# and none of this changed the system interpreter's site-packages.
# Skips (and says so) only where there is no /usr/bin/python3.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
repo="$(pwd)"

system_python=/usr/bin/python3
if [ ! -x "$system_python" ]; then
  echo "setup-debian: SKIPPED: no $system_python (not a Debian/Ubuntu system python)"
  exit 0
fi
fail() { echo "setup-debian: FAIL: $*" >&2; exit 1; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
unset PICOLLO_LIB PYTHONPATH

marker="$("$system_python" -c \
  "import os, sysconfig; print(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED'))")"
if [ -f "$marker" ]; then
  echo "setup-debian: $system_python ($("$system_python" --version)) is externally managed ($marker)"
else
  echo "setup-debian: $system_python ($("$system_python" --version)) is not externally managed"
fi

# What is installed for the system interpreter: the names in each of its site-packages
# (dist-info names carry versions), bytecode caches aside.
system_packages() {
  "$system_python" -c 'import site; print("\n".join(site.getsitepackages() + [site.getusersitepackages()]))' |
    while read -r dir; do
      if [ -d "$dir" ]; then
        find "$dir" -mindepth 1 -maxdepth 1 ! -name __pycache__ -printf "$dir/%f\n"
      fi
    done | sort
}
system_packages >"$scratch/before"

echo "== setup.sh with PICOLLO_PYTHON=$system_python"
export PICOLLO_PYTHON="$system_python" PICOLLO_VENV="$scratch/venv"
bash scripts/setup.sh
base="$("$PICOLLO_VENV/bin/python" -c 'import sys; print(sys.base_prefix)')"
[ "$base" = "$("$system_python" -c 'import sys; print(sys.base_prefix)')" ] ||
  fail "the venv was made from $base, not from $system_python"
"$PICOLLO_VENV/bin/python" -c "import pytest, numpy, matplotlib, hdrh" ||
  fail "the venv lacks python-demo/requirements.txt"
start=$SECONDS
bash scripts/setup.sh
echo "setup.sh again: $((SECONDS - start))s"

echo "== demo.sh with that venv"
bash scripts/demo.sh >"$scratch/demo.log"
grep -Eq '^P99: P99=24,960 \[83 / 609\]' "$scratch/demo.log" || fail "demo.sh printed no P99 line"
# awk reads the whole log: `grep | head` can die of SIGPIPE under pipefail.
awk '!/^\|/ && shown++ < 3' "$scratch/demo.log"

echo "== $system_python -m venv v && v/bin/pip install ./python-demo"
rm -rf python-demo/build  # setuptools' staging area, as a fresh checkout has none
start=$SECONDS
"$system_python" -m venv "$scratch/v"
"$scratch/v/bin/pip" install -q --disable-pip-version-check ./python-demo
echo "installed in $((SECONDS - start))s"
out="$(cd "$scratch" && "$scratch/v/bin/python" -c \
  "import picollo; h = picollo.Histogram(); h.record(5); print(h.summary().p99); \
print(picollo.__file__); print(picollo._native.lib._name)")"
echo "$out"
{ read -r p99; read -r package; read -r lib; } <<<"$out"
[[ "$p99" == "P99=5 "* ]] || fail "the P99 line reads '$p99'"
[[ "$package" == "$scratch/v/lib/"*"/site-packages/picollo/__init__.py" ]] ||
  fail "picollo was imported from $package, not from the venv"
[[ "$lib" == "$(dirname "$package")/libpicollo"*.so ]] ||
  fail "libpicollo was loaded from $lib, not from the package"

system_packages >"$scratch/after"
diff -u "$scratch/before" "$scratch/after" ||
  fail "the system interpreter's site-packages changed"
echo "setup-debian: ok ($system_python's site-packages unchanged)"
