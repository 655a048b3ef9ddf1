"""The float histogram's results, plain Python values copied out of its C structs:
FloatPercentile, FloatBucket, FloatInfo, FloatSummary (what they share with the integer
histogram's is in `_results`)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, fields
from typing import Optional

from . import _native as n
from ._convert import real
from ._domain import Domain, Natives
from ._results import VALUE_SELECTIONS, CopiedStruct, SummaryBase, code_name, extreme

#: `FloatHistogram` concurrency modes, in `picollo_float_mode` order.
FLOAT_MODES = ("single", "interlocked")

#: `FloatHistogram` storage kinds, in `picollo_float_storage` order.
FLOAT_STORAGES = ("dense", "sparse")


@dataclass(frozen=True)
class FloatPercentile(CopiedStruct):
    """A percentile of a float histogram and its bucket (`picollo_float_percentile`):
    ``value`` per the value selection (0 for the zero bucket), the bucket's signed
    ``lowest ..= highest``, and ``side`` -1 (negative), 0 (zero bucket) or 1."""

    _LOW = "lowest"

    rank: float
    value: float
    plus_minus: float
    lowest: float
    highest: float
    count: int
    cumulative_count: int
    rank_count: int
    side: int

    def __float__(self) -> float:
        return self.value

    def __str__(self) -> str:
        return (f"P{self.rank:g}={self.value:.9g} ±{self.plus_minus:.3g} "
                f"[{self.lowest:.9g}, {self.highest:.9g}] {self.count:,}")


@dataclass(frozen=True)
class FloatBucket(CopiedStruct):
    """A non-empty bucket of a float histogram (`picollo_float_bucket`): the signed values
    ``lowest ..= highest``, the ``value`` it reports, its ``count`` and ``side``."""

    _LOW = "lowest"

    lowest: float
    highest: float
    value: float
    count: int
    side: int


@dataclass(frozen=True)
class FloatInfo:
    """Facts about a float histogram (`picollo_float_info`), from one consistent copy.
    ``min`` and ``max`` are the exact extremes of the values in buckets (None when
    empty); ``min_magnitude ..= max_magnitude`` is the range kept in buckets."""

    total: int
    zero: int
    nan: int
    positive_infinity: int
    negative_infinity: int
    underflow: int
    overflow: int
    saturated: int
    sum: float
    min: Optional[float]
    max: Optional[float]
    min_magnitude: float
    max_magnitude: float
    relative_error: float
    buckets_per_octave: int
    storage_len: int
    footprint_bytes: int
    counter_bits: int
    mode: str  # one of FLOAT_MODES
    storage: str  # one of FLOAT_STORAGES
    value_selection: str

    @classmethod
    def _from_c(cls, i: n.picollo_float_info) -> "FloatInfo":
        values = {f.name: getattr(i, f.name) for f in fields(cls)}
        values["min"], values["max"] = extreme(i.min), extreme(i.max)
        values["mode"] = code_name(FLOAT_MODES, i.mode)
        values["storage"] = code_name(FLOAT_STORAGES, i.storage)
        values["value_selection"] = VALUE_SELECTIONS[i.value_selection]
        return cls(**values)


class FloatSummary(SummaryBase[FloatPercentile]):
    """The standard summary of a float histogram (`picollo_float_summary`): 16
    percentiles, the counts beside the buckets, the exact sum and extremes, mean, stdev.

    ``str(summary)`` is the Markdown table, ``summary.line(name)`` the one-line form
    (``name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…``, then the NaN,
    ±∞, underflow, overflow and saturated counts not zero); `diff` shows Δ%, Mean, StDev,
    Min, Max, Precision, Total and the D-value. Iterating yields the 16 percentiles;
    ``summary.p(99)`` is the P99 entry. ``min`` and ``max`` are None when unknown (an empty
    histogram, a snapshot's deltas).
    """

    __slots__ = ("total", "zero", "nan", "positive_infinity", "negative_infinity",
                 "underflow", "overflow", "saturated", "sum", "min", "max", "mean", "stdev",
                 "precision", "min_magnitude", "max_magnitude")
    _PERCENTILE = FloatPercentile
    _HISTOGRAM = "FloatHistogram"
    _C_TABLE = n.lib.picollo_float_summary_table
    _C_DIFF = n.lib.picollo_float_summary_diff
    _C_LINE = n.lib.picollo_float_summary_line
    _C_JSON = n.lib.picollo_float_summary_json

    total: int
    zero: int
    nan: int
    positive_infinity: int
    negative_infinity: int
    underflow: int
    overflow: int
    saturated: int
    sum: float
    min: Optional[float]
    max: Optional[float]
    mean: float
    stdev: float
    precision: float
    min_magnitude: float
    max_magnitude: float

    def __init__(self, c: n.picollo_float_summary):
        super().__init__(c)
        self.min, self.max = extreme(c.min), extreme(c.max)

    def __repr__(self) -> str:
        if self.total == 0:
            return f"<FloatSummary total=0 nan={self.nan:,}>"
        return (f"<FloatSummary total={self.total:,} mean={self.mean:.6g} "
                f"p50={self.p50.value:.6g} p99={self.p99.value:.6g} "
                f"min={self.min!r} max={self.max!r}>")


#: The float histogram's `Domain`: values of both signs as ``double``.
FLOAT = Domain(
    name="FloatHistogram", value=real, c_value=ctypes.c_double, c_cursor=ctypes.c_uint64,
    c_handle=n.FloatHistogramP, c_snapshot=n.FloatSnapshotP,
    percentile=FloatPercentile, c_percentile=n.picollo_float_percentile,
    bucket=FloatBucket, c_bucket=n.picollo_float_bucket,
    info=FloatInfo, c_info=n.picollo_float_info,
    summary=FloatSummary, c_summary=n.picollo_float_summary,
    native=Natives.named(n.lib, "picollo_float_histogram_", "picollo_float_snapshot_"),
)
