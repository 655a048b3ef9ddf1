#!/usr/bin/env python3
"""The perf counters from Python: the session getting-started and sorted vs unsorted.

1. Fixed counters (cycles, instructions, ref-cycles), branch misses and L1D/L1I read
   misses around ``add_chain(1000)`` (256,000 dependent adds ≈ 256,000 cycles), one table
   per counter. Each counter the machine lacks is dropped with the reason; without a
   hardware PMU the session shows Software:TaskClock.
2. A branchy loop over 1,000,000 random bytes, before and after sorting them, as diff
   tables of cycles and branch misses (task-clock without a PMU).

    python3 python-demo/perf_demo.py [--rounds 2000] [--iterations 5]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import picollo  # noqa: E402
from picollo import perf  # noqa: E402

WANTED = [
    "Hardware:CpuCycles",
    "Hardware:Instructions",
    "Hardware:RefCpuCycles",
    "Hardware:BranchMisses",
    "HardwareCache:L1DReadMiss",
    "HardwareCache:L1IReadMiss",
]


def print_discovery() -> None:
    info = perf.discover()
    if info.number_of_counters:
        fixed, programmable = info.number_of_counters
        print(f"CPU PMU: fixedCounters={fixed}, programmableCounters={programmable}")
    else:
        print(f"CPU PMU: unavailable: {info}")


def open_available(names: list[str], **options) -> perf.Session:
    """A session of the counters this machine has (each missing one reported), or
    Software:TaskClock when none is left."""
    available = []
    for name in names:
        ok, reason = perf.counter_supported(name)
        if ok:
            available.append(name)
        else:
            print(f"- skipping {reason}")
    if not available:
        print("No hardware counter available: showing Software:TaskClock (nanoseconds on CPU).")
        available = ["Software:TaskClock"]
    return perf.Session(available, **options)


def getting_started(rounds: int) -> None:
    print("## Session getting-started: add_chain(1000)\n")
    # This thread, any CPU, all or nothing on the PMU, user space only.
    with open_available(WANTED, pid=0, cpu=-1, pinned=True, include_kernel=False) as s:
        for i in range(rounds):
            with s.measure(force_syscall=True):
                perf.add_chain(1_000)
            if i == rounds // 10:
                s.reset()  # drop the warm-up
        for c in s.counters:
            print(c.histogram.table(c.name))
        print(f"Derived (histogram means): {s.derived_means()}\n")


def branchy(values: bytes) -> int:
    """Taken for half of the random bytes: unpredictable until they are sorted."""
    acc = 0
    for v in values:
        if v >= 128:
            acc += 3
        else:
            acc -= 1
    return acc


def sorted_vs_unsorted(iterations: int) -> None:
    print("## Sorted vs unsorted: a branchy loop over 1,000,000 random bytes\n")
    try:
        s = perf.Session(["Hardware:CpuCycles", "Hardware:BranchMisses"])
    except picollo.UnavailableError as e:
        print(f"Hardware counters unavailable: {e.message}")
        print("Showing Software:TaskClock (nanoseconds on CPU) instead.\n")
        s = perf.Session(["Software:TaskClock"])
    rng = random.Random(0x9E3779B9)
    values = bytes(rng.getrandbits(8) for _ in range(1_000_000))
    with s:
        unsorted = []
        for data in (values, bytes(sorted(values))):
            for _ in range(iterations):
                with s.measure(force_syscall=True):
                    branchy(data)
            if not unsorted:
                unsorted = [c.histogram.summary() for c in s.counters]
                s.reset()
        for c, before in zip(s.counters, unsorted):
            print(before.diff(c.histogram.summary(), c.name, "Unsorted", "Sorted"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000,
                        help="add_chain(1000) measurements (default 2000)")
    parser.add_argument("--iterations", type=int, default=5,
                        help="passes over the bytes, sorted and unsorted (default 5)")
    args = parser.parse_args(argv)
    print_discovery()
    print()
    getting_started(max(args.rounds, 10))
    sorted_vs_unsorted(max(args.iterations, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
