#!/usr/bin/env python3
"""Checks a suite's results.json against its own figures: each benchmark named `NAME=UNIT:N`
has a throughput of N UNIT an operation whose perSecond is N over the median time per
operation that the same document reports (its time summary's P50); each named `NAME=-` has
none. A log given with --log must show each rate's line. Used by c-tests/suite.sh and
c-tests/csharp/suite.sh; standard library only.

Usage: check_throughput.py RESULTS_JSON [--log LOG] NAME=UNIT:N|NAME=- ...
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


def main(argv):
    doc = json.load(open(argv[0]))
    log = None
    if argv[1] == "--log":
        log, argv = open(argv[2]).read(), argv[:1] + argv[3:]
    results = {c["name"]: c["result"] for c in doc["commands"]}
    for arg in argv[1:]:
        name, want = arg.rsplit("=", 1)
        check(results[name], want)
        if log is not None and want != "-":
            line = [l for l in log.splitlines() if l.startswith(name + ": time P50=")]
            assert line and " at P50" in line[0], (name, line)
    print(f"check_throughput: {len(argv) - 1} benchmarks carry the rate at their reported median")


if __name__ == "__main__":
    main(sys.argv[1:])
