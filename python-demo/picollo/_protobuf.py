"""Prometheus' protobuf exposition (``io.prometheus.client.MetricFamily``, length-delimited)
for what `picollo.prometheus` serves beside Picollo's native histograms: the families
``prometheus_client`` collects (counters, gauges, summaries, classic histograms), and the
framing that joins the library's one-series native bodies into one family.

The native histograms themselves are written by libpicollo (`metrics.to_prometheus_native`);
this module never computes a bucket. Wire format: varints, fixed64 doubles, length-delimited
submessages; field numbers from client_model's ``metrics.proto``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from typing import Any

# MetricType of metrics.proto.
COUNTER, GAUGE, SUMMARY, UNTYPED, HISTOGRAM, GAUGE_HISTOGRAM = range(6)


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1  # int64 fields are written as their two's complement
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def varint_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def double_field(number: int, value: float) -> bytes:
    return _varint(number << 3 | 1) + struct.pack("<d", value)


def bytes_field(number: int, value: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def text_field(number: int, value: str) -> bytes:
    return bytes_field(number, value.encode("utf-8"))


def delimited(message: bytes) -> bytes:
    return _varint(len(message)) + message


def messages(body: bytes) -> Iterator[bytes]:
    """The messages of a length-delimited stream."""
    at = 0
    while at < len(body):
        size, at = _read_varint(body, at)
        yield body[at:at + size]
        at += size


def metric_fields(family: bytes) -> Iterator[bytes]:
    """The ``metric`` submessages (field 4) of one MetricFamily, other fields skipped."""
    at = 0
    while at < len(family):
        key, at = _read_varint(family, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, at = _read_varint(family, at)
        elif wire == 1:
            at += 8
        elif wire == 2:
            size, at = _read_varint(family, at)
            if number == 4:
                yield family[at:at + size]
            at += size
        else:
            raise ValueError(f"unexpected wire type {wire} in a MetricFamily")


def family(name: str, help: str, kind: int, metrics: Iterable[bytes]) -> bytes:
    """One delimited MetricFamily holding ``metrics`` (encoded ``Metric`` messages)."""
    body = text_field(1, name) + text_field(2, help) + varint_field(3, kind)
    return delimited(body + b"".join(bytes_field(4, m) for m in metrics))


def _labels(labels: dict[str, str]) -> bytes:
    return b"".join(bytes_field(1, text_field(1, k) + text_field(2, v))
                    for k, v in labels.items())


def _metric(labels: dict[str, str], number: int, value: bytes, timestamp: Any = None) -> bytes:
    out = _labels(labels) + bytes_field(number, value)
    if timestamp is not None:
        out += varint_field(6, int(float(timestamp) * 1000))
    return out


def _grouped(samples: Iterable[Any], drop: str) -> dict[tuple, dict[str, Any]]:
    """Samples by their labels less ``drop`` (``le``, ``quantile``), in first-seen order."""
    groups: dict[tuple, dict[str, Any]] = {}
    for s in samples:
        labels = {k: v for k, v in s.labels.items() if k != drop}
        groups.setdefault(tuple(labels.items()), {"labels": labels, "samples": []})[
            "samples"].append(s)
    return groups


def _histogram(metric: Any, count_suffix: str, sum_suffix: str) -> Iterator[bytes]:
    for group in _grouped(metric.samples, "le").values():
        count, total, buckets = 0, 0.0, b""
        for s in group["samples"]:
            if s.name == metric.name + count_suffix:
                count = int(s.value)
            elif s.name == metric.name + sum_suffix:
                total = float(s.value)
            elif s.name == metric.name + "_bucket" and s.labels["le"] != "+Inf":
                # +Inf is the sample count (Prometheus adds it, as for the Go client's).
                buckets += bytes_field(3, varint_field(1, int(s.value))
                                       + double_field(2, float(s.labels["le"])))
        body = varint_field(1, count) + double_field(2, total) + buckets
        yield _metric(group["labels"], 7, body)


def _summary(metric: Any) -> Iterator[bytes]:
    for group in _grouped(metric.samples, "quantile").values():
        count, total, quantiles = 0, 0.0, b""
        for s in group["samples"]:
            if s.name == metric.name + "_count":
                count = int(s.value)
            elif s.name == metric.name + "_sum":
                total = float(s.value)
            elif s.name == metric.name:
                quantiles += bytes_field(3, double_field(1, float(s.labels["quantile"]))
                                         + double_field(2, float(s.value)))
        yield _metric(group["labels"], 4, varint_field(1, count) + double_field(2, total)
                      + quantiles)


def client_family(metric: Any) -> bytes:
    """A ``prometheus_client`` Metric (what a collector yields) as one delimited family,
    named as the 0.0.4 text format names it (counters with ``_total``, infos with
    ``_info``); ``_created`` samples are left out."""
    kind = metric.type
    if kind == "counter":
        values = [s for s in metric.samples if s.name == metric.name + "_total"]
        return family(metric.name + "_total", metric.documentation, COUNTER,
                      [_metric(s.labels, 3, double_field(1, s.value), s.timestamp)
                       for s in values])
    if kind == "summary":
        return family(metric.name, metric.documentation, SUMMARY, _summary(metric))
    if kind == "histogram":
        return family(metric.name, metric.documentation, HISTOGRAM,
                      _histogram(metric, "_count", "_sum"))
    if kind == "gaugehistogram":
        return family(metric.name, metric.documentation, GAUGE_HISTOGRAM,
                      _histogram(metric, "_gcount", "_gsum"))
    name = metric.name + "_info" if kind == "info" else metric.name
    number, kind_code = (5, UNTYPED) if kind == "unknown" else (2, GAUGE)
    return family(name, metric.documentation, kind_code,
                  [_metric(s.labels, number, double_field(1, s.value), s.timestamp)
                   for s in metric.samples if not s.name.endswith("_created")])
