"""Exact recorded extremes of the integer histogram from Python (``exact_extremes=True``,
`Histogram.recorded_min` / `recorded_max`, ABI 1.7): every record path in every mode and
storage, values outside the range never counted, reset, merges, threads, copies and
pickles, and the error of a histogram that keeps none."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

import picollo
from picollo import EmptyHistogramError, Status, UnsupportedError

# (mode, storage): sparse storage is not offered in the thread-local mode.
MODES_AND_STORAGES = [(mode, storage) for mode in picollo.MODES
                      for storage in picollo.STORAGES
                      if (mode, storage) != ("thread-local", "sparse")]
LOW, HIGH = 1_000, 10_000_000  # the trackable range of most tests


def extremes(h: picollo.Histogram) -> tuple[int | None, int | None]:
    return h.recorded_min, h.recorded_max


def bucket_bounds(h: picollo.Histogram, value: int) -> tuple[int, int]:
    """``(lowest, highest)`` of the bucket of ``value`` in ``h``'s layout."""
    return h.equivalent_range(value)


@pytest.mark.parametrize("counter_bits", [32, 64])
@pytest.mark.parametrize("mode,storage", MODES_AND_STORAGES)
def test_every_record_path_keeps_the_exact_extremes(mode, storage, counter_bits):
    with picollo.Histogram(0.01, min=LOW, max=HIGH, counter_bits=counter_bits, mode=mode,
                           storage=storage, exact_extremes=True) as h:
        assert h.exact_extremes is True
        assert extremes(h) == (None, None)  # nothing recorded yet
        h.record(12_345)
        assert extremes(h) == (12_345, 12_345)
        h.record(12_346, 3)
        h.record(99_999, 0)  # a count of 0 records nothing, so no extreme either
        assert extremes(h) == (12_345, 12_346)
        # The corrected values count: 30,000, then 20,000 and 10,000, the new minimum.
        h.record_corrected(30_000, 10_000)
        assert extremes(h) == (10_000, 30_000)
        # Exact, not a bound or the midpoint of the buckets (wider than one value here).
        h.record_many(np.array([5_000_001, 1_001, 777_777], dtype=np.uint64))
        assert extremes(h) == (1_001, 5_000_001)
        assert bucket_bounds(h, 1_001) != (1_001, 1_001)
        assert bucket_bounds(h, 5_000_001) != (5_000_001, 5_000_001)
        with h.buffered(16) as r:
            for v in (1_000, 9_999_999):
                r.record(v)
        # A buffered recorder's values land before any query from its thread.
        assert extremes(h) == (1_000, 9_999_999)
        assert h.total == 1 + 3 + 3 + 3 + 2


@pytest.mark.parametrize("mode,storage", MODES_AND_STORAGES)
def test_values_outside_the_range_are_never_extremes(mode, storage):
    with picollo.Histogram(0.01, min=LOW, max=HIGH, mode=mode, storage=storage,
                           exact_extremes=True) as h:
        h.record_many([0, 5, 10**12, 2**64 - 1])
        h.record(3, 10)
        h.record(10**9, 10)
        assert (h.total, h.underflow, h.overflow) == (0, 12, 12)
        assert extremes(h) == (None, None)  # only underflow and overflow: empty
        h.record_many([0, 4_242, 2**64 - 1])
        assert extremes(h) == (4_242, 4_242)


def test_values_sharing_the_bucket_of_a_bound_are_in_the_range():
    """The range is kept to bucket resolution: a value below `min_trackable` that shares
    its bucket counts inside the range, and so is an extreme."""
    with picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as h:
        lowest = bucket_bounds(h, h.min_trackable)[0]
        h.record(lowest)
        assert h.underflow == 0 and h.recorded_min == lowest
        if lowest > 0:
            h.record(lowest - 1)
            assert h.underflow == 1 and h.recorded_min == lowest


@pytest.mark.parametrize("mode,storage", MODES_AND_STORAGES)
def test_reset_clears_the_extremes(mode, storage):
    with picollo.Histogram(0.01, min=LOW, max=HIGH, mode=mode, storage=storage,
                           exact_extremes=True) as h:
        h.record_many([2_000, 3_000_000])
        assert extremes(h) == (2_000, 3_000_000)
        h.reset()
        assert extremes(h) == (None, None)
        assert h.exact_extremes  # a reset keeps the choice
        h.record(50_000)
        assert extremes(h) == (50_000, 50_000)  # not widened by what the reset cleared


@pytest.mark.parametrize("mode,storage", MODES_AND_STORAGES)
def test_merges_bring_the_sources_extremes(mode, storage):
    with picollo.Histogram(0.01, min=LOW, max=HIGH, mode=mode, storage=storage,
                           exact_extremes=True) as h, \
            picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as exact, \
            picollo.Histogram(0.01, min=LOW, max=HIGH) as plain:
        h.record(500_000)
        exact.record_many([1_234, 600_001])
        h.add(exact)
        assert extremes(h) == (1_234, 600_001)  # the source's exact extremes
        # A source that keeps none brings the bounds of its lowest and highest buckets.
        plain.record_many([1_100, 7_654_321])
        h.add(plain)
        assert extremes(h) == (bucket_bounds(h, 1_100)[0], bucket_bounds(h, 7_654_321)[1])
        # Merging an empty source changes nothing.
        with picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as empty:
            h.add(empty)
        assert extremes(h) == (bucket_bounds(h, 1_100)[0], bucket_bounds(h, 7_654_321)[1])


def test_merging_into_an_empty_histogram_and_subtracting():
    with picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as h, \
            picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as src:
        src.record_many([3_333, 44_444])
        h += src
        assert extremes(h) == (3_333, 44_444)
        # Subtract leaves the extremes: they say what was recorded, not what is left.
        h -= src
        assert h.total == 0
        assert extremes(h) == (3_333, 44_444)


def test_add_rebinned_and_add_encoded():
    with picollo.Histogram(0.01, exact_extremes=True) as h, \
            picollo.Histogram(0.001, exact_extremes=True) as fine, \
            picollo.Histogram(0.001) as plain:
        fine.record_many([10_007, 987_654])
        h.add_rebinned(fine)
        assert extremes(h) == (10_007, 987_654)  # exact, whatever the precision
        plain.record(5_000_011)
        h.add_rebinned(plain)
        # A source without extremes: the highest value of the bucket its count lands in.
        assert extremes(h) == (10_007, bucket_bounds(h, 5_000_011)[1])
    with picollo.Histogram(0.01, exact_extremes=True) as h, \
            picollo.Histogram(0.01) as src:
        src.record_many([2_000, 3_000_000])
        h.add_encoded(src.encode())
        # V2 holds no extremes: the midpoints of the blob's buckets, within the error.
        assert extremes(h) == (pytest.approx(2_000, rel=0.02),
                               pytest.approx(3_000_000, rel=0.02))


def test_copies_and_pickles_keep_the_choice():
    with picollo.Histogram(0.01, min=LOW, max=HIGH, mode="interlocked", storage="sparse",
                           exact_extremes=True) as h:
        h.record_many([1_717, 8_888_888])
        with h.copy() as c:
            assert c.exact_extremes and extremes(c) == (1_717, 8_888_888)
        with pickle.loads(pickle.dumps(h)) as p:
            assert p.exact_extremes and p.total == 2
            # From the V2 counts: the midpoints of its buckets, within the error.
            assert extremes(p) == (pytest.approx(1_717, rel=0.02),
                                   pytest.approx(8_888_888, rel=0.02))
    with picollo.Histogram(0.01) as h:
        with h.copy() as c:
            assert c.exact_extremes is False


def test_collect_leaves_them_and_new_histograms_keep_none():
    with picollo.Histogram(0.01, exact_extremes=True) as h:
        h.record_many([100, 200])
        with h.collect() as interval:
            assert interval.total == 2
            assert interval.exact_extremes is False
        assert h.total == 0
        assert extremes(h) == (100, 200)
        with h.downsample(0.05) as d:
            assert d.exact_extremes is False
        with picollo.Histogram.decode(h.encode()) as d:
            assert d.exact_extremes is False


@pytest.mark.parametrize("mode", ["interlocked", "thread-local", "approximate"])
def test_racing_threads_give_the_true_extremes(mode):
    rng = np.random.default_rng(5)
    chunks = [rng.integers(LOW, HIGH, 50_000, dtype=np.uint64) for _ in range(4)]
    with picollo.Histogram(0.01, min=LOW, max=HIGH, mode=mode, exact_extremes=True) as h:
        def work(chunk: np.ndarray) -> None:
            h.record_many(chunk)
            for v in chunk[:2_000].tolist():
                h.record(v)

        threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        every = np.concatenate(chunks)
        assert extremes(h) == (int(every.min()), int(every.max()))


def test_approximate_counts_do_not_blur_the_extremes():
    """The approximate mode's buckets count in random steps above 2**T; the extremes are
    the values, exact whatever the counts."""
    with picollo.Histogram(0.01, mode="approximate", approx_threshold=4,
                           exact_extremes=True) as h:
        h.record(31_337, 1_000_000)
        h.record_many([31_338] * 100)
        assert extremes(h) == (31_337, 31_338)


def test_saturated_records_count():
    with picollo.Histogram(0.01, counter_bits=32, exact_extremes=True) as h:
        h.record(77, 2**33)  # more than a 32-bit counter holds
        assert h.saturated > 0
        assert extremes(h) == (77, 77)


def test_the_whole_u64_range():
    with picollo.Histogram(0.01, exact_extremes=True) as h:
        h.record_many([2**64 - 1, 0])
        assert extremes(h) == (0, 2**64 - 1)


def test_a_histogram_without_them_raises_unsupported():
    with picollo.Histogram(0.01) as h:
        h.record(5)
        assert h.exact_extremes is False
        for name in ("recorded_min", "recorded_max"):
            with pytest.raises(UnsupportedError, match="exact_extremes=True") as e:
                getattr(h, name)
            assert e.value.status == Status.UNSUPPORTED
            assert name in str(e.value)
    with picollo.Histogram(0.01, exact_extremes=False) as h:
        assert h.exact_extremes is False


def test_empty_is_none_not_an_error():
    with picollo.Histogram(0.01, exact_extremes=True) as h:
        assert extremes(h) == (None, None)
        with pytest.raises(EmptyHistogramError):
            h.percentile(50)  # a percentile of nothing still raises


def test_closed_histogram():
    h = picollo.Histogram(exact_extremes=True)
    h.close()
    with pytest.raises(picollo.ClosedError):
        h.recorded_min
    with pytest.raises(picollo.ClosedError):
        h.exact_extremes


def test_recorded_extremes_are_not_the_trackable_range():
    with picollo.Histogram(0.01, min=LOW, max=HIGH, exact_extremes=True) as h:
        h.record_many([1_500, 2_500])
        assert (h.min_trackable, h.max_trackable) != extremes(h)
        assert extremes(h) == (1_500, 2_500)
        with pytest.warns(DeprecationWarning, match="recorded_min"):
            assert h.min == h.min_trackable
        with pytest.warns(DeprecationWarning, match="recorded_max"):
            assert h.max == h.max_trackable
    for prop in (picollo.Histogram.recorded_min, picollo.Histogram.recorded_max):
        assert "not the trackable range" in prop.__doc__
