"""`FloatSnapshot`: a copy of a float histogram's counts (`picollo_float_snapshot`),
refreshed in place, optionally as the deltas since the previous refresh."""

from __future__ import annotations

import ctypes
import weakref
from typing import Any

from . import _native as n
from ._errors import ClosedError, check
from ._float_types import FloatSummary
from .float_histogram import FloatHistogram


class FloatSnapshot:
    """A copy of a float histogram's counts, refreshed by `update`, optionally holding only
    what was recorded since the previous update (whose extremes are unknown: ``min`` and
    ``max`` None in its summary). One thread at a time."""

    def __init__(self, histogram: FloatHistogram):
        if not isinstance(histogram, FloatHistogram):
            raise TypeError(f"expected a FloatHistogram, not {type(histogram).__name__}")
        handle = n.FloatSnapshotP()
        check(n.lib.picollo_float_snapshot_new(histogram._ptr, ctypes.byref(handle)))
        self._s = handle
        self._source = histogram
        self._finalizer = weakref.finalize(self, n.lib.picollo_float_snapshot_free, handle)

    @property
    def _ptr(self) -> Any:
        s = getattr(self, "_s", None)
        if s is None:
            raise ClosedError("float snapshot")
        return s

    def update(self, deltas: bool = False,
               histogram: FloatHistogram | None = None) -> "FloatSnapshot":
        """Refresh from the source histogram (or another of the same layout and range;
        `LayoutMismatchError` otherwise). With ``deltas=True`` the snapshot then holds
        what was recorded since the previous update (a reset in between: the counts since
        the reset). Returns self."""
        source = self._source if histogram is None else histogram
        if not isinstance(source, FloatHistogram):
            raise TypeError(f"expected a FloatHistogram, not {type(source).__name__}")
        check(n.lib.picollo_float_snapshot_update(self._ptr, source._ptr,
                                                  1 if deltas else 0))
        return self

    def summary(self) -> FloatSummary:
        out = n.picollo_float_summary()
        check(n.lib.picollo_float_snapshot_summary(self._ptr, ctypes.byref(out)))
        return FloatSummary(out)

    @property
    def total(self) -> int:
        return self.summary().total

    def table(self, title: str | None = None) -> str:
        return self.summary().table(title)

    def line(self, name: str = "") -> str:
        return self.summary().line(name)

    def __str__(self) -> str:
        return self.table()

    def close(self) -> None:
        if getattr(self, "_s", None) is not None:
            self._s = None
            self._finalizer()

    @property
    def closed(self) -> bool:
        return getattr(self, "_s", None) is None

    def __enter__(self) -> "FloatSnapshot":
        self._ptr
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
