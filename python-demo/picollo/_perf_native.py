"""The perf part of libpicollo (Linux): the signatures of `_perf_abi` applied to the
loaded library, and its struct mirrors re-exported.

On a platform whose library lacks the perf layer, importing this module raises ImportError
naming the missing function.
"""

from __future__ import annotations

import ctypes

from ._native import apply_signatures, lib
from ._perf_abi import (  # noqa: F401 (re-exported: `perf` reads them here)
    EXPECTED_SIZES,
    PERF_SIGNATURES,
    SessionP,
    picollo_perf_config,
    picollo_perf_counter_values,
    picollo_perf_delta,
    picollo_perf_derived,
    picollo_perf_info,
    picollo_perf_reading,
    picollo_perf_session,
    picollo_scope,
)


def _missing(name: str) -> str:
    v = lib.picollo_abi_version()
    return (f"libpicollo (ABI {v >> 16}.{v & 0xFFFF}) has no {name}: the perf layer exists "
            "on Linux builds only, its emulated counters from ABI 1.16")


apply_signatures(PERF_SIGNATURES, _missing)

_default = lib.picollo_perf_config_default()
if _default.struct_size != ctypes.sizeof(picollo_perf_config):
    raise ImportError(
        "picollo_perf_config size differs between library and binding: "
        f"{_default.struct_size} vs {ctypes.sizeof(picollo_perf_config)}"
    )
