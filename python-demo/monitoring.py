#!/usr/bin/env python3
"""Live monitoring from Python, like core/examples/monitoring.rs.

Writer threads record into one thread-local histogram while the main thread, every second,
refreshes a snapshot with deltas (no allocation in the library) and prints the one-line
summary of the last second. The data drift with time, so the percentiles climb and, after a
while, values overflow the range. At the end, the aggregate table of the whole run.

    python3 python-demo/monitoring.py [seconds]     (default 3)

ctypes releases the GIL during each foreign call, so the writers' ``record_many`` calls run
in parallel with each other and with the monitor.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import picollo  # noqa: E402

WRITERS = 2
BATCH = 20_000


def values(rng: np.random.Generator, elapsed: float) -> np.ndarray:
    """A noisy batch around 20,000 plus a tail that grows with time."""
    drift = (int(elapsed * 4000)) & 16_383
    r = rng.random((3, BATCH))
    return (20_000 + (0.5 - r[0]) * 1_000 + r[1] * r[2] * drift).astype(np.uint64)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=3.0)
    args = parser.parse_args()

    h = picollo.Histogram(0.01, min=10_000, max=30_000, mode="thread-local")
    stop = threading.Event()
    start = time.monotonic()

    def write(seed: int) -> None:
        rng = np.random.default_rng(seed)
        while not stop.is_set():
            h.record_many(values(rng, time.monotonic() - start))

    writers = [threading.Thread(target=write, args=(i,), daemon=True) for i in range(WRITERS)]
    seen = 0
    # The snapshot is taken before any writer starts, so every record lands in some delta.
    with h.snapshot() as snapshot:
        for t in writers:
            t.start()
        try:
            # Whole seconds, then a last, shorter interval if the duration has a fraction.
            deadline = start
            while deadline < start + args.seconds:
                deadline = min(deadline + 1.0, start + args.seconds)
                time.sleep(max(0.0, deadline - time.monotonic()))
                # What was recorded since the previous update, copied consistently.
                summary = snapshot.update(deltas=True).summary()
                seen += summary.total + summary.underflow + summary.overflow
                clock = datetime.now(timezone.utc).strftime("%H:%M:%S.%f")[:-3]
                print(f"{clock} | {summary.line('monitoring')}", flush=True)
        finally:
            stop.set()
            for t in writers:
                t.join()
        last = snapshot.update(deltas=True).summary()
        seen += last.total + last.underflow + last.overflow
    recorded = h.total + h.underflow + h.overflow
    if seen != recorded:
        print(f"monitoring: the deltas add up to {seen:,}, the histogram holds {recorded:,}",
              file=sys.stderr)
        return 1
    print(h.table("Aggregate"))
    h.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
