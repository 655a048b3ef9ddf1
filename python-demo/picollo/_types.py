"""Plain Python values copied out of the C structs: Percentile, Bucket, Step, Info, Summary."""

from __future__ import annotations

import ctypes
import json
import math
from dataclasses import dataclass, fields
from typing import Any, Iterator

from . import _native as n
from ._text import encode, fetch_text

#: The ranks of a summary, in order (`picollo_summary.percentiles`).
STANDARD_RANKS = (0.0, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 92.5, 95.0, 97.5, 99.0,
                  99.9, 99.99, 99.999, 100.0)

#: `value_selection` names, in `picollo_value_selection` order.
VALUE_SELECTIONS = ("midpoint", "lower", "upper", "interpolated")

#: Concurrency mode names, in `picollo_mode` order (see `Histogram`).
MODES = ("single", "interlocked", "thread-local", "approximate")

#: `Histogram` storage kinds, in `picollo_storage` order.
STORAGES = ("dense", "sparse")


@dataclass(frozen=True)
class Percentile:
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

    @classmethod
    def _from_c(cls, p: n.picollo_percentile) -> "Percentile":
        return cls(*(getattr(p, f.name) for f in fields(cls)))

    def _to_c(self) -> n.picollo_percentile:
        return n.picollo_percentile(*(getattr(self, f.name) for f in fields(self)))

    def __contains__(self, value: int) -> bool:
        """Whether ``value`` lies in this percentile's bucket."""
        return self.lower <= value <= self.highest

    def __int__(self) -> int:
        return self.value

    def __str__(self) -> str:
        c = self._to_c()
        return fetch_text(lambda buf, size, needed: n.lib.picollo_percentile_format(
            ctypes.byref(c), buf, size, needed))


@dataclass(frozen=True)
class Bucket:
    """A storage bucket and its count (`picollo_bucket`); values ``lower..=highest``."""

    storage_index: int
    logical_index: int
    lower: int
    highest: int
    value: int  # the midpoint
    count: int

    @classmethod
    def _from_c(cls, b: n.picollo_bucket) -> "Bucket":
        return cls(*(getattr(b, f.name) for f in fields(cls)))

    @property
    def upper(self) -> int:
        """Exclusive upper bound (a Python int, so 2**64 for the topmost bucket)."""
        return self.highest + 1

    def __contains__(self, value: int) -> bool:
        return self.lower <= value <= self.highest


@dataclass(frozen=True)
class Step:
    """One step of values, ``lower..=highest``, and the counts of the buckets whose midpoint
    lies in it (`picollo_step`), from `Histogram.linear_steps` and `Histogram.log_steps`."""

    lower: int
    highest: int  # inclusive: the next step starts at highest + 1
    count: int
    cumulative_count: int  # counts up to the end of this step
    percentile: float  # cumulative_count over the count in range, in percent

    @classmethod
    def _from_c(cls, s: n.picollo_step) -> "Step":
        return cls(*(getattr(s, f.name) for f in fields(cls)))

    @property
    def upper(self) -> int:
        """Exclusive upper bound (a Python int, so 2**64 for a step ending at the top)."""
        return self.highest + 1

    def __contains__(self, value: int) -> bool:
        return self.lower <= value <= self.highest


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
        values["mode"] = MODES[i.mode] if i.mode < len(MODES) else str(i.mode)
        return cls(**values)


class Summary:
    """The standard summary (`picollo_summary`): 16 percentiles, totals and moments.

    ``str(summary)`` is the Markdown table; iterating yields the 16 percentiles;
    ``summary.p(99)`` is the P99 entry.
    """

    __slots__ = ("_c", "percentiles", "total", "underflow", "overflow", "saturated",
                 "mean", "stdev", "precision", "min_trackable", "max_trackable")

    def __init__(self, c: n.picollo_summary):
        self._c = c  # kept for the text functions, which take the C struct
        self.percentiles = tuple(Percentile._from_c(p) for p in c.percentiles)
        self.total: int = c.total
        self.underflow: int = c.underflow
        self.overflow: int = c.overflow
        self.saturated: int = c.saturated
        self.mean: float = c.mean
        self.stdev: float = c.stdev
        self.precision: float = c.precision
        self.min_trackable: int = c.min_trackable
        self.max_trackable: int = c.max_trackable

    def p(self, rank: float) -> Percentile:
        """The entry for a standard rank (0, 1, 5, …, 99.9, 99.99, 99.999, 100)."""
        for r, pct in zip(STANDARD_RANKS, self.percentiles):
            if math.isclose(r, rank, rel_tol=0, abs_tol=1e-9):
                return pct
        raise ValueError(
            f"{rank!r} is not a standard rank {STANDARD_RANKS}; "
            "use Histogram.percentile(rank) for any other rank"
        )

    @property
    def p50(self) -> Percentile:
        """The median entry, ``p(50)``."""
        return self.p(50)

    @property
    def p90(self) -> Percentile:
        return self.p(90)

    @property
    def p99(self) -> Percentile:
        return self.p(99)

    @property
    def p999(self) -> Percentile:
        """The P99.9 entry, ``p(99.9)``."""
        return self.p(99.9)

    def __len__(self) -> int:
        return len(self.percentiles)

    def __iter__(self) -> Iterator[Percentile]:
        return iter(self.percentiles)

    # --- text --------------------------------------------------------------------------

    def table(self, title: str | None = None) -> str:
        """The Markdown table (with a ``##### title`` heading when a title is given)."""
        t = encode(title, "title")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_summary_table(
            ctypes.byref(self._c), t, buf, size, needed))

    def diff(self, other: "Summary", title: str | None = None,
             name_a: str = "A", name_b: str = "B") -> str:
        """The diff table of ``other`` against this summary (Δ%, Mean, StDev, D-value)."""
        if not isinstance(other, Summary):
            raise TypeError(f"diff() needs a Summary, not {type(other).__name__}")
        t, a, b = encode(title, "title"), encode(name_a, "name_a"), encode(name_b, "name_b")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_summary_diff(
            ctypes.byref(self._c), ctypes.byref(other._c), t, a, b, buf, size, needed))

    def line(self, name: str = "") -> str:
        """``name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…`` (no newline)."""
        nm = encode(name, "name")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_summary_line(
            ctypes.byref(self._c), nm, buf, size, needed))

    def json(self) -> str:
        """The summary as JSON text (see `to_dict` for it parsed)."""
        return fetch_text(lambda buf, size, needed: n.lib.picollo_summary_json(
            ctypes.byref(self._c), buf, size, needed))

    def to_dict(self) -> dict[str, Any]:
        """The JSON summary parsed: minTrackableValue, totalCount, mean, percentiles…"""
        return json.loads(self.json())

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return (f"<Summary total={self.total:,} overflow={self.overflow:,} "
                f"mean={self.mean:,.2f} p50={self.p(50).value:,} p99={self.p(99).value:,}>")
