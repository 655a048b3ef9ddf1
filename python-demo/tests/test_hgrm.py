"""to_hgrm(): HdrHistogram's percentile distribution (.hgrm) through the C ABI."""

from __future__ import annotations

import math

import numpy as np
import pytest

from picollo import ClosedError, Histogram, InvalidArgumentError, Status

THREE_DIGITS = 2**-11  # HdrHistogram's 3-significant-digit layout


@pytest.fixture
def h():
    rng = np.random.default_rng(7)
    with Histogram(relative_error=THREE_DIGITS) as h:
        h.record_many(rng.lognormal(9, 1, 10_000).astype(np.uint64))
        yield h


def rows(text: str) -> list[list[str]]:
    """The percentile rows of the plain format (header, blank line and footer dropped)."""
    lines = text.splitlines()
    return [line.split() for line in lines[2:] if line and not line.startswith("#")]


def test_the_plain_format(h):
    text = h.to_hgrm()
    lines = text.splitlines()
    assert lines[0].split() == ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"]
    assert lines[1] == ""
    table = rows(text)
    assert all(len(r) == 4 for r in table[:-1]) and len(table[-1]) == 3
    assert float(table[0][1]) == 0.0 and float(table[-1][1]) == 1.0
    assert int(table[-1][2]) == h.total
    counts = [int(r[2]) for r in table]
    assert counts == sorted(counts)
    levels = [float(r[1]) for r in table]
    assert levels == sorted(levels)
    # every value is the top of a non-empty bucket, printed with 3 decimals (3 digits)
    highest = {b.highest for b in h}
    for r in table:
        assert r[0].endswith(".000") and int(float(r[0])) in highest
    assert int(float(table[-1][0])) == max(highest)
    footer = [line for line in lines if line.startswith("#[")]
    assert [f.split()[0] for f in footer] == ["#[Mean", "#[Max", "#[Buckets"]
    assert f"{h.total}" in footer[1]
    mean = float(footer[0].split("=")[1].split(",")[0])
    assert math.isclose(mean, h.mean, rel_tol=1e-3)
    assert text.endswith("\n")


def test_more_ticks_give_more_rows(h):
    assert len(rows(h.to_hgrm(ticks=10))) > len(rows(h.to_hgrm())) > len(rows(h.to_hgrm(ticks=1)))
    assert len(rows(h.to_hgrm(ticks=10_000))) > len(rows(h.to_hgrm(ticks=10)))


def test_the_unit_ratio_divides_the_values(h):
    plain, scaled = rows(h.to_hgrm()), rows(h.to_hgrm(unit_ratio=1000.0))
    assert len(plain) == len(scaled)
    for a, b in zip(plain, scaled):
        assert math.isclose(float(a[0]) / 1000, float(b[0]), abs_tol=0.0005)
        assert a[1:] == b[1:]


def test_csv(h):
    text = h.to_hgrm(csv=True)
    lines = text.splitlines()
    assert lines[0] == '"Value","Percentile","TotalCount","1/(1-Percentile)"'
    assert not any(line.startswith("#") for line in lines)
    assert lines[-1].endswith(",Infinity")
    assert int(lines[-1].split(",")[2]) == h.total
    assert len(lines) - 1 == len(rows(h.to_hgrm()))


def test_counts_outside_the_range_are_named_not_distributed():
    with Histogram(relative_error=THREE_DIGITS, min=100, max=10_000) as h:
        h.record_many([5, 500, 600, 50_000, 60_000])
        text = h.to_hgrm()
        assert int(rows(text)[-1][2]) == 2
        assert "underflow = 1, overflow = 2" in text


def test_an_empty_histogram_has_a_header_and_a_footer_of_zeros():
    with Histogram() as h:
        text = h.to_hgrm()
        assert rows(text) == []
        assert "#[Mean" in text and "#[Max" in text


@pytest.mark.parametrize("kw", [{"ticks": 0}, {"ticks": 10_001}, {"unit_ratio": 0.0}, {"unit_ratio": -1.0},
                                {"unit_ratio": math.nan}, {"unit_ratio": math.inf}])
def test_bad_arguments_are_the_librarys_invalid_argument(h, kw):
    with pytest.raises(InvalidArgumentError) as e:
        h.to_hgrm(**kw)
    assert e.value.status == Status.INVALID_ARGUMENT


@pytest.mark.parametrize("kw", [{"ticks": -1}, {"ticks": 2**32}, {"ticks": 2.5},
                                {"unit_ratio": "1"}])
def test_bad_python_arguments_never_reach_the_library(h, kw):
    with pytest.raises((TypeError, ValueError)):
        h.to_hgrm(**kw)


def test_a_closed_histogram():
    h = Histogram()
    h.close()
    with pytest.raises(ClosedError):
        h.to_hgrm()
