"""Name and value pairs as the library's ``picollo_label`` arrays: the labels and
attributes of the metrics exports, and the options of the formats by name."""

from __future__ import annotations

import ctypes
from typing import Any, Mapping

from . import _native as n
from ._text import encode


def label_pairs(labels: Any, what: str) -> list[tuple[str, str]]:
    """Label pairs, in order, from None, a mapping or a sequence of ``(name, value)``."""
    if labels is None:
        return []
    items = labels.items() if isinstance(labels, Mapping) else labels
    if isinstance(items, (str, bytes)):
        raise TypeError(f"{what} must be a mapping or (name, value) pairs, not a string")
    pairs = []
    for item in items:
        try:
            name, value = item
        except (TypeError, ValueError):
            raise TypeError(f"{what}: {item!r} is not a (name, value) pair") from None
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError(f"{what}: names and values must be str, got {item!r}")
        pairs.append((name, value))
    return pairs


class Labels:
    """A ``picollo_label`` array and the bytes it points at (kept alive with it)."""

    def __init__(self, labels: Any, what: str):
        pairs = label_pairs(labels, what)
        self._bytes = [(encode(k, f"{what} name"), encode(v, f"{what} value")) for k, v in pairs]
        self.count = len(pairs)
        self.array = (n.picollo_label * self.count)(*self._bytes) if pairs else None

    @property
    def pointer(self) -> Any:
        return ctypes.cast(self.array, n.LabelP) if self.array is not None else None
