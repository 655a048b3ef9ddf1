"""`picollo.metrics.to_prometheus_native`: the protobuf exposition of integer and float
histograms read back with the tests' own reader (native_reader.py, from the wire format):
spans, deltas, counts, sums and the zero bucket against the histogram; the buffer of an
empty histogram; the http.server handler; bad arguments refused."""

from __future__ import annotations

import http.server
import math
import threading
import urllib.request

import numpy as np
import pytest

from picollo import FloatHistogram, Histogram, InvalidArgumentError
from picollo.metrics import (PROMETHEUS_PROTOBUF_CONTENT_TYPE, prometheus_native_handler,
                             to_prometheus_native)

import native_reader


def one(body: bytes, name: str = "rpc_latency_seconds") -> tuple[dict, native_reader.Native]:
    fams = native_reader.families(body)
    assert len(fams) == 1
    f = fams[0]
    assert (f.name, f.type) == (name, 4)  # HISTOGRAM
    assert len(f.metrics) == 1
    return f.metrics[0]


@pytest.fixture(scope="module")
def latencies() -> Histogram:
    h = Histogram(relative_error=0.01, min=1_000, max=10**11)
    values = np.random.default_rng(7).lognormal(15.0, 0.8, 20_000).astype(np.uint64)
    h.record_many(values.tolist())
    return h


def test_every_bucket_lands_in_the_native_bucket_of_its_midpoint(latencies: Histogram):
    body = to_prometheus_native(latencies, "rpc_latency_seconds", help="RPC latency",
                                labels={"method": "GET"}, unit_ratio=1e9)
    labels, h = one(body)
    assert labels == {"method": "GET"}
    assert native_reader.families(body)[0].help == "RPC latency"
    assert h.schema == 6  # 2^(1/64): 0.54 % <= 1 % < 1.08 %
    want: dict[int, int] = {}
    for b in latencies:
        if b.count:
            i = h.bucket_of(b.value / 1e9)
            want[i] = want.get(i, 0) + b.count
    assert h.positive == want
    assert h.negative == {} and h.zero_count == 0
    assert h.count == latencies.total == sum(want.values())
    expected_sum = sum(b.count * b.value for b in latencies) / 1e9
    assert math.isclose(h.sum, expected_sum, rel_tol=1e-12)
    assert 0 < h.zero_threshold < 1e-9
    # Spans are the runs of buckets: sorted, apart, their lengths covering every bucket.
    starts = list(np.cumsum([o for o, _ in h.positive_spans]))
    assert starts == sorted(starts)
    assert sum(length for _, length in h.positive_spans) >= len(want)


def test_the_p99_lies_in_the_native_bucket_of_its_rank(latencies: Histogram):
    _, h = one(to_prometheus_native(latencies, "rpc_latency_seconds", unit_ratio=1e9))
    p99 = latencies.percentile(99).value / 1e9
    rank = math.ceil(0.99 * h.count)
    seen = 0
    for index in sorted(h.positive):
        seen += h.positive[index]
        if seen >= rank:
            low, high = h.bounds(index)
            assert low < p99 <= high
            break
    else:
        pytest.fail("no bucket holds the rank")


def test_a_given_schema_and_classic_buckets(latencies: Histogram):
    _, h = one(to_prometheus_native(latencies, "rpc_latency_seconds", schema=-2,
                                    unit_ratio=1e9, classic_coarse=0.2))
    assert h.schema == -2 and h.count == latencies.total
    assert len(h.classic) > 3
    assert [c for _, c in h.classic] == sorted(c for _, c in h.classic)
    assert h.classic[-1][1] <= h.count


def test_an_empty_histogram_is_native():
    _, h = one(to_prometheus_native(Histogram(), "rpc_latency_seconds"))
    assert (h.count, h.zero_count, h.sum) == (0, 0, 0.0)
    assert h.zero_threshold > 0
    assert h.positive_spans == [(0, 0)]


def test_doubles_keep_both_signs_and_zeros():
    f = FloatHistogram(relative_error=0.01)
    values = [-250.0, -3.5, -3.5, -0.002, 0.0, -0.0, 0.0, 1e-3, 2.5, 7e6, math.nan, math.inf]
    for v in values:
        f.record(v)
    labels, h = one(to_prometheus_native(f, "temperature_delta", labels=[("room", "a")]),
                    "temperature_delta")
    assert labels == {"room": "a"}
    finite = [v for v in values if math.isfinite(v)]
    assert h.count == len(finite) and h.zero_count == 3
    assert h.sum == f.sum
    pos: dict[int, int] = {}
    neg: dict[int, int] = {}
    for b in f:
        mid = (b.lowest + b.highest) / 2
        if mid != 0:
            side = pos if mid > 0 else neg
            i = h.bucket_of(abs(mid))
            side[i] = side.get(i, 0) + b.count
    assert h.positive == pos and h.negative == neg
    assert sum(neg.values()) == 4 and sum(pos.values()) == 3
    assert h.zero_threshold > 0


def test_several_bodies_are_one_exposition(latencies: Histogram):
    body = (to_prometheus_native(latencies, "a", labels={"x": "1"})
            + to_prometheus_native(FloatHistogram(), "b"))
    assert [f.name for f in native_reader.families(body)] == ["a", "b"]


def test_the_http_server_handler_serves_the_protobuf(latencies: Histogram):
    handler = prometheus_native_handler(
        lambda: to_prometheus_native(latencies, "rpc_latency_seconds", unit_ratio=1e9))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with urllib.request.urlopen(url + "/metrics", timeout=5) as r:
            assert r.headers["Content-Type"] == PROMETHEUS_PROTOBUF_CONTENT_TYPE
            _, h = one(r.read())
        assert h.count == latencies.total
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url + "/other", timeout=5)
        assert e.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_bad_arguments_are_refused_with_the_rule(latencies: Histogram):
    with pytest.raises(InvalidArgumentError, match="schema is 9: it must be in -4..8"):
        to_prometheus_native(latencies, "x", schema=9)
    with pytest.raises(InvalidArgumentError, match="name must match"):
        to_prometheus_native(latencies, "x_bucket")
    with pytest.raises(InvalidArgumentError, match=r"labels\[0\].name"):
        to_prometheus_native(latencies, "x", labels={"le": "1"})
    with pytest.raises(InvalidArgumentError, match="unit_ratio"):
        to_prometheus_native(latencies, "x", unit_ratio=0.0)
    with pytest.raises(InvalidArgumentError, match="integer histograms only"):
        to_prometheus_native(FloatHistogram(), "x", classic_coarse=0.1)
    with pytest.raises(TypeError):
        to_prometheus_native(object(), "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        to_prometheus_native(latencies, "x", schema=1.5)  # type: ignore[arg-type]
