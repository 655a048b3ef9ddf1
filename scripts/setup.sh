#!/usr/bin/env bash
# Installs what the demo or the tests need, skipping what is already there. What each tool is
# and what installs it is scripts/needs.sh's table; each stage script also asks for its own
# tools there, so that one run alone works on a fresh machine.
#
#   bash scripts/setup.sh --demo   the demo's needs only: a C compiler (the native read path that
#                                  cargo builds) and the project venv with numpy and matplotlib
#                                  (their lines of python-demo/requirements.txt); seconds where
#                                  they are there, about a minute where they are not
#   bash scripts/setup.sh          everything every stage needs, in one apt transaction: the
#                                  test command runs this first (about 2 minutes fresh)
#
#   PICOLLO_PYTHON  the interpreter the venv is made from (default: python3 on PATH)
#   PICOLLO_VENV    where the venv lives (default: .venv; relative to the repository root)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/needs.sh"

case "${1:-}" in
  --demo) needs cc demo-venv || exit 1; echo "setup: ok (the demo's needs)" ;;
  "") needs --all || exit 1; echo "setup: ok" ;;
  *) echo "setup: unknown argument '$1' (--demo, or none for everything)" >&2; exit 2 ;;
esac
