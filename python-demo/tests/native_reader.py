"""A reader of Prometheus' protobuf exposition written from the wire format (varints,
zigzag, length-delimited fields), independent of Picollo's encoder: the tests and
scripts/prometheus.sh read native histograms back with it."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _unzigzag(v: int) -> int:
    return (v >> 1) ^ -(v & 1)


def fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """The fields of one message: (number, int for varint and fixed64, bytes otherwise)."""
    out, at = [], 0
    while at < len(data):
        key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(data, at)
        elif wire == 1:
            value = int.from_bytes(data[at:at + 8], "little")
            at += 8
        elif wire == 2:
            size, at = _varint(data, at)
            value = data[at:at + size]
            at += size
        else:
            raise ValueError(f"wire type {wire}")
        out.append((number, value))
    if at != len(data):
        raise ValueError("a field runs past the message")
    return out


def _double(bits: int) -> float:
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


@dataclass
class Native:
    """One native histogram as a reader sees it; buckets are index -> count."""
    count: int = 0
    sum: float = 0.0
    schema: int = 0
    zero_threshold: float = 0.0
    zero_count: int = 0
    positive: dict[int, int] = field(default_factory=dict)
    negative: dict[int, int] = field(default_factory=dict)
    positive_spans: list[tuple[int, int]] = field(default_factory=list)
    negative_spans: list[tuple[int, int]] = field(default_factory=list)
    classic: list[tuple[float, int]] = field(default_factory=list)

    def bounds(self, index: int) -> tuple[float, float]:
        """Bucket ``index``: ``(base**(index-1), base**index]``, ``base = 2**(2**-schema)``."""
        step = 2.0 ** -self.schema
        return 2.0 ** ((index - 1) * step), 2.0 ** (index * step)

    def bucket_of(self, value: float) -> int:
        """The index of the positive bucket holding ``value > 0``."""
        i = math.ceil(math.log2(value) * 2.0 ** self.schema)
        while value > self.bounds(i)[1]:
            i += 1
        while value <= self.bounds(i)[0]:
            i -= 1
        return i


def _run(spans: list[tuple[int, int]], deltas: list[int]) -> dict[int, int]:
    out, index, count, k = {}, 0, 0, 0
    for offset, length in spans:
        index += offset
        for _ in range(length):
            count += deltas[k]
            k += 1
            if count:
                out[index] = count
            index += 1
    if k != len(deltas):
        raise ValueError(f"{len(deltas)} deltas for {k} buckets")
    return out


def histogram(data: bytes) -> Native:
    """A `Histogram` message."""
    h = Native()
    spans: dict[int, list[tuple[int, int]]] = {9: [], 12: []}
    deltas: dict[int, list[int]] = {10: [], 13: []}
    for number, value in fields(data):
        if number == 1:
            h.count = value
        elif number == 2:
            h.sum = _double(value)
        elif number == 3:
            b = dict(fields(value))
            h.classic.append((_double(b[2]), b[1]))
        elif number == 5:
            h.schema = _unzigzag(value)
        elif number == 6:
            h.zero_threshold = _double(value)
        elif number == 7:
            h.zero_count = value
        elif number in spans:
            s = dict(fields(value))
            spans[number].append((_unzigzag(s.get(1, 0)), s.get(2, 0)))
        elif number in deltas:
            deltas[number].append(_unzigzag(value))
    h.negative_spans, h.positive_spans = spans[9], spans[12]
    h.negative = _run(spans[9], deltas[10])
    h.positive = _run(spans[12], deltas[13])
    return h


@dataclass
class Family:
    name: str
    help: str
    type: int
    metrics: list[tuple[dict[str, str], Native]]


def families(body: bytes) -> list[Family]:
    """The `MetricFamily` messages of a length-delimited stream."""
    out, at = [], 0
    while at < len(body):
        size, at = _varint(body, at)
        f = fields(body[at:at + size])
        at += size
        metrics = []
        for number, m in f:
            if number != 4:
                continue
            labels, native = {}, None
            for k, v in fields(m):
                if k == 1:
                    pair = dict(fields(v))
                    labels[pair[1].decode()] = pair.get(2, b"").decode()
                elif k == 7:
                    native = histogram(v)
            metrics.append((labels, native))
        d = dict(f)
        out.append(Family(d[1].decode(), d.get(2, b"").decode(), d.get(3, 0), metrics))
    if at != len(body):
        raise ValueError("the last message runs past the body")
    return out
