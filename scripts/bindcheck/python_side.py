"""The ctypes binding (python-demo/picollo/_abi.py, _perf_abi.py) against the header.

The two modules are imported under a private package name, so the package's __init__ (which
loads libpicollo) does not run: no library is needed. What is checked: every `Structure`
with `_fields_` (names, order, types), every opaque `Structure` (its name), every table named
`*SIGNATURES` (restype, argtypes), every `IntEnum` whose docstring names a C enum, and the
module constants that share a name with a `PICOLLO_*` define.
"""

from __future__ import annotations

import ctypes
import enum
import importlib
import sys
import types
from pathlib import Path

from .compare import Signature, compare_enum, compare_function, compare_struct
from .ctype import ANY, CType
from .header import Decl, Function, Header

#: The ctypes mirror modules that must be there; any other `_*_abi.py` beside them (say a
#: `_float_abi.py`) is read too.
ABI_MODULES = ("_abi", "_perf_abi")
_PACKAGE = "_picollo_bindings_under_check"

# ctypes aliases share one class where C types share a size (c_uint64 is c_ulong is
# c_size_t on LP64), so a class stands for every C name paired with it here.
_SCALAR_PAIRS = [
    (ctypes.c_int8, "int8_t"), (ctypes.c_uint8, "uint8_t"),
    (ctypes.c_int16, "int16_t"), (ctypes.c_uint16, "uint16_t"),
    (ctypes.c_int32, "int32_t"), (ctypes.c_uint32, "uint32_t"),
    (ctypes.c_int, "int"),  # `int main`'s status and argc (picollo_suite_main)
    (ctypes.c_int64, "int64_t"), (ctypes.c_uint64, "uint64_t"),
    (ctypes.c_size_t, "size_t"), (ctypes.c_size_t, "uintptr_t"),
    (ctypes.c_ssize_t, "ptrdiff_t"), (ctypes.c_ssize_t, "intptr_t"),
    (ctypes.c_double, "double"), (ctypes.c_float, "float"),
    (ctypes.c_char, "char"), (ctypes.c_bool, "bool"),
]
_SCALARS: dict[type, set[str]] = {}
for _cls, _name in _SCALAR_PAIRS:
    _SCALARS.setdefault(_cls, set()).add(_name)


def load_modules(package_dir: Path) -> list[types.ModuleType]:
    """Import the ABI modules from ``package_dir`` without running its __init__."""
    for name in [m for m in sys.modules if m == _PACKAGE or m.startswith(_PACKAGE + ".")]:
        del sys.modules[name]
    package = types.ModuleType(_PACKAGE)
    package.__path__ = [str(package_dir)]
    sys.modules[_PACKAGE] = package
    extra = sorted(p.stem for p in Path(package_dir).glob("_*_abi.py")
                   if p.stem not in ABI_MODULES)
    return [importlib.import_module(f"{_PACKAGE}.{m}") for m in (*ABI_MODULES, *extra)]


def ctype_of(t) -> CType | None:
    """The C type a ctypes type stands for; None for one this reader does not know."""
    if t is None:
        return CType.of("void")
    if t is ctypes.c_void_p:
        return CType.of(ANY, depth=1)
    if t is ctypes.c_char_p:
        return CType.of("char", depth=1)
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        inner = ctype_of(t._type_)
        return inner and inner.pointer()
    if isinstance(t, type) and issubclass(t, ctypes.Array):
        inner = ctype_of(t._type_)
        return inner and inner.array(t._length_)
    if isinstance(t, type) and issubclass(t, ctypes.Structure):
        return CType.of(t.__name__)
    if t in _SCALARS:
        return CType(frozenset(_SCALARS[t]))
    return None


def spelling(t) -> str:
    if t is None:
        return "None"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        return f"POINTER({spelling(t._type_)})"
    if isinstance(t, type) and issubclass(t, ctypes.Array):
        return f"{spelling(t._type_)} * {t._length_}"
    return t.__name__


def _own(module: types.ModuleType, base: type) -> list[type]:
    """Classes derived from ``base`` that ``module`` itself defines, in definition order."""
    found = [v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, base) and v.__module__ == module.__name__]
    return list(dict.fromkeys(found))  # a loop variable may name a class a second time


def check_structs(module: types.ModuleType, header: Header) -> list[str]:
    errors = []
    for cls in _own(module, ctypes.Structure):
        fields = [Decl(name, ctype_of(t), f"{name}: {spelling(t)}")
                  for name, t in cls.__dict__.get("_fields_", [])]
        errors += compare_struct(f"Python {cls.__name__}", cls.__name__, fields, header,
                                 lambda _s, c, b: c == b)
    return errors


def signatures(module: types.ModuleType) -> list[Signature]:
    out = []
    for table_name, table in vars(module).items():
        if not (table_name.endswith("SIGNATURES") and isinstance(table, dict)):
            continue
        for entry, (restype, argtypes) in table.items():
            out.append(Signature(f"{table_name}[{entry!r}]", Function(
                entry,
                Decl("restype", ctype_of(restype), spelling(restype)),
                tuple(Decl(f"argtypes[{i}]", ctype_of(t), spelling(t))
                      for i, t in enumerate(argtypes)))))
    return out


def _mirrored_enum(cls: type) -> str | None:
    words = (cls.__doc__ or "").replace("`", " ").split()
    return next((w.strip(".,:;") for w in words if w.startswith("picollo_")), None)


def check_enums(module: types.ModuleType, header: Header) -> list[str]:
    errors = []
    for cls in _own(module, enum.IntEnum):
        c_enum = _mirrored_enum(cls)
        if c_enum is None:
            errors.append(f"Python {cls.__name__}: its docstring names no C enum (`picollo_...`)")
            continue
        members = [(m.name, m.value) for m in cls]
        errors += compare_enum(f"Python {cls.__name__}", c_enum, members, header,
                               lambda b, c: b == c)
    return errors


def check_constants(module: types.ModuleType, header: Header) -> list[str]:
    """Module ints named like a `PICOLLO_*` define must equal it; `ABI_VERSION_MINOR` is the
    oldest minor version the binding needs, so it may only be at most the header's."""
    errors = []
    for name, value in vars(module).items():
        c_name = f"PICOLLO_{name}"
        if type(value) is not int or c_name not in header.constants:
            continue
        expected = header.constants[c_name]
        ok = value <= expected if name == "ABI_VERSION_MINOR" else value == expected
        if not ok:
            errors.append(f"Python {module.__name__.split('.')[-1]}.{name} is {value} "
                          f"but the header's {c_name} is {expected}")
    return errors


def check(package_dir: Path, header: Header) -> tuple[list[str], set[str]]:
    """Mismatches, and the names of the functions the binding declares."""
    errors: list[str] = []
    declared: set[str] = set()
    for module in load_modules(package_dir):
        errors += check_structs(module, header)
        errors += check_enums(module, header)
        errors += check_constants(module, header)
        for sig in signatures(module):
            declared.add(sig.function.name)
            errors += compare_function("Python", sig, header)
    return errors, declared
