#!/usr/bin/env bash
# The steps of the action's mode: suite (step.sh hands them over): `suite.sh build` builds
# the base's and the head's suite, each in its own checkout and, for cargo, its own target
# folder; `suite.sh compare` runs the head's suite against the base's (--against) and sets
# the outputs step.sh's compare sets. A suite is `cargo` (a bench target of picollo-bench,
# PICOLLO_BENCH), `pytest` (tests using the plugin's benchmark fixture, PICOLLO_TESTS) or
# `command` (a built program, PICOLLO_PROGRAM, run by PICOLLO_LAUNCHER where one is given:
# `mono` for a C# assembly).
set -uo pipefail

# shellcheck source=SCRIPTDIR/common.sh
. "$(dirname "$0")/common.sh"

# side_dir ROOT: sets dir to ROOT's working directory, absolute.
side_dir() {
  [ -d "$1/$PICOLLO_WORKDIR" ] || error "working-directory" "no folder $PICOLLO_WORKDIR in $1"
  dir=$(cd "$1/$PICOLLO_WORKDIR" && pwd)
}

# python_of DIR: sets python to the interpreter running pytest in DIR: the input python,
# else DIR's .venv/bin/python (the build made one), else python3.
python_of() {
  python=$PICOLLO_PYTHON
  [ -n "$python" ] || { [ -x "$1/.venv/bin/python" ] && python="$1/.venv/bin/python"; } || python=python3
  python=$(command -v "$python") || error "python" "no interpreter '${PICOLLO_PYTHON:-python3}'"
}

# program SIDE ROOT: builds SIDE's suite in ROOT, and sets built to its program (pytest:
# its folder).
program() {
  local side=$1 root=$2 dir
  side_dir "$root"
  [ -z "$PICOLLO_BUILD" ] || build_one "$side" "$root" "$PICOLLO_BUILD"
  case "$PICOLLO_SUITE" in
    cargo)
      # One target folder a side: a shared one would let cargo find the second build
      # "Fresh" and hand back the first build's program.
      local messages="$out/cargo-$side.json" exe
      CARGO_TARGET_DIR="$RUNNER_TEMP/picollo-targets/$side" build_one "$side" "$root" \
        "cargo bench --no-run --bench '$PICOLLO_BENCH' --message-format=json-render-diagnostics >'$messages'"
      exe=$(python3 "$(dirname "$0")/cargo_bench.py" "$messages" "$PICOLLO_BENCH" 2>&1) ||
        error "bench" "the $side build: $exe"
      built=$exe
      ;;
    pytest) built=$dir ;;
    command)
      [ -f "$dir/$PICOLLO_PROGRAM" ] ||
        error "program" "the $side build made no file $PICOLLO_PROGRAM in $dir"
      built="$dir/$PICOLLO_PROGRAM"
      ;;
  esac
}

build() {
  case "$PICOLLO_SUITE" in
    cargo) [ -n "$PICOLLO_BENCH" ] || error "bench" "suite: cargo needs bench, the bench target's name" ;;
    command)
      [ -n "$PICOLLO_PROGRAM" ] || error "program" "suite: command needs program, the built program's path"
      [ -n "$PICOLLO_BUILD" ] || error "build" "suite: command needs build, the command that builds the program"
      ;;
  esac
  local base head built
  program base "$PICOLLO_BASE_DIR"
  base=$built
  program head "$GITHUB_WORKSPACE"
  head=$built
  echo "Picollo: the base's suite is $base, the head's $head"
  output base-program "$base"
  output head-program "$head"
}

# not_compared WHY: the summary (and the job's) saying why nothing was compared.
not_compared() {
  printf '### Picollo: nothing compared\n\n%s\n' "$1" >"$out/summary.md"
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
}

# outputs STATUS VERDICT SLOWER: the step's outputs, as step.sh's compare sets them.
outputs() {
  output exit-status "$1"
  output verdict "$2"
  output slower "$3"
  output summary "$out/summary.md"
  output report ""
  output document "$out/picollo.json"
  output output-dir "$out"
}

compare() {
  local base=$PICOLLO_BASE_PROGRAM head=$PICOLLO_HEAD_PROGRAM
  [ -n "$base" ] && [ -n "$head" ] || error "compare" "the build step named no programs"
  # Two builds that are one file compare the head with itself: refused.
  if [ "$(realpath "$base")" = "$(realpath "$head")" ]; then
    not_compared "The base's and the head's suites are one file, \`$head\`: both builds wrote to one place, so the head would be judged against itself."
    outputs "" error ""
    error "the same program" "the base's and the head's suites are one file ($head): the two builds wrote to one place"
  fi
  if [ -f "$base" ] && cmp -s "$base" "$head"; then
    not_compared "The base's and the head's suites are byte-identical programs (\`$(basename "$head")\`): the change does not touch the suite's code, and an A/A run would judge nothing of it."
    echo "::warning title=Picollo: identical builds::the base's and the head's suites are byte-identical ($base, $head): nothing was compared"
    outputs 0 identical ""
    return 0
  fi
  local args=(--threshold "$PICOLLO_THRESHOLD" --export "picollo=$out/picollo.json" --summary "$out/summary.md")
  local format extra launcher
  for format in $PICOLLO_EXPORTS; do
    args+=(--export "$format=$out/$format.json")
  done
  [ -z "$PICOLLO_METRIC" ] || args+=(--metric "$PICOLLO_METRIC")
  read -ra extra <<<"$PICOLLO_ARGS"
  args+=("${extra[@]}")
  local run
  case "$PICOLLO_SUITE" in
    cargo) run=("$head" --bench --against "$base" --out "$out/suite" "${args[@]}") ;;
    command)
      read -ra launcher <<<"$PICOLLO_LAUNCHER"
      run=("${launcher[@]}" "$head" --bench --against "$base" --out "$out/suite" "${args[@]}")
      ;;
    pytest)
      local tests base_python head_python python
      read -ra tests <<<"$PICOLLO_TESTS"
      python_of "$base"
      base_python=$python
      python_of "$head"
      head_python=$python
      [ "$base_python" != "$head_python" ] || echo "Picollo: both sides run $head_python: code installed into it (not imported from each checkout) is the same on both sides"
      run=("$head_python" -m pytest -p picollo.pytest_plugin "${tests[@]}" "--picollo-against=$base"
        "--picollo-against-python=$base_python" "--picollo-args=$(printf '%q ' "${args[@]}")")
      ;;
  esac
  echo "Picollo: ${run[*]}"
  local status=0 dir
  side_dir "$GITHUB_WORKSPACE"
  (cd "$dir" && "${run[@]}") 2>"$out/stderr.txt" | tee "$out/report.txt" ||
    status=${PIPESTATUS[0]}
  cat "$out/stderr.txt" >&2
  case $status in
    0 | 7) ;;
    8) echo "::error title=Picollo: not settled::a comparison reached its budget unsettled, and --unsettled fail fails it (its line says the change it could have seen)" ;;
    *)
      [ -s "$out/summary.md" ] || not_compared "The suite exited with status $status: $(tail -n 1 "$out/stderr.txt")"
      summary_block "Picollo: the suite failed (exit $status)" "$out/stderr.txt"
      ;;
  esac
  local outcome
  outcome="$(python3 "$(dirname "$0")/outcome.py" --suite "$out/picollo.json")" ||
    error "compare" "the document $out/picollo.json could not be read"
  outputs "$status" "$(head -n 1 <<<"$outcome")" "$(tail -n +2 <<<"$outcome")"
}

case "${1:-}" in
  build | compare) "$1" ;;
  *) echo "usage: suite.sh build|compare" >&2; exit 2 ;;
esac
