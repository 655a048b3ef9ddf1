"""A ``prometheus_client.Histogram`` backed by Picollo histograms, and an HTTP server that
serves them to Prometheus as native histograms.

>>> from picollo.prometheus import Histogram, start_http_server   # was: prometheus_client
>>> latency = Histogram("rpc_latency_seconds", "RPC latency", ["method"])
>>> latency.labels("get").observe(0.0042)
>>> with latency.labels("put").time():
...     handle()
>>> start_http_server(8000)          # protobuf native histograms or text, as Prometheus asks

Each label set records into its own `picollo.Histogram` in the interlocked mode (any number
of threads observe at once; every value counts once). Values are kept as integers of
``1 / unit_ratio`` (default 1e9: nanoseconds of a second) in ``lowest ..= highest`` at
``relative_error``;
the text formats expose classic buckets at bucket boundaries of that layout (at most
``classic_buckets`` of them), the protobuf format a native histogram written by libpicollo
(with the same classic buckets beside it).
"""

from __future__ import annotations

import functools
import http.server
import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional

from . import _protobuf
from ._convert import positive, scaled
from .histogram import Histogram as _Picollo
from .metrics import PROMETHEUS_PROTOBUF_CONTENT_TYPE, prometheus_buckets, to_prometheus_native

__all__ = ["Histogram", "generate_protobuf", "make_handler", "start_http_server"]

#: The relative errors tried for the classic buckets, finest first.
_CLASSIC_LADDER = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def _registry(registry: Any) -> Any:
    if registry is _DEFAULT:
        from prometheus_client import REGISTRY
        return REGISTRY
    return registry


_DEFAULT = object()


def _full_name(name: str, namespace: str, subsystem: str, unit: str) -> str:
    full = "_".join(part for part in (namespace, subsystem, name) if part)
    if unit and not full.endswith("_" + unit):
        full += "_" + unit
    return full


class _Child:
    """One label set's histogram: `observe` and `time`, as a prometheus_client child."""

    def __init__(self, parent: "Histogram", labels: dict[str, str]):
        self._parent = parent
        self.labels_dict = labels
        self.histogram = parent._new_histogram()

    def observe(self, amount: float, exemplar: Optional[dict[str, str]] = None) -> None:
        """Count ``amount`` (in the exposed unit, e.g. seconds); see `Histogram.observe`."""
        if exemplar is not None:
            raise ValueError("picollo.prometheus.Histogram keeps no exemplars "
                             "(use prometheus_client.Histogram for them)")
        self.histogram.record(self._parent._units(amount))

    def time(self) -> Any:
        """A context manager and decorator that observes the seconds it took."""
        from prometheus_client.context_managers import Timer
        return Timer(self, "observe")


class Histogram:
    """``prometheus_client.Histogram``'s constructor, `labels`, `observe`, `time`, `remove`
    and `clear`, over Picollo histograms; registered in ``registry`` (prometheus_client's
    default ``REGISTRY`` unless given, None for none) like any collector.

    Picollo's layout: ``relative_error`` of every value in ``lowest ..= highest`` (in the
    exposed unit; values outside count in the end buckets), kept as integers of
    ``1 / unit_ratio`` (1e9: nanoseconds); ``lowest * unit_ratio`` should be at least
    ``1 / relative_error`` for the rounding to stay within the relative error.

    Classic buckets: the explicit ``buckets`` (prometheus_client's argument; the count at a
    bound is that of the layout's bucket holding it), or by default the layout's own
    boundaries at the finest coarser relative error that gives at most ``classic_buckets``
    bounds over the range (every count exact; the bounds the same at every scrape).
    ``observe`` refuses NaN, infinities, negative values and exemplars with a ValueError.
    """

    def __init__(self, name: str, documentation: str, labelnames: Iterable[str] = (),
                 namespace: str = "", subsystem: str = "", unit: str = "",
                 registry: Any = _DEFAULT, *, relative_error: float = 0.01,
                 lowest: float = 1e-6, highest: float = 1e3, unit_ratio: float = 1e9,
                 classic_buckets: int = 40, buckets: Optional[Sequence[float]] = None):
        self._name = _full_name(name, namespace, subsystem, unit)
        self._documentation = documentation
        self._labelnames = tuple(labelnames)
        self._ratio = positive(unit_ratio, "unit_ratio")
        self._range = (scaled(lowest, self._ratio, "lowest"),
                       scaled(highest, self._ratio, "highest"))
        self._relative_error = relative_error
        empty = self._new_histogram()  # refuses a bad layout with the library's reason
        # The library's name and label rules (one check for the text and protobuf writers).
        to_prometheus_native(empty, self._name, labels={k: "" for k in self._labelnames})
        self._classic = self._classic_options(empty, buckets, classic_buckets)
        self._lock = threading.Lock()
        self._children: dict[tuple[str, ...], _Child] = {}
        if not self._labelnames:
            self._children[()] = _Child(self, {})
        if registry is not None:
            _registry(registry).register(self)

    def _new_histogram(self) -> _Picollo:
        return _Picollo(relative_error=self._relative_error, min=self._range[0],
                        max=self._range[1], mode="interlocked")

    def _units(self, amount: Any) -> int:
        """``amount * unit_ratio``, rounded; ValueError for NaN, ±∞ and negative values."""
        return scaled(amount, self._ratio, f"{self._name}: an observed amount")

    def _classic_options(self, empty: _Picollo, buckets: Optional[Sequence[float]],
                         most: int) -> dict[str, Any]:
        if buckets is not None:
            bounds = sorted({self._units(b) for b in buckets if b != math.inf})
            return {"bounds": bounds, "unit_ratio": self._ratio}
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            raise ValueError(f"classic_buckets must be a positive int, not {most!r}")
        for coarse in _CLASSIC_LADDER:
            if coarse < self._relative_error:
                continue
            options = {"coarse": coarse, "unit_ratio": self._ratio}
            # The library's own bounds, +Inf left out of the count.
            if len(prometheus_buckets(empty, **options).buckets) - 1 <= most:
                return options
        raise ValueError(f"{self._name}: even at {_CLASSIC_LADDER[-1]:.0%} the range "
                         f"{self._range} needs more than {most} classic buckets")

    # --- prometheus_client's API -------------------------------------------------------

    def labels(self, *labelvalues: Any, **labelkwargs: Any) -> _Child:
        """The child of these label values (positional, or by name), made on first use."""
        if not self._labelnames:
            raise ValueError(f"No label names were set when constructing {self._name}")
        if labelvalues and labelkwargs:
            raise ValueError("Can't pass both *args and **kwargs")
        if labelkwargs:
            if sorted(labelkwargs) != sorted(self._labelnames):
                raise ValueError(f"Incorrect label names: {sorted(labelkwargs)} for "
                                 f"{self._name}{list(self._labelnames)}")
            labelvalues = tuple(labelkwargs[k] for k in self._labelnames)
        if len(labelvalues) != len(self._labelnames):
            raise ValueError(f"Incorrect label count: {len(labelvalues)} values for "
                             f"{self._name}{list(self._labelnames)}")
        key = tuple(str(v) for v in labelvalues)
        child = self._children.get(key)
        if child is None:
            with self._lock:
                child = self._children.get(key)
                if child is None:
                    child = _Child(self, dict(zip(self._labelnames, key)))
                    self._children[key] = child
        return child

    def _only(self) -> _Child:
        if self._labelnames:
            raise ValueError(f"{self._name} has labels {list(self._labelnames)}: "
                             f"observe through .labels(...)")
        return self._children[()]

    def observe(self, amount: float, exemplar: Optional[dict[str, str]] = None) -> None:
        """Count ``amount`` (a histogram without labels)."""
        self._only().observe(amount, exemplar)

    def time(self) -> Any:
        """A context manager and decorator that observes the seconds it took."""
        return self._only().time()

    def remove(self, *labelvalues: Any) -> None:
        """Forget the child of these label values."""
        with self._lock:
            self._children.pop(tuple(str(v) for v in labelvalues), None)

    def clear(self) -> None:
        """Forget every child."""
        if self._labelnames:
            with self._lock:
                self._children.clear()

    # --- the collector -----------------------------------------------------------------

    @property
    def classic_coarse(self) -> Optional[float]:
        """The relative error at which the classic bounds are the layout's boundaries (None
        with explicit ``buckets``)."""
        return self._classic.get("coarse")

    def exposed_buckets(self, *labelvalues: Any) -> Any:
        """The classic buckets (``le``, cumulative count) and sum this series exposes now,
        as `picollo.metrics.PrometheusBuckets`."""
        child = self._children.get(tuple(str(v) for v in labelvalues))
        if child is None:
            raise KeyError(f"{self._name} has no series {list(labelvalues)}")
        return self._buckets(child)

    def _buckets(self, child: _Child) -> Any:
        return prometheus_buckets(child.histogram, **self._classic)

    def histograms(self) -> dict[tuple[str, ...], _Picollo]:
        """The Picollo histogram of each label set (values in units of ``1 / unit_ratio``)."""
        return {k: c.histogram for k, c in list(self._children.items())}

    def _family(self, with_samples: bool) -> Any:
        from prometheus_client.utils import floatToGoString

        family = _native_family()(self._name, self._documentation, labels=self._labelnames)
        family.native_body = self.native_body
        # One copy of the children: a child removed meanwhile is still exposed whole here.
        for key, child in (list(self._children.items()) if with_samples else ()):
            b = self._buckets(child)
            family.add_metric(list(key), [(floatToGoString(le), c) for le, c in b.buckets],
                              b.sum)
        return family

    def collect(self) -> Iterator[Any]:
        yield self._family(True)

    def describe(self) -> list[Any]:
        return [self._family(False)]

    def native_body(self) -> bytes:
        """The protobuf exposition of this family: one delimited MetricFamily with a native
        histogram (and the classic buckets) per label set, each written by libpicollo."""
        classic = self.classic_coarse
        metrics = []
        for key, child in list(self._children.items()):
            body = to_prometheus_native(child.histogram, self._name,
                                        labels=dict(zip(self._labelnames, key)),
                                        unit_ratio=self._ratio, classic_coarse=classic)
            for message in _protobuf.messages(body):
                metrics.extend(_protobuf.metric_fields(message))
        return _protobuf.family(self._name, self._documentation, _protobuf.HISTOGRAM, metrics)


@functools.lru_cache(maxsize=None)
def _native_family() -> type:
    """prometheus_client's histogram family that also knows its protobuf native exposition
    (made on first use: prometheus_client is imported only when used)."""
    from prometheus_client.core import HistogramMetricFamily

    class NativeHistogramFamily(HistogramMetricFamily):
        native_body: Any = None

    return NativeHistogramFamily


def generate_protobuf(registry: Any = _DEFAULT) -> bytes:
    """The registry's whole exposition in Prometheus' protobuf format: Picollo histograms as
    native histograms (libpicollo's writer), every other family as prometheus_client
    collected it (counters, gauges, summaries, classic histograms)."""
    out = []
    for metric in _registry(registry).collect():
        native = getattr(metric, "native_body", None)
        out.append(native() if native is not None else _protobuf.client_family(metric))
    return b"".join(out)


def wants_protobuf(accept: str) -> bool:
    """Whether an Accept header asks for the delimited MetricFamily protobuf."""
    for entry in (accept or "").split(","):
        parts = [p.strip().replace(" ", "") for p in entry.split(";")]
        if (parts[0] == "application/vnd.google.protobuf"
                and "proto=io.prometheus.client.MetricFamily" in parts
                and "encoding=delimited" in parts):
            q = next((p[2:] for p in parts if p.startswith("q=")), "1")
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


def make_handler(registry: Any = _DEFAULT) -> type[http.server.BaseHTTPRequestHandler]:
    """An `http.server` handler class that answers GET on any path with the registry:
    protobuf when the Accept header asks for it, else what prometheus_client's
    ``choose_encoder`` picks (OpenMetrics or the 0.0.4 text)."""
    from prometheus_client.exposition import choose_encoder

    source = _registry(registry)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            accept = self.headers.get("Accept", "")
            if wants_protobuf(accept):
                body, kind = generate_protobuf(source), PROMETHEUS_PROTOBUF_CONTENT_TYPE
            else:
                encoder, kind = choose_encoder(accept)
                body = encoder(source)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # a scrape a second would fill the log

    return Handler


def start_http_server(port: int, addr: str = "127.0.0.1",
                      registry: Any = _DEFAULT) -> tuple[http.server.ThreadingHTTPServer,
                                                         threading.Thread]:
    """Serve ``registry`` on ``addr:port`` from a daemon thread (`make_handler`); returns
    the server and its thread, as prometheus_client's ``start_http_server`` does. The
    address defaults to 127.0.0.1 (prometheus_client's to every interface)."""
    server = http.server.ThreadingHTTPServer((addr, port), make_handler(registry))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread
