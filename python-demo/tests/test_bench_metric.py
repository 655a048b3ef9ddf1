"""picollo.bench.compare(a, b, metric=...): a comparison judged on a named metric rather than
time. Page faults are a software count any Linux gives: functions that map 8 and 16 fresh
pages a call, interleaved, differ by 8 faults a call; a function against itself does not.
The metric's name may be its short form; one the results lack is a ValueError naming those
they have. (Emulated counts, judged exactly, are in test_emulated.py.)"""

from __future__ import annotations

import mmap
import sys

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("the benchmark harness exists on Linux only", allow_module_level=True)

from picollo import bench  # noqa: E402

PAGE_FAULTS = "Software:PageFaults"
#: Short interleaved comparisons, page faults counted.
FAULTS = dict(counters=[PAGE_FAULTS], samples=400, time_budget=0.4, warmup=0.05, rounds=10)


def touching(pages: int):
    """A function that maps `pages` fresh pages, writes a byte in each and unmaps them."""
    def touch() -> None:
        m = mmap.mmap(-1, pages * mmap.PAGESIZE)
        for i in range(0, pages * mmap.PAGESIZE, mmap.PAGESIZE):
            m[i] = 1
        m.close()
    return touch


@pytest.fixture(scope="module")
def pages():
    """8 pages against 16, interleaved, with their page faults."""
    c = bench.compare_fns(touching(8), touching(16), name_a="8 pages", name_b="16 pages",
                          **FAULTS)
    yield c
    c.a.close()
    c.b.close()


def test_twice_the_pages_count_more_page_faults(pages):
    c = bench.compare(pages.a, pages.b, metric="page-faults")
    print(f"\n{c.text.rstrip().splitlines()[-1]}")
    assert c.metric == PAGE_FAULTS
    assert c.verdict == "slower", c.text
    # 8 faults a call more on 8: the count, whatever the machine's speed.
    assert 80 < c.change < 120, c.text
    low, high = c.interval
    assert low <= c.change <= high and low > 0
    assert c.ratio == pytest.approx(1 + c.change / 100)
    assert "verdict: 16 pages counts more Software:PageFaults than 8 pages by " in c.text
    back = bench.compare(pages.b, pages.a, metric=PAGE_FAULTS)
    assert back.verdict == "faster" and "counts fewer Software:PageFaults than" in back.text


def test_a_result_against_itself_has_no_difference_in_page_faults(pages):
    c = bench.compare(pages.a, pages.a, metric="Software:PageFaults")
    assert (c.metric, c.verdict, c.change) == (PAGE_FAULTS, "no difference", 0.0), c.text
    # Judged exactly, B − A is bounded by ± the runs' spread (a fault either way is within
    # the read jitter); on the rounds, each round's difference is 0.
    low, high = c.interval
    assert (c.exactly and low == -high <= 0) or c.interval == (0.0, 0.0), c.text


def test_time_is_the_default_and_judged_as_before(pages):
    named = bench.compare(pages.a, pages.b, metric="time")
    default = bench.compare(pages.a, pages.b)
    assert (named.metric, named.exactly) == ("time", False)
    assert (named.verdict, named.ratio, named.interval, named.text) == \
        (default.verdict, default.ratio, default.interval, default.text)


def test_a_metric_the_results_lack_is_a_value_error_naming_those_they_have(pages):
    with pytest.raises(ValueError, match='no metric "Hardware:Bogus" among time, '
                                         'Software:PageFaults'):
        bench.compare(pages.a, pages.b, metric="Hardware:Bogus")
    with pytest.raises(TypeError, match="metric must be a str"):
        bench.compare(pages.a, pages.b, metric=3)
    with pytest.raises(ValueError, match="NUL"):
        bench.compare(pages.a, pages.b, metric="time\0")


def test_a_summary_refuses_a_comparison_judged_on_another_metric_than_time(pages):
    # The summary judges each pair again on time: it refuses rather than drop the metric.
    with pytest.raises(ValueError, match="judged on Software:PageFaults would be summarized"):
        bench.summary([bench.compare(pages.a, pages.b, metric="page-faults")])
    assert bench.summary([bench.compare(pages.a, pages.b, metric="time")]).startswith(
        "### Picollo: 1 comparisons")
