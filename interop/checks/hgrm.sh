#!/usr/bin/env bash
# The .hgrm percentile distribution, byte for byte against hdr-histogram-js 3.0.1.
#
# For each data set (interop/js/datasets.js) and significant digits 1..5, both sides print
# every variant: ticks per half distance 5, 2, 1 x unit ratio 1, 1000 x plain, CSV
# (interop/js/hgrm.js and core/examples/hgrm.rs). The reference applies Java's Max rule
# (the highest value equivalent to the largest recorded value; see interop/js/hgrm.js); the
# unmodified hdr-histogram-js output (ticks 5, ratio 1, plain) must differ in the Max line
# only. Run from the repository root by scripts/interop.sh.
set -uo pipefail

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Release: the example walks millions of counters per variant at 5 significant digits.
cargo build -q --release -p picollo --example hgrm || exit 1
datasets=$(node interop/js/datasets.js "$work/data") || exit 1

# Both sides of every data set at once (the reference is the slow part).
pids=()
for ds in $datasets; do
  node interop/js/hgrm.js "$work/data/$ds.txt" --all "$work/$ds.js-raw" >"$work/$ds.js" &
  pids+=($!)
done
for ds in $datasets; do
  cargo run -q --release -p picollo --example hgrm -- "$work/data/$ds.txt" --all >"$work/$ds.rs" || exit 1
done
for pid in "${pids[@]}"; do
  wait "$pid" || { echo "hgrm: the reference failed"; exit 1; }
done

# Split a batch on its "#### sf=S ticks=T ratio=R csv=C" lines into DIR/S_T_R_C, byte for
# byte (every section ends with a newline, which printf writes back).
split_batch() {
  mkdir -p "$2"
  awk -v dir="$2" '
    /^#### / { if (out) close(out); split($0, f, /[ =]/); out = dir "/" f[3] "_" f[5] "_" f[7] "_" f[9]; printf "" > out; next }
    { printf "%s\n", $0 > out }' "$1"
}

failed=0
printf '%-12s %-8s %-8s %-8s %-8s %-8s %s\n' "data set" sf=1 sf=2 sf=3 sf=4 sf=5 \
  "unmodified hdr-histogram-js (5, 1, plain)"
for ds in $datasets; do
  split_batch "$work/$ds.js" "$work/$ds.js.d"
  split_batch "$work/$ds.js-raw" "$work/$ds.raw.d"
  split_batch "$work/$ds.rs" "$work/$ds.rs.d"
  row=$(printf '%-12s' "$ds")
  for sf in 1 2 3 4 5; do
    total=0 same=0
    for ref in "$work/$ds.js.d/${sf}"_*; do
      total=$((total + 1))
      cmp -s "$ref" "$work/$ds.rs.d/$(basename "$ref")" && same=$((same + 1))
    done
    row+=$(printf ' %-8s' "$same/$total")
    [ "$same" -eq 12 ] && [ "$total" -eq 12 ] || failed=1
  done
  # The whole batch, byte for byte (also catches a variant missing on one side).
  if ! cmp -s "$work/$ds.js" "$work/$ds.rs"; then
    failed=1
    echo "hgrm: $ds differs; first differences (< hdr-histogram-js, > Picollo):"
    diff "$work/$ds.js" "$work/$ds.rs" | head -20
  fi
  # Against the unmodified reference: only the Max line may differ.
  identical=0 max_only=0 other=0
  for sf in 1 2 3 4 5; do
    v=${sf}_5_1_0
    if cmp -s "$work/$ds.raw.d/$v" "$work/$ds.rs.d/$v"; then
      identical=$((identical + 1))
    elif [ "$(diff "$work/$ds.raw.d/$v" "$work/$ds.rs.d/$v" | grep '^[<>]' | grep -vc '^[<>] #\[Max')" -eq 0 ]; then
      max_only=$((max_only + 1))
    else
      other=$((other + 1))
      failed=1
      echo "hgrm: $ds sf=$sf differs from unmodified hdr-histogram-js beyond the Max line:"
      diff "$work/$ds.raw.d/$v" "$work/$ds.rs.d/$v" | head -10
    fi
  done
  echo "$row identical for $identical sf, Max line only for $max_only, other: $other"
done
echo "(each cell: variants identical byte for byte, of ticks 5, 2, 1 x ratio 1, 1000 x plain, CSV)"
exit $failed
