"""A real Prometheus server scrapes Picollo histograms served by prometheus_client.

The test starts a prometheus_client HTTP server on 127.0.0.1 (a registry holding a
`PrometheusCollector`), then Debian's ``prometheus`` (installed by scripts/setup.sh) on
127.0.0.1 with a temporary configuration and storage, scraping it every second. After a few
scrapes it asks Prometheus's HTTP API for ``histogram_quantile(0.99, …_bucket)``, ``…_count``
and ``…_sum`` and compares them with Picollo's own figures: the count and sum exactly (they
are what the collector exposed), the 0.99 quantile within the exported bucket that holds
Picollo's P99. Both servers are stopped whatever happens.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from picollo import Histogram
from picollo.metrics import PrometheusCollector, prometheus_buckets

prometheus_client = pytest.importorskip(
    "prometheus_client",
    reason="prometheus_client is not installed (pip install -r python-demo/requirements.txt)")

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
if not os.access(PROMETHEUS, os.X_OK):
    pytest.skip("the prometheus server is not installed (Debian package `prometheus`; "
                "scripts/setup.sh installs it)", allow_module_level=True)

UNIT_RATIO = 1e9  # nanoseconds recorded, seconds exposed
FAMILY = "rpc_latency_seconds"
SCRAPES = 3
WAIT_S = 30.0
SERIES = {"get": (15.0, 0.6, 20_000), "put": (17.0, 0.4, 5_000)}  # lognormal(mu, sigma), size


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str, timeout: float = 2.0) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read().decode("utf-8"))


class Prometheus:
    """A Prometheus server on 127.0.0.1 with its own configuration and storage."""

    def __init__(self, workdir: Path, target_port: int):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = workdir / "prometheus.yml"
        config.write_text(
            "global:\n"
            "  scrape_interval: 1s\n"
            "  scrape_timeout: 1s\n"
            "  evaluation_interval: 1s\n"
            "scrape_configs:\n"
            "  - job_name: picollo\n"
            "    static_configs:\n"
            f"      - targets: ['127.0.0.1:{target_port}']\n",
            encoding="utf-8")
        self.log_path = workdir / "prometheus.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [PROMETHEUS, f"--config.file={config}",
             f"--storage.tsdb.path={workdir / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}",
             "--log.level=warn"],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT)

    def log_tail(self) -> str:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-3000:]

    def query(self, expr: str, at=None) -> list[dict]:
        """The result of ``expr`` now, or at the evaluation time ``at``."""
        params = {"query": expr} if at is None else {"query": expr, "time": at}
        url = f"{self.base}/api/v1/query?" + urllib.parse.urlencode(params)
        body = get_json(url)
        assert body.get("status") == "success", body
        return body["data"]["result"]

    def wait_for(self, what: str, ready, deadline: float):
        """Poll ``ready()`` (None: not yet) until it answers or the deadline passes."""
        last = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"prometheus exited with {self.process.returncode} while waiting "
                            f"for {what}:\n{self.log_tail()}")
            try:
                found = ready()
            except (urllib.error.URLError, ConnectionError, OSError) as e:
                found, last = None, e
            if found is not None:
                return found
            time.sleep(0.25)
        pytest.fail(f"no {what} within {WAIT_S:.0f} s (last error: {last}):\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        self._log.close()


@pytest.fixture
def histograms():
    """Two latency histograms in nanoseconds (1 % relative error), every value in range."""
    rng = np.random.default_rng(7)
    hists, values = {}, {}
    for method, (mu, sigma, size) in SERIES.items():
        v = np.clip(rng.lognormal(mu, sigma, size), 1_000, 10**10).astype(np.uint64)
        h = Histogram(relative_error=0.01, min=1_000, max=10**10)
        h.record_many(v)
        assert h.underflow == 0 and h.overflow == 0
        hists[method], values[method] = h, np.sort(v)
    yield hists, values
    for h in hists.values():
        h.close()


@pytest.fixture
def exporter(histograms):
    """A prometheus_client HTTP server on 127.0.0.1 serving the histograms."""
    hists, _ = histograms
    registry = prometheus_client.CollectorRegistry()
    registry.register(PrometheusCollector(
        {FAMILY: [({"method": m}, h) for m, h in hists.items()]},
        documentation="RPC latency", unit_ratio=UNIT_RATIO))
    port = free_port()
    server, thread = prometheus_client.start_http_server(port, addr="127.0.0.1",
                                                         registry=registry)
    try:
        yield port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def prometheus(tmp_path, exporter):
    server = Prometheus(tmp_path, exporter)
    try:
        yield server
    finally:
        server.stop()


def by_method(result: list[dict]) -> dict[str, float]:
    return {r["metric"].get("method"): float(r["value"][1]) for r in result}


def test_prometheus_scrapes_the_collector_and_agrees_with_picollo(prometheus, histograms):
    hists, values = histograms
    deadline = time.monotonic() + WAIT_S
    prometheus.wait_for("ready server", lambda: urllib.request.urlopen(
        f"{prometheus.base}/-/ready", timeout=2).status == 200 or None, deadline)
    # A few scrapes of both series.
    scrapes = prometheus.wait_for(
        f"{SCRAPES} scrapes", lambda: (lambda r: r if len(r) == len(SERIES) and all(
            v >= SCRAPES for v in r.values()) else None)(
            by_method(prometheus.query(f"count_over_time({FAMILY}_count[1m])"))), deadline)
    assert set(scrapes) == set(SERIES)

    # A time at which the last scrape succeeded (a scrape that fails, on a loaded machine,
    # marks the series stale until the next): every query reads the scrape of that time.
    at = prometheus.wait_for("a successful scrape", lambda: (lambda up: up[0]["value"][0] if [
        float(r["value"][1]) for r in up] == [1.0] else None)(
        prometheus.query('up{job="picollo"}')), deadline)

    counts = by_method(prometheus.query(f"{FAMILY}_count", at))
    sums = by_method(prometheus.query(f"{FAMILY}_sum", at))
    p99s = by_method(prometheus.query(f"histogram_quantile(0.99, {FAMILY}_bucket)", at))
    report = []
    for method, h in hists.items():
        b = prometheus_buckets(h, unit_ratio=UNIT_RATIO)
        total = h.total
        # _count: every record (all in range here), exactly as exposed.
        assert counts[method] == total == b.count == len(values[method])
        # _sum: the collector's figure (round-tripped through the text exactly), and within
        # the layout's relative error of the true sum.
        assert sums[method] == pytest.approx(b.sum, rel=1e-12)
        true_sum = float(values[method].astype(np.float64).sum()) / UNIT_RATIO
        assert sums[method] == pytest.approx(true_sum, rel=h.precision)
        # histogram_quantile interpolates inside the bucket holding rank 0.99 × count:
        # it must be the exported bucket that holds Picollo's P99.
        ours = h.percentile(99).value / UNIT_RATIO
        theirs = p99s[method]
        rank = 0.99 * b.count
        i = next(k for k, (_, c) in enumerate(b.buckets) if c >= rank)
        upper = b.buckets[i][0]
        lower = b.buckets[i - 1][0] if i > 0 else 0.0
        assert math.isfinite(upper), "P99 fell in the +Inf bucket"
        assert lower <= ours <= upper * (1 + 1e-12), (lower, ours, upper)
        assert lower * (1 - 1e-12) <= theirs <= upper * (1 + 1e-12), (lower, theirs, upper)
        assert abs(theirs - ours) <= (upper - lower) * (1 + 1e-9)
        # and both within the exported resolution of the true P99 (rank ceil(0.99 n)).
        target = max(math.ceil(0.99 * len(values[method])), 1)
        true_p99 = float(values[method][target - 1]) / UNIT_RATIO
        assert lower * (1 - h.precision) <= true_p99 <= upper * (1 + 1e-12)
        report.append(f"{method}: count {counts[method]:.0f} (picollo {total}), "
                      f"sum {sums[method]:.6f} s (picollo {b.sum:.6f}, true {true_sum:.6f}), "
                      f"p99 {theirs:.6f} s (picollo {ours:.6f}, true {true_p99:.6f}, "
                      f"bucket ({lower:.6f}, {upper:.6f}])")
    print("\nPrometheus vs Picollo:\n  " + "\n  ".join(report))
