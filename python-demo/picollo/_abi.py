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
    c_float,
    c_int32,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

#: The ABI major version this binding speaks (`PICOLLO_ABI_VERSION_MAJOR`).
ABI_VERSION_MAJOR = 1
#: The oldest minor version with every function declared here (30: the signed batch record,
#: `picollo_histogram_record_many_i64`; 20: the cumulative copy,
#: `picollo_cumulative_*`; 18: the deflate level,
#: `picollo_histogram_encode_v2_level`; 11: the unit,
#: `picollo_histogram_get_unit` and `picollo_histogram_config.lowest_discernible`; 10: the
#: Prometheus native histograms, `picollo_histogram_prometheus_native` and its float twin,
#: and `picollo_bench_*` with `picollo_bench_config.baseline`; 8:
#: `picollo_float_histogram_downsample`; 7: the exact extremes,
#: `picollo_histogram_exact_extremes` and `picollo_histogram_config.exact_extremes`; 6: the
#: histogram of doubles, `FLOAT_SIGNATURES`; queries by value, rebinning and steps).
ABI_VERSION_MINOR = 30
#: `PICOLLO_SUMMARY_PERCENTILES`.
SUMMARY_PERCENTILES = 16
#: `PICOLLO_OTLP_SCALE_AUTO`: the OTLP scale chosen from the histogram's relative error.
OTLP_SCALE_AUTO = -(2**31)
#: `PICOLLO_PROMETHEUS_SCHEMA_AUTO`: the native-histogram schema chosen from the relative error.
PROMETHEUS_SCHEMA_AUTO = -(2**31)

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


class OtlpTemporality(enum.IntEnum):
    """`picollo_otlp_temporality`: how the points of an OTLP metric relate in time."""

    DELTA = 1
    CUMULATIVE = 2


class OtlpFormat(enum.IntEnum):
    """`picollo_otlp_format`: how `picollo_histogram_otlp` writes a request."""

    PROTOBUF = 0
    JSON = 1


class FloatStorage(enum.IntEnum):
    """`picollo_float_storage`: how a float histogram keeps its counters."""

    DENSE = 0
    SPARSE = 1


class FloatMode(enum.IntEnum):
    """`picollo_float_mode`: who may record into a float histogram."""

    SINGLE_WRITER = 0
    INTERLOCKED = 1


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
        ("storage", c_uint32),  # picollo_storage (ABI 1.6)
        ("exact_extremes", c_uint32),  # 0 or 1 (ABI 1.7)
        ("reserved", c_uint32),
        ("lowest_discernible", c_uint64),  # the unit is 2**floor(log2) of it (ABI 1.11)
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


class picollo_label(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("value", c_char_p),
    ]


class picollo_openmetrics_options(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("summary", c_uint32),
        ("bounds", POINTER(c_uint64)),
        ("bound_count", c_size_t),
        ("coarse_relative_error", c_double),
        ("unit_ratio", c_double),
        ("created_unix_nanos", c_uint64),
    ]


class picollo_otlp_options(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("temporality", c_uint32),
        ("name", c_char_p),
        ("description", c_char_p),
        ("unit", c_char_p),
        ("start_time_unix_nano", c_uint64),
        ("time_unix_nano", c_uint64),
        ("attributes", POINTER(picollo_label)),
        ("attribute_count", c_size_t),
        ("resource", POINTER(picollo_label)),
        ("resource_count", c_size_t),
        ("scope_name", c_char_p),
        ("scope_version", c_char_p),
        ("scale", c_int32),
        ("reserved", c_uint32),
        ("unit_ratio", c_double),
    ]


class picollo_prometheus_native_options(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("schema", c_int32),
        ("name", c_char_p),
        ("help", c_char_p),
        ("labels", POINTER(picollo_label)),
        ("label_count", c_size_t),
        ("unit_ratio", c_double),
        ("classic_coarse_relative_error", c_double),
    ]


class picollo_step(Structure):
    _fields_ = [
        ("lower", c_uint64),
        ("highest", c_uint64),
        ("count", c_uint64),
        ("cumulative_count", c_uint64),
        ("percentile", c_double),
    ]


# --- the histogram of doubles (ABI 1.6) ---


class picollo_float_config(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("counter_bits", c_uint32),
        ("relative_error", c_double),
        ("min_magnitude", c_double),
        ("max_magnitude", c_double),
        ("storage", c_uint32),
        ("mode", c_uint32),
        ("value_selection", c_uint32),
        ("reserved", c_uint32),
    ]


class picollo_float_info(Structure):
    _fields_ = [
        ("total", c_uint64),
        ("zero", c_uint64),
        ("nan", c_uint64),
        ("positive_infinity", c_uint64),
        ("negative_infinity", c_uint64),
        ("underflow", c_uint64),
        ("overflow", c_uint64),
        ("saturated", c_uint64),
        ("sum", c_double),
        ("min", c_double),
        ("max", c_double),
        ("min_magnitude", c_double),
        ("max_magnitude", c_double),
        ("relative_error", c_double),
        ("buckets_per_octave", c_uint64),
        ("storage_len", c_uint64),
        ("footprint_bytes", c_uint64),
        ("counter_bits", c_uint32),
        ("mode", c_uint32),
        ("storage", c_uint32),
        ("value_selection", c_uint32),
    ]


class picollo_float_percentile(Structure):
    _fields_ = [
        ("rank", c_double),
        ("value", c_double),
        ("plus_minus", c_double),
        ("lowest", c_double),
        ("highest", c_double),
        ("count", c_uint64),
        ("cumulative_count", c_uint64),
        ("rank_count", c_uint64),
        ("side", c_int32),
        ("reserved", c_uint32),
    ]


class picollo_float_summary(Structure):
    _fields_ = [
        ("percentiles", picollo_float_percentile * SUMMARY_PERCENTILES),
        ("total", c_uint64),
        ("zero", c_uint64),
        ("nan", c_uint64),
        ("positive_infinity", c_uint64),
        ("negative_infinity", c_uint64),
        ("underflow", c_uint64),
        ("overflow", c_uint64),
        ("saturated", c_uint64),
        ("sum", c_double),
        ("min", c_double),
        ("max", c_double),
        ("mean", c_double),
        ("stdev", c_double),
        ("precision", c_double),
        ("min_magnitude", c_double),
        ("max_magnitude", c_double),
    ]


class picollo_float_bucket(Structure):
    _fields_ = [
        ("lowest", c_double),
        ("highest", c_double),
        ("value", c_double),
        ("count", c_uint64),
        ("side", c_int32),
        ("reserved", c_uint32),
    ]


# Sizes as the C compiler lays the header out on LP64 (all fields naturally aligned).
EXPECTED_SIZES = {
    picollo_histogram_config: 64,
    picollo_histogram_info: 96,
    picollo_percentile: 88,
    picollo_summary: 16 * 88 + 9 * 8,
    picollo_bucket: 48,
    picollo_log_interval: 48,
    picollo_label: 16,
    picollo_openmetrics_options: 48,
    picollo_otlp_options: 112,
    picollo_prometheus_native_options: 56,
    picollo_step: 40,
    picollo_float_config: 48,
    picollo_float_info: 17 * 8 + 4 * 4,
    picollo_float_percentile: 72,
    picollo_float_summary: 16 * 72 + 16 * 8,
    picollo_float_bucket: 40,
}
for _cls, _size in EXPECTED_SIZES.items():
    if ctypes.sizeof(_cls) != _size:  # not `assert`: must hold under `python -O` too
        raise ImportError(f"{_cls.__name__} is {ctypes.sizeof(_cls)} bytes, expected {_size}")


class picollo_histogram(Structure):
    """Opaque handle target."""


class picollo_snapshot(Structure):
    """Opaque handle target."""


class picollo_cumulative(Structure):
    """Opaque handle target."""


class picollo_approx_counter(Structure):
    """Opaque handle target."""


class picollo_log_writer(Structure):
    """Opaque handle target."""


class picollo_log_reader(Structure):
    """Opaque handle target."""


class picollo_openmetrics_writer(Structure):
    """Opaque handle target."""


class picollo_float_histogram(Structure):
    """Opaque handle target."""


class picollo_float_snapshot(Structure):
    """Opaque handle target."""


HistogramP = POINTER(picollo_histogram)
LogWriterP = POINTER(picollo_log_writer)
LogReaderP = POINTER(picollo_log_reader)
OpenMetricsWriterP = POINTER(picollo_openmetrics_writer)
LabelP = POINTER(picollo_label)
c_uint8_p = POINTER(c_uint8)
SnapshotP = POINTER(picollo_snapshot)
CumulativeP = POINTER(picollo_cumulative)
ApproxCounterP = POINTER(picollo_approx_counter)
FloatHistogramP = POINTER(picollo_float_histogram)
FloatSnapshotP = POINTER(picollo_float_snapshot)
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
    "picollo_histogram_record_many_i64": (status_t, [HistogramP, c_void_p, c_size_t]),
    "picollo_histogram_reset": (status_t, [HistogramP]),
    "picollo_histogram_set_value_selection": (status_t, [HistogramP, c_uint32]),
    "picollo_histogram_get_info": (status_t, [HistogramP, POINTER(picollo_histogram_info)]),
    "picollo_histogram_get_storage": (status_t, [HistogramP, POINTER(c_uint32)]),
    "picollo_histogram_get_unit": (status_t, [HistogramP, POINTER(c_uint64)]),
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
    # --- the cumulative copy (ABI 1.22) ---
    "picollo_cumulative_new": (status_t, [HistogramP, POINTER(CumulativeP)]),
    "picollo_cumulative_free": (None, [CumulativeP]),
    "picollo_cumulative_percentile": (
        status_t,
        [CumulativeP, c_double, POINTER(picollo_percentile)],
    ),
    "picollo_cumulative_percentiles": (
        status_t,
        [CumulativeP, POINTER(c_double), c_size_t, POINTER(picollo_percentile)],
    ),
    "picollo_cumulative_rank_of": (status_t, [CumulativeP, c_uint64, POINTER(c_double)]),
    "picollo_cumulative_quantile_of": (status_t, [CumulativeP, c_uint64, POINTER(c_double)]),
    "picollo_cumulative_count_between": (
        status_t,
        [CumulativeP, c_uint64, c_uint64, POINTER(c_uint64)],
    ),
    "picollo_cumulative_total_count": (status_t, [CumulativeP, POINTER(c_uint64)]),
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
    "picollo_histogram_encode_v2_level": (
        status_t,
        [HistogramP, c_uint32, c_uint32, c_uint8_p, c_size_t, c_size_p],
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
    # --- metrics pipelines: interval collection, OpenMetrics, Prometheus, OTLP (ABI 1.5) ---
    "picollo_histogram_collect": (status_t, [HistogramP, POINTER(HistogramP)]),
    "picollo_snapshot_collect": (status_t, [SnapshotP, HistogramP]),
    "picollo_openmetrics_options_default": (picollo_openmetrics_options, []),
    "picollo_histogram_openmetrics": (
        status_t,
        [
            HistogramP,
            c_char_p,
            c_char_p,
            c_char_p,
            LabelP,
            c_size_t,
            POINTER(picollo_openmetrics_options),
            POINTER(c_char),
            c_size_t,
            c_size_p,
        ],
    ),
    "picollo_openmetrics_writer_new": (status_t, [POINTER(OpenMetricsWriterP)]),
    "picollo_openmetrics_writer_free": (None, [OpenMetricsWriterP]),
    "picollo_openmetrics_writer_family": (
        status_t,
        [OpenMetricsWriterP, c_char_p, c_char_p, c_char_p,
         POINTER(picollo_openmetrics_options)],
    ),
    "picollo_openmetrics_writer_point": (
        status_t,
        [OpenMetricsWriterP, HistogramP, LabelP, c_size_t],
    ),
    "picollo_openmetrics_writer_finish": (status_t, [OpenMetricsWriterP]),
    "picollo_openmetrics_writer_take": (
        status_t,
        [OpenMetricsWriterP, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_histogram_prometheus_buckets": (
        status_t,
        [
            HistogramP,
            POINTER(picollo_openmetrics_options),
            POINTER(c_double),
            POINTER(c_uint64),
            c_size_t,
            c_size_p,
            POINTER(c_double),
        ],
    ),
    "picollo_otlp_options_default": (picollo_otlp_options, []),
    "picollo_histogram_otlp": (
        status_t,
        [HistogramP, POINTER(picollo_otlp_options), c_uint32, c_uint8_p, c_size_t, c_size_p],
    ),
    # --- Prometheus native histograms (ABI 1.10) ---
    "picollo_prometheus_native_options_default": (picollo_prometheus_native_options, []),
    "picollo_histogram_prometheus_native": (
        status_t,
        [HistogramP, POINTER(picollo_prometheus_native_options), c_uint8_p, c_size_t, c_size_p],
    ),
    # --- every export format by name (ABI 1.23) ---
    "picollo_histogram_format": (
        status_t,
        [HistogramP, c_char_p, LabelP, c_size_t, c_uint8_p, c_size_t, c_size_p],
    ),
    "picollo_float_histogram_format": (
        status_t,
        [FloatHistogramP, c_char_p, LabelP, c_size_t, c_uint8_p, c_size_t, c_size_p],
    ),
    "picollo_format_names": (status_t, [POINTER(c_char), c_size_t, c_size_p]),
    "picollo_format_binary": (status_t, [c_char_p, POINTER(c_uint32)]),
    # --- queries by value, other precisions, steps over values (ABI 1.6) ---
    "picollo_histogram_rank_of": (status_t, [HistogramP, c_uint64, POINTER(c_double)]),
    "picollo_histogram_quantile_of": (status_t, [HistogramP, c_uint64, POINTER(c_double)]),
    "picollo_histogram_count_between": (
        status_t,
        [HistogramP, c_uint64, c_uint64, POINTER(c_uint64)],
    ),
    "picollo_histogram_equivalent_range": (
        status_t,
        [HistogramP, c_uint64, POINTER(c_uint64), POINTER(c_uint64)],
    ),
    "picollo_histogram_add_rebinned": (status_t, [HistogramP, HistogramP]),
    "picollo_histogram_downsample": (status_t, [HistogramP, c_double, POINTER(HistogramP)]),
    "picollo_histogram_linear_steps": (
        status_t,
        [HistogramP, c_uint64, POINTER(c_uint64), POINTER(picollo_step), c_size_t, c_size_p],
    ),
    "picollo_histogram_log_steps": (
        status_t,
        [HistogramP, c_uint64, c_double, POINTER(c_uint64), POINTER(picollo_step), c_size_t,
         c_size_p],
    ),
    # --- exact extremes (ABI 1.7) ---
    "picollo_histogram_exact_extremes": (
        status_t,
        [HistogramP, POINTER(c_uint64), POINTER(c_uint64)],
    ),
}


#: The histogram of doubles (ABI 1.6): name -> (restype, argtypes), applied by `_native`.
FLOAT_SIGNATURES = {
    "picollo_float_config_default": (picollo_float_config, []),
    "picollo_float_histogram_new": (
        status_t,
        [POINTER(picollo_float_config), POINTER(FloatHistogramP)],
    ),
    "picollo_float_histogram_free": (None, [FloatHistogramP]),
    "picollo_float_histogram_record": (None, [FloatHistogramP, c_double]),
    "picollo_float_histogram_record_f32": (None, [FloatHistogramP, c_float]),
    "picollo_float_histogram_record_n": (None, [FloatHistogramP, c_double, c_uint64]),
    # values as c_void_p, as for the integer histogram: a numpy buffer passes uncopied
    "picollo_float_histogram_record_many": (status_t, [FloatHistogramP, c_void_p, c_size_t]),
    "picollo_float_histogram_record_many_f32": (
        status_t,
        [FloatHistogramP, c_void_p, c_size_t],
    ),
    "picollo_float_histogram_reset": (status_t, [FloatHistogramP]),
    "picollo_float_histogram_set_value_selection": (status_t, [FloatHistogramP, c_uint32]),
    "picollo_float_histogram_add": (status_t, [FloatHistogramP, FloatHistogramP]),
    "picollo_float_histogram_add_rebinned": (status_t, [FloatHistogramP, FloatHistogramP]),
    "picollo_float_histogram_downsample": (
        status_t, [FloatHistogramP, c_double, POINTER(FloatHistogramP)]),
    "picollo_float_histogram_get_info": (
        status_t,
        [FloatHistogramP, POINTER(picollo_float_info)],
    ),
    "picollo_float_histogram_percentile": (
        status_t,
        [FloatHistogramP, c_double, POINTER(picollo_float_percentile)],
    ),
    "picollo_float_histogram_percentiles": (
        status_t,
        [FloatHistogramP, POINTER(c_double), c_size_t, POINTER(picollo_float_percentile)],
    ),
    "picollo_float_histogram_summary": (
        status_t,
        [FloatHistogramP, POINTER(picollo_float_summary)],
    ),
    "picollo_float_histogram_rank_of": (
        status_t,
        [FloatHistogramP, c_double, POINTER(c_double)],
    ),
    "picollo_float_histogram_quantile_of": (
        status_t,
        [FloatHistogramP, c_double, POINTER(c_double)],
    ),
    "picollo_float_histogram_count_between": (
        status_t,
        [FloatHistogramP, c_double, c_double, POINTER(c_uint64)],
    ),
    "picollo_float_histogram_equivalent_range": (
        status_t,
        [FloatHistogramP, c_double, POINTER(c_double), POINTER(c_double)],
    ),
    "picollo_float_histogram_next_buckets": (
        status_t,
        [FloatHistogramP, POINTER(c_uint64), POINTER(picollo_float_bucket), c_size_t,
         c_size_p],
    ),
    "picollo_float_histogram_text": (
        status_t,
        [FloatHistogramP, c_uint32, c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_float_histogram_prometheus_native": (
        status_t,
        [FloatHistogramP, POINTER(picollo_prometheus_native_options), c_uint8_p, c_size_t,
         c_size_p],
    ),
    "picollo_float_summary_table": (
        status_t,
        [POINTER(picollo_float_summary), c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_float_summary_json": (
        status_t,
        [POINTER(picollo_float_summary), POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_float_summary_line": (
        status_t,
        [POINTER(picollo_float_summary), c_char_p, POINTER(c_char), c_size_t, c_size_p],
    ),
    "picollo_float_summary_diff": (
        status_t,
        [
            POINTER(picollo_float_summary),
            POINTER(picollo_float_summary),
            c_char_p,
            c_char_p,
            c_char_p,
            POINTER(c_char),
            c_size_t,
            c_size_p,
        ],
    ),
    "picollo_float_snapshot_new": (status_t, [FloatHistogramP, POINTER(FloatSnapshotP)]),
    "picollo_float_snapshot_free": (None, [FloatSnapshotP]),
    "picollo_float_snapshot_update": (status_t, [FloatSnapshotP, FloatHistogramP, c_uint32]),
    "picollo_float_snapshot_summary": (
        status_t,
        [FloatSnapshotP, POINTER(picollo_float_summary)],
    ),
}
