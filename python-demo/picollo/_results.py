"""What the integer and the float histogram's result types share, written once: the copy
out of a C struct, bucket membership, the standard summary (its percentiles by rank and its
Markdown, diff, line and JSON text) and the names of the configuration's codes.

`_types` (integers) and `_float_types` (doubles) declare only what differs: their fields,
their C structs and text functions, and their reprs.
"""

from __future__ import annotations

import ctypes
import json
import math
import struct
from dataclasses import fields
from typing import Any, ClassVar, Generic, Iterator, Optional, Sequence, TypeVar

from ._text import encode, fetch_text

P = TypeVar("P")  # the percentile type of a summary

#: The ranks of a summary, in order (`picollo_summary.percentiles`).
STANDARD_RANKS = (0.0, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 92.5, 95.0, 97.5, 99.0,
                  99.9, 99.99, 99.999, 100.0)

#: `value_selection` names, in `picollo_value_selection` order.
VALUE_SELECTIONS = ("midpoint", "lower", "upper", "interpolated")


def code_name(names: Sequence[str], code: int) -> str:
    """The name of a code the library reported (its number as text when unknown here)."""
    return names[code] if code < len(names) else str(code)


def name_code(names: Sequence[str], name: Any, what: str, aliases: Optional[dict] = None) -> int:
    """The code of a configuration name (case, ``_`` for ``-`` and ``aliases`` forgiven)."""
    if isinstance(name, str):
        key = name.lower().replace("_", "-")
        key = (aliases or {}).get(key, key)
        if key in names:
            return names.index(key)
    raise ValueError(f"{what} {name!r} is not one of {', '.join(names)}")


def selection_code(selection: Any) -> int:
    """The `picollo_value_selection` of a name or of its number."""
    if not isinstance(selection, bool) and isinstance(selection, int):
        if 0 <= selection < len(VALUE_SELECTIONS):
            return selection
    elif isinstance(selection, str) and selection.lower() in VALUE_SELECTIONS:
        return VALUE_SELECTIONS.index(selection.lower())
    raise ValueError(
        f"value_selection {selection!r} is not one of {', '.join(VALUE_SELECTIONS)}"
    )


def extreme(x: float) -> Optional[float]:
    """An exact extreme as the library gives it: NaN (nothing known) becomes None."""
    return None if math.isnan(x) else x


#: `struct` codes of the C field types whose values `struct` reads as ctypes gives them.
_CODES = {ctypes.c_double: "d", ctypes.c_float: "f", ctypes.c_uint64: "Q", ctypes.c_int64: "q",
          ctypes.c_uint32: "I", ctypes.c_int32: "i", ctypes.c_uint16: "H", ctypes.c_int16: "h",
          ctypes.c_uint8: "B", ctypes.c_int8: "b", ctypes.c_bool: "?"}

#: The readers `_reader` made, by (result class, C struct type).
_READERS: dict = {}


def _reader(names: tuple, ctype: Any) -> Any:
    """A function from a C struct of type ``ctype`` to ``{name: value}`` for ``names``:
    one ``struct`` unpack of the whole struct when its fields are all plain numbers (in
    native layout, checked against ctypes' size) into a dict display compiled for these
    names (half the time of ``dict(zip(...))``), else one ``getattr`` per name."""
    fields_ = getattr(ctype, "_fields_", ())
    codes = [_CODES.get(t) for _, t, *_ in fields_]
    order = [name for name, *_ in fields_]
    if not (fields_ and all(codes) and set(names) <= set(order)):
        return lambda c: {name: getattr(c, name) for name in names}
    layout = struct.Struct("@" + "".join(codes))
    if layout.size != ctypes.sizeof(ctype):
        return lambda c: {name: getattr(c, name) for name in names}
    # Field names are C identifiers (checked), so the display is plain Python.
    assert all(name.isidentifier() for name in names), names
    items = ", ".join(f"{name!r}: v[{order.index(name)}]" for name in names)
    build = eval(f"lambda v: {{{items}}}")  # noqa: S307 - text made here from identifiers
    unpack = layout.unpack_from
    return lambda c: build(unpack(c))


class CopiedStruct:
    """A frozen dataclass whose fields are copied, by name, out of a C struct; values from
    its ``_LOW`` field (``lower`` or ``lowest``) to ``highest`` are in it."""

    _LOW: ClassVar[str] = "lower"

    @classmethod
    def _from_c(cls, c: Any) -> Any:
        # The instance is filled as the frozen dataclass's __init__ would fill it, without
        # running it, from one read of the whole struct (see `_reader`): a query's result
        # then costs the caller well under a microsecond of Python.
        key = (cls, type(c))
        read = _READERS.get(key)
        if read is None:
            read = _READERS[key] = _reader(tuple(f.name for f in fields(cls)), type(c))
        obj = object.__new__(cls)
        object.__setattr__(obj, "__dict__", read(c))  # frozen: as dataclasses' __init__ sets
        return obj

    def __contains__(self, value: Any) -> bool:
        """Whether ``value`` lies in this bucket."""
        return getattr(self, self._LOW) <= value <= self.highest


def _standard_entry(rank: float, doc: str) -> property:
    """A read-only property: the summary's entry for the standard ``rank``."""
    return property(lambda self: self.p(rank), doc=doc)


class SummaryBase(Generic[P]):
    """The standard summary: 16 percentiles (`STANDARD_RANKS`) and the fields a subclass
    names in ``__slots__``, copied out of its C struct.

    ``str(summary)`` is the Markdown table; iterating yields the 16 percentiles;
    ``summary.p(99)`` is the P99 entry.
    """

    __slots__ = ("_c", "percentiles")
    #: The result type of one percentile; the histogram class named in messages.
    _PERCENTILE: ClassVar[Any]
    _HISTOGRAM: ClassVar[str]
    #: The library's text functions over the C struct.
    _C_TABLE: ClassVar[Any]
    _C_DIFF: ClassVar[Any]
    _C_LINE: ClassVar[Any]
    _C_JSON: ClassVar[Any]

    def __init__(self, c: Any):
        self._c = c  # kept for the text functions, which take the C struct
        self.percentiles = tuple(self._PERCENTILE._from_c(p) for p in c.percentiles)
        for name in self.__slots__:
            setattr(self, name, getattr(c, name))

    def p(self, rank: float) -> P:
        """The entry for a standard rank (0, 1, 5, …, 99.9, 99.99, 99.999, 100)."""
        for r, pct in zip(STANDARD_RANKS, self.percentiles):
            if math.isclose(r, rank, rel_tol=0, abs_tol=1e-9):
                return pct
        raise ValueError(
            f"{rank!r} is not a standard rank {STANDARD_RANKS}; "
            f"use {self._HISTOGRAM}.percentile(rank) for any other rank"
        )

    p50 = _standard_entry(50, "The median entry, ``p(50)``.")
    p90 = _standard_entry(90, "The P90 entry, ``p(90)``.")
    p99 = _standard_entry(99, "The P99 entry, ``p(99)``.")
    p999 = _standard_entry(99.9, "The P99.9 entry, ``p(99.9)``.")

    def __len__(self) -> int:
        return len(self.percentiles)

    def __iter__(self) -> Iterator[P]:
        return iter(self.percentiles)

    def __str__(self) -> str:
        return self.table()

    # --- text --------------------------------------------------------------------------

    def table(self, title: Optional[str] = None) -> str:
        """The Markdown table (with a ``##### title`` heading when a title is given)."""
        t = encode(title, "title")
        return fetch_text(lambda buf, size, needed: self._C_TABLE(
            ctypes.byref(self._c), t, buf, size, needed))

    def diff(self, other: SummaryBase[P], title: Optional[str] = None,
             name_a: str = "A", name_b: str = "B") -> str:
        """The diff table of ``other`` (a summary of the same kind) against this one."""
        kind = type(self)
        if not isinstance(other, kind):
            raise TypeError(f"diff() needs a {kind.__name__}, not {type(other).__name__}")
        t, a, b = encode(title, "title"), encode(name_a, "name_a"), encode(name_b, "name_b")
        return fetch_text(lambda buf, size, needed: self._C_DIFF(
            ctypes.byref(self._c), ctypes.byref(other._c), t, a, b, buf, size, needed))

    def line(self, name: str = "") -> str:
        """The one-line summary ``name: Total=…, …`` (no newline)."""
        nm = encode(name, "name")
        return fetch_text(lambda buf, size, needed: self._C_LINE(
            ctypes.byref(self._c), nm, buf, size, needed))

    def json(self) -> str:
        """The summary as JSON text (see `to_dict` for it parsed; docs/c-api.md, "Text",
        lists the fields of each kind)."""
        return fetch_text(lambda buf, size, needed: self._C_JSON(
            ctypes.byref(self._c), buf, size, needed))

    def to_dict(self) -> dict[str, Any]:
        """The JSON summary parsed: totalCount, mean, stDev, percentiles… (NaN as None)."""
        return json.loads(self.json())
