"""Cumulative (picollo_cumulative) answers as the histogram it was made from: every
percentile (the whole result), rank, quantile and count between values equal to the live
histogram's own answers, over seeded random histograms of every counter width, mode, value
selection and range; and it keeps its moment while the histogram goes on."""

from __future__ import annotations

import numpy as np
import pytest

import picollo
from picollo import ClosedError, EmptyHistogramError, InvalidArgumentError

HISTOGRAMS = 50
RANKS = 10_000
SELECTIONS = ("midpoint", "lower", "upper", "interpolated")


def random_histogram(rng: np.random.Generator) -> picollo.Histogram:
    """A histogram of a random configuration holding random values, some outside its range."""
    low = int(rng.integers(0, 1000))
    high = low + 1 + (int(rng.integers(1, 2**63)) >> int(rng.integers(0, 40)))
    h = picollo.Histogram(float(rng.choice([0.05, 0.01, 0.001, 0.0005])), min=low,
                          max=high, counter_bits=int(rng.choice([32, 64])),
                          mode=str(rng.choice(picollo.MODES)),
                          value_selection=str(rng.choice(SELECTIONS)))
    size = int(rng.integers(1, 5000))
    magnitudes = rng.integers(0, 64, size=size, dtype=np.uint64)
    values = rng.integers(0, 2**63, size=size, dtype=np.uint64) >> magnitudes
    h.record_many(values % np.uint64(min(2 * high, 2**64 - 1)))
    return h


def random_ranks(rng: np.random.Generator) -> list[float]:
    """RANKS random ranks in [0, 100] with both ends, strictly increasing."""
    ranks = np.concatenate([rng.random(RANKS) * 100.0, [0.0, 50.0, 99.9, 100.0]])
    return [float(r) for r in np.unique(ranks)]


def test_every_answer_equals_the_live_histograms() -> None:
    rng = np.random.default_rng(64)
    for k in range(HISTOGRAMS):
        with random_histogram(rng) as h, h.cumulative() as c:
            assert c.total == h.summary().total, k
            ranks = random_ranks(rng)
            assert c.percentiles(ranks) == h.percentiles(ranks), k
            for rank in ranks[:: RANKS // 20]:
                assert c.percentile(rank) == h.percentile(rank), (k, rank)
            for _ in range(200):
                a, b = (int(v) >> int(rng.integers(0, 64)) for v in rng.integers(0, 2**63, 2))
                lo, hi = min(a, b), max(a, b)
                assert c.rank_of(a) == h.rank_of(a), (k, a)
                assert c.quantile_of(a) == h.quantile_of(a), (k, a)
                assert c.count_between(lo, hi) == h.count_between(lo, hi), (k, lo, hi)


def test_the_copy_keeps_its_moment() -> None:
    with picollo.Histogram(min=1, max=10**6) as h:
        h.record_many(np.arange(1, 1001, dtype=np.uint64))
        before = h.percentiles([50.0, 99.9])
        with h.cumulative() as c:
            h.record_many(np.full(5000, 900_000, dtype=np.uint64))
            assert c.percentiles([50.0, 99.9]) == before
            assert c.total == 1000
            assert h.summary().total == 6000


def test_bad_input_raises_as_the_live_histogram() -> None:
    with picollo.Histogram(min=1, max=1000) as h:
        with h.cumulative() as empty:
            with pytest.raises(EmptyHistogramError):
                empty.percentile(50.0)
            with pytest.raises(EmptyHistogramError):
                empty.quantile_of(5)
        h.record(5)
        c = h.cumulative()
        for bad in (-1.0, 100.5, float("nan")):
            with pytest.raises(InvalidArgumentError):
                c.percentile(bad)
            with pytest.raises(InvalidArgumentError):
                h.percentile(bad)
        with pytest.raises(InvalidArgumentError):
            c.percentiles([50.0, 40.0])
        with pytest.raises(InvalidArgumentError):
            c.count_between(10, 9)
        with pytest.raises(ValueError):
            c.rank_of(-1)
        c.close()
        with pytest.raises(ClosedError):
            c.percentile(50.0)
    with picollo.FloatHistogram() as f, pytest.raises(TypeError):
        picollo.Cumulative(f)
