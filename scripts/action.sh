#!/usr/bin/env bash
# The GitHub Action (action.yml), without GitHub: scripts/action_check.py checks its
# metadata, lints the example workflows (docs/examples/) and its `uses:` steps with
# actionlint, and runs it with scripts/action_local.py on a sample project of two revisions
# under --emulate (exact counts): identical code passes the job, 10 % more loop steps fail
# it naming the benchmark, a head that does not compile fails it with the compiler's error.
# Then scripts/action_suite_check.py runs mode: suite on a sample cargo crate and a pytest
# checkout (A/A passes, 10 % more loop steps fails naming the benchmark, the pull request's
# comment posted and updated on a fake API) and times the action's own steps.
# scripts/action_history_check.py runs the history step (history-branch): a run added to a
# branch of a local bare remote, a refused push rebased and pushed again.
# The action's install step builds picollo with cargo into this checkout's target/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/needs.sh
needs cc mono qemu-user action-venv || exit 1
"${PICOLLO_VENV:-.venv}/bin/python" scripts/action_check.py --out target/action-check
# The history step (history-branch) on local repositories, a bare one as the remote.
cargo build --quiet --release -p picollo-cli
python3 scripts/action_history_check.py
# The pytest sample loads the library from the release build.
cargo build --quiet --release -p picollo-ffi
"${PICOLLO_VENV:-.venv}/bin/python" scripts/action_suite_check.py --out target/action-suite-check
