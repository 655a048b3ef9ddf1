"""A benchmark's result (Linux): `BenchResult`, one histogram per metric and the report in
several forms, and `BenchHistogram`, the read-only view of a metric's histogram it lends.
`picollo.bench` makes them and re-exports both."""

from __future__ import annotations

import ctypes
import dataclasses
import math
import os
import weakref
from typing import Any, Callable, Optional, Union

from . import _bench_native as bn
from . import _native as n
from ._convert import real
from ._errors import check
from ._handle import Handle
from ._text import encode, fetch_text
from .histogram import Histogram

__all__ = ["BenchHistogram", "BenchResult", "Floor"]


@dataclasses.dataclass(frozen=True)
class Floor:
    """How near 0 a metric's figures came (`BenchResult.floor`). ``floored``: the samples
    (of ``samples``) whose figure was recorded as 0 because what was subtracted, the read
    pair's median and the baseline's (the empty function's), exceeded what the batch
    measured. ``resolution``: the smallest figure per call the measurement tells from
    nothing, in the metric's unit: the quartile deviation of what an empty measurement gives
    per call (at least 0.001 ns for time; 0 where what was subtracted had no spread, or for
    an exact metric). ``below_resolution``: the median is no larger than it. ``flagged``:
    either, so the figures near 0 are not the function's; the report marks the metric's row
    and says why among its warnings."""

    floored: int
    samples: int
    resolution: float
    below_resolution: bool
    flagged: bool

    @property
    def share(self) -> float:
        """``floored`` of ``samples``, 0 to 1 (0 without samples)."""
        return self.floored / self.samples if self.samples else 0.0


class BenchResult(Handle):
    """What a run measured: one histogram per metric (``"time"``, then each counter), per
    call, in **thousandths** of the metric's unit (picoseconds for time), and the report in
    several forms. An exact metric (an ``Emulated:*`` count, `is_exact`) also keeps every
    sample: its `percentile` is exact and `constant` gives the figure all samples agree on. Freed by `close`, on leaving ``with``, or when collected; the histograms
    handed out by `histogram` keep it alive and are closed with it."""

    _WHAT = "benchmark result"

    @classmethod
    def _adopt(cls, handle: Any, name: str) -> "BenchResult":
        r = cls.__new__(cls)
        r._own(handle, bn.lib.picollo_bench_result_free)
        r.name = name
        r._views: weakref.WeakSet[BenchHistogram] = weakref.WeakSet()
        count = ctypes.c_size_t()
        check(bn.lib.picollo_bench_result_metric_count(handle, ctypes.byref(count)))
        r._metrics = tuple(r._string(bn.lib.picollo_bench_result_metric_name, i)
                           for i in range(count.value))
        r._units = tuple(r._string(bn.lib.picollo_bench_result_metric_unit, i)
                         for i in range(count.value))
        r._exact = tuple(r._flag(bn.lib.picollo_bench_result_metric_exact, i)
                         for i in range(count.value))
        return r

    def _flag(self, query: Any, index: int) -> bool:
        out = ctypes.c_uint32()
        check(query(self._ptr, index, ctypes.byref(out)))
        return out.value != 0

    def _string(self, query: Any, index: int) -> str:
        h = self._ptr
        return fetch_text(lambda buf, size, needed: query(h, index, buf, size, needed))

    @property
    def metrics(self) -> list[str]:
        """The metrics' names: ``"time"``, then each counter (``"Software:TaskClock"``…)."""
        self._ptr
        return list(self._metrics)

    def _index(self, metric: str) -> int:
        self._ptr
        if not isinstance(metric, str):
            raise TypeError(f"a metric is named by a str, not {type(metric).__name__}")
        try:
            return self._metrics.index(metric)
        except ValueError:
            raise KeyError(f"no metric {metric!r}; this result has "
                           f"{', '.join(self._metrics)}") from None

    def unit(self, metric: str) -> str:
        """The unit of a metric per call: ``"ns"`` or ``"events"``."""
        return self._units[self._index(metric)]

    def _text(self, form: bn.BenchFormat) -> str:
        h = self._ptr
        return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_result_text(
            h, form, buf, size, needed))

    def to_format(self, name: str) -> str:
        """This result in the result format called ``name`` (`picollo.bench.formats()`
        lists them: ``"report"``, ``"line"``, ``"bmf"``, ``"junit"``, ...);
        `InvalidArgumentError` (a ValueError) for an unknown name, naming the formats."""
        h, nm = self._ptr, encode(name, "name")
        return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_result_format(
            h, nm, buf, size, needed))

    def table(self) -> str:
        """The report: conditions and warnings, a Markdown row per metric (P0, P50, P90,
        P99, P99.9, max, mean with its 95 % interval), tail attribution."""
        return self._text(bn.BenchFormat.REPORT)

    def summaries(self) -> str:
        """Every metric's full Markdown summary (the standard ranks)."""
        return self._text(bn.BenchFormat.SUMMARIES)

    def line(self) -> str:
        """One line: the time's P50, P99 and mean with its 95 % interval, batch, samples."""
        return self._text(bn.BenchFormat.LINE)

    def to_json(self) -> str:
        """A JSON object of the figures (values in thousandths of each unit, ``"scale"``)."""
        return self._text(bn.BenchFormat.JSON)

    def to_log(self) -> str:
        """An HdrHistogram interval log, one interval per metric tagged with its name
        (`picollo.log.Reader` and ``picollo report/diff/plot`` read it)."""
        return self._text(bn.BenchFormat.LOG)

    def html(self) -> str:
        """One self-contained HTML page (inline SVG and CSS, nothing fetched): conditions, a
        table of every metric, per metric its percentile spectrum and its rounds in run
        order, the tail attribution as bars."""
        return self._text(bn.BenchFormat.HTML)

    def write_html(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Write `html` to ``path`` (UTF-8)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())

    def histogram(self, metric: str = "time") -> "BenchHistogram":
        """A read-only view of the metric's histogram (values in thousandths of the unit:
        picoseconds for time). It keeps this result alive and is closed with it."""
        index = self._index(metric)
        handle = n.HistogramP()
        check(bn.lib.picollo_bench_result_histogram(self._ptr, index, ctypes.byref(handle)))
        view = BenchHistogram._borrowed(handle, self)
        self._views.add(view)
        return view

    @property
    def median_round(self) -> float:
        """The figure of this run as one run apart: the median of its rounds' median time
        per call, in ns (NaN without rounds). A CI gate saves it from 3 to 5 runs, each in
        its own process, and judges a later run against them with `judge_apart`."""
        out = ctypes.c_double()
        check(bn.lib.picollo_bench_result_median_round(self._ptr, ctypes.byref(out)))
        return out.value

    def percentile(self, metric: str, rank: float) -> float:
        """The metric's percentile at ``rank`` (0..100) in its unit (ns for time) per call:
        for an exact metric (`is_exact`) the figure of the sample at that rank itself, else
        the histogram's bucket value divided by 1,000 (NaN for a metric without samples).
        TypeError for a rank that is not a real number, `InvalidArgumentError` (a
        ValueError) for one outside 0..100 or NaN."""
        index = self._index(metric)
        out = ctypes.c_double()
        check(bn.lib.picollo_bench_result_percentile(self._ptr, index, real(rank, "rank"),
                                                     ctypes.byref(out)))
        return out.value

    def is_exact(self, metric: str) -> bool:
        """Whether the metric counts exactly: an emulated counter (``"Emulated:..."``, under
        ``picollo emulate -- PROG``), whose figure for the same work is always the same.
        Time and the perf counters are not."""
        return self._exact[self._index(metric)]

    def floor(self, metric: str) -> Floor:
        """How near 0 the metric's figures came: the samples floored at 0 by the subtraction
        of the read pair's and the baseline's medians, the resolution, and whether the
        figures are flagged (`Floor`). A median of 0 is flagged unless the metric counts
        events and what was subtracted had no spread (or it is exact): then it is a count of
        nothing, measured exactly."""
        index = self._index(metric)
        out = bn.picollo_bench_floor(struct_size=ctypes.sizeof(bn.picollo_bench_floor))
        check(bn.lib.picollo_bench_result_metric_floor(self._ptr, index, ctypes.byref(out)))
        return Floor(out.floored, out.samples, out.resolution, out.below_resolution != 0,
                     out.flagged != 0)

    @property
    def flagged(self) -> list[str]:
        """The metrics whose figures are floored at 0 or below their resolution (`floor`),
        in order; empty when every figure is the function's."""
        return [m for m in self.metrics if self.floor(m).flagged]

    def constant(self, metric: str) -> Optional[float]:
        """An exact metric's figure per call when every sample gave the same, in its unit;
        None when they differ (the calls did not all do the same work). Two results'
        constants differ by exactly the work between them. `InvalidArgumentError` (a
        ValueError) for a metric that is not exact (`is_exact`): its figures vary with the
        machine, so no one figure stands for them."""
        index = self._index(metric)
        out = ctypes.c_double()
        check(bn.lib.picollo_bench_result_constant(self._ptr, index, ctypes.byref(out)))
        return None if math.isnan(out.value) else out.value

    def _detach(self) -> None:
        for view in list(self._views):
            view._detach()
        super()._detach()

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        if self.closed:
            return f"<BenchResult {self.name!r} closed>"
        return f"<BenchResult {self.name!r}: {', '.join(self._metrics)}>"


def _read_only(name: str) -> Callable[..., Any]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{name}: a benchmark result's histogram is read-only "
                        "(copy() gives a histogram of your own)")
    refuse.__name__ = name
    return refuse


class BenchHistogram(Histogram):
    """A read-only view of a histogram a `BenchResult` lends: every query of `Histogram`,
    no record, reset or merge into it (TypeError). It never frees the native histogram;
    `close` only ends the view, and closing the result closes it too."""

    def _attach(self, handle: Any) -> None:
        super()._attach(handle)
        self.record = _read_only("record").__get__(self)

    def copy(self) -> Histogram:
        """A histogram of your own with the same configuration and counts."""
        return Histogram(**self._config()).add(self)

    def downsample(self, relative_error: float) -> Histogram:
        """A histogram of your own at a coarser precision (see `Histogram.downsample`)."""
        return self.copy().downsample(relative_error)


for _name in ("record_n", "record_corrected", "record_many", "buffered", "reset", "add",
              "merge", "subtract", "add_rebinned", "collect", "__iadd__", "__isub__"):
    setattr(BenchHistogram, _name, _read_only(_name))
