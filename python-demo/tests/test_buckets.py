"""Bucket iteration: all buckets, non-empty ones through the cursor, bucket percentiles."""

from __future__ import annotations

import numpy as np
import pytest

import picollo


@pytest.fixture
def hist():
    rng = np.random.default_rng(7)
    values = rng.lognormal(8, 1.5, size=30_000).astype(np.uint64)
    with picollo.Histogram(relative_error=0.01, min=100, max=1_000_000) as h:
        h.record_many(values)
        yield h, values


def test_bucket_sums_match_totals(hist):
    h, values = hist
    info = h.info()
    everything = list(h.buckets())
    assert len(everything) == info.storage_len
    assert [b.storage_index for b in everything] == list(range(info.storage_len))
    non_empty = list(h.buckets_with_values())
    assert non_empty == [b for b in everything if b.count]
    assert list(h) == non_empty
    assert sum(b.count for b in non_empty) == h.total
    inside = values[(values >= h.min_trackable) & (values <= h.max_trackable)]
    # (the first/last bucket may reach a little past min/max: counts are per bucket)
    assert h.total + h.underflow + h.overflow == len(values)
    assert abs(h.total - len(inside)) <= sum(b.count for b in non_empty[:1] + non_empty[-1:])


def test_buckets_are_contiguous_and_count_their_values(hist):
    h, values = hist
    everything = list(h.buckets())
    for a, b in zip(everything, everything[1:]):
        assert a.upper == b.lower
        assert b.logical_index == a.logical_index + 1
        assert a.lower <= a.value <= a.highest
    for b in h.buckets_with_values():
        if b.lower >= h.min_trackable and b.highest <= h.max_trackable:
            assert b.count == int(((values >= b.lower) & (values <= b.highest)).sum())
        assert b.lower in b and b.highest in b and b.upper not in b


def test_bucket_index_out_of_range(hist):
    h, _ = hist
    with pytest.raises(IndexError):
        h.bucket(h.info().storage_len)
    with pytest.raises(ValueError):
        h.bucket(-1)


def test_bucket_percentiles(hist):
    h, _ = hist
    ps = list(h.bucket_percentiles())
    non_empty = list(h)
    assert len(ps) == len(non_empty)
    assert all(a.rank < b.rank for a, b in zip(ps, ps[1:]))
    assert ps[-1].cumulative_count == h.total
    for p, b in zip(ps, non_empty):
        assert (p.lower, p.highest, p.count, p.value) == (b.lower, b.highest, b.count, b.value)
        assert 0 < p.rank < 100
        # the library agrees on which bucket holds the bucket's middle rank count
        assert h.percentile(p.rank).storage_index == p.storage_index
        assert str(p).startswith("P")
    with_empty = list(h.bucket_percentiles(include_empty=True))
    assert len(with_empty) == h.info().storage_len
    assert [p for p in with_empty if p.count] == ps


@pytest.mark.parametrize("selection", picollo.VALUE_SELECTIONS)
def test_bucket_percentiles_follow_value_selection(selection):
    with picollo.Histogram(relative_error=0.05, value_selection=selection) as h:
        h.record_many([1000] * 3 + [1020] * 5 + [5000])
        for p in h.bucket_percentiles():
            q = h.percentile(p.rank)
            assert (q.value, q.plus_minus, q.storage_index) == (p.value, p.plus_minus, p.storage_index)


def test_empty_histogram_iterates_nothing():
    with picollo.Histogram() as h:
        assert list(h) == [] and list(h.bucket_percentiles()) == []
