"""Histogram.collect and picollo.metrics: OpenMetrics text, Prometheus buckets, the
prometheus_client collector. Expected figures are computed here from the buckets."""

from __future__ import annotations

import datetime as dt
import math
import re
import threading

import numpy as np
import pytest

from conftest import buckets
from picollo import ClosedError, Histogram, InvalidArgumentError, metrics
from picollo.metrics import OpenMetricsWriter, PrometheusCollector, prometheus_buckets

STANDARD_QUANTILES = [0.5, 0.9, 0.95, 0.99, 0.999, 1.0]


def lognormal(seed: int, size: int, mu: float = 10.0, sigma: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).lognormal(mu, sigma, size).astype(np.uint64)


@pytest.fixture
def h():
    """1 % error, range 100..10**7, with values in range, 3 below and 2 above."""
    with Histogram(relative_error=0.01, min=100, max=10**7) as hist:
        hist.record_many(lognormal(1, 5_000))
        hist.record_many([1, 2, 3, 10**8, 10**9])
        yield hist



def cumulative_at(h: Histogram, bound: int) -> int:
    """Underflow plus the buckets whose highest value is at or below ``bound``."""
    return h.underflow + sum(b.count for b in h if b.highest <= bound)


def midpoint_sum(h: Histogram) -> float:
    return (h.underflow * h.min_trackable + h.overflow * h.max_trackable
            + sum(b.count * b.value for b in h))


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def samples(text: str) -> list[tuple[str, dict[str, str], str]]:
    """(name, labels, value text) of every sample line."""
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        assert m, f"not a sample line: {line!r}"
        labels = dict(LABEL.findall(m.group(2) or ""))
        out.append((m.group(1), labels, m.group(3)))
    return out


# --- collect ------------------------------------------------------------------------------


def test_collect_returns_the_interval_and_restarts_the_histogram():
    with Histogram(relative_error=0.01, min=1, max=10**6, counter_bits=32) as h:
        first, second = lognormal(2, 1_000), lognormal(3, 700)
        h.record_many(first)
        with Histogram(relative_error=0.01, min=1, max=10**6) as expected:
            expected.record_many(first)
            interval = h.collect()
            assert buckets(interval) == buckets(expected)
        assert h.total == 0 and list(h) == []
        # The interval is a single-writer 64-bit histogram of the same layout and range.
        assert (interval.mode, interval.counter_bits) == ("single", 64)
        assert (interval.precision, interval.min_trackable, interval.max_trackable) == (
            h.precision, h.min_trackable, h.max_trackable)
        h.record_many(second)
        h.record(10**7)  # overflow is part of the interval too
        again = h.collect()
        assert again.total == len(second) and again.overflow == 1
        assert interval.total == len(first)  # the first interval did not change
        assert h.collect().total == 0


@pytest.mark.parametrize("mode", ["interlocked", "thread-local"])
def test_collect_loses_nothing_while_a_thread_records(mode):
    n_chunks, chunk = 200, 500
    values = lognormal(4, n_chunks * chunk)
    with Histogram(relative_error=0.01, min=1, max=10**7, mode=mode) as h, \
            Histogram(relative_error=0.01, min=1, max=10**7) as summed:
        done, collecting = threading.Event(), threading.Event()

        def writer():
            # The writer can finish its 100,000 values before the first collect: it waits
            # for one, so that the loop below always collects while it records.
            collecting.wait(timeout=60)
            for k in range(n_chunks):
                h.record_many(values[k * chunk:(k + 1) * chunk])
            done.set()

        t = threading.Thread(target=writer)
        t.start()
        intervals = 0
        while not done.is_set():
            with h.collect() as interval:
                summed.add(interval)
            intervals += 1
            collecting.set()
        t.join()
        with h.collect() as last:
            summed.add(last)
        with Histogram(relative_error=0.01, min=1, max=10**7) as expected:
            expected.record_many(values)
            assert summed.total == len(values)
            assert buckets(summed) == buckets(expected)
        assert intervals >= 1


def test_metrics_of_a_closed_histogram_raise_closed_error():
    h = Histogram(relative_error=0.01, min=1, max=10**6)
    h.close()
    for call in (h.collect, lambda: h.to_openmetrics("x"), lambda: h.to_otlp(name="x"),
                 h.prometheus_buckets):
        with pytest.raises(ClosedError):
            call()


def test_snapshot_collect_fills_the_snapshot_and_restarts_the_source():
    with Histogram(relative_error=0.01, min=1, max=10**6) as h:
        s = h.snapshot()
        h.record_many(lognormal(5, 300))
        assert s.collect() is s
        assert s.total == 300 and h.total == 0
        h.record_many(lognormal(6, 50))
        s.collect()
        assert s.total == 50
        with Histogram(relative_error=0.01, min=1, max=10**7) as other:
            with pytest.raises(ValueError):  # another layout/range than the snapshot's
                s.collect(other)
        s.close()


# --- OpenMetrics ----------------------------------------------------------------------------


def test_openmetrics_histogram_family_with_explicit_bounds(h):
    bounds = [1_000, 10_000, 12_345, 100_000, 5 * 10**6]
    text = metrics.to_openmetrics(
        h, "rpc_latency_seconds", "RPC latency \"all\"\nmethods", "seconds",
        labels=[("method", "get"), ("path", 'a"b\\c')], bounds=bounds, unit_ratio=1e6,
        created=1_700_000_000.25)
    lines = text.splitlines()
    assert lines[:3] == ["# TYPE rpc_latency_seconds histogram",
                         "# UNIT rpc_latency_seconds seconds",
                         '# HELP rpc_latency_seconds RPC latency \\"all\\"\\nmethods']
    assert lines[-1] == "# EOF" and text.endswith("\n")
    got = samples(text)
    buckets = [(lab, int(v)) for name, lab, v in got if name == "rpc_latency_seconds_bucket"]
    assert [lab["le"] for lab, _ in buckets][-1] == "+Inf"
    for (lab, count), bound in zip(buckets, bounds):
        assert lab["method"] == "get" and lab["path"] == 'a\\"b\\\\c'
        assert float(lab["le"]) == pytest.approx(bound / 1e6, rel=1e-15)
        assert count == cumulative_at(h, bound)
    everything = h.total + h.underflow + h.overflow
    assert buckets[-1][1] == everything
    by_name = {name: v for name, _, v in got}
    assert int(by_name["rpc_latency_seconds_count"]) == everything
    assert float(by_name["rpc_latency_seconds_sum"]) == pytest.approx(
        midpoint_sum(h) / 1e6, rel=1e-12)
    assert by_name["rpc_latency_seconds_created"] == "1700000000.25"


def test_openmetrics_coarse_bounds_are_bucket_edges_and_match_prometheus_buckets(h):
    text = h.to_openmetrics("latency", coarse=0.05)
    b = prometheus_buckets(h, coarse=0.05)
    got = [(lab["le"], int(v)) for name, lab, v in samples(text) if name == "latency_bucket"]
    assert len(got) == len(b.buckets)
    for (le_text, count), (le, cumulative) in zip(got, b.buckets):
        assert (float("inf") if le_text == "+Inf" else float(le_text)) == le
        assert count == cumulative
    highest = {bk.highest for bk in h.buckets()}
    finite = [le for le, _ in b.buckets[:-1]]
    assert b.buckets[-1][0] == math.inf
    assert all(int(le) in highest for le in finite)
    assert finite == sorted(set(finite))
    for le, c in b.buckets[:-1]:
        assert c == cumulative_at(h, int(le))
    # Consecutive bounds stay within the coarse error, unless the next bucket is wider.
    edges = sorted(highest)
    for a, c in zip(finite, finite[1:]):
        assert (c - a) <= 0.05 * (a + c) or edges[edges.index(a) + 1] == c
    assert b.count == h.total + h.underflow + h.overflow
    assert b.sum == pytest.approx(midpoint_sum(h), rel=1e-12)


def test_openmetrics_summary_family(h):
    text = metrics.to_openmetrics(h, "latency", summary=True, unit_ratio=1e3,
                                  labels={"zone": "a"})
    assert text.startswith("# TYPE latency summary\n")
    got = samples(text)
    quantiles = [(float(lab["quantile"]), float(v)) for name, lab, v in got
                 if name == "latency"]
    assert [q for q, _ in quantiles] == STANDARD_QUANTILES
    for q, v in quantiles:
        assert v == pytest.approx(h.percentile(q * 100).value / 1e3, rel=1e-15)
    assert all(lab == {"zone": "a"} or "quantile" in lab for _, lab, _ in got)
    assert not any(name == "latency_created" for name, _, _ in got)


def test_openmetrics_parses_with_prometheus_clients_parser(h):
    parser = pytest.importorskip(
        "prometheus_client.openmetrics.parser",
        reason="prometheus_client is not installed (pip install -r python-demo/requirements.txt)")
    text = metrics.to_openmetrics(h, "latency_seconds", "help", "seconds",
                                  labels={"a": "1"}, unit_ratio=1e9,
                                  created=dt.datetime(2024, 1, 2, tzinfo=dt.timezone.utc))
    (family,) = list(parser.text_string_to_metric_families(text))
    assert (family.name, family.type, family.unit, family.documentation) == (
        "latency_seconds", "histogram", "seconds", "help")
    names = [s.name for s in family.samples]
    assert names.count("latency_seconds_count") == 1
    created = [s.value for s in family.samples if s.name == "latency_seconds_created"]
    assert created == [dt.datetime(2024, 1, 2, tzinfo=dt.timezone.utc).timestamp()]


@pytest.mark.parametrize("name, unit, labels, options", [
    ("1latency", "", None, {}),                       # not a metric name
    ("latency_bucket", "", None, {}),                 # a sample's suffix
    ("latency", "seconds", None, {}),                 # not suffixed with its unit
    ("latency", "", {"le": "1"}, {}),                 # the family's own label
    ("latency", "", {"__x": "1"}, {}),                # reserved label name
    ("latency", "", [("a", "1"), ("a", "2")], {}),    # duplicate label
    ("latency", "", None, {"bounds": [10, 10]}),      # not strictly increasing
    ("latency", "", None, {"coarse": 1.0}),           # coarse error outside (0, 1)
    ("latency", "", None, {"unit_ratio": 0.0}),
    ("latency", "", None, {"unit_ratio": math.nan}),
])
def test_openmetrics_refuses_what_the_format_refuses(h, name, unit, labels, options):
    with pytest.raises(InvalidArgumentError):
        metrics.to_openmetrics(h, name, unit=unit, labels=labels, **options)


def test_openmetrics_argument_types_are_checked_before_the_call(h):
    with pytest.raises(TypeError):
        metrics.to_openmetrics(h, "x", labels="a=b")
    with pytest.raises(TypeError):
        metrics.to_openmetrics(h, "x", labels={"a": 1})
    with pytest.raises(ValueError):
        metrics.to_openmetrics(h, "x", bounds=[-1, 5])
    with pytest.raises(ValueError):
        metrics.to_openmetrics(h, "x", created=-5)
    with pytest.raises(TypeError):
        metrics.to_openmetrics(object(), "x")


def test_the_writer_joins_families_and_points(h):
    other = Histogram(relative_error=0.01, min=100, max=10**7)
    other.record_many(lognormal(9, 1_000))
    w = OpenMetricsWriter()
    w.family("rpc_seconds", "RPC", "seconds", unit_ratio=1e6, bounds=[1_000, 100_000])
    w.point(h, {"method": "get"}).point(other, {"method": "put"})
    w.family("queue", summary=True).point(other)
    text = w.finish()
    assert text.endswith("# EOF\n") and text.count("# EOF") == 1
    one = metrics.to_openmetrics(h, "rpc_seconds", "RPC", "seconds", unit_ratio=1e6,
                                 bounds=[1_000, 100_000], labels={"method": "get"})
    two = metrics.to_openmetrics(other, "rpc_seconds", unit_ratio=1e6,
                                 bounds=[1_000, 100_000], labels={"method": "put"})
    three = metrics.to_openmetrics(other, "queue", summary=True)
    strip = lambda t: t.removesuffix("# EOF\n")  # noqa: E731
    point_two = "".join(line + "\n" for line in strip(two).splitlines()
                        if not line.startswith("#"))
    assert text == strip(one) + point_two + strip(three) + "# EOF\n"
    assert w.text() == text
    with pytest.raises(ValueError):
        w.family("more")  # nothing after # EOF
    w.close()
    with pytest.raises(ClosedError):
        w.text()
    other.close()


def test_the_writer_refuses_a_duplicate_family_and_a_foreign_layout(h):
    with OpenMetricsWriter() as w:
        w.family("a").point(h)
        with pytest.raises(InvalidArgumentError):
            w.family("a")
        w.family("b").point(h)
        with Histogram(relative_error=0.05, min=100, max=10**7) as coarse:
            with pytest.raises(ValueError):
                w.point(coarse)  # another layout than the family's first point
        w.point(h, {"x": "1"})
        text = w.finish()
    assert text.count("# TYPE a histogram") == 1 and text.count("# TYPE b histogram") == 1
    assert 'b_count{x="1"}' in text


# --- prometheus_client ------------------------------------------------------------------


def test_the_collector_exposes_the_buckets(h):
    prom = pytest.importorskip(
        "prometheus_client",
        reason="prometheus_client is not installed (pip install -r python-demo/requirements.txt)")
    from prometheus_client.openmetrics.exposition import generate_latest as om_latest

    other = Histogram(relative_error=0.01, min=100, max=10**7)
    other.record_many(lognormal(11, 2_000))
    registry = prom.CollectorRegistry()
    registry.register(PrometheusCollector(
        {"rpc_latency_seconds": [({"method": "get"}, h), ({"method": "put"}, other)],
         "single_seconds": other},
        documentation={"rpc_latency_seconds": "RPC latency"}, unit_ratio=1e6))
    families = {f.name: f for f in registry.collect()}
    assert set(families) == {"rpc_latency_seconds", "single_seconds"}
    rpc = families["rpc_latency_seconds"]
    assert (rpc.type, rpc.documentation) == ("histogram", "RPC latency")
    for method, hist in (("get", h), ("put", other)):
        b = prometheus_buckets(hist, unit_ratio=1e6)
        got = [(float(s.labels["le"]), s.value) for s in rpc.samples
               if s.name == "rpc_latency_seconds_bucket" and s.labels["method"] == method]
        assert got == [(le, c) for le, c in b.buckets]
        (count,) = [s.value for s in rpc.samples
                    if s.name == "rpc_latency_seconds_count" and s.labels["method"] == method]
        (total,) = [s.value for s in rpc.samples
                    if s.name == "rpc_latency_seconds_sum" and s.labels["method"] == method]
        assert count == hist.total + hist.underflow + hist.overflow == b.count
        assert total == b.sum
    # Each scrape reads the histograms again.
    before = [s.value for s in families["single_seconds"].samples
              if s.name == "single_seconds_count"]
    other.record(1_000)
    after = [s.value for f in registry.collect() if f.name == "single_seconds"
             for s in f.samples if s.name == "single_seconds_count"]
    assert after == [before[0] + 1]
    # The scrape's text (OpenMetrics) reads back to the same figures.
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    text = om_latest(registry).decode()
    assert text.endswith("# EOF\n")
    parsed = {f.name: f for f in text_string_to_metric_families(text)}
    (inf,) = [s.value for s in parsed["rpc_latency_seconds"].samples
              if s.name == "rpc_latency_seconds_bucket" and s.labels == {
                  "method": "get", "le": "+Inf"}]
    assert inf == h.total + h.underflow + h.overflow
    # The registry knows the names without a scrape: a second registration clashes.
    with pytest.raises(ValueError):
        registry.register(PrometheusCollector({"single_seconds": h}))
    other.close()


def test_the_collector_refuses_series_with_different_label_names(h):
    with pytest.raises(ValueError):
        PrometheusCollector({"x": [({"a": "1"}, h), ({"b": "1"}, h)]})
    with pytest.raises(TypeError):
        PrometheusCollector({"x": [({"a": "1"}, object())]})
