"""The suites of libpicollo's C ABI (Linux, ABI 1.29) as data: the opaque suite and the
signatures of ``picollo_suite_*``.

Like `_abi`, this module loads no library; `_suite_native` applies `SUITE_SIGNATURES`. A
benchmark's work goes in as ``c_void_p``, a `_bench_abi.WORK` callback.
"""

from __future__ import annotations

from ctypes import POINTER, Structure, c_char_p, c_double, c_int32, c_size_t, c_uint64, c_void_p

from ._abi import status_t
from ._bench_abi import picollo_bench_config

#: The ABI minor version whose suites this binding declares: the suite runner
#: (`picollo_suite_new` to `picollo_suite_main`; 1.20) and the command of its own worker
#: (`picollo_suite_set_worker`; 1.21), a benchmark of a parameter and a throughput
#: (`picollo_suite_add_param`, `picollo_suite_set_throughput`; 1.24), untimed stretches
#: (`picollo_suite_pause`, `picollo_suite_resume`; 1.28), a benchmark's fixed batch and its
#: own time (`picollo_suite_set_batch`, `picollo_suite_set_manual_time`,
#: `picollo_suite_set_iteration_time`; 1.29).
SUITE_ABI_MINOR = 29


class picollo_suite(Structure):
    """Opaque handle target."""


SuiteP = POINTER(picollo_suite)

#: Every suite function this binding calls: name -> (restype, argtypes).
SUITE_SIGNATURES = {
    "picollo_suite_new": (status_t, [c_char_p, POINTER(SuiteP)]),
    "picollo_suite_free": (None, [SuiteP]),
    "picollo_suite_set_config": (status_t, [SuiteP, POINTER(picollo_bench_config)]),
    "picollo_suite_add": (status_t, [SuiteP, c_char_p, c_void_p, c_void_p]),
    "picollo_suite_add_param": (status_t, [SuiteP, c_char_p, c_char_p, c_void_p, c_void_p]),
    "picollo_suite_set_throughput": (status_t, [SuiteP, c_char_p, c_char_p, c_char_p, c_uint64]),
    "picollo_suite_set_batch": (status_t, [SuiteP, c_char_p, c_char_p, c_uint64]),
    "picollo_suite_set_manual_time": (status_t, [SuiteP, c_char_p, c_char_p]),
    "picollo_suite_set_iteration_time": (status_t, [c_double]),
    "picollo_suite_set_worker": (status_t, [SuiteP, POINTER(c_char_p), c_size_t]),
    "picollo_suite_fail": (status_t, [c_char_p]),
    "picollo_suite_pause": (None, []),
    "picollo_suite_resume": (None, []),
    "picollo_suite_main": (c_int32, [SuiteP, c_int32, POINTER(c_char_p)]),
}
