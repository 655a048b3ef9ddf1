"""The installed picollo wheel at work on the machine it was installed on, standard library only
(scripts/wheels.sh runs it in the Debian 11 roots, the aarch64 one under qemu):

    python wheel_smoke.py MACHINE     # MACHINE: what platform.machine() must say

imports the package and checks that its library is the one inside it, records 1..10,000 and
checks four percentiles against the exact ranks, round-trips the histogram through the V2
encoding bucket for bucket, and runs a short benchmark. Exits non-zero on the first mismatch.
"""

from __future__ import annotations

import math
import os
import platform
import sys

import picollo
from picollo import bench

N = 10_000
ERROR = 0.01


def check(ok: bool, what: str) -> None:
    if not ok:
        sys.exit(f"wheel smoke: FAIL: {what}")


def loaded_from_the_package() -> str:
    lib = picollo._native.lib._name
    package = os.path.dirname(os.path.abspath(picollo.__file__))
    check(os.path.dirname(os.path.abspath(lib)) == package,
          f"libpicollo came from {lib}, not from the installed package {package}")
    return lib


def percentiles(h: picollo.Histogram) -> None:
    check(h.total == N, f"total {h.total}, expected {N}")
    for rank in (50.0, 90.0, 99.0, 99.9):
        exact = math.ceil(rank / 100 * N)  # the value at that rank among 1..N
        p = h.percentile(rank)
        check(p.lower <= exact <= p.highest, f"P{rank}: {exact} is not in [{p.lower}, {p.highest}]")
        check(abs(p.value - exact) <= ERROR * exact, f"P{rank}={p.value}, exact {exact}")


def v2_round_trip(h: picollo.Histogram) -> int:
    blob = h.encode_v2()
    with picollo.Histogram(relative_error=ERROR) as back:
        back.add_encoded(blob)
        before = [(b.lower, b.highest, b.count) for b in h]
        after = [(b.lower, b.highest, b.count) for b in back]
        check(after == before, "the V2 round trip moved counts between buckets")
    with picollo.Histogram.decode(blob) as decoded:
        check(decoded.total == N, f"decode: total {decoded.total}, expected {N}")
    return len(blob)


def short_bench() -> str:
    data = list(range(100))
    with bench.run(lambda: sum(data), name="sum100", counters=[], samples=200,
                   time_budget=0.5, warmup=0.1) as r:
        check(r.metrics == ["time"], f"metrics {r.metrics}")
        check(1 <= r.histogram("time").total <= 200, "the time histogram is empty or too full")
        check(r.percentile("time", 50) > 0, "a median time of zero")
        return r.line()


def main(argv: list[str]) -> int:
    check(len(argv) == 1, "usage: wheel_smoke.py MACHINE")
    check(platform.machine() == argv[0], f"running on {platform.machine()}, not {argv[0]}")
    lib = loaded_from_the_package()
    with picollo.Histogram(relative_error=ERROR) as h:
        h.record_many(range(1, N + 1))
        percentiles(h)
        size = v2_round_trip(h)
    line = short_bench()
    libc = " ".join(platform.libc_ver())
    print(f"wheel smoke: ok on {platform.machine()}, Python {platform.python_version()}, {libc}:"
          f" {os.path.basename(lib)}, 4 percentiles, V2 round trip ({size} bytes), bench: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
