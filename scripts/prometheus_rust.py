#!/usr/bin/env python3
"""A Rust service recording through the `metrics` facade into Picollo, scraped by real
Prometheus servers (scripts/prometheus.sh runs it: ``prometheus_rust.py SERVE_BINARY``).

Starts metrics/examples/serve.rs (20,000 log-normal latencies recorded with
``metrics::histogram!``, one JSON line with the exact quantiles), then two prometheus on
127.0.0.1 scraping it every second: one with native histograms on (it asks for the protobuf
exposition), one without (OpenMetrics text, classic buckets). Checks:

- native: ``histogram_count`` equals the count, ``histogram_sum`` the sum; each
  ``histogram_quantile(q)`` (q = 0.5, 0.9, 0.99) lies within ``(1+e)(1+2x)−1`` of the true
  quantile, ``e`` the layout's relative error and ``x = (base−1)/(base+1)`` the native
  schema's (the value's Picollo bucket goes whole into the native bucket of its midpoint,
  and Prometheus interpolates inside that bucket, which spans ``2x``); the error is printed
  beside ``e``;
- classic: ``_count`` equals the count; each ``histogram_quantile(q, _bucket)`` lies in the
  classic bucket ``[le_{k−1}, le_k]`` holding rank ``ceil(q·n)`` of the scraped buckets, and
  that bucket, widened by ``e``, holds the true quantile;
- the counter equals the count in both.

Prints each figure; exits 1 on the first check that fails; stops every process it started.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prometheus_native import Prometheus, check_close, fail  # noqa: E402

QUANTILES = (0.5, 0.9, 0.99)
NAME = "rpc_latency_seconds"


def classic_buckets(addr: str) -> list[tuple[float, float]]:
    """The service's classic buckets `(le, cumulative)` of route /a, from its text."""
    request = urllib.request.Request(f"http://{addr}/metrics",
                                     headers={"Accept": "application/openmetrics-text"})
    with urllib.request.urlopen(request, timeout=5) as r:
        text = r.read().decode("utf-8")
    line = re.compile(NAME + r'_bucket\{route="/a",le="([^"]+)"\} (\S+)$')
    found = [m.groups() for m in map(line.match, text.splitlines()) if m]
    return [(float(le.replace("+Inf", "inf")), float(c)) for le, c in found]


def classic_bucket(buckets: list[tuple[float, float]], q: float, n: int) -> tuple[float, float]:
    """The classic bucket `(le_{k−1}, le_k)` holding rank ceil(q·n); 0 below the first."""
    rank = max(1, math.ceil(q * n))
    for k, (le, cumulative) in enumerate(buckets):
        if cumulative >= rank:
            return (buckets[k - 1][0] if k else min(0.0, le)), le
    fail(f"rank {rank} beyond the buckets")


def check_native(prom: Prometheus, info: dict, series: str) -> None:
    n, e = info["count"], info["relative_error"]
    base = 2.0 ** (2.0 ** -info["schema"])
    x = (base - 1) / (base + 1)
    bound = (1 + e) * (1 + 2 * x) - 1
    check_close("native histogram_count", prom.value(f"histogram_count({series})", float(n)),
                float(n))
    at = prom.at
    got = prom.value(f"histogram_sum({series})", at=at)
    ok = math.isclose(got, info["sum"], rel_tol=1e-9)
    print(f"  native histogram_sum: Prometheus {got!r}, true {info['sum']!r} "
          f"{'ok' if ok else 'DIFFERS'}")
    if not ok:
        fail(f"histogram_sum {got} != {info['sum']}")
    for q in QUANTILES:
        true = info["quantiles"][str(q)]
        got = prom.value(f"histogram_quantile({q}, {series})", at=at)
        error = abs(got - true) / true
        ok = error <= bound
        print(f"  native histogram_quantile({q}): Prometheus {got:.9g}, true {true:.9g}, "
              f"error {error:.3%} (layout's e {e:.1%}, bound {bound:.3%}) "
              f"{'ok' if ok else 'OUTSIDE'}")
        if not ok:
            fail(f"native quantile {q}: {got} vs {true}")


def check_classic(prom: Prometheus, info: dict, series: str, buckets) -> None:
    n, e = info["count"], info["relative_error"]
    check_close("classic _count", prom.value(f"{NAME}_count{series}", float(n)), float(n))
    at = prom.at
    for q in QUANTILES:
        true = info["quantiles"][str(q)]
        low, high = classic_bucket(buckets, q, n)
        got = prom.value(f"histogram_quantile({q}, {NAME}_bucket{series})", at=at)
        ok = low <= got <= high and low * (1 - e) <= true <= high * (1 + e)
        print(f"  classic histogram_quantile({q}): Prometheus {got:.9g}, true {true:.9g}, "
              f"classic bucket [{low:.9g}, {high:.9g}] {'ok' if ok else 'OUTSIDE'}")
        if not ok:
            fail(f"classic quantile {q}: {got} or the true {true} outside [{low}, {high}]")


def main() -> int:
    service = subprocess.Popen([sys.argv[1], "0"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    workdir = Path(tempfile.mkdtemp(prefix="picollo-prometheus-rust-"))
    servers = []
    start = time.monotonic()
    try:
        info = json.loads(service.stdout.readline())
        port = int(info["addr"].rsplit(":", 1)[1])
        print(f"prometheus (Rust metrics facade): {info['count']} values, "
              f"e {info['relative_error']}, schema {info['schema']}, served at {info['addr']}")
        for native in (True, False):
            (workdir / str(native)).mkdir()
            servers.append(Prometheus([port], workdir / str(native), native=native))
        series = f'{{route="/a",instance="127.0.0.1:{port}"}}'
        check_native(servers[0], info, NAME + series)
        check_classic(servers[1], info, series, classic_buckets(info["addr"]))
        n = float(info["count"])
        for prom in servers:
            check_close("rpc_requests_total", prom.value(f"rpc_requests_total{series}", n), n)
    finally:
        for prom in servers:
            prom.stop()
        service.stdin.close()
        try:
            service.wait(timeout=10)
        except subprocess.TimeoutExpired:
            service.kill()
            service.wait()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"prometheus (Rust metrics facade): all checks passed "
          f"({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
