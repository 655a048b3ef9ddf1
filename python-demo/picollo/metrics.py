"""Histograms into metrics pipelines: OpenMetrics text, Prometheus client libraries, OTLP.

>>> from picollo import Histogram, metrics
>>> h = Histogram(relative_error=0.01, min=1_000, max=10**10)      # nanoseconds
>>> text = metrics.to_openmetrics(h, "rpc_latency_seconds", unit="seconds", unit_ratio=1e9)
>>> registry.register(metrics.PrometheusCollector({"rpc_latency_seconds": h}, unit_ratio=1e9))
>>> body = metrics.to_otlp(h.collect(), "protobuf", name="rpc.latency", unit="s",
...                        temporality="delta", unit_ratio=1e9)

OpenMetrics and Prometheus histograms are cumulative: expose the histogram itself (a read),
with ``created`` set to when its counting started. `Histogram.collect` (the counts since
the previous collection) is for delta exporters, such as OTLP with ``temporality="delta"``.

Bucket bounds (``le``) are either explicit (``bounds=[…]``, in recorded units) or derived
from the histogram's layout at a coarser relative error (``coarse=0.05``: each bound is a
bucket's highest value, so every count is exact and the bounds are the same at every
scrape). ``unit_ratio`` divides recorded values for display (1e9 shows nanoseconds as
seconds).
"""

from __future__ import annotations

import ctypes
import datetime as _dt
import math
import time as _time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from . import _native as n
from ._convert import real, u64
from ._errors import Status, error_for
from ._text import TextWriterHandle, encode, fetch_text
from .histogram import Histogram

__all__ = [
    "OpenMetricsWriter",
    "PrometheusBuckets",
    "PrometheusCollector",
    "prometheus_buckets",
    "to_openmetrics",
    "to_otlp",
]

_TEMPORALITIES = {"delta": n.OtlpTemporality.DELTA,
                  "cumulative": n.OtlpTemporality.CUMULATIVE}


def _histogram(h: Any) -> Any:
    if not isinstance(h, Histogram):
        raise TypeError(f"expected a Histogram, not {type(h).__name__}")
    return h._ptr


def _pairs(labels: Any, what: str) -> list[tuple[str, str]]:
    """Label pairs, in order, from None, a mapping or a sequence of ``(name, value)``."""
    if labels is None:
        return []
    items = labels.items() if isinstance(labels, Mapping) else labels
    if isinstance(items, (str, bytes)):
        raise TypeError(f"{what} must be a mapping or (name, value) pairs, not a string")
    pairs = []
    for item in items:
        try:
            name, value = item
        except (TypeError, ValueError):
            raise TypeError(f"{what}: {item!r} is not a (name, value) pair") from None
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError(f"{what}: names and values must be str, got {item!r}")
        pairs.append((name, value))
    return pairs


class _Labels:
    """A ``picollo_label`` array and the bytes it points at (kept alive with it)."""

    def __init__(self, labels: Any, what: str):
        pairs = _pairs(labels, what)
        self._bytes = [(encode(k, f"{what} name"), encode(v, f"{what} value")) for k, v in pairs]
        self.count = len(pairs)
        self.array = (n.picollo_label * self.count)(*self._bytes) if pairs else None

    @property
    def pointer(self) -> Any:
        return ctypes.cast(self.array, n.LabelP) if self.array is not None else None


def _unix_nanos(value: Any, what: str) -> int:
    """Nanoseconds since the epoch from None (0: left out), a `datetime`, or seconds since
    the epoch (a float or int)."""
    if value is None:
        return 0
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.astimezone()  # a naive datetime is local time, as timestamp() reads it
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return u64((delta.days * 86_400 + delta.seconds) * 10**9 + delta.microseconds * 1_000,
                   what)
    seconds = real(value, what)
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"{what} must be a finite time at or after the epoch, not {value!r}")
    whole = math.floor(seconds)  # split first: seconds × 1e9 would round at 2**53
    return u64(whole * 10**9 + round((seconds - whole) * 1e9), what)


class _Options:
    """A ``picollo_openmetrics_options`` from keyword arguments, and its bounds array."""

    def __init__(self, bounds: Iterable[int] | None, coarse: float, unit_ratio: float,
                 summary: bool, created: Any):
        o = n.lib.picollo_openmetrics_options_default()
        self.bounds = None
        if bounds is not None:
            if isinstance(bounds, (str, bytes)):
                raise TypeError("bounds must be integers (recorded units), not a string")
            values = [u64(b, "bound") for b in bounds]
            self.bounds = (ctypes.c_uint64 * len(values))(*values)
            o.bounds = ctypes.cast(self.bounds, ctypes.POINTER(ctypes.c_uint64))
            o.bound_count = len(values)
        o.coarse_relative_error = real(coarse, "coarse")
        o.unit_ratio = real(unit_ratio, "unit_ratio")
        o.summary = 1 if summary else 0
        o.created_unix_nanos = _unix_nanos(created, "created")
        self.c = o

    @property
    def ref(self) -> Any:
        return ctypes.byref(self.c)


def to_openmetrics(histogram: Histogram, name: str, help: str = "", unit: str = "", *,
                   labels: Any = None, bounds: Iterable[int] | None = None,
                   coarse: float = 0.05, unit_ratio: float = 1.0, summary: bool = False,
                   created: Any = None) -> str:
    """An OpenMetrics exposition of one family with one point, ending with ``# EOF``.

    ``name`` (with a ``unit``, it must end with ``_<unit>``), ``help`` text, ``labels`` (a
    mapping or ``(name, value)`` pairs, kept in order; not ``le``). A histogram family has
    ``<name>_bucket`` counts at each bound and ``+Inf``, ``_count``, ``_sum`` and, with
    ``created`` (seconds since the epoch or a datetime), ``_created``. ``summary=True``
    writes a summary family (quantiles 0.5 … 1) instead. Values below the range count in
    every bucket, values above it only in ``+Inf``. Names, units, labels and bounds the
    format refuses raise `InvalidArgumentError` (a ValueError) with the reason.
    """
    h = _histogram(histogram)
    label_array = _Labels(labels, "labels")
    options = _Options(bounds, coarse, unit_ratio, summary, created)
    nm, hp, un = encode(name, "name"), encode(help, "help"), encode(unit, "unit")
    return fetch_text(lambda buf, size, needed: n.lib.picollo_histogram_openmetrics(
        h, nm, hp, un, label_array.pointer, label_array.count, options.ref, buf, size, needed))


class OpenMetricsWriter(TextWriterHandle):
    """Several families, several points each, in one exposition.

    >>> w = OpenMetricsWriter()
    >>> w.family("rpc_latency_seconds", "RPC latency", "seconds", unit_ratio=1e9)
    >>> w.point(get_h, {"method": "get"}).point(put_h, {"method": "put"})
    >>> w.family("queue_depth").point(depth_h)
    >>> text = w.finish()      # the whole exposition, ending with "# EOF"

    Every point of a family shares its options and needs the same layout and range (its
    bounds are the family's). `close` (or leaving ``with``) frees the native writer.
    """

    def __init__(self) -> None:
        super().__init__(n.OpenMetricsWriterP, n.lib.picollo_openmetrics_writer_new,
                         n.lib.picollo_openmetrics_writer_free,
                         n.lib.picollo_openmetrics_writer_take, "OpenMetrics writer")

    def family(self, name: str, help: str = "", unit: str = "", *,
               bounds: Iterable[int] | None = None, coarse: float = 0.05,
               unit_ratio: float = 1.0, summary: bool = False,
               created: Any = None) -> "OpenMetricsWriter":
        """Start a family (the options of `to_openmetrics`); its points follow. Returns
        self."""
        options = _Options(bounds, coarse, unit_ratio, summary, created)
        return self._call(n.lib.picollo_openmetrics_writer_family(
            self._ptr, encode(name, "name"), encode(help, "help"), encode(unit, "unit"),
            options.ref))

    def point(self, histogram: Histogram, labels: Any = None) -> "OpenMetricsWriter":
        """One histogram of the current family with these labels. Returns self."""
        h = _histogram(histogram)
        label_array = _Labels(labels, "labels")
        return self._call(n.lib.picollo_openmetrics_writer_point(
            self._ptr, h, label_array.pointer, label_array.count))

    def finish(self) -> str:
        """Write ``# EOF`` and return the whole exposition; nothing can be added after."""
        self._call(n.lib.picollo_openmetrics_writer_finish(self._ptr))
        return self.text()


@dataclass(frozen=True)
class PrometheusBuckets:
    """Cumulative histogram buckets as Prometheus client libraries take them.

    ``buckets`` is ``[(le, cumulative count), …]`` with ``le`` in exported units, strictly
    increasing and ending with ``inf``; ``sum`` is in exported units (buckets at their
    midpoints). ``count`` is the ``+Inf`` bucket: every record, outside the range too."""

    buckets: list[tuple[float, int]]
    sum: float

    @property
    def count(self) -> int:
        return self.buckets[-1][1] if self.buckets else 0


def prometheus_buckets(histogram: Histogram, *, bounds: Iterable[int] | None = None,
                       coarse: float = 0.05, unit_ratio: float = 1.0) -> PrometheusBuckets:
    """The buckets `to_openmetrics` would write for these options, as numbers."""
    h = _histogram(histogram)
    options = _Options(bounds, coarse, unit_ratio, False, None)
    count, total = ctypes.c_size_t(0), ctypes.c_double(0.0)
    status = n.lib.picollo_histogram_prometheus_buckets(
        h, options.ref, None, None, 0, ctypes.byref(count), ctypes.byref(total))
    while True:
        if status not in (Status.OK, Status.BUFFER_TOO_SMALL):
            raise error_for(status)
        capacity = count.value
        le = (ctypes.c_double * max(capacity, 1))()
        cumulative = (ctypes.c_uint64 * max(capacity, 1))()
        status = n.lib.picollo_histogram_prometheus_buckets(
            h, options.ref, le, cumulative, capacity, ctypes.byref(count), ctypes.byref(total))
        if status == Status.OK:
            k = count.value
            return PrometheusBuckets(list(zip(le[:k], cumulative[:k])), total.value)
        if status == Status.BUFFER_TOO_SMALL and count.value <= capacity:
            raise error_for(status)  # the library contradicts itself: do not loop


def _fetch_bytes(call: Callable[[Any, int, Any], int], text: bool) -> bytes:
    """Bytes from a ``(buf, len, needed)`` function: ask the size, then fill (one more
    byte for the NUL after text)."""
    needed = ctypes.c_size_t(0)
    status = call(None, 0, ctypes.byref(needed))
    while True:
        if status not in (Status.OK, Status.BUFFER_TOO_SMALL):
            raise error_for(status)
        size = needed.value + (1 if text else 0)
        buf = (ctypes.c_uint8 * max(size, 1))()
        status = call(buf, size, ctypes.byref(needed))
        if status == Status.OK:
            return ctypes.string_at(buf, needed.value)
        if status == Status.BUFFER_TOO_SMALL and needed.value + (1 if text else 0) <= size:
            raise error_for(status)  # the library contradicts itself: do not loop


def to_otlp(histogram: Histogram, format: str = "json", *, name: str,
            description: str = "", unit: str = "", temporality: str = "cumulative",
            start_time_unix_nano: int | None = None, time_unix_nano: int | None = None,
            attributes: Any = None, resource: Any = None, scope_name: str | None = None,
            scope_version: str | None = None, scale: int | None = None,
            unit_ratio: float = 1.0) -> str | bytes:
    """An OTLP ``ExportMetricsServiceRequest`` with one exponential-histogram metric of one
    point: OTLP/JSON text (``format="json"``) or protobuf bytes (``"protobuf"``, the
    OTLP/HTTP and gRPC payload).

    ``temporality`` is ``"cumulative"`` (export the histogram itself, ``start_time`` when
    its counting began) or ``"delta"`` (export a `Histogram.collect` interval, ``start_time``
    the previous collection). Times are nanoseconds since the epoch; ``time_unix_nano``
    defaults to now, ``start_time_unix_nano`` to 0 (unknown). ``attributes`` are the
    point's, ``resource`` the resource's (e.g. ``{"service.name": "api"}``), both mappings
    or pairs. ``scale`` None picks the coarsest OTLP scale whose buckets are within the
    histogram's relative error, so a quantile of the export is within about twice that
    error; ``unit_ratio`` divides values (1e9: nanoseconds exported as seconds).
    """
    h = _histogram(histogram)
    fmt = {"json": n.OtlpFormat.JSON, "protobuf": n.OtlpFormat.PROTOBUF}.get(
        format.lower() if isinstance(format, str) else format)
    if fmt is None:
        raise ValueError(f"format {format!r} is not 'json' or 'protobuf'")
    if temporality not in _TEMPORALITIES:
        raise ValueError(f"temporality {temporality!r} is not 'delta' or 'cumulative'")
    o = n.lib.picollo_otlp_options_default()
    o.temporality = _TEMPORALITIES[temporality]
    kept = [encode(name, "name"), encode(description, "description"), encode(unit, "unit")]
    o.name, o.description, o.unit = kept
    if scope_name is not None:
        kept.append(encode(scope_name, "scope_name"))
        o.scope_name = kept[-1]
    if scope_version is not None:
        kept.append(encode(scope_version, "scope_version"))
        o.scope_version = kept[-1]
    o.start_time_unix_nano = 0 if start_time_unix_nano is None else u64(
        start_time_unix_nano, "start_time_unix_nano")
    o.time_unix_nano = _time.time_ns() if time_unix_nano is None else u64(
        time_unix_nano, "time_unix_nano")
    point, res = _Labels(attributes, "attributes"), _Labels(resource, "resource")
    o.attributes, o.attribute_count = point.pointer, point.count
    o.resource, o.resource_count = res.pointer, res.count
    if scale is None:
        o.scale = n.OTLP_SCALE_AUTO
    else:
        if isinstance(scale, bool) or not isinstance(scale, int):
            raise TypeError(f"scale must be an int or None, not {type(scale).__name__}")
        o.scale = scale  # the library refuses one outside OTLP's -10 ..= 20
    o.unit_ratio = real(unit_ratio, "unit_ratio")
    is_text = fmt == n.OtlpFormat.JSON
    data = _fetch_bytes(lambda buf, size, needed: n.lib.picollo_histogram_otlp(
        h, ctypes.byref(o), fmt, buf, size, needed), is_text)
    return data.decode("utf-8") if is_text else data


class PrometheusCollector:
    """A collector for the ``prometheus_client`` package: each scrape reads the histograms
    and exposes them as histogram families (``HistogramMetricFamily``).

    >>> from prometheus_client import CollectorRegistry, start_http_server
    >>> registry = CollectorRegistry()
    >>> registry.register(PrometheusCollector({"rpc_latency_seconds": h}, unit_ratio=1e9))
    >>> start_http_server(8000, addr="127.0.0.1", registry=registry)

    ``histograms`` maps a family name to a `Histogram` (one series without labels) or to a
    sequence of ``(labels, Histogram)`` (one series per label set; every set with the same
    label names). ``documentation`` is one help text or a mapping name -> text; ``bounds``,
    ``coarse`` and ``unit_ratio`` are `prometheus_buckets`'s. The histograms are read, not
    collected: Prometheus histograms are cumulative. Entries may be added later with `add`.
    """

    def __init__(self, histograms: Mapping[str, Any] | None = None, *,
                 documentation: str | Mapping[str, str] = "", unit_ratio: float = 1.0,
                 bounds: Iterable[int] | None = None, coarse: float = 0.05):
        self._families: dict[str, list[tuple[list[tuple[str, str]], Histogram]]] = {}
        self._documentation = documentation
        self._options = {"bounds": None if bounds is None else list(bounds),
                         "coarse": real(coarse, "coarse"),
                         "unit_ratio": real(unit_ratio, "unit_ratio")}
        for family_name, entry in (histograms or {}).items():
            self.add(family_name, entry)

    def add(self, name: str, entry: Any) -> "PrometheusCollector":
        """Expose ``entry`` (a Histogram, or ``(labels, Histogram)`` pairs) as family
        ``name``. Returns self."""
        if not isinstance(name, str) or not name:
            raise TypeError("a family name must be a non-empty str")
        if isinstance(entry, Histogram):
            series = [([], entry)]
        else:
            series = []
            for item in entry:
                labels, h = item
                _histogram(h)
                series.append((_pairs(labels, "labels"), h))
            names = {tuple(k for k, _ in labels) for labels, _ in series}
            if len(names) > 1:
                raise ValueError(f"family {name!r}: every series needs the same label names, "
                                 f"got {sorted(names)}")
        self._families[name] = series
        return self

    def _help(self, name: str) -> str:
        d = self._documentation
        return d.get(name, "") if isinstance(d, Mapping) else d

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import HistogramMetricFamily
        from prometheus_client.utils import floatToGoString

        for name, series in self._families.items():
            label_names = [k for k, _ in series[0][0]] if series else []
            family = HistogramMetricFamily(name, self._help(name), labels=label_names)
            for labels, h in series:
                b = prometheus_buckets(h, **self._options)
                family.add_metric([v for _, v in labels],
                                  [(floatToGoString(le), c) for le, c in b.buckets],
                                  b.sum)
            yield family

    def describe(self) -> list[Any]:
        """The families without samples: the registry checks names without reading."""
        from prometheus_client.core import HistogramMetricFamily

        return [HistogramMetricFamily(name, self._help(name),
                                      labels=[k for k, _ in series[0][0]] if series else [])
                for name, series in self._families.items()]
