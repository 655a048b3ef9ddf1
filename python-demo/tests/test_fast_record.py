"""`Histogram.record`'s fast path and `BufferedRecorder`: the same counts as the checked
paths, clear errors for bad values, nothing touched after close, and buffered values
landing exactly when the documentation says."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import picollo


def buckets(h):
    return [(b.lower, b.count) for b in h]


@pytest.mark.parametrize("mode", ["single", "interlocked", "thread-local", "approximate"])
def test_record_counts_like_record_many(mode):
    values = list(np.random.default_rng(3).integers(0, 10**9, size=5_000))
    values = [int(v) for v in values] + [0, 2**64 - 1]
    with picollo.Histogram(0.01, max=10**8, mode=mode) as a, picollo.Histogram(0.01, max=10**8) as b:
        for v in values:
            a.record(v)
        b.record_many(values)
        assert buckets(a) == buckets(b)
        assert (a.total, a.overflow) == (b.total, b.overflow)


def test_values_of_other_types_go_through_the_checked_path():
    with picollo.Histogram() as h:
        h.record(np.uint64(7))
        h.record(np.int32(7))
        h.record(True)  # an int subclass: 1
        h.record(8, np.uint8(2))
        assert buckets(h) == [(1, 1), (7, 2), (8, 2)]


@pytest.mark.parametrize("bad,error", [
    (-1, ValueError), (2**64, ValueError), (-2**70, ValueError), (1.5, TypeError),
    ("3", TypeError), (None, TypeError), (np.float64(2.0), TypeError),
])
def test_bad_values_raise_and_record_nothing(bad, error):
    with picollo.Histogram() as h:
        with pytest.raises(error):
            h.record(bad)
        with pytest.raises(error):
            h.record(bad, 2)
        assert (h.total, h.underflow, h.overflow) == (0, 0, 0)


def test_bad_counts_raise():
    with picollo.Histogram() as h:
        with pytest.raises(ValueError):
            h.record(5, -1)
        with pytest.raises(TypeError):
            h.record(5, 1.0)
        assert h.total == 0


def test_a_kept_record_function_raises_after_close():
    h = picollo.Histogram()
    record = h.record
    record(5)
    h.close()
    with pytest.raises(picollo.ClosedError):
        record(5)
    with pytest.raises(picollo.ClosedError):
        h.record(5)


def test_pickling_ignores_the_instance_record_function():
    import pickle
    with picollo.Histogram(0.01) as h:
        h.record(100)
        copy = pickle.loads(pickle.dumps(h))
        copy.record(200)
        assert buckets(copy) == [(100, 1), (200, 1)]
        assert buckets(h) == [(100, 1)]


def test_buffered_values_land_at_the_size_on_queries_and_on_close():
    with picollo.Histogram(0.01) as h:
        r = h.buffered(size=100)
        for v in range(250):
            r.record(v)
        # Two flushes at the size; 50 waiting.
        assert r.pending == 50
        assert r.size == 100
        # A query from this thread records them first.
        assert h.total == 250
        assert r.pending == 0
        r(7)
        r.record(8)
        assert r.pending == 2
        assert r.flush() == 2
        assert r.flush() == 0
        r(9)
        r.close()
        assert h.total == 253
        r.close()  # idempotent
        # Closing the histogram records what its recorders hold.
        r2 = h.buffered(10)
        r2.record(1)
        r2.record(2)
    # (h is closed here; r2's values went in first, checked through a second histogram)


def test_closing_the_histogram_flushes_every_recorder():
    h = picollo.Histogram(0.01)
    seen = picollo.Histogram(0.01)
    r = h.buffered(10)
    for v in (1, 2, 3):
        r.record(v)
    # What close records is visible to an encode taken just before the free.
    h.record_many([])  # a call through the handle flushes: 3 values now
    seen.add(h)
    assert seen.total == 3
    r.record(4)
    h.close()
    assert r.pending == 0
    with pytest.raises(picollo.ClosedError):
        r.record(5)
        r.flush()
    seen.close()


def test_other_threads_queries_do_not_flush_this_threads_recorder():
    with picollo.Histogram(0.01, mode="interlocked") as h:
        r = h.buffered(1000)
        for v in range(10):
            r.record(v)
        seen = []
        t = threading.Thread(target=lambda: seen.append(h.total))
        t.start()
        t.join()
        assert seen == [0]
        assert r.pending == 10
        assert h.total == 10  # this thread's query flushes


def test_a_collected_recorder_records_what_it_held():
    with picollo.Histogram(0.01) as h:
        r = h.buffered(100)
        r.record(5)
        r.record(6)
        del r
        gc.collect()
        assert h.total == 2


@pytest.mark.parametrize("bad,error", [(-1, OverflowError), (2**64, OverflowError), (1.5, TypeError)])
def test_buffered_bad_values_raise_and_add_nothing(bad, error):
    with picollo.Histogram() as h:
        r = h.buffered(10)
        with pytest.raises(error):
            r.record(bad)
        assert r.pending == 0
        r.record(3)
        assert h.total == 1


@pytest.mark.parametrize("size", [0, -1, 1.5, True, "10"])
def test_bad_sizes_are_refused(size):
    with picollo.Histogram() as h:
        with pytest.raises(ValueError):
            h.buffered(size)


def test_a_closed_histogram_has_no_recorder():
    h = picollo.Histogram()
    h.close()
    with pytest.raises(picollo.ClosedError):
        h.buffered()
