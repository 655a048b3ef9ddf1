"""Histogram.linear_steps and log_steps (HdrHistogram's linear and logarithmic iterations)
against the buckets they gather, in every counter width and mode."""

from __future__ import annotations

import math

import numpy as np
import pytest

import picollo
from conftest import BITS_AND_MODES, U64_MAX, recorded_histogram
from picollo import ClosedError, InvalidArgumentError, Step



@pytest.fixture(params=BITS_AND_MODES)
def hist(request, mixed_values):
    """Every mixed value below 10**7 (linear steps over the rest would be too many)."""
    yield from recorded_histogram(request.param, mixed_values[mixed_values < 10**7])


@pytest.fixture(params=BITS_AND_MODES)
def wide(request, mixed_values):
    """Every mixed value, up to 2**64 - 1."""
    yield from recorded_histogram(request.param, mixed_values)


def check_steps(h: picollo.Histogram, steps: list[Step]) -> None:
    """Contiguous from 0; each bucket's count in the step holding its midpoint; the last
    step holds the largest midpoint; cumulative counts and percentiles are running sums."""
    assert steps and steps[0].lower == 0
    for a, b in zip(steps, steps[1:]):
        assert b.lower == a.highest + 1 == a.upper
    for s in steps:
        assert s.lower <= s.highest and s.lower in s and s.highest in s
    highests = np.array([s.highest for s in steps], dtype=np.uint64)
    counts = np.zeros(len(steps), dtype=np.int64)
    buckets = list(h)
    for b in buckets:
        i = int(np.searchsorted(highests, np.uint64(b.value), side="left"))
        assert b.value in steps[i]
        counts[i] += b.count
    assert [s.count for s in steps] == counts.tolist()
    assert buckets[-1].value in steps[-1]
    total = h.total
    assert [s.cumulative_count for s in steps] == np.cumsum(counts).tolist()
    assert steps[-1].cumulative_count == total
    percentiles = np.array([s.percentile for s in steps])
    cumulative = np.array([s.cumulative_count for s in steps], dtype=np.float64)
    np.testing.assert_allclose(percentiles, cumulative / total * 100, rtol=1e-12)


@pytest.mark.parametrize("width", [1_000, 12_345, 10**6, 2**22])
def test_linear_steps_gather_each_bucket_in_the_step_holding_its_midpoint(hist, width):
    steps = list(hist.linear_steps(width))
    check_steps(hist, steps)
    for k, s in enumerate(steps):
        assert (s.lower, s.highest) == (k * width, (k + 1) * width - 1)


def test_linear_steps_of_one_value_count_the_width_one_buckets_exactly(mixed_values):
    small = mixed_values[mixed_values < 1024]
    with picollo.Histogram() as h:
        h.record_many(small)
        steps = list(h.linear_steps(1))
        check_steps(h, steps)
        expected = np.bincount(small.astype(np.int64))
        assert [s.count for s in steps] == expected.tolist()
        assert steps[-1].lower == int(small.max())


@pytest.mark.parametrize(("first", "base"), [(1, 2.0), (10, 10.0), (1, 1.1), (3, 1.5),
                                             (1_000, 1.01), (2**40, 3.0)])
def test_log_steps_grow_geometrically_and_gather_each_bucket_by_its_midpoint(wide, first,
                                                                              base):
    steps = list(wide.log_steps(first, base))
    check_steps(wide, steps)
    assert steps[0].highest == first - 1 and steps[1].lower == first
    assert steps[-1].highest == U64_MAX  # the largest value recorded is 2**64 - 1
    for j in range(2, len(steps)):
        # Step j starts at ceil(first · base^(j-1)), at least one past the previous start.
        x = first * base ** (j - 1)
        expected = max(math.ceil(x), steps[j - 1].lower + 1)
        # The library's power (by squaring) and Python's round differently: up to a few
        # hundred ulps apart after thousands of steps.
        slack = x * 1e-12
        if slack < 0.01 and abs(x - round(x)) > slack:
            assert steps[j].lower == expected, (j, x)
        else:
            assert abs(steps[j].lower - expected) <= 1 + slack, (j, x)


def test_steps_end_at_the_top_of_the_u64_range():
    with picollo.Histogram() as h:
        h.record(U64_MAX)
        h.record(5)
        assert [(s.lower, s.highest, s.count) for s in h.linear_steps(2**63)] == [
            (0, 2**63 - 1, 1), (2**63, U64_MAX, 1)]
        assert [(s.lower, s.highest, s.count) for s in h.log_steps(2**62, 2.0)] == [
            (0, 2**62 - 1, 1), (2**62, 2**63 - 1, 0), (2**63, U64_MAX, 1)]
        last = list(h.log_steps(1, 1e300))[-1]
        assert (last.lower, last.highest, last.upper) == (1, U64_MAX, 2**64)


@pytest.mark.parametrize("batch", [1, 7, 10**5])
def test_batches_of_any_size_give_the_same_steps(hist, batch):
    linear = list(hist.linear_steps(12_345))
    assert len(linear) > 100
    assert list(hist.linear_steps(12_345, batch=batch)) == linear
    assert list(hist.log_steps(3, 1.5, batch=batch)) == list(hist.log_steps(3, 1.5))


def test_an_empty_histogram_has_no_steps():
    with picollo.Histogram(min=100, max=1_000) as h:
        assert list(h.linear_steps(10)) == [] and list(h.log_steps(1, 2.0)) == []
        h.record(5)  # underflow
        h.record(5_000)  # overflow
        assert list(h.linear_steps(10)) == [] and list(h.log_steps(1, 2.0)) == []
        h.record(500)
        assert [s.count for s in h.log_steps(1, 10.0)] == [0, 0, 0, 1]
        h.reset()
        assert list(h.linear_steps(10)) == []


def test_bad_arguments_raise_when_the_steps_are_asked_for(hist):
    # Before any step is taken: the generator is not left to fail at its first `next`.
    with pytest.raises(InvalidArgumentError, match="width") as e:
        hist.linear_steps(0)
    assert e.value.status == picollo.Status.INVALID_ARGUMENT
    with pytest.raises(InvalidArgumentError):
        hist.log_steps(0, 2.0)
    for base in (1.0, 0.5, 0.0, -2.0, math.nan, math.inf, -math.inf):
        with pytest.raises(InvalidArgumentError, match="base"):
            hist.log_steps(1, base)
    with picollo.Histogram() as empty:  # also without anything to iterate over
        with pytest.raises(InvalidArgumentError):
            empty.linear_steps(0)
        with pytest.raises(InvalidArgumentError):
            empty.log_steps(1, math.nan)
    for batch in (0, -1, True, 1.5, None):
        with pytest.raises(ValueError, match="batch"):
            hist.linear_steps(10, batch=batch)
        with pytest.raises(ValueError, match="batch"):
            hist.log_steps(1, 2.0, batch=batch)
    for width in (-1, 2**64):
        with pytest.raises(ValueError, match="2\\*\\*64"):
            hist.linear_steps(width)
    with pytest.raises(TypeError):
        hist.linear_steps(1.5)
    with pytest.raises(TypeError):
        hist.log_steps(1, "2")


def test_closing_the_histogram_ends_the_steps_with_an_error(mixed_values):
    h = picollo.Histogram()
    h.record_many(mixed_values[mixed_values < 10**7])
    steps = h.linear_steps(1_000, batch=4)
    assert next(steps).lower == 0
    h.close()
    with pytest.raises(ClosedError):
        next(steps)
    with pytest.raises(ClosedError):
        h.log_steps(1, 2.0)
