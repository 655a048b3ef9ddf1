"""The library's exporters: OpenMetrics text and the buckets a Prometheus client library
takes (on a histogram handle), OTLP (`to_otlp`, on a `Histogram`, which it checks).
`Histogram`'s methods and `picollo.metrics` (which documents the options; `to_otlp` is
its own, documented here) both call these.
"""

from __future__ import annotations

import ctypes
import datetime as _dt
import math
import time as _time
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Union

from . import _native as n
from ._base import of_kind
from ._convert import real, u64
from ._errors import Status, error_for
from ._labels import Labels, label_pairs
from ._text import encode, fetch_bytes, fetch_text
from ._types import INTEGER

_TEMPORALITIES = {"delta": n.OtlpTemporality.DELTA,
                  "cumulative": n.OtlpTemporality.CUMULATIVE}


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


class Options:
    """A ``picollo_openmetrics_options`` from keyword arguments, and its bounds array."""

    def __init__(self, bounds: Optional[Iterable[int]], coarse: float, unit_ratio: float,
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


def to_openmetrics(h: Any, name: str, help: str = "", unit: str = "", *,
                   labels: Any = None, bounds: Optional[Iterable[int]] = None,
                   coarse: float = 0.05, unit_ratio: float = 1.0, summary: bool = False,
                   created: Any = None) -> str:
    """`picollo.metrics.to_openmetrics` of the histogram handle ``h``."""
    label_array = Labels(labels, "labels")
    options = Options(bounds, coarse, unit_ratio, summary, created)
    nm, hp, un = encode(name, "name"), encode(help, "help"), encode(unit, "unit")
    return fetch_text(lambda buf, size, needed: n.lib.picollo_histogram_openmetrics(
        h, nm, hp, un, label_array.pointer, label_array.count, options.ref, buf, size, needed))


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


def prometheus_buckets(h: Any, *, bounds: Optional[Iterable[int]] = None,
                       coarse: float = 0.05, unit_ratio: float = 1.0) -> PrometheusBuckets:
    """`picollo.metrics.prometheus_buckets` of the histogram handle ``h``."""
    options = Options(bounds, coarse, unit_ratio, False, None)
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


def _int_or_auto(value: Any, what: str, auto: int) -> int:
    """value, an int (not a bool), or auto for None; a TypeError for anything else."""
    if value is None:
        return auto
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int or None, not {type(value).__name__}")
    return value


def to_otlp(histogram: Histogram, format: str = "json", *, name: str,
            description: str = "", unit: str = "", temporality: str = "cumulative",
            start_time_unix_nano: Optional[int] = None, time_unix_nano: Optional[int] = None,
            attributes: Any = None, resource: Any = None, scope_name: Optional[str] = None,
            scope_version: Optional[str] = None, scale: Optional[int] = None,
            unit_ratio: float = 1.0) -> Union[str, bytes]:
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
    h = of_kind(histogram, INTEGER)._ptr
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
    point, res = Labels(attributes, "attributes"), Labels(resource, "resource")
    o.attributes, o.attribute_count = point.pointer, point.count
    o.resource, o.resource_count = res.pointer, res.count
    o.scale = _int_or_auto(scale, "scale", n.OTLP_SCALE_AUTO)  # the library refuses one outside -10 ..= 20
    o.unit_ratio = real(unit_ratio, "unit_ratio")
    is_text = fmt == n.OtlpFormat.JSON
    data = fetch_bytes(lambda buf, size, needed: n.lib.picollo_histogram_otlp(
        h, ctypes.byref(o), fmt, buf, size, needed), is_text)
    return data.decode("utf-8") if is_text else data


def to_prometheus_native(h: Any, function: Any, name: str, *, help: str = "",
                         labels: Any = None, schema: Optional[int] = None,
                         unit_ratio: float = 1.0, classic_coarse: Optional[float] = None) -> bytes:
    """`picollo.metrics.to_prometheus_native` of the handle ``h`` through ``function``
    (the integer or the float histogram's)."""
    o = n.lib.picollo_prometheus_native_options_default()
    kept = [encode(name, "name"), encode(help, "help")]
    o.name, o.help = kept
    label_array = Labels(labels, "labels")
    o.labels, o.label_count = label_array.pointer, label_array.count
    schema_value = _int_or_auto(schema, "schema", n.PROMETHEUS_SCHEMA_AUTO)
    if schema is not None and not -2**31 < schema < 2**31:
        raise ValueError(f"schema is {schema}: it must be in -4..8")
    o.schema = schema_value  # the library refuses one outside -4 ..= 8
    o.unit_ratio = real(unit_ratio, "unit_ratio")
    if classic_coarse is not None:
        o.classic_coarse_relative_error = real(classic_coarse, "classic_coarse")
    return fetch_bytes(lambda buf, size, needed: function(h, ctypes.byref(o), buf, size, needed),
                        False)
