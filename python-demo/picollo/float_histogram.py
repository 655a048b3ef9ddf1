"""`FloatHistogram`: the histogram of doubles (`picollo_float_histogram`); its snapshot is
in `float_snapshot`. What it shares with the integer `Histogram` is in `_base` (the handle,
facts, percentiles, buckets) and `_by_value` (queries by value); this module adds what only
doubles have: their recording, counts beside the buckets, exact sum and extremes."""

from __future__ import annotations

import ctypes
from operator import attrgetter
from typing import Any, Iterable, Optional, Union

from . import _native as n
from ._base import HistogramBase, info_field, record_checked
from ._by_value import ByValue
from ._convert import float_buffer, real, u32, u64
from ._errors import check
from ._handle import derived
from ._float_types import (
    FLOAT,
    FLOAT_MODES,
    FLOAT_STORAGES,
    FloatBucket,
    FloatInfo,
    FloatPercentile,
    FloatSummary,
)
from ._results import name_code, selection_code
from ._text import encode, fetch_text
from .float_snapshot import FloatSnapshot

#: `picollo_float_histogram_text` formats.
_TABLE, _LINE = 0, 1


_record_native = n.pylib.picollo_float_histogram_record
_ONE = 1


def _make_record(box: list) -> Any:
    """``FloatHistogram.record`` for one histogram, as the integer histogram's: one Python
    call, one test and the ctypes call (through `PyDLL`, the handle as its address).
    ``box`` is ``[handle, address]``, ``[None, None]`` once closed. ctypes converts any
    float, int or object with ``__float__`` (numpy scalars included) to a double; what it
    refuses, a count, or a closed histogram goes through `record_checked`, which says
    what is wrong."""
    record = _record_native

    def fast_record(value: float, count: int = _ONE) -> None:
        address = box[1]
        if count is _ONE and address is not None:
            try:
                return record(address, value)
            except ctypes.ArgumentError:
                pass  # a str, say: the checked path names the problem
        record_checked(FloatHistogram, box, value, count)

    fast_record.__doc__ = FloatHistogram.record.__doc__
    return fast_record


class FloatHistogram(HistogramBase[FloatPercentile, FloatBucket, FloatSummary, FloatInfo],
                     ByValue):
    """A histogram of doubles with a guaranteed relative error per bucket, for both signs.

    >>> with FloatHistogram(relative_error=0.01) as h:
    ...     h.record_many([-2.5, 0.0, 1e-300, 3.25, 1e300, float("nan")])
    ...     print(h.percentile(50), h.min, h.max, h.nan)

    A nonzero finite value whose magnitude lies in ``min_magnitude ..= max_magnitude``
    (to bucket resolution; by default every finite double, subnormals included) lands in a
    bucket of its sign, and a reported quantile is within ``relative_error`` of the true
    one. ``±0.0`` has a bucket of its own (reported as 0). NaN, +∞ and −∞ are counted
    apart and never enter quantiles; magnitudes outside the range count as underflow and
    overflow. `min`, `max` and `sum` are kept exactly (the sum exact and rounded once in
    the single mode, a running sum in the interlocked one). ``str(h)`` is the Markdown summary table and iterating yields the non-empty
    buckets in value order. ``close()`` (or leaving ``with``) frees it; later use raises
    `ClosedError`.

    ``storage="sparse"`` (default) allocates one block of counters per octave of magnitude
    when a value first lands in it, so memory follows the data; ``"dense"`` allocates the
    whole range up front (no allocation while recording).

    Threads: ``mode="single"`` (default): one thread records at a time; ``"interlocked"``:
    any number (atomic adds). Queries, snapshots and `add` from this histogram run on any
    thread meanwhile, each on one consistent copy. `close` must not race other calls.
    """

    _DOMAIN = FLOAT
    _WHAT = "float histogram"

    def __init__(
        self,
        relative_error: float = 0.001,
        *,
        min_magnitude: Optional[float] = None,
        max_magnitude: Optional[float] = None,
        counter_bits: int = 64,
        storage: str = "sparse",
        mode: str = "single",
        value_selection: str = "midpoint",
    ):
        config = n.lib.picollo_float_config_default()
        config.relative_error = real(relative_error, "relative_error")
        if min_magnitude is not None:
            config.min_magnitude = real(min_magnitude, "min_magnitude")
        if max_magnitude is not None:
            config.max_magnitude = real(max_magnitude, "max_magnitude")
        config.counter_bits = u32(counter_bits, "counter_bits")
        config.storage = name_code(FLOAT_STORAGES, storage, "storage")
        config.mode = name_code(FLOAT_MODES, mode, "mode", {"single-writer": "single"})
        config.value_selection = selection_code(value_selection)
        handle = n.FloatHistogramP()
        check(n.lib.picollo_float_histogram_new(ctypes.byref(config), ctypes.byref(handle)))
        self._own(handle)

    def _attach(self, handle: Any) -> None:
        self._h = handle
        self._box = [handle, ctypes.cast(handle, ctypes.c_void_p).value]
        self.record = _make_record(self._box)

    def _detach(self) -> None:
        super()._detach()
        self._box[0] = self._box[1] = None

    # --- recording ---------------------------------------------------------------------

    def record(self, value: float, count: int = 1) -> None:
        """Record ``value`` once, or ``count`` times (``count = 0`` records nothing).

        ``value`` is a float, an int (converted to the nearest double) or anything with
        ``__float__`` (numpy scalars); anything else raises `TypeError`. NaN and ±∞ are
        counted apart, never refused. One native call that keeps the GIL; for many values,
        `record_many` costs far less per value."""
        # Each histogram replaces this with its own fast function (`_make_record`).
        record_checked(FloatHistogram, self._box, value, count)

    def record_f32(self, value: float) -> None:
        """Record ``value`` as a C ``float``: rounded to single precision first (beyond
        its range, to ±∞, as C converts), then widened exactly."""
        n.lib.picollo_float_histogram_record_f32(self._ptr, real(value, "value"))

    def record_n(self, value: float, count: int) -> None:
        """Record ``count`` occurrences of ``value``; a full bucket saturates (never
        wraps) and the excess is counted in `saturated`."""
        n.lib.picollo_float_histogram_record_n(self._ptr, real(value, "value"),
                                               u64(count, "count"))

    def record_many(self, values: Iterable[float]) -> int:
        """Record every value of a list, an ``array('d')`` or ``array('f')``, a numpy
        array or any iterable of real numbers in one native call; returns how many.
        Contiguous native float64 and float32 data (numpy arrays, read-only ones too,
        arrays, buffers) is read in place, without a copy (floats are widened inside the
        library); other numpy integer and float arrays (strided, another byte order,
        float16...) are converted once to float64. NaN and ±∞ are counted apart, as
        `record` counts them; complex, bool and text arrays raise `TypeError`. Items are
        checked first: on a bad one nothing is recorded."""
        h = self._ptr
        address, count, keep_alive, is_f32 = float_buffer(values)
        many = (n.lib.picollo_float_histogram_record_many_f32 if is_f32
                else n.lib.picollo_float_histogram_record_many)
        check(many(h, address or None, count))
        del keep_alive
        return count

    # --- merging -----------------------------------------------------------------------

    def add(self, other: "FloatHistogram") -> "FloatHistogram":
        """Add ``other``'s counts, its NaN, infinity and outside counts, sum and extremes
        (same relative error; any range, storage, mode and counter width: buckets outside
        this range count as underflow/overflow). `LayoutMismatchError` for another
        relative error (`add_rebinned` takes any). ``h.add(h)`` doubles every count.
        Returns self."""
        return self._add_with(n.lib.picollo_float_histogram_add, other)

    merge = add

    def add_rebinned(self, other: "FloatHistogram") -> "FloatHistogram":
        """Add ``other``'s counts whatever its relative error, re-binned into this
        histogram's buckets (exact into a coarser or the same precision; into a finer one
        each of ``other``'s buckets shared equally among those it covers, so the result
        carries ``other``'s relative error), with its zero, NaN, infinity and outside
        counts, sum and extremes, as `add`. Returns self."""
        return self._add_with(n.lib.picollo_float_histogram_add_rebinned, other)

    def _add_with(self, native: Any, other: "FloatHistogram") -> "FloatHistogram":
        """``native(self, other)`` (`add` or `add_rebinned`), ``other`` checked; returns
        self."""
        source = self._other(other)
        if other is self:
            # The library takes no histogram as both source and destination.
            with self.copy() as twin:
                return self._add_with(native, twin)
        check(native(self._ptr, source))
        return self

    def _config(self) -> dict[str, Any]:
        """The keyword arguments that build an empty histogram of this configuration."""
        i = self.info()
        return {"relative_error": i.relative_error, "min_magnitude": i.min_magnitude,
                "max_magnitude": i.max_magnitude, "counter_bits": i.counter_bits,
                "storage": i.storage, "mode": i.mode, "value_selection": i.value_selection}

    # --- facts -------------------------------------------------------------------------

    zero = info_field("zero", """``±0.0`` values (in `total`).""")
    nan = info_field("nan", """NaN values (never in quantiles).""")
    positive_infinity = info_field("positive_infinity")
    negative_infinity = info_field("negative_infinity")
    sum = info_field("sum", """Sum of the values in buckets (0 when empty).""")
    min = info_field("min", """The smallest value in buckets, exactly as recorded; None when
        empty.""")
    max = info_field("max", """The largest value in buckets, exactly as recorded; None when
        empty.""")

    @property
    def mean(self) -> float:
        """``sum / total`` (NaN when empty)."""
        i = self.info()
        return i.sum / i.total if i.total else float("nan")

    stdev = derived("summary", attrgetter("stdev"), """Population standard deviation over
        bucket midpoints (NaN when empty).""")
    relative_error = info_field("relative_error", """The layout's guaranteed relative error
        (``0.5 / buckets_per_octave``; at most the one asked for).""")
    min_magnitude = info_field("min_magnitude", """The smallest magnitude kept in buckets, to
        bucket resolution.""")
    max_magnitude = info_field("max_magnitude", """The largest magnitude kept in buckets, to
        bucket resolution.""")
    buckets_per_octave = info_field("buckets_per_octave")
    storage_len = info_field("storage_len", """Buckets per sign in the range.""")
    footprint_bytes = info_field("footprint_bytes", """Bytes of counters and exact sums
        allocated now (sparse: what the data touched).""")
    storage = info_field("storage", """dense or sparse.""")

    # --- queries -----------------------------------------------------------------------

    def percentile_values(self, ranks: Iterable[float]) -> list[float]:
        """Just the values for strictly increasing ranks."""
        return [p.value for p in self.percentiles(ranks)]

    def quantile(self, q: float) -> float:
        """The value at quantile ``q`` (0..1): ``percentile(q * 100).value``."""
        q = real(q, "q")
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"quantile {q!r} is outside 0..1")
        return self.percentile(q * 100.0).value

    # --- queries by value (`count_between`: `_by_value`) ------------------------------

    def rank_of(self, x: float) -> float:
        """The number of values in buckets at or below ``x``: whole buckets below, and the
        bucket holding ``x`` in part (its values taken as spread evenly over the part of it
        between `min` and `max`, so at or above `max` every value counts). ``x`` may be ±∞;
        NaN raises `InvalidArgumentError`."""
        return self._rank_of(x, "x")

    def quantile_of(self, x: float) -> float:
        """`rank_of` over the total: the fraction (0..1) of values at or below ``x``.
        `EmptyHistogramError` when no value is in a bucket."""
        return self._quantile_of(x, "x")

    def equivalent_range(self, x: float) -> tuple[float, float]:
        """``(lowest, highest)``: the values of the bucket ``x`` falls in (``(0, 0)`` for
        zero), recorded or not. `InvalidArgumentError` (a ValueError) for NaN, ±∞, or a
        nonzero magnitude outside the range."""
        return self._equivalent_range(x, "x")

    def _text(self, form: int, title: Optional[str], what: str) -> str:
        h, t = self._ptr, encode(title, what)
        return fetch_text(lambda buf, size, needed: n.lib.picollo_float_histogram_text(
            h, form, t, buf, size, needed))

    def table(self, title: Optional[str] = None) -> str:
        """The Markdown summary table (``##### title`` heading when given)."""
        return self._text(_TABLE, title, "title")

    def line(self, name: str = "") -> str:
        """The one-line summary (see `FloatSummary.line`), from the library."""
        return self._text(_LINE, name, "name")

    def diff(self, other: "Union[FloatHistogram, FloatSnapshot, FloatSummary]",
             title: Optional[str] = None, name_a: str = "A", name_b: str = "B") -> str:
        """The diff table of ``other`` (a histogram, snapshot or summary) against this
        histogram's summary."""
        if isinstance(other, (FloatHistogram, FloatSnapshot)):
            other = other.summary()
        return self.summary().diff(other, title, name_a, name_b)

    def __repr__(self) -> str:
        if self.closed:
            return "<FloatHistogram closed>"
        i = self.info()
        return (f"<FloatHistogram relative_error={i.relative_error:g} range={i.min_magnitude:g}.."
                f"{i.max_magnitude:g} u{i.counter_bits} {i.storage} mode={i.mode} "
                f"total={i.total:,} nan={i.nan:,} min={i.min!r} max={i.max!r}>")

    # --- snapshots ---------------------------------------------------------------------

    def snapshot(self) -> FloatSnapshot:
        """A copy of the counts that `FloatSnapshot.update` refreshes."""
        return FloatSnapshot(self)
