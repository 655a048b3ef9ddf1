"""Summary fields and the text the library renders: table, diff, line, JSON, percentile."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import demo
import picollo

SEED_P99 = re.compile(r"^P99=24,960 \[83 / 609\]: \[24,832, 25,088\) (\d{1,3}(?:,\d{3})*)$")


def test_seed_p99_display_format(getting_started, getting_started_values):
    p99 = getting_started.summary().p(99)
    m = SEED_P99.match(str(p99))
    assert m, str(p99)
    in_bucket = int(((getting_started_values >= 24_832) & (getting_started_values < 25_088)).sum())
    assert int(m.group(1).replace(",", "")) == p99.count == in_bucket
    assert (p99.value, p99.plus_minus, p99.storage_index, p99.logical_index) == (24_960, 128, 83, 609)
    assert str(getting_started.percentile(99)) == str(p99)


def test_summary_fields(getting_started, getting_started_values):
    s = getting_started.summary()
    assert len(s) == 16
    assert [p.rank for p in s] == list(picollo.STANDARD_RANKS)
    assert (s.total, s.overflow, s.underflow, s.saturated) == (1_000_000, 1, 0, 0)
    assert (s.min_trackable, s.max_trackable) == (10_000, 30_000)
    assert s.precision == 0.0078125
    assert s.mean == pytest.approx(float(np.mean(getting_started_values)), rel=0.0078125)
    assert s.stdev == pytest.approx(float(np.std(getting_started_values)), rel=0.02)
    assert s.p(99.9) is s.percentiles[12]
    assert (s.p50, s.p90, s.p99, s.p999) == (s.p(50), s.p(90), s.p(99), s.p(99.9))
    assert s.p(0).rank_count == 1 and s.p(100).rank_count == 1_000_000
    # the Picollo .NET announcement's rows (its P50/P99/P100 values are this data's too)
    assert [s.p(r).value for r in (0, 25, 50, 75, 90, 99, 100)] == [
        20_096, 20_352, 21_376, 22_912, 23_936, 24_960, 25_472]
    with pytest.raises(ValueError, match="standard rank"):
        s.p(42)


def table_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|")]


def test_table_structure(getting_started):
    text = getting_started.summary().table("Histogram Before")
    lines = text.splitlines()
    assert lines[0] == "##### Histogram Before"
    rows = table_rows(text)
    assert rows[0] == ["Percentile", "Value", "±", "Count"]
    assert rows[1][0].startswith(":--")
    ranks = [r[0] for r in rows[2:18]]
    assert ranks == ["0", "1", "5", "10", "25", "50", "75", "90", "92.5", "95", "97.5",
                     "99", "99.9", "99.99", "99.999", "100"]
    assert rows[13] == ["99", "24,960", "±128", "990,000"]
    assert rows[18] == ["Overflow", "", "", "1"]
    labels = {r[0]: r for r in rows[19:]}
    assert labels["Precision:"][1] == "0.7813%"
    assert labels["Precision:"][2:] == ["Total:", "1,000,000"]
    assert labels["Range Min:"][1:] == ["10,000", "Max:", "30,000"]
    assert labels["Mean:"][2] == "StDev:"
    # every row has the same width: it reads aligned in a terminal
    assert len({len(line) for line in lines[1:] if line.startswith("|")}) == 1
    assert str(getting_started) == getting_started.table() == getting_started.summary().table()
    assert str(getting_started.summary()) == getting_started.table()
    assert getting_started.table("T") == getting_started.summary().table("T")


def test_table_without_out_of_range_rows():
    with picollo.Histogram(relative_error=0.01, min=0, max=1000) as h:
        h.record_many(range(100))
        rows = table_rows(h.table())
        assert not any(r[0] in ("Overflow", "Underflow") for r in rows)
        h.record(5000)
        h.record(2**64 - 1)
        assert ["Overflow", "", "", "2"] in table_rows(h.table())


def test_diff_table(getting_started):
    before = getting_started.summary()
    getting_started.reset()
    getting_started.record_many(demo.second_distribution(np.random.default_rng(1), 200_000))
    after = getting_started.summary()
    text = before.diff(after, "Getting Started Diff", "Before", "After")
    assert text.splitlines()[0] == "##### Getting Started Diff"
    rows = table_rows(text)
    assert rows[0] == ["Percentile", "Before", "After", "Δ%"]
    assert len([r for r in rows[2:] if re.fullmatch(r"[\d.]+", r[0])]) == 16
    p50 = next(r for r in rows if r[0] == "50")
    delta = (after.p(50).value - before.p(50).value) / before.p(50).value * 100
    assert p50[3] == f"{delta:+.1f}%"
    labels = {r[0]: r for r in rows}
    assert labels["Total:"][1:] == ["1,000,000", "200,000", "-80.0%"]
    assert labels["Precision:"][1:] == ["0.7813%", "0.7813%", "0.0%"]
    d = labels["D-value:"][3]
    # Cohen's d with the pooled sample standard deviation, weighted by the counts
    na, nb = before.total, after.total
    pooled = math.sqrt((na * before.stdev**2 + nb * after.stdev**2) / (na + nb - 2))
    assert d == f"{(after.mean - before.mean) / pooled:.2f}"
    default_names = table_rows(before.diff(after))[0]
    assert default_names[1:3] == ["A", "B"]
    with pytest.raises(TypeError):
        before.diff(getting_started)


def test_line_and_json(getting_started):
    s = getting_started.summary()
    line = s.line("Before")
    assert line.startswith("Before: Total=1,000,000, Overflow=1, ")
    assert "P99=24,960" in line and "\n" not in line
    d = s.to_dict()
    assert d == picollo.Summary.to_dict(s)
    assert d["minTrackableValue"] == 10_000 and d["maxTrackableValue"] == 30_000
    assert (d["totalCount"], d["underflowCount"], d["overflowCount"]) == (1_000_000, 0, 1)
    assert d["mean"] == s.mean and d["stDev"] == s.stdev and d["precision"] == 0.0078125
    assert len(d["percentiles"]) == 16
    for j, p in zip(d["percentiles"], s):
        assert (j["rank"], j["value"], j["lower"], j["upper"], j["count"],
                j["cumulativeCount"]) == (p.rank, p.value, p.lower, p.upper, p.count,
                                          p.cumulative_count)


def test_empty_histogram_summary_and_text():
    with picollo.Histogram() as h:
        s = h.summary()
        assert s.total == 0 and math.isnan(s.mean)
        assert "n/a" in s.table()
        assert s.to_dict()["mean"] is None
        with pytest.raises(picollo.EmptyHistogramError) as e:
            h.percentile(50)
        assert e.value.status == picollo.Status.EMPTY
        assert h.percentiles([]) == []
        assert "D-value" in s.diff(s)


def test_unicode_titles_round_trip():
    with picollo.Histogram() as h:
        h.record(1)
        assert h.table("Latenz µs — Δ").splitlines()[0] == "##### Latenz µs — Δ"
        assert h.summary().line("名前").startswith("名前: ")
