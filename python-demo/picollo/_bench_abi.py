"""The benchmark harness of libpicollo's C ABI (Linux, ABI 1.25) as data: the config,
comparison and floor structs, the enums and the signatures of ``picollo_bench_*``.

Like `_abi`, this module loads no library; `_bench_native` applies `BENCH_SIGNATURES`.
The work callback goes in as ``c_void_p`` (the header's function pointer type is a
pointer as far as the ABI is concerned); `WORK` is its ctypes prototype.
"""

from __future__ import annotations

import ctypes
import enum
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_int32,
    c_size_t,
    c_uint32,
    c_uint64,
    c_void_p,
)

from ._abi import HistogramP, c_size_p, status_t

#: The ABI minor version whose harness this binding declares: interleaved comparisons
#: (`picollo_bench_compare_run`, `picollo_bench_config.threshold`; 1.13), runs apart
#: (`picollo_bench_judge_apart`, `picollo_bench_result_median_round`,
#: `picollo_bench_config.fixed_offsets`; 1.15), exact metrics
#: (`picollo_bench_result_metric_exact`, `picollo_bench_result_percentile`,
#: `picollo_bench_result_constant`, `picollo_bench_config.unoptimized`; 1.16), HTML pages
#: (`PICOLLO_BENCH_FORMAT_HTML`, `picollo_bench_compare_html`; 1.17), figures floored at 0
#: or below the resolution (`picollo_bench_result_metric_floor`; 1.19), the formats of CI tools
#: and the summary of comparisons (`picollo_bench_results_text`, `picollo_bench_summary`;
#: 1.19), comparisons judged on a named metric (`picollo_bench_compare_metric`; 1.19), the
#: result formats by name (`picollo_bench_result_format`, `picollo_bench_results_format`,
#: `picollo_bench_format_names`; 1.25).
BENCH_ABI_MINOR = 25


class BenchVerdict(enum.IntEnum):
    """`picollo_bench_verdict`: B against A on time per operation (99 % confidence)."""

    NO_DIFFERENCE = 0
    FASTER = 1
    SLOWER = 2
    WITHIN_NOISE = 3
    NOT_ENOUGH_ROUNDS = 4
    NOT_ENOUGH_RUNS_APART = 5
    #: runs apart spread past the noise floor's bound of 100 % (ABI 1.26)
    NOT_JUDGED = 6
    #: stopped at its budget before its interval settled the gate's question (ABI 1.27)
    NOT_SETTLED = 7


class BenchFormat(enum.IntEnum):
    """`picollo_bench_format`: a text form of a result (REPORT to HTML), or of a suite of
    results for a CI tool (BENCHER to DOCUMENT). Fixed values; every format, these and any
    added later, is also reached by its name (`picollo_bench_format_names`)."""

    REPORT = 0
    SUMMARIES = 1
    JSON = 2
    LOG = 3
    LINE = 4
    HTML = 5
    BENCHER = 6
    GITHUB_ACTION = 7
    GOOGLE_BENCHMARK = 8
    DOCUMENT = 9


class picollo_bench_result(Structure):
    """Opaque handle target."""


BenchResultP = POINTER(picollo_bench_result)


class picollo_bench_config(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("pinned_cpu", c_int32),
        ("name", c_char_p),
        ("counters", c_char_p),
        ("samples", c_uint64),
        ("batch", c_uint64),
        ("time_budget", c_double),
        ("warmup", c_double),
        ("relative_error", c_double),
        ("nice", c_int32),
        ("set_nice", c_uint32),
        ("baseline", BenchResultP),
        ("threshold", c_double),
        ("rounds", c_uint64),
        ("seed", c_uint64),
        ("fixed_offsets", c_uint32),
        ("unoptimized", c_char_p),
        ("force_read_path", c_uint32),
    ]


if ctypes.sizeof(picollo_bench_config) != 128:
    raise ImportError(f"picollo_bench_config is {ctypes.sizeof(picollo_bench_config)} bytes, "
                      "expected 128")


class picollo_bench_comparison(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("verdict", c_uint32),
        ("ratio", c_double),
        ("change", c_double),
        ("change_low", c_double),
        ("change_high", c_double),
        ("noise_floor", c_double),
        ("threshold", c_double),
        ("rounds_a", c_uint64),
        ("rounds_b", c_uint64),
        ("paired", c_uint32),
        ("warnings", c_uint32),
    ]


class picollo_bench_floor(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("flagged", c_uint32),
        ("floored", c_uint64),
        ("samples", c_uint64),
        ("resolution", c_double),
        ("below_resolution", c_uint32),
    ]


#: `picollo_bench_work`: ``void (*)(void *ctx, uint64_t iterations)``.
WORK = CFUNCTYPE(None, c_void_p, c_uint64)

#: Every harness function this binding calls: name -> (restype, argtypes).
BENCH_SIGNATURES = {
    "picollo_bench_config_default": (picollo_bench_config, []),
    "picollo_bench_run": (
        status_t, [POINTER(picollo_bench_config), c_void_p, c_void_p, POINTER(BenchResultP)]),
    "picollo_bench_result_free": (None, [BenchResultP]),
    "picollo_bench_result_metric_count": (status_t, [BenchResultP, c_size_p]),
    "picollo_bench_result_metric_name": (
        status_t, [BenchResultP, c_size_t, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_result_metric_unit": (
        status_t, [BenchResultP, c_size_t, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_result_histogram": (status_t, [BenchResultP, c_size_t, POINTER(HistogramP)]),
    "picollo_bench_result_metric_exact": (status_t, [BenchResultP, c_size_t, POINTER(c_uint32)]),
    "picollo_bench_result_percentile": (
        status_t, [BenchResultP, c_size_t, c_double, POINTER(c_double)]),
    "picollo_bench_result_constant": (status_t, [BenchResultP, c_size_t, POINTER(c_double)]),
    "picollo_bench_result_metric_floor": (
        status_t, [BenchResultP, c_size_t, POINTER(picollo_bench_floor)]),
    "picollo_bench_result_text": (
        status_t, [BenchResultP, c_uint32, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_compare": (
        status_t, [BenchResultP, BenchResultP, POINTER(c_char), c_size_t, c_size_p,
                   POINTER(c_uint32), POINTER(c_double)]),
    "picollo_bench_compare_run": (
        status_t, [POINTER(picollo_bench_config), c_char_p, c_void_p, c_void_p, c_char_p,
                   c_void_p, c_void_p, POINTER(BenchResultP), POINTER(BenchResultP)]),
    "picollo_bench_compare_html": (
        status_t, [BenchResultP, BenchResultP, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_compare_info": (
        status_t, [BenchResultP, BenchResultP, POINTER(picollo_bench_comparison)]),
    "picollo_bench_compare_metric": (
        status_t, [BenchResultP, BenchResultP, c_char_p, POINTER(c_char), c_size_t, c_size_p,
                   POINTER(picollo_bench_comparison), c_size_p, POINTER(c_uint32)]),
    "picollo_bench_results_text": (
        status_t, [POINTER(BenchResultP), c_size_t, c_uint32, POINTER(c_char), c_size_t,
                   c_size_p]),
    "picollo_bench_result_format": (
        status_t, [BenchResultP, c_char_p, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_results_format": (
        status_t, [POINTER(BenchResultP), c_size_t, c_char_p, POINTER(c_char), c_size_t,
                   c_size_p]),
    "picollo_bench_format_names": (status_t, [POINTER(c_char), c_size_t, c_size_p]),
    "picollo_bench_summary": (
        status_t, [POINTER(BenchResultP), POINTER(BenchResultP), c_size_t, POINTER(c_char),
                   c_size_t, c_size_p]),
    "picollo_bench_result_median_round": (status_t, [BenchResultP, POINTER(c_double)]),
    "picollo_bench_judge_apart": (
        status_t, [BenchResultP, POINTER(c_double), c_size_t, POINTER(c_char), c_size_t,
                   c_size_p, POINTER(picollo_bench_comparison)]),
}
