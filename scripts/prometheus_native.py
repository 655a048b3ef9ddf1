#!/usr/bin/env python3
"""Picollo's native histograms scraped by a real Prometheus (scripts/prometheus.sh runs it).

Serves Picollo's protobuf exposition from two `http.server` targets on 127.0.0.1 (the
`picollo.metrics.prometheus_native_handler`), starts ``prometheus`` bound to 127.0.0.1 with
``--enable-feature=native-histograms``, a temporary storage and 1 s scrapes, and asks its
HTTP API:

- ``histogram_count`` and ``histogram_sum`` of a latency histogram equal Picollo's;
- ``histogram_quantile(0.99, m)`` lies in the native bucket of Picollo's P99;
- ``histogram_quantile(0.99, sum(m))`` over both targets lies in the native bucket of the
  P99 of the two histograms merged by Picollo;
- an empty histogram is scraped as a native one (``histogram_count`` gives 0);
- a histogram of doubles with both signs and zeros: count, sum, and the 0.05 and 0.99
  quantiles in the buckets of Picollo's.

Prints each figure; exits 1 on the first check that fails. Prometheus and the servers are
stopped whatever happens. Needs the picollo package (python-demo, with libpicollo) and the
native_reader of python-demo/tests (the tests' reader of the exposition).
"""

from __future__ import annotations

import http.server
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python-demo" / "tests"))

import native_reader  # noqa: E402
from picollo import FloatHistogram, Histogram  # noqa: E402
from picollo.metrics import prometheus_native_handler, to_prometheus_native  # noqa: E402

RATIO = 1e9  # nanoseconds recorded, seconds exposed
WAIT_S = 40.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fail(message: str) -> None:
    print(f"prometheus: FAIL: {message}", file=sys.stderr)
    raise SystemExit(1)


def latencies(seed: int, mu: float, n: int) -> Histogram:
    """Log-normal latencies in nanoseconds (a small xorshift, no numpy)."""
    h = Histogram(relative_error=0.01, min=1_000, max=10**11)
    x = seed
    for _ in range(n):
        total = 0.0
        for _ in range(12):  # Irwin-Hall: about a standard normal
            x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
            x ^= x >> 7
            x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
            total += (x >> 11) / 2.0**53
        h.record(int(math.exp(mu + 0.6 * (total - 6.0))))
    return h


def serve(body) -> tuple[http.server.ThreadingHTTPServer, int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), prometheus_native_handler(body))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def quantile_bucket(h: native_reader.Native, q: float) -> tuple[float, float]:
    """The native bucket holding the ceil(q·count)-th value in value order."""
    rank, seen = max(1, math.ceil(q * h.count)), 0
    for index in sorted(h.negative, reverse=True):
        seen += h.negative[index]
        if seen >= rank:
            low, high = h.bounds(index)
            return -high, -low
    seen += h.zero_count
    if seen >= rank:
        return (-h.zero_threshold if h.negative else 0.0), h.zero_threshold
    for index in sorted(h.positive):
        seen += h.positive[index]
        if seen >= rank:
            return h.bounds(index)
    raise ValueError("rank beyond the count")


class Prometheus:
    """A prometheus on 127.0.0.1 scraping ``targets`` every second; with ``native`` (the
    default) native histograms are on, so it asks for the protobuf exposition; without, it
    asks for text and keeps classic buckets."""

    def __init__(self, targets: list[int], workdir: Path, native: bool = True):
        self.port = free_port()
        self.at = None
        config = workdir / "prometheus.yml"
        listed = ", ".join(f"'127.0.0.1:{p}'" for p in targets)
        config.write_text(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
            "scrape_configs:\n  - job_name: picollo\n"
            f"    static_configs:\n      - targets: [{listed}]\n")
        binary = shutil.which("prometheus") or "/usr/bin/prometheus"
        self.log = open(workdir / "prometheus.log", "w")
        features = ["--enable-feature=native-histograms"] if native else []
        self.process = subprocess.Popen(
            [binary, f"--config.file={config}", f"--storage.tsdb.path={workdir / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}", *features],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def query(self, expr: str, at=None) -> list[dict]:
        """The result of ``expr`` now, or at the evaluation time ``at``."""
        params = {"query": expr} if at is None else {"query": expr, "time": at}
        url = f"http://127.0.0.1:{self.port}/api/v1/query?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=5) as r:
            answer = json.loads(r.read().decode("utf-8"))
        if answer.get("status") != "success":
            fail(f"{expr}: {answer}")
        return answer["data"]["result"]

    def value(self, expr: str, want=None, at=None) -> float:
        """The single sample of ``expr``, waiting for scrapes until there is one (and, with
        ``want``, until it equals it); at the evaluation time ``at`` where given. The time of
        the sample returned is kept in ``self.at``: queries pinned to it read the same
        scrapes (a scrape that failed since, its series marked stale, does not change them)."""
        deadline = time.monotonic() + WAIT_S
        while True:
            if self.process.poll() is not None:
                fail(f"prometheus exited with {self.process.returncode}")
            try:
                result = self.query(expr, at)
            except OSError:
                result = []
            if len(result) == 1:
                v = float(result[0]["value"][1])
                if want is None or v == want:
                    self.at = result[0]["value"][0]
                    return v
            if time.monotonic() > deadline:
                fail(f"{expr}: {result} after {WAIT_S:.0f} s (wanted {want})")
            time.sleep(0.5)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def check_close(what: str, got: float, want: float) -> None:
    ok = math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
    print(f"  {what}: Prometheus {got!r}, Picollo {want!r} {'ok' if ok else 'DIFFERS'}")
    if not ok:
        fail(f"{what}: {got} != {want}")


def check_in(what: str, got: float, bucket: tuple[float, float], picollo: float) -> None:
    low, high = bucket
    ok = low <= got <= high
    print(f"  {what}: Prometheus {got:.9g}, Picollo {picollo:.9g}, "
          f"native bucket ({low:.9g}, {high:.9g}] {'ok' if ok else 'OUTSIDE'}")
    if not ok:
        fail(f"{what}: {got} outside ({low}, {high}]")


def main() -> int:
    a, b = latencies(0x2545F4914F6CDD1D, 15.0, 20_000), latencies(0x9E3779B97F4A7C15, 15.6, 5_000)
    merged = Histogram(relative_error=0.01, min=1_000, max=10**11)
    merged.add(a)
    merged.add(b)
    empty = Histogram(relative_error=0.01, min=1_000, max=10**11)
    doubles = FloatHistogram(relative_error=0.01)
    for k in range(1, 2001):
        doubles.record(-0.25 * k)        # -0.25 .. -500
        doubles.record(0.001 * k * k)    # 0.001 .. 4000
    for _ in range(300):
        doubles.record(0.0)
    doubles.record(-0.0)

    def native(h, name):
        return to_prometheus_native(h, name, help=f"Picollo {name}",
                                    unit_ratio=RATIO if isinstance(h, Histogram) else 1.0)

    body_a = (native(a, "rpc_latency_seconds") + native(empty, "empty_seconds")
              + native(doubles, "temperature_delta"))
    body_b = native(b, "rpc_latency_seconds")
    read = {f.name: f.metrics[0][1] for f in native_reader.families(body_a)}
    read_merged = native_reader.families(native(merged, "rpc_latency_seconds"))[0].metrics[0][1]

    servers = [serve(lambda: body_a), serve(lambda: body_b)]
    (_, port_a), (_, port_b) = servers
    workdir = Path(tempfile.mkdtemp(prefix="picollo-prometheus-"))
    prometheus = Prometheus([port_a, port_b], workdir)
    start = time.monotonic()
    try:
        inst_a = f'instance="127.0.0.1:{port_a}"'
        m_a = f"rpc_latency_seconds{{{inst_a}}}"
        native_a = read["rpc_latency_seconds"]
        print(f"prometheus: schema {native_a.schema}, zero threshold {native_a.zero_threshold!r}; "
              f"A {a.total} values, B {b.total}")
        count = prometheus.value(f"histogram_count({m_a})", float(a.total))
        check_close("histogram_count(A)", count, float(a.total))
        at = prometheus.at
        check_close("histogram_sum(A)", prometheus.value(f"histogram_sum({m_a})", at=at),
                    native_a.sum)
        p99 = a.percentile(99).value / RATIO
        check_in("histogram_quantile(0.99, A)",
                 prometheus.value(f"histogram_quantile(0.99, {m_a})", at=at),
                 quantile_bucket(native_a, 0.99), p99)

        total = float(a.total + b.total)
        prometheus.value("histogram_count(sum(rpc_latency_seconds))", total)
        at = prometheus.at
        check_close("histogram_count(sum(A, B))",
                    prometheus.value("histogram_count(sum(rpc_latency_seconds))", at=at), total)
        check_in("histogram_quantile(0.99, sum(A, B))",
                 prometheus.value("histogram_quantile(0.99, sum(rpc_latency_seconds))", at=at),
                 quantile_bucket(read_merged, 0.99), merged.percentile(99).value / RATIO)

        check_close("histogram_count(empty), a native series",
                    prometheus.value("histogram_count(empty_seconds)"), 0.0)

        d = read["temperature_delta"]
        check_close("histogram_count(doubles)",
                    prometheus.value("histogram_count(temperature_delta)", float(d.count)),
                    float(d.count))
        at = prometheus.at
        check_close("histogram_sum(doubles)",
                    prometheus.value("histogram_sum(temperature_delta)", at=at), doubles.sum)
        for q in (0.05, 0.99):
            check_in(f"histogram_quantile({q}, doubles)",
                     prometheus.value(f"histogram_quantile({q}, temperature_delta)", at=at),
                     quantile_bucket(d, q), doubles.percentile(100 * q).value)
    finally:
        prometheus.stop()
        for server, _ in servers:
            server.shutdown()
            server.server_close()
        if os.environ.get("PICOLLO_KEEP_PROMETHEUS_LOG"):
            print((workdir / "prometheus.log").read_text())
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"prometheus: all checks passed ({time.monotonic() - start:.0f} s of scrapes and queries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
