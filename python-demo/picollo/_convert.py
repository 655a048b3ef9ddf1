"""Python values checked and turned into what the ABI takes, before any call is made.

ctypes silently wraps an out-of-range int passed as ``c_uint64`` (``-1`` becomes
``2**64 - 1``), so every integer is checked here; a bad value raises `TypeError` or
`ValueError` and the library is not called at all.
"""

from __future__ import annotations

import array
import ctypes
import math
import numbers
import operator
import sys
from typing import Any, Iterable, Optional

from ._native import U64_MAX


def u64(value: Any, what: str = "value") -> int:
    """An int in ``0 .. 2**64 - 1`` (ints and integer-like objects such as numpy ints)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what} must be an integer, not {type(value).__name__}"
        ) from None
    if not 0 <= v <= U64_MAX:
        raise ValueError(f"{what} {v} is outside 0 ..= 2**64 - 1")
    return v


def u32(value: Any, what: str) -> int:
    v = u64(value, what)
    if v > 0xFFFF_FFFF:
        raise ValueError(f"{what} {v} does not fit 32 bits")
    return v


def real(value: Any, what: str) -> float:
    """A float from a real number (NaN and infinities pass: the library judges them)."""
    if type(value) is float:  # the common case, without the ABC checks below
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a real number, not {type(value).__name__}")
    return float(value)


def positive(value: Any, what: str) -> float:
    """A finite real number above 0; ValueError (TypeError for a non-number) otherwise."""
    v = real(value, what)
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{what} must be a positive number, not {value!r}")
    return v


def scaled(value: Any, ratio: float, what: str) -> int:
    """``value * ratio`` rounded to an integer, at most ``2**64 - 1``: how a metrics API's
    amount (seconds) becomes what an integer histogram records (nanoseconds). TypeError for
    what is not a real number, ValueError for NaN, infinities and negative values."""
    v = real(value, what)
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{what} must be finite and >= 0, not {v!r}")
    return min(round(v * ratio), 2**64 - 1)


def ranks_array(ranks: Iterable[Any]) -> tuple[Any, int]:
    """A ``c_double`` array from an iterable of ranks (order is the library's to check)."""
    if isinstance(ranks, (str, bytes)) or isinstance(ranks, numbers.Number):
        raise TypeError("ranks must be an iterable of numbers, e.g. [50, 99, 99.9]")
    values = [real(r, "rank") for r in ranks]
    return (ctypes.c_double * len(values))(*values), len(values)


def _native_code(fmt: str, itemsize: int) -> Optional[str]:
    """A buffer format's struct code when its items are in this machine's byte order and
    standard size (``"Q"``, ``"q"``, ``"d"``...), else None."""
    if not fmt:
        return None
    order, code = (fmt[0], fmt[1:]) if fmt[0] in "@=<>!" else ("@", fmt)
    native_orders = "@=" + ("<" if sys.byteorder == "little" else ">!")
    return code if order in native_orders and len(code) == 1 else None


#: The buffer formats passed as they are: ``(code, itemsize)`` to the C type they hold.
_U64 = {("Q", 8): "u64", ("L", 8): "u64", ("q", 8): "i64", ("l", 8): "i64"}
_F64 = {("d", 8): "f64", ("f", 4): "f32"}


class _Py_buffer(ctypes.Structure):
    """CPython's ``Py_buffer``: what `PyObject_GetBuffer` fills."""

    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p),
                ("len", ctypes.c_ssize_t), ("itemsize", ctypes.c_ssize_t),
                ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p),
                ("strides", ctypes.c_void_p), ("suboffsets", ctypes.c_void_p),
                ("internal", ctypes.c_void_p)]


class _Exported:
    """A buffer held exported (its memory cannot move or be freed) until this is dropped:
    the address of a read-only buffer too, which ctypes' ``from_buffer`` refuses."""

    def __init__(self, view: memoryview) -> None:
        self._buffer = _Py_buffer()
        get, _ = _buffer_api()
        if get(view, ctypes.byref(self._buffer), 0) != 0:  # PyBUF_SIMPLE: contiguous bytes
            raise BufferError("record_many(): the buffer cannot be read in place")
        self.address: int = self._buffer.buf or 0

    def __del__(self) -> None:
        _, release = _buffer_api()
        release(ctypes.byref(self._buffer))


def _buffer_api() -> tuple[Any, Any]:
    """CPython's `PyObject_GetBuffer` and `PyBuffer_Release`, declared on first use."""
    if not _BUFFER_API:
        get = ctypes.pythonapi.PyObject_GetBuffer
        get.argtypes = [ctypes.py_object, ctypes.POINTER(_Py_buffer), ctypes.c_int]
        get.restype = ctypes.c_int
        release = ctypes.pythonapi.PyBuffer_Release
        release.argtypes = [ctypes.POINTER(_Py_buffer)]
        release.restype = None
        _BUFFER_API.extend((get, release))
    return _BUFFER_API[0], _BUFFER_API[1]


_BUFFER_API: list = []


def _buffer_view(values: Any, what: str) -> Optional[memoryview]:
    """A memoryview of values, or None for an object without the buffer protocol; text
    (str, bytes, bytearray) is refused: record_many() needs what (raw bytes holding
    native 64-bit values can be passed as ``memoryview(b).cast("Q")``)."""
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"record_many() needs {what}, not {type(values).__name__}; "
                        "for bytes holding native values pass memoryview(b).cast(...)")
    try:
        return memoryview(values)
    except TypeError:
        return None


def _in_place(view: memoryview, kinds: dict) -> Optional[tuple[int, int, Any, str]]:
    """``(address, count, keep_alive, kind)`` of the view's own memory when it is
    C-contiguous items of one of ``kinds``' formats (read-only ones too); else None."""
    kind = kinds.get((_native_code(view.format, view.itemsize), view.itemsize))
    if kind is None or not view.c_contiguous:
        return None
    count = view.nbytes // view.itemsize
    if count == 0:
        return 0, 0, None, kind
    exported = _Exported(view)
    return exported.address, count, (exported, view), kind


def u64_buffer(values: Any) -> tuple[int, int, Any, bool]:
    """``(address, count, keep_alive, signed)`` of contiguous native 64-bit integers for
    `picollo_histogram_record_many` (``signed``: `picollo_histogram_record_many_i64`, which
    refuses a negative value and records nothing).

    A C-contiguous numpy ``uint64`` or ``int64`` array, an ``array('Q')`` or ``array('q')``,
    or any buffer of native unsigned or signed 64-bit integers, read-only ones included, is
    passed without a copy. Other numpy integer arrays (other widths, another byte order,
    strided) are converted once to uint64 or int64; float and bool arrays are refused
    (convert explicitly). Anything else iterable is converted item by item into an
    ``array('Q')`` first, so a bad item raises before anything is recorded.
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(values, np.ndarray):
        return _numpy_buffer(np, values)
    view = _buffer_view(values, "integers")
    if view is not None:
        found = _in_place(view, _U64)
        if found is not None:
            address, count, keep_alive, kind = found
            return address, count, keep_alive, kind == "i64"
        view.release()
    if isinstance(values, numbers.Number):
        raise TypeError("record_many() needs an iterable of integers; use record(value)")
    try:
        data = array.array("Q", values)
    except OverflowError as e:
        raise ValueError(f"record_many(): a value is outside 0 ..= 2**64 - 1 ({e})") from None
    except TypeError:
        # array('Q') refuses some integer-likes; check item by item for a precise error.
        data = array.array("Q", (u64(v) for v in values))
    return (*_address_of_array(data), False)


def _address_of_array(data: array.array) -> tuple[int, int, Any]:
    address, count = data.buffer_info()
    return (address if count else 0), count, data


def _numpy_buffer(np: Any, values: Any) -> tuple[int, int, Any, bool]:
    dtype = values.dtype
    if dtype.kind in "ui":
        wanted = np.dtype(np.uint64 if dtype.kind == "u" else np.int64)
        if dtype != wanted or not values.flags.c_contiguous:
            values = np.ascontiguousarray(values, dtype=wanted)
    elif dtype.kind == "O":
        data = array.array("Q", (u64(v) for v in values.ravel()))
        return (*_address_of_array(data), False)
    else:
        raise TypeError(
            f"record_many() needs an integer array, not dtype {dtype}; "
            "convert explicitly, e.g. values.astype(np.uint64)"
        )
    count = int(values.size)
    return (values.ctypes.data if count else 0), count, values, dtype.kind == "i"


def float_buffer(values: Any) -> tuple[int, int, Any, bool]:
    """``(address, count, keep_alive, is_f32)`` of contiguous native doubles (or floats,
    ``is_f32``) for `picollo_float_histogram_record_many` (``_f32``).

    A C-contiguous numpy ``float64`` or ``float32`` array, an ``array('d')`` or
    ``array('f')``, or any buffer of native doubles or floats, read-only ones included, is
    passed without a copy (floats are widened inside the library, a few at a time). Other
    numpy real arrays (integers, float16, long double, another byte order, strided) are
    converted once to float64; bool, complex and text arrays are refused. Anything else
    iterable is converted into an ``array('d')`` first (ints converted to the nearest
    double), so a bad item raises before anything is recorded.
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(values, np.ndarray):
        return _numpy_float_buffer(np, values)
    view = _buffer_view(values, "real numbers")
    if view is not None:
        found = _in_place(view, _F64)
        if found is not None:
            address, count, keep_alive, kind = found
            return address, count, keep_alive, kind == "f32"
        view.release()
    if isinstance(values, numbers.Number):
        raise TypeError("record_many() needs an iterable of real numbers; use record(value)")
    # A one-shot iterator is read once: a bad item is then reported from the same items.
    items = values if isinstance(values, (list, tuple)) else list(values)
    try:
        data = array.array("d", items)
    except TypeError:
        # array('d') says "must be real number, not str": name the item's position too.
        for i, v in enumerate(items):
            real(v, f"record_many() item {i}")
        raise
    address, count = data.buffer_info()
    return (address if count else 0), count, data, False


def _numpy_float_buffer(np: Any, values: Any) -> tuple[int, int, Any, bool]:
    dtype = values.dtype
    if dtype.kind == "O":
        items = [real(v, "record_many() item") for v in values.ravel()]
        values = np.array(items, dtype=np.float64)
    elif dtype.kind not in "fiu":
        raise TypeError(
            f"record_many() needs a real array, not dtype {dtype}; "
            "convert explicitly, e.g. values.astype(np.float64)"
        )
    native = dtype.isnative and values.flags.c_contiguous
    if native and dtype == np.dtype(np.float32):
        is_f32 = True
    else:
        is_f32 = False
        if not (native and dtype == np.dtype(np.float64)):
            values = np.ascontiguousarray(values, dtype=np.float64)
    count = int(values.size)
    return (values.ctypes.data if count else 0), count, values, is_f32
