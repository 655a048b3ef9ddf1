#!/usr/bin/env bash
# Picollo's change points against Apache Otava's (scripts/otava_compare.py: the table, and
# bounds that hold by far), on series of this machine's sample suite and on otava-test-data's.
# It times nothing: scripts/test.sh runs it beside the other stages that time nothing.
# Needs cargo; makes the project venv (.venv, or $PICOLLO_VENV) where missing
# (scripts/needs.sh) and a venv of its own for Apache Otava, kept between runs:
# apache-otava pins numpy and scipy and brings cloud clients that the binding's venv should
# not carry.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
. scripts/needs.sh
needs venv || exit 1
py="${PICOLLO_VENV:-.venv}/bin/python"
target="$(mkdir -p "${CARGO_TARGET_DIR:-target}" && cd "${CARGO_TARGET_DIR:-target}" && pwd)"
ovenv="$target/python/venv-otava"

echo "== Apache Otava 0.8.0 and otava-test-data 0.1.9 in $ovenv"
"$ovenv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(
    m.version('apache-otava') != '0.8.0' or m.version('otava-test-data') != '0.1.9')" \
    2>/dev/null || {
    "$py" -m venv --clear "$ovenv"
    "$ovenv/bin/python" -m pip install -q --disable-pip-version-check --no-compile \
        apache-otava==0.8.0 otava-test-data==0.1.9
}
echo "== the detector (bench/examples/history_detect.rs)"
cargo build -q -p picollo-bench --example history_detect
echo "== change points against Apache Otava's (scripts/otava_compare.py)"
"$ovenv/bin/python" scripts/otava_compare.py --detector "$target/debug/examples/history_detect"
echo "otava: OK"
