#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml), one function each: `step.sh install`,
# `checkout`, `build`, `compare`, `gate`. Each reads its inputs from PICOLLO_* variables
# (action.yml's `env:`) and the Actions environment (GITHUB_WORKSPACE, GITHUB_ACTION_PATH,
# RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), and writes what the next steps need to
# GITHUB_OUTPUT. Every file goes under $RUNNER_TEMP/picollo, the artifact's folder.
set -uo pipefail

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

# install: checks the mode and `emulate`, installs QEMU's user mode where `emulate` asks for
# it, and builds picollo from the action's checkout (unless `picollo` names one).
install() {
  case "$PICOLLO_MODE" in
    commands) ;;
    suite) error "mode" "mode: suite (each build's suite run against the other's, --against) is not available yet; use mode: commands" ;;
    *) error "mode" "mode: '$PICOLLO_MODE' is not a mode (commands; suite is coming)" ;;
  esac
  case "$PICOLLO_EMULATE" in
    "" | instructions | memory | l1d) ;;
    *) error "emulate" "emulate: '$PICOLLO_EMULATE' is not one of instructions, memory, l1d (or empty)" ;;
  esac
  rm -rf "$out" && mkdir -p "$out" || error "install" "cannot make $out"
  if [ -n "$PICOLLO_EMULATE" ] && ! command -v "qemu-$(uname -m)" >/dev/null; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get -qq update && $sudo apt-get -qq install -y --no-install-recommends qemu-user ||
      error "install" "emulate needs QEMU's user mode (Debian's qemu-user), which apt-get could not install"
  fi
  local cli=$PICOLLO_BIN
  if [ -z "$cli" ]; then
    command -v cargo >/dev/null || error "install" "cargo is needed to build picollo (or give the input picollo)"
    cli="$RUNNER_TEMP/picollo-cli/bin/picollo"
    CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$GITHUB_ACTION_PATH/target}" \
      cargo install --quiet --locked --path "$GITHUB_ACTION_PATH/cli" --root "$RUNNER_TEMP/picollo-cli" ||
      error "install" "cargo install of picollo failed (see the lines above)"
  fi
  [ -x "$cli" ] || error "install" "picollo: '$cli' is not an executable file"
  "$cli" --version
  output picollo "$cli"
}

# checkout: the base revision in a worktree of its own, fetched where the checkout lacks it.
checkout() {
  local ref=$PICOLLO_BASE_REF
  [ -n "$ref" ] || ref="${GITHUB_BASE_REF:+origin/$GITHUB_BASE_REF}"
  [ -n "$ref" ] || error "base-ref" "no base-ref given, and this is no pull request (GITHUB_BASE_REF is empty)"
  cd "$GITHUB_WORKSPACE" || error "checkout" "no workspace $GITHUB_WORKSPACE"
  local commit
  if ! commit=$(git rev-parse --verify -q "$ref^{commit}"); then
    git fetch --quiet --no-tags origin "${ref#origin/}" &&
      commit=$(git rev-parse --verify -q "FETCH_HEAD^{commit}") ||
      error "base-ref" "base-ref: '$ref' is not a revision of this repository, nor one origin has"
  fi
  local dir="$RUNNER_TEMP/picollo-base"
  git worktree remove --force "$dir" 2>/dev/null
  rm -rf "$dir"
  git worktree prune
  git worktree add --quiet --detach "$dir" "$commit" || error "checkout" "git worktree add of $ref failed"
  [ ! -f "$dir/.gitmodules" ] || git -C "$dir" submodule update --quiet --init --recursive ||
    error "checkout" "the base's submodules could not be checked out"
  echo "Picollo: the base is $ref ($commit), in $dir"
  output dir "$dir"
  output commit "$commit"
}

# build_one SIDE ROOT: the build command in ROOT's working directory, its output in
# build-SIDE.log (shown folded); a failure shows its last lines and fails the step.
build_one() {
  local side=$1 dir="$2/$PICOLLO_WORKDIR" log="$out/build-$1.log" status=0
  [ -d "$dir" ] || error "$side build" "working-directory: no folder $PICOLLO_WORKDIR in the $side revision"
  (cd "$dir" && bash -eo pipefail -c "$PICOLLO_BUILD") >"$log" 2>&1 || status=$?
  echo "::group::Picollo: the $side build (exit $status)"
  cat "$log"
  echo "::endgroup::"
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$log" >&2
    summary_block "Picollo: the $side build failed (exit $status)" "$log"
    error "the $side build failed" "exit $status: $(tail -n 1 "$log")"
  fi
}

build() {
  build_one base "$PICOLLO_BASE_DIR"
  build_one head "$GITHUB_WORKSPACE"
}

# compare: picollo bench --gate of the base's command and the head's, interleaved, with the
# summary, the report, the exports and the document; its status and verdicts as outputs.
compare() {
  local base head
  base="$(cd "$PICOLLO_BASE_DIR/$PICOLLO_WORKDIR" && pwd)" &&
    head="$(cd "$GITHUB_WORKSPACE/$PICOLLO_WORKDIR" && pwd)" || error "compare" "a working directory is missing"
  local args=(bench --gate -r "$PICOLLO_RUNS" --threshold "$PICOLLO_THRESHOLD"
    -n "$PICOLLO_NAME (base)" -n "$PICOLLO_NAME"
    --summary "$out/summary.md" --html "$out/report.html" --export "picollo=$out/picollo.json")
  local format extra
  for format in $PICOLLO_EXPORTS; do
    args+=(--export "$format=$out/$format.json")
  done
  [ -z "$PICOLLO_METRIC" ] || args+=(--metric "$PICOLLO_METRIC")
  [ -z "$PICOLLO_EMULATE" ] || args+=("--emulate=$PICOLLO_EMULATE")
  read -ra extra <<<"$PICOLLO_ARGS"
  args+=("${extra[@]}" "${PICOLLO_RUN//\{dir\}/$base}" "${PICOLLO_RUN//\{dir\}/$head}")
  local status=0
  "$PICOLLO_CLI" "${args[@]}" 2>"$out/stderr.txt" | tee "$out/report.txt" || status=${PIPESTATUS[0]}
  cat "$out/stderr.txt" >&2
  case $status in
    0 | 7) ;;
    *) summary_block "Picollo: picollo bench failed (exit $status)" "$out/stderr.txt" ;;
  esac
  local outcome
  outcome="$(python3 "$GITHUB_ACTION_PATH/scripts/action/outcome.py" "$out/picollo.json")" ||
    error "compare" "the document $out/picollo.json could not be read"
  output exit-status "$status"
  output verdict "$(head -n 1 <<<"$outcome")"
  output slower "$(tail -n +2 <<<"$outcome")"
  output summary "$out/summary.md"
  output report "$out/report.html"
  output document "$out/picollo.json"
  output output-dir "$out"
}

# gate: passes on 0; fails on 7 (slower, unless fail-on-slower is false) and on any other
# status of picollo bench.
gate() {
  case "$PICOLLO_STATUS" in
    0) echo "Picollo: the gate passes" ;;
    7)
      local names="${PICOLLO_SLOWER//$'\n'/, }"
      [ "$PICOLLO_FAIL_ON_SLOWER" = false ] && { echo "::warning title=Picollo: slower::$names"; return 0; }
      echo "::error title=Picollo: slower::$names: slower than the base by the threshold or more"
      exit 7
      ;;
    "") error "gate" "picollo bench did not run" ;;
    *)
      echo "::error title=Picollo: picollo bench failed::exit $PICOLLO_STATUS (docs/ci.md lists the statuses; its message is above)"
      exit "$PICOLLO_STATUS"
      ;;
  esac
}

case "${1:-}" in
  install | checkout | build | compare | gate) "$1" ;;
  *) echo "usage: step.sh install|checkout|build|compare|gate" >&2; exit 2 ;;
esac
