"""Text out of the library's snprintf-style functions: ask the size, then fill a buffer."""

from __future__ import annotations

import ctypes

from ._errors import Status, error_for


def encode(text: str | None, what: str) -> bytes | None:
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
