"""FloatHistogram's value queries against numpy counts: rank_of, quantile_of,
count_between, equivalent_range and the buckets; dense and sparse storage agree."""

from __future__ import annotations

import numpy as np
import pytest

import picollo
from conftest import signed_doubles
from picollo import EmptyHistogramError, InvalidArgumentError


@pytest.fixture(scope="module")
def data() -> np.ndarray:
    return signed_doubles(11, 50.0, 20_000, 5_000, [np.zeros(300), np.full(2_000, 42.0)])


@pytest.fixture
def hist(data):
    with picollo.FloatHistogram(0.01) as h:
        h.record_many(data)
        yield h


def count_in(values: np.ndarray, lo: float, hi: float) -> int:
    return int(((values >= lo) & (values <= hi)).sum())


def probes(data: np.ndarray) -> list[float]:
    """Recorded values, values between them, and far outside them."""
    rng = np.random.default_rng(3)
    picked = rng.choice(data, 300).tolist()
    between = (rng.choice(data, 100) * 1.003).tolist()
    return picked + between + [0.0, -0.0, 42.0, 1e-300, -1e300, 1e300]


def test_buckets_come_in_value_order_and_hold_exactly_their_values(hist, data):
    buckets = list(hist)
    assert sum(b.count for b in buckets) == hist.total == len(data)
    for a, b in zip(buckets, buckets[1:]):
        assert a.highest < b.lowest
    for b in buckets:
        assert b.count == count_in(data, b.lowest, b.highest)
        assert b.lowest <= b.value <= b.highest and b.value in b
        assert b.side == (0 if b.value == 0 else int(np.sign(b.value)))
        assert hist.equivalent_range(b.value) == (b.lowest, b.highest)
    # Batches of one give the same buckets as the default batch.
    assert list(hist.buckets_with_values(batch=1)) == buckets
    with pytest.raises(ValueError, match="batch"):
        list(hist.buckets_with_values(batch=0))


def test_rank_of_lies_within_the_counts_of_the_bucket_of_x(hist, data):
    total = hist.total
    for x in probes(data):
        rank = hist.rank_of(x)
        at_or_below = int((data <= x).sum())
        lowest, highest = hist.equivalent_range(x)
        below_bucket = int((data < lowest).sum())
        in_bucket = count_in(data, lowest, highest)
        assert below_bucket <= rank <= below_bucket + in_bucket, x
        assert below_bucket <= at_or_below <= below_bucket + in_bucket
        assert hist.quantile_of(x) == pytest.approx(rank / total, rel=1e-12, abs=1e-15)
        # At a bucket's highest value the whole bucket counts: the rank is exact.
        assert hist.rank_of(highest) == int((data <= highest).sum())
    assert hist.rank_of(np.inf) == total and hist.rank_of(-np.inf) == 0
    assert hist.quantile_of(np.inf) == 1.0 and hist.quantile_of(-np.inf) == 0.0


def test_count_between_spans_whole_buckets(hist, data):
    buckets = list(hist)
    rng = np.random.default_rng(5)
    for _ in range(200):
        lo, hi = sorted(rng.choice(probes(data), 2))
        got = hist.count_between(lo, hi)
        spanned = sum(b.count for b in buckets if b.highest >= lo and b.lowest <= hi)
        assert got == spanned >= count_in(data, lo, hi)
        # Between bucket bounds it is exact.
        low_bound, high_bound = hist.equivalent_range(lo)[0], hist.equivalent_range(hi)[1]
        assert hist.count_between(low_bound, high_bound) == count_in(data, low_bound, high_bound)
    assert hist.count_between(-np.inf, np.inf) == hist.total
    assert hist.count_between(0.0, 0.0) == hist.zero == 300
    assert hist.count_between(42.0, 42.0) >= 2_000


def test_value_queries_refuse_nan_and_reversed_bounds(hist):
    with pytest.raises(InvalidArgumentError):
        hist.rank_of(np.nan)
    with pytest.raises(InvalidArgumentError):
        hist.quantile_of(np.nan)
    with pytest.raises(InvalidArgumentError):
        hist.count_between(np.nan, 1.0)
    with pytest.raises(InvalidArgumentError):
        hist.count_between(2.0, 1.0)
    for x in (np.nan, np.inf, -np.inf):
        with pytest.raises(InvalidArgumentError):
            hist.equivalent_range(x)
    with pytest.raises(TypeError):
        hist.rank_of("1.0")


def test_equivalent_range_outside_the_range_is_an_error():
    with picollo.FloatHistogram(0.01, min_magnitude=1.0, max_magnitude=1000.0) as h:
        lowest, highest = h.equivalent_range(-500.0)
        assert lowest <= -500.0 <= highest < 0
        with pytest.raises(InvalidArgumentError, match="outside the range") as e:
            h.equivalent_range(1e-3)
        assert e.value.status == picollo.Status.OUT_OF_RANGE
        with pytest.raises(InvalidArgumentError):
            h.equivalent_range(-1e6)
        assert h.equivalent_range(0.0) == (0.0, 0.0)


def test_empty_histogram_queries():
    with picollo.FloatHistogram() as h:
        assert list(h) == []
        assert h.rank_of(1.0) == 0.0
        assert h.count_between(-1.0, 1.0) == 0
        with pytest.raises(EmptyHistogramError):
            h.quantile_of(1.0)
        with pytest.raises(EmptyHistogramError):
            h.percentile(50)
        assert (h.min, h.max, h.sum, h.total) == (None, None, 0.0, 0)
        assert np.isnan(h.mean) and np.isnan(h.stdev)


@pytest.mark.parametrize("relative_error", [0.1, 0.001])
def test_dense_and_sparse_give_the_same_buckets(data, relative_error):
    kw = dict(relative_error=relative_error, min_magnitude=1e-12, max_magnitude=1e12)
    with picollo.FloatHistogram(storage="dense", **kw) as dense, \
            picollo.FloatHistogram(storage="sparse", **kw) as sparse:
        for h in (dense, sparse):
            h.record_many(data)
        assert (dense.storage, sparse.storage) == ("dense", "sparse")
        assert list(dense) == list(sparse)
        assert dense.percentiles(picollo.STANDARD_RANKS) == sparse.percentiles(picollo.STANDARD_RANKS)
        d, s = dense.info(), sparse.info()
        for field in ("total", "zero", "underflow", "overflow", "sum", "min", "max",
                      "min_magnitude", "max_magnitude", "storage_len"):
            assert getattr(d, field) == getattr(s, field), field
        assert d.underflow == int(((data != 0) & (np.abs(data) < d.min_magnitude)).sum())
        assert d.overflow == int((np.abs(data) > d.max_magnitude).sum())
        assert str(dense) == str(sparse)


def test_sparse_footprint_follows_the_data_dense_follows_the_range():
    narrow = np.random.default_rng(1).uniform(130.0, 250.0, 10_000)  # one octave: 128..256
    with picollo.FloatHistogram(0.001, storage="dense") as dense, \
            picollo.FloatHistogram(0.001, storage="sparse") as sparse:
        empty = sparse.footprint_bytes
        for h in (dense, sparse):
            h.record_many(narrow)
        assert list(dense) == list(sparse)
        # Dense: one 64-bit counter per bucket of the whole range, for both signs, and
        # the exact sum's 16 bytes per sign and binary exponent (1..=2046).
        sums = 2 * 2046 * 16
        assert dense.footprint_bytes == 2 * dense.storage_len * 8 + sums
        # Sparse: one octave's block (512 counters) beside the block directory, and one
        # chunk of the exact sum (64 exponents of 16 bytes) beside its directory.
        chunk = 64 * 16
        assert sparse.footprint_bytes - empty == sparse.buckets_per_octave * 8 + chunk
        assert sparse.footprint_bytes * 100 < dense.footprint_bytes  # 39 KB vs 17 MB
        with picollo.FloatHistogram(0.001, storage="sparse", counter_bits=32) as small:
            small.record_many(narrow)
            assert small.footprint_bytes - empty == small.buckets_per_octave * 4 + chunk


@pytest.mark.parametrize("value", [1.0, -1.0, 3e-310, -7.5e200])
def test_a_value_recorded_alone_is_at_or_below_itself_every_time(value):
    # The bucket's values are taken to lie between the exact extremes: at the one value
    # recorded, all of them; just below it, none.
    with picollo.FloatHistogram(relative_error=0.01) as h:
        for _ in range(100):
            h.record(value)
        assert h.rank_of(value) == 100.0
        assert h.quantile_of(value) == 1.0
        assert h.rank_of(np.nextafter(value, -np.inf)) == 0.0
