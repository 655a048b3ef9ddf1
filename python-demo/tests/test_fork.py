"""A child made by ``multiprocessing`` with the fork start method, while the parent's
threads write, read and reset the histogram: the child reads and records at once (no lock
or half-done reset inherited), and a thread-local histogram keeps the counts of the
parent's threads in the child.

The child answers through a pipe; a child that does not answer in time is killed and the
test fails instead of blocking CI.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading

import numpy as np
import pytest

import picollo

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork start method")

DEADLINE_S = 60
FORKS = 5


def child_main(h: picollo.Histogram, conn, parked_total: int) -> None:
    """Runs in the child: read, record from this thread and a new one, reset."""
    try:
        before = h.total
        ok = before >= parked_total
        h.record(5)
        ok = ok and h.total == before + 1
        t = threading.Thread(target=h.record, args=(6,))
        t.start()
        t.join()
        ok = ok and h.total == before + 2
        h.reset()
        h.record_many(np.array([1, 10, 100], dtype=np.uint64))
        ok = ok and h.total == 3
        conn.send(("ok" if ok else f"wrong counts: before {before}, now {h.total}"))
    except BaseException as e:  # noqa: BLE001 - reported to the parent
        conn.send(f"error: {e!r}")
    finally:
        conn.close()


def run_child(h: picollo.Histogram, parked_total: int) -> str:
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    p = ctx.Process(target=child_main, args=(h, send, parked_total))
    p.start()
    send.close()
    try:
        if not recv.poll(DEADLINE_S):
            return "the child hung"
        return recv.recv()
    finally:
        p.join(DEADLINE_S)
        if p.is_alive():
            p.kill()
            p.join()


@pytest.mark.parametrize("mode", ["single", "interlocked", "thread-local", "approximate"])
def test_a_forked_child_reads_and_records_while_parent_threads_write(mode):
    values = np.arange(1, 10_001, dtype=np.uint64)
    with picollo.Histogram(0.01, min=1, max=1_000_000, mode=mode) as h:
        # Thread-local: writers that recorded and now wait (alive) across the forks; their
        # counts must still be there in the child.
        parked_total = 0
        recorded = threading.Barrier(3)
        release = threading.Event()

        def parked(_: int) -> None:
            h.record_many(values)
            recorded.wait()
            release.wait()

        parked_threads = []
        if mode != "single":
            parked_threads = [threading.Thread(target=parked, args=(i,)) for i in range(2)]
            for t in parked_threads:
                t.start()
            recorded.wait()
            parked_total = 2 * len(values)

        # Busy threads: resets back to back and readers (every mode), writers (not in the
        # single-writer mode, whose one writer would be the child's thread).
        stop = threading.Event()

        def resetting() -> None:
            while not stop.is_set():
                h.reset()

        def reading() -> None:
            while not stop.is_set():
                _ = h.total

        def writing() -> None:
            while not stop.is_set():
                h.record_many(values)

        busy = [threading.Thread(target=reading)]
        if mode != "thread-local":
            busy.append(threading.Thread(target=resetting))
        if mode != "single":
            busy.append(threading.Thread(target=writing))
        for t in busy:
            t.start()
        try:
            for _ in range(FORKS):
                # Resets in the parent would make the parked counts vanish; the child
                # checks them only where nothing resets.
                expected = parked_total if mode == "thread-local" else 0
                assert run_child(h, expected) == "ok"
        finally:
            stop.set()
            for t in busy:
                t.join()
            release.set()
            for t in parked_threads:
                t.join()
