"""picollo.otel.PicolloAggregation: the OpenTelemetry SDK's Histogram instrument recorded
into Picollo histograms, one per attribute set.

Values go through ``meter.create_histogram(...).record(v, attributes)`` (from two threads
too); the Picollo histograms' quantiles are within the layout's relative error of the
values recorded; the SDK's readers receive exponential-histogram points equal to libpicollo's
own OTLP export (parsed by opentelemetry-proto), cumulative or delta.
"""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

pytest.importorskip("opentelemetry.sdk.metrics",
                    reason="opentelemetry-sdk is not installed "
                           "(pip install -r python-demo/requirements.txt)")
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (  # noqa: E402
    ExportMetricsServiceRequest,
)
from opentelemetry.sdk.metrics import Histogram as SdkHistogram  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import (  # noqa: E402
    AggregationTemporality,
    ExponentialHistogram,
    InMemoryMetricReader,
)
from opentelemetry.sdk.metrics.view import View  # noqa: E402
from opentelemetry.sdk.version import __version__ as sdk_version  # noqa: E402

from picollo.otel import SDK_TESTED, PicolloAggregation  # noqa: E402

RELATIVE_ERROR = 0.01
SERIES = {"get": (-6.0, 1.0, 8_000), "put": (-4.0, 0.5, 2_000)}  # lognormal(mu, sigma), size


def setup(temporality=AggregationTemporality.CUMULATIVE):
    aggregation = PicolloAggregation(relative_error=RELATIVE_ERROR)
    reader = InMemoryMetricReader(preferred_temporality={SdkHistogram: temporality})
    provider = MeterProvider(metric_readers=[reader], views=[
        View(instrument_name="rpc.latency", aggregation=aggregation)])
    histogram = provider.get_meter("picollo-test").create_histogram("rpc.latency", unit="s")
    return aggregation, reader, histogram


def values_of(method: str) -> np.ndarray:
    mu, sigma, size = SERIES[method]
    seed = 1 if method == "get" else 2
    return np.round(np.random.default_rng(seed).lognormal(mu, sigma, size), 9)


def record_all(histogram) -> dict[str, np.ndarray]:
    out = {}
    for method in SERIES:
        v = values_of(method)
        for x in v.tolist():
            histogram.record(x, {"method": method})
        out[method] = np.sort(v)
    return out


def points(reader) -> dict[str, object]:
    data = reader.get_metrics_data()
    (metric,) = data.resource_metrics[0].scope_metrics[0].metrics
    assert metric.name == "rpc.latency" and metric.unit == "s"
    assert isinstance(metric.data, ExponentialHistogram)
    return {p.attributes["method"]: p for p in metric.data.data_points}


def test_the_sdk_is_the_version_whose_private_classes_were_checked():
    # picollo.otel subclasses private SDK classes: a new pin must be checked with this suite.
    assert sdk_version == SDK_TESTED


def test_each_attribute_set_gets_a_picollo_histogram_within_the_relative_error():
    aggregation, _, histogram = setup()
    truth = record_all(histogram)
    hists = aggregation.histograms()
    assert set(hists) == {("rpc.latency", (("method", m),)) for m in SERIES}
    for method, values in truth.items():
        h = hists[("rpc.latency", (("method", method),))]
        assert h.total == len(values)
        for q in (0.5, 0.9, 0.99, 1.0):
            rank = max(math.ceil(q * len(values)), 1)
            true = values[rank - 1]
            got = h.percentile(100 * q).value / 1e9
            # The layout's error, plus the rounding to the nanosecond.
            assert abs(got - true) <= RELATIVE_ERROR * true + 1e-9, (method, q, got, true)


def test_two_threads_recording_lose_nothing():
    aggregation, _, histogram = setup()
    values = values_of("get")
    start = threading.Barrier(2)

    def work(part):
        start.wait()
        for x in part.tolist():
            histogram.record(x, {"method": "get"})

    threads = [threading.Thread(target=work, args=(p,)) for p in np.array_split(values, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (h,) = aggregation.histograms().values()
    assert h.total == len(values)


def test_the_readers_points_are_libpicollos_otlp_export():
    aggregation, reader, histogram = setup()
    record_all(histogram)
    got = points(reader)
    for (_, attrs), h in aggregation.histograms().items():
        method = dict(attrs)["method"]
        p = got[method]
        request = ExportMetricsServiceRequest.FromString(h.to_otlp(
            "protobuf", name="rpc.latency", unit_ratio=1e9))
        want = (request.resource_metrics[0].scope_metrics[0].metrics[0]
                .exponential_histogram.data_points[0])
        assert (p.count, p.scale, p.zero_count) == (want.count, want.scale, want.zero_count)
        assert p.positive.offset == want.positive.offset
        assert list(p.positive.bucket_counts) == list(want.positive.bucket_counts)
        assert (p.sum, p.min, p.max) == (want.sum, want.min, want.max)
        assert p.scale == 6  # the coarsest OTLP scale within 1 %


def test_exported_quantiles_are_within_twice_the_relative_error():
    _, reader, histogram = setup()
    truth = record_all(histogram)
    for method, p in points(reader).items():
        values = truth[method]
        base = 2.0 ** (2.0 ** -p.scale)
        for q in (0.5, 0.99):
            rank = math.ceil(q * p.count)
            seen = 0
            for i, c in enumerate(p.positive.bucket_counts):
                seen += c
                if seen >= rank:
                    low, high = base ** (p.positive.offset + i), base ** (p.positive.offset + i + 1)
                    break
            true = values[rank - 1]
            # Re-binning each Picollo bucket at its midpoint: within about twice the error.
            assert low / (1 + 2 * RELATIVE_ERROR) <= true <= high * (1 + 2 * RELATIVE_ERROR)


def test_delta_points_add_up_to_everything_recorded():
    aggregation, reader, histogram = setup(AggregationTemporality.DELTA)
    first = values_of("get")[:5_000]
    second = values_of("get")[5_000:]
    for x in first.tolist():
        histogram.record(x, {"method": "get"})
    p1 = points(reader)["get"]
    for x in second.tolist():
        histogram.record(x, {"method": "get"})
    p2 = points(reader)["get"]
    assert (p1.count, p2.count) == (len(first), len(second))
    assert p2.start_time_unix_nano >= p1.time_unix_nano
    (h,) = aggregation.histograms().values()
    assert h.total == len(first) + len(second)
    assert reader.get_metrics_data() is None or not points(reader)  # nothing new


def test_bad_layouts_and_nan():
    with pytest.raises(ValueError, match="unit_ratio must be a positive number"):
        PicolloAggregation(unit_ratio=0)
    with pytest.raises(ValueError, match="relative error 0 is invalid"):
        PicolloAggregation(relative_error=0.0)
    aggregation, _, histogram = setup()
    histogram.record(float("nan"), {"method": "get"})  # the SDK drops it, logging why
    histogram.record(-1.0, {"method": "get"})           # so it does negative values
    histogram.record(0.5, {"method": "get"})
    (h,) = aggregation.histograms().values()
    assert h.total == 1
