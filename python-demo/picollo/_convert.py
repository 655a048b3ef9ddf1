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


def _is_native_u64_format(fmt: str, itemsize: int) -> bool:
    """Whether a buffer format is an unsigned 64-bit integer in this machine's byte order."""
    if itemsize != 8 or not fmt:
        return False
    order, code = (fmt[0], fmt[1:]) if fmt[0] in "@=<>!" else ("@", fmt)
    native_orders = "@=" + ("<" if sys.byteorder == "little" else ">!")
    return code in ("Q", "L") and order in native_orders


def _buffer_view(values: Any, what: str) -> Optional[memoryview]:
    """A memoryview of values, or None for an object without the buffer protocol; text
    (str, bytes, bytearray) is refused: record_many() needs what."""
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"record_many() needs {what}, not {type(values).__name__}")
    try:
        return memoryview(values)
    except TypeError:
        return None


def _view_array(view: memoryview, c_type: Any) -> tuple[int, int, Any]:
    """``(address, count, keep_alive)`` of a C-contiguous view of c_type items: the view's
    memory itself when writable, a copy when read-only; (0, 0, None) when empty."""
    count = view.nbytes // ctypes.sizeof(c_type)
    if count == 0:
        return 0, 0, None
    if view.readonly:
        data = (c_type * count).from_buffer_copy(view)
    else:
        data = (c_type * count).from_buffer(view)
    return ctypes.addressof(data), count, (data, view)


def u64_buffer(values: Any) -> tuple[int, int, Any]:
    """``(address, count, keep_alive)`` of contiguous native uint64 data for
    `picollo_histogram_record_many`.

    A C-contiguous numpy ``uint64`` array, an ``array.array('Q')`` or any writable
    buffer of native unsigned 64-bit integers is passed without a copy. Other numpy
    integer arrays are checked (no negatives) and converted; float and bool arrays are
    refused (convert explicitly). Anything else iterable is converted item by item into an
    ``array('Q')`` first, so a bad item raises before anything is recorded.
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(values, np.ndarray):
        return _numpy_buffer(np, values)
    view = _buffer_view(values, "integers")
    if view is not None:
        if _is_native_u64_format(view.format, view.itemsize) and view.c_contiguous:
            return _view_array(view, ctypes.c_uint64)
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
    return _address_of_array(data)


def _address_of_array(data: array.array) -> tuple[int, int, Any]:
    address, count = data.buffer_info()
    return (address if count else 0), count, data


def _numpy_buffer(np: Any, values: Any) -> tuple[int, int, Any]:
    dtype = values.dtype
    if dtype.kind == "u":
        if dtype != np.dtype(np.uint64) or not values.flags.c_contiguous:
            values = np.ascontiguousarray(values, dtype=np.uint64)
    elif dtype.kind == "i":
        if values.size and values.min() < 0:
            raise ValueError("record_many(): negative value in the array")
        values = np.ascontiguousarray(values, dtype=np.uint64)
    elif dtype.kind == "O":
        data = array.array("Q", (u64(v) for v in values.ravel()))
        return _address_of_array(data)
    else:
        raise TypeError(
            f"record_many() needs an integer array, not dtype {dtype}; "
            "convert explicitly, e.g. values.astype(np.uint64)"
        )
    count = int(values.size)
    return (values.ctypes.data if count else 0), count, values


def _native_float_code(fmt: str, itemsize: int) -> Optional[str]:
    """``"d"`` or ``"f"`` for a buffer of native-order doubles or floats, else None."""
    if itemsize not in (4, 8) or not fmt:
        return None
    order, code = (fmt[0], fmt[1:]) if fmt[0] in "@=<>!" else ("@", fmt)
    native_orders = "@=" + ("<" if sys.byteorder == "little" else ">!")
    if order not in native_orders:
        return None
    return {("d", 8): "d", ("f", 4): "f"}.get((code, itemsize))


def float_buffer(values: Any) -> tuple[int, int, Any, bool]:
    """``(address, count, keep_alive, is_f32)`` of contiguous native doubles (or floats,
    ``is_f32``) for `picollo_float_histogram_record_many` (``_f32``).

    A C-contiguous numpy ``float64`` or ``float32`` array, an ``array('d')`` or
    ``array('f')``, or any writable buffer of native doubles or floats is passed without a
    copy. Other numpy real arrays (integers, float16, long double, another byte order) are
    converted to float64; bool and complex arrays are refused. Anything else iterable is
    converted into an ``array('d')`` first (ints converted to the nearest double), so a
    bad item raises before anything is recorded.
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(values, np.ndarray):
        return _numpy_float_buffer(np, values)
    view = _buffer_view(values, "real numbers")
    if view is not None:
        code = _native_float_code(view.format, view.itemsize)
        if code is not None and view.c_contiguous:
            c_type = ctypes.c_double if code == "d" else ctypes.c_float
            return (*_view_array(view, c_type), code == "f")
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
