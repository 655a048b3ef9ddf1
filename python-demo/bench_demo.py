"""The benchmark harness from Python: one pass of a branchy loop over random bytes, before
and after sorting them, measured by `picollo.bench` and compared.

    python bench_demo.py           # 1 s warm-up and up to 5 s of samples per run
    python bench_demo.py --quick   # short budgets (the demo, the tests)

Each run first measures an empty function with the same settings and subtracts its medians
(Python's call overhead), so the figures are the loop's own. Counters are the library's
default set: hardware ones where the PMU allows, else task-clock, page faults and context
switches (the report says which, and why).
"""

from __future__ import annotations

import argparse
import random

from picollo import bench

SIZE = 2_000


def branchy(data: list[int]) -> int:
    """Sum of the bytes of at least 128: one data-dependent branch per byte."""
    total = 0
    for v in data:
        if v >= 128:
            total += v
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="short warm-up and time budget")
    args = ap.parse_args()
    budget = dict(warmup=0.2, time_budget=0.5) if args.quick else dict(warmup=1.0, time_budget=5.0)

    rng = random.Random(1)
    data = [rng.randrange(256) for _ in range(SIZE)]
    ordered = sorted(data)
    with bench.run(lambda: branchy(data), name="unsorted", **budget) as a, \
            bench.run(lambda: branchy(ordered), name="sorted", **budget) as b:
        print(a.table())
        print(b.table())
        c = bench.compare(a, b)
        print(c)
        print(f"sorted: {c.verdict}; its median time is {c.ratio:.2f}x unsorted's "
              f"({b.percentile('time', 50):,.1f} ns against {a.percentile('time', 50):,.1f} ns)")


if __name__ == "__main__":
    main()
