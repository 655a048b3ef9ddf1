"""Every export format of the library by its name: `formats()` lists them and
`HistogramBase.to_format` writes one, so a format the library adds is here without a new
method. The options are the format's own (`picollo formats` in the CLI describes them),
passed to the library as (name, value) text."""

from __future__ import annotations

import ctypes
from typing import Any, Mapping, Optional, Union

from . import _native as n
from ._errors import check
from ._labels import Labels
from ._text import encode, fetch_bytes, fetch_text


def formats() -> list[str]:
    """The names of the export formats, in the library's order."""
    return fetch_text(n.lib.picollo_format_names).splitlines()


def is_binary(name: str) -> bool:
    """Whether format ``name`` writes bytes rather than text; `InvalidArgumentError` for a
    name the library does not know."""
    binary = ctypes.c_uint32(0)
    check(n.lib.picollo_format_binary(encode(name, "name"), ctypes.byref(binary)))
    return bool(binary.value)


def _option_text(name: str, value: Any) -> str:
    """An option's value as the library reads it: booleans as true/false, sequences
    comma-separated, anything else as `str`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(name, v) for v in value)
    if isinstance(value, (str, int, float)):
        return str(value)
    raise TypeError(f"option {name} must be a str, number, bool or sequence, "
                    f"not {type(value).__name__}")


def to_format(function: Any, h: Any, name: str, options: Optional[Mapping[str, Any]],
              keywords: Mapping[str, Any]) -> Union[str, bytes]:
    """The handle ``h`` written by ``function`` (``picollo_*histogram_format``) in format
    ``name`` with ``options`` and ``keywords`` merged: text as `str`, binary as `bytes`."""
    merged = {**(options or {}), **keywords}
    labels = Labels([(k, _option_text(k, v)) for k, v in merged.items()], "options")
    binary = is_binary(name)
    nm = encode(name, "name")
    data = fetch_bytes(lambda buf, size, needed: function(
        h, nm, labels.pointer, labels.count, buf, size, needed), not binary)
    return data if binary else data.decode("utf-8")
