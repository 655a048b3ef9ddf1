"""The benchmark harness of libpicollo (Linux, ABI 1.25 or later): the signatures of
`_bench_abi` applied to the loaded library.

On a library without the harness (another platform, an older ABI) importing this module
raises ImportError naming what is missing.
"""

from __future__ import annotations

from ._bench_abi import (  # noqa: F401 (re-exported: `bench` reads them here)
    BENCH_ABI_MINOR,
    BENCH_SIGNATURES,
    WORK,
    BenchFormat,
    BenchResultP,
    BenchVerdict,
    picollo_bench_comparison,
    picollo_bench_config,
    picollo_bench_floor,
)
from ._native import apply_signatures, check_config_size, lib, missing, pylib


_NEEDS = f"the benchmark harness needs a Linux build of ABI 1.{BENCH_ABI_MINOR} or later"
apply_signatures(BENCH_SIGNATURES, _NEEDS)
if lib.picollo_abi_version() & 0xFFFF < BENCH_ABI_MINOR:
    raise ImportError(missing("picollo_bench_format_names", _NEEDS))
check_config_size(picollo_bench_config)

#: `picollo_bench_run` through `ctypes.PyDLL`: the run keeps the GIL, so each batch's
#: callback enters Python without taking it again (what the empty function's baseline
#: measures stays the cost of the calls, not of a GIL hand-over).
run = pylib.picollo_bench_run
run.restype, run.argtypes = BENCH_SIGNATURES["picollo_bench_run"]

#: `picollo_bench_compare_run`, likewise through `ctypes.PyDLL`.
compare_run = pylib.picollo_bench_compare_run
compare_run.restype, compare_run.argtypes = BENCH_SIGNATURES["picollo_bench_compare_run"]
