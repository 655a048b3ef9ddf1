"""Histogram's queries by value against numpy counts of the recorded values: rank_of,
quantile_of, count_between and equivalent_range, in every counter width and mode."""

from __future__ import annotations

import numpy as np
import pytest

import picollo
from conftest import BITS_AND_MODES, U64_MAX, recorded_histogram
from picollo import ClosedError, EmptyHistogramError, InvalidArgumentError



@pytest.fixture(params=BITS_AND_MODES)
def hist(request, mixed_values):
    yield from recorded_histogram(request.param, mixed_values)


@pytest.fixture(scope="module")
def ordered(mixed_values) -> np.ndarray:
    return np.sort(mixed_values)


def at_or_below(ordered: np.ndarray, v: int) -> int:
    return int(np.searchsorted(ordered, np.uint64(v), side="right"))


def below(ordered: np.ndarray, v: int) -> int:
    return int(np.searchsorted(ordered, np.uint64(v), side="left"))


def between(ordered: np.ndarray, lo: int, hi: int) -> int:
    """The count of recorded values in ``[lo, hi]``."""
    return at_or_below(ordered, hi) - below(ordered, lo)


def probes(values: np.ndarray) -> list[int]:
    """Recorded values, values next to them, and the edges of the u64 range."""
    rng = np.random.default_rng(5)
    picked = [int(v) for v in rng.choice(values, 300)]
    nearby = [max(v - 1, 0) for v in picked[:100]] + [min(v + 1, U64_MAX) for v in picked[100:200]]
    return sorted(set(picked + nearby + [0, 1, 1023, 1024, 1025, 2**32, 2**63, U64_MAX]))


def test_values_below_1024_have_their_own_bucket_and_exact_ranks_and_counts(hist, mixed_values):
    for v in range(1024):
        assert hist.equivalent_range(v) == (v, v)
    assert hist.equivalent_range(1024) == (1024, 1025)  # the first bucket two values wide
    small = mixed_values[mixed_values < 1024].astype(np.int64)
    cumulative = np.cumsum(np.bincount(small, minlength=1024))
    for v in range(1024):
        assert hist.rank_of(v) == cumulative[v], v
    rng = np.random.default_rng(1)
    for lo, hi in np.sort(rng.integers(0, 1024, (300, 2)), axis=1):
        expected = cumulative[hi] - (cumulative[lo - 1] if lo else 0)
        assert hist.count_between(int(lo), int(hi)) == expected, (lo, hi)


def test_rank_of_lies_between_the_counts_below_and_through_its_bucket(hist, mixed_values, ordered):
    for v in probes(mixed_values):
        lowest, highest = hist.equivalent_range(v)
        before, through = below(ordered, lowest), at_or_below(ordered, highest)
        rank = hist.rank_of(v)
        assert before <= rank <= through, v
        assert before <= at_or_below(ordered, v) <= through
        # The bucket's values taken as spread evenly over it: count · (v − lowest + 1) / width.
        share = (through - before) * (v - lowest + 1) / (highest - lowest + 1)
        assert rank == pytest.approx(before + share, rel=1e-12, abs=1e-9), v
        # At a bucket's highest value the whole bucket counts: the rank is exact.
        assert hist.rank_of(highest) == through, v
    assert hist.rank_of(U64_MAX) == len(mixed_values) == hist.total


def test_count_between_is_the_count_of_the_whole_buckets_of_lo_and_hi(hist, mixed_values, ordered):
    values = probes(mixed_values)
    rng = np.random.default_rng(2)
    # Indices, not rng.choice(values): numpy would turn ints above 2**63 into floats.
    pairs = [sorted(values[i] for i in rng.integers(0, len(values), 2)) for _ in range(300)]
    pairs += [(v, v) for v in values[::7]]
    for lo, hi in pairs:
        lowest, highest = hist.equivalent_range(lo)[0], hist.equivalent_range(hi)[1]
        assert hist.count_between(lo, hi) == between(ordered, lowest, highest), (lo, hi)
    assert hist.count_between(0, U64_MAX) == len(mixed_values)


def test_quantile_of_is_monotone_and_the_inverse_of_percentiles(hist, mixed_values):
    total = hist.total
    quantiles = [hist.quantile_of(v) for v in probes(mixed_values)]
    assert all(0.0 <= q <= 1.0 for q in quantiles)
    assert quantiles == sorted(quantiles)
    for v in probes(mixed_values)[::10]:
        assert hist.quantile_of(v) == pytest.approx(hist.rank_of(v) / total, rel=1e-15)
    assert hist.quantile_of(U64_MAX) == 1.0
    for rank in (0.0, 0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0):
        p = hist.percentile(rank)
        # The percentile's bucket is where the rank of its values first reaches p's target.
        assert hist.rank_of(p.highest) == p.cumulative_count >= p.rank_count
        assert hist.quantile_of(p.highest) == pytest.approx(p.cumulative_count / total)
        if p.lower > 0:
            assert hist.rank_of(p.lower - 1) == p.cumulative_count - p.count < p.rank_count


def test_equivalent_ranges_tile_every_value_from_0_to_2_64():
    for relative_error in (0.1, 0.01, 0.001):
        with picollo.Histogram(relative_error) as h:
            precision, ranges, v = h.precision, [], 0
            while True:
                lowest, highest = h.equivalent_range(v)
                assert lowest == v  # the next bucket starts at the previous highest + 1
                assert h.equivalent_range(highest) == h.equivalent_range(
                    (lowest + highest) // 2) == (lowest, highest)
                width = highest - lowest + 1
                assert width & (width - 1) == 0  # a power of two
                if width > 1:  # a bucket's values lie within the relative error of its midpoint
                    assert width / 2 <= 2 * precision * lowest
                ranges.append((lowest, highest))
                if highest == U64_MAX:
                    break
                v = highest + 1
            # The buckets of a full-range histogram are exactly these ranges.
            assert len(ranges) == h.info().storage_len
            for i in range(0, len(ranges), 97):
                b = h.bucket(i)
                assert (b.lower, b.highest) == ranges[i]


def test_equivalent_range_ignores_the_trackable_range():
    with picollo.Histogram(0.01, min=1_000, max=100_000) as narrow, \
            picollo.Histogram(0.01) as full:
        for v in (0, 5, 999, 1_000, 50_000, 100_000, 10**12, U64_MAX):
            assert narrow.equivalent_range(v) == full.equivalent_range(v)


def test_underflow_and_overflow_are_not_ranked_or_counted(mixed_values):
    with picollo.Histogram(min=1_000, max=10**8) as h:
        h.record_many(mixed_values)
        assert h.underflow > 0 and h.overflow > 0
        assert h.rank_of(0) == 0.0
        assert h.rank_of(999) == 0.0
        assert h.rank_of(U64_MAX) == h.total
        assert h.count_between(0, U64_MAX) == h.total
        assert h.quantile_of(U64_MAX) == 1.0
        assert h.quantile_of(0) == 0.0


def test_an_empty_histogram_ranks_nothing():
    with picollo.Histogram() as h:
        h.record(5, 0)  # a count of 0 records nothing
        assert h.rank_of(U64_MAX) == 0.0
        assert h.count_between(0, U64_MAX) == 0
        with pytest.raises(EmptyHistogramError):
            h.quantile_of(5)
    with picollo.Histogram(min=100, max=200) as h:
        h.record(5)
        h.record(1_000)
        with pytest.raises(EmptyHistogramError):  # only outside values: still empty
            h.quantile_of(150)


def test_bad_arguments_raise():
    with picollo.Histogram() as h:
        h.record(10)
        with pytest.raises(InvalidArgumentError) as e:
            h.count_between(11, 10)
        assert e.value.status == picollo.Status.INVALID_ARGUMENT
        for bad in (-1, 2**64):
            for call in (h.rank_of, h.quantile_of, h.equivalent_range,
                         lambda v: h.count_between(v, v)):
                with pytest.raises(ValueError, match="2\\*\\*64"):
                    call(bad)
        for bad in (1.5, "3", None, True):
            with pytest.raises(TypeError):
                h.rank_of(bad)
    for call in (lambda: h.rank_of(1), lambda: h.quantile_of(1),
                 lambda: h.count_between(1, 2), lambda: h.equivalent_range(1)):
        with pytest.raises(ClosedError):
            call()
