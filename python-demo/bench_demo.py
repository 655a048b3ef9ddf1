"""The benchmark harness from Python: one pass of a branchy loop over random bytes, before
and after sorting them, compared by `picollo.bench.compare_fns` in interleaved rounds.

    python bench_demo.py           # 1 s warm-up and up to 5 s of samples
    python bench_demo.py --quick   # short budgets (the demo, the tests)
    python bench_demo.py --html out/bench.html   # also the comparison as an HTML page

An empty function is measured first with the same settings and its medians are subtracted
from both sides (Python's call overhead), so the figures are the loop's own. Counters are the library's
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
    ap.add_argument("--html", metavar="FILE", help="write the comparison's HTML page to FILE")
    args = ap.parse_args()
    budget = dict(warmup=0.2, time_budget=0.5) if args.quick else dict(warmup=1.0, time_budget=5.0)

    rng = random.Random(1)
    data = [rng.randrange(256) for _ in range(SIZE)]
    ordered = sorted(data)
    c = bench.compare_fns(lambda: branchy(data), lambda: branchy(ordered),
                          name_a="unsorted", name_b="sorted", **budget)
    with c.a as a, c.b as b:
        print(a.table())
        print(b.table())
        print(c)
        print(f"sorted: {c.verdict}; its time is {c.ratio:.2f}x unsorted's "
              f"[{1 + c.interval[0] / 100:.2f}, {1 + c.interval[1] / 100:.2f}] over "
              f"{c.rounds[0]} interleaved rounds ({b.percentile('time', 50):,.1f} ns against "
              f"{a.percentile('time', 50):,.1f} ns at the median)")
        if args.html:
            c.write_html(args.html)
            print(f"the comparison's page: {args.html}")


if __name__ == "__main__":
    main()
