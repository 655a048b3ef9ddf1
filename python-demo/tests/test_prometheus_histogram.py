"""picollo.prometheus: prometheus_client's Histogram over Picollo histograms.

Labels, observe from two threads (every value counted, bucket for bucket), ``time()`` as
context manager and decorator, label values that need escaping in the text format, bad
input refused with the rule; the text exposition's classic buckets (bounded in number,
every count exact) and the protobuf exposition (each series the library's own native
histogram, read back with the tests' reader), and the server's content negotiation.
"""

from __future__ import annotations

import math
import threading
import time
import urllib.request

import numpy as np
import pytest

prometheus_client = pytest.importorskip(
    "prometheus_client",
    reason="prometheus_client is not installed (pip install -r python-demo/requirements.txt)")
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

import native_reader  # noqa: E402
from picollo import Histogram as Picollo  # noqa: E402
from picollo import InvalidArgumentError  # noqa: E402
from picollo.metrics import PROMETHEUS_PROTOBUF_CONTENT_TYPE, to_prometheus_native  # noqa: E402
from picollo.prometheus import Histogram, generate_protobuf, start_http_server  # noqa: E402

PROTOBUF_ACCEPT = ("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
                   "encoding=delimited;q=0.8,application/openmetrics-text;version=1.0.0;q=0.7,"
                   "text/plain;version=0.0.4;q=0.6,*/*;q=0.5")


@pytest.fixture
def registry():
    return prometheus_client.CollectorRegistry()


def latencies(seed: int, n: int) -> np.ndarray:
    """Log-normal latencies in seconds, rounded to the nanosecond (what the histogram keeps)."""
    return np.round(np.random.default_rng(seed).lognormal(-6.0, 1.0, n), 9)


def text_families(registry) -> dict:
    text = prometheus_client.generate_latest(registry).decode("utf-8")
    return {f.name: f for f in text_string_to_metric_families(text)}


def test_labels_by_position_and_name_reach_one_child(registry):
    h = Histogram("rpc_latency_seconds", "RPC latency", ["method", "code"], registry=registry)
    h.labels("get", "200").observe(0.25)
    h.labels(method="get", code="200").observe(0.5)
    h.labels("put", 500).observe(1.0)  # values are str()ed, as prometheus_client does
    hists = h.histograms()
    assert {k: v.total for k, v in hists.items()} == {("get", "200"): 2, ("put", "500"): 1}
    samples = text_families(registry)["rpc_latency_seconds"].samples
    counts = {(s.labels["method"], s.labels["code"]): s.value for s in samples
              if s.name == "rpc_latency_seconds_count"}
    assert counts == {("get", "200"): 2.0, ("put", "500"): 1.0}
    h.remove("put", "500")
    assert list(h.histograms()) == [("get", "200")]
    h.clear()
    assert h.histograms() == {}


def test_observe_from_two_threads_counts_every_value(registry):
    h = Histogram("work_seconds", "work", registry=registry)
    values = latencies(11, 40_000)
    halves = np.array_split(values, 2)
    start = threading.Barrier(2)

    def observe(part):
        start.wait()
        for v in part.tolist():
            h.observe(v)

    threads = [threading.Thread(target=observe, args=(p,)) for p in halves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ours = h.histograms()[()]
    # The same values recorded by one thread into a histogram of the same layout.
    reference = Picollo(relative_error=0.01, min=1_000, max=10**12)
    reference.record_many(np.round(values * 1e9).astype(np.uint64))
    assert ours.total == len(values)
    assert [(b.value, b.count) for b in ours] == [(b.value, b.count) for b in reference]


def test_time_observes_the_seconds_as_context_manager_and_decorator(registry):
    h = Histogram("step_seconds", "step", ["step"], registry=registry)
    with h.labels("sleep").time():
        time.sleep(0.02)

    @h.labels("decorated").time()
    def work(x):
        time.sleep(0.01)
        return x * 2

    assert work(21) == 42 and work(1) == 2
    hists = h.histograms()
    assert hists[("sleep",)].total == 1 and hists[("decorated",)].total == 2
    # A sleep lasts at least what it was asked (the histogram keeps it within 1 %).
    assert hists[("sleep",)].percentile(100).value / 1e9 >= 0.02 * (1 - 0.01)
    assert hists[("decorated",)].percentile(0).value / 1e9 >= 0.01 * (1 - 0.01)
    plain = Histogram("plain_seconds", "plain", registry=registry)
    with plain.time():
        pass  # below the 1 µs range: counted in the lowest bucket (underflow)
    (count,) = [s.value for s in text_families(registry)["plain_seconds"].samples
                if s.name == "plain_seconds_count"]
    assert count == 1.0


def test_label_values_that_need_escaping_read_back_equal(registry):
    odd = 'quote " backslash \\ newline \n end'
    h = Histogram("odd_seconds", "help with \\ and \n", ["path"], registry=registry)
    h.labels(odd).observe(0.001)
    (sample,) = [s for s in text_families(registry)["odd_seconds"].samples
                 if s.name == "odd_seconds_count"]
    assert sample.labels == {"path": odd} and sample.value == 1.0
    (fam,) = native_reader.families(generate_protobuf(registry))
    assert fam.metrics[0][0] == {"path": odd}


def test_bad_input_is_refused_with_the_rule(registry):
    h = Histogram("bad_seconds", "bad", ["method"], registry=registry)
    child = h.labels("get")
    for value in (math.nan, math.inf, -1e-3):
        with pytest.raises(ValueError, match="bad_seconds: an observed amount must be "
                                             "finite and >= 0"):
            child.observe(value)
    with pytest.raises(TypeError, match="must be a real number, not str"):
        child.observe("fast")
    with pytest.raises(ValueError, match="keeps no exemplars"):
        child.observe(0.1, {"trace_id": "abc"})
    with pytest.raises(ValueError, match=r"Incorrect label count: 2 values for "
                                         r"bad_seconds\['method'\]"):
        h.labels("get", "extra")
    with pytest.raises(ValueError, match="Incorrect label names"):
        h.labels(verb="get")
    with pytest.raises(ValueError, match=r"observe through \.labels"):
        h.observe(0.1)
    with pytest.raises(ValueError, match="No label names were set"):
        Histogram("plain_seconds", "p", registry=registry).labels("x")
    assert child.histogram.total == 0
    with pytest.raises(InvalidArgumentError, match="name must match"):
        Histogram("bad name", "x", registry=None)
    with pytest.raises(InvalidArgumentError, match="labels"):
        Histogram("x_seconds", "x", ["le"], registry=None)
    with pytest.raises(ValueError, match="unit_ratio must be a positive number"):
        Histogram("u_seconds", "u", registry=None, unit_ratio=0)
    with pytest.raises(ValueError, match="classic_buckets must be a positive int"):
        Histogram("y_seconds", "y", registry=None, classic_buckets=0)
    with pytest.raises(ValueError, match="needs more than 3 classic buckets"):
        Histogram("z_seconds", "z", registry=None, classic_buckets=3)
    with pytest.raises(ValueError, match="Duplicated"):
        Histogram("bad_seconds", "again", registry=registry)


@pytest.mark.parametrize("most", [10, 40, 200])
def test_classic_buckets_are_bounded_and_every_count_exact(registry, most):
    h = Histogram("rpc_seconds", "rpc", registry=registry, classic_buckets=most)
    values = latencies(5, 5_000)
    for v in values.tolist():
        h.observe(v)
    samples = text_families(registry)["rpc_seconds"].samples
    buckets = [(float(s.labels["le"]), s.value) for s in samples if s.name == "rpc_seconds_bucket"]
    assert buckets[-1] == (math.inf, len(values))
    assert 2 <= len(buckets) - 1 <= most
    units = np.sort(np.round(values * 1e9).astype(np.uint64))
    for le, count in buckets[:-1]:
        # Each bound is a bucket's highest value: the count is the values at or below it.
        assert count == np.searchsorted(units, round(le * 1e9), side="right"), le


def test_explicit_buckets_as_prometheus_client_takes_them(registry):
    h = Histogram("io_seconds", "io", registry=registry, buckets=(0.001, 0.01, 0.1, math.inf))
    for v in (0.0005, 0.005, 0.05, 0.5):
        h.observe(v)
    samples = text_families(registry)["io_seconds"].samples
    les = [(s.labels["le"], s.value) for s in samples if s.name == "io_seconds_bucket"]
    assert les == [("0.001", 1.0), ("0.01", 2.0), ("0.1", 3.0), ("+Inf", 4.0)]


def test_the_protobuf_family_holds_the_librarys_native_histogram_per_series(registry):
    h = Histogram("rpc_latency_seconds", "RPC latency", ["method"], registry=registry)
    for method, seed in (("get", 1), ("put", 2)):
        for v in latencies(seed, 3_000).tolist():
            h.labels(method).observe(v)
    (fam,) = native_reader.families(generate_protobuf(registry))
    assert (fam.name, fam.help, fam.type) == ("rpc_latency_seconds", "RPC latency", 4)
    assert [labels for labels, _ in fam.metrics] == [{"method": "get"}, {"method": "put"}]
    for (labels, native), (key, picollo) in zip(fam.metrics, h.histograms().items()):
        # The library's answer for this histogram alone (same options).
        (alone,) = native_reader.families(to_prometheus_native(
            picollo, "rpc_latency_seconds", labels=labels, unit_ratio=1e9,
            classic_coarse=h.classic_coarse))
        assert native == alone.metrics[0][1]
        assert native.count == 3_000 and native.classic


def test_native_quantiles_lie_within_the_layouts_error_of_the_truth(registry):
    h = Histogram("q_seconds", "q", registry=registry)
    values = np.sort(latencies(3, 20_000))
    for v in values.tolist():
        h.observe(v)
    (fam,) = native_reader.families(generate_protobuf(registry))
    native = fam.metrics[0][1]
    for q in (0.5, 0.9, 0.99):
        rank = math.ceil(q * len(values))
        truth = values[rank - 1]
        seen = 0
        for index in sorted(native.positive):
            seen += native.positive[index]
            if seen >= rank:
                low, high = native.bounds(index)
                break
        # The native bucket of that rank holds a value within 1 % of the truth, and the
        # bucket is the library's schema (6: 2^(1/64) wide, about 1.1 %).
        assert low * (1 - 0.01) <= truth <= high * (1 + 0.01), (q, low, truth, high)


def test_the_server_answers_protobuf_or_text_as_asked(registry):
    counter = prometheus_client.Counter("requests", "requests", ["code"], registry=registry)
    counter.labels("200").inc(3)
    prometheus_client.Gauge("temperature", "t", registry=registry).set(21.5)
    h = Histogram("rpc_latency_seconds", "RPC latency", registry=registry)
    h.observe(0.004)
    server, thread = start_http_server(0, registry=registry)
    url = f"http://127.0.0.1:{server.server_address[1]}/metrics"
    try:
        request = urllib.request.Request(url, headers={"Accept": PROTOBUF_ACCEPT})
        with urllib.request.urlopen(request, timeout=5) as r:
            assert r.headers["Content-Type"] == PROMETHEUS_PROTOBUF_CONTENT_TYPE
            fams = {f.name: f for f in native_reader.families(r.read())}
        assert set(fams) == {"requests_total", "temperature", "rpc_latency_seconds"}
        assert fams["rpc_latency_seconds"].metrics[0][1].count == 1
        assert fams["requests_total"].type == 0 and fams["temperature"].type == 1
        with urllib.request.urlopen(url, timeout=5) as r:
            assert r.headers["Content-Type"].startswith("text/plain")
            text = r.read().decode("utf-8")
        assert 'requests_total{code="200"} 3.0' in text
        assert "rpc_latency_seconds_count 1.0" in text
        request = urllib.request.Request(
            url, headers={"Accept": "application/openmetrics-text; version=1.0.0"})
        with urllib.request.urlopen(request, timeout=5) as r:
            assert r.headers["Content-Type"].startswith("application/openmetrics-text")
            assert r.read().decode("utf-8").endswith("# EOF\n")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_client_families_in_protobuf_read_back_by_field(registry):
    """Counters, gauges, summaries and classic histograms of prometheus_client, read from
    the wire format with the tests' reader."""
    prometheus_client.Counter("jobs", "jobs", registry=registry).inc(2)
    s = prometheus_client.Summary("size_bytes", "size", registry=registry)
    s.observe(10)
    s.observe(30)
    c = prometheus_client.Histogram("classic_seconds", "c", registry=registry,
                                    buckets=(0.1, 1.0))
    c.observe(0.05)
    c.observe(0.5)
    fams = {f.name: f for f in native_reader.families(generate_protobuf(registry))}
    assert fams["size_bytes"].type == 2 and fams["classic_seconds"].type == 4
    classic = fams["classic_seconds"].metrics[0][1]
    assert (classic.count, classic.sum) == (2, 0.55)
    assert classic.classic == [(0.1, 1), (1.0, 2)]
    body = generate_protobuf(registry)
    (jobs,) = [m for m in _metrics(body, "jobs_total")]
    counter = dict(native_reader.fields(dict(native_reader.fields(jobs))[3]))
    assert native_reader._double(counter[1]) == 2.0
    (size,) = [m for m in _metrics(body, "size_bytes")]
    summary = dict(native_reader.fields(dict(native_reader.fields(size))[4]))
    assert summary[1] == 2 and native_reader._double(summary[2]) == 40.0


def _metrics(body: bytes, name: str) -> list[bytes]:
    """The raw Metric messages of family ``name``."""
    out, at = [], 0
    while at < len(body):
        size, at = native_reader._varint(body, at)
        f = native_reader.fields(body[at:at + size])
        at += size
        if dict(f)[1].decode() == name:
            out.extend(v for k, v in f if k == 4)
    return out
