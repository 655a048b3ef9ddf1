"""Histograms into metrics pipelines: OpenMetrics text, Prometheus client libraries, OTLP,
Prometheus native histograms.

>>> from picollo import Histogram, metrics
>>> h = Histogram(relative_error=0.01, min=1_000, max=10**10)      # nanoseconds
>>> text = metrics.to_openmetrics(h, "rpc_latency_seconds", unit="seconds", unit_ratio=1e9)
>>> registry.register(metrics.PrometheusCollector({"rpc_latency_seconds": h}, unit_ratio=1e9))
>>> body = metrics.to_otlp(h.collect(), "protobuf", name="rpc.latency", unit="s",
...                        temporality="delta", unit_ratio=1e9)
>>> native = metrics.to_prometheus_native(h, "rpc_latency_seconds", unit_ratio=1e9)

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

import http.server
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Union

from . import _export
from . import _native as n
from ._convert import real
from ._export import Labels, Options, PrometheusBuckets, label_pairs
from ._text import TextWriterHandle, encode
from .float_histogram import FloatHistogram
from .histogram import Histogram

__all__ = [
    "PROMETHEUS_PROTOBUF_CONTENT_TYPE",
    "OpenMetricsWriter",
    "PrometheusBuckets",
    "PrometheusCollector",
    "prometheus_buckets",
    "prometheus_native_handler",
    "to_openmetrics",
    "to_otlp",
    "to_prometheus_native",
]

#: The HTTP content type of `to_prometheus_native`'s bytes: Prometheus' protobuf exposition
#: (what it asks for first when native histograms are on).
PROMETHEUS_PROTOBUF_CONTENT_TYPE = (
    "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
    "encoding=delimited")

PrometheusBuckets.__module__ = __name__  # its public home (made in `_export`)


def _histogram(h: Any) -> Any:
    if not isinstance(h, Histogram):
        raise TypeError(f"expected a Histogram, not {type(h).__name__}")
    return h._ptr


def to_openmetrics(histogram: Histogram, name: str, help: str = "", unit: str = "", *,
                   labels: Any = None, bounds: Optional[Iterable[int]] = None,
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
    return _export.to_openmetrics(
        _histogram(histogram), name, help, unit, labels=labels, bounds=bounds, coarse=coarse,
        unit_ratio=unit_ratio, summary=summary, created=created)


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
               bounds: Optional[Iterable[int]] = None, coarse: float = 0.05,
               unit_ratio: float = 1.0, summary: bool = False,
               created: Any = None) -> "OpenMetricsWriter":
        """Start a family (the options of `to_openmetrics`); its points follow. Returns
        self."""
        options = Options(bounds, coarse, unit_ratio, summary, created)
        return self._call(n.lib.picollo_openmetrics_writer_family(
            self._ptr, encode(name, "name"), encode(help, "help"), encode(unit, "unit"),
            options.ref))

    def point(self, histogram: Histogram, labels: Any = None) -> "OpenMetricsWriter":
        """One histogram of the current family with these labels. Returns self."""
        h = _histogram(histogram)
        label_array = Labels(labels, "labels")
        return self._call(n.lib.picollo_openmetrics_writer_point(
            self._ptr, h, label_array.pointer, label_array.count))

    def finish(self) -> str:
        """Write ``# EOF`` and return the whole exposition; nothing can be added after."""
        self._call(n.lib.picollo_openmetrics_writer_finish(self._ptr))
        return self.text()


def prometheus_buckets(histogram: Histogram, *, bounds: Optional[Iterable[int]] = None,
                       coarse: float = 0.05, unit_ratio: float = 1.0) -> PrometheusBuckets:
    """The buckets `to_openmetrics` would write for these options, as numbers."""
    return _export.prometheus_buckets(_histogram(histogram), bounds=bounds, coarse=coarse,
                                      unit_ratio=unit_ratio)


to_otlp = _export.to_otlp
to_otlp.__module__ = __name__  # its public home (written in `_export`, which `Histogram` uses)
# `_export` cannot import `Histogram` (which imports `_export`): its annotation names the
# class as text; resolve it here, so that `typing.get_type_hints(to_otlp)` works.
to_otlp.__annotations__["histogram"] = Histogram


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

    def __init__(self, histograms: Optional[Mapping[str, Any]] = None, *,
                 documentation: Union[str, Mapping[str, str]] = "", unit_ratio: float = 1.0,
                 bounds: Optional[Iterable[int]] = None, coarse: float = 0.05):
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
                series.append((label_pairs(labels, "labels"), h))
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


def to_prometheus_native(histogram: Union[Histogram, FloatHistogram], name: str, *, help: str = "",
                         labels: Any = None, schema: Optional[int] = None,
                         unit_ratio: float = 1.0,
                         classic_coarse: Optional[float] = None) -> bytes:
    """The whole body of a Prometheus scrape holding one native histogram: one
    length-delimited ``io.prometheus.client.MetricFamily`` of type HISTOGRAM with one series
    (serve it as `PROMETHEUS_PROTOBUF_CONTENT_TYPE`; bodies of several calls concatenated
    are one exposition).

    ``name`` is the family's (``[a-zA-Z_:][a-zA-Z0-9_:]*``, not ending with ``_bucket``,
    ``_count``, ``_sum``, ``_created``, ``_total`` or ``_info``), ``labels`` a mapping or
    ``(name, value)`` pairs (not ``le``, not ``__``-prefixed). ``schema`` None picks the
    coarsest of -4..8 whose buckets are within the histogram's relative error; ``unit_ratio``
    divides values (1e9: nanoseconds exposed as seconds). Each bucket goes whole into the
    native bucket of its midpoint; zeros into the zero bucket, whose threshold is always
    positive. A `FloatHistogram` keeps both signs (magnitudes below its range join the zero
    bucket; NaN, infinities and values above the range are left out). ``classic_coarse``
    (integer histograms) adds the classic buckets at bounds derived at that relative error.
    Options, names and labels the format refuses raise `InvalidArgumentError`.
    """
    if isinstance(histogram, Histogram):
        function = n.lib.picollo_histogram_prometheus_native
    elif isinstance(histogram, FloatHistogram):
        function = n.lib.picollo_float_histogram_prometheus_native
    else:
        raise TypeError(f"expected a Histogram or FloatHistogram, not {type(histogram).__name__}")
    return _export.to_prometheus_native(
        histogram._ptr, function, name, help=help, labels=labels, schema=schema,
        unit_ratio=unit_ratio, classic_coarse=classic_coarse)


def prometheus_native_handler(
        body: Callable[[], bytes],
        path: str = "/metrics") -> type[http.server.BaseHTTPRequestHandler]:
    """A request handler class for `http.server` that answers ``GET path`` with ``body()``
    (called at each scrape, e.g. concatenated `to_prometheus_native` bodies) as
    `PROMETHEUS_PROTOBUF_CONTENT_TYPE`, and 404 elsewhere.

    >>> handler = prometheus_native_handler(
    ...     lambda: to_prometheus_native(h, "rpc_latency_seconds", unit_ratio=1e9))
    >>> server = http.server.ThreadingHTTPServer(("127.0.0.1", 8000), handler)
    >>> threading.Thread(target=server.serve_forever, daemon=True).start()

    Prometheus asks for this content type when started with
    ``--enable-feature=native-histograms`` (2.40 to 2.x; 3.x: ``scrape_native_histograms``)
    and reads the protobuf whatever it asked for, as it picks its parser by the answer's
    content type. The ``prometheus_client`` package (0.26) writes native histograms only in
    its OpenMetrics 2.0 text, which Prometheus 2.x does not read, and writes no protobuf:
    serve native histograms with this handler, classic ones with `PrometheusCollector`.
    """

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            if self.path.split("?", 1)[0] != path:
                self.send_error(404)
                return
            data = body()
            self.send_response(200)
            self.send_header("Content-Type", PROMETHEUS_PROTOBUF_CONTENT_TYPE)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # scrapes every second would fill the log

    return Handler
