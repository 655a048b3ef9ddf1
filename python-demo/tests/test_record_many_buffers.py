"""record_many over every kind of buffer: the same buckets, counts, sum and extremes as one
`record` a value (the library's own per-value answers), contiguous native data read in
place (the array's own address reaches the C call), everything else converted once, and
wrong element types refused before anything is recorded."""

from __future__ import annotations

import array

import numpy as np
import pytest

import picollo
from picollo import _native

RNG = np.random.default_rng(20261129)
#: Integers over many octaves, with 0 and values below and above a bounded range.
INTS = np.concatenate([[0, 1, 999, 2**40], RNG.integers(1, 2**31, 3000)]).astype(np.uint64)
#: Doubles of both signs with zeros, NaN, ±∞ and extremes.
FLOATS = np.concatenate([[0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1.7e308, -2.5],
                         RNG.normal(0.0, 1e3, 3000)])


def int_state(h: picollo.Histogram) -> tuple:
    return h.info(), list(h), h.table()


def float_state(f: picollo.FloatHistogram) -> tuple:
    return f.info(), list(f), f.table()


def per_value_ints(values) -> tuple:
    with picollo.Histogram(relative_error=0.01, min=1000, max=2**35) as h:
        for v in values:
            h.record(int(v))
        return int_state(h)


def batch_ints(data) -> tuple:
    with picollo.Histogram(relative_error=0.01, min=1000, max=2**35) as h:
        h.record_many(data)
        return int_state(h)


def per_value_floats(values) -> tuple:
    with picollo.FloatHistogram(relative_error=0.01) as f:
        for v in values:
            f.record(float(v))
        return float_state(f)


def batch_floats(data) -> tuple:
    with picollo.FloatHistogram(relative_error=0.01) as f:
        f.record_many(data)
        return float_state(f)


def readonly(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


INT_FORMS = {
    "uint64": lambda v: v,
    "int64": lambda v: v.astype(np.int64),
    "uint64 read-only": lambda v: readonly(v),
    "int64 read-only": lambda v: readonly(v.astype(np.int64)),
    "uint64 big-endian": lambda v: v.astype(">u8"),
    "int64 big-endian": lambda v: v.astype(">i8"),
    "uint32": lambda v: (v % 2**32).astype(np.uint32),
    "int32": lambda v: (v % 2**31).astype(np.int32),
    "uint16": lambda v: (v % 2**16).astype(np.uint16),
    "2-D": lambda v: v[:3000].reshape(30, 100),
    "Fortran order": lambda v: np.asfortranarray(v[:3000].reshape(30, 100)),
    "strided": lambda v: v[::3],
    "reversed": lambda v: v[::-1],
    "array Q": lambda v: array.array("Q", v.tolist()),
    "array q": lambda v: array.array("q", v.tolist()),
    "memoryview": lambda v: memoryview(v),
    "bytes cast Q": lambda v: memoryview(v.tobytes()).cast("Q"),
    "bytearray cast Q": lambda v: memoryview(bytearray(v.tobytes())).cast("Q"),
    "list": lambda v: v.tolist(),
    "generator": lambda v: (int(x) for x in v),
    "object array": lambda v: np.array(v.tolist(), dtype=object),
}


@pytest.mark.parametrize("form", INT_FORMS)
def test_every_integer_form_counts_what_record_counts(form):
    data = INT_FORMS[form](INTS)
    # What record sees: the same items, one at a time (a generator is spent: its source).
    items = INTS if form == "generator" else np.asarray(INT_FORMS[form](INTS)).ravel()
    assert batch_ints(data) == per_value_ints(items)


FLOAT_FORMS = {
    "float64": lambda v: v,
    "float64 read-only": lambda v: readonly(v),
    "float32": lambda v: v.astype(np.float32),
    "float32 read-only": lambda v: readonly(v.astype(np.float32)),
    "float64 big-endian": lambda v: v.astype(">f8"),
    "float16": lambda v: v.astype(np.float16),
    "strided": lambda v: v[::2],
    "2-D": lambda v: v[:3000].reshape(60, 50),
    "int64": lambda v: v[np.isfinite(v)].clip(-1e15, 1e15).astype(np.int64),
    "array d": lambda v: array.array("d", v.tolist()),
    "array f": lambda v: array.array("f", v.tolist()),
    "bytes cast d": lambda v: memoryview(v.tobytes()).cast("d"),
    "list": lambda v: v.tolist(),
}


@pytest.mark.parametrize("form", FLOAT_FORMS)
def test_every_float_form_counts_what_record_counts(form):
    with np.errstate(over="ignore"):  # narrowing 1.7e308 gives ±∞, as C's conversion does
        data = FLOAT_FORMS[form](FLOATS)
    # What record sees: each item as Python reads it (float32 items widened exactly).
    items = [float(x) for x in (np.asarray(data).ravel() if not isinstance(data, memoryview)
                                else data.tolist())]
    assert batch_floats(data) == per_value_floats(items)
    nan = np.isnan(np.asarray(items, dtype=np.float64)).sum()
    assert batch_floats(data)[0].nan == nan


def test_negative_int64_is_refused_as_record_refuses_it_and_nothing_is_recorded():
    with picollo.Histogram() as h:
        h.record_many([5, 6])
        before = int_state(h)
        with pytest.raises(ValueError):
            h.record(-3)
        for data in (np.array([7, -3, 8], dtype=np.int64),
                     np.array([7, -3, 8], dtype=np.int32),
                     readonly(np.array([7, -3], dtype=np.int64)),
                     np.array([7, 8, -(2**63)], dtype=np.int64)[::2],
                     array.array("q", [7, -3]), [7, -3]):
            with pytest.raises(ValueError):
                h.record_many(data)
        assert int_state(h) == before


@pytest.mark.parametrize("empty", [np.array([], dtype=np.uint64), np.array([], dtype=np.int64),
                                   np.zeros((0, 4), dtype=np.uint64), array.array("Q"),
                                   memoryview(b"").cast("Q"), []])
def test_empty_input_records_nothing(empty):
    with picollo.Histogram() as h, picollo.FloatHistogram() as f:
        assert h.record_many(empty) == 0 and h.total == 0
        assert f.record_many(empty) == 0
        assert f.info().total == 0


@pytest.mark.parametrize("bad", [np.array([1 + 2j]), np.array(["12"]), np.array([b"12"]),
                                 np.array([1, "x"], dtype=object), np.array([True]),
                                 "12", b"12", bytearray(b"12"), 12])
def test_wrong_element_types_raise_type_error(bad):
    with picollo.Histogram() as h, picollo.FloatHistogram() as f:
        with pytest.raises(TypeError):
            h.record_many(bad)
        with pytest.raises(TypeError):
            f.record_many(bad)
        assert h.total == 0 and f.info().total == 0


def test_float_histogram_refuses_integer_only_wrong_types():
    with picollo.Histogram() as h:
        for bad in (np.array([1.5]), np.array([1.5], dtype=np.float32), array.array("d", [1.5])):
            with pytest.raises(TypeError):
                h.record_many(bad)


class Capture:
    """Stands for a ctypes function: records the address argument, then calls the real one."""

    def __init__(self, real):
        self.real, self.addresses = real, []

    def __call__(self, h, address, count):
        self.addresses.append(address)
        return self.real(h, address, count)


@pytest.mark.parametrize("name,make,address_of", [
    ("picollo_histogram_record_many", lambda: np.arange(1000, dtype=np.uint64),
     lambda a: a.ctypes.data),
    ("picollo_histogram_record_many_i64", lambda: readonly(np.arange(1000, dtype=np.int64)),
     lambda a: a.ctypes.data),
    ("picollo_histogram_record_many", lambda: array.array("Q", range(1000)),
     lambda a: a.buffer_info()[0]),
])
def test_contiguous_integer_data_is_passed_in_place(monkeypatch, name, make, address_of):
    data = make()
    capture = Capture(getattr(_native.lib, name))
    monkeypatch.setattr(_native.lib, name, capture)
    with picollo.Histogram() as h:
        assert h.record_many(data) == 1000 and h.total == 1000
    assert capture.addresses == [address_of(data)]


def test_read_only_bytes_are_read_in_place(monkeypatch):
    raw = np.arange(1, 1001, dtype=np.uint64).tobytes()
    capture = Capture(_native.lib.picollo_histogram_record_many)
    monkeypatch.setattr(_native.lib, "picollo_histogram_record_many", capture)
    with picollo.Histogram() as h:
        assert h.record_many(memoryview(raw).cast("Q")) == 1000 and h.total == 1000
    # The bytes object's own storage: ctypes' from_buffer_copy would have given another one.
    base = np.frombuffer(raw, dtype=np.uint64).ctypes.data
    assert capture.addresses == [base]


@pytest.mark.parametrize("name,dtype", [("picollo_float_histogram_record_many", np.float64),
                                        ("picollo_float_histogram_record_many_f32", np.float32)])
def test_contiguous_float_data_is_passed_in_place(monkeypatch, name, dtype):
    data = readonly(np.linspace(-5.0, 5.0, 1000).astype(dtype))
    capture = Capture(getattr(_native.lib, name))
    monkeypatch.setattr(_native.lib, name, capture)
    with picollo.FloatHistogram() as f:
        assert f.record_many(data) == 1000 and f.info().total == 1000
    assert capture.addresses == [data.ctypes.data]


def test_the_buffer_is_released_after_the_call():
    raw = bytearray(np.arange(10, dtype=np.uint64).tobytes())
    with picollo.Histogram() as h:
        h.record_many(memoryview(raw).cast("Q"))
        raw.extend(b"\0" * 8)  # BufferError while any export is still held
    assert len(raw) == 88
