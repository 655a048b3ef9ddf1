"""`Handle`: a Python object that owns one native object of the library (a histogram, a
snapshot, a counter, a reader or writer, a perf session), the one lifetime rule they all
follow."""

from __future__ import annotations

import weakref
from typing import Any, Callable, ClassVar, Optional, TypeVar

from ._errors import ClosedError

H = TypeVar("H", bound="Handle")


def derived(method: str, pick: Callable[[Any], Any], doc: Optional[str] = None) -> property:
    """A read-only property: ``pick`` of what ``self.<method>()`` returns (one field of
    ``self.info()``, one item of a tuple)."""
    return property(lambda self: pick(getattr(self, method)()), doc=doc)


class Handle:
    """A native object this one owns: freed by `close` (idempotent), on leaving ``with``,
    or when collected; any later use raises `ClosedError`."""

    _WHAT: ClassVar[str]  # how `ClosedError` names it

    def _own(self, handle: Any, free: Any) -> None:
        """Take ``handle`` (``free`` frees it when this object is closed or collected)."""
        self._attach(handle)
        self._finalizer = weakref.finalize(self, free, handle)

    def _attach(self, handle: Any) -> None:
        self._h = handle

    @property
    def _ptr(self) -> Any:
        h = getattr(self, "_h", None)
        if h is None:
            raise ClosedError(self._WHAT)
        return h

    def _detach(self) -> None:
        """Forget the handle (closed): every later call raises `ClosedError`."""
        self._h = None

    def close(self) -> None:
        """Free the native object now (idempotent)."""
        if getattr(self, "_h", None) is not None:
            self._detach()
            self._finalizer()

    @property
    def closed(self) -> bool:
        return getattr(self, "_h", None) is None

    def __enter__(self: H) -> H:
        self._ptr  # entering a closed object is an error too
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
