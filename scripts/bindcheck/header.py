"""Read include/picollo.h as cbindgen writes it: structs, enums, constants, functions.

Not a C parser: it handles what a cbindgen header for C holds (`#define` constants,
`enum` blocks and their `typedef uint32_t`, tagged and opaque structs, prototypes) and
refuses anything else it meets, so a new construct is reported rather than skipped.
Comments of both kinds (`/* */`, `//`) are removed first; `#if`/`#ifdef` sections are kept
or dropped as a compiler on Linux would, with `__cplusplus` undefined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .ctype import CType

#: Macros defined for the preprocessor: the bindings mirror the Linux build, in C, and
#: compare declarations only (the header's inline record function and build note are C code,
#: not ABI).
PLATFORM_MACROS = frozenset({"__linux__", "PICOLLO_NO_INLINE_RECORDER", "PICOLLO_NO_BUILD_NOTE"})

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_QUALIFIERS = {"const", "volatile", "restrict", "struct", "enum", "union"}


class HeaderError(ValueError):
    """The header holds something this reader does not understand."""


@dataclass(frozen=True)
class Decl:
    """A struct field, a function parameter or a function's return: name, type, and the
    spelling of the header (or of a binding that declares it)."""

    name: str
    ctype: CType | None  # None: a binding's type its reader could not map to C
    spelled: str


@dataclass(frozen=True)
class Function:
    """A function as the header (or a binding) declares it."""

    name: str
    returns: Decl
    params: tuple[Decl, ...]

    @property
    def spelled(self) -> str:
        params = ", ".join(p.spelled for p in self.params) or "void"
        return f"{self.returns.spelled} {self.name}({params})"


@dataclass
class Header:
    constants: dict[str, int] = field(default_factory=dict)
    enums: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: struct name -> its fields in order, or None for an opaque struct
    structs: dict[str, list[Decl] | None] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    typedefs: dict[str, str] = field(default_factory=dict)


def strip_comments(text: str) -> str:
    return _COMMENT.sub(" ", text)


def _eval_int(expr: str, constants: dict[str, int]) -> int:
    """An integer constant expression of literals, known constants and + - * << >> | & ~."""
    expr = re.sub(r"\b(\d+)[uUlL]*\b", r"\1", expr)
    expr = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(constants.get(m.group(0), 0)), expr)
    if not re.fullmatch(r"[\d\sxXa-fA-F()+\-*<>|&~]*", expr):
        raise HeaderError(f"not an integer constant expression: {expr!r}")
    return int(eval(expr, {"__builtins__": {}}))  # only digits and operators remain


def _condition(directive: str, rest: str, macros: dict[str, int]) -> bool:
    """The truth of `#ifdef X`, `#ifndef X`, `#if EXPR` or `#elif EXPR`."""
    if directive == "ifdef":
        return rest.split()[0] in macros
    if directive == "ifndef":
        return rest.split()[0] not in macros
    expr = re.sub(r"defined\s*\(?\s*(\w+)\s*\)?", lambda m: "1" if m.group(1) in macros else "0", rest)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    keep = ("and", "or", "not")
    expr = re.sub(r"\b[A-Za-z_]\w*\b",
                  lambda m: m.group(0) if m.group(0) in keep else str(macros.get(m.group(0), 0)), expr)
    return bool(eval(expr, {"__builtins__": {}}))  # only digits, parentheses, and/or/not


def preprocess(text: str, constants: dict[str, int]) -> str:
    """The lines a compiler would see, without directives; `#define NAME int` goes into
    ``constants``."""
    macros: dict[str, int] = {name: 1 for name in PLATFORM_MACROS}
    frames: list[list[bool]] = []  # per open #if: [a branch was taken, this branch is live]
    kept = []
    for line in text.replace("\\\n", " ").splitlines():
        stripped = line.strip()
        live = all(f[1] for f in frames)
        if not stripped.startswith("#"):
            if live:
                kept.append(line)
            continue
        directive, _, rest = stripped[1:].strip().partition(" ")
        if directive in ("if", "ifdef", "ifndef"):
            taken = live and _condition(directive, rest, macros)
            frames.append([taken, taken])
        elif directive == "elif":
            top = frames[-1]
            top[1] = not top[0] and all(f[1] for f in frames[:-1]) and _condition("if", rest, macros)
            top[0] = top[0] or top[1]
        elif directive == "else":
            top = frames[-1]
            top[1] = not top[0] and all(f[1] for f in frames[:-1])
            top[0] = True
        elif directive == "endif":
            frames.pop()
        elif directive == "define" and live:
            name, _, value = rest.strip().partition(" ")
            if "(" in name:
                continue  # a function-like macro: no constant
            macros[name] = 1
            if value.strip():
                try:
                    constants[name] = macros[name] = _eval_int(value, constants)
                except HeaderError:
                    pass  # a macro that is not an integer: not a constant the bindings mirror
        elif directive == "define":
            pass  # in a branch the compiler skips
        elif directive not in ("include", "pragma", "undef", "error", "warning"):
            raise HeaderError(f"unknown preprocessor line: {stripped}")
    return "\n".join(kept)


def statements(text: str) -> list[str]:
    """Top-level statements, split at `;` outside braces, whitespace collapsed."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            out.append(" ".join(text[start:i].split()))
            start = i + 1
    if text[start:].strip():
        raise HeaderError(f"text after the last statement: {text[start:].strip()[:60]!r}")
    return [s for s in out if s]


def parse_type(text: str, header: Header) -> CType:
    """`const struct picollo_histogram *` -> CType(picollo_histogram, depth 1); scalar
    typedefs (`picollo_status`) resolve to what they name (`uint32_t`)."""
    depth = text.count("*")
    words = [w for w in text.replace("*", " ").split() if w not in _QUALIFIERS]
    base = " ".join(words)
    if not base:
        raise HeaderError(f"no type in {text!r}")
    if base in header.typedefs:
        inner = parse_type(header.typedefs[base], header)
        return CType(inner.bases, inner.depth + depth, inner.length)
    return CType.of(base, depth=depth)


def parse_decl(text: str, header: Header) -> Decl:
    """`struct picollo_percentile percentiles[PICOLLO_SUMMARY_PERCENTILES]`, `uint64_t *out`."""
    m = re.fullmatch(r"(?P<type>.*?[\s*])(?P<name>\w+)\s*(?:\[(?P<len>[^\]]+)\])?", text.strip())
    if not m or "(" in text:
        raise HeaderError(f"cannot read the declaration {text!r}")
    ctype = parse_type(m.group("type"), header)
    if m.group("len"):
        ctype = ctype.array(_eval_int(m.group("len"), header.constants))
    return Decl(m.group("name"), ctype, " ".join(text.split()))


def _enum_members(body: str, header: Header) -> list[tuple[str, int]]:
    members, nxt = [], 0
    for item in filter(None, (s.strip() for s in body.split(","))):
        name, _, value = item.partition("=")
        nxt = _eval_int(value, header.constants) if value.strip() else nxt
        members.append((name.strip(), nxt))
        nxt += 1
    return members


def _read_enum(m: re.Match, header: Header) -> None:
    header.enums[m.group("name")] = _enum_members(m.group("body"), header)


def _read_struct(m: re.Match, header: Header) -> None:
    fields = [parse_decl(s, header) for s in m.group("body").split(";") if s.strip()]
    header.structs[m.group("name")] = fields


def _read_opaque(m: re.Match, header: Header) -> None:
    header.structs.setdefault(m.group("name"), None)


def _read_typedef(m: re.Match, header: Header) -> None:
    header.typedefs[m.group("name")] = m.group("type")


def _read_function_pointer(m: re.Match, header: Header) -> None:
    # A function pointer crosses the ABI as an untyped pointer (IntPtr, c_void_p).
    header.typedefs[m.group("name")] = "void *"


#: Attribute macros a declaration may start with (`PICOLLO_RECORD_ATTR`): not part of the type.
_ATTRIBUTE_MACROS = re.compile(r"^(?:[A-Z][A-Z0-9_]*_ATTR\s+)+")


def _read_function(m: re.Match, header: Header) -> None:
    params_text = m.group("params").strip()
    params = () if params_text in ("", "void") else tuple(
        parse_decl(p, header) for p in params_text.split(","))
    ret = _ATTRIBUTE_MACROS.sub("", m.group("ret").strip())
    returns = Decl("return", parse_type(ret, header), " ".join(ret.split()))
    header.functions[m.group("name")] = Function(m.group("name"), returns, params)


_STATEMENTS = [
    (re.compile(r"(?:typedef )?enum (?P<name>\w+)(?: : \w+)? ?\{(?P<body>[^{}]*)\}(?: \w+)?"), _read_enum),
    (re.compile(r"(?:typedef )?struct (?P<name>\w+) ?\{(?P<body>[^{}]*)\}(?: \w+)?"), _read_struct),
    (re.compile(r"(?:typedef )?struct (?P<name>\w+)(?: (?P=name))?"), _read_opaque),
    (re.compile(r"typedef [\w\s*]+? ?\(\*(?P<name>\w+)\) ?\([^()]*\)"), _read_function_pointer),
    (re.compile(r"typedef (?P<type>[\w\s*]+?) ?(?P<name>\w+)"), _read_typedef),
    (re.compile(r"(?P<ret>[\w\s*]+?[\s*])(?P<name>\w+) ?\((?P<params>[^()]*)\)"), _read_function),
]


def parse_header(text: str) -> Header:
    header = Header()
    code = preprocess(strip_comments(text), header.constants)
    for stmt in statements(code):
        for pattern, read in _STATEMENTS:
            m = pattern.fullmatch(stmt)
            if m:
                read(m, header)
                break
        else:
            raise HeaderError(f"cannot read the header statement {stmt[:100]!r}")
    return header


def read_header(path: Path) -> Header:
    return parse_header(Path(path).read_text(encoding="utf-8"))
