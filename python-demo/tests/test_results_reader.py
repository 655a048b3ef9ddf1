"""The fast reader of C result structs (`_results._reader`: one struct unpack into a dict
display compiled for the field names) against ctypes' own reading of every field."""

from __future__ import annotations

import ctypes
import math

import pytest

from picollo import _abi, _results
from picollo._types import Percentile


def numeric_structs() -> list:
    """Every C struct of the binding whose fields are all plain numbers."""
    found = []
    for value in vars(_abi).values():
        if isinstance(value, type) and issubclass(value, ctypes.Structure):
            kinds = [t for _, t, *_ in getattr(value, "_fields_", ())]
            if kinds and all(t in _results._CODES for t in kinds):
                found.append(value)
    return found


def filled(ctype: type) -> ctypes.Structure:
    """A struct whose every field holds a value of its own (sign, size and NaN included)."""
    c = ctype()
    for i, (name, kind, *_) in enumerate(ctype._fields_):
        if kind in (ctypes.c_double, ctypes.c_float):
            value = math.nan if i % 5 == 4 else (-1.5) ** i
        elif kind is ctypes.c_bool:
            value = i % 2 == 1
        else:
            bits = 8 * ctypes.sizeof(kind)
            value = (0xA5A5_A5A5_A5A5_A5A5 + 977 * i) % (1 << bits)
            if kind(-1).value < 0:  # signed: a negative one
                value -= 1 << (bits - 1)
        setattr(c, name, value)
    return c


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k]))
        for k in a)


@pytest.mark.parametrize("ctype", numeric_structs(), ids=lambda t: t.__name__)
def test_the_fast_reader_reads_what_ctypes_reads(ctype):
    c = filled(ctype)
    names = tuple(name for name, *_ in ctype._fields_)
    want = {name: getattr(c, name) for name in names}
    for order in (names, names[::-1], names[1::2]):
        got = _results._reader(order, ctype)(c)
        assert same(got, {name: want[name] for name in order}), (ctype.__name__, order)


def test_the_binding_has_numeric_result_structs_to_read():
    assert _abi.picollo_percentile in numeric_structs()


def test_a_percentile_from_c_is_a_frozen_percentile_with_every_field():
    c = filled(_abi.picollo_percentile)
    p = Percentile._from_c(c)
    assert isinstance(p, Percentile)
    assert all(getattr(p, name) == getattr(c, name) for name, *_ in c._fields_)
    assert p == Percentile._from_c(c) and hash(p) == hash(Percentile._from_c(c))
    with pytest.raises(AttributeError):
        p.value = 1  # frozen, as the dataclass's own instances are
