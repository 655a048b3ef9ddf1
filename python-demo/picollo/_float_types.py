"""Plain Python values copied out of the float histogram's C structs: FloatPercentile,
FloatBucket, FloatInfo, FloatSummary."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, fields
from typing import Iterator

from . import _native as n
from ._text import encode, fetch_text
from ._types import STANDARD_RANKS, VALUE_SELECTIONS

#: `FloatHistogram` concurrency modes, in `picollo_float_mode` order.
FLOAT_MODES = ("single", "interlocked")

#: `FloatHistogram` storage kinds, in `picollo_float_storage` order.
FLOAT_STORAGES = ("dense", "sparse")


def _extreme(x: float) -> float | None:
    """An exact extreme as the library gives it: NaN (nothing known) becomes None."""
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class FloatPercentile:
    """A percentile of a float histogram and its bucket (`picollo_float_percentile`):
    ``value`` per the value selection (0 for the zero bucket), the bucket's signed
    ``lowest ..= highest``, and ``side`` -1 (negative), 0 (zero bucket) or 1."""

    rank: float
    value: float
    plus_minus: float
    lowest: float
    highest: float
    count: int
    cumulative_count: int
    rank_count: int
    side: int

    @classmethod
    def _from_c(cls, p: n.picollo_float_percentile) -> "FloatPercentile":
        return cls(*(getattr(p, f.name) for f in fields(cls)))

    def __contains__(self, value: float) -> bool:
        """Whether ``value`` lies in this percentile's bucket."""
        return self.lowest <= value <= self.highest

    def __float__(self) -> float:
        return self.value

    def __str__(self) -> str:
        return (f"P{self.rank:g}={self.value:.9g} ±{self.plus_minus:.3g} "
                f"[{self.lowest:.9g}, {self.highest:.9g}] {self.count:,}")


@dataclass(frozen=True)
class FloatBucket:
    """A non-empty bucket of a float histogram (`picollo_float_bucket`): the signed values
    ``lowest ..= highest``, the ``value`` it reports, its ``count`` and ``side``."""

    lowest: float
    highest: float
    value: float
    count: int
    side: int

    @classmethod
    def _from_c(cls, b: n.picollo_float_bucket) -> "FloatBucket":
        return cls(*(getattr(b, f.name) for f in fields(cls)))

    def __contains__(self, value: float) -> bool:
        return self.lowest <= value <= self.highest


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
    min: float | None
    max: float | None
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
        values["min"], values["max"] = _extreme(i.min), _extreme(i.max)
        values["mode"] = FLOAT_MODES[i.mode] if i.mode < len(FLOAT_MODES) else str(i.mode)
        values["storage"] = (FLOAT_STORAGES[i.storage] if i.storage < len(FLOAT_STORAGES)
                             else str(i.storage))
        values["value_selection"] = VALUE_SELECTIONS[i.value_selection]
        return cls(**values)


class FloatSummary:
    """The standard summary of a float histogram (`picollo_float_summary`): 16
    percentiles, the counts beside the buckets, the exact sum and extremes, mean, stdev.

    ``str(summary)`` is the Markdown table, ``summary.line(name)`` the one-line form;
    iterating yields the 16 percentiles; ``summary.p(99)`` is the P99 entry. ``min`` and
    ``max`` are None when unknown (an empty histogram, a snapshot's deltas).
    """

    __slots__ = ("_c", "percentiles", "total", "zero", "nan", "positive_infinity",
                 "negative_infinity", "underflow", "overflow", "saturated", "sum", "min",
                 "max", "mean", "stdev", "precision", "min_magnitude", "max_magnitude")

    def __init__(self, c: n.picollo_float_summary):
        self._c = c  # kept for the text functions, which take the C struct
        self.percentiles = tuple(FloatPercentile._from_c(p) for p in c.percentiles)
        self.total: int = c.total
        self.zero: int = c.zero
        self.nan: int = c.nan
        self.positive_infinity: int = c.positive_infinity
        self.negative_infinity: int = c.negative_infinity
        self.underflow: int = c.underflow
        self.overflow: int = c.overflow
        self.saturated: int = c.saturated
        self.sum: float = c.sum
        self.min: float | None = _extreme(c.min)
        self.max: float | None = _extreme(c.max)
        self.mean: float = c.mean
        self.stdev: float = c.stdev
        self.precision: float = c.precision
        self.min_magnitude: float = c.min_magnitude
        self.max_magnitude: float = c.max_magnitude

    def p(self, rank: float) -> FloatPercentile:
        """The entry for a standard rank (0, 1, 5, …, 99.9, 99.99, 99.999, 100)."""
        for r, pct in zip(STANDARD_RANKS, self.percentiles):
            if math.isclose(r, rank, rel_tol=0, abs_tol=1e-9):
                return pct
        raise ValueError(
            f"{rank!r} is not a standard rank {STANDARD_RANKS}; "
            "use FloatHistogram.percentile(rank) for any other rank"
        )

    @property
    def p50(self) -> FloatPercentile:
        return self.p(50)

    @property
    def p90(self) -> FloatPercentile:
        return self.p(90)

    @property
    def p99(self) -> FloatPercentile:
        return self.p(99)

    @property
    def p999(self) -> FloatPercentile:
        return self.p(99.9)

    def __len__(self) -> int:
        return len(self.percentiles)

    def __iter__(self) -> Iterator[FloatPercentile]:
        return iter(self.percentiles)

    # --- text --------------------------------------------------------------------------

    def table(self, title: str | None = None) -> str:
        """The Markdown table (with a ``##### title`` heading when a title is given)."""
        t = encode(title, "title")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_float_summary_table(
            ctypes.byref(self._c), t, buf, size, needed))

    def diff(self, other: "FloatSummary", title: str | None = None,
             name_a: str = "A", name_b: str = "B") -> str:
        """The diff table of ``other`` against this summary (Δ%, Mean, StDev, Min, Max,
        Precision, Total, D-value)."""
        if not isinstance(other, FloatSummary):
            raise TypeError(f"diff() needs a FloatSummary, not {type(other).__name__}")
        t, a, b = encode(title, "title"), encode(name_a, "name_a"), encode(name_b, "name_b")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_float_summary_diff(
            ctypes.byref(self._c), ctypes.byref(other._c), t, a, b, buf, size, needed))

    def line(self, name: str = "") -> str:
        """``name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…`` (no
        newline), then the NaN, ±∞, underflow, overflow and saturated counts not zero."""
        nm = encode(name, "name")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_float_summary_line(
            ctypes.byref(self._c), nm, buf, size, needed))

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        if self.total == 0:
            return f"<FloatSummary total=0 nan={self.nan:,}>"
        return (f"<FloatSummary total={self.total:,} mean={self.mean:.6g} "
                f"p50={self.p50.value:.6g} p99={self.p99.value:.6g} "
                f"min={self.min!r} max={self.max!r}>")
