"""The perf part of libpicollo's C ABI (Linux) as data: struct mirrors and signatures of
``picollo_perf_*``, the timers, scopes and CPU helpers.

Like `_abi`, this module loads no library; `_perf_native` applies `PERF_SIGNATURES`.
Sizes are checked at import so a header change this file missed fails loudly.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, Structure, c_char, c_char_p, c_double, c_int32, c_size_t, c_uint32, c_uint64

from ._abi import HistogramP, c_size_p, status_t


class picollo_perf_config(Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("pid", c_int32),
        ("cpu", c_int32),
        ("pinned", c_uint32),
        ("include_kernel", c_uint32),
        ("enabled", c_uint32),
        ("calibrate", c_uint32),
        ("rdpmc", c_uint32),
        ("relative_error", c_double),
        ("record_kind", c_uint32),
        ("reserved", c_uint32),
    ]


class picollo_perf_reading(Structure):
    _fields_ = [
        ("value", c_uint64),
        ("enabled", c_uint64),
        ("running", c_uint64),
        ("scaled", c_uint64),
    ]


class picollo_perf_delta(Structure):
    _fields_ = [
        ("raw", c_uint64),
        ("scaled", c_uint64),
        ("corrected", c_uint64),
        ("enabled", c_uint64),
        ("running", c_uint64),
    ]


class picollo_perf_counter_values(Structure):
    _fields_ = [
        ("current", picollo_perf_reading),
        ("previous", picollo_perf_reading),
        ("delta", picollo_perf_delta),
        ("overhead_syscall", c_uint64),
        ("overhead_rdpmc", c_uint64),
        ("id", c_uint64),
        ("multiplexed", c_uint32),
        ("has_page", c_uint32),
    ]


class picollo_perf_derived(Structure):
    _fields_ = [
        ("ipc", c_double),
        ("cache_miss_ratio", c_double),
        ("branch_miss_ratio", c_double),
    ]


class picollo_perf_path_choice(Structure):
    _fields_ = [
        ("path", c_uint32),
        ("policy", c_uint32),
        ("reason", c_uint32),
        ("reserved", c_uint32),
        ("user_ns", c_double),
        ("syscall_ns", c_double),
    ]


class picollo_perf_info(Structure):
    _fields_ = [
        ("present", c_uint32),
        ("vendor", c_uint32),
        ("hypervisor", c_uint32),
        ("arch_perfmon_version", c_uint32),
        ("fixed_counters", c_uint32),
        ("fixed_width", c_uint32),
        ("programmable_counters", c_uint32),
        ("programmable_width", c_uint32),
        ("rdpmc", c_int32),
        ("paranoid", c_int32),
        ("paranoid_known", c_uint32),
        ("cycles_errno", c_int32),
        ("core_pmu_count", c_uint32),
        ("pmu_count", c_uint32),
    ]


class picollo_scope(Structure):
    _fields_ = [
        ("histogram", HistogramP),
        ("start", c_uint64),
        ("unit", c_uint32),
        ("reserved", c_uint32),
    ]


EXPECTED_SIZES = {
    picollo_perf_config: 48,
    picollo_perf_reading: 32,
    picollo_perf_delta: 40,
    picollo_perf_counter_values: 136,
    picollo_perf_derived: 24,
    picollo_perf_info: 56,
    picollo_perf_path_choice: 32,
    picollo_scope: 24,
}
for _cls, _size in EXPECTED_SIZES.items():
    if ctypes.sizeof(_cls) != _size:
        raise ImportError(f"{_cls.__name__} is {ctypes.sizeof(_cls)} bytes, expected {_size}")


class picollo_perf_session(Structure):
    """Opaque handle target."""


SessionP = POINTER(picollo_perf_session)
c_uint32_p = POINTER(c_uint32)

#: Every perf function this binding calls: name -> (restype, argtypes).
PERF_SIGNATURES = {
    "picollo_perf_config_default": (picollo_perf_config, []),
    "picollo_perf_session_new": (status_t, [POINTER(picollo_perf_config), POINTER(SessionP)]),
    "picollo_perf_session_free": (None, [SessionP]),
    "picollo_perf_session_add_hardware": (status_t, [SessionP, c_uint32]),
    "picollo_perf_session_add_cache": (status_t, [SessionP, c_uint32, c_uint32, c_uint32]),
    "picollo_perf_session_add_software": (status_t, [SessionP, c_uint32]),
    "picollo_perf_session_add_raw": (status_t, [SessionP, c_uint32, c_uint64, c_uint64, c_uint64]),
    "picollo_perf_session_add_fixed": (status_t, [SessionP]),
    "picollo_perf_session_add_named": (status_t, [SessionP, c_char_p]),
    "picollo_perf_session_open": (status_t, [SessionP]),
    "picollo_perf_session_read": (status_t, [SessionP, c_uint32, c_uint32_p]),
    "picollo_perf_session_path_choice": (status_t, [SessionP, POINTER(picollo_perf_path_choice)]),
    "picollo_perf_session_path_describe": (status_t, [SessionP, c_char_p, c_size_t, c_size_p]),
    "picollo_perf_session_deltas": (
        status_t, [SessionP, POINTER(picollo_perf_delta), c_size_t, c_size_p]),
    "picollo_perf_session_record": (status_t, [SessionP]),
    "picollo_perf_session_record_kind": (status_t, [SessionP, c_uint32]),
    "picollo_perf_session_enable": (status_t, [SessionP]),
    "picollo_perf_session_disable": (status_t, [SessionP]),
    "picollo_perf_session_reset": (status_t, [SessionP]),
    "picollo_perf_session_is_open": (status_t, [SessionP, c_uint32_p]),
    "picollo_perf_session_counter_count": (status_t, [SessionP, c_size_p]),
    "picollo_perf_session_counter_name": (
        status_t, [SessionP, c_size_t, POINTER(c_char), c_size_t, c_size_p]),
    "picollo_perf_session_counter_values": (
        status_t, [SessionP, c_size_t, POINTER(picollo_perf_counter_values)]),
    "picollo_perf_session_counter_histogram": (status_t, [SessionP, c_size_t, POINTER(HistogramP)]),
    "picollo_perf_session_derived": (status_t, [SessionP, POINTER(picollo_perf_derived)]),
    "picollo_perf_session_derived_means": (status_t, [SessionP, POINTER(picollo_perf_derived)]),
    "picollo_perf_discover": (status_t, [POINTER(picollo_perf_info)]),
    "picollo_perf_describe": (status_t, [POINTER(c_char), c_size_t, c_size_p]),
    "picollo_perf_emulation_describe": (status_t, [POINTER(c_char), c_size_t, c_size_p]),
    "picollo_perf_counter_supported": (status_t, [c_char_p]),
    "picollo_ticks": (c_uint64, []),
    "picollo_ticks_begin": (c_uint64, []),
    "picollo_ticks_end": (c_uint64, []),
    "picollo_monotonic_nanos": (c_uint64, []),
    "picollo_tick_frequency": (c_uint64, []),
    "picollo_ticks_to_nanos": (c_uint64, [c_uint64]),
    "picollo_convert_ticks": (c_uint64, [c_uint64, c_uint64, c_uint64]),
    "picollo_scope_begin": (picollo_scope, [HistogramP, c_uint32]),
    "picollo_scope_end": (status_t, [POINTER(picollo_scope), POINTER(c_uint64)]),
    "picollo_add_chain": (c_uint64, [c_uint64]),
    "picollo_pin_thread": (status_t, [c_uint32]),
    "picollo_set_thread_nice": (status_t, [c_int32]),
}
