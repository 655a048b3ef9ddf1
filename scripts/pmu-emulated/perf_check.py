"""The Python binding over the perf paths of an arm64 guest with an emulated PMU that counts
exactly (scripts/pmu-emulated.sh runs it there; it needs a PMU and fails without one):
discovery, a session of instructions, cycles and a raw event read through the page (mrs)
and through read(2), the known instruction count of a chain, and the histograms."""

from __future__ import annotations

import sys

from picollo import perf

CHAIN_BLOCKS = 100_000
# 256 adds and the loop's two instructions per block
# (picollo_perf::time::ADD_CHAIN_BLOCK_INSTRUCTIONS).
TRUTH = 258 * CHAIN_BLOCKS
# The instructions of the binding's own calls between two reads fit in this share.
BOUND = 0.01
failures = []


def check(ok: bool, what: str) -> None:
    print(f"python-perf: {'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)


def chain_deltas(s: perf.Session, force_syscall: bool) -> tuple[str, list[int]]:
    """The read path and each counter's raw delta around one chain."""
    s.read(force_syscall)
    perf.add_chain(CHAIN_BLOCKS)
    path = s.read(force_syscall)
    return path, [d.raw for d in s.deltas()]


def main() -> int:
    info = perf.discover()
    print(f"python-perf: discover: {info}")
    check(info.present and info.fixed_counters == 1 and info.programmable_counters >= 1,
          f"an arm64 PMU with its counters: {info.number_of_counters}")
    check(info.rdpmc == 1, f"user-space reads allowed (perf_user_access={info.rdpmc})")
    s = perf.Session(read_path="user")  # the page's read is what is checked
    s.add("Hardware:Instructions").add("Hardware:CpuCycles").add_raw(4, 0x08).open()
    with s:
        for force_syscall in (False, True):
            path, (instructions, cycles, raw) = chain_deltas(s, force_syscall)
            off = abs(instructions - TRUTH) / TRUTH
            check(path == ("syscall" if force_syscall else "rdpmc"), f"read path {path}")
            check(instructions >= TRUTH and off <= BOUND,
                  f"{path}: {instructions} instructions for a chain of {TRUTH} "
                  f"({off * 100:.3f}% over)")
            check(raw == instructions, f"{path}: Raw:4:0x8 {raw} = Hardware:Instructions")
            check(cycles > 0, f"{path}: {cycles} cycles")
        for _ in range(50):
            with s.measure():
                perf.add_chain(CHAIN_BLOCKS)
        h = s[0].histogram
        median = h.percentile(50.0).value
        check(h.total == 50 and abs(median - TRUTH) / TRUTH <= BOUND,
              f"histogram of 50 deltas, median {median} instructions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
