"""The C ABI of libpicollo as data: struct mirrors, signatures and status codes.

This module loads no library, so `scripts/check_bindings.py` can compare it with
`include/picollo.h` on a machine without libpicollo; `_native` loads the library and applies
`SIGNATURES` to it. The struct classes carry the C names and mirror the header field for
field; their sizes are checked at import, which needs no library either.
"""

from __future__ import annotations

import ctypes
import enum
from ctypes import (
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

#: The ABI major version this binding speaks (`PICOLLO_ABI_VERSION_MAJOR`).
ABI_VERSION_MAJOR = 1
#: The oldest minor version with every function declared here (4: HdrHistogram's V2
#: encoding, the .hgrm text and the interval log).
ABI_VERSION_MINOR = 5
#: `PICOLLO_SUMMARY_PERCENTILES`.
SUMMARY_PERCENTILES = 16

U64_MAX = 2**64 - 1


class Status(enum.IntEnum):
    """`picollo_status`."""

    OK = 0
    NULL_POINTER = 1
    INVALID_ARGUMENT = 2
    STRUCT_SIZE = 3
    BUFFER_TOO_SMALL = 4
    EMPTY = 5
    LAYOUT_MISMATCH = 6
    WOULD_GO_NEGATIVE = 7
    OUT_OF_RANGE = 8
    INVALID_UTF8 = 9
    UNSUPPORTED = 10
    PERMISSION_DENIED = 11
    OS_ERROR = 12
    PANIC = 13
    OUT_OF_MEMORY = 14
    FORMAT_ERROR = 15
    UNENCODABLE = 16


class V2Form(enum.IntEnum):
    """`picollo_v2_form`: how `picollo_histogram_encode_v2` writes a histogram."""

    PLAIN = 0
    COMPRESSED = 1
    BASE64 = 2


# --- structs (include/picollo.h) -------------------------------------------------------


class picollo_histogram_config(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("counter_bits", c_uint32),
        ("relative_error", c_double),
        ("min_trackable", c_uint64),
        ("max_trackable", c_uint64),
        ("value_selection", c_uint32),
        ("mode", c_uint32),
        ("approx_threshold", c_uint32),
        ("reserved", c_uint32),
    ]


class picollo_histogram_info(Structure):
    _fields_ = [
        ("total", c_uint64),
        ("underflow", c_uint64),
        ("overflow", c_uint64),
        ("saturated", c_uint64),
        ("min_trackable", c_uint64),
        ("max_trackable", c_uint64),
        ("storage_len", c_uint64),
        ("footprint_bytes", c_uint64),
        ("block_size", c_uint64),
        ("relative_error", c_double),
        ("counter_bits", c_uint32),
        ("mode", c_uint32),
        ("value_selection", c_uint32),
        ("approx_threshold", c_uint32),
    ]


class picollo_percentile(Structure):
    _fields_ = [
        ("rank", c_double),
        ("value", c_uint64),
        ("plus_minus", c_uint64),
        ("storage_index", c_uint64),
        ("logical_index", c_uint64),
        ("lower", c_uint64),
        ("upper", c_uint64),
        ("highest", c_uint64),
        ("count", c_uint64),
        ("cumulative_count", c_uint64),
        ("rank_count", c_uint64),
    ]


class picollo_summary(Structure):
    _fields_ = [
        ("percentiles", picollo_percentile * SUMMARY_PERCENTILES),
        ("total", c_uint64),
        ("underflow", c_uint64),
        ("overflow", c_uint64),
        ("saturated", c_uint64),
        ("mean", c_double),
        ("stdev", c_double),
        ("precision", c_double),
        ("min_trackable", c_uint64),
        ("max_trackable", c_uint64),
    ]


class picollo_bucket(Structure):
    _fields_ = [
        ("storage_index", c_uint64),
        ("logical_index", c_uint64),
        ("lower", c_uint64),
        ("highest", c_uint64),
        ("value", c_uint64),
        ("count", c_uint64),
    ]


class picollo_log_interval(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("significant_digits", c_uint32),
        ("start", c_double),
        ("length", c_double),
        ("max", c_double),
        ("line", c_uint64),
        ("has_tag", c_uint32),
        ("reserved", c_uint32),
    ]


# Sizes as the C compiler lays the header out on LP64 (all fields naturally aligned).
EXPECTED_SIZES = {
    picollo_histogram_config: 48,
    picollo_histogram_info: 96,
    picollo_percentile: 88,
    picollo_summary: 16 * 88 + 9 * 8,
    picollo_bucket: 48,
    picollo_log_interval: 48,
}
for _cls, _size in EXPECTED_SIZES.items():
    if ctypes.sizeof(_cls) != _size:  # not `assert`: must hold under `python -O` too
        raise ImportError(f"{_cls.__name__} is {ctypes.sizeof(_cls)} bytes, expected {_size}")


class picollo_histogram(Structure):
    """Opaque handle target."""


class picollo_snapshot(Structure):
    """Opaque handle target."""


class picollo_approx_counter(Structure):
    """Opaque handle target."""


class picollo_log_writer(Structure):
    """Opaque handle target."""


class picollo_log_reader(Structure):
    """Opaque handle target."""


HistogramP = POINTER(picollo_histogram)
LogWriterP = POINTER(picollo_log_writer)
LogReaderP = POINTER(picollo_log_reader)
c_uint8_p = POINTER(c_uint8)
SnapshotP = POINTER(picollo_snapshot)
ApproxCounterP = POINTER(picollo_approx_counter)
status_t = c_uint32
c_size_p = POINTER(c_size_t)


# --- signatures ------------------------------------------------------------------------

#: Every function this binding calls: name -> (restype, argtypes), applied by `_native`.
SIGNATURES = {
    "picollo_abi_version": (c_uint32, []),
    "picollo_histogram_config_default": (picollo_histogram_config, []),
    "picollo_histogram_new": (
        status_t,
        [POINTER(picollo_histogram_config), POINTER(HistogramP)],
    ),
    "picollo_histogram_free": (None, [HistogramP]),
    "picollo_histogram_record": (None, [HistogramP, c_uint64]),
    "picollo_histogram_record_n": (None, [HistogramP, c_uint64, c_uint64]),
    "picollo_histogram_record_corrected": (None, [HistogramP, c_uint64, c_uint64]),
    # values as c_void_p so a numpy buffer's address passes without a ctypes array copy
    "picollo_histogram_record_many": (status_t, [HistogramP, c_void_p, c_size_t]),
    "picollo_histogram_reset": (status_t, [HistogramP]),
    "picollo_histogram_set_value_selection": (status_t, [HistogramP, c_uint32]),
    "picollo_histogram_get_info": (status_t, [HistogramP, POINTER(picollo_histogram_info)]),
    "picollo_histogram_add": (status_t, [HistogramP, HistogramP]),
    "picollo_histogram_subtract": (status_t, [HistogramP, HistogramP]),
    "picollo_histogram_percentile": (
        status_t,
        [HistogramP, c_double, POINTER(picollo_percentile)],
    ),
    "picollo_histogram_percentiles": (
        status_t,
        [HistogramP, POINTER(c_double), c_size_t, POINTER(picollo_percentile)],
    ),
    "picollo_histogram_percentile_values": (
        status_t,
        [HistogramP, POINTER(c_double), c_size_t, POINTER(c_uint64)],
    ),
    "picollo_histogram_summary": (status_t, [HistogramP, POINTER(picollo_summary)]),
    "picollo_histogram_mean_stdev": (
        status_t,
        [HistogramP, POINTER(c_double), POINTER(c_double)],
    ),
    "picollo_histogram_bucket": (status_t, [HistogramP, c_size_t, POINTER(picollo_bucket)]),
    "picollo_histogram_next_bucket": (
        status_t,
        [HistogramP, c_size_p, POINTER(picollo_bucket)],
    ),
    "picollo_histogram_next_buckets": (
        status_t,
        [HistogramP, c_size_p, POINTER(picollo_bucket), c_size_t, c_size_p],
    ),
    "picollo_snapshot_new": (status_t, [HistogramP, POINTER(SnapshotP)]),
    "picollo_snapshot_update": (status_t, [SnapshotP, HistogramP, c_uint32]),
    "picollo_snapshot_summary": (status_t, [SnapshotP, POINTER(picollo_summary)]),
    "picollo_snapshot_percentiles": (
        status_t,
        [SnapshotP, POINTER(c_double), c_size_t, POINTER(picollo_percentile)],
    ),
    "picollo_snapshot_free": (None, [SnapshotP]),
    "picollo_approx_counter_new": (
        status_t,
        [c_uint32, c_uint32, c_uint32, POINTER(ApproxCounterP)],
    ),
    "picollo_approx_counter_free": (None, [ApproxCounterP]),
    "picollo_approx_counter_increment": (None, [ApproxCounterP]),
    "picollo_approx_counter_add": (None, [ApproxCounterP, c_uint64]),
    "picollo_approx_counter_get": (status_t, [ApproxCounterP, POINTER(c_uint64)]),
    "picollo_approx_counter_reset": (status_t, [ApproxCounterP, POINTER(c_uint64)]),
    "picollo_approx_counter_policy": (
        status_t,
        [ApproxCounterP, POINTER(c_uint32), POINTER(c_uint32), POINTER(c_uint32)],
    ),
    "picollo_status_str": (c_char_p, [c_uint32]),
    "picollo_last_error_message": (c_char_p, []),
    "picollo_summary_table": (
        status_t,
        [POINTER(picollo_summary), c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_summary_diff": (
        status_t,
        [
            POINTER(picollo_summary),
            POINTER(picollo_summary),
            c_char_p,
            c_char_p,
            c_char_p,
            POINTER(c_char),
            c_size_t,
            c_size_p,
        ],
    ),
    "picollo_summary_line": (
        status_t,
        [POINTER(picollo_summary), c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_summary_json": (
        status_t,
        [POINTER(picollo_summary), POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_percentile_format": (
        status_t,
        [POINTER(picollo_percentile), POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_histogram_table": (
        status_t,
        [HistogramP, c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    # --- HdrHistogram formats: V2, .hgrm, interval logs (ABI 1.4) ---
    "picollo_histogram_encode_v2": (
        status_t,
        [HistogramP, c_uint32, c_uint8_p, c_size_t, c_size_p],
    ),
    "picollo_histogram_decode_v2": (status_t, [c_uint8_p, c_size_t, POINTER(HistogramP)]),
    "picollo_histogram_add_v2": (status_t, [HistogramP, c_uint8_p, c_size_t]),
    "picollo_histogram_hgrm": (
        status_t,
        [HistogramP, c_uint32, c_double, c_uint32, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_log_writer_new": (status_t, [POINTER(LogWriterP)]),
    "picollo_log_writer_free": (None, [LogWriterP]),
    "picollo_log_writer_header": (status_t, [LogWriterP, c_double, c_double]),
    "picollo_log_writer_comment": (status_t, [LogWriterP, c_char_p]),
    "picollo_log_writer_set_max_unit_ratio": (status_t, [LogWriterP, c_double]),
    "picollo_log_writer_interval": (
        status_t,
        [LogWriterP, HistogramP, c_char_p, c_double, c_double],
    ),
    "picollo_log_writer_take": (
        status_t,
        [LogWriterP, POINTER(c_char), c_size_t, c_size_p],
    ),
    # the text as c_char_p: bytes pass without a copy (the reader copies them itself)
    "picollo_log_reader_new": (status_t, [c_char_p, c_size_t, POINTER(LogReaderP)]),
    "picollo_log_reader_free": (None, [LogReaderP]),
    "picollo_log_reader_next": (
        status_t,
        [LogReaderP, POINTER(picollo_log_interval), POINTER(HistogramP)],
    ),
    "picollo_log_reader_tag": (
        status_t,
        [LogReaderP, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_log_reader_times": (
        status_t,
        [LogReaderP, POINTER(c_double), POINTER(c_double)],
    ),
    "picollo_log_sum": (
        status_t,
        [c_char_p, c_size_t, c_char_p, c_double, c_double, POINTER(HistogramP)],
    ),
}
