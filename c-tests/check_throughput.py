#!/usr/bin/env python3
"""Checks a suite's results.json against its own figures: each benchmark named `NAME=UNIT:N`
has a throughput of N UNIT an operation whose perSecond is N over the median time per
operation that the same document reports (its time summary's P50); each named `NAME=-` has
none. A log given with --log must show each rate's line. With --baseline SAVED (the
baseline file a --save wrote, RESULTS_JSON a --baseline run's), each benchmark's saved result
carries its throughput too, and its comparison carries both sides' rates: the saved result's
perSecond and this run's (the log's line below the verdict shows both). Used by
c-tests/suite.sh and c-tests/csharp/suite.sh; standard library only.

Usage: check_throughput.py RESULTS_JSON [--baseline SAVED] [--log LOG] NAME=UNIT:N|NAME=- ...
"""

import json
import sys


def median_ns(result):
    """The P50 of time per operation, in ns, as the document reports it."""
    time = result["metrics"][0]
    assert time["name"] == "time", time["name"]
    (p50,) = [p for p in time["summary"]["percentiles"] if p["rank"] == 50]
    return p50["value"] / result["scale"]


def check(result, want):
    t = result["throughput"]
    if want == "-":
        assert t is None, (result["name"], t)
        return
    unit, n = want.split(":")
    assert (t["unit"], t["perOperation"]) == (unit, int(n)), (result["name"], t)
    expected = int(n) / (median_ns(result) * 1e-9)
    assert abs(t["perSecond"] / expected - 1) < 1e-12, (result["name"], t, expected)


def check_compared(doc, saved, name, log):
    """The comparison of `name` against its saved result carries the saved rate and this
    run's, as each result reports it; the log shows them below the verdict."""
    (c,) = [c for c in doc["comparisons"] if c["b"] == name]
    (head,) = [r["result"] for r in doc["commands"] if r["name"] == name]
    t = c["throughput"]
    assert c["throughputDiffers"] is None, c
    assert t["unit"] == saved["throughput"]["unit"], (t, saved["throughput"])
    assert (t["a"], t["b"]) == (saved["throughput"]["perSecond"], head["throughput"]["perSecond"]), t
    if log is not None:
        assert f"\n  throughput at P50: {c['a']} " in log, (name, log)


def main(argv):
    doc, argv = json.load(open(argv[0])), argv[1:]
    log = baseline = None
    while argv[0] in ("--log", "--baseline"):
        text = open(argv[1]).read()
        if argv[0] == "--log":
            log = text
        else:
            baseline = {c["name"]: c["result"] for c in json.loads(text)["commands"]}
        argv = argv[2:]
    results = {c["name"]: c["result"] for c in doc["commands"]}
    for arg in argv:
        name, want = arg.rsplit("=", 1)
        check(results[name], want)
        if baseline is not None:
            check(baseline[name], want)
            if want != "-":
                check_compared(doc, baseline[name], name, log)
        if log is not None and want != "-":
            line = [l for l in log.splitlines() if l.startswith(name + ": time P50=")]
            assert line and " at P50" in line[0], (name, line)
    print(f"check_throughput: {len(argv)} benchmarks carry the rate at their reported median")


if __name__ == "__main__":
    main(sys.argv[1:])
