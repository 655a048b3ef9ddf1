#!/usr/bin/env bash
# Miri over the unsafe code of the concurrent histograms: the cells, the seqlock read, reset
# and held-read paths, and the thread-local shards (raw-pointer record fast path, hand-off,
# fold, a histogram dropped while its writer lives). A focused subset, a few minutes:
#   - core/tests/miri_concurrent.rs (small runs sized for Miri), under 8 thread schedules;
#   - the `concurrent::dynamic` unit tests (every mode and counter width through one type);
#   - the float histogram's record path, its batch on the portable path and exact sums
#     (`float::histogram`, `float::octaves`: raw pointers biased by the exponent, chunks,
#     the carry protocol), sized for Miri (the
#     octaves test over 2,000 exponents runs natively only: minutes under Miri);
#   - the plain histogram's batch record on its portable path (Miri runs no vector path),
#     at every length around its chunks, against the per-value record.
# Needs nightly; installs miri and rust-src for it when missing; skips loudly without nightly.
# A separate target dir keeps Miri's builds from invalidating the normal ones.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "miri.sh: SKIPPED: no nightly toolchain (rustup toolchain install nightly)" >&2
    exit 0
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup +nightly component add miri rust-src
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/miri"
cargo +nightly miri setup
flags="${MIRIFLAGS:--Zmiri-strict-provenance}"
MIRIFLAGS="$flags -Zmiri-many-seeds=0..8" cargo +nightly miri test -p picollo --test miri_concurrent
# The lzcnt/BMI2 record functions are left to native runs: Miri detects no CPU feature, so
# under it that test would compare the portable functions with themselves (for minutes).
MIRIFLAGS="$flags" cargo +nightly miri test -p picollo --lib -- concurrent::dynamic float::histogram \
    float::octaves::tests::carries float::octaves::tests::chunks float::octaves::tests::rounding \
    float::octaves::tests::subnormals --skip the_record_functions_for_lzcnt_and_bmi2
MIRIFLAGS="$flags" cargo +nightly miri test -p picollo --test batch_record -- \
    the_plain_histograms_batch_small
echo "miri.sh: OK"
