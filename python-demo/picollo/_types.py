"""The integer histogram's results, plain Python values copied out of its C structs:
Percentile, Bucket, Step, Info, Summary (what they share with the float histogram's is in
`_results`)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, fields

from . import _native as n
from ._convert import u64
from ._domain import Domain, Natives
from ._results import VALUE_SELECTIONS, CopiedStruct, SummaryBase, code_name
from ._text import fetch_text

#: Concurrency mode names, in `picollo_mode` order (see `Histogram`).
MODES = ("single", "interlocked", "thread-local", "approximate")

#: `Histogram` storage kinds, in `picollo_storage` order.
STORAGES = ("dense", "sparse")


@dataclass(frozen=True)
class Percentile(CopiedStruct):
    """A percentile and the bucket it was found in (`picollo_percentile`).

    ``str(p)`` is the library's one-line form, e.g.
    ``P99=24,960 [83 / 609]: [24,832, 25,088) 14,190``.
    """

    rank: float
    value: int
    plus_minus: int
    storage_index: int
    logical_index: int
    lower: int
    upper: int  # exclusive; 2**64 - 1 for the topmost bucket (its real bound is 2**64)
    highest: int
    count: int
    cumulative_count: int
    rank_count: int

    def _to_c(self) -> n.picollo_percentile:
        return n.picollo_percentile(*(getattr(self, f.name) for f in fields(self)))

    def __int__(self) -> int:
        return self.value

    def __str__(self) -> str:
        c = self._to_c()
        return fetch_text(lambda buf, size, needed: n.lib.picollo_percentile_format(
            ctypes.byref(c), buf, size, needed))


@dataclass(frozen=True)
class Bucket(CopiedStruct):
    """A storage bucket and its count (`picollo_bucket`); values ``lower..=highest``."""

    storage_index: int
    logical_index: int
    lower: int
    highest: int
    value: int  # the midpoint
    count: int

    @property
    def upper(self) -> int:
        """Exclusive upper bound (a Python int, so 2**64 for the topmost bucket)."""
        return self.highest + 1


@dataclass(frozen=True)
class Step(CopiedStruct):
    """One step of values, ``lower..=highest``, and the counts of the buckets whose midpoint
    lies in it (`picollo_step`), from `Histogram.linear_steps` and `Histogram.log_steps`."""

    lower: int
    highest: int  # inclusive: the next step starts at highest + 1
    count: int
    cumulative_count: int  # counts up to the end of this step
    percentile: float  # cumulative_count over the count in range, in percent

    @property
    def upper(self) -> int:
        """Exclusive upper bound (a Python int, so 2**64 for a step ending at the top)."""
        return self.highest + 1


@dataclass(frozen=True)
class Info:
    """Facts about a histogram (`picollo_histogram_info`)."""

    total: int
    underflow: int
    overflow: int
    saturated: int
    min_trackable: int
    max_trackable: int
    storage_len: int
    footprint_bytes: int
    block_size: int
    relative_error: float
    counter_bits: int
    mode: str  # one of MODES
    value_selection: str
    approx_threshold: int  # T of the approximate mode; 0 in the others

    @classmethod
    def _from_c(cls, i: n.picollo_histogram_info) -> "Info":
        values = {f.name: getattr(i, f.name) for f in fields(cls)}
        values["value_selection"] = VALUE_SELECTIONS[i.value_selection]
        values["mode"] = code_name(MODES, i.mode)
        return cls(**values)


class Summary(SummaryBase[Percentile]):
    """The standard summary (`picollo_summary`): 16 percentiles, totals and moments.

    ``str(summary)`` is the Markdown table; iterating yields the 16 percentiles;
    ``summary.p(99)`` is the P99 entry. `diff` shows Δ%, Mean, StDev and the D-value;
    `line` reads ``name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…``.
    """

    __slots__ = ("total", "underflow", "overflow", "saturated", "mean", "stdev", "precision",
                 "min_trackable", "max_trackable")
    _PERCENTILE = Percentile
    _HISTOGRAM = "Histogram"
    _C_TABLE = n.lib.picollo_summary_table
    _C_DIFF = n.lib.picollo_summary_diff
    _C_LINE = n.lib.picollo_summary_line
    _C_JSON = n.lib.picollo_summary_json

    total: int
    underflow: int
    overflow: int
    saturated: int
    mean: float
    stdev: float
    precision: float
    min_trackable: int
    max_trackable: int

    def __repr__(self) -> str:
        return (f"<Summary total={self.total:,} overflow={self.overflow:,} "
                f"mean={self.mean:,.2f} p50={self.p(50).value:,} p99={self.p(99).value:,}>")


#: The integer histogram's `Domain`: values ``0 .. 2**64 - 1`` as ``uint64_t``.
INTEGER = Domain(
    name="Histogram", value=u64, c_value=ctypes.c_uint64, c_cursor=ctypes.c_size_t,
    c_handle=n.HistogramP, c_snapshot=n.SnapshotP,
    percentile=Percentile, c_percentile=n.picollo_percentile,
    bucket=Bucket, c_bucket=n.picollo_bucket,
    info=Info, c_info=n.picollo_histogram_info,
    summary=Summary, c_summary=n.picollo_summary,
    native=Natives.named(n.lib, "picollo_histogram_", "picollo_snapshot_"),
)
