"""HdrHistogram's V2 encoding: encode(), encode_v2(), decode(), add_encoded() and pickling."""

from __future__ import annotations

import base64
import bisect
import copy
import ctypes
import pickle
import struct
import zlib

import numpy as np
import pytest

import picollo
from conftest import buckets
from picollo import ClosedError, FormatError, Histogram, InvalidArgumentError, Status
from picollo import UnencodableError, V2Form
from picollo import _native as n

PLAIN_COOKIE = 0x1C849313
COMPRESSED_COOKIE = 0x1C849314
#: relative_error of the layouts identical to HdrHistogram's with 1..5 significant digits
DIGITS_ERROR = {1: 2**-5, 2: 2**-8, 3: 2**-11, 4: 2**-15, 5: 2**-18}



def latency_like(seed: int, size: int = 20_000) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.lognormal(10, 1.2, size).astype(np.uint64),
                           np.array([0, 1, 2, 7, 1000, 10**9, 10**12], dtype=np.uint64)])


@pytest.fixture
def h3():
    """The 3-significant-digit layout, which V2 carries bucket for bucket."""
    with Histogram(relative_error=DIGITS_ERROR[3]) as h:
        h.record_many(latency_like(1))
        yield h


def test_encode_is_the_base64_of_the_compressed_form(h3):
    text = h3.encode()
    assert isinstance(text, str) and text.startswith("HISTF")
    compressed = h3.encode_v2("compressed")
    assert base64.b64decode(text, validate=True) == compressed
    assert h3.encode_v2("base64") == text.encode("ascii")
    assert h3.encode_v2() == compressed  # the default form


def test_binary_forms_carry_hdrhistograms_cookies_and_lengths(h3):
    plain = h3.encode_v2("plain")
    cookie, payload_len = struct.unpack(">II", plain[:8])
    assert cookie == PLAIN_COOKIE
    assert len(plain) == 40 + payload_len
    compressed = h3.encode_v2(V2Form.COMPRESSED)
    cookie, deflated_len = struct.unpack(">II", compressed[:8])
    assert cookie == COMPRESSED_COOKIE
    assert len(compressed) == 8 + deflated_len
    assert zlib.decompress(compressed[8:]) == plain
    # significant digits (offset 12) and the integer-to-double ratio 1.0 (offset 32)
    assert struct.unpack(">i", plain[12:16])[0] == 3
    assert struct.unpack(">d", plain[32:40])[0] == 1.0


def test_the_deflate_level_is_the_callers_and_every_level_decodes_alike(h3):
    plain = h3.encode_v2("plain")
    sizes = []
    for level in range(11):
        blob = h3.encode_v2("compressed", level=level)
        assert zlib.decompress(blob[8:]) == plain, level  # zlib itself inflates every level
        with Histogram.decode(blob) as back:
            assert buckets(back) == buckets(h3), level
        text = h3.encode(level=level)
        assert base64.b64decode(text, validate=True) == blob
        sizes.append(len(blob))
    assert sizes[0] > sizes[1] > sizes[9], sizes
    assert h3.encode_v2("compressed", level=1) == h3.encode_v2("compressed")  # the default
    assert h3.encode_v2("plain", level=9) == plain  # the plain form ignores the level


@pytest.mark.parametrize("level, error, words", [
    (11, InvalidArgumentError, "level is 11"),
    (2**32 - 1, InvalidArgumentError, "level is 4294967295"),
    (2**32, ValueError, "does not fit 32 bits"),
    (-1, ValueError, "outside"),
    (True, TypeError, "not bool"),
    (1.0, TypeError, "must be an integer"),
])
def test_a_level_outside_0_to_10_is_refused(h3, level, error, words):
    for form in ("plain", "compressed", "base64"):
        with pytest.raises(error, match=words):
            h3.encode_v2(form, level=level)


@pytest.mark.parametrize("form", ["plain", "compressed", "base64", "PLAIN", V2Form.BASE64, 0, 1])
def test_every_form_round_trips(h3, form):
    blob = h3.encode_v2(form)
    with Histogram.decode(blob) as back:
        assert buckets(back) == buckets(h3)
        assert back.total == h3.total
        assert back.precision == h3.precision
        assert back.counter_bits == 64 and back.mode == "single"


def test_decode_takes_text_bytes_and_buffers(h3):
    text = h3.encode()
    compressed = h3.encode_v2()
    expected = buckets(h3)
    for data in (text, text.encode(), f"  \n{text}\r\n ", bytearray(compressed),
                 memoryview(compressed), base64.b64encode(h3.encode_v2("plain")).decode()):
        with Histogram.decode(data) as back:
            assert buckets(back) == expected, type(data)


@pytest.mark.parametrize("digits", [1, 2, 3, 4, 5])
def test_the_hdrhistogram_layouts_round_trip_bucket_for_bucket(digits):
    with Histogram(relative_error=DIGITS_ERROR[digits]) as h:
        h.record_many(latency_like(digits, 2_000))
        plain = h.encode_v2("plain")
        assert struct.unpack(">i", plain[12:16])[0] == digits
        with Histogram.decode(plain) as back:
            assert buckets(back) == buckets(h)


def test_other_layouts_export_at_the_next_finer_one_and_come_back_exactly():
    with Histogram() as h:  # relative error 0.001: block size 512, between 2 and 3 digits
        h.record_many(latency_like(2))
        assert h.info().block_size == 512
        blob = h.encode()
        with Histogram.decode(blob) as back:
            assert back.total == h.total
            assert back.precision == DIGITS_ERROR[3]
            # each count sits alone in the 3-digit bucket holding its bucket's midpoint
            finer = list(back)
            lowers = [b.lower for b in finer]
            assert len(finer) == len(buckets(h))
            for b in h:
                target = finer[bisect.bisect_right(lowers, b.value) - 1]
                assert b.value in target and target.count == b.count
        with Histogram(**h._config()) as again:
            again.add_encoded(blob)
            assert buckets(again) == buckets(h)


def test_underflow_and_overflow_come_back_into_the_same_configuration():
    with Histogram(relative_error=0.01, min=10_000, max=30_000, counter_bits=32) as h:
        h.record_many([5, 9_000, 12_345, 20_000, 20_001, 40_000, 10**9])
        blob = h.encode()
        with Histogram(relative_error=0.01, min=10_000, max=30_000, counter_bits=32) as back:
            back.add_encoded(blob)
            assert (back.underflow, back.total, back.overflow) == (2, 3, 2)
            assert buckets(back) == buckets(h)
        with Histogram.decode(blob) as wide:  # a peer sees ordinary counts outside the range
            assert wide.total == 7
            assert wide.underflow == wide.overflow == 0


def test_add_encoded_adds_and_returns_self(h3):
    with Histogram(relative_error=DIGITS_ERROR[3]) as sum_:
        assert sum_.add_encoded(h3.encode()) is sum_
        sum_.add_encoded(h3.encode_v2("plain"))
        assert sum_.total == 2 * h3.total
        assert [c for _, _, c in buckets(sum_)] == [2 * c for _, _, c in buckets(h3)]


def test_add_encoded_rebins_into_a_coarser_layout(h3):
    with Histogram(relative_error=0.01) as coarse:
        coarse.add_encoded(h3.encode())
        assert coarse.total == h3.total
        assert len(buckets(coarse)) < len(buckets(h3))


def test_an_empty_histogram_round_trips():
    with Histogram() as h, Histogram.decode(h.encode()) as back:
        assert back.total == 0 and buckets(back) == []


BAD_BLOBS = [
    b"",
    b"garbage that is not base64!",
    "not base64 ~~~",
    "HISTFAAA",
    b"\x1c\x84\x93\x13\x00\x00",  # the plain cookie, then truncated
    struct.pack(">II", 0x1C849301, 0) + bytes(32),  # a V1 cookie
    base64.b64encode(struct.pack(">II", 0x12345678, 0)),
    "é" * 12,
]


@pytest.mark.parametrize("data", BAD_BLOBS, ids=range(len(BAD_BLOBS)))
def test_what_is_not_v2_is_a_format_error(data):
    with pytest.raises(FormatError) as e:
        Histogram.decode(data)
    assert e.value.status == Status.FORMAT_ERROR
    assert isinstance(e.value, ValueError)
    assert e.value.message


def test_corrupt_blobs_are_format_errors(h3):
    compressed = h3.encode_v2("compressed")
    plain = h3.encode_v2("plain")
    broken = [
        compressed[:-5],  # truncated zlib stream
        compressed[:8] + bytes(len(compressed) - 8),  # zeros instead of zlib
        plain[:-3],  # payload shorter than its length field
        plain[:12] + struct.pack(">i", 9) + plain[16:],  # 9 significant digits
    ]
    for data in broken:
        with pytest.raises(FormatError):
            Histogram.decode(data)


def test_a_failed_add_encoded_changes_nothing(h3):
    before = buckets(h3)
    good = h3.encode_v2("plain")
    for data in (b"junk", good[:-3]):
        with pytest.raises(FormatError):
            h3.add_encoded(data)
    assert buckets(h3) == before


def test_decode_type_errors():
    for bad in (None, 42, 4.2, ["HISTFAAA"]):
        with pytest.raises(TypeError):
            Histogram.decode(bad)


@pytest.mark.parametrize("form", ["zip", "", 3, -1, True, None, 1.0])
def test_unknown_forms(h3, form):
    with pytest.raises(ValueError, match="plain, compressed, base64"):
        h3.encode_v2(form)


def test_the_library_refuses_an_unknown_form(h3):
    needed = ctypes.c_size_t(0)
    status = n.lib.picollo_histogram_encode_v2(h3._ptr, 3, None, 0, ctypes.byref(needed))
    assert status == Status.INVALID_ARGUMENT


def test_saturated_counts_are_unencodable():
    with Histogram(counter_bits=32) as h:
        h.record_n(5, 2**32 + 10)
        assert h.saturated == 11
        with pytest.raises(UnencodableError) as e:
            h.encode()
        assert e.value.status == Status.UNENCODABLE
        assert isinstance(e.value, ValueError)
        with pytest.raises(UnencodableError):
            h.encode_v2("plain")
        with pytest.raises(UnencodableError):
            pickle.dumps(h)


def test_counts_and_values_above_i64_max_are_unencodable():
    with Histogram() as h:
        h.record_n(5, 2**63)
        with pytest.raises(UnencodableError, match="i64::MAX|2\\^63|9223372036854775807"):
            h.encode()
    with Histogram() as h:
        h.record_n(5, 2**63 - 1)
        with Histogram.decode(h.encode()) as back:
            assert back.total == 2**63 - 1
    with Histogram() as h:
        h.record(2**63 + 1000)
        with pytest.raises(UnencodableError):
            h.encode()


def test_binary_buffers_too_small_are_left_untouched(h3):
    needed = ctypes.c_size_t(0)
    status = n.lib.picollo_histogram_encode_v2(h3._ptr, V2Form.PLAIN, None, 0,
                                               ctypes.byref(needed))
    assert status == Status.BUFFER_TOO_SMALL
    size = needed.value
    assert size == len(h3.encode_v2("plain"))
    buf = (ctypes.c_uint8 * size)(*([0xAA] * size))
    status = n.lib.picollo_histogram_encode_v2(h3._ptr, V2Form.PLAIN, buf, size - 1,
                                               ctypes.byref(needed))
    assert status == Status.BUFFER_TOO_SMALL
    assert needed.value == size
    assert bytes(buf) == b"\xaa" * size
    status = n.lib.picollo_histogram_encode_v2(h3._ptr, V2Form.PLAIN, buf, size,
                                               ctypes.byref(needed))
    assert status == Status.OK and bytes(buf) == h3.encode_v2("plain")


def test_base64_is_written_as_text(h3):
    text = h3.encode().encode()
    needed = ctypes.c_size_t(0)
    buf = (ctypes.c_uint8 * (len(text) + 1))(*([0xAA] * (len(text) + 1)))
    status = n.lib.picollo_histogram_encode_v2(h3._ptr, V2Form.BASE64, buf, len(buf),
                                               ctypes.byref(needed))
    assert status == Status.OK and needed.value == len(text)
    assert bytes(buf) == text + b"\0"


def test_a_closed_histogram():
    h = Histogram()
    h.close()
    for call in (h.encode, h.encode_v2, lambda: h.add_encoded(b"x"), lambda: pickle.dumps(h)):
        with pytest.raises(ClosedError):
            call()


# --- pickling -----------------------------------------------------------------------------

CONFIGS = [
    {},
    {"relative_error": 0.01, "min": 10_000, "max": 30_000, "counter_bits": 32},
    {"relative_error": DIGITS_ERROR[3], "value_selection": "upper"},
    {"relative_error": 0.05, "mode": "interlocked"},
    {"mode": "thread-local"},
    {"mode": "approximate", "approx_threshold": 20, "max": 10**9},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_pickle_keeps_the_configuration_and_every_count(config):
    with Histogram(**config) as h:
        h.record_many(latency_like(3, 5_000))
        h.record_many([0, 1, 5, 40_000, 2**40])
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            with pickle.loads(pickle.dumps(h, protocol)) as back:
                assert type(back) is Histogram
                assert back.info() == h.info()
                assert buckets(back) == buckets(h)


def test_copy_and_deepcopy_go_through_the_same_path(h3):
    for clone in (copy.copy(h3), copy.deepcopy(h3)):
        with clone:
            assert clone is not h3
            assert buckets(clone) == buckets(h3)
            clone.record(12345)
            assert clone.total == h3.total + 1


def test_pickled_histograms_are_small(h3):
    assert len(pickle.dumps(h3)) < len(h3.encode_v2("plain"))


def test_the_exceptions_are_exported():
    assert picollo.FormatError is FormatError
    assert issubclass(FormatError, picollo.PicolloError)
    assert issubclass(UnencodableError, picollo.PicolloError)
    assert Status.FORMAT_ERROR == 15 and Status.UNENCODABLE == 16
    assert picollo.status_str(Status.FORMAT_ERROR) != picollo.status_str(Status.UNENCODABLE)
    assert not issubclass(InvalidArgumentError, FormatError)
