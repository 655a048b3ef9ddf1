"""HdrHistogram interval logs (``.hlog``): `Writer`, `Reader` and `sum`.

An interval log holds one histogram per line (compressed V2 in base64) with its start time,
length and maximum, optionally tagged; HdrHistogram's tools (HistogramLogProcessor, the
plotters) and every port read it.

>>> from picollo import Histogram, log
>>> with open("latency.hlog", "w") as f, log.Writer(f) as w:
...     w.header(start_time=time.time())
...     w.interval(h, start=time.time(), length=1.0, tag="api")
>>> for tag, start, end, histogram in log.Reader(Path("latency.hlog")):
...     print(tag, start, end, histogram.total)
>>> total = log.sum(Path("latency.hlog").read_text(), tag="api")

Times are seconds since the epoch (floats; `datetime` and `timedelta` are accepted too).
"""

from __future__ import annotations

import ctypes
import datetime as _dt
import math
import os
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from . import _native as n
from ._convert import real
from ._errors import FormatError, Status, check, error_for
from ._handle import Handle
from ._text import TextWriterHandle, encode, fetch_text
from .histogram import Histogram

__all__ = ["Interval", "Reader", "Writer", "sum"]


def _seconds(value: Any, what: str) -> float:
    """Seconds since the epoch from a number or an aware/naive `datetime`."""
    if isinstance(value, _dt.datetime):
        return value.timestamp()
    return real(value, what)


def _duration(value: Any, what: str) -> float:
    if isinstance(value, _dt.timedelta):
        return value.total_seconds()
    return real(value, what)


def _optional_time(value: Any, what: str) -> float:
    """NaN (left out) for None, else seconds."""
    return math.nan if value is None else _seconds(value, what)


def _log_bytes(source: Any) -> bytes:
    """The text of a log from a str (the text itself), bytes, a path (`os.PathLike`) or a
    file object opened in text or binary mode."""
    if isinstance(source, str):
        return source.encode("utf-8")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, os.PathLike):
        with open(source, "rb") as f:
            return f.read()
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        if isinstance(data, str):
            return data.encode("utf-8")
        if isinstance(data, (bytes, bytearray)):
            return bytes(data)
        raise TypeError(f"read() returned {type(data).__name__}, not str or bytes")
    raise TypeError("a log is a str (its text), bytes, a path (pathlib.Path) or a file object, "
                    f"not {type(source).__name__}")


@dataclass(frozen=True)
class Interval:
    """One interval of a log. Unpacks as ``tag, start, end, histogram``.

    ``tag`` is None for an untagged line; ``start`` and ``end`` are seconds (absolute when
    the log has a StartTime or BaseTime header: HdrHistogram's rule); ``max`` is the maximum
    column as written (the writer's unit ratio applied); ``line`` is 1-based;
    ``significant_digits`` those of the encoded histogram, whose layout ``histogram`` has.
    """

    tag: Optional[str]
    start: float
    end: float
    histogram: Histogram
    length: float
    max: float
    line: int
    significant_digits: int

    def __iter__(self) -> Iterator[Any]:
        return iter((self.tag, self.start, self.end, self.histogram))


class Writer(TextWriterHandle):
    """Writes an interval log into a file object (text or binary mode), or into memory
    when ``file`` is None (then `text` returns it).

    Text reaches the file after each call. HdrHistogram's conventions: a `header` first
    (format version 1.3, optional StartTime and BaseTime, the legend line), interval maxima
    divided by a unit ratio of 10**6 (nanoseconds shown as milliseconds) unless
    `set_max_unit_ratio` says otherwise. `close` (or leaving ``with``) frees the writer, not
    the file.
    """

    def __init__(self, file: Any = None, *, max_unit_ratio: Optional[float] = None):
        if file is not None and not callable(getattr(file, "write", None)):
            raise TypeError(f"file must have a write() method, not {type(file).__name__}")
        super().__init__(n.LogWriterP, n.lib.picollo_log_writer_new,
                         n.lib.picollo_log_writer_free, n.lib.picollo_log_writer_take,
                         "log writer")
        self._file = file
        if max_unit_ratio is not None:
            self.set_max_unit_ratio(max_unit_ratio)

    def _emit(self, text: str) -> None:
        if self._file is None:
            super()._emit(text)
            return
        try:
            self._file.write(text)
        except TypeError:  # a binary file
            self._file.write(text.encode("utf-8"))

    def header(self, start_time: Any = None, base_time: Any = None) -> "Writer":
        """The version line, ``#[StartTime: …]`` and ``#[BaseTime: …]`` when given (seconds
        since the epoch), then the legend. With a base time, the starts passed to `interval`
        stay absolute and are written relative to it. Returns self."""
        st = _optional_time(start_time, "start_time")
        bt = _optional_time(base_time, "base_time")
        return self._call(n.lib.picollo_log_writer_header(self._ptr, st, bt))

    def comment(self, text: str) -> "Writer":
        """A ``#`` comment line (each line break starts another one). Returns self."""
        return self._call(n.lib.picollo_log_writer_comment(self._ptr, encode(text, "text")))

    def set_max_unit_ratio(self, ratio: float) -> "Writer":
        """Divide the maxima of later intervals by ``ratio`` (finite, above 0). Returns self."""
        return self._call(n.lib.picollo_log_writer_set_max_unit_ratio(
            self._ptr, real(ratio, "ratio")))

    def interval(self, histogram: Histogram, start: Any, length: Any,
                 tag: Optional[str] = None) -> "Writer":
        """One interval line: ``start`` in seconds (absolute when the header had a base
        time), ``length`` in seconds, ``tag`` (no comma, space or line break; None or ""
        for none). `UnencodableError` when the histogram has no V2 form. Returns self."""
        if not isinstance(histogram, Histogram):
            raise TypeError(f"expected a Histogram, not {type(histogram).__name__}")
        w = self._ptr
        return self._call(n.lib.picollo_log_writer_interval(
            w, histogram._ptr, encode(tag, "tag"), _seconds(start, "start"),
            _duration(length, "length")))

    def text(self) -> str:
        """Everything written so far, for a writer without a file."""
        if self._file is not None:
            raise ValueError("this writer writes into its file; text() is for file=None")
        return super().text()


class Reader(Handle):
    """Reads an interval log: iterating yields an `Interval` per line that holds one
    (comments, headers, the legend and blank lines are skipped).

    ``source`` is the log's text (a str), bytes, a path (`pathlib.Path`) or a file object;
    the whole text is read at once. A line that cannot be read raises `FormatError` (its
    ``line`` attribute names it) and the reader moves past it: calling ``next()`` again, or
    iterating again, goes on with the following line. With ``skip_bad_lines=True`` such
    lines are skipped instead and their errors collected in ``bad_lines``.
    `start_time` and `base_time` hold the headers above the first interval from the start,
    and a header further down once the reader has passed it.
    """

    _WHAT = "log reader"

    def __init__(self, source: Any, *, skip_bad_lines: bool = False):
        data = _log_bytes(source)
        handle = n.LogReaderP()
        check(n.lib.picollo_log_reader_new(data, len(data), ctypes.byref(handle)))
        self._own(handle, n.lib.picollo_log_reader_free)
        self._skip = bool(skip_bad_lines)
        self.bad_lines: list[FormatError] = []

    def __iter__(self) -> "Reader":
        return self

    def __next__(self) -> Interval:
        while True:
            try:
                return self._next()
            except FormatError as e:
                if not self._skip:
                    raise
                self.bad_lines.append(e)

    def _next(self) -> Interval:
        r = self._ptr
        info = n.picollo_log_interval()
        info.struct_size = ctypes.sizeof(info)
        out = n.HistogramP()
        status = n.lib.picollo_log_reader_next(r, ctypes.byref(info), ctypes.byref(out))
        if status == Status.OUT_OF_RANGE:
            raise StopIteration
        if status != Status.OK:
            raise error_for(status)
        histogram = Histogram._adopt(out)
        tag = None
        if info.has_tag:
            tag = fetch_text(lambda buf, size, needed: n.lib.picollo_log_reader_tag(
                r, buf, size, needed))
        return Interval(tag=tag, start=info.start, end=info.start + info.length,
                        histogram=histogram, length=info.length, max=info.max,
                        line=info.line, significant_digits=info.significant_digits)

    def _times(self) -> tuple[Optional[float], Optional[float]]:
        st, bt = ctypes.c_double(), ctypes.c_double()
        check(n.lib.picollo_log_reader_times(self._ptr, ctypes.byref(st), ctypes.byref(bt)))
        return (None if math.isnan(st.value) else st.value,
                None if math.isnan(bt.value) else bt.value)

    @property
    def start_time(self) -> Optional[float]:
        """The ``#[StartTime: …]`` header (seconds since the epoch), or None."""
        return self._times()[0]

    @property
    def base_time(self) -> Optional[float]:
        """The ``#[BaseTime: …]`` header (seconds since the epoch), or None."""
        return self._times()[1]



def sum(source: Any, tag: Optional[str] = None, start: Any = None,
        end: Any = None) -> Optional[Histogram]:
    """The sum of a log's intervals with this ``tag`` (None: the untagged ones, as
    HdrHistogram's log processor without ``-tag``) that start in ``[start, end)`` (seconds,
    as `Interval.start` reports them; None: open), or None when no interval matches.

    ``source`` is what `Reader` takes. Intervals of different layouts are summed into the
    first one's layout, its range grown as needed. `FormatError` names a bad line."""
    data = _log_bytes(source)
    out = n.HistogramP()
    status = n.lib.picollo_log_sum(data, len(data), encode(tag, "tag"),
                                   _optional_time(start, "start"),
                                   _optional_time(end, "end"), ctypes.byref(out))
    if status == Status.EMPTY:
        return None
    check(status)
    return Histogram._adopt(out)
