"""The C ABI straight through ctypes: struct layout, struct_size, NULLs, small buffers,
caller-filled structs. What the Python classes never pass is still answered safely."""

from __future__ import annotations

import ctypes
import random

import numpy as np
import pytest

import picollo
from picollo import Status
from picollo import _native as n
from picollo._convert import u64_buffer
from picollo._errors import last_error_message

lib = n.lib


def test_struct_sizes_and_abi_version():
    for cls, size in n.EXPECTED_SIZES.items():
        assert ctypes.sizeof(cls) == size
    assert lib.picollo_histogram_config_default().struct_size == 64
    assert picollo.abi_version()[0] == 1
    assert n.picollo_summary.total.offset == 16 * 88


def new(config):
    out = n.HistogramP()
    status = lib.picollo_histogram_new(ctypes.byref(config), ctypes.byref(out))
    if status == Status.OK:
        lib.picollo_histogram_free(out)
    return status


@pytest.mark.parametrize("size", [0, 4, 47, 49, 52, 55])
def test_struct_size_too_small(size):
    cfg = lib.picollo_histogram_config_default()
    cfg.struct_size = size
    assert new(cfg) == Status.STRUCT_SIZE
    assert "struct_size" in last_error_message()


def test_abi_1_6_struct_size_is_accepted_without_exact_extremes():
    """A caller built against the ABI 1.6 header passes 48 bytes (the struct ended with
    `storage`): accepted, the fields it lacks read as zero, so no exact extremes are kept;
    the bytes past its struct are never read."""
    cfg = lib.picollo_histogram_config_default()
    cfg.struct_size = 48
    buf = ctypes.create_string_buffer(ctypes.sizeof(cfg))
    ctypes.memmove(buf, ctypes.byref(cfg), 48)
    buf[48:56] = b"\xff" * 8  # exact_extremes and reserved: garbage past a 1.6 struct
    out = n.HistogramP()
    assert lib.picollo_histogram_new(ctypes.cast(buf, ctypes.POINTER(type(cfg))),
                                     ctypes.byref(out)) == Status.OK
    try:
        assert lib.picollo_histogram_exact_extremes(out, None, None) == Status.UNSUPPORTED
    finally:
        lib.picollo_histogram_free(out)


@pytest.mark.parametrize("extra", [1, 8, 960])
def test_larger_struct_size_needs_a_zero_tail(extra):
    """A caller built against a newer header passes a bigger struct: accepted while the
    fields this library does not know are zero (the kernel's perf_event_attr rule)."""
    cfg = lib.picollo_histogram_config_default()
    size = ctypes.sizeof(cfg) + extra
    cfg.struct_size = size
    buf = ctypes.create_string_buffer(size)
    ctypes.memmove(buf, ctypes.byref(cfg), ctypes.sizeof(cfg))
    as_config = ctypes.cast(buf, ctypes.POINTER(type(cfg)))
    out = n.HistogramP()
    assert lib.picollo_histogram_new(as_config, ctypes.byref(out)) == Status.OK
    lib.picollo_histogram_free(out)
    buf[size - 1] = b"\x01"
    assert lib.picollo_histogram_new(as_config, ctypes.byref(out)) == Status.STRUCT_SIZE
    assert "struct_size" in last_error_message()


@pytest.mark.parametrize("field,value", [("storage", 2), ("mode", 4), ("counter_bits", 8),
                                         ("value_selection", 4), ("approx_threshold", 0),
                                         ("exact_extremes", 1), ("exact_extremes", 2),
                                         ("reserved", 1)])
def test_config_fields(field, value):
    cfg = lib.picollo_histogram_config_default()
    assert (cfg.exact_extremes, cfg.reserved) == (0, 0)
    setattr(cfg, field, value)
    ok = field == "approx_threshold" or (field, value) == ("exact_extremes", 1)
    assert new(cfg) == (Status.OK if ok else Status.INVALID_ARGUMENT)


def test_null_arguments():
    cfg = lib.picollo_histogram_config_default()
    out = n.HistogramP()
    assert lib.picollo_histogram_new(None, ctypes.byref(out)) == Status.NULL_POINTER
    assert "config" in last_error_message()
    assert lib.picollo_histogram_new(ctypes.byref(cfg), None) == Status.NULL_POINTER
    null = n.HistogramP()
    lib.picollo_histogram_record(null, 1)  # ignored, no crash
    lib.picollo_histogram_record_n(null, 1, 2)
    lib.picollo_histogram_record_corrected(null, 100, 1)
    lib.picollo_histogram_free(null)
    lib.picollo_snapshot_free(n.SnapshotP())
    assert lib.picollo_histogram_reset(null) == Status.NULL_POINTER
    assert lib.picollo_histogram_get_info(null, None) == Status.NULL_POINTER
    assert lib.picollo_histogram_exact_extremes(null, None, None) == Status.NULL_POINTER
    assert lib.picollo_histogram_summary(null, None) == Status.NULL_POINTER
    assert lib.picollo_summary_table(None, None, None, 0, None) == Status.NULL_POINTER
    with picollo.Histogram() as h:
        p = h._ptr
        assert lib.picollo_histogram_record_many(p, None, 5) == Status.NULL_POINTER
        assert lib.picollo_histogram_record_many(p, None, 0) == Status.OK
        assert lib.picollo_histogram_percentile(p, 50.0, None) == Status.NULL_POINTER
        assert lib.picollo_histogram_next_bucket(p, None, None) == Status.NULL_POINTER
        assert lib.picollo_histogram_add(p, p) == Status.INVALID_ARGUMENT
        assert lib.picollo_histogram_add(p, null) == Status.NULL_POINTER
        cursor, b = ctypes.c_size_t(2**64 - 1), n.picollo_bucket()
        assert lib.picollo_histogram_next_bucket(p, ctypes.byref(cursor), ctypes.byref(b)) \
            == Status.OUT_OF_RANGE
        assert lib.picollo_histogram_bucket(p, 2**64 - 1, ctypes.byref(b)) == Status.OUT_OF_RANGE


def test_small_buffers_truncate_on_a_character_boundary():
    with picollo.Histogram() as h:
        h.record(1)
        title = "µµµµµ"  # two bytes each
        full = h.table(title).encode()
        for size in range(1, 16):
            buf = ctypes.create_string_buffer(b"\xff" * 32, 32)
            needed = ctypes.c_size_t(0)
            status = lib.picollo_histogram_table(h._ptr, title.encode(), buf, size,
                                                 ctypes.byref(needed))
            assert status == Status.BUFFER_TOO_SMALL
            assert needed.value == len(full)
            text = buf.value
            assert len(text) <= size - 1 and buf.raw[len(text)] == 0
            assert full.startswith(text)
            text.decode("utf-8")  # never half a character
            assert buf.raw[size:] == b"\xff" * (32 - size)  # nothing past len
        needed = ctypes.c_size_t(0)
        assert lib.picollo_histogram_table(h._ptr, None, None, 0, ctypes.byref(needed)) \
            == Status.BUFFER_TOO_SMALL
        assert lib.picollo_histogram_table(h._ptr, None, None, 0, None) == Status.BUFFER_TOO_SMALL
        bad = ctypes.create_string_buffer(b"\xff\xfe")
        assert lib.picollo_histogram_table(h._ptr, bad, None, 0, None) == Status.INVALID_UTF8


def test_caller_filled_summary_out_of_domain_is_an_invalid_argument():
    """Regression: fields no histogram produces overflowed the report cells and came back
    as PICOLLO_STATUS_PANIC ("a bug in Picollo")."""
    with picollo.Histogram() as h:
        h.record_many([1, 2, 3])
        good = h.summary()._c
    for field, value in [("mean", 1e100), ("stdev", 1e300), ("mean", -1e308)]:
        s = n.picollo_summary.from_buffer_copy(bytes(good))
        setattr(s, field, value)
        status = lib.picollo_summary_table(ctypes.byref(s), None, None, 0, None)
        assert status == Status.INVALID_ARGUMENT, last_error_message()
        status = lib.picollo_summary_diff(ctypes.byref(good), ctypes.byref(s), None, None,
                                          None, None, 0, None)
        assert status == Status.INVALID_ARGUMENT
    tiny = n.picollo_summary.from_buffer_copy(bytes(good))
    tiny.mean = 1e-300
    status = lib.picollo_summary_diff(ctypes.byref(tiny), ctypes.byref(good), None, None,
                                      None, None, 0, None)
    assert status == Status.INVALID_ARGUMENT
    with pytest.raises(picollo.InvalidArgumentError):
        picollo.Summary(tiny).diff(picollo.Summary(good))


def test_random_structs_never_panic():
    rnd = random.Random(3)
    specials = [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e-300, 1e300, 2.0**64]
    for _ in range(300):
        raw = bytes(rnd.getrandbits(8) for _ in range(ctypes.sizeof(n.picollo_summary)))
        s = n.picollo_summary.from_buffer_copy(raw)
        s.mean, s.stdev, s.precision = (rnd.choice(specials) for _ in range(3))
        for status in (
            lib.picollo_summary_table(ctypes.byref(s), b"t", None, 0, None),
            lib.picollo_summary_diff(ctypes.byref(s), ctypes.byref(s), None, None, None,
                                     None, 0, None),
            lib.picollo_summary_line(ctypes.byref(s), b"x", None, 0, None),
            lib.picollo_summary_json(ctypes.byref(s), None, 0, None),
            lib.picollo_percentile_format(ctypes.byref(s.percentiles[3]), None, 0, None),
        ):
            assert status in (Status.BUFFER_TOO_SMALL, Status.INVALID_ARGUMENT), status


def test_status_strings():
    for status in Status:
        assert picollo.status_str(status)
    assert picollo.status_str(Status.OK) == "ok"


def test_record_many_passes_contiguous_uint64_without_copy():
    values = np.arange(10, dtype=np.uint64)
    address, count, keep, signed = u64_buffer(values)
    assert (address, count) == (values.ctypes.data, 10) and keep is values and not signed
    import array
    a = array.array("Q", range(5))
    address, count, _, _ = u64_buffer(a)
    assert (address, count) == (a.buffer_info()[0], 5)
    address, count, keep, _ = u64_buffer(values[::2])
    assert address != values.ctypes.data and count == 5
