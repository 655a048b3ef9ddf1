"""picollo.metrics.to_otlp read back by opentelemetry-proto (the official OTLP messages).

The protobuf bytes are parsed as an ``ExportMetricsServiceRequest`` and the JSON text with
``google.protobuf.json_format.Parse``; both must give the same message, every field is
checked against figures computed here from the histogram's buckets, and quantiles read from
the exported exponential buckets must be within the stated error of the true ones.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from picollo import Histogram, InvalidArgumentError
from picollo.metrics import to_otlp

pytest.importorskip(
    "opentelemetry.proto.collector.metrics.v1.metrics_service_pb2",
    reason="opentelemetry-proto is not installed (pip install -r python-demo/requirements.txt)")
from google.protobuf import json_format  # noqa: E402
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (  # noqa: E402
    ExportMetricsServiceRequest,
)
from opentelemetry.proto.metrics.v1.metrics_pb2 import AggregationTemporality  # noqa: E402

MIN_SCALE, MAX_SCALE = -10, 20
UNIT_RATIO = 1e9
START, NOW = 1_700_000_000_123_456_789, 1_700_000_060_987_654_321


def bucket_error(scale: int) -> float:
    """``(base − 1)/(base + 1)`` with ``base = 2**(2**-scale)``, as ``tanh(ln(base)/2)`` (no
    overflow at scale -10, where base is 2**1024)."""
    return math.tanh(2.0 ** -scale * math.log(2) / 2)


def scale_for(relative_error: float) -> int:
    return next((s for s in range(MIN_SCALE, MAX_SCALE + 1)
                 if bucket_error(s) <= relative_error), MAX_SCALE)


def index_of(v: float, scale: int) -> int:
    """The bucket ``(base**i, base**(i+1)]`` holding ``v > 0``."""
    i = math.ceil(math.log2(v) * 2.0 ** scale) - 1
    # Settle the rounding of log2 at an edge with the bounds themselves.
    step = 2.0 ** -scale
    while 2.0 ** ((i + 1) * step) < v:
        i += 1
    while i > -10**6 and 2.0 ** (i * step) >= v:
        i -= 1
    return i


def expected_export(h: Histogram, scale: int, unit_ratio: float):
    """zero_count, offset, bucket_counts, count, sum, min, max as the export should hold
    them: each Picollo bucket whole at its midpoint, outside counts at the range's ends."""
    points = [(b.value, b.count, b.lower, b.highest) for b in h]
    first, last = next(iter(h.buckets())), None
    for last in h.buckets():
        pass
    if h.underflow:
        points.insert(0, (first.lower, h.underflow, first.lower, first.lower))
    if h.overflow:
        points.append((last.highest, h.overflow, last.highest, last.highest))
    zero, counts, total, s = 0, {}, 0, 0.0
    for at, c, _, _ in points:
        total += c
        s += c * at / unit_ratio
        if at == 0:
            zero += c
        else:
            i = index_of(at / unit_ratio, scale)
            counts[i] = counts.get(i, 0) + c
    offset = min(counts) if counts else 0
    dense = [counts.get(i, 0) for i in range(offset, max(counts) + 1)] if counts else []
    lo = min(p[2] for p in points) / unit_ratio
    hi = max(p[3] for p in points) / unit_ratio
    return zero, offset, dense, total, s, lo, hi


def exported_quantile(dp, q: float) -> float:
    """The value OTLP consumers read: ``2ab/(a+b)`` of the bucket ``(a, b]`` holding the
    ``ceil(q × count)``-th value."""
    target = max(math.ceil(q * dp.count), 1)
    seen = dp.zero_count
    if seen >= target:
        return 0.0
    step = 2.0 ** -dp.scale
    for k, c in enumerate(dp.positive.bucket_counts):
        seen += c
        if seen >= target:
            a = 2.0 ** ((dp.positive.offset + k) * step)
            b = 2.0 ** ((dp.positive.offset + k + 1) * step)
            return 2 * a * b / (a + b)
    raise AssertionError("quantile past the last bucket")


@pytest.fixture
def latencies():
    """Nanosecond latencies, 1 % error, range 1..10**11: values in range and a few zeros."""
    values = np.random.default_rng(21).lognormal(15, 1.2, 30_000).astype(np.uint64)
    values = np.concatenate([values, np.zeros(7, dtype=np.uint64)])
    with Histogram(relative_error=0.01, min=0, max=10**11) as h:
        h.record_many(values)
        yield h, np.sort(values)


def export_both(h, **options):
    pb = to_otlp(h, "protobuf", **options)
    js = to_otlp(h, "json", **options)
    assert isinstance(pb, bytes) and isinstance(js, str)
    from_pb = ExportMetricsServiceRequest()
    from_pb.ParseFromString(pb)
    from_js = json_format.Parse(js, ExportMetricsServiceRequest())
    return from_pb, without_empty_buckets(from_js), pb


def without_empty_buckets(request):
    """The JSON form always writes ``positive`` (``{"offset":0,"bucketCounts":[]}`` when no
    value is above zero), which sets the message's presence; the protobuf form leaves an
    empty one out. Same data: clear the empty one so the messages compare."""
    for rm in request.resource_metrics:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                for dp in m.exponential_histogram.data_points:
                    if not dp.positive.bucket_counts and dp.positive.offset == 0:
                        dp.ClearField("positive")
    return request


OPTIONS = dict(name="rpc.server.duration", description="RPC \"server\" latency\n", unit="s",
               temporality="cumulative", start_time_unix_nano=START, time_unix_nano=NOW,
               attributes=[("rpc.method", "get"), ("zone", "é")],
               resource={"service.name": "picollo-test", "host.name": ""},
               scope_name="picollo.tests", scope_version="1.5.0", unit_ratio=UNIT_RATIO)


def test_protobuf_and_json_parse_to_the_same_complete_request(latencies):
    h, values = latencies
    from_pb, from_js, raw = export_both(h, **OPTIONS)
    assert from_pb == from_js
    assert from_pb.SerializeToString() == raw  # proto3 canonical: defaults left out
    (rm,) = from_pb.resource_metrics
    assert [(a.key, a.value.string_value) for a in rm.resource.attributes] == [
        ("service.name", "picollo-test"), ("host.name", "")]
    assert all(a.value.WhichOneof("value") == "string_value" for a in rm.resource.attributes)
    (sm,) = rm.scope_metrics
    assert (sm.scope.name, sm.scope.version) == ("picollo.tests", "1.5.0")
    (metric,) = sm.metrics
    assert (metric.name, metric.description, metric.unit) == (
        "rpc.server.duration", "RPC \"server\" latency\n", "s")
    assert metric.WhichOneof("data") == "exponential_histogram"
    eh = metric.exponential_histogram
    assert eh.aggregation_temporality == AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
    (dp,) = eh.data_points
    assert [(a.key, a.value.string_value) for a in dp.attributes] == [
        ("rpc.method", "get"), ("zone", "é")]
    assert (dp.start_time_unix_nano, dp.time_unix_nano) == (START, NOW)

    scale = scale_for(h.precision)
    zero, offset, counts, count, total, lo, hi = expected_export(h, scale, UNIT_RATIO)
    assert dp.scale == scale
    assert dp.zero_count == zero == 7
    assert dp.count == count == len(values)
    assert dp.sum == pytest.approx(total, rel=1e-12)
    assert dp.positive.offset == offset
    assert list(dp.positive.bucket_counts) == counts
    assert dp.zero_count + sum(dp.positive.bucket_counts) == dp.count
    assert len(dp.negative.bucket_counts) == 0 and dp.negative.offset == 0
    assert dp.HasField("min") and dp.HasField("max")
    assert (dp.min, dp.max) == (pytest.approx(lo, rel=1e-15), pytest.approx(hi, rel=1e-15))
    assert dp.flags == 0 and len(dp.exemplars) == 0 and dp.zero_threshold == 0
    # The true sum is within the layout's relative error of the exported one.
    true_sum = float(values.astype(np.float64).sum()) / UNIT_RATIO
    assert dp.sum == pytest.approx(true_sum, rel=h.precision)


def test_quantiles_from_the_exported_buckets_are_within_the_stated_error(latencies):
    h, values = latencies
    from_pb, _, _ = export_both(h, **OPTIONS)
    dp = from_pb.resource_metrics[0].scope_metrics[0].metrics[0].exponential_histogram \
        .data_points[0]
    e, x = h.precision, bucket_error(dp.scale)
    assert x <= e
    bound = (1 + e) * (1 + x) - 1  # the error the documentation states (about 2e)
    for q in (0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0):
        target = max(math.ceil(q * len(values)), 1)
        true = float(values[target - 1]) / UNIT_RATIO
        got = exported_quantile(dp, q)
        if true == 0:
            assert got == 0
        else:
            assert abs(got - true) <= bound * true, (q, got, true, bound)


@pytest.mark.parametrize("scale", [-2, 0, 3, 8])
def test_an_explicit_scale_is_used(latencies, scale):
    h, _ = latencies
    from_pb, from_js, _ = export_both(h, **{**OPTIONS, "scale": scale})
    assert from_pb == from_js
    dp = from_pb.resource_metrics[0].scope_metrics[0].metrics[0].exponential_histogram \
        .data_points[0]
    zero, offset, counts, count, _, _, _ = expected_export(h, scale, UNIT_RATIO)
    assert (dp.scale, dp.zero_count, dp.positive.offset, dp.count) == (scale, zero, offset, count)
    assert list(dp.positive.bucket_counts) == counts


def test_a_delta_export_of_collected_intervals():
    with Histogram(relative_error=0.005, min=1, max=10**9, mode="interlocked") as h:
        h.record_many(np.arange(1, 10_001, dtype=np.uint64))
        h.record(10**10)  # overflow: counted at the range's top
        with h.collect() as first:
            from_pb, from_js, _ = export_both(
                first, name="work", temporality="delta", start_time_unix_nano=START,
                time_unix_nano=NOW)
        assert from_pb == from_js
        metric = from_pb.resource_metrics[0].scope_metrics[0].metrics[0]
        assert (metric.exponential_histogram.aggregation_temporality
                == AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
        dp = metric.exponential_histogram.data_points[0]
        assert dp.count == 10_001 and dp.zero_count == 0
        assert dp.min == pytest.approx(1.0, rel=0.01)
        assert dp.max >= 10**9  # the range's top
        assert len(dp.attributes) == 0 and metric.description == "" and metric.unit == ""
        h.record_many([5, 6, 7])
        with h.collect() as second:
            dp2 = ExportMetricsServiceRequest.FromString(to_otlp(
                second, "protobuf", name="work", temporality="delta")) \
                .resource_metrics[0].scope_metrics[0].metrics[0] \
                .exponential_histogram.data_points[0]
        assert dp2.count == 3 and sum(dp2.positive.bucket_counts) == 3
        assert dp2.time_unix_nano > 0  # defaults to now


def test_an_empty_histogram_exports_no_buckets():
    with Histogram(relative_error=0.01, min=1, max=10**6) as h:
        from_pb, from_js, _ = export_both(h, name="idle", time_unix_nano=NOW)
    assert from_pb == from_js
    dp = from_pb.resource_metrics[0].scope_metrics[0].metrics[0].exponential_histogram \
        .data_points[0]
    assert (dp.count, dp.zero_count, dp.sum, len(dp.positive.bucket_counts)) == (0, 0, 0.0, 0)
    assert not dp.HasField("min") and not dp.HasField("max")


def test_bad_options_are_refused(latencies):
    h, _ = latencies
    with pytest.raises(ValueError):
        to_otlp(h, "yaml", name="x")
    with pytest.raises(ValueError):
        to_otlp(h, name="x", temporality="sometimes")
    with pytest.raises(TypeError):
        to_otlp(h, name="x", scale=1.5)
    with pytest.raises(InvalidArgumentError):
        to_otlp(h, name="x", unit_ratio=-1.0)
    with pytest.raises(InvalidArgumentError):
        to_otlp(h, name="x", scale=21)
