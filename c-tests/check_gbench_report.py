#!/usr/bin/env python3
"""Checks what picollo_benchmark.hpp adds to Google Benchmark's JSON and to the runner's
lines for gbench_sample.cpp's BM_counters, BM_linear, BM_linear_auto, BM_setup,
BM_manual_time (and, where given, an instance of Iterations(7)): each user counter's figure as its flags make it against
the record's own time and the batch the log names, the aggregates of the counters over the
rounds, the label, the _BigO and _RMS records of each Complexity fit against a least-squares
fit computed here from the same medians, a Setup left out of the time, the time a benchmark
of UseManualTime tells, and a batch of 7.
Used by c-tests/gbench.sh; standard library only.

Usage: check_gbench_report.py JSON LOG [ITERATIONS_NAME]
"""

import json
import math
import re
import statistics
import sys

SUFFIXES = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 1024, "Mi": 1024**2,
            "m": 1e-3, "u": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15}


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def number(text):
    """A figure as the log prints it: %g, then a suffix of 1000s or 1024s."""
    m = re.fullmatch(r"([-+0-9.e]+)([kMGT]i?|[munpf]|)(/s|s|)", text)
    assert m, text
    return float(m.group(1)) * SUFFIXES[m.group(2)]


def batch_and_line(log):
    m = re.search(r"^BM_counters: counters at ([0-9.e+-]+) ns an iteration \(the rounds' median\) "
                  r"and batch ([0-9]+): (.*)$", log, re.M)
    assert m, log
    figures = dict(f.split("=", 1) for f in m.group(3).split())
    return float(m.group(1)), int(m.group(2)), figures


def check_counters(doc, log):
    ns, k, printed = batch_and_line(log)
    runs = [b for b in doc["benchmarks"] if b["run_name"] == "BM_counters"]
    rounds = [b for b in runs if b["run_type"] == "iteration"]
    assert rounds, runs
    for b in rounds:
        seconds = k * b["real_time"] * 1e-9
        assert close(b["items"], 8 * k / seconds, 1e-12), (b, k)
        assert close(b["seconds_per_item"], seconds / (8 * k), 1e-12), b
        assert (b["per_iteration"], b["invariant"], b["bytes"], b["plain"]) == (3, 2 * k, 4096, 5), b
        assert b["label"] == "eight items an iteration", b
    for b in runs:
        if b["run_type"] == "aggregate" and b["aggregate_name"] in ("mean", "median"):
            over = getattr(statistics, b["aggregate_name"])([r["items"] for r in rounds])
            assert close(b["items"], over, 1e-12), (b, over)
    # The log's figures: at the median of the rounds' times, printed to 6 digits.
    assert close(ns, statistics.median(r["real_time"] for r in rounds), 1e-5), ns
    assert close(number(printed["items"]), 8 / (ns * 1e-9), 2e-5), printed
    assert printed["bytes"] == "4Ki" and printed["per_iteration"] == "3", printed
    assert close(number(printed["invariant"]), 2 * k, 1e-5), printed
    assert printed["items"].endswith("/s") and printed["seconds_per_item"].endswith("s"), printed
    assert close(number(printed["seconds_per_item"]), ns * 1e-9 / 8, 2e-5), printed
    assert "BM_counters: label: eight items an iteration" in log
    print(f"gbench: counters of BM_counters at {ns} ns an iteration, batch {k}: items "
          f"{printed['items']}, as 8 over the time")


def curve(name, n):
    return {"(1)": 1.0, "N": n, "N^2": n * n, "N^3": n**3, "lgN": math.log2(n),
            "NlgN": n * math.log2(n)}[name]


def fit(name, points):
    """Least squares of time = c * curve(N); the RMS of the rest over the mean time."""
    c = sum(t * curve(name, n) for n, t in points) / sum(curve(name, n) ** 2 for n, _ in points)
    rest = sum((t - c * curve(name, n)) ** 2 for n, t in points) / len(points)
    return c, math.sqrt(rest) / (sum(t for _, t in points) / len(points))


def medians(doc, family):
    """(N, the rounds' median time) of each instance FAMILY/N, from its rounds."""
    times = {}
    for b in doc["benchmarks"]:
        m = re.fullmatch(re.escape(family) + r"/([0-9]+)", b["run_name"])
        if m and b["run_type"] == "iteration":
            times.setdefault(int(m.group(1)), []).append(b["real_time"])
    return [(n, statistics.median(t)) for n, t in sorted(times.items())]


def check_fit(doc, log, family, want):
    points = medians(doc, family)
    assert len(points) == 4, points
    names = [b["name"] for b in doc["benchmarks"]]
    at = names.index(family + "_BigO")
    big_o, rms = doc["benchmarks"][at], doc["benchmarks"][at + 1]
    # After the family's last record, as Google Benchmark places them.
    assert not any(n.startswith(family + "/") for n in names[at:]), names
    if want is None:  # oAuto: the least RMS, (1) unless another is strictly below
        order = ["(1)", "lgN", "N", "NlgN", "N^2", "N^3"]
        want = min(order, key=lambda c: (fit(c, points)[1], order.index(c)))
    c, r = fit(want, points)
    assert big_o["big_o"] == want and big_o["aggregate_name"] == "BigO", (big_o, want)
    assert close(big_o["real_coefficient"], c, 1e-9), (big_o, c)
    assert rms["name"] == family + "_RMS" and close(rms["rms"], r, 1e-9), (rms, r)
    line = f"{family}_BigO: "
    assert any(x.startswith(line) and x.split()[2] == want for x in log.splitlines()), log
    print(f"gbench: {family}: {c:.4g} {want}, RMS {100 * r:.0f} % over {len(points)} medians")


def check_iterations(doc, log, name):
    """Iterations(7): the body was given batches of 7, the runner's line says batch 7."""
    runs = [b for b in doc["benchmarks"] if b["run_name"] == name and b["run_type"] == "iteration"]
    assert runs and all(b["iterations"] % 7 == 0 and b["max_iterations"] == 7 for b in runs), runs
    assert re.search("^" + re.escape(name) + r": time P50=.*; batch 7, ", log, re.M), log


def check_setup(doc):
    """BM_setup's Setup spins 1 ms a batch, paused: its median is far below it (fails for
    correct code only if a sum of 16 ints took 100 us)."""
    times = [b["real_time"] for b in doc["benchmarks"]
             if b["run_name"] == "BM_setup" and b["run_type"] == "iteration"]
    assert times and statistics.median(times) < 1e5, times
    print(f"gbench: BM_setup, whose Setup spins 1 ms paused: {statistics.median(times):.1f} ns")


def check_manual(doc):
    """UseManualTime: each iteration told 1 us, so every round's time is 1000 ns (within the
    histogram's relative error)."""
    times = [b["real_time"] for b in doc["benchmarks"]
             if b["run_name"] == "BM_manual_time/manual_time" and b["run_type"] == "iteration"]
    assert times and all(close(t, 1000.0, 1e-3) for t in times), times
    print(f"gbench: BM_manual_time, 1 us told an iteration: {statistics.median(times)} ns")


def main():
    doc = json.load(open(sys.argv[1]))
    log = open(sys.argv[2]).read()
    check_counters(doc, log)
    check_fit(doc, log, "BM_linear", "N")
    check_fit(doc, log, "BM_linear_auto", None)
    check_setup(doc)
    check_manual(doc)
    if len(sys.argv) > 3:
        check_iterations(doc, log, sys.argv[3])


if __name__ == "__main__":
    main()
