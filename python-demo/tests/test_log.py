"""picollo.log: interval logs written by Writer, read by Reader, summed by sum()."""

from __future__ import annotations

import datetime as dt
import io
import math

import numpy as np
import pytest

from conftest import buckets
from picollo import ClosedError, FormatError, Histogram, InvalidArgumentError, Status
from picollo import UnencodableError, log

THREE_DIGITS = 2**-11
START = 1_700_000_000.0  # 2023-11-14T22:13:20Z
BASE = START - 10



def make(seed: int, size: int = 1_000, relative_error: float = THREE_DIGITS) -> Histogram:
    rng = np.random.default_rng(seed)
    h = Histogram(relative_error=relative_error)
    h.record_many(rng.lognormal(13, 1, size).astype(np.uint64))
    return h


# (tag, start relative to BASE, length, histogram seed)
PLAN = [(None, 10.0, 1.0, 1), ("api", 10.0, 1.0, 2), (None, 11.0, 1.0, 3),
        ("api", 11.0, 1.0, 4), (None, 12.0, 0.5, 5), ("db", 12.5, 2.0, 6)]


@pytest.fixture
def written():
    """A log of PLAN with StartTime and BaseTime, and its histograms."""
    hists = [make(seed) for *_, seed in PLAN]
    w = log.Writer()
    w.header(start_time=START, base_time=BASE)
    w.comment("written by test_log.py\nsecond comment line")
    for (tag, start, length, _), h in zip(PLAN, hists):
        w.interval(h, BASE + start, length, tag=tag)
    text = w.text()
    w.close()
    yield text, hists
    for h in hists:
        h.close()


def test_the_text_follows_hdrhistograms_layout(written):
    text, hists = written
    lines = text.splitlines()
    assert lines[0] == "#[Histogram log format version 1.3]"
    assert lines[1].startswith("#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20")
    assert lines[2] == "#[BaseTime: 1699999990.000 (seconds since epoch)]"
    assert lines[3] == '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'
    assert lines[4:6] == ["#written by test_log.py", "#second comment line"]
    intervals = lines[6:]
    assert len(intervals) == len(PLAN)
    for line, (tag, start, length, _), h in zip(intervals, PLAN, hists):
        fields = line.split(",")
        if tag:
            assert fields.pop(0) == f"Tag={tag}"
        assert fields[0] == f"{start:.3f}" and fields[1] == f"{length:.3f}"
        top = max(b.highest for b in h)
        assert fields[2] == f"{top / 1e6:.3f}"
        assert fields[3] == h.encode()


def test_reader_reads_every_interval_back(written):
    text, hists = written
    reader = log.Reader(text)
    got = list(reader)
    assert len(got) == len(PLAN)
    assert reader.start_time == START and reader.base_time == BASE
    lines = text.splitlines()
    for entry, (tag, start, length, _), h in zip(got, PLAN, hists):
        assert entry.tag == tag
        assert entry.start == pytest.approx(BASE + start, abs=1e-6)
        assert entry.length == pytest.approx(length)
        assert entry.end == pytest.approx(entry.start + entry.length)
        assert entry.max == pytest.approx(round(max(b.highest for b in h) / 1e6, 3))
        assert entry.significant_digits == 3
        assert lines[entry.line - 1].endswith(h.encode())
        assert buckets(entry.histogram) == buckets(h)
        t, s, e, hist = entry  # unpacks as (tag, start, end, histogram)
        assert (t, s, e, hist) == (entry.tag, entry.start, entry.end, entry.histogram)


def test_headers_are_known_before_the_first_interval(written):
    text, _ = written
    reader = log.Reader(text)
    assert reader.start_time == START and reader.base_time == BASE
    # a header further down counts once the reader has passed it
    with make(1) as h:
        later = f"0.000,1.000,1.000,{h.encode()}\n#[BaseTime: 5.000 (seconds since epoch)]\n"
        reader = log.Reader(later)
        assert reader.base_time is None
        assert next(reader).start == 0.0
        with pytest.raises(StopIteration):
            next(reader)
        assert reader.base_time == 5.0
    assert log.Reader("").start_time is None


def test_sources_reader_accepts(written, tmp_path):
    text, hists = written
    path = tmp_path / "x.hlog"
    path.write_text(text)
    totals = [h.total for h in hists]
    with open(path, "rb") as binary, open(path) as textfile:
        for source in (text, text.encode(), bytearray(text.encode()), path, binary, textfile,
                       io.StringIO(text)):
            with log.Reader(source) as r:
                assert [i.histogram.total for i in r] == totals, type(source)
    for bad in (None, 42, [text]):
        with pytest.raises(TypeError):
            log.Reader(bad)


def test_writer_into_files(tmp_path):
    with make(1) as h:
        text_file, binary_file = io.StringIO(), io.BytesIO()
        for f in (text_file, binary_file):
            with log.Writer(f) as w:
                w.header(start_time=START)
                w.interval(h, START, 1.0)
                with pytest.raises(ValueError):
                    w.text()
        assert text_file.getvalue().encode() == binary_file.getvalue()
        path = tmp_path / "out.hlog"
        with open(path, "w") as f:
            with log.Writer(f) as w:
                w.header()
                w.interval(h, 0.0, 1.0)
        [entry] = log.Reader(path)
        assert entry.histogram.total == h.total
        assert text_file.getvalue().count("\n") == 4  # version, StartTime, legend, interval


def test_each_call_reaches_the_file_at_once():
    f = io.StringIO()
    w = log.Writer(f)
    w.header()
    assert f.getvalue().startswith("#[Histogram log format version")
    size = len(f.getvalue())
    w.comment("now")
    assert f.getvalue()[size:] == "#now\n"
    w.close()


def test_times_may_be_datetimes_and_timedeltas():
    start = dt.datetime(2023, 11, 14, 22, 13, 20, tzinfo=dt.timezone.utc)
    with make(1) as h, log.Writer() as w:
        w.header(start_time=start, base_time=start)
        w.interval(h, start + dt.timedelta(seconds=5), dt.timedelta(milliseconds=1500))
        [entry] = log.Reader(w.text())
        assert entry.start == START + 5 and entry.length == 1.5


def test_the_max_unit_ratio():
    with make(1) as h:
        top = max(b.highest for b in h)
        for ratio in (1.0, 1000.0):
            with log.Writer(max_unit_ratio=ratio) as w:
                w.header().interval(h, 0.0, 1.0)
                [entry] = log.Reader(w.text())
                assert entry.max == pytest.approx(round(top / ratio, 3))
        with log.Writer() as w:
            assert w.set_max_unit_ratio(1e3) is w
            for bad in (0.0, -1.0, math.nan, math.inf):
                with pytest.raises(InvalidArgumentError):
                    w.set_max_unit_ratio(bad)


def test_without_headers_times_are_as_written():
    with make(1) as h, log.Writer() as w:
        w.interval(h, 3.25, 1.0)
        [entry] = log.Reader(w.text())
        assert entry.start == 3.25
        assert entry.line == 1


def test_relative_timestamps_after_a_start_time_become_absolute():
    """HdrHistogram's rule: no BaseTime, timestamps over a year before StartTime."""
    with make(1) as h:
        line = f"0.500,1.000,1.000,{h.encode()}"
        text = f"#[StartTime: {START:.3f} (seconds since epoch), x]\n{line}\n"
        [entry] = log.Reader(text)
        assert entry.start == START + 0.5


@pytest.mark.parametrize("call", [
    lambda w, h: w.interval(h, BASE + 1, 1.0, tag="a b"),
    lambda w, h: w.interval(h, BASE + 1, 1.0, tag="a,b"),
    lambda w, h: w.interval(h, BASE + 1, -1.0),
    lambda w, h: w.interval(h, BASE - 1, 1.0),  # before the base time
    lambda w, h: w.interval(h, math.nan, 1.0),
    lambda w, h: w.interval(h, BASE + 1, math.inf),
    lambda w, h: w.header(start_time=-1.0),
    lambda w, h: w.header(start_time=math.inf),
])
def test_bad_arguments_write_nothing(call):
    with make(1) as h, log.Writer() as w:
        w.header(base_time=BASE)
        before = w.text()
        with pytest.raises(InvalidArgumentError):
            call(w, h)
        assert w.text() == before


def test_python_side_errors():
    with make(1) as h, log.Writer() as w:
        with pytest.raises(TypeError):
            w.interval("not a histogram", 0.0, 1.0)
        with pytest.raises(ValueError):
            w.comment("nul\0inside")
        with pytest.raises(TypeError):
            w.interval(h, "0", 1.0)
        with pytest.raises(TypeError):
            log.Writer(file=42)


def test_an_unencodable_histogram_writes_nothing():
    with Histogram(counter_bits=32) as h, log.Writer() as w:
        h.record_n(5, 2**33)
        with pytest.raises(UnencodableError):
            w.interval(h, 0.0, 1.0)
        assert w.text() == ""


def test_closed_things():
    w = log.Writer()
    h = make(1)
    h.close()
    with pytest.raises(ClosedError):
        w.interval(h, 0.0, 1.0)
    w.close()
    w.close()
    assert w.closed
    for call in (w.header, lambda: w.comment("x"), w.text, lambda: w.set_max_unit_ratio(1.0)):
        with pytest.raises(ClosedError):
            call()
    r = log.Reader("")
    r.close()
    with pytest.raises(ClosedError):
        next(r)
    with pytest.raises(ClosedError):
        r.start_time


def test_empty_and_comment_only_logs():
    assert list(log.Reader("")) == []
    assert list(log.Reader("#[Histogram log format version 1.3]\n# hello\n\n")) == []


def bad_log(text: str) -> tuple[str, int]:
    """``text`` (a log of `written`) with a broken interval line after its second interval,
    and that line's number."""
    lines = text.splitlines()
    lines.insert(8, "1.000,1.000,1.000,HISTFAAAnot-base64")
    return "\n".join(lines) + "\n", 9


def test_a_bad_line_raises_and_the_reader_goes_on(written):
    text, hists = written
    broken, bad_line = bad_log(text)
    reader = log.Reader(broken)
    first = [next(reader) for _ in range(2)]
    with pytest.raises(FormatError) as e:
        next(reader)
    assert e.value.status == Status.FORMAT_ERROR
    assert e.value.line == bad_line
    assert str(bad_line) in e.value.message
    rest = list(reader)  # iteration goes on after the bad line
    assert [i.histogram.total for i in first + rest] == [h.total for h in hists]


def test_bad_lines_can_be_skipped(written):
    text, hists = written
    broken, bad_line = bad_log(text)
    reader = log.Reader(broken, skip_bad_lines=True)
    assert len(list(reader)) == len(hists)
    assert [e.line for e in reader.bad_lines] == [bad_line]


@pytest.mark.parametrize("line", ["1.0,2.0,3.0", "x,1.0,1.0,HISTFAAA", "-1.0,1.0,1.0,{b64}",
                                  "Tag=,1.0,1.0,1.0,{b64}", "1.0,1.0,1.0,{b64}!!"])
def test_malformed_interval_lines(line):
    with make(1) as h:
        with pytest.raises(FormatError) as e:
            next(log.Reader("#comment\n" + line.format(b64=h.encode()) + "\n"))
        assert e.value.line == 2


# --- sum ----------------------------------------------------------------------------------


def test_sum_selects_by_tag(written):
    text, hists = written
    for tag in (None, "api", "db"):
        want = [h for (t, *_), h in zip(PLAN, hists) if t == tag]
        with log.sum(text, tag=tag) as got:
            assert got.total == sum(h.total for h in want)
            with Histogram(relative_error=THREE_DIGITS) as expected:
                for h in want:
                    expected.add(h)
                assert buckets(got) == buckets(expected)
    assert log.sum(text, tag="nope") is None
    assert log.sum(text, tag="") is not None  # "" is no tag, as None


def test_sum_selects_by_start_time(written):
    text, hists = written
    untagged = [(start, h) for (t, start, _, _), h in zip(PLAN, hists) if t is None]

    def expect(lo, hi):
        return sum(h.total for start, h in untagged
                   if (lo is None or BASE + start >= lo) and (hi is None or BASE + start < hi))

    for lo, hi in [(None, None), (BASE + 11, None), (None, BASE + 11), (BASE + 11, BASE + 12),
                   (BASE + 10, BASE + 10.5)]:
        got = log.sum(text, start=lo, end=hi)
        assert got is not None and got.total == expect(lo, hi), (lo, hi)
    assert log.sum(text, start=BASE + 100) is None
    assert log.sum(text, start=dt.datetime.fromtimestamp(BASE + 11, dt.timezone.utc)).total \
        == expect(BASE + 11, None)


def test_sum_grows_its_range_across_layouts():
    with make(1, relative_error=0.01) as a, make(2) as b, log.Writer() as w:
        b.record(10**12)
        w.interval(a, 0.0, 1.0).interval(b, 1.0, 1.0)
        with log.sum(w.text()) as s:
            assert s.total == a.total + b.total
            assert s.overflow == 0


def test_sum_names_a_bad_line(written):
    text, _ = written
    broken, bad_line = bad_log(text)
    with pytest.raises(FormatError) as e:
        log.sum(broken)
    assert e.value.line == bad_line
    with pytest.raises(TypeError):
        log.sum(42)
