"""The C# binding (dotnet/Picollo/*.cs) against the header, read as text.

What is checked: every `[StructLayout(LayoutKind.Sequential)]` struct and every enum, each of
which names the C type it mirrors in its `/// <summary>` (`picollo_summary`, ...), and every
`[DllImport]` `extern` method (the C function is its `EntryPoint`, else its own name).

Types: uint/int/ulong/long/double... are the fixed-width C types (int is also C's `int`, 32
bits on every platform the library builds for); UIntPtr/nuint are size_t;
IntPtr is any pointer; `ref`/`out`/`T[]`/`T*` add a pointer level; string and StringBuilder
are `char *`, byte[] is `char *` or `uint8_t *`; a C# enum is its underlying type; a
SafeHandle subclass is the pointer its ReleaseHandle passes to a `picollo_*_free`; bool is C's
`bool` only when marshalled as one byte (`[MarshalAs(UnmanagedType.U1)]` or `I1`: the
default, a 4-byte Win32 BOOL, is not C's bool).
Field names compare case-insensitively without underscores, except the few in `FIELD_ALIASES`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .compare import Signature, compare_enum, compare_function, compare_struct
from .ctype import ANY, CType
from .header import Decl, Function, Header

#: The binding files: every `Picollo*.cs` of the binding's folder (the test programs in
#: their own folders declare nothing of the ABI). These must be there.
BINDING_FILES = ("Picollo.cs", "PicolloApprox.cs", "PicolloPerf.cs", "PicolloHdr.cs", "PicolloMetrics.cs")


def binding_files(folder: Path) -> list[str]:
    """The required files and any other `Picollo*.cs` beside them, in a stable order."""
    extra = sorted(p.name for p in folder.glob("Picollo*.cs") if p.name not in BINDING_FILES)
    return list(BINDING_FILES) + extra

#: C# field names that differ from the C name by more than case and underscores.
FIELD_ALIASES = {
    ("picollo_histogram_info", "storage_len"): "StorageLength",
    ("picollo_summary", "stdev"): "StdDev",
}

_SCALARS = {
    "uint": ("uint32_t",), "int": ("int32_t", "int"), "ulong": ("uint64_t",), "long": ("int64_t",),
    "ushort": ("uint16_t",), "short": ("int16_t",), "byte": ("uint8_t", "char"),
    "sbyte": ("int8_t", "char"), "double": ("double",), "float": ("float",), "void": ("void",),
    "UIntPtr": ("size_t", "uintptr_t"), "nuint": ("size_t", "uintptr_t"),
    "nint": ("intptr_t", "ptrdiff_t"),
}
_CHAR_POINTERS = ("string", "StringBuilder")
_MODIFIERS = {"public", "internal", "private", "protected", "static", "extern", "unsafe",
              "readonly", "volatile", "new", "override", "sealed", "partial"}
_TOKENS = re.compile(r'@"(?:""|[^"])*"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)
_DLLIMPORT = re.compile(r"\[\s*DllImport\s*\((?P<args>[^)]*)\)\s*\]\s*(?:\[[^\]]*\]\s*)*"
                        r"(?P<head>[\w\s.]*?\bextern\b[\w\s.*\[\]]*?)\b(?P<name>\w+)\s*\((?P<params>[^;]*)\)\s*;")
_STRUCT = re.compile(r"\[\s*StructLayout\s*\(\s*LayoutKind\.Sequential[^\]]*\]\s*(?:\[[^\]]*\]\s*)*"
                     r"(?:\w+\s+)*?struct\s+(?P<name>\w+)\s*\{")
_ENUM = re.compile(r"^[ \t]*(?:\w+\s+)*?enum\s+(?P<name>\w+)\s*(?::\s*(?P<base>\w+))?\s*\{", re.M)
_HANDLE = re.compile(r"class\s+(?P<name>\w+)\s*:\s*(?:System\.Runtime\.InteropServices\.)?SafeHandle\w*\s*\{")
_FREE_CALL = re.compile(r"\b(picollo_\w+_free)\s*\(")


@dataclass
class Source:
    """A .cs file three ways, all the same length so offsets agree: as written, without
    comments (string literals kept), and without comments or string contents (for braces)."""

    path: Path
    raw: str
    code: str = ""
    bare: str = ""

    def __post_init__(self) -> None:
        def blank(m: re.Match, keep_strings: bool) -> str:
            text = m.group(0)
            if text[0] in "\"'@" and keep_strings:
                return text
            if text[0] in "\"'@":
                return text[0] + re.sub(r"[^\n]", " ", text[1:-1]) + text[-1]
            return re.sub(r"[^\n]", " ", text)
        self.code = _TOKENS.sub(lambda m: blank(m, True), self.raw)
        self.bare = _TOKENS.sub(lambda m: blank(m, False), self.raw)

    def block(self, open_brace: int) -> str:
        """The text inside the braces opening at ``open_brace`` (comments and strings blanked)."""
        depth = 0
        for i in range(open_brace, len(self.bare)):
            depth += {"{": 1, "}": -1}.get(self.bare[i], 0)
            if depth == 0:
                return self.bare[open_brace + 1:i]
        raise ValueError(f"{self.path.name}: unbalanced braces")

    def doc_name(self, at: int) -> str | None:
        """The first `picollo_*` name in the `///` lines (and attributes) right above ``at``."""
        lines = self.raw[:self.raw.rfind("\n", 0, at) + 1].split("\n")[:-1]
        doc = []
        for line in reversed(lines):
            s = line.strip()
            if not (s.startswith("///") or s.startswith("[")):
                break
            doc.append(s)
        m = re.search(r"\bpicollo_\w+", " ".join(reversed(doc)))
        return m.group(0) if m else None


@dataclass
class Types:
    """What a C# type name means in C: structs, enums and handles found in the sources."""

    structs: dict[str, str] = field(default_factory=dict)     # C# name -> C struct
    enums: dict[str, str] = field(default_factory=dict)       # C# name -> underlying C# type
    handles: dict[str, CType] = field(default_factory=dict)   # C# name -> C pointer type

    def ctype(self, text: str) -> CType | None:
        """`out HistogramHandle`, `[Out] Percentile[]`, `ulong*`, `ref UIntPtr` -> CType."""
        words = re.sub(r"\[[^\]]+\]", " ", text).replace("*", " * ").replace("[]", " [] ").split()
        depth = sum(w in ("ref", "out", "in", "*", "[]") for w in words)
        names = [w for w in words if w not in ("ref", "out", "in", "*", "[]", "params", "this")]
        if names in (["bool"], ["System.Boolean"], ["Boolean"]):
            one_byte = re.search(r"MarshalAs\s*\(\s*UnmanagedType\.[UI]1\s*\)", text)
            return CType.of("bool", depth=depth) if one_byte and depth == 0 else None
        base = self._base(names[0].removeprefix("System.")) if len(names) == 1 else None
        return base and CType(base.bases, base.depth + depth, base.length)

    def _base(self, name: str) -> CType | None:
        if name in self.enums:
            return self._base(self.enums[name])
        if name in self.structs:
            return CType.of(self.structs[name])
        if name in self.handles:
            return self.handles[name]
        if name == "IntPtr":
            return CType.of(ANY, depth=1)
        if name in _CHAR_POINTERS:
            return CType.of("char", depth=1)
        return CType.of(*_SCALARS[name]) if name in _SCALARS else None


def _split_params(text: str) -> list[str]:
    """Split at commas outside () and []."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [" ".join(p.split()) for p in out if p.strip()]


def _type_and_name(param: str) -> tuple[str, str]:
    type_text, _, name = param.rpartition(" ")
    return type_text, name


def _members(body: str) -> list[str]:
    """The member declarations of a type body: nested blocks (methods, properties) become
    `{}` so they cannot be mistaken for fields, then the body splits at `;`."""
    flat, depth = [], 0
    for ch in body:
        if ch == "{":
            depth += 1
            if depth == 1:
                flat.append("{};")
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            flat.append(ch)
    return [" ".join(s.split()) for s in "".join(flat).split(";") if s.strip()]


_FIELD = re.compile(r"(?:\[[^\]]*\]\s*)*"
                    r"(?:(?:public|internal|private|protected|readonly|unsafe|volatile|new)\s+)*"
                    r"(?P<fixed>fixed\s+)?(?P<type>[\w.]+\s*\**)\s+"
                    r"(?P<names>\w+(?:\s*\[\s*\w+\s*\])?(?:\s*,\s*\w+)*)")


def struct_fields(body: str, types: Types) -> list[Decl]:
    fields = []
    for member in _members(body):
        m = _FIELD.fullmatch(member)
        plain = re.sub(r"^(?:\[[^\]]*\]\s*)*", "", member)
        if not m or re.search(r"\b(const|static)\b|[({=]", plain):
            continue  # a constant, property, method or indexer: not part of the layout
        type_text = " ".join(m.group("type").split())
        for name in (n.strip() for n in m.group("names").split(",")):
            ctype = types.ctype(type_text)
            fixed = re.fullmatch(r"(\w+)\s*\[\s*(\d+)\s*\]", name)
            if m.group("fixed") and fixed and ctype:
                name, ctype = fixed.group(1), ctype.array(int(fixed.group(2)))
            fields.append(Decl(name, ctype, f"{type_text} {name}"))
    return fields


def _enum_members(body: str) -> list[tuple[str, int]]:
    members, nxt = [], 0
    for item in filter(None, (s.strip() for s in body.split(","))):
        name, _, value = item.partition("=")
        if value.strip():
            nxt = int(value.strip().rstrip("uUlL"), 0)
        members.append((name.strip(), nxt))
        nxt += 1
    return members


def _normal(name: str) -> str:
    return name.replace("_", "").lower()


def same_field_name(c_struct: str, c_field: str, cs_field: str) -> bool:
    alias = FIELD_ALIASES.get((c_struct, c_field))
    return cs_field == alias if alias else _normal(c_field) == _normal(cs_field)


def collect_types(sources: list[Source], header: Header) -> tuple[Types, list[str]]:
    types, errors = Types(), []
    for src in sources:
        for m in _STRUCT.finditer(src.bare):
            c_name = src.doc_name(m.start())
            if c_name is None:
                errors.append(f"C# struct {m.group('name')} ({src.path.name}): its <summary> "
                              "names no C struct (`picollo_...`)")
            types.structs[m.group("name")] = c_name or "?"
        for m in _ENUM.finditer(src.bare):
            types.enums[m.group("name")] = m.group("base") or "int"
        for m in _HANDLE.finditer(src.bare):
            free = _FREE_CALL.search(src.block(m.end() - 1))
            fn = header.functions.get(free.group(1)) if free else None
            if fn is None or not fn.params:
                errors.append(f"C# {m.group('name')}: its ReleaseHandle calls no picollo_*_free "
                              "of the header, so the handle's C type is unknown")
                continue
            types.handles[m.group("name")] = fn.params[0].ctype
    return types, errors


def check_structs(src: Source, types: Types, header: Header) -> list[str]:
    errors = []
    for m in _STRUCT.finditer(src.bare):
        name = m.group("name")
        c_name = types.structs[name]
        if c_name != "?":
            fields = struct_fields(src.block(m.end() - 1), types)
            errors += compare_struct(f"C# {name} ({c_name})", c_name, fields, header, same_field_name)
    return errors


def check_enums(src: Source, header: Header) -> list[str]:
    errors = []
    for m in _ENUM.finditer(src.bare):
        c_enum = src.doc_name(m.start())
        if c_enum is None:
            errors.append(f"C# enum {m.group('name')} ({src.path.name}): its <summary> names no "
                          "C enum (`picollo_...`)")
            continue
        members = _enum_members(src.block(m.end() - 1))
        errors += compare_enum(f"C# {m.group('name')} ({c_enum})", c_enum, members, header,
                               lambda cs, c: _normal(cs) == _normal(c))
    return errors


def _param(types: Types, type_text: str, name: str) -> Decl:
    ctype, spelled = types.ctype(type_text), f"{type_text} {name}"
    if ctype is None and re.sub(r"\[[^\]]+\]", " ", type_text).split()[-1:] == ["bool"]:
        spelled += " (without [MarshalAs(UnmanagedType.U1)] a C# bool is a 4-byte BOOL)"
    return Decl(name, ctype, spelled)


def signatures(src: Source, types: Types) -> list[Signature]:
    out = []
    for m in _DLLIMPORT.finditer(src.code):
        entry = re.search(r'EntryPoint\s*=\s*"(\w+)"', m.group("args"))
        ret_text = " ".join(w for w in m.group("head").split() if w not in _MODIFIERS)
        params = tuple(_param(types, type_text, name)
                       for type_text, name in map(_type_and_name, _split_params(m.group("params"))))
        returns = Decl("return", types.ctype(ret_text), ret_text)
        out.append(Signature(m.group("name"), Function(
            entry.group(1) if entry else m.group("name"), returns, params)))
    return out


def check(folder: Path, header: Header) -> tuple[list[str], set[str]]:
    """Mismatches, and the names of the functions the binding declares."""
    sources = [Source(folder / name, (folder / name).read_text(encoding="utf-8"))
               for name in binding_files(folder)]
    types, errors = collect_types(sources, header)
    declared: set[str] = set()
    for src in sources:
        errors += check_structs(src, types, header)
        errors += check_enums(src, header)
        for sig in signatures(src, types):
            declared.add(sig.function.name)
            errors += compare_function("C#", sig, header)
    return errors, declared
