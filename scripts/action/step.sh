#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml), one function each: `step.sh install`,
# `checkout`, `build`, `compare`, `gate`, `cli-key`, `comment`, `history` (mode: suite's own steps are
# suite.sh's). Each reads its inputs from PICOLLO_* variables (action.yml's `env:`) and the
# Actions environment (GITHUB_WORKSPACE, GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY), and writes what the next steps need to GITHUB_OUTPUT. Every file goes
# under $RUNNER_TEMP/picollo, the artifact's folder.
set -uo pipefail

# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"

# install: checks the mode and `emulate`, installs QEMU's user mode where `emulate` asks for
# it, and takes picollo from the `picollo` input, else from the cache (actions/cache restored
# $RUNNER_TEMP/picollo-cli under cli-key's key), else builds it with cargo from the action's
# checkout. mode: suite runs each suite's own runner and needs no picollo.
install() {
  case "$PICOLLO_MODE" in
    commands) ;;
    suite)
      case "$PICOLLO_SUITE" in
        cargo | pytest | command) ;;
        *) error "suite" "mode: suite needs suite: cargo, pytest or command (not '$PICOLLO_SUITE')" ;;
      esac
      ;;
    *) error "mode" "mode: '$PICOLLO_MODE' is not a mode (commands or suite)" ;;
  esac
  case "$PICOLLO_EMULATE" in
    "" | instructions | memory | l1d) ;;
    *) error "emulate" "emulate: '$PICOLLO_EMULATE' is not one of instructions, memory, l1d (or empty)" ;;
  esac
  rm -rf "$out" && mkdir -p "$out" || error "install" "cannot make $out"
  if [ "$PICOLLO_MODE" = suite ]; then
    [ -z "$PICOLLO_EMULATE" ] || error "emulate" "emulate is for mode: commands (a suite runs natively)"
    echo "Picollo: mode: suite runs the head's suite against the base's; no picollo CLI is needed"
    # history-branch with mode: suite adds runs with the picollo given, where one is.
    output picollo "$PICOLLO_BIN"
    return 0
  fi
  if [ -n "$PICOLLO_EMULATE" ] && ! command -v "qemu-$(uname -m)" >/dev/null; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get -qq update && $sudo apt-get -qq install -y --no-install-recommends qemu-user ||
      error "install" "emulate needs QEMU's user mode (Debian's qemu-user), which apt-get could not install"
  fi
  local cli=$PICOLLO_BIN root="$RUNNER_TEMP/picollo-cli"
  if [ -z "$cli" ]; then
    cli="$root/bin/picollo"
    if [ -x "$cli" ] && [ "$(cat "$root/key" 2>/dev/null)" = "$PICOLLO_CLI_KEY" ]; then
      echo "Picollo: picollo from the cache ($PICOLLO_CLI_KEY)"
    else
      command -v cargo >/dev/null || error "install" "cargo is needed to build picollo (or give the input picollo)"
      CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$GITHUB_ACTION_PATH/target}" \
        cargo install --quiet --locked --force --path "$GITHUB_ACTION_PATH/cli" --root "$root" ||
        error "install" "cargo install of picollo failed (see the lines above)"
      printf '%s\n' "$PICOLLO_CLI_KEY" >"$root/key"
    fi
  fi
  [ -x "$cli" ] || error "install" "picollo: '$cli' is not an executable file"
  "$cli" --version
  output picollo "$cli"
}

# cli-key: the cache key of picollo's build: the system, the machine, and a hash of every
# source file the CLI is built from, so that another revision of Picollo is built anew.
cli-key() {
  local hash
  hash=$(cd "$GITHUB_ACTION_PATH" &&
    find Cargo.toml Cargo.lock cli core perf bench -name target -prune -o -type f -print |
    LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16) || error "install" "cannot hash the action's sources"
  output key "picollo-cli-$(uname -s)-$(uname -m)-$hash"
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

# build: each revision built with the build command (mode: suite: suite.sh build).
build() {
  [ "$PICOLLO_MODE" = suite ] && exec bash "$(dirname "$0")/suite.sh" build
  [ -n "$PICOLLO_BUILD" ] || error "build" "mode: commands needs the input build"
  build_one base "$PICOLLO_BASE_DIR" "$PICOLLO_BUILD"
  build_one head "$GITHUB_WORKSPACE" "$PICOLLO_BUILD"
}

# compare: picollo bench --gate of the base's command and the head's, interleaved, with the
# summary, the report, the exports and the document; its status and verdicts as outputs
# (mode: suite: suite.sh compare).
compare() {
  [ "$PICOLLO_MODE" = suite ] && exec bash "$(dirname "$0")/suite.sh" compare
  [ -n "$PICOLLO_RUN" ] || error "run" "mode: commands needs the input run"
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

# comment: the summary as the pull request's sticky comment (scripts/action/comment.py), its
# body written to comment.md either way.
comment() {
  [ "$PICOLLO_COMMENT" = true ] || { echo "Picollo: comment: false, no comment"; return 0; }
  local body="$out/comment.md"
  python3 "$GITHUB_ACTION_PATH/scripts/action/comment.py" "$out/summary.md" "$body" \
    "<!-- picollo-$PICOLLO_MODE: $PICOLLO_NAME -->"
  [ -f "$body" ] && output comment "$body"
  return 0
}

# history: on a push, the head's figures of the document added to the store kept on the
# branch history-branch (picollo history add --heads, docs/history.md), in a worktree of the
# checkout (its credentials), committed and pushed. Each run is a file of its own, so a push
# refused because another job pushed first is fetched, rebased without a conflict and
# pushed again.
history() {
  [ "${GITHUB_EVENT_NAME:-}" = push ] || { echo "Picollo: history: not a push (${GITHUB_EVENT_NAME:-no event}), nothing added"; return 0; }
  [ -n "$PICOLLO_CLI" ] || error "history" "history-branch needs picollo: mode commands, or the input picollo with mode suite"
  [ -f "$PICOLLO_DOCUMENT" ] || error "history" "no document to add: $PICOLLO_DOCUMENT"
  local branch=$PICOLLO_HISTORY_BRANCH dir="$RUNNER_TEMP/picollo-history" ws=$GITHUB_WORKSPACE
  local machine=${PICOLLO_HISTORY_MACHINE:-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}}
  local commit
  commit="$(git -C "$ws" rev-parse HEAD)" || error "history" "the checkout is not a git repository"
  git -C "$ws" worktree remove --force "$dir" 2>/dev/null; rm -rf "$dir"
  if git -C "$ws" fetch -q origin "+refs/heads/$branch:refs/picollo/history" 2>/dev/null; then
    git -C "$ws" worktree add -q --detach "$dir" refs/picollo/history || error "history" "cannot check $branch out"
  else
    echo "Picollo: history: no branch $branch yet, making it"
    git -C "$ws" worktree add -q --detach "$dir" HEAD && git -C "$dir" checkout -q --orphan "picollo-history-$$" &&
      git -C "$dir" rm -rfq --ignore-unmatch . || error "history" "cannot make the branch $branch"
  fi
  "$PICOLLO_CLI" history add --store "$dir" --git "$ws" --commit "$commit" --machine "$machine" \
    --branch "${GITHUB_REF_NAME:-main}" --heads "$PICOLLO_DOCUMENT" || error "history" "picollo history add failed"
  git -C "$dir" add -A && git -C "$dir" -c user.name=picollo -c user.email=picollo@users.noreply.github.com \
    commit -qm "picollo history: ${commit:0:12} on $machine" || error "history" "cannot commit the run"
  local try
  for try in 1 2 3 4 5; do
    if git -C "$dir" push -q origin "HEAD:refs/heads/$branch"; then
      echo "Picollo: history: added to $branch"
      git -C "$ws" worktree remove --force "$dir"
      return 0
    fi
    echo "Picollo: history: push $try refused, fetching $branch and rebasing"
    git -C "$dir" fetch -q origin "$branch" && git -C "$dir" rebase -q FETCH_HEAD || error "history" "cannot rebase on $branch"
    sleep "$try"
  done
  error "history" "the push to $branch was refused 5 times"
}

case "${1:-}" in
  install | checkout | build | compare | gate | cli-key | comment | history) "$1" ;;
  *) echo "usage: step.sh install|checkout|build|compare|gate|cli-key|comment|history" >&2; exit 2 ;;
esac
