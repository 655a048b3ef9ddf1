"""What `Histogram` and `FloatHistogram`, `Snapshot` and `FloatSnapshot` share, written once
over their `Domain`: owning the native handle, the facts, the percentiles, the summary, the
buckets, merging's checks and the snapshot's refresh."""

from __future__ import annotations

import ctypes
from operator import attrgetter
from typing import (Any, ClassVar, Generic, Iterable, Iterator, Mapping, Optional, TypeVar,
                    Union)

from . import _formats
from ._convert import ranks_array, real, u64
from ._domain import Domain
from ._errors import ClosedError, Status, check, error_for
from ._handle import Handle, derived
from ._results import selection_code

#: The result types of a histogram kind: percentile, bucket, summary, info (`Domain`).
P = TypeVar("P")
B = TypeVar("B")
S = TypeVar("S")
I = TypeVar("I")  # noqa: E741
HB = TypeVar("HB", bound="HistogramBase[Any, Any, Any, Any]")
SB = TypeVar("SB", bound="SnapshotBase[Any]")

#: Non-empty buckets fetched per native call by `buckets_with_values`.
BUCKET_BATCH = 256


def batch_size(batch: Any) -> int:
    """A positive ``batch`` argument, checked."""
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be a positive int, not {batch!r}")
    return batch


def of_kind(obj: Any, domain: Domain) -> Any:
    """``obj`` when it is a histogram of ``domain``; `TypeError` otherwise."""
    if not (isinstance(obj, HistogramBase) and obj._DOMAIN is domain):
        raise TypeError(f"expected a {domain.name}, not {type(obj).__name__}")
    return obj


def record_checked(kind: type[HistogramBase[Any, Any, Any, Any]], box: list, value: Any,
                   count: Any) -> None:
    """Record ``value`` ``count`` times into the ``kind`` histogram whose ``box`` is
    ``[handle, address]`` (``[None, None]`` once closed), both checked: where each `record`
    call that its fast path does not take goes, to be told what is wrong."""
    h = box[0]
    if h is None:
        raise ClosedError(kind._WHAT)
    d = kind._DOMAIN
    v, c = d.value(value, "value"), u64(count, "count")
    if c == 1:
        d.native.record(h, v)
    else:
        d.native.record_n(h, v, c)


def info_field(name: str, doc: Optional[str] = None) -> property:
    """A read-only property: the field ``name`` of ``self.info()``."""
    return derived("info", attrgetter(name), doc)


class HistogramBase(Handle, Generic[P, B, S, I]):
    """What a histogram does whatever its values (``_DOMAIN``): facts, percentiles, the
    summary, buckets, the value selection, reset, downsampling and copies."""

    _DOMAIN: ClassVar[Domain]

    def _own(self, handle: Any, free: Any = None) -> None:
        """Take ``handle``, freed by the kind's ``free`` (unless given another) when this
        histogram is closed or collected."""
        super()._own(handle, free or self._DOMAIN.native.free)

    @classmethod
    def _adopt(cls: type[HB], handle: Any) -> HB:
        """A histogram for a handle the library just made for us (we free it)."""
        h = cls.__new__(cls)
        h._own(handle)
        return h

    # --- facts -------------------------------------------------------------------------

    def info(self) -> I:
        """Counts, range, layout and footprint in one call (for doubles also the exact
        sum and extremes, from one consistent copy)."""
        d = self._DOMAIN
        out = d.c_info()
        check(d.native.get_info(self._ptr, ctypes.byref(out)))
        return d.info._from_c(out)

    total = info_field("total", """Values in the range, in buckets (a float histogram's
        zero bucket included): what the percentiles cover.""")
    underflow = info_field("underflow", """Values below the range (for doubles: nonzero
        values whose magnitude is below it).""")
    overflow = info_field("overflow", """Values above the range (for doubles: finite values
        whose magnitude is above it).""")
    saturated = info_field("saturated", """Counts lost to full buckets (`record_n` beyond the
        counter's maximum; for doubles also records that found a sparse block
        unallocatable).""")
    counter_bits = info_field("counter_bits", "The width of a bucket's counter: 32 or 64.")
    mode = info_field("mode", """The concurrency mode: single or interlocked (for integers
        also thread-local or approximate).""")

    @property
    def value_selection(self) -> str:
        """How percentiles report a bucket: midpoint, lower, upper or interpolated."""
        return self.info().value_selection

    @value_selection.setter
    def value_selection(self, selection: str) -> None:
        check(self._DOMAIN.native.set_value_selection(self._ptr, selection_code(selection)))

    # --- export formats by name ------------------------------------------------------------

    def to_format(self, format: str, options: Optional[Mapping[str, Any]] = None, /,
                  **keywords: Any) -> Union[str, bytes]:
        """This histogram in the library's export format ``format`` (`picollo.formats()`
        lists them; ``"csv"``: the non-empty buckets as ``lower,upper,count``), with the
        format's options from ``options`` and keywords (booleans as true/false, sequences
        comma-separated; ``format`` and ``options`` are positional, so ``name=`` is the
        metrics formats' option): `str` for a text format, `bytes` for a binary one.
        `InvalidArgumentError` for an unknown format, an option it does not take or a value
        it refuses."""
        return _formats.to_format(self._DOMAIN.native.format, self._ptr, format, options,
                                  keywords)

    # --- queries by rank -----------------------------------------------------------------

    def percentile(self, rank: float) -> P:
        """The percentile at ``rank`` (percent, 0..100): the bucket holding the
        ``max(1, ceil(rank/100 · total))``-th smallest value in range.
        `EmptyHistogramError` when no value is in range; `InvalidArgumentError` (a
        ValueError) for a bad rank."""
        d = self._DOMAIN
        out = d.c_percentile()
        check(d.native.percentile(self._ptr, real(rank, "rank"), ctypes.byref(out)))
        return d.percentile._from_c(out)

    def percentiles(self, ranks: Iterable[float]) -> list[P]:
        """Percentiles for strictly increasing ranks, in one pass (they agree)."""
        return _percentiles(self._DOMAIN, self._DOMAIN.native.percentiles, self._ptr, ranks)

    def summary(self) -> S:
        """The standard summary: 16 percentiles, the counts, mean, stdev, precision and
        range (for doubles also the exact sum and extremes)."""
        d = self._DOMAIN
        out = d.c_summary()
        check(d.native.summary(self._ptr, ctypes.byref(out)))
        return d.summary(out)

    def __str__(self) -> str:
        return self.table()

    # --- buckets -----------------------------------------------------------------------

    def buckets_with_values(self, batch: int = BUCKET_BATCH) -> Iterator[B]:
        """The non-empty buckets in ascending value order (for doubles: negative, zero,
        positive), fetched ``batch`` at a time (each batch from one consistent copy of the
        counts: one native call per batch)."""
        d, size = self._DOMAIN, batch_size(batch)
        cursor, written = d.c_cursor(0), ctypes.c_size_t(0)
        out = (d.c_bucket * size)()
        while True:
            status = d.native.next_buckets(
                self._ptr, ctypes.byref(cursor), out, size, ctypes.byref(written))
            if status == Status.OUT_OF_RANGE:
                return
            if status != Status.OK:
                raise error_for(status)
            # Copied out before yielding: the next batch reuses `out`.
            for bucket in [d.bucket._from_c(b) for b in out[: written.value]]:
                self._ptr  # closing the histogram ends the iteration (ClosedError)
                yield bucket

    def __iter__(self) -> Iterator[B]:
        return self.buckets_with_values()

    # --- counts ------------------------------------------------------------------------

    def reset(self) -> None:
        """Clear every count (in buckets and beside them) and the sum and extremes kept."""
        check(self._DOMAIN.native.reset(self._ptr))

    def _other(self, other: Any) -> Any:
        """``other``'s live handle, when it is a histogram of the same kind."""
        return of_kind(other, self._DOMAIN)._ptr

    def downsample(self: HB, relative_error: float) -> HB:
        """A new histogram at a coarser precision: exactly the one the recorded values
        would have made at ``relative_error`` (clamped to 1e-6..0.1 as at creation), with
        this one's range, storage, value selection and the counts beside the buckets
        (underflow, overflow, saturated; for doubles also zero, NaN and infinities, the sum
        and extremes), 64-bit counters, single-writer mode. `LayoutMismatchError` for a
        precision finer than this one's (use `add_rebinned` into a finer histogram to
        spread counts knowingly); `InvalidArgumentError` for a relative error that is NaN,
        infinite or not positive."""
        d = self._DOMAIN
        out = d.c_handle()
        check(d.native.downsample(
            self._ptr, real(relative_error, "relative_error"), ctypes.byref(out)))
        return type(self)._adopt(out)

    def copy(self: HB) -> HB:
        """A new histogram with the same configuration and counts."""
        return type(self)(**self._config()).add(self)

    def __iadd__(self: HB, other: Any) -> HB:
        return self.add(other)


def _percentiles(d: Domain, query: Any, handle: Any, ranks: Iterable[float]) -> list[Any]:
    """``query``'s percentiles (a histogram's or a snapshot's) for strictly increasing
    ``ranks``."""
    arr, count = ranks_array(ranks)
    if count == 0:
        return []
    out = (d.c_percentile * count)()
    check(query(handle, arr, count, out))
    return [d.percentile._from_c(p) for p in out]


class SnapshotBase(Handle, Generic[S]):
    """A copy of a histogram's counts, refreshed in place by `update` (no allocation in
    the library), optionally holding only what was recorded since the previous update.
    One thread at a time."""

    _DOMAIN: ClassVar[Domain]

    def __init__(self, histogram: Any):
        d = self._DOMAIN
        source = of_kind(histogram, d)._ptr
        handle = d.c_snapshot()
        check(d.native.snapshot_new(source, ctypes.byref(handle)))
        self._own(handle, d.native.snapshot_free)
        self._source = histogram

    def _source_of(self, histogram: Any) -> Any:
        """``histogram``, or the source when it is None, checked."""
        return of_kind(self._source if histogram is None else histogram, self._DOMAIN)

    def update(self: SB, deltas: bool = False, histogram: Any = None) -> SB:
        """Refresh from the source histogram (or another of the same layout and range;
        `LayoutMismatchError` otherwise). With ``deltas=True`` the snapshot then holds
        only what was recorded since the previous update (a reset in between: the counts
        since the reset); otherwise the full counts. Returns self."""
        source = self._source_of(histogram)
        check(self._DOMAIN.native.snapshot_update(self._ptr, source._ptr, 1 if deltas else 0))
        return self

    def summary(self) -> S:
        d = self._DOMAIN
        out = d.c_summary()
        check(d.native.snapshot_summary(self._ptr, ctypes.byref(out)))
        return d.summary(out)

    @property
    def total(self) -> int:
        return self.summary().total

    def table(self, title: Optional[str] = None) -> str:
        return self.summary().table(title)

    def __str__(self) -> str:
        return self.table()
