"""`Cumulative`: a read-only copy of a histogram's running totals (`picollo_cumulative`), for
a reader that asks many questions of one moment (a scrape, a report, a dashboard): the
library answers each percentile by a binary search and each rank or count between values by
a subtraction, with the answers the histogram itself gave at that moment."""

from __future__ import annotations

import ctypes
from typing import Any, Iterable

from . import _native as n
from ._base import _percentiles, of_kind
from ._convert import real, u64
from ._errors import check
from ._handle import Handle
from ._types import INTEGER, Percentile


class Cumulative(Handle):
    """The running totals of a `Histogram` at one moment (`Histogram.cumulative`), never
    refreshed: make a new one for a new moment. Its queries answer as the histogram's did
    when it was made. Read-only: any number of threads may query it at once."""

    _WHAT = "cumulative copy"

    def __init__(self, histogram: Any):
        source = of_kind(histogram, INTEGER)._ptr
        handle = n.CumulativeP()
        check(n.lib.picollo_cumulative_new(source, ctypes.byref(handle)))
        self._own(handle, n.lib.picollo_cumulative_free)

    @property
    def total(self) -> int:
        """The count of values in range (underflow and overflow not included)."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_cumulative_total_count(self._ptr, ctypes.byref(out)))
        return out.value

    def percentile(self, rank: float) -> Percentile:
        """`Histogram.percentile` at the copy's moment. `EmptyHistogramError` when empty,
        `InvalidArgumentError` for a rank outside 0..100."""
        out = n.picollo_percentile()
        check(n.lib.picollo_cumulative_percentile(self._ptr, real(rank, "rank"),
                                                  ctypes.byref(out)))
        return Percentile._from_c(out)

    def percentiles(self, ranks: Iterable[float]) -> list[Percentile]:
        """`Histogram.percentiles` at the copy's moment (strictly increasing ranks)."""
        return _percentiles(INTEGER, n.lib.picollo_cumulative_percentiles, self._ptr, ranks)

    def rank_of(self, value: int) -> float:
        """`Histogram.rank_of` at the copy's moment."""
        out = ctypes.c_double()
        check(n.lib.picollo_cumulative_rank_of(self._ptr, u64(value, "value"),
                                               ctypes.byref(out)))
        return out.value

    def quantile_of(self, value: int) -> float:
        """`Histogram.quantile_of` at the copy's moment (`EmptyHistogramError` when empty)."""
        out = ctypes.c_double()
        check(n.lib.picollo_cumulative_quantile_of(self._ptr, u64(value, "value"),
                                                   ctypes.byref(out)))
        return out.value

    def count_between(self, lo: int, hi: int) -> int:
        """`Histogram.count_between` at the copy's moment (`InvalidArgumentError` when
        ``lo > hi``)."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_cumulative_count_between(
            self._ptr, u64(lo, "lo"), u64(hi, "hi"), ctypes.byref(out)))
        return out.value

    def __repr__(self) -> str:
        return "<Cumulative closed>" if self.closed else f"<Cumulative total={self.total:,}>"
