"""FloatHistogram against numpy's order statistics: every standard percentile is within the
histogram's relative error of the exact one, in its bucket, with its sign; NaN and ±∞ are
counted apart; min and max are exact and the sum is within 1e-9 of the exact sum (relative
to the sum of magnitudes), for data over the whole range of doubles."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import picollo
from conftest import expected_rank_count

RELATIVE_ERRORS = (0.1, 0.01, 0.001, 1e-5)
DBL_MAX = np.finfo(np.float64).max
DBL_TRUE_MIN = np.nextafter(0.0, 1.0)  # 5e-324, the smallest subnormal
DBL_MIN = np.finfo(np.float64).tiny  # 2.2e-308, the smallest normal


def signs(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice([-1.0, 1.0], n)


def signed_normal(rng, n, h):
    return rng.normal(0.0, 1000.0, n)


def log_uniform(rng, n, h):
    """Magnitudes from 1e-300 to 1e300, uniform in their logarithm, both signs."""
    return signs(rng, n) * 10.0 ** rng.uniform(-300.0, 300.0, n)


def subnormals(rng, n, h):
    """k times the smallest subnormal (exact for k < 2**52), k log-uniform: every
    subnormal octave from 5e-324 to 2.2e-308, both signs, and the two ends."""
    k = np.floor(2.0 ** rng.uniform(0.0, 52.0, n))
    values = signs(rng, n) * k * DBL_TRUE_MIN
    ends = [DBL_TRUE_MIN, -DBL_TRUE_MIN, np.nextafter(DBL_MIN, 0.0), -np.nextafter(DBL_MIN, 0.0)]
    return np.concatenate([values, ends])


def huge(rng, n, h):
    """±DBL_MAX, then pairs of opposite signs near ±1.6e308, each pair's sign chosen to
    bring the running sum back towards zero: in this order no running sum overflows, so
    the true sum is a double and the sum can be checked."""
    x = 1.6e308 * (1.0 - rng.uniform(0.0, 0.06, n // 2))
    y = 1.6e308 * (1.0 - rng.uniform(0.0, 0.06, n // 2))
    out, running = [DBL_MAX, -DBL_MAX], 0.0
    for a, b in zip(x.tolist(), y.tolist()):
        s = -1.0 if (running > 0) == (a > b) else 1.0
        out += [s * a, -s * b]
        running += s * (a - b)
    return np.array(out)


def adversarial(rng, n, h):
    """Zeros of both signs, both ends of buckets (from the histogram's own
    equivalent_range) and the doubles just outside them, a hot value, the extremes of the
    double range, and NaN and ±∞ in between."""
    parts = [np.zeros(50), np.full(50, -0.0), np.full(n // 4, 3.14159)]
    for x in signs(rng, 200) * 10.0 ** rng.uniform(-10.0, 10.0, 200):
        lowest, highest = h.equivalent_range(x)
        parts.append([lowest, highest, np.nextafter(lowest, -np.inf),
                      np.nextafter(highest, np.inf)])
    parts.append([DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, -DBL_MIN])
    parts.append(signed_normal(rng, n // 2, h))
    parts.append([np.nan] * 30 + [np.inf] * 20 + [-np.inf] * 10)
    values = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts])
    return rng.permutation(values)


DATASETS = [signed_normal, log_uniform, subnormals, huge, adversarial]


def size(dataset, relative_error: float) -> int:
    """Values per dataset. At 1e-5 an octave holds 65,536 buckets (a 512 KiB sparse
    block): data spread over thousands of octaves gets a few hundred values."""
    if relative_error < 1e-4 and dataset is log_uniform:
        return 400
    return 20_000


def exact_sum(values: np.ndarray) -> Fraction:
    return sum((Fraction(float(v)) for v in values), Fraction(0))


def assert_sum_is_exact_enough(h: picollo.FloatHistogram, finite: np.ndarray) -> None:
    """The sum within 1e-9 of the exact one, relative to the sum of magnitudes (exact
    rationals: no overflow, no rounding)."""
    assert abs(Fraction(h.sum) - exact_sum(finite)) <= Fraction(1e-9) * exact_sum(np.abs(finite))


def assert_matches_numpy(h: picollo.FloatHistogram, values: np.ndarray,
                         check_sum: bool = True) -> None:
    finite = values[np.isfinite(values)]
    ordered = np.sort(finite)
    n = len(ordered)
    assert (h.total, h.underflow, h.overflow, h.saturated) == (n, 0, 0, 0)
    assert h.nan == int(np.isnan(values).sum())
    assert h.positive_infinity == int((values == np.inf).sum())
    assert h.negative_infinity == int((values == -np.inf).sum())
    assert h.zero == int((finite == 0).sum())

    e = h.relative_error
    for p in h.percentiles(picollo.STANDARD_RANKS):
        k = expected_rank_count(p.rank, n)
        y = ordered[k - 1]
        assert p.rank_count == k
        assert abs(p.value - y) <= e * abs(y), (p, y)
        assert np.sign(p.value) == np.sign(y), (p, y)
        assert p.lowest <= y <= p.highest, (p, y)
        assert p.side == int(np.sign(y))
        assert p.cumulative_count >= k > p.cumulative_count - p.count

    # The extremes are the recorded doubles themselves.
    assert h.min == ordered[0] and h.max == ordered[-1]
    if check_sum:
        assert_sum_is_exact_enough(h, finite)


@pytest.mark.parametrize("relative_error", RELATIVE_ERRORS)
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.__name__)
def test_every_standard_percentile_is_within_the_relative_error_of_numpys(dataset,
                                                                          relative_error):
    rng = np.random.default_rng([RELATIVE_ERRORS.index(relative_error),
                                 DATASETS.index(dataset)])
    with picollo.FloatHistogram(relative_error, counter_bits=32) as h:
        values = dataset(rng, size(dataset, relative_error), h)
        # Half through one record_many call (a numpy buffer), half one value at a time.
        half = len(values) // 2
        assert h.record_many(values[:half]) == half
        for x in values[half:].tolist():
            h.record(x)
        assert h.relative_error <= relative_error
        assert_matches_numpy(h, values)


@pytest.mark.parametrize("mode", ["single", "interlocked"])
def test_a_running_sum_that_never_overflows_gives_the_sum(mode):
    with picollo.FloatHistogram(0.01, mode=mode) as h:
        for x in (1e308, -1.05e308, 1e308, -1.05e308):
            h.record(x)
        assert h.sum == pytest.approx(-1e307, rel=1e-12)


@pytest.mark.parametrize("mode", ["single", "interlocked"])
def test_the_sum_of_huge_values_of_both_signs_is_a_double_when_the_true_sum_is(mode):
    rng = np.random.default_rng(7)
    values = huge(rng, 2_000, None)
    with picollo.FloatHistogram(0.01, mode=mode) as h:
        h.record_many(values)
        assert abs(exact_sum(values)) < Fraction(DBL_MAX)  # the true sum is a double
        assert_sum_is_exact_enough(h, values)


@pytest.mark.parametrize("relative_error", [0.1, 0.001])
def test_the_bounds_of_buckets_land_in_their_own_bucket(relative_error):
    """A bucket's lowest and highest values report its midpoint; the doubles just outside
    report the neighbouring buckets."""
    with picollo.FloatHistogram(relative_error) as h:
        for x in [1e-300, -3.5, 1.0, 7e200, -DBL_TRUE_MIN * 1e6]:
            lowest, highest = h.equivalent_range(x)
            assert lowest <= x <= highest
            for inside in (lowest, highest):
                h.reset()
                h.record(inside)
                assert h.percentile(50).lowest == lowest
                assert h.percentile(50).highest == highest
            for outside in (np.nextafter(lowest, -np.inf), np.nextafter(highest, np.inf)):
                h.reset()
                h.record(outside)
                p = h.percentile(50)
                assert (p.lowest, p.highest) != (lowest, highest)
                assert p.lowest <= outside <= p.highest


def test_nan_and_infinities_never_enter_quantiles():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many([np.nan, np.inf, -np.inf] * 100 + [2.0])
        assert (h.total, h.nan, h.positive_infinity, h.negative_infinity) == (1, 100, 100, 100)
        for p in h.percentiles([0, 50, 100]):
            assert 2.0 in p and p.value == pytest.approx(2.0, rel=h.relative_error)
        assert h.min == h.max == h.sum == 2.0


def test_the_zero_bucket_holds_both_zeros_and_reports_zero():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many([-0.0, 0.0, 0.0, -1.0, 1.0])
        assert h.zero == 3
        p = h.percentile(50)
        assert (p.value, p.lowest, p.highest, p.count, p.side) == (0.0, 0.0, 0.0, 3, 0)
        assert h.equivalent_range(-0.0) == (0.0, 0.0)
