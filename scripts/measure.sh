#!/usr/bin/env bash
# How true the harness's verdicts are on THIS machine: the experiments the test command does
# not gate on, because their rates belong to the machine (how far apart two processes or two
# builds run), not to the code. Each prints its figures as a `bench …` line, then one line
# sums them up:
#
#   bench honesty: inproc_false=a/n apart_false=b/m procs_false=c/k builds_false=d/k
#                  detect5=e/n detect2=f/n builds_detect5=g/k suites_false=h/j suites_detect5=i/n
#
#   inproc_false    interleaved A/A in one process (Rust, bench `verdicts`): faster or slower
#   apart_false     runs in one process judged against five runs apart (a saved baseline)
#   procs_false     the CLI's gate, the same build in a new process each trial, against a
#                   baseline of runs apart saved as it goes (scripts/layouts.sh, C and Rust)
#   builds_false    6 builds of shuffled layouts a side, identical source (layouts.sh)
#   detect5/detect2 +5 % and +2 % work found slower, interleaved in one process
#   builds_detect5  +5 % found slower across 6 builds a side
#   suites_false    a suite's --against between two builds of identical source, 4 benchmarks
#                   a run (bench `suites`)
#   suites_detect5  +5 % work in one benchmark of the head build found slower (bench `suites`)
#
# It fails only when an experiment cannot run (a crash, a build error), never for a rate: the
# test command's statistical tests and their odds are in docs/testing.md. docs/benchmarks.md
# quotes these figures with the machine they came from.
#
#   MEASURE_TRIALS   comparisons per series (default 20)
#   MEASURE_BUDGET   seconds of each in-process comparison (default 1; the harness's is 5)
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${MEASURE_TRIALS:-20}
budget=${MEASURE_BUDGET:-1}
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

echo "== machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores"

echo "== in one process and apart (cargo bench -p picollo-bench --bench verdicts)"
PICOLLO_VERDICT_TRIALS=$trials PICOLLO_VERDICT_APART=$trials PICOLLO_VERDICT_BUDGET=$budget \
  cargo bench -q -p picollo-bench --bench verdicts | tee "$log/verdicts.txt"

echo "== across processes and builds (scripts/layouts.sh, LAYOUT_MEASURE=1)"
LAYOUT_MEASURE=1 LAYOUT_TRIALS=$trials bash scripts/layouts.sh | tee "$log/layouts.txt"

echo "== two builds' suites, benchmark by benchmark (cargo bench -p picollo-bench --bench suites)"
PICOLLO_SUITES_RUNS=$(( (trials * 5 + 3) / 4 )) PICOLLO_SUITES_DETECT=$trials \
  cargo bench -q -p picollo-bench --bench suites | tee "$log/suites.txt"

python3 - "$log/verdicts.txt" "$log/layouts.txt" "$log/suites.txt" <<'EOF'
import re, sys

def fields(path, prefix):
    """The key=value pairs of the lines of `path` that start with `prefix`, one dict each."""
    lines = [l for l in open(path) if l.startswith(prefix)]
    if not lines:
        sys.exit(f"measure: no '{prefix}' line in {path}")
    return [dict(re.findall(r"(\w+)=(\S+)", l)) for l in lines]

def total(rows, key):
    """a/n summed over `rows`."""
    pairs = [tuple(map(int, r[key].split("/"))) for r in rows]
    return f"{sum(a for a, _ in pairs)}/{sum(n for _, n in pairs)}"

v = fields(sys.argv[1], "bench verdicts:")[0]
lay = fields(sys.argv[2], "bench layouts")
su = fields(sys.argv[3], "bench suites:")[0]
print(f"bench honesty: inproc_false={v['aa_false']} apart_false={v['apart_false']} "
      f"procs_false={total(lay, 'apart_false')} builds_false={total(lay, 'grouped_false')} "
      f"detect5={v['detect5']} detect2={v['detect2']} builds_detect5={total(lay, 'detect5')} "
      f"suites_false={su['aa_false']} suites_detect5={su['detect5']}")
EOF
