# Sourced by the scripts of c-tests/ (run.sh, install.sh, bench.sh, suite.sh, gbench.sh):
# strict mode, no standard input, cargo on PATH, the repository root as the working
# directory, and the folders: `here` (c-tests/), `root` (the repository) and `target`
# (cargo's target folder, $CARGO_TARGET_DIR if set).
set -euo pipefail
exec </dev/null

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
export PATH="$HOME/.cargo/bin:$PATH"
cd "$root"

# die MESSAGE: the script's failure, said as `WHO: FAIL: MESSAGE`, and exit 1; step MESSAGE:
# a step's heading. WHO is $who where the script sets it before sourcing this, else c-tests.
who="${who:-c-tests}"
die() {
    echo "$who: FAIL: $*" >&2
    exit 1
}
step() { echo "--- $who: $*"; }

# commands_present NAME...: each on PATH, else die naming the one missing.
commands_present() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found"
    done
}

# fresh_build: $build emptied and made; $tmp a new temporary folder, removed at exit.
fresh_build() {
    rm -rf "$build"
    mkdir -p "$build"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
}

# beside_headers: the headers include/picollo.h includes from beside it (`#include "..."`),
# one a line; an install must put each beside it.
beside_headers() {
    sed -n 's/^#include "\([^"]*\)"$/\1/p' "$root/include/picollo.h"
}
