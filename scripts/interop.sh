#!/usr/bin/env bash
# Interop checks: Picollo's output against other implementations of the same formats. Each
# check is a script in interop/checks/ listed in CHECKS below, run from the repository
# root under its own header; the stage fails if any check fails. Assumes scripts/setup.sh
# ran (node and npm); installs interop/js's pinned packages when they are missing.
set -uo pipefail
cd "$(dirname "$0")/.."

CHECKS=(
  hgrm # .hgrm percentile distribution vs hdr-histogram-js (byte for byte)
)

. scripts/needs.sh
needs node || exit 1
if [ ! -d interop/js/node_modules ]; then
  echo "interop: installing interop/js packages (npm ci)"
  (cd interop/js && npm ci --silent --no-audit --no-fund) || exit 1
fi

failures=()
for check in "${CHECKS[@]}"; do
  echo
  echo "--- interop check: $check (interop/checks/$check.sh)"
  start=$SECONDS
  if bash "interop/checks/$check.sh"; then
    echo "--- interop check: $check: ok ($((SECONDS - start)) s)"
  else
    failures+=("$check")
    echo "--- interop check: $check: FAILED ($((SECONDS - start)) s)"
  fi
done

echo
if [ ${#failures[@]} -ne 0 ]; then
  echo "interop: failed checks: ${failures[*]}"
  exit 1
fi
echo "interop: all ${#CHECKS[@]} checks passed"
