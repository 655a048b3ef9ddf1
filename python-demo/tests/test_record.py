"""Recording and percentiles: against exact order statistics, batch against scalar."""

from __future__ import annotations

import array

import numpy as np
import pytest

import picollo
from conftest import expected_rank_count

RANKS = list(picollo.STANDARD_RANKS) + [33.3, 66.6, 99.95]
RANKS.sort()


def datasets():
    rng = np.random.default_rng(42)
    yield "single", np.array([123_456], dtype=np.uint64)
    yield "small-exact", rng.integers(0, 64, size=1000, dtype=np.uint64)
    yield "uniform", rng.integers(0, 1_000_000, size=10_000, dtype=np.uint64)
    yield "lognormal", rng.lognormal(10, 2, size=50_000).astype(np.uint64)
    yield "pareto", (rng.pareto(1.5, size=20_000) * 1000).astype(np.uint64)
    yield "wide", rng.integers(0, 2**64 - 1, size=5_000, dtype=np.uint64, endpoint=True)
    yield "top", np.array([2**64 - 1, 2**64 - 2, 2**63, 0], dtype=np.uint64)


@pytest.mark.parametrize("name,values", list(datasets()), ids=lambda x: x if isinstance(x, str) else "")
@pytest.mark.parametrize("relative_error", [0.1, 0.01, 0.001])
def test_percentiles_contain_exact_order_statistics(name, values, relative_error):
    exact = np.sort(values)
    with picollo.Histogram(relative_error=relative_error) as h:
        assert h.record_many(values) == len(values)
        assert h.total == len(values)
        for p in h.percentiles(sorted(set(RANKS))):
            k = expected_rank_count(p.rank, len(values))
            assert p.rank_count == k
            v = int(exact[k - 1])
            assert p.lower <= v <= p.highest, (name, p.rank, v, p)
            assert v in p
            # the midpoint is within ± of every value of its bucket, and within the
            # stated relative error of the exact value
            assert abs(p.value - v) <= p.plus_minus
            assert abs(p.value - v) <= v * h.precision

def test_scalar_batch_and_values_agree():
    rng = np.random.default_rng(1)
    values = rng.integers(1, 10**9, size=20_000, dtype=np.uint64)
    with picollo.Histogram(relative_error=0.001) as a, picollo.Histogram(relative_error=0.001) as b:
        a.record_many(values)
        for v in values.tolist():
            b.record(v)
        assert a.summary().json() == b.summary().json()
        batch = a.percentiles(RANKS)
        assert [a.percentile(r) for r in RANKS] == batch
        assert a.percentile_values(RANKS) == [p.value for p in batch]
        assert list(a) == list(b)


def test_record_count_and_record_n():
    with picollo.Histogram() as h:
        h.record(10, 5)
        h.record_n(20, 3)
        h.record(30)
        h.record(40, 0)
        assert h.total == 9
        assert [(b.lower, b.count) for b in h] == [(10, 5), (20, 3), (30, 1)]


def test_record_corrected_fills_in_missing_values():
    with picollo.Histogram() as h:
        h.record_corrected(100, 30)  # 100, 70, 40
        assert sorted(b.value for b in h) == [40, 70, 100]
        h.reset()
        h.record_corrected(100, 0)
        assert h.total == 1


def test_value_selection_changes_reported_value():
    values = [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]
    results = {}
    for sel in picollo.VALUE_SELECTIONS:
        with picollo.Histogram(relative_error=0.1, value_selection=sel) as h:
            h.record_many(values)
            assert h.value_selection == sel
            results[sel] = h.percentile(50)
    lower, upper = results["lower"], results["upper"]
    assert lower.value == lower.lower and upper.value == upper.highest
    assert lower.lower <= results["midpoint"].value <= upper.highest
    assert lower.lower <= results["interpolated"].value <= upper.highest
    with picollo.Histogram(relative_error=0.1) as h:
        h.record_many(values)
        h.value_selection = "upper"
        assert h.percentile(50).value == upper.value


def test_record_many_numpy_without_copy_and_conversions():
    values = np.arange(1000, 2000, dtype=np.uint64)
    with picollo.Histogram() as h:
        assert h.record_many(values) == 1000
        assert h.record_many(values[::2]) == 500          # strided: converted
        assert h.record_many(values.astype(np.int32)) == 1000
        assert h.record_many(values.astype(">u8")) == 1000  # byte-swapped
        assert h.record_many(values.reshape(10, 100)) == 1000
        assert h.record_many(np.array([], dtype=np.uint64)) == 0
        ro = values.copy()
        ro.flags.writeable = False
        assert h.record_many(ro) == 1000
        assert h.total == 5500
        assert h.percentile(0).value == 1000 and h.percentile(100).value == 1999


def test_record_many_other_iterables():
    with picollo.Histogram() as h:
        assert h.record_many(array.array("Q", [1, 2, 3])) == 3
        assert h.record_many(memoryview(array.array("Q", [4]))) == 1
        assert h.record_many(range(10, 20)) == 10
        assert h.record_many(x * 2 for x in range(5)) == 5
        assert h.record_many([np.int64(7), np.uint64(8), 2**64 - 1]) == 3
        assert h.record_many([]) == 0
        assert h.total == 22


def test_underflow_overflow_and_properties():
    with picollo.Histogram(relative_error=0.01, min=1000, max=2000, counter_bits=32) as h:
        h.record_many([10, 1500, 10**6, 10**7])
        assert (h.total, h.underflow, h.overflow, h.saturated) == (1, 1, 2, 0)
        assert h.precision == 0.0078125
        info = h.info()
        assert h.footprint == info.storage_len * 4
        assert (h.min_trackable, h.max_trackable, h.counter_bits) == (1000, 2000, 32)
        assert h.mean == pytest.approx(1500, rel=0.01)
        assert h.stdev == 0.0
        h.reset()
        assert (h.total, h.underflow, h.overflow) == (0, 0, 0)
        assert np.isnan(h.mean)


def test_the_trackable_range_has_unambiguous_names_and_min_max_are_deprecated():
    """``min``/``max`` name the trackable range, not recorded extremes: they still answer,
    with a DeprecationWarning pointing at ``min_trackable``/``max_trackable``."""
    with picollo.Histogram(relative_error=0.01, min_trackable=1000, max_trackable=2000) as h:
        h.record_many([1200, 1300])
        assert (h.min_trackable, h.max_trackable) == (1000, 2000)
        with pytest.warns(DeprecationWarning, match="min_trackable"):
            assert h.min == 1000  # not 1200, the smallest value recorded
        with pytest.warns(DeprecationWarning, match="max_trackable"):
            assert h.max == 2000
        assert h.copy().max_trackable == 2000  # copies keep the range
    # min= and max= keep configuring the range, without a warning.
    with picollo.Histogram(min=1000, max=2000) as h:
        assert (h.min_trackable, h.max_trackable) == (1000, 2000)
    with pytest.raises(TypeError, match="not both"):
        picollo.Histogram(min=1, min_trackable=1)
    with pytest.raises(ValueError, match="max_trackable"):
        picollo.Histogram(max_trackable=-1)


def test_saturation_is_counted_not_lost():
    with picollo.Histogram(counter_bits=32) as h:
        h.record_n(5, 2**32 + 10)
        assert h.bucket(5).count == 2**32 - 1
        assert h.saturated == 11
        assert h.total == 2**32 - 1
