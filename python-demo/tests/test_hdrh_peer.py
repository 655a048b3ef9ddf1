"""Against PyPI's hdrhistogram (module hdrh, pinned in requirements.txt): V2 blobs and
interval logs in both directions.

hdrh 0.10.8's own limits shape these tests: its HistogramLogWriter writes no tags and
declares format 1.2, floors the max column, and its output_start_time raises (the StartTime
header is written with output_comment here); its HistogramLogReader opens file names only
and skips intervals that start before the log's StartTime.
"""

from __future__ import annotations

import bisect
import io

import numpy as np
import pytest

from conftest import buckets
from picollo import Histogram, log

hdrh = pytest.importorskip(
    "hdrh", reason="the PyPI package hdrhistogram (module hdrh) is not installed, so the "
    "peer tests cannot run: pip install -r python-demo/requirements.txt (scripts/setup.sh "
    "does it)")
from hdrh.histogram import HdrHistogram  # noqa: E402
from hdrh.log import HistogramLogReader, HistogramLogWriter  # noqa: E402

#: relative_error of Picollo's layouts identical to HdrHistogram's 1..5 significant digits
DIGITS_ERROR = {1: 2**-5, 2: 2**-8, 3: 2**-11, 4: 2**-15, 5: 2**-18}
HOUR_NS = 3_600_000_000_000
START = 1_700_000_000.0
BASE = START - 10


def values(seed: int, size: int = 5_000) -> list[int]:
    rng = np.random.default_rng(seed)
    drawn = rng.lognormal(12, 2, size).astype(np.uint64)
    edges = [0, 1, 2, 3, 1000, 1023, 1024, 1025, 123_456, 10**9, 10**12, 2**40 + 7]
    return [int(v) for v in drawn if v < HOUR_NS] + edges


def ours(digits: int, vals: list[int]) -> Histogram:
    h = Histogram(relative_error=DIGITS_ERROR[digits])
    h.record_many(vals)
    return h


def theirs(digits: int, vals: list[int], lowest: int = 1) -> HdrHistogram:
    h = HdrHistogram(lowest, HOUR_NS, digits)
    for v in vals:
        assert h.record_value(v), v
    return h


def recorded(h: HdrHistogram) -> list[tuple[int, int, int]]:
    """hdrh's non-empty buckets through its own iteration: (lowest, highest, count)."""
    return [(h.get_lowest_equivalent_value(i.value_iterated_to),
             h.get_highest_equivalent_value(i.value_iterated_to), i.count_at_value_iterated_to)
            for i in h.get_recorded_iterator()]



class Counts:
    """Counts by value over a sorted bucket list: the bucket holding a value, or 0."""

    def __init__(self, bs: list[tuple[int, int, int]]):
        self.bs = bs
        self.lowers = [lo for lo, _, _ in bs]

    def __getitem__(self, value: int) -> int:
        k = bisect.bisect_right(self.lowers, value) - 1
        return self.bs[k][2] if k >= 0 and self.bs[k][0] <= value <= self.bs[k][1] else 0


# --- V2 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", [1, 2, 3, 4, 5])
def test_hdrh_decodes_our_encode_with_the_same_buckets(digits):
    with ours(digits, values(digits)) as h:
        peer = HdrHistogram.decode(h.encode())
        assert peer.significant_figures == digits
        assert peer.get_total_count() == h.total
        for b in h:
            assert peer.get_count_at_value(b.value) == b.count, b
            assert peer.get_lowest_equivalent_value(b.value) == b.lower
            assert peer.get_highest_equivalent_value(b.value) == b.highest
        if digits <= 3:  # hdrh iterates every counter in Python: seconds at 4 and 5 digits
            assert recorded(peer) == buckets(h)
        assert peer.get_max_value() == max(b.highest for b in h)


@pytest.mark.parametrize("level", [0, 6, 9, 10])
def test_hdrh_decodes_every_deflate_level(level):
    with ours(3, values(3)) as h:
        peer = HdrHistogram.decode(h.encode(level=level))
        assert peer.get_total_count() == h.total
        for b in h:
            assert peer.get_count_at_value(b.value) == b.count, (level, b)


def test_hdrh_decodes_other_layouts_at_the_next_finer_one():
    """Picollo's default (0.1 %, block size 512) goes out at 3 digits, each count in the
    HdrHistogram bucket that holds its bucket's midpoint."""
    vals = values(9)
    with Histogram() as h:
        h.record_many(vals)
        peer = HdrHistogram.decode(h.encode())
        assert peer.significant_figures == 3
        assert peer.get_total_count() == h.total == len(vals)
        for b in h:
            assert peer.get_count_at_value(b.value) == b.count
        assert sum(c for _, _, c in recorded(peer)) == h.total


def test_hdrh_decodes_underflow_and_overflow_as_counts_outside_the_range():
    with Histogram(relative_error=DIGITS_ERROR[3], min=1_000, max=100_000) as h:
        h.record_many([5, 50_000, 10**7, 10**7])
        peer = HdrHistogram.decode(h.encode())
        assert peer.get_total_count() == 4
        assert peer.get_count_at_value(50_000) == 1
        assert peer.get_max_value() > 100_000 and peer.get_min_value() < 1_000


@pytest.mark.parametrize("digits", [1, 2, 3, 4, 5])
def test_we_decode_hdrhs_encode(digits):
    vals = values(10 + digits)
    peer = theirs(digits, vals)
    blob = peer.encode()  # bytes: base64 of compressed V2
    with Histogram.decode(blob) as h:
        assert h.total == peer.get_total_count() == len(vals)
        assert h.precision == DIGITS_ERROR[digits]
        mine = buckets(h)
        if digits <= 3:
            assert mine == recorded(peer)
        counts = Counts(mine)
        for v in set(vals):
            assert counts[v] == peer.get_count_at_value(v), v
    with Histogram.decode(blob.decode("ascii")) as h:
        assert h.total == len(vals)


def test_we_decode_hdrh_with_a_lowest_discernible_value_above_one():
    """Lowest 1000 (HdrHistogram rounds it down to 512): from the second block on the
    buckets are ours; a first-block bucket's count lands at its midpoint."""
    vals = [v for v in values(20) if v >= 1]
    peer = theirs(3, vals, lowest=1000)
    with Histogram.decode(peer.encode()) as h:
        assert h.total == len(vals)
        counts = Counts(buckets(h))
        for lo, hi, count in recorded(peer):
            assert counts[(lo + hi + 1) // 2] == count, (lo, hi)


def test_add_encoded_sums_hdrhs_blobs_as_ours():
    """hdrh's 3- and 2-digit blobs add into a 3-digit histogram exactly as ours do."""
    vals_a, vals_b = values(30), values(31)
    with Histogram(relative_error=DIGITS_ERROR[3]) as h, \
            Histogram(relative_error=DIGITS_ERROR[3]) as expected, \
            ours(3, vals_a) as a, ours(2, vals_b) as b:
        h.add_encoded(theirs(3, vals_a).encode()).add_encoded(theirs(2, vals_b).encode())
        expected.add_encoded(a.encode()).add_encoded(b.encode())
        assert h.total == len(vals_a) + len(vals_b)
        assert buckets(h) == buckets(expected)


# --- interval logs --------------------------------------------------------------------------


def read_with_hdrh(text: str, tmp_path) -> tuple[list[HdrHistogram], float]:
    path = tmp_path / "ours.hlog"
    path.write_text(text)
    reader = HistogramLogReader(str(path), HdrHistogram(1, HOUR_NS, 3))
    got = []
    while (h := reader.get_next_interval_histogram()) is not None:
        got.append(h)
    reader.close()
    return got, reader.get_start_time_sec()


def test_hdrh_reads_our_log(tmp_path):
    plan = [(None, 10.0, 1.0, 3), ("api", 10.0, 1.0, 2), (None, 11.0, 1.0, 3),
            ("api", 11.5, 0.5, 5), (None, 12.0, 2.0, 1)]
    hists = [ours(d, values(40 + k, 2_000)) for k, (*_, d) in enumerate(plan)]
    w = log.Writer()
    w.header(start_time=START, base_time=BASE)
    w.comment("for hdrh")
    for (tag, start, length, _), h in zip(plan, hists):
        w.interval(h, BASE + start, length, tag=tag)
    got, start_time = read_with_hdrh(w.text(), tmp_path)
    assert start_time == START
    assert len(got) == len(plan)
    for peer, (tag, start, length, d), h in zip(got, plan, hists):
        assert peer.get_tag() == tag
        assert peer.get_total_count() == h.total
        assert peer.significant_figures == d
        assert peer.get_start_time_stamp() == pytest.approx((BASE + start) * 1000)
        assert peer.get_end_time_stamp() == pytest.approx((BASE + start + length) * 1000)
        for b in h:
            assert peer.get_count_at_value(b.value) == b.count
    for h in hists:
        h.close()


def hdrh_log(plan: list[tuple[float, float, int, list[int]]]) -> tuple[str, list[HdrHistogram]]:
    """A log by hdrh's HistogramLogWriter: version, StartTime (as a comment: its
    output_start_time raises), BaseTime, legend, intervals relative to the base time."""
    buf = io.StringIO()
    w = HistogramLogWriter(buf)
    w.output_log_format_version()
    w.output_comment(f"[StartTime: {START:.3f} (seconds since epoch), 2023-11-14]")
    w.output_base_time(BASE * 1000)
    w.output_legend()
    hists = []
    for start, length, digits, vals in plan:
        h = theirs(digits, vals)
        w.output_interval_histogram(h, start, start + length, 1e6)
        hists.append(h)
    return buf.getvalue(), hists


def test_our_reader_reads_hdrhs_log():
    plan = [(10.0, 1.0, 3, values(50, 2_000)), (11.0, 1.0, 2, values(51, 2_000)),
            (12.0, 0.25, 5, values(52, 500)), (12.25, 3.0, 1, values(53, 2_000))]
    text, hists = hdrh_log(plan)
    assert text.startswith("#[Histogram log format version 1.2]")
    reader = log.Reader(text)
    got = list(reader)
    assert reader.start_time == START and reader.base_time == BASE
    assert len(got) == len(plan)
    for entry, (start, length, digits, vals), peer in zip(got, plan, hists):
        assert entry.tag is None  # hdrh writes no tags
        assert entry.start == pytest.approx(BASE + start, abs=1e-6)
        assert entry.length == pytest.approx(length, abs=1e-6)
        assert entry.significant_digits == digits
        assert entry.max == peer.get_max_value() // 1e6  # hdrh floors the max column
        assert entry.histogram.total == peer.get_total_count() == len(vals)
        counts = Counts(buckets(entry.histogram))
        for v in set(vals):
            assert counts[v] == peer.get_count_at_value(v)
    with log.sum(text) as total:
        assert total.total == sum(len(vals) for *_, vals in plan)
    with log.sum(text, start=BASE + 11, end=BASE + 12.1) as window:
        assert window.total == len(plan[1][3]) + len(plan[2][3])


def test_our_reader_reads_hdrhs_log_without_headers():
    plan = [(START + 1, 1.0, 3, values(60, 500)), (START + 2, 1.0, 3, values(61, 500))]
    buf = io.StringIO()
    w = HistogramLogWriter(buf)
    for start, length, digits, vals in plan:
        w.output_interval_histogram(theirs(digits, vals), start, start + length)
    got = list(log.Reader(buf.getvalue()))
    assert [e.start for e in got] == pytest.approx([START + 1, START + 2])
    assert [e.histogram.total for e in got] == [len(p[3]) for p in plan]
