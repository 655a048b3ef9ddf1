"""`Histogram` and `Snapshot`: one small class per C handle. What they share with the float
histogram and its snapshot is in `_base` (the handle, facts, percentiles, buckets, the
snapshot's refresh) and `_by_value` (queries by value); this module adds what only integers
have: recording with buffered recorders, subtraction, HdrHistogram's V2 and .hgrm, exact
extremes, steps of values and metrics exports."""

from __future__ import annotations

import ctypes
import threading
import warnings
import weakref
from array import array
from operator import itemgetter
from typing import Any, Iterable, Iterator, Optional, Union

from . import _export
from . import _native as n
from ._base import HistogramBase, SnapshotBase, _percentiles, info_field, record_checked
from ._by_value import ByValue, ValueSteps
from ._hdr import HdrInterop
from ._convert import ranks_array, real, u32, u64, u64_buffer
from ._errors import ClosedError, Status, UnsupportedError, check, error_for
from ._handle import derived
from ._results import name_code, selection_code
from ._text import encode, fetch_text
from ._types import INTEGER, MODES, STORAGES, Bucket, Info, Percentile, Summary
from .cumulative import Cumulative

#: `mode` spellings taken besides the names of `MODES`.
_MODE_ALIASES = {"single-writer": "single", "threadlocal": "thread-local",
                 "approx": "approximate"}


def _either(short: Any, long: Any, name: str, default: int) -> tuple[Any, str]:
    """``(value, keyword)`` of a range bound given as ``name=`` or ``name_trackable=``
    (not both), else ``default``."""
    if short is not None and long is not None:
        raise TypeError(f"give {name}= or {name}_trackable=, not both")
    if long is not None:
        return long, f"{name}_trackable"
    return (default if short is None else short), name


def _deprecated(old: str, new: str) -> None:
    warnings.warn(
        f"Histogram.{old} is the trackable range's bound, not a recorded extreme; "
        f"use Histogram.{new} (or Histogram.recorded_{old}, the {old}imum value recorded, "
        f"with exact_extremes=True)", DeprecationWarning, stacklevel=3)


def _unpickle(config: dict[str, Any], blob: bytes) -> "Histogram":
    return Histogram(**config).add_encoded(blob)


def _keep() -> None:
    """The finalizer of a borrowed histogram: the owner frees it, not us."""


_record_native = n.pylib.picollo_histogram_record
_U64_MAX = n.U64_MAX
_ONE = 1


def _make_record(box: list) -> Any:
    """``Histogram.record`` for one histogram: a function kept on the instance, so a call is
    one Python call, two comparisons and the ctypes call (through `PyDLL`, the handle as
    its address). ``box`` is ``[handle, address]``, ``[None, None]`` once closed; whatever
    the fast path does not take (a count, a value ctypes does not convert, a closed
    histogram, values outside ``0 .. 2**64 - 1``) goes through `record_checked`, which
    says what is wrong."""
    record = _record_native

    def fast_record(value: int, count: int = _ONE) -> None:
        address = box[1]
        # `count is _ONE`: the default (or CPython's cached 1); anything else, 1.0 or
        # numpy's 1 included, takes the checked path.
        if count is _ONE and address is not None and 0 <= value <= _U64_MAX:
            try:
                return record(address, value)
            except ctypes.ArgumentError:
                pass  # a numpy integer, say: the checked path converts it
        record_checked(Histogram, box, value, count)

    fast_record.__doc__ = Histogram.record.__doc__
    return fast_record


class Histogram(HistogramBase[Percentile, Bucket, Summary, Info], ByValue, ValueSteps,
                HdrInterop):
    """An HDR histogram with a guaranteed relative error per bucket.

    >>> with Histogram(relative_error=0.01, min=10_000, max=30_000, counter_bits=32) as h:
    ...     h.record_many([20_000, 21_000, 40_000])     # 40,000 counts as overflow
    ...     print(h.percentile(99), h.overflow)

    Values are integers in ``0 .. 2**64 - 1``; values outside the trackable range
    ``[min, max]`` (the keywords ``min``/``max``, or ``min_trackable``/``max_trackable``;
    the properties `min_trackable` and `max_trackable`; to bucket resolution: the first
    and last buckets may reach a little past them) count as underflow/overflow, never as
    errors. ``lowest_discernible=L`` is HdrHistogram's lowest discernible value: the lowest
    buckets are ``unit = 2**floor(log2(L))`` wide (values below it share the first bucket),
    the relative error holds above ``2 * unit / relative_error``; histograms decoded from
    HdrHistogram data with L > 1 have that unit (`unit`). ``exact_extremes=True`` also
    keeps the exact smallest and largest value recorded in the range (`recorded_min`, `recorded_max`; a load and a compare per
    record). ``str(h)`` is the Markdown summary table and
    iterating yields the non-empty buckets. Queries by value (`rank_of`, `quantile_of`,
    `count_between`, `equivalent_range`, `linear_steps`, `log_steps`) come from `ByValue` and `ValueSteps`. ``close()`` (or leaving ``with``) frees it;
    later use raises `ClosedError`.

    Threads: ``mode`` chooses who may record at once (``record`` keeps the GIL for its
    short native call; the other calls release it, so threads really run in parallel
    inside ``record_many``):

    - ``"single"`` (default): one thread records at a time (the fastest); reads
      (queries, snapshots) from any thread meanwhile; `reset` from the recording thread.
    - ``"interlocked"``: any number of threads record; one atomic add per record; exact.
    - ``"thread-local"``: any number of threads record, each into its own shard; exact;
      a thread's counts stay when it exits.
    - ``"approximate"``: any number of threads record; each bucket counts exactly below
      ``2**approx_threshold`` (default T = 13), then in unbiased random steps (about 2 %
      error at two standard deviations), with far less contention on hot buckets.

    Queries never mix counts from before and after a reset. The single, interlocked and
    approximate modes answer them from the counters themselves (no copy, no allocation;
    records landing during a query may show in part of it); the thread-local mode sums its
    shards into a copy for each query (`OutOfMemoryError` if that copy cannot be
    allocated; use a `Snapshot` to query one fixed copy repeatedly). In the three
    concurrent modes `reset` may run on any thread while others record (a bucket then
    holds at most what was recorded since), and `subtract` raises `UnsupportedError`
    (use a `Snapshot` with deltas). `close` must not race other calls.
    """

    _DOMAIN = INTEGER
    _WHAT = "histogram"

    def __init__(
        self,
        relative_error: float = 0.001,
        *,
        min: Optional[int] = None,
        max: Optional[int] = None,
        counter_bits: int = 64,
        value_selection: str = "midpoint",
        mode: str = "single",
        approx_threshold: Optional[int] = None,
        min_trackable: Optional[int] = None,
        max_trackable: Optional[int] = None,
        storage: str = "dense",
        exact_extremes: bool = False,
        lowest_discernible: int = 1,
    ):
        config = n.lib.picollo_histogram_config_default()
        config.relative_error = real(relative_error, "relative_error")
        config.min_trackable = u64(*_either(min, min_trackable, "min", 0))
        config.max_trackable = u64(*_either(max, max_trackable, "max", n.U64_MAX))
        config.counter_bits = u32(counter_bits, "counter_bits")
        config.value_selection = selection_code(value_selection)
        config.mode = name_code(MODES, mode, "mode", _MODE_ALIASES)
        config.storage = name_code(STORAGES, storage, "storage")
        config.exact_extremes = 1 if exact_extremes else 0
        config.lowest_discernible = u64(lowest_discernible, "lowest_discernible")
        if config.lowest_discernible == 0:
            raise ValueError("lowest_discernible must be at least 1 (1: exact integers)")
        if approx_threshold is not None:
            # The library refuses a threshold outside the approximate mode, with its reason.
            config.approx_threshold = u32(approx_threshold, "approx_threshold")
            if config.approx_threshold == 0:
                raise ValueError("approx_threshold must be 1..62 (None for the default, 13)")
        self._open(config)

    @classmethod
    def _borrowed(cls, handle: Any, owner: Any) -> "Histogram":
        """A histogram another object owns (a perf session's counter): this wrapper never
        frees the handle, and keeps ``owner`` alive while it lives. The owner closes it
        (`closed` becomes true) before freeing the native histogram."""
        h = cls.__new__(cls)
        h._attach(handle)
        h._owner = owner
        h._finalizer = _keep
        return h

    def _attach(self, handle: Any) -> None:
        self._h = handle
        self._box = [handle, ctypes.cast(handle, ctypes.c_void_p).value]
        # Weak references to this histogram's buffered recorders (see `buffered`), which
        # every other call flushes first.
        self._recorders: list = []
        self.record = _make_record(self._box)

    def _flush_recorders(self, all_threads: bool = False) -> None:
        """Record what the calling thread's buffered recorders hold (every thread's with
        ``all_threads``, for `close`, which no recording may race)."""
        me = threading.get_ident()
        alive = []
        for ref in self._recorders:
            r = ref()
            if r is not None:
                alive.append(ref)
                if all_threads or r._thread == me:
                    r.flush()
        self._recorders[:] = alive

    def _detach(self) -> None:
        super()._detach()
        box = getattr(self, "_box", None)
        if box is not None:
            box[0] = box[1] = None

    def _open(self, config: n.picollo_histogram_config) -> None:
        handle = n.HistogramP()
        check(n.lib.picollo_histogram_new(ctypes.byref(config), ctypes.byref(handle)))
        self._own(handle)

    @property
    def _ptr(self) -> Any:
        h = getattr(self, "_h", None)
        if h is None:
            raise ClosedError("histogram")
        if self._recorders:
            self._flush_recorders()  # buffered values land before anything reads them
        return h

    # --- lifetime ----------------------------------------------------------------------

    def close(self) -> None:
        """Free the native histogram now (idempotent), after recording what its buffered
        recorders hold."""
        if getattr(self, "_h", None) is not None and self._recorders:
            self._flush_recorders(all_threads=True)
        super().close()

    # --- recording ---------------------------------------------------------------------

    def record(self, value: int, count: int = 1) -> None:
        """Record ``value`` once, or ``count`` times (``count = 0`` records nothing).

        ``value`` is an int in ``0 .. 2**64 - 1`` (numpy integers too); anything else
        raises. One native call that keeps the GIL (it never waits); for many values,
        `record_many` or a `buffered` recorder cost far less per value."""
        # Each histogram replaces this with its own fast function (`_make_record`).
        record_checked(Histogram, self._box, value, count)

    def buffered(self, size: int = 4096) -> "BufferedRecorder":
        """A recorder that collects values in a native ``uint64`` buffer and records them
        with one `record_many` call per ``size`` values: about a tenth of `record`'s cost
        per value. See `BufferedRecorder` for when the values land."""
        return BufferedRecorder(self, size)

    def record_n(self, value: int, count: int) -> None:
        """Record ``count`` occurrences of ``value``; a full bucket saturates (never
        wraps) and the excess is counted in `saturated`. The ceiling is the counter's
        maximum in the single and thread-local modes, that maximum minus ``2**22`` in the
        interlocked and approximate modes."""
        n.lib.picollo_histogram_record_n(self._ptr, u64(value), u64(count, "count"))

    def record_corrected(self, value: int, expected_interval: int) -> None:
        """Record with coordinated-omission correction (HdrHistogram's definition): also
        records ``value - k·interval`` while at least ``interval``."""
        n.lib.picollo_histogram_record_corrected(
            self._ptr, u64(value), u64(expected_interval, "expected_interval"))

    def record_many(self, values: Iterable[int]) -> int:
        """Record every value of an iterable, array or buffer in one native call; returns
        how many. Contiguous native ``uint64`` or ``int64`` data (numpy arrays, read-only
        ones too, ``array('Q')``/``array('q')``, ``memoryview(b).cast('Q')``) is read in
        place, without a copy; other integer arrays (other widths, strided, another byte
        order) are converted once, and lists and other iterables are converted item by
        item. A negative value raises `ValueError` (`InvalidArgumentError` from int64 data),
        as `record` does; float, bool, complex and text arrays, bytes and str raise
        `TypeError`. All values are checked first: on a bad one nothing is recorded."""
        h = self._ptr
        address, count, keep_alive, signed = u64_buffer(values)
        many = (n.lib.picollo_histogram_record_many_i64 if signed
                else n.lib.picollo_histogram_record_many)
        check(many(h, address or None, count))
        del keep_alive
        return count

    def reset(self) -> None:
        """Clear every count (buckets, underflow, overflow, saturated)."""
        check(n.lib.picollo_histogram_reset(self._ptr))

    # --- merging -----------------------------------------------------------------------

    def add(self, other: "Histogram") -> "Histogram":
        """Add ``other``'s counts (same relative error, any range); returns self."""
        check(n.lib.picollo_histogram_add(self._ptr, self._other(other)))
        return self

    merge = add

    def subtract(self, other: "Histogram") -> "Histogram":
        """Subtract ``other``'s counts; `WouldGoNegativeError` (and no change) if a count
        would go below zero. Returns self."""
        check(n.lib.picollo_histogram_subtract(self._ptr, self._other(other)))
        return self

    def add_rebinned(self, other: "Histogram") -> "Histogram":
        """Add ``other``'s counts whatever its relative error (and range, counter width
        and mode), re-binned into this histogram's buckets. Into a coarser (or the same)
        precision each of ``other``'s buckets lands whole in the bucket holding all its
        values: exactly what recording the values here would have given. Into a finer one
        a bucket's count is shared equally among the buckets it covers (the remainder to
        the lowest), so the result carries ``other``'s relative error. Counts outside this
        range go to underflow/overflow; ``h.add_rebinned(h)`` doubles every count. Returns
        self."""
        check(n.lib.picollo_histogram_add_rebinned(self._ptr, self._other(other)))
        return self

    def __isub__(self, other: "Histogram") -> "Histogram":
        return self.subtract(other)

    def _config(self) -> dict[str, Any]:
        """The keyword arguments that build an empty histogram of this configuration."""
        i = self.info()
        return {"relative_error": i.relative_error, "min_trackable": i.min_trackable,
                "max_trackable": i.max_trackable, "counter_bits": i.counter_bits,
                "value_selection": i.value_selection, "mode": i.mode,
                "approx_threshold": i.approx_threshold or None, "storage": self.storage,
                "exact_extremes": self.exact_extremes, "lowest_discernible": self.unit}

    # --- pickling -----------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its configuration and its counts in compressed V2 (so `encode`'s
        limits apply: `UnencodableError` for saturated counts). V2 holds no extremes: an
        unpickled histogram made with ``exact_extremes=True`` keeps them again, starting
        from the midpoints of its lowest and highest non-empty buckets (as `add_encoded`
        brings them), not the exact values recorded before pickling."""
        return _unpickle, (self._config(), self.encode_v2("compressed"))

    # --- facts -------------------------------------------------------------------------

    footprint = info_field("footprint_bytes", """Bytes taken by the counters now (sparse
        storage: the blocks made so far and the block directory).""")
    precision = info_field("relative_error", """Guaranteed relative error of a bucket's
        midpoint (0.5 / block size).""")
    min_trackable = info_field("min_trackable", """The smallest value of the trackable range
        (the ``min`` keyword), to bucket resolution; smaller values count as underflow. Not
        the smallest value recorded.""")
    max_trackable = info_field("max_trackable", """The largest value of the trackable range
        (the ``max`` keyword), to bucket resolution; larger values count as overflow. Not
        the largest value recorded.""")

    @property
    def min(self) -> int:
        """Deprecated: `min_trackable` (the range's bound, not the smallest value recorded:
        that is `recorded_min`)."""
        _deprecated("min", "min_trackable")
        return self.min_trackable

    @property
    def max(self) -> int:
        """Deprecated: `max_trackable` (the range's bound, not the largest value recorded:
        that is `recorded_max`)."""
        _deprecated("max", "max_trackable")
        return self.max_trackable

    @property
    def exact_extremes(self) -> bool:
        """Whether this histogram keeps the exact smallest and largest value recorded in
        its range (made with ``exact_extremes=True``): `recorded_min`, `recorded_max`."""
        status = n.lib.picollo_histogram_exact_extremes(self._ptr, None, None)
        if status == Status.UNSUPPORTED:
            return False
        if status not in (Status.OK, Status.EMPTY):
            raise error_for(status)
        return True

    def _recorded_extremes(self, name: str) -> Optional[tuple[int, int]]:
        """``(smallest, largest)`` recorded in the range, None when nothing was."""
        lo, hi = ctypes.c_uint64(), ctypes.c_uint64()
        status = n.lib.picollo_histogram_exact_extremes(
            self._ptr, ctypes.byref(lo), ctypes.byref(hi))
        if status == Status.EMPTY:
            return None
        if status == Status.UNSUPPORTED:
            raise UnsupportedError(
                status, f"Histogram.{name} needs a histogram that keeps exact extremes: "
                "create it with Histogram(..., exact_extremes=True)")
        check(status)
        return lo.value, hi.value

    @property
    def recorded_min(self) -> Optional[int]:
        """The smallest value recorded, exact: a recorded value, not the trackable range
        (that is `min_trackable`). Only values inside the range count (underflow and
        overflow never do), since creation or the last `reset`; merges (`add`, `copy`,
        `add_rebinned`) bring the source's exact extremes, or the bounds of its lowest and
        highest non-empty buckets when it keeps none (`add_encoded`: the midpoints of the
        blob's); `subtract` and `collect` leave them. None when no value was recorded in the range.
        `UnsupportedError` unless the histogram was made with ``exact_extremes=True``."""
        extremes = self._recorded_extremes("recorded_min")
        return None if extremes is None else extremes[0]

    @property
    def recorded_max(self) -> Optional[int]:
        """The largest value recorded, exact: a recorded value, not the trackable range
        (that is `max_trackable`). The rules of `recorded_min` apply: values inside the
        range only, since creation or the last `reset`; None when none was recorded;
        `UnsupportedError` unless the histogram was made with ``exact_extremes=True``."""
        extremes = self._recorded_extremes("recorded_max")
        return None if extremes is None else extremes[1]

    @property
    def storage(self) -> str:
        """How the counters are kept: ``"dense"`` (one per bucket of the range, made at
        creation) or ``"sparse"`` (blocks made when a value first lands in them; see
        `footprint`)."""
        out = ctypes.c_uint32()
        check(n.lib.picollo_histogram_get_storage(self._ptr, ctypes.byref(out)))
        return STORAGES[out.value]

    @property
    def unit(self) -> int:
        """Width of the lowest buckets, a power of two: 1, or ``2**floor(log2(L))`` for a
        histogram made with ``lowest_discernible=L`` or decoded from HdrHistogram data whose
        lowest discernible value is L."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_histogram_get_unit(self._ptr, ctypes.byref(out)))
        return out.value

    approx_threshold = info_field("approx_threshold", """T of the approximate mode (exact
        below ``2**T`` per bucket); 0 in the others.""")

    def _moments(self) -> tuple[float, float]:
        mean, stdev = ctypes.c_double(), ctypes.c_double()
        check(n.lib.picollo_histogram_mean_stdev(
            self._ptr, ctypes.byref(mean), ctypes.byref(stdev)))
        return mean.value, stdev.value

    mean = derived("_moments", itemgetter(0), """Mean over bucket midpoints (NaN when
        empty).""")
    stdev = derived("_moments", itemgetter(1), """Population standard deviation over bucket
        midpoints (NaN when empty).""")

    # --- queries -----------------------------------------------------------------------

    def percentile_values(self, ranks: Iterable[float]) -> list[int]:
        """Just the values for strictly increasing ranks."""
        h = self._ptr
        arr, count = ranks_array(ranks)
        if count == 0:
            return []
        out = (ctypes.c_uint64 * count)()
        check(n.lib.picollo_histogram_percentile_values(h, arr, count, out))
        return list(out)

    def table(self, title: Optional[str] = None) -> str:
        """The Markdown summary table (``##### title`` heading when given)."""
        h, t = self._ptr, encode(title, "title")
        return fetch_text(lambda buf, size, needed: n.lib.picollo_histogram_table(
            h, t, buf, size, needed))

    # --- queries by value (`count_between`, `linear_steps`, `log_steps`: `_by_value`) ---

    def rank_of(self, value: int) -> float:
        """The number of values in range at or below ``value``: whole buckets below, and
        ``value``'s own bucket in part, its values taken as spread evenly over it (exact for
        the width-1 buckets, and at a bucket's highest value). Underflow and overflow do
        not count, as in percentiles."""
        return self._rank_of(value, "value")

    def quantile_of(self, value: int) -> float:
        """`rank_of` over the count in range: the fraction (0..1) of values at or below
        ``value``, the inverse of a percentile. `EmptyHistogramError` when the range holds
        no value."""
        return self._quantile_of(value, "value")

    def equivalent_range(self, value: int) -> tuple[int, int]:
        """``(lowest, highest)``: the values of the bucket ``value`` falls in under this
        layout, recorded or not, in range or not (HdrHistogram's lowest and highest
        equivalent values). The next bucket starts at ``highest + 1``."""
        return self._equivalent_range(value, "value")

    def __repr__(self) -> str:
        if self.closed:
            return "<Histogram closed>"
        i = self.info()
        return (f"<Histogram relative_error={i.relative_error:g} range={i.min_trackable:,}.."
                f"{i.max_trackable:,} u{i.counter_bits} mode={i.mode} total={i.total:,} "
                f"underflow={i.underflow:,} overflow={i.overflow:,}>")

    # --- buckets -----------------------------------------------------------------------

    def bucket(self, storage_index: int) -> Bucket:
        """The bucket at a storage index (IndexError past the end)."""
        h, out = self._ptr, n.picollo_bucket()
        status = n.lib.picollo_histogram_bucket(h, u64(storage_index, "storage_index"),
                                                ctypes.byref(out))
        if status == Status.OUT_OF_RANGE:
            raise IndexError(f"bucket index {storage_index} is past the last bucket")
        check(status)
        return Bucket._from_c(out)

    def buckets(self) -> Iterator[Bucket]:
        """Every storage bucket in order, empty ones included."""
        for i in range(self.info().storage_len):
            yield self.bucket(i)

    def bucket_percentiles(self, include_empty: bool = False) -> Iterator[Percentile]:
        """Each bucket as a percentile whose rank is the middle of its share of the counts,
        ``(counts below + count / 2) / total × 100``, valued per `value_selection`."""
        info = self.info()
        total, before = info.total, 0
        for b in self.buckets() if include_empty else self.buckets_with_values():
            yield _bucket_percentile(b, before, total, info.value_selection)
            before += b.count

    # --- snapshots ---------------------------------------------------------------------

    def snapshot(self) -> "Snapshot":
        """A copy of the counts that `Snapshot.update` refreshes in place."""
        return Snapshot(self)

    def cumulative(self) -> Cumulative:
        """The running totals of the counts now, read-only, for many queries of this moment
        (`Cumulative`: a binary search per percentile, a subtraction per rank or count
        between values; the histogram's own answers at this moment)."""
        return Cumulative(self)

    # --- metrics pipelines -------------------------------------------------------------

    def collect(self) -> "Histogram":
        """Interval collection: the counts since the previous `collect` (or `reset`),
        underflow, overflow and saturated included, as a new single-writer 64-bit histogram
        of the same layout, range and value selection; this one goes on counting from zero.
        Meant for delta exporters (OTLP with ``temporality="delta"``). Writers never wait
        for it. In the interlocked and thread-local modes every record lands in exactly one
        interval, whatever other threads do; in the single mode it is exact from the
        recording thread, while from another one a record in flight may count in two
        intervals; in the approximate mode each interval's buckets are estimates with the
        counter's error. A collect counts as a reset for snapshots updated with deltas."""
        out = n.HistogramP()
        check(n.lib.picollo_histogram_collect(self._ptr, ctypes.byref(out)))
        return Histogram._adopt(out)

    def to_openmetrics(self, name: str, help: str = "", unit: str = "", **options: Any) -> str:
        """This histogram as an OpenMetrics exposition of one family; see
        `picollo.metrics.to_openmetrics` for the options."""
        return _export.to_openmetrics(self._ptr, name, help, unit, **options)

    def prometheus_buckets(self, **options: Any) -> Any:
        """The cumulative buckets and sum a Prometheus client library exposes; see
        `picollo.metrics.prometheus_buckets`."""
        return _export.prometheus_buckets(self._ptr, **options)

    def to_otlp(self, format: str = "json", **options: Any) -> Union[str, bytes]:
        """This histogram as an OTLP ``ExportMetricsServiceRequest`` (JSON text or
        protobuf bytes); see `picollo.metrics.to_otlp` for the options."""
        return _export.to_otlp(self, format, **options)


def _bucket_percentile(b: Bucket, before: int, total: int, selection: str) -> Percentile:
    """The percentile of one bucket, computed as the library's bucket-percentile iterator."""
    rank = 0.0 if total == 0 else (before + b.count / 2) / total * 100
    target = before + max(-(-b.count // 2), 1)
    width = b.highest - b.lower + 1
    if selection == "lower":
        value = b.lower
    elif selection == "upper":
        value = b.highest
    elif selection == "interpolated":
        count = max(b.count, 1)
        k = min(max(target - before, 1), count)
        value = b.lower + min((2 * k - 1) * width // (2 * count), width - 1)
    else:
        value = b.value
    return Percentile(
        rank=rank, value=value, plus_minus=max(value - b.lower, b.highest - value),
        storage_index=b.storage_index, logical_index=b.logical_index, lower=b.lower,
        upper=min(b.highest + 1, n.U64_MAX), highest=b.highest, count=b.count,
        cumulative_count=min(before + b.count, n.U64_MAX), rank_count=min(target, n.U64_MAX))


class Snapshot(SnapshotBase[Summary]):
    """A copy of a histogram's counts, refreshed in place by `update` (no allocation in
    the library), optionally holding only what was recorded since the previous update."""

    _DOMAIN = INTEGER
    _WHAT = "snapshot"

    def collect(self, histogram: Optional[Histogram] = None) -> "Snapshot":
        """Interval collection into this snapshot (no allocation): it then holds the counts
        recorded since the previous collection from the source histogram (or another of
        the same configuration), which counts from zero again. Returns self."""
        source = self._source_of(histogram)
        check(n.lib.picollo_snapshot_collect(self._ptr, source._ptr))
        return self

    def percentiles(self, ranks: Iterable[float]) -> list[Percentile]:
        return _percentiles(INTEGER, n.lib.picollo_snapshot_percentiles, self._ptr, ranks)

    def percentile(self, rank: float) -> Percentile:
        return self.percentiles([rank])[0]


class BufferedRecorder:
    """Values collected in a native ``uint64`` buffer (an ``array('Q')``) and recorded
    into a `Histogram` with one `record_many` call per ``size`` values, for loops where a
    native call per value costs too much (`Histogram.buffered`).

    >>> with h.buffered() as recorder:
    ...     record = recorder.record
    ...     for latency in latencies:
    ...         record(latency)

    When the values land: when ``size`` are waiting; when `flush` or `close` is called
    (and on leaving ``with``, and when the recorder is garbage-collected); before any other
    call on the histogram from the recorder's thread (queries, snapshots, text, reset,
    merges, `record_many`...), so that thread never reads a histogram without them; and
    when the histogram is closed. A recorder belongs to the thread that made it: record
    and flush from that thread only. Other threads' queries see what its flushes have
    recorded so far (at most ``size - 1`` values behind). ``record`` (the fast form,
    90–120 ns a value on a 2-core VM, larger ints costing more: bind it to a local name
    in a loop) or calling the recorder appends one value (``array.append``: an int in
    ``0 .. 2**64 - 1``, else `OverflowError` or `TypeError`, and nothing is added); it
    does not go through `Histogram.record`. Once the histogram is closed, `flush` raises
    `ClosedError`.
    """

    def __init__(self, histogram: Histogram, size: int = 4096):
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a positive int, not {size!r}")
        histogram._ptr  # a closed histogram is an error now, not at the first flush
        self._histogram = histogram
        self._thread = threading.get_ident()
        self._size = size
        buffer = array("Q")
        self._buffer = buffer
        histogram._recorders.append(weakref.ref(self))
        self._finalizer = weakref.finalize(self, _flush_buffer, histogram, buffer, True)
        append = buffer.append
        flush = self.flush

        def record(value: int) -> None:
            append(value)
            if len(buffer) >= size:
                flush()

        #: Append one value (the recorder itself is callable too).
        self.record = record

    def __call__(self, value: int) -> None:
        self.record(value)

    @property
    def size(self) -> int:
        """Values held before they are recorded."""
        return self._size

    @property
    def pending(self) -> int:
        """Values appended and not yet recorded."""
        return len(self._buffer)

    def flush(self) -> int:
        """Record the values waiting (one `record_many` call); returns how many."""
        return _flush_buffer(self._histogram, self._buffer)

    def close(self) -> None:
        """Flush, and stop recording into the histogram (idempotent)."""
        if self._finalizer.alive:
            self._finalizer.detach()
            self.flush()

    def __enter__(self) -> "BufferedRecorder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<picollo.BufferedRecorder {self.pending} of {self._size} pending>"


def _flush_buffer(histogram: Histogram, buffer: array, collected: bool = False) -> int:
    """Record ``buffer``'s values into ``histogram`` and empty it. The histogram's other
    recorders are not flushed (this is not a query). For a recorder being collected
    (``collected``), values appended after the histogram was closed are dropped: nothing
    can hold them, and a finalizer must not raise."""
    count = len(buffer)
    if count == 0:
        return 0
    h = histogram._box[0]
    if h is None:
        if collected:
            return 0
        raise ClosedError("histogram")
    address, _ = buffer.buffer_info()
    check(n.lib.picollo_histogram_record_many(h, address, count))
    del buffer[:]
    return count
