"""The rules a binding is held to, whatever its language.

A binding describes each mirror as plain data (`Decl`, `Signature`, enum members) with its
own spelling for messages; these functions compare that data with the header and return one
sentence per mismatch. Positions are counted from 1 and given with the total ("field 3 of 9").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .header import Decl, Function, Header


@dataclass(frozen=True)
class Signature:
    """A binding's declaration of a C function (`where` says which, for messages); its
    parameters and return are `Decl`s in the binding's spelling."""

    where: str
    function: Function


NameRule = Callable[[str, str, str], bool]  # (C struct, C field, binding field) -> same?


def _type_mismatch(ours: Decl, header: Decl) -> bool:
    """The binding's type is unknown or does not accept the header's."""
    return ours.ctype is None or not ours.ctype.accepts(header.ctype)


def _field_mismatch(field: Decl, decl: Decl, check_name: bool, same_name: NameRule,
                    struct: str) -> bool:
    if _type_mismatch(field, decl):
        return True
    return check_name and not same_name(struct, decl.name, field.name)


def _expanded(decl: Decl, count: int) -> list[tuple[Decl, bool]]:
    """An array field as ``count`` fields of its element type, their names left unchecked."""
    element = Decl(f"{decl.name}[i]", decl.ctype.element(), decl.spelled)
    return [(element, False)] * count


def _aligned(header_fields: list[Decl], fields: list[Decl]) -> list[tuple[Decl, bool]]:
    """The header's fields, one per binding field: an array the binding spells as that many
    separate fields (C# has no inline arrays of structs) is expanded to match."""
    out: list[tuple[Decl, bool]] = []
    for decl in header_fields:
        at = len(out)
        as_one = at >= len(fields) or fields[at].ctype is None or fields[at].ctype.length is not None
        if decl.ctype.length is None or as_one:
            out.append((decl, True))
        else:
            out.extend(_expanded(decl, decl.ctype.length))
    return out


def compare_struct(label: str, c_name: str, fields: list[Decl], header: Header,
                   same_name: NameRule) -> list[str]:
    """``label``: how the messages name the binding's struct (`C# SummaryData`)."""
    if c_name not in header.structs:
        return [f"{label} mirrors struct {c_name}, which the header does not have"]
    header_fields = header.structs[c_name]
    if header_fields is None:
        return [f"{label} has fields but the header's {c_name} is opaque"] if fields else []
    if not fields:
        return []  # an opaque handle target in the binding: only its name matters
    aligned = _aligned(header_fields, fields)
    errors = []
    for i, (field, (decl, check_name)) in enumerate(zip(fields, aligned), 1):
        if _field_mismatch(field, decl, check_name, same_name, c_name):
            errors.append(f"{label} field {i} of {len(fields)} is `{field.spelled}` "
                          f"but the header has `{decl.spelled}`")
    for i in range(len(aligned) + 1, len(fields) + 1):
        errors.append(f"{label} field {i} `{fields[i - 1].spelled}` is not in the header's {c_name}")
    for i in range(len(fields) + 1, len(aligned) + 1):
        errors.append(f"{label} lacks the header's field `{aligned[i - 1][0].spelled}` (field {i})")
    return errors


def compare_function(lang: str, sig: Signature, header: Header) -> list[str]:
    ours = sig.function
    fn: Function | None = header.functions.get(ours.name)
    label = f"{lang} {sig.where}"
    if fn is None:
        return [f"{label} declares {ours.name}, which the header does not have"]
    errors = []
    if _type_mismatch(ours.returns, fn.returns):
        errors.append(f"{label} returns `{ours.returns.spelled}` but the header's {ours.name} "
                      f"returns `{fn.returns.spelled}`")
    if len(ours.params) != len(fn.params):
        errors.append(f"{label} takes {len(ours.params)} parameters but the header's takes "
                      f"{len(fn.params)}: `{fn.spelled}`")
        return errors
    for i, (param, decl) in enumerate(zip(ours.params, fn.params), 1):
        if _type_mismatch(param, decl):
            errors.append(f"{label} parameter {i} of {len(fn.params)} is `{param.spelled}` "
                          f"but the header has `{decl.spelled}`")
    return errors


def compare_enum(label: str, c_enum: str, members: list[tuple[str, int]], header: Header,
                 same_name: Callable[[str, str], bool]) -> list[str]:
    """``same_name(binding member, C constant without its prefix)``; every header constant
    must be mirrored, and nothing else."""
    if c_enum not in header.enums:
        return [f"{label} mirrors enum {c_enum}, which the header does not have"]
    prefix = c_enum.upper() + "_"
    expected = [(name.removeprefix(prefix), name, value) for name, value in header.enums[c_enum]]
    errors = []
    for name, value in members:
        match = [e for e in expected if same_name(name, e[0])]
        if not match:
            errors.append(f"{label} has `{name} = {value}`, which the header's {c_enum} does not")
        elif match[0][2] != value:
            errors.append(f"{label} has `{name} = {value}` but the header has "
                          f"`{match[0][1]} = {match[0][2]}`")
    for short, name, value in expected:
        if not any(same_name(m, short) for m, _ in members):
            errors.append(f"{label} lacks the header's `{name} = {value}`")
    return errors


def unwrapped(header: Header, declared: set[str]) -> list[str]:
    return sorted(set(header.functions) - declared)
