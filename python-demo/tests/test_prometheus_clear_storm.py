"""picollo.prometheus.Histogram under a clear storm: one thread clears (and removes) the
children over and over while another observes and a third scrapes the text and protobuf
expositions. Every scrape parses, no count goes backwards within a child's lifetime
(between two clears), nothing raises, and once the clears stop every observation counts.
"""

from __future__ import annotations

import threading

import pytest

prometheus_client = pytest.importorskip(
    "prometheus_client",
    reason="prometheus_client is not installed (pip install -r python-demo/requirements.txt)")
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

import native_reader  # noqa: E402
from picollo.prometheus import Histogram, generate_protobuf  # noqa: E402

ROUTES = ("a", "b")


def counts(registry) -> tuple[dict[str, float], dict[str, int]]:
    """Each route's count in the text and in the protobuf exposition (each parsed whole)."""
    text = prometheus_client.generate_latest(registry).decode("utf-8")
    text_counts = {s.labels["route"]: s.value
                   for f in text_string_to_metric_families(text) for s in f.samples
                   if s.name == "storm_seconds_count"}
    native = {labels["route"]: n.count
              for f in native_reader.families(generate_protobuf(registry))
              for labels, n in f.metrics}
    return text_counts, native


class Storm:
    """The three threads' shared state; `epoch` is odd while a clear may be under way."""

    def __init__(self, h: Histogram, registry) -> None:
        self.h, self.registry = h, registry
        self.epoch = 0
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.compared = 0

    def guarded(self, body) -> threading.Thread:
        def run() -> None:
            try:
                body()
            except BaseException as e:  # reported by the test, not lost in the thread
                self.errors.append(e)
                self.stop.set()
        return threading.Thread(target=run)

    def observe(self) -> None:
        k = 0
        while not self.stop.is_set():
            self.h.labels(ROUTES[k % 2]).observe(0.001 * (1 + k % 50))
            k += 1

    def scrape(self) -> None:
        last, last_epoch = ({}, {}), None
        while not self.stop.is_set():
            before = self.epoch
            now = counts(self.registry)
            if before != self.epoch or before % 2:
                last_epoch = None
                continue
            if before == last_epoch:
                for seen, was in zip(now, last):
                    for route, c in seen.items():
                        assert c >= was.get(route, 0), (route, was, c)
                        self.compared += 1
            last, last_epoch = now, before


def test_scrapes_during_a_clear_storm_parse_and_never_go_backwards():
    registry = prometheus_client.CollectorRegistry()
    h = Histogram("storm_seconds", "storm", ["route"], registry=registry)
    storm = Storm(h, registry)
    threads = [storm.guarded(storm.observe), storm.guarded(storm.scrape)]
    for t in threads:
        t.start()
    for k in range(200):
        storm.epoch += 1
        h.clear() if k % 2 else h.remove("a")
        storm.epoch += 1
        storm.stop.wait(0.002)
    storm.stop.set()
    for t in threads:
        t.join()
    assert not storm.errors, storm.errors
    print(f"counts compared between scrapes of one lifetime: {storm.compared}")
    h.clear()
    assert counts(registry) == ({}, {})
    for k in range(1000):
        h.labels(ROUTES[k % 2]).observe(0.001)
    assert counts(registry) == ({"a": 500.0, "b": 500.0}, {"a": 500, "b": 500})
