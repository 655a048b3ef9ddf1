#!/usr/bin/env bash
# Interoperability stage: Picollo's HdrHistogram V2 codec and interval log against two other
# implementations, PyPI `hdrhistogram` 0.10.8 (module `hdrh`) and npm `hdr-histogram-js` 3.0.1.
# Both directions for V2 blobs (1..5 significant digits; lowest discernible values 1, 1000 and
# 2^20 bucket for bucket, with a table of buckets compared and mismatches;
# Picollo's default 0.1 % layout) and for interval logs, plus the committed fixtures in
# interop/fixtures. Prints PASS/FAIL per check, the peers' limits met, and a matrix of who
# reads what; exits non-zero on any failure.
#
# Needs python3; installs python3-venv, node and npm where missing (scripts/needs.sh). The first
# run creates .venv-interop/ (pip install -r interop/py/requirements.txt) and
# interop/js-peers/node_modules (npm ci), which needs the package registries; later runs are
# offline.
#
#   bash scripts/interop_peers.sh                    run the checks
#   bash scripts/interop_peers.sh --write-fixtures   regenerate interop/fixtures, then check
set -euo pipefail
cd "$(dirname "$0")/.."

echo "=== interop-peers: Picollo vs hdrh (PyPI hdrhistogram 0.10.8) and hdr-histogram-js 3.0.1"

VENV=.venv-interop
HDRH_VERSION=0.10.8
JS_VERSION=3.0.1

. scripts/needs.sh
needs node venv || exit 1
if ! "$VENV/bin/python" -c "import hdrh, importlib.metadata as m, sys; \
sys.exit(m.version('hdrhistogram') != '$HDRH_VERSION')" 2>/dev/null; then
  echo "interop-peers: creating $VENV (hdrhistogram==$HDRH_VERSION)"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV"; then
    echo "interop-peers: FAIL: python3 -m venv failed (Debian: apt-get install python3-venv," \
      "or run scripts/setup.sh)"
    exit 1
  fi
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r interop/py/requirements.txt
fi

for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "interop-peers: FAIL: $tool not found (Debian: apt-get install nodejs npm, or run" \
      "scripts/setup.sh)"
    exit 1
  fi
done
installed_js=$(cd interop/js-peers &&
  node -p "require('hdr-histogram-js/package.json').version" 2>/dev/null || true)
if [ "$installed_js" != "$JS_VERSION" ]; then
  echo "interop-peers: installing hdr-histogram-js@$JS_VERSION (npm ci)"
  (cd interop/js-peers && npm ci --silent --no-audit --no-fund)
fi

# Release build: unoptimized, hdr_tool takes seconds per histogram at 5 digits.
cargo build -q --release -p picollo --example hdr_tool
TOOL="${CARGO_TARGET_DIR:-target}/release/examples/hdr_tool"

echo "peers run by node $(node --version) and $("$VENV/bin/python" --version)"
exec "$VENV/bin/python" interop/py/check_peers.py --tool "$TOOL" --js-dir interop/js-peers \
  --fixtures interop/fixtures "$@"
