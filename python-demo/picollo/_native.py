"""libpicollo loaded: library lookup, and the signatures of `_abi` applied to it.

Nothing here is meant for users; `picollo.Histogram` and friends wrap it. The struct
mirrors and signatures live in `_abi` (no library needed) and are re-exported here.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.machinery
import os
import sys
from ctypes import c_uint32
from pathlib import Path
from typing import Optional

from ._abi import (  # noqa: F401 (re-exported: the rest of the package reads them here)
    ABI_VERSION_MAJOR,
    ABI_VERSION_MINOR,
    EXPECTED_SIZES,
    FLOAT_SIGNATURES,
    SIGNATURES,
    SUMMARY_PERCENTILES,
    U64_MAX,
    ApproxCounterP,
    CumulativeP,
    FloatHistogramP,
    FloatMode,
    FloatSnapshotP,
    FloatStorage,
    HistogramP,
    LabelP,
    LogReaderP,
    LogWriterP,
    OpenMetricsWriterP,
    OTLP_SCALE_AUTO,
    OtlpFormat,
    OtlpTemporality,
    PROMETHEUS_SCHEMA_AUTO,
    SnapshotP,
    V2Form,
    c_size_p,
    c_uint8_p,
    picollo_approx_counter,
    picollo_bucket,
    picollo_float_bucket,
    picollo_float_config,
    picollo_float_histogram,
    picollo_float_info,
    picollo_float_percentile,
    picollo_float_snapshot,
    picollo_float_summary,
    picollo_histogram,
    picollo_histogram_config,
    picollo_histogram_info,
    picollo_label,
    picollo_log_interval,
    picollo_log_reader,
    picollo_log_writer,
    picollo_openmetrics_options,
    picollo_openmetrics_writer,
    picollo_prometheus_native_options,
    picollo_otlp_options,
    picollo_percentile,
    picollo_snapshot,
    picollo_step,
    picollo_summary,
    status_t,
)


def _library_file_name() -> str:
    if sys.platform == "darwin":
        return "libpicollo.dylib"
    if sys.platform == "win32":
        return "picollo.dll"
    return "libpicollo.so"


def bundled_library() -> Optional[Path]:
    """The library an installed wheel carries inside this package, if any.

    setuptools-rust names it like an extension module: ``libpicollo.abi3.so`` in the
    abi3 wheel, ``libpicollo.cpython-311-x86_64-linux-gnu.so`` (say) in a version-specific
    build; the first of this interpreter's extension suffixes that exists wins.
    """
    package = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = package / f"libpicollo{suffix}"
        if path.is_file():
            return path
    return None


def library_candidates() -> list[str]:
    """Where the library is looked for, in order: $PICOLLO_LIB, the copy bundled in this
    package (an installed wheel), the workspace's release build next to this package
    (``../target/release`` in a checkout), the system's search path."""
    found = []
    env = os.environ.get("PICOLLO_LIB")
    if env:
        found.append(env)
    bundled = bundled_library()
    if bundled is not None:
        found.append(str(bundled))
    # python-demo/picollo/_native.py -> python-demo/../target/release (the repo root)
    package_parent = Path(__file__).resolve().parent.parent
    found.append(str(package_parent.parent / "target" / "release" / _library_file_name()))
    system = ctypes.util.find_library("picollo")
    if system:
        found.append(system)
    return found


def _load() -> ctypes.CDLL:
    env = os.environ.get("PICOLLO_LIB")
    if env:
        # An explicit choice is not second-guessed: if it fails, say so.
        try:
            return ctypes.CDLL(env)
        except OSError as e:
            raise ImportError(f"PICOLLO_LIB={env!r} could not be loaded: {e}") from e
    tried = []
    for path in library_candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError(
        "libpicollo not found; install the package (`pip install ./python-demo`), build it "
        "with `cargo build --release -p picollo-ffi`, or set PICOLLO_LIB to its path. "
        "Tried:\n  " + "\n  ".join(tried or ["(nothing)"])
    )


lib = _load()


def _abi_of_library() -> str:
    """The loaded library's ABI version, as ``major.minor``."""
    lib.picollo_abi_version.restype = c_uint32
    v = lib.picollo_abi_version()
    return f"{v >> 16}.{v & 0xFFFF}"


def missing(name: str, needs: str) -> str:
    """The ImportError message for a function ``name`` the library lacks: the library's ABI
    version, then ``needs`` (what has the function)."""
    return f"libpicollo (ABI {_abi_of_library()}) lacks {name}: {needs}"


def apply_signatures(signatures: dict, needs: str) -> None:
    """Set restype and argtypes of each function in ``signatures`` on `lib`; a function the
    library lacks raises ImportError with ``missing(name, needs)`` as the message."""
    for name, (restype, argtypes) in signatures.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise ImportError(missing(name, needs)) from None
        fn.restype = restype
        fn.argtypes = argtypes


def check_config_size(cls: type) -> None:
    """ImportError unless the struct_size of the library's default config (from
    ``<C name>_default``) is the size of the mirror ``cls``."""
    size = getattr(lib, f"{cls.__name__}_default")().struct_size
    if size != ctypes.sizeof(cls):
        raise ImportError(f"{cls.__name__} size differs between library and binding: "
                          f"{size} vs {ctypes.sizeof(cls)}")


_THIS_ABI = f"this binding needs ABI {ABI_VERSION_MAJOR}.{ABI_VERSION_MINOR} or later"
apply_signatures(SIGNATURES, _THIS_ABI)
apply_signatures(FLOAT_SIGNATURES, _THIS_ABI)

#: The same library through `ctypes.PyDLL`: calls keep the GIL, which saves releasing and
#: taking it again (about 10 % of a bare call). Only for calls that never wait on
#: anything: the records (a thread-local histogram's first record on a thread takes a
#: lock that no caller holds for long, a sparse float histogram's first value in an
#: octave allocates its block, and no native code waits for the GIL).
#: The handle goes in as its address (an int, `c_void_p`): ctypes converts that about a
#: third faster than a typed pointer object.
pylib = ctypes.PyDLL(lib._name)
pylib.picollo_histogram_record.restype = None
pylib.picollo_histogram_record.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
pylib.picollo_float_histogram_record.restype = None
pylib.picollo_float_histogram_record.argtypes = [ctypes.c_void_p, ctypes.c_double]

if lib.picollo_abi_version() >> 16 != ABI_VERSION_MAJOR:
    raise ImportError(
        f"libpicollo ABI {_abi_of_library()} is incompatible with this binding "
        f"(ABI {ABI_VERSION_MAJOR}.x)"
    )
check_config_size(picollo_histogram_config)
check_config_size(picollo_float_config)
