"""Picollo histograms behind the OpenTelemetry SDK's Histogram instrument: a View
aggregation.

>>> from opentelemetry.sdk.metrics import MeterProvider
>>> from opentelemetry.sdk.metrics.view import View
>>> from picollo.otel import PicolloAggregation
>>> aggregation = PicolloAggregation(relative_error=0.01)          # seconds, 1 ns .. 1000 s
>>> provider = MeterProvider(metric_readers=[reader],
...                          views=[View(instrument_name="rpc.latency", aggregation=aggregation)])
>>> latency = provider.get_meter("api").create_histogram("rpc.latency", unit="s")
>>> latency.record(0.0042, {"method": "get"})
>>> aggregation.histograms()       # {("rpc.latency", (("method", "get"),)): picollo.Histogram}

Every attribute set's measurements land in its own `picollo.Histogram` (interlocked mode:
any number of threads), and the SDK's readers and exporters receive an exponential
histogram point written by libpicollo's OTLP writer (its scale the coarsest within the
layout's relative error), so an OTLP exporter sends Picollo's buckets.

The SDK (1.45) has no public hook for this. `Aggregation` has one abstract method,
``_create_aggregation``, private; the reader storage turns aggregations into metric data by
``isinstance`` against its own private aggregation classes, so a new aggregation must
subclass one of them (here ``_ExponentialBucketHistogramAggregation``) to be exported at all
(opentelemetry-python issue 3569 asks for a public route). This module depends on those
private names; `SDK_TESTED` is the version its tests pin, and the import fails with that
reason if the names are gone.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any, Optional

from ._convert import positive, scaled
from .histogram import Histogram

try:
    from opentelemetry.sdk.metrics._internal.aggregation import (
        AggregationTemporality,
        _ExponentialBucketHistogramAggregation,
    )
    from opentelemetry.sdk.metrics.export import Buckets, ExponentialHistogramDataPoint
    from opentelemetry.sdk.metrics.view import ExponentialBucketHistogramAggregation
except ImportError as e:  # pragma: no cover - depends on the installed SDK
    raise ImportError(f"picollo.otel needs opentelemetry-sdk (tested with 1.45.2) and its "
                      f"private aggregation classes: {e}") from e

__all__ = ["PicolloAggregation", "SDK_TESTED"]

#: The opentelemetry-sdk version whose private aggregation classes this module is tested on.
SDK_TESTED = "1.45.2"


def _key(value: Any) -> Any:
    """An attribute value as a hashable, comparable key (sequences as tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return value


class _Series:
    """One (instrument, attribute set): the live histogram writers record into and the sum
    of the intervals a delta reader has taken from it."""

    def __init__(self, aggregation: "PicolloAggregation"):
        self.live = aggregation._new_histogram()
        self.taken: Optional[Histogram] = None

    def whole(self) -> Histogram:
        if self.taken is None:
            return self.live
        out = self.taken.copy()
        out.add(self.live)
        return out


class PicolloAggregation(ExponentialBucketHistogramAggregation):
    """A View aggregation for Histogram instruments that keeps each attribute set's values
    in a Picollo histogram: ``relative_error`` in ``lowest ..= highest`` (in the
    instrument's unit; outside, the end buckets), values kept as integers of
    ``1 / unit_ratio`` (1e9: nanoseconds of a second).
    Negative and non-finite values are dropped by the SDK's Histogram before they get here
    (it logs why). One aggregation may serve several instruments (a View that
    matches several names): `histograms` keys by instrument name and attributes."""

    def __init__(self, relative_error: float = 0.01, *, lowest: float = 1e-6,
                 highest: float = 1e3, unit_ratio: float = 1e9):
        super().__init__()
        self._ratio = positive(unit_ratio, "unit_ratio")
        self._relative_error = relative_error
        self._range = (scaled(lowest, self._ratio, "lowest"),
                       scaled(highest, self._ratio, "highest"))
        self._new_histogram().close()  # refuses a bad layout with the library's reason
        self._lock = threading.Lock()
        self._series: dict[tuple, _Series] = {}

    def _new_histogram(self) -> Histogram:
        return Histogram(relative_error=self._relative_error, min=self._range[0],
                         max=self._range[1], mode="interlocked")

    def _series_of(self, instrument: Any, attributes: dict) -> _Series:
        key = (instrument.name, tuple(sorted((k, _key(v)) for k, v in attributes.items())))
        with self._lock:
            series = self._series.get(key)
            if series is None:
                series = self._series[key] = _Series(self)
        return series

    def histograms(self) -> dict[tuple, Histogram]:
        """``(instrument name, sorted attribute pairs) -> picollo.Histogram`` of everything
        recorded so far (values in units of ``1 / unit_ratio``)."""
        with self._lock:
            return {k: s.whole() for k, s in self._series.items()}

    def _create_aggregation(self, instrument: Any, attributes: Any, reservoir_factory: Any,
                            start_time_unix_nano: int) -> Any:
        return _PicolloPoints(self, instrument, attributes, reservoir_factory,
                              start_time_unix_nano)


class _PicolloPoints(_ExponentialBucketHistogramAggregation):
    """The SDK's per-attribute-set aggregation: records into the series' Picollo histogram
    and answers `collect` with libpicollo's exponential histogram."""

    def __init__(self, owner: PicolloAggregation, instrument: Any, attributes: Any,
                 reservoir_factory: Any, start_time_unix_nano: int):
        super().__init__(attributes, reservoir_factory(_ExponentialBucketHistogramAggregation),
                         AggregationTemporality.DELTA, start_time_unix_nano)
        self._owner = owner
        self._instrument = instrument
        # The SDK makes one aggregation without attributes to compare views: no series.
        self._picollo = None if attributes is None else owner._series_of(instrument, attributes)
        self._since = start_time_unix_nano

    def aggregate(self, measurement: Any, should_sample_exemplar: bool = True) -> None:
        # The SDK's Histogram has dropped negative and non-finite values (and logged why).
        self._picollo.live.record(scaled(measurement.value, self._owner._ratio, "a measurement"))

    def collect(self, collection_aggregation_temporality: Any,
                collection_start_nano: int) -> Optional[ExponentialHistogramDataPoint]:
        series = self._picollo
        if series is None:
            return None
        if collection_aggregation_temporality is AggregationTemporality.DELTA:
            with self._owner._lock:
                h = series.live.collect()
                if series.taken is None:
                    series.taken = Histogram(relative_error=self._owner._relative_error,
                                             min=self._owner._range[0],
                                             max=self._owner._range[1])
                series.taken.add(h)
            start, self._since = self._since, collection_start_nano
        else:
            h, start = series.live, self._start_time_unix_nano
        if h.total == 0:
            return None
        return _point(h, self._attributes, start, collection_start_nano, self._owner._ratio)


def _point(h: Histogram, attributes: Any, start: int, now: int,
           ratio: float) -> ExponentialHistogramDataPoint:
    """The SDK's data point from libpicollo's OTLP/JSON export of ``h``."""
    data = json.loads(h.to_otlp("json", name="picollo", unit_ratio=ratio,
                                start_time_unix_nano=start, time_unix_nano=now))
    p = (data["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0]
         ["exponentialHistogram"]["dataPoints"][0])
    positive = p.get("positive", {})
    return ExponentialHistogramDataPoint(
        attributes=attributes, start_time_unix_nano=start, time_unix_nano=now,
        count=int(p["count"]), sum=float(p.get("sum", 0.0)), scale=int(p["scale"]),
        zero_count=int(p.get("zeroCount", 0)),
        positive=Buckets(offset=int(positive.get("offset", 0)),
                         bucket_counts=[int(c) for c in positive.get("bucketCounts", [])]),
        negative=Buckets(offset=0, bucket_counts=[]), flags=0,
        min=float(p.get("min", math.nan)), max=float(p.get("max", math.nan)))
