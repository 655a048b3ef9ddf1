"""The perf part of libpicollo (Linux): the signatures of `_perf_abi` applied to the
loaded library, and its struct mirrors re-exported.

On a platform whose library lacks the perf layer, importing this module raises ImportError
naming the missing function.
"""

from __future__ import annotations

from ._native import apply_signatures, check_config_size
from ._perf_abi import (  # noqa: F401 (re-exported: `perf` reads them here)
    EXPECTED_SIZES,
    PERF_SIGNATURES,
    SessionP,
    picollo_perf_config,
    picollo_perf_counter_values,
    picollo_perf_delta,
    picollo_perf_derived,
    picollo_perf_info,
    picollo_perf_path_choice,
    picollo_perf_reading,
    picollo_perf_session,
    picollo_scope,
)


apply_signatures(PERF_SIGNATURES, "the perf layer exists on Linux builds only, its emulated "
                 "counters from ABI 1.16")
check_config_size(picollo_perf_config)
