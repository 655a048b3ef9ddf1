#!/usr/bin/env bash
# What every step of the action shares (sourced by step.sh and suite.sh): the artifact's
# folder, annotations, step outputs and blocks of the job summary.

out="$RUNNER_TEMP/picollo"

# error TITLE TEXT: an error annotation on the run's page, and the step fails.
error() {
  echo "::error title=Picollo: $1::$2"
  exit 1
}

# output NAME VALUE: a step output (VALUE may hold several lines).
output() {
  printf '%s<<PICOLLO_EOF\n%s\nPICOLLO_EOF\n' "$1" "$2" >>"$GITHUB_OUTPUT"
}

# summary_block TITLE FILE: TITLE and FILE's last 30 lines as a block of the job summary.
summary_block() {
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] || return 0
  { printf '### %s\n\n```text\n' "$1"; tail -n 30 "$2"; printf '```\n\n'; } >>"$GITHUB_STEP_SUMMARY"
}

# build_one SIDE ROOT SCRIPT: SCRIPT run by bash in ROOT's working directory, its output
# added to build-SIDE.log (shown folded); a failure shows its last lines and fails the step.
build_one() {
  local side=$1 dir="$2/$PICOLLO_WORKDIR" log="$out/build-$1.log" status=0
  [ -d "$dir" ] || error "$side build" "working-directory: no folder $PICOLLO_WORKDIR in the $side revision"
  (cd "$dir" && bash -eo pipefail -c "$3") >>"$log" 2>&1 || status=$?
  echo "::group::Picollo: the $side build (exit $status)"
  cat "$log"
  echo "::endgroup::"
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$log" >&2
    summary_block "Picollo: the $side build failed (exit $status)" "$log"
    error "the $side build failed" "exit $status: $(tail -n 1 "$log")"
  fi
}
