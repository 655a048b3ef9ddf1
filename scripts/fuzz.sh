#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for FUZZ_SECONDS each (default 20, at most 60;
# the two batch targets, integers' and doubles', share one target's time), starting from
# a copy of the committed seed corpus (fuzz/corpus/<target>/) so that a run leaves the
# tree clean. Any crash, panic, leak or timeout fails the run; the input that
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
targets=(${FUZZ_TARGETS:-config ops format decode record_paths batch_record float_batch_record})

# The slots that run side by side: a target each, but the two batch targets (the same
# check for integers and doubles) share one, one after the other, half the time each.
slots=()
pair=""
for t in "${targets[@]}"; do
    case $t in
    batch_record | float_batch_record) pair="${pair:+$pair }$t" ;;
    *) slots+=("$t") ;;
    esac
done
[[ -n "$pair" ]] && slots+=("$pair")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "--- fuzz: build (cargo +nightly fuzz build)"
if ! (cd fuzz && cargo +nightly fuzz build 2>&1 | tail -n 3); then
    echo "fuzz: FAIL: build" >&2
    exit 1
fi

# fuzz_one TARGET SECONDS [ARGS...]: one target for that time; its verdict on the
# standard output, what went wrong on the standard error; the status of the run.
fuzz_one() {
    local t=$1 seconds=$2 corpus="$work/corpus-$1" log="$work/$1.log" status stats a
    shift 2
    mkdir -p "$corpus"
    cp fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
    (cd fuzz && cargo +nightly fuzz run "$t" "$corpus" -- \
        -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 \
        -print_final_stats=1 "$@") >"$log" 2>&1
    status=$?
    stats="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')"
    if [[ $status -eq 0 ]]; then
        echo "fuzz: $t ok: ${stats:-?} runs in ${seconds} s, $(ls "$corpus" | wc -l) corpus entries"
        return 0
    fi
    grep -E -A 25 'panicked at|ERROR: (libFuzzer|AddressSanitizer)' "$log" | head -n 60 >&2
    for a in fuzz/artifacts/"$t"/*; do
        [[ -f "$a" ]] || continue
        echo "fuzz: input $a:" >&2
        (cd fuzz && cargo +nightly fuzz fmt "$t" "../$a" 2>&1 | head -n 80) >&2
    done
    echo "fuzz: $t FAILED (status $status, ${stats:-?} runs; log kept at fuzz/artifacts/$t.log)" >&2
    mkdir -p fuzz/artifacts && cp "$log" "fuzz/artifacts/$t.log"
    return 1
}

# fuzz_slot SLOT [ARGS...]: its targets one after the other, its time shared among them;
# each target's verdict and why in files of its own, and a `.failed` file for one that
# failed.
fuzz_slot() {
    local slot t
    read -ra slot <<<"$1"
    shift
    for t in "${slot[@]}"; do
        fuzz_one "$t" $(((seconds + ${#slot[@]} - 1) / ${#slot[@]})) "$@" \
            >"$work/$t.verdict" 2>"$work/$t.why" || touch "$work/$t.failed"
    done
}

# One slot a CPU at a time (libFuzzer runs one thread): each still gets its seconds.
jobs_at_once="$(nproc 2>/dev/null || echo 1)"
failed=()
for ((i = 0; i < ${#slots[@]}; i += jobs_at_once)); do
    batch=("${slots[@]:i:jobs_at_once}")
    echo "--- fuzz: $(printf '[%s] ' "${batch[@]}")for ${seconds} s"
    pids=()
    for slot in "${batch[@]}"; do
        fuzz_slot "$slot" "$@" &
        pids+=($!)
    done
    wait "${pids[@]}"
    for slot in "${batch[@]}"; do
        for t in $slot; do
            cat "$work/$t.verdict"
            cat "$work/$t.why" >&2
            [[ -e "$work/$t.failed" ]] && failed+=("$t")
        done
    done
done

if [[ ${#failed[@]} -ne 0 ]]; then
    echo "fuzz: FAIL: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: OK"
