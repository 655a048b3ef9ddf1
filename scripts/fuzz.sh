#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for FUZZ_SECONDS each (default 20, at most 60),
# starting from a copy of the committed seed corpus (fuzz/corpus/<target>/) so that a run
# leaves the tree clean. Any crash, panic, leak or timeout fails the run; the input that
# caused it is kept under fuzz/artifacts/<target>/ (ignored by git) and printed with
# `cargo fuzz fmt`. Needs the nightly toolchain and cargo-fuzz (scripts/setup.sh installs
# cargo-fuzz); without them it says so and exits 0 (skipped).
# FUZZ_TARGETS="ops format" picks targets; extra arguments go to libFuzzer.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

skip() {
    echo "fuzz: SKIPPED: $*"
    exit 0
}
command -v cargo >/dev/null || skip "cargo not found"
. scripts/needs.sh
needs cargo-fuzz
rustup run nightly rustc --version >/dev/null 2>&1 ||
    skip "no nightly toolchain (rustup toolchain install nightly)"
cargo +nightly fuzz --version >/dev/null 2>&1 ||
    skip "cargo-fuzz not installed (cargo install cargo-fuzz --locked)"

seconds="${FUZZ_SECONDS:-20}"
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -ge 1 ]] || { echo "fuzz: FUZZ_SECONDS must be a positive integer" >&2; exit 1; }
((seconds > 60)) && seconds=60
targets=(${FUZZ_TARGETS:-config ops format decode record_paths})

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "--- fuzz: build (cargo +nightly fuzz build)"
if ! (cd fuzz && cargo +nightly fuzz build 2>&1 | tail -n 3); then
    echo "fuzz: FAIL: build" >&2
    exit 1
fi

failed=()
for t in "${targets[@]}"; do
    echo "--- fuzz: $t for ${seconds} s"
    corpus="$work/corpus-$t"
    mkdir -p "$corpus"
    cp fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
    log="$work/$t.log"
    # -rss_limit_mb: the histograms are small; growth past this is a leak.
    (cd fuzz && cargo +nightly fuzz run "$t" "$corpus" -- \
        -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 \
        -print_final_stats=1 "$@") >"$log" 2>&1
    status=$?
    stats="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')"
    if [[ $status -ne 0 ]]; then
        grep -E -A 25 'panicked at|ERROR: (libFuzzer|AddressSanitizer)' "$log" | head -n 60 >&2
        for a in fuzz/artifacts/"$t"/*; do
            [[ -f "$a" ]] || continue
            echo "fuzz: input $a:" >&2
            (cd fuzz && cargo +nightly fuzz fmt "$t" "../$a" 2>&1 | head -n 80) >&2
        done
        echo "fuzz: $t FAILED (status $status, ${stats:-?} runs; log kept at fuzz/artifacts/$t.log)" >&2
        mkdir -p fuzz/artifacts && cp "$log" "fuzz/artifacts/$t.log"
        failed+=("$t")
    else
        echo "fuzz: $t ok: ${stats:-?} runs in ${seconds} s, $(ls "$corpus" | wc -l) corpus entries"
    fi
done

if [[ ${#failed[@]} -ne 0 ]]; then
    echo "fuzz: FAIL: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: OK"
