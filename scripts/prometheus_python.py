#!/usr/bin/env python3
"""A Python service's `picollo.prometheus.Histogram` scraped by a real Prometheus
(scripts/prometheus.sh runs it after scripts/prometheus_native.py).

One registry holds a labelled `picollo.prometheus.Histogram` fed a known distribution
(log-normal latencies from a fixed seed, through ``observe``) and a prometheus_client
Counter. It is served twice on 127.0.0.1: by `picollo.prometheus.start_http_server` (target
N: Prometheus asks for protobuf and gets native histograms) and by prometheus_client's own
``start_http_server`` (target C: text, classic buckets). One ``prometheus`` with native
histograms on scrapes both every second; through its HTTP API:

- N: ``histogram_count`` equals the values observed; ``histogram_quantile(q, …)`` for
  q = 0.5, 0.9, 0.99 is within ``base / (1 - e) - 1`` of the true quantile of the values
  (``e`` the layout's relative error, ``base`` the native bucket's ratio: Prometheus
  interpolates inside the native bucket that holds Picollo's bucket's midpoint);
- N: the Counter, sent in the protobuf exposition too, reads back;
- C: ``histogram_quantile(q, …_bucket)`` lies in the classic bucket ``(lower, upper]`` that
  holds the true quantile (the counts are exact at those bounds), and the count matches.

Prints each figure; exits 1 on the first check that fails.
"""

from __future__ import annotations

import math
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import prometheus_client  # noqa: E402
from prometheus_native import Prometheus, check_close, fail  # noqa: E402

import native_reader  # noqa: E402  (python-demo/tests, put on sys.path by prometheus_native)
from picollo.prometheus import Histogram, generate_protobuf, start_http_server  # noqa: E402

SEED = 20_261_129
SERIES = {"get": (-6.0, 1.0, 20_000), "put": (-4.5, 0.6, 5_000)}  # lognormal(mu, sigma), n
FAMILY = "picollo_demo_rpc_latency_seconds"
QUANTILES = (0.5, 0.9, 0.99)


def observe_all(h: Histogram) -> dict[str, list[float]]:
    """Every value observed, per method, rounded to the nanosecond the histogram keeps."""
    rng = random.Random(SEED)
    values = {}
    for method, (mu, sigma, n) in SERIES.items():
        v = [round(rng.lognormvariate(mu, sigma), 9) for _ in range(n)]
        child = h.labels(method)
        for x in v:
            child.observe(x)
        values[method] = sorted(v)
    return values


def true_quantile(values: list[float], q: float) -> float:
    return values[max(math.ceil(q * len(values)), 1) - 1]


def check_native(prometheus: Prometheus, selector: str, values: list[float],
                 bound: float) -> None:
    count = prometheus.value(f"histogram_count({selector})", float(len(values)))
    check_close(f"histogram_count({selector})", count, float(len(values)))
    at = prometheus.at
    for q in QUANTILES:
        got = prometheus.value(f"histogram_quantile({q}, {selector})", at=at)
        true = true_quantile(values, q)
        error = abs(got - true) / true
        ok = error <= bound
        print(f"  native histogram_quantile({q}): Prometheus {got:.9g}, true {true:.9g}, "
              f"error {error:.3%} (bound {bound:.3%}) {'ok' if ok else 'OUTSIDE'}")
        if not ok:
            fail(f"native quantile {q}: {got} vs {true}")


def check_classic(prometheus: Prometheus, selector: str, values: list[float],
                  buckets: list[tuple[float, int]]) -> None:
    count = prometheus.value(f"{FAMILY}_count{selector}", float(len(values)))
    check_close(f"{FAMILY}_count{selector}", count, float(len(values)))
    at = prometheus.at
    for q in QUANTILES:
        got = prometheus.value(f"histogram_quantile({q}, {FAMILY}_bucket{selector})", at=at)
        true = true_quantile(values, q)
        rank = q * len(values)
        i = next(k for k, (_, c) in enumerate(buckets) if c >= rank)
        lower, upper = (buckets[i - 1][0] if i else 0.0), buckets[i][0]
        ok = lower <= got <= upper and lower < true <= upper
        print(f"  classic histogram_quantile({q}): Prometheus {got:.9g}, true {true:.9g}, "
              f"bucket ({lower:.9g}, {upper:.9g}] {'ok' if ok else 'OUTSIDE'}")
        if not ok:
            fail(f"classic quantile {q}: {got} or {true} outside ({lower}, {upper}]")


def main() -> int:
    registry = prometheus_client.CollectorRegistry()
    h = Histogram(FAMILY, "RPC latency of the demo service", ["method"], registry=registry)
    requests = prometheus_client.Counter("picollo_demo_requests", "requests", registry=registry)
    values = observe_all(h)
    requests.inc(sum(len(v) for v in values.values()))
    picollo = h.histograms()
    e = picollo[("get",)].precision
    native_server, _ = start_http_server(0, registry=registry)
    classic_server, _ = prometheus_client.start_http_server(0, addr="127.0.0.1",
                                                            registry=registry)
    native_port, classic_port = native_server.server_address[1], classic_server.server_address[1]
    workdir = Path(tempfile.mkdtemp(prefix="picollo-prometheus-python-"))
    prometheus = Prometheus([native_port, classic_port], workdir)
    start = time.monotonic()
    try:
        schema = next(f for f in native_reader.families(generate_protobuf(registry))
                      if f.name == FAMILY).metrics[0][1].schema
        base = 2.0 ** (2.0 ** -schema)
        print(f"prometheus (python service): {sum(len(v) for v in values.values())} values, "
              f"relative error {e:.4%}, native schema {schema}")
        for method, v in values.items():
            check_native(prometheus, f'{FAMILY}{{instance="127.0.0.1:{native_port}", '
                         f'method="{method}"}}', v, base / (1 - e) - 1)
            classic = h.exposed_buckets(method).buckets
            check_classic(prometheus, f'{{instance="127.0.0.1:{classic_port}", '
                          f'method="{method}"}}', v, classic)
        total = float(sum(len(v) for v in values.values()))
        check_close("picollo_demo_requests_total (protobuf)", prometheus.value(
            f'picollo_demo_requests_total{{instance="127.0.0.1:{native_port}"}}', total), total)
    finally:
        prometheus.stop()
        for server in (native_server, classic_server):
            server.shutdown()
            server.server_close()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"prometheus (python service): all checks passed "
          f"({time.monotonic() - start:.0f} s of scrapes and queries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
