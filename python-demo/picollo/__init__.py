"""Picollo HDR histograms from Python, through libpicollo's C ABI (ctypes).

>>> import picollo
>>> with picollo.Histogram(relative_error=0.01, min=10_000, max=30_000, counter_bits=32) as h:
...     h.record_many(values)              # a list, array('Q') or numpy uint64 array
...     print("P99:", h.percentile(99))    # P99=24,960 [83 / 609]: [24,832, 25,088) 14,190
...     print(h)                           # the Markdown summary table

Doubles: `FloatHistogram` takes floats of both signs (zero, NaN and infinities counted
apart, exact ``min``/``max``/``sum``), dense or sparse: ``FloatHistogram(0.01)``,
``h.record_many(np_array)``, ``h.percentile(99)``, ``h.summary().line("latency")``.
A `Histogram`'s trackable range is ``min_trackable``/``max_trackable`` (its ``min`` and
``max`` properties are deprecated aliases of them, not recorded extremes); the exact
smallest and largest values recorded in that range are ``recorded_min``/``recorded_max``
of a ``Histogram(..., exact_extremes=True)`` (None while nothing was recorded).

Queries by value: ``h.rank_of(v)``, ``h.quantile_of(v)`` (the inverse of a percentile),
``h.count_between(lo, hi)``, ``h.equivalent_range(v)``, and steps of values as `Step`s
(``h.linear_steps(width)``, ``h.log_steps(first, base)``). Other precisions:
``h.downsample(0.01)`` and ``h.add_rebinned(other)`` (any relative error;
`FloatHistogram.add_rebinned` too).

Threads: ``Histogram(mode="thread-local")`` (or "interlocked", "approximate") takes records
from any number of threads at once; `ApproxCounter` is the approximate counter on its own.
perf_event counters, timers and scopes (Linux) are in `picollo.perf`; the benchmark harness
(Linux: ``bench.run(fn)``, ``bench.compare_fns(fa, fb)`` interleaved, ``bench.judge_apart(r,
saved)`` against earlier runs' ``median_round``) in `picollo.bench`.

HdrHistogram interop: ``h.encode()`` / ``Histogram.decode(text)`` (the V2 encoding every
HdrHistogram port reads and writes), ``h.to_hgrm()`` (the .hgrm percentile distribution),
pickling, and interval logs in `picollo.log` (``Writer``, ``Reader``, ``sum``).

Metrics pipelines: ``h.collect()`` (the counts since the previous collection, for delta
exporters), and `picollo.metrics`: OpenMetrics text (``to_openmetrics``,
``OpenMetricsWriter``), ``PrometheusCollector`` for the prometheus_client package, and
OTLP exponential histograms (``to_otlp``, JSON or protobuf).

The library is found through $PICOLLO_LIB, then the copy an installed wheel carries in
this package (``pip install ./python-demo``), then ``../target/release`` next to this
package (a workspace build), then the system's library path.
"""

from __future__ import annotations

from ._abi import V2Form
from ._errors import (
    ClosedError,
    EmptyHistogramError,
    FormatError,
    InvalidArgumentError,
    LayoutMismatchError,
    OutOfMemoryError,
    PermissionDeniedError,
    PicolloError,
    Status,
    UnavailableError,
    UnencodableError,
    UnsupportedError,
    WouldGoNegativeError,
    status_str,
)
from ._native import lib as _lib
from ._results import STANDARD_RANKS, VALUE_SELECTIONS
from ._types import (
    MODES,
    STORAGES,
    Bucket,
    Info,
    Percentile,
    Step,
    Summary,
)
from ._float_types import (
    FLOAT_MODES,
    FLOAT_STORAGES,
    FloatBucket,
    FloatInfo,
    FloatPercentile,
    FloatSummary,
)
from .approx import ApproxCounter
from .cumulative import Cumulative
from .float_histogram import FloatHistogram
from .float_snapshot import FloatSnapshot
from .histogram import BufferedRecorder, Histogram, Snapshot
from . import log, metrics
from ._formats import formats

__all__ = [
    "ApproxCounter",
    "BufferedRecorder",
    "Bucket",
    "ClosedError",
    "Cumulative",
    "EmptyHistogramError",
    "FLOAT_MODES",
    "FLOAT_STORAGES",
    "FloatBucket",
    "FloatHistogram",
    "FloatInfo",
    "FloatPercentile",
    "FloatSnapshot",
    "FloatSummary",
    "FormatError",
    "Histogram",
    "Info",
    "InvalidArgumentError",
    "LayoutMismatchError",
    "OutOfMemoryError",
    "MODES",
    "STORAGES",
    "PermissionDeniedError",
    "Percentile",
    "PicolloError",
    "STANDARD_RANKS",
    "Snapshot",
    "Status",
    "Step",
    "Summary",
    "UnavailableError",
    "UnencodableError",
    "UnsupportedError",
    "V2Form",
    "VALUE_SELECTIONS",
    "WouldGoNegativeError",
    "abi_version",
    "formats",
    "log",
    "metrics",
    "status_str",
]


def abi_version() -> tuple[int, int]:
    """``(major, minor)`` of the loaded library's ABI."""
    v = _lib.picollo_abi_version()
    return v >> 16, v & 0xFFFF
