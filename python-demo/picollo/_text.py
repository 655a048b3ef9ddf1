"""Text out of the library's snprintf-style functions: ask the size, then fill a buffer."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional

from ._errors import Status, check, error_for
from ._handle import Handle


def encode(text: Optional[str], what: str) -> Optional[bytes]:
    """A Python string as the NUL-terminated UTF-8 the ABI takes (None stays NULL)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str or None, not {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"{what} must not contain NUL characters")
    return text.encode("utf-8")


def fetch_text(call) -> str:
    """Run ``call(buf, len, needed_ptr)`` with ``(NULL, 0)`` for the size, then with a
    buffer of that size plus the NUL (again, larger, if the text grew in between)."""
    needed = ctypes.c_size_t(0)
    status = call(None, 0, ctypes.byref(needed))
    while True:
        if status not in (Status.OK, Status.BUFFER_TOO_SMALL):
            raise error_for(status)
        buf = ctypes.create_string_buffer(needed.value + 1)
        status = call(buf, len(buf), ctypes.byref(needed))
        if status == Status.OK:
            return buf.raw[: needed.value].decode("utf-8")
        if status == Status.BUFFER_TOO_SMALL and needed.value < len(buf):
            raise error_for(status)  # the library contradicts itself: do not loop


def fetch_bytes(call: Callable[[Any, int, Any], int], text: bool) -> bytes:
    """Bytes from a ``(buf, len, needed)`` function: ask the size, then fill (one more
    byte for the NUL after text)."""
    needed = ctypes.c_size_t(0)
    status = call(None, 0, ctypes.byref(needed))
    while True:
        if status not in (Status.OK, Status.BUFFER_TOO_SMALL):
            raise error_for(status)
        size = needed.value + (1 if text else 0)
        buf = (ctypes.c_uint8 * max(size, 1))()
        status = call(buf, size, ctypes.byref(needed))
        if status == Status.OK:
            return ctypes.string_at(buf, needed.value)
        if status == Status.BUFFER_TOO_SMALL and needed.value + (1 if text else 0) <= size:
            raise error_for(status)  # the library contradicts itself: do not loop


class TextWriterHandle(Handle):
    """A native writer that produces text drained by its ``_take`` function (the log and
    OpenMetrics writers): owns the handle (`close`, ``with``, freed when collected too),
    raises `ClosedError` after `close`, and after each successful call moves the new text
    to `_emit`, which keeps it in memory unless a subclass sends it elsewhere."""

    def __init__(self, handle_type: Any, new: Callable, free: Callable, take: Callable,
                 what: str) -> None:
        handle = handle_type()
        check(new(ctypes.byref(handle)))
        self._own(handle, free)
        self._take = take
        self._WHAT = what
        self._kept: list[str] = []

    def _call(self, status: int) -> Any:
        """Check a call's status, then drain the text it wrote. Returns self."""
        check(status)
        w = self._ptr
        text = fetch_text(lambda buf, size, needed: self._take(w, buf, size, needed))
        if text:
            self._emit(text)
        return self

    def _emit(self, text: str) -> None:
        self._kept.append(text)

    def text(self) -> str:
        """Everything written so far."""
        self._ptr
        return "".join(self._kept)

