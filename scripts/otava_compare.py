#!/usr/bin/env python3
"""Picollo's change points against Apache Otava's, on the same series.

Two sets of series:
  1. 100 runs each, drawn from real runs of this machine's sample suite
     (bench/tests/data/history-runs.json), with a step of the whole distribution (2, 5,
     10 %), a tail change (P99 +20 %, P50 and P90 unchanged) or one slow run (+30 %)
     injected at a known run, and flat ones. Picollo judges each run's P50/P90/P99
     (bench/examples/history_detect.rs); Otava (apache-otava's compute_change_points, its
     defaults: window 50, p ≤ 0.001) the one number a CI keeps per run: the run's median
     (also with min_magnitude 1 %, as a CI sets it to quiet small changes), and its P99.
  2. otava-test-data's generators (series shaped by Otava's authors): Picollo gets each
     value as its run's P50, P90 and P99.

A change found within 1 run of the true one is a hit; every other change is a false one.
Prints a table and checks only bounds that hold by far: Picollo finds the tail changes
that Otava on medians cannot see, and nearly every 5 % step.

    python3 scripts/otava_compare.py --detector target/debug/examples/history_detect \
        [--series N] [--runs bench/tests/data/history-runs-spread.json]
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

from otava.analysis import compute_change_points
import otava_test_data.generators as gen

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "bench", "tests", "data", "history-runs.json")
RUNS = 100
CASES = [
    ("flat", None),
    ("step +2 %", ("step", 1.02)),
    ("step +5 %", ("step", 1.05)),
    ("step +10 %", ("step", 1.10)),
    ("tail P99 +20 %", ("tail", 1.20)),
    ("one slow run +30 %", ("slow", 1.30)),
]


def resampled(real, case, rng):
    """A series of RUNS runs drawn from `real`'s, `case` injected; and the run it is at."""
    at = rng.randrange(15, 85)
    points = []
    for i in range(RUNS):
        reps = [list(r) for r in rng.choice(real["points"])["replicates"]]
        kind, f = case or ("flat", 1.0)
        if kind == "step" and i >= at or kind == "slow" and i == at:
            reps = [[v * f for v in r] for r in reps]
        elif kind == "tail" and i >= at:
            reps = [[r[0], r[1], r[2] * f] for r in reps]
        points.append({"commit": f"c{i}", "time": "", "replicates": reps})
    series = dict(real, points=points)
    return series, (None if case is None or case[0] == "slow" else at), at


def scalar_series(name, values):
    """A series whose runs each hold one replicate: `values[i]` at every rank."""
    points = [{"commit": f"c{i}", "time": "", "replicates": [[v, v, v]]}
              for i, v in enumerate(values)]
    return {"benchmark": name, "metric": "value", "ranks": [50.0, 90.0, 99.0], "points": points}


def picollo(detector, series):
    """Picollo's change indices for each series (one run of the detector for all)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(series, f)
    try:
        out = subprocess.run([detector, "--series", f.name], check=True,
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    return [[c["index"] for c in json.loads(line)["changes"]] for line in out.splitlines()]


def otava(values, magnitude=0.0):
    """Otava's change indices for one list of numbers, at its defaults (or keeping only
    changes of at least `magnitude`, relative, as a CI that sets min_magnitude does)."""
    cps, _ = compute_change_points(list(values), window_len=50, max_pvalue=0.001,
                                   min_magnitude=magnitude)
    return [int(c.index) for c in cps]


def tally(found, truths):
    """Hits, misses and false changes of `found` (index lists) against `truths` (lists)."""
    hits = misses = false = 0
    for idx, truth in zip(found, truths):
        matched = set()
        for t in truth:
            near = [i for i in idx if abs(i - t) <= 1 and i not in matched]
            if near:
                hits += 1
                matched.add(near[0])
            else:
                misses += 1
        false += len([i for i in idx if i not in matched])
    return hits, misses, false


def per_run(series, q):
    """Each run's figure at rank index q: its replicates' median."""
    return [statistics.median(r[q] for r in p["replicates"]) for p in series["points"]]


def real_noise(detector, n, rows, runs):
    real = json.load(open(runs))["series"]
    results = {}
    for name, case in CASES:
        rng = random.Random(f"{name}/{n}")
        made = [resampled(real[i % len(real)], case, rng) for i in range(n)]
        series = [m[0] for m in made]
        truths = [[m[1]] if m[1] is not None else [] for m in made]
        p = tally(picollo(detector, series), truths)
        o50 = tally([otava(per_run(s, 0)) for s in series], truths)
        o50m = tally([otava(per_run(s, 0), 0.01) for s in series], truths)
        o99 = tally([otava(per_run(s, 2)) for s in series], truths)
        rows.append((name, n, p, o50, o50m, o99))
        results[name] = (p, o50, o99)
        if case and case[0] == "slow":
            # Changes at the slow run itself, by either.
            at = [[m[2], m[2] + 1] for m in made]
            results["slow at"] = (
                sum(any(i in a for i in f) for f, a in zip(picollo(detector, series), at)),
                sum(any(i in a for i in otava(per_run(s, 0))) for s, a in zip(series, at)),
            )
    return results


def generated(detector, rows):
    """otava-test-data's shapes, 20 seeds each, noise sigma 2 around 100."""
    shapes = [
        ("gen: constant+noise", lambda s: gen.noise_normal(RUNS, mean=100.0, sigma=2.0, seed=s)),
        ("gen: step 100→105", lambda s: gen.step_function(RUNS, 100.0, 105.0, sigma=2.0, seed=s)),
        ("gen: regression+fix", lambda s: gen.regression_fix(
            RUNS, 100.0, 110.0, regression_start=40, regression_duration=10, sigma=2.0, seed=s)),
        ("gen: multiple changes", lambda s: gen.multiple_changes(RUNS, sigma=2.0, seed=s)),
        ("gen: outlier", lambda s: gen.outlier(RUNS, 100.0, 150.0, sigma=2.0, seed=s)),
        ("gen: banding", lambda s: gen.banding(RUNS, 100.0, 105.0, sigma=1.0, seed=s)),
        ("gen: variance 2→10", lambda s: gen.variance_change(RUNS, 100.0, 2.0, 10.0, seed=s)),
    ]
    for name, make in shapes:
        made = [make(seed) for seed in range(20)]
        # An outlier is one point, not a change; a variance change moves no level.
        truths = [[c.index for c in ts.change_points if c.change_type != "outlier"]
                  for ts in made]
        values = [[max(float(v), 1e-3) for v in ts.data] for ts in made]
        series = [scalar_series(name, v) for v in values]
        p = tally(picollo(detector, series), truths)
        o = tally([otava(v) for v in values], truths)
        om = tally([otava(v, 0.01) for v in values], truths)
        rows.append((name, 20, p, o, om, None))


def table(rows):
    print("hit / miss / false change, a hit within 1 run of the true change")
    print("| series | count | Picollo (P50, P90, P99) | Otava (median) | Otava (median, ≥ 1 %) "
          "| Otava (P99) |")
    print("|---|---:|---|---|---|---|")
    cell = lambda t: "—" if t is None else "%d / %d / %d" % t
    for name, n, *cols in rows:
        print(f"| {name} | {n} | " + " | ".join(cell(c) for c in cols) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detector", required=True, help="bench/examples/history_detect, built")
    ap.add_argument("--series", type=int, default=100, help="series per case (default 100)")
    ap.add_argument("--runs", default=FIXTURE, help="the real runs drawn from (default: "
                    "bench/tests/data/history-runs.json)")
    args = ap.parse_args()
    rows = []
    r = real_noise(args.detector, args.series, rows, args.runs)
    generated(args.detector, rows)
    table(rows)
    n = args.series
    (p_tail, o_tail, _) = r["tail P99 +20 %"]
    print(f"one slow run: a change at it (±1) by Picollo in {r['slow at'][0]} of {n} series, "
          f"by Otava on medians in {r['slow at'][1]}")
    checks = [
        (p_tail[0] > o_tail[0] + n // 2, "Picollo finds far more tail changes than Otava on medians"),
        (r["step +5 %"][0][0] >= 0.9 * n, "Picollo finds 90 % of the 5 % steps"),
        (r["flat"][0][2] <= max(3, n // 20), "Picollo's false changes on flat series are few"),
    ]
    failed = [why for ok, why in checks if not ok]
    for why in failed:
        print("FAILED:", why, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
