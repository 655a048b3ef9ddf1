"""Formats by name (`to_format`, `picollo.formats`): the CSV of buckets against the
library's own bucket iteration, every other format against its own method, and refusals."""

from __future__ import annotations

import csv
import io
import random

import pytest

import picollo
from picollo import FloatHistogram, Histogram, InvalidArgumentError


@pytest.fixture
def h():
    rng = random.Random(63)
    with Histogram(relative_error=0.01) as h:
        for _ in range(5_000):
            h.record(int(10 ** rng.uniform(1, 7)))
        yield h


@pytest.fixture
def f():
    rng = random.Random(64)
    with FloatHistogram() as f:
        for _ in range(3_000):
            f.record((rng.random() - 0.3) * 10 ** rng.uniform(-4, 4))
        yield f


def rows(text: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text))
    assert next(reader) == ["lower", "upper", "count"]
    return list(reader)


def test_the_names_are_listed_once_each():
    names = picollo.formats()
    assert "csv" in names and "table" in names and "hdr-v2" in names
    assert len(names) == len(set(names))


def test_csv_rows_are_the_buckets_with_values(h):
    expected = [[str(b.lower), str(b.highest), str(b.count)] for b in h.buckets_with_values()]
    assert rows(h.to_format("csv")) == expected


def test_float_csv_rows_are_the_buckets_with_values(f):
    got = [(float(lo), float(hi), int(n)) for lo, hi, n in rows(f.to_format("csv"))]
    expected = [(b.lowest, b.highest, b.count) for b in f.buckets_with_values()]
    assert got == expected  # exact: each bound prints as the shortest decimal of its double
    assert any(hi < 0 for _, hi, _ in got) and any(lo > 0 for lo, _, _ in got)


def test_other_formats_are_what_their_methods_write(h):
    assert h.to_format("table", title="latency") == h.table("latency")
    assert h.to_format("hgrm", ticks_per_half_distance=3, csv=True) == h.to_hgrm(3, csv=True)
    blob = h.to_format("hdr-v2")
    assert isinstance(blob, bytes) and blob == h.encode_v2("compressed")
    assert h.to_format("hdr-v2-base64") == h.encode()
    assert h.to_format("hgrm", {"unit_ratio": 1000}) == h.to_hgrm(unit_ratio=1000.0)


def test_metrics_formats_are_what_the_metrics_functions_write(h, f):
    from picollo import metrics
    assert {"openmetrics", "otlp-json", "otlp-protobuf", "prometheus-native"} <= set(
        picollo.formats())
    om = h.to_format("openmetrics", name="lat_ms", unit="ms", unit_ratio=1e6, summary=True,
                     **{"label.host": "a"})
    assert om == h.to_openmetrics("lat_ms", unit="ms", labels={"host": "a"}, unit_ratio=1e6,
                                  summary=True)
    otlp = {"name": "rpc.latency", "temporality": "delta", "scale": 4,
            "start_time_unix_nano": 10, "time_unix_nano": 20}
    by_name = h.to_format("otlp-protobuf", otlp, **{"resource.service.name": "api"})
    assert isinstance(by_name, bytes)
    assert by_name == h.to_otlp("protobuf", resource={"service.name": "api"}, **otlp)
    assert h.to_format("otlp-json", otlp) == h.to_otlp("json", **otlp)
    for g in (h, f):
        native = g.to_format("prometheus-native", name="lat", schema=2, **{"label.k": "v"})
        assert native == metrics.to_prometheus_native(g, "lat", schema=2, labels={"k": "v"})


def test_refusals_name_the_format_or_option(h, f):
    with pytest.raises(InvalidArgumentError, match='no format is called "zip"'):
        h.to_format("zip")
    with pytest.raises(InvalidArgumentError, match='takes no option "title"'):
        h.to_format("csv", title="x")
    with pytest.raises(InvalidArgumentError, match="ticks_per_half_distance is 0"):
        h.to_format("hgrm", ticks_per_half_distance=0)
    with pytest.raises(InvalidArgumentError, match="integer histograms only"):
        f.to_format("hgrm")
    with pytest.raises(TypeError, match="option title"):
        h.to_format("table", title=object())
