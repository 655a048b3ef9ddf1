"""Sparse storage of the integer histogram from Python: the same counts as dense cells in
every mode that offers it, memory that follows the data, copies that keep the storage, and
the thread-local mode's refusal."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import picollo
from picollo import InvalidArgumentError

SPARSE_MODES = ("single", "interlocked", "approximate")


def latencies(seed: int, n: int = 50_000) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.exp(rng.normal(11.0, 1.5, n)).astype(np.uint64) + 1


@pytest.mark.parametrize("counter_bits", [32, 64])
@pytest.mark.parametrize("mode", SPARSE_MODES)
def test_sparse_cells_hold_what_dense_cells_hold(mode, counter_bits):
    values = latencies(1)
    kw = dict(counter_bits=counter_bits, mode=mode,
              approx_threshold=40 if mode == "approximate" else None)
    with picollo.Histogram(0.0001, storage="sparse", **kw) as s, \
            picollo.Histogram(0.0001, **kw) as d:
        assert (s.storage, d.storage) == ("sparse", "dense")
        empty = s.footprint
        assert empty < 4096
        s.record_many(values)
        d.record_many(values)
        for v in values[:2000].tolist():
            s.record(v)
            d.record(v)
        assert [(b.lower, b.count) for b in s] == [(b.lower, b.count) for b in d]
        assert s.summary().table() == d.summary().table()
        # Memory: the blocks the data touched, a fraction of the whole range's cells.
        assert empty < s.footprint < d.footprint / 3
        # A copy keeps the storage kind and the counts.
        c = s.copy()
        assert c.storage == "sparse" and c.summary().table() == s.summary().table()
        c.close()
        s.reset()
        assert s.total == 0


def test_threads_racing_for_blocks_lose_nothing():
    chunks = [latencies(10 + t, 20_000) for t in range(4)]
    with picollo.Histogram(0.001, mode="interlocked", storage="sparse") as s, \
            picollo.Histogram(0.001) as d:
        threads = [threading.Thread(target=s.record_many, args=(c,)) for c in chunks]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for c in chunks:
            d.record_many(c)
        assert [(b.lower, b.count) for b in s] == [(b.lower, b.count) for b in d]


def test_bad_storage_and_the_thread_local_mode_are_refused():
    with pytest.raises(ValueError, match="storage"):
        picollo.Histogram(storage="compressed")
    with pytest.raises(InvalidArgumentError, match="thread-local"):
        picollo.Histogram(storage="sparse", mode="thread-local")
