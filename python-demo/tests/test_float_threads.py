"""FloatHistogram from threads: the interlocked mode loses no record (record_many releases
the GIL, so the threads really record at once); queries and snapshots run beside a
single writer."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

import picollo

THREADS = 8


def run_threads(target, count: int = THREADS) -> None:
    start = threading.Barrier(count)
    errors: list[BaseException] = []

    def body(k: int) -> None:
        try:
            start.wait()
            target(k)
        except BaseException as e:  # reported below, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors


@pytest.mark.parametrize("storage", ["sparse", "dense"])
def test_interlocked_record_many_from_threads_loses_nothing(storage):
    rng = np.random.default_rng(21)
    # Every thread's chunks land on the same hot buckets and on new sparse blocks.
    chunks = [rng.choice([-1.0, 1.0], 50_000) * 10.0 ** rng.uniform(-20.0, 20.0, 50_000)
              for _ in range(THREADS)]
    chunks = [np.concatenate([c, np.full(10_000, 2.5), [np.nan, np.inf]]) for c in chunks]
    everything = np.concatenate(chunks)
    with picollo.FloatHistogram(0.01, mode="interlocked", storage=storage,
                                min_magnitude=1e-30, max_magnitude=1e30) as h, \
            picollo.FloatHistogram(0.01, min_magnitude=1e-30, max_magnitude=1e30) as reference:

        def record(k: int) -> None:
            for part in np.array_split(chunks[k], 20):
                h.record_many(part)
            for x in chunks[k][:200].tolist():  # the one-value path too
                h.record(x)

        run_threads(record)
        reference.record_many(everything)
        reference.record_many(np.concatenate([c[:200] for c in chunks]))
        assert [(b.lowest, b.count) for b in h] == [(b.lowest, b.count) for b in reference]
        got, want = h.info(), reference.info()
        for field in ("total", "nan", "positive_infinity", "zero", "min", "max"):
            assert getattr(got, field) == getattr(want, field), field
        assert got.total == THREADS * (60_000 + 200)
        # The interlocked sum is striped per thread: still within 1e-9 of the exact sum.
        finite = np.concatenate([everything, np.concatenate([c[:200] for c in chunks])])
        finite = finite[np.isfinite(finite)]
        assert abs(got.sum - math.fsum(finite)) <= 1e-9 * math.fsum(np.abs(finite))


def test_queries_and_snapshots_beside_a_single_writer():
    values = np.random.default_rng(8).normal(0.0, 1.0, 200_000)
    with picollo.FloatHistogram(0.01) as h:
        done = threading.Event()
        seen: list[int] = []

        def write() -> None:
            for part in np.array_split(values, 200):
                h.record_many(part)
            done.set()

        def read() -> None:
            s = h.snapshot()
            while True:
                finished = done.is_set()
                total = h.total
                assert total >= (seen[-1] if seen else 0)  # counts only grow
                seen.append(total)
                if total:
                    p = h.percentile(50)
                    assert p.lowest <= p.value <= p.highest
                s.update(deltas=True)
                assert sum(b.count for b in h) >= total
                if finished:
                    return

        run_threads(lambda k: write() if k == 0 else read(), count=2)
        assert h.total == len(values) == seen[-1]
