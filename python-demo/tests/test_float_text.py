"""FloatHistogram's text (the Markdown table, the one-line summary, the diff table) and
FloatSnapshot with deltas."""

from __future__ import annotations

import re

import numpy as np
import pytest

import picollo
from picollo import ClosedError, LayoutMismatchError


@pytest.fixture
def latencies():
    """Seconds: a lognormal body, a NaN, a +∞ and an overflow beside the buckets."""
    with picollo.FloatHistogram(0.01, max_magnitude=1e3) as h:
        h.record_many(np.random.default_rng(0).lognormal(-6.0, 1.0, 10_000))
        h.record_many([np.nan, np.inf, 5e3, 0.0])
        yield h


def rows(table: str) -> dict[str, list[str]]:
    """The table's rows by their first cell."""
    out = {}
    for line in table.splitlines():
        if line.startswith("| "):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out.setdefault(cells[0], cells[1:])
    return out


def test_the_table_shows_percentiles_the_counts_apart_and_exact_extremes(latencies):
    h = latencies
    table = h.table("Latency (s)")
    assert table.startswith("##### Latency (s)\n")
    r = rows(table)
    assert r["Percentile"] == ["Value", "±", "Count"]
    for rank in ("0", "50", "99", "99.9", "100"):
        assert rank in r
    assert r["NaN"][-1] == "1" and r["+Infinity"][-1] == "1" and r["Overflow"][-1] == "1"
    assert "-Infinity" not in r and "Underflow" not in r
    assert r["Precision:"] == ["0.7813%", "Total:", "10,001"]
    assert r["Sum:"][1:] == ["Zero:", "1"]
    assert float(r["Sum:"][0]) == pytest.approx(h.sum, rel=1e-5)
    p50 = h.percentile(50)
    assert float(r["50"][0]) == pytest.approx(p50.value, rel=1e-3)
    assert r["50"][2] == f"{p50.rank_count:,}"
    assert r["Min:"][1] == "Max:"
    assert float(r["Min:"][0]) == h.min == 0.0
    assert float(r["Min:"][2]) == pytest.approx(h.max, rel=1e-5)
    # str() is the untitled table, the same from the histogram and from its summary.
    assert str(h) == h.table() == str(h.summary()) == h.summary().table()
    assert h.summary().table("Latency (s)") == table


def test_the_json_is_the_summary_field_for_field(latencies):
    s = latencies.summary()
    d = s.to_dict()
    assert d["minMagnitude"] == s.min_magnitude and d["maxMagnitude"] == s.max_magnitude
    counts = {"totalCount": s.total, "zeroCount": s.zero, "nanCount": s.nan,
              "positiveInfinityCount": s.positive_infinity,
              "negativeInfinityCount": s.negative_infinity, "underflowCount": s.underflow,
              "overflowCount": s.overflow, "saturatedCount": s.saturated}
    assert {k: d[k] for k in counts} == counts
    assert (d["nanCount"], d["positiveInfinityCount"], d["overflowCount"]) == (1, 1, 1)
    assert (d["sum"], d["min"], d["max"]) == (s.sum, s.min, s.max)
    assert (d["mean"], d["stDev"], d["precision"]) == (s.mean, s.stdev, s.precision)
    assert len(d["percentiles"]) == 16
    for j, p in zip(d["percentiles"], s):
        assert (j["rank"], j["value"], j["plusMinus"], j["lowest"], j["highest"], j["count"],
                j["cumulativeCount"], j["rankCount"]) == (
            p.rank, p.value, p.plus_minus, p.lowest, p.highest, p.count,
            p.cumulative_count, p.rank_count)
    assert s.json() == picollo.FloatSummary.json(s) and "\n" not in s.json()


def test_the_json_of_an_empty_histogram_has_nulls():
    with picollo.FloatHistogram() as h:
        d = h.summary().to_dict()
    assert d["totalCount"] == 0 and d["sum"] == 0.0
    assert d["min"] is None and d["max"] is None and d["mean"] is None


def test_an_empty_histogram_has_dashes():
    with picollo.FloatHistogram() as h:
        r = rows(str(h))
        assert r["50"][:2] == ["-", "-"] and r["Mean:"][0] == "-" and r["Min:"][0] == "-"
        assert h.line("idle") == h.summary().line("idle") == "idle: Total=0"


def test_the_line_names_the_counts_apart(latencies):
    line = latencies.line("latency")
    assert re.fullmatch(r"latency: Total=10,001, Mean=\S+, Min=0, P50=\S+, P90=\S+, "
                        r"P99=\S+, P99\.9=\S+, Max=\S+, NaN=1, \+Infinity=1, Overflow=1",
                        line), line
    assert latencies.line() == line.removeprefix("latency: ")


def line_cases():
    """Histograms whose lines exercise every number format of the line: grouped decimals,
    scientific notation on both sides, negative values, ties in rounding, powers of ten,
    subnormals, the counts apart."""
    rng = np.random.default_rng(9)
    yield "normal", 0.01, rng.normal(0.0, 1e4, 5_000)
    yield "tiny", 0.001, rng.uniform(1e-9, 1e-7, 1_000)
    yield "huge", 0.1, -rng.uniform(1e15, 1e300, 1_000)
    yield "subnormal", 0.01, rng.uniform(1, 1e6, 100) * 5e-324
    yield "powers of ten", 1e-5, 10.0 ** np.arange(-5, 16)
    yield "ties", 0.1, [1.125, 2.5, 0.0625, 1000.5, 12.25]
    yield "around 1e-3", 0.001, [0.001, 0.00099999, 0.0010001, 1e15, 999999999999999.9]
    yield "specials", 0.01, [np.nan, np.inf, -np.inf, 1.0, -1.0, 0.0]


@pytest.mark.parametrize("name,relative_error,values", list(line_cases()),
                         ids=[c[0] for c in line_cases()])
def test_a_summarys_line_is_the_librarys_line(name, relative_error, values):
    """A histogram's line (picollo_float_histogram_text) and its summary's line
    (picollo_float_summary_line, what snapshots use) read the same."""
    with picollo.FloatHistogram(relative_error) as h:
        h.record_many(values)
        for selection in ("midpoint", "lower"):
            h.value_selection = selection
            assert h.summary().line(name) == h.line(name)


def test_the_diff_table_compares_two_histograms(latencies):
    with picollo.FloatHistogram(0.01, max_magnitude=1e3) as slower:
        slower.record_many(np.random.default_rng(0).lognormal(-5.0, 1.0, 10_000))
        text = latencies.diff(slower, "Before / After", name_a="Before", name_b="After")
        assert text.startswith("##### Before / After\n")
        r = rows(text)
        assert r["Percentile"] == ["Before", "After", "Δ%"]
        # e^1 slower: every percentile about +172 %
        assert float(r["50"][2].rstrip("%")) == pytest.approx(171.8, abs=10)
        assert r["Total:"][:2] == ["10,001", "10,000"]
        assert re.fullmatch(r"-?\d+\.\d\d", r["D-value:"][-1])
        assert latencies.summary().diff(slower.summary(), "Before / After", "Before",
                                        "After") == text
        assert latencies.diff(slower.snapshot(), "Before / After", "Before", "After") == text
        with pytest.raises(TypeError, match="FloatSummary"):
            latencies.summary().diff(picollo.Histogram().summary())


def test_text_arguments_are_checked(latencies):
    with pytest.raises(ValueError, match="NUL"):
        latencies.table("a\0b")
    with pytest.raises(TypeError):
        latencies.line(5)
    with pytest.raises(ValueError, match="NUL"):
        latencies.summary().line("a\0b")


def test_a_snapshot_with_deltas_holds_what_was_recorded_since_the_last_update():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many(np.full(1_000, 1.0))
        with h.snapshot() as s:
            assert s.total == 1_000 and s.summary().min == 1.0
            h.record_many(np.full(10, 1000.0))
            h.record_many([np.nan, -np.inf])
            delta = s.update(deltas=True).summary()
            assert (delta.total, delta.nan, delta.negative_infinity) == (10, 1, 1)
            assert delta.p50.value == pytest.approx(1000.0, rel=h.relative_error)
            assert delta.p(0).value == pytest.approx(1000.0, rel=h.relative_error)
            assert delta.sum == 10_000.0 and delta.mean == 1000.0
            assert (delta.min, delta.max) == (None, None)  # an interval's extremes are unknown
            assert s.line("interval") == (
                "interval: Total=10, Mean=1,000, Min=NaN, P50=1,004, P90=1,004, P99=1,004, "
                "P99.9=1,004, Max=NaN, NaN=1, -Infinity=1")
            # Nothing new: an empty delta.
            assert s.update(deltas=True).total == 0
            # Full counts again.
            full = s.update().summary()
            assert (full.total, full.min, full.max) == (1_010, 1.0, 1000.0)
            assert str(s) == str(h) and s.table("T") == h.table("T")
            # A reset in between: the counts since the reset.
            h.reset()
            h.record_many([5.0, 6.0])
            assert s.update(deltas=True).total == 2


def test_a_snapshot_is_a_copy_and_refuses_another_layout():
    with picollo.FloatHistogram(0.01) as h, picollo.FloatHistogram(0.01) as twin, \
            picollo.FloatHistogram(0.01, min_magnitude=1.0) as narrower, \
            picollo.FloatHistogram(0.001) as finer:
        h.record(3.0)
        s = h.snapshot()
        h.record(4.0)
        assert s.total == 1  # taken when made, refreshed only by update
        twin.record_many([1.0, 2.0, 3.0])
        assert s.update(histogram=twin).total == 3
        for other in (narrower, finer):
            with pytest.raises(LayoutMismatchError):
                s.update(histogram=other)
        assert s.total == 3  # unchanged by the refused updates
        with pytest.raises(TypeError):
            s.update(histogram=picollo.Histogram())
        with pytest.raises(TypeError):
            picollo.FloatSnapshot(picollo.Histogram())
        s.close()
        s.close()
        assert s.closed
        with pytest.raises(ClosedError):
            s.update()
