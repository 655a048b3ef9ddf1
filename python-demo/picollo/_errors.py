"""Status codes and the exceptions they become."""

from __future__ import annotations

import re
from typing import Optional

from ._abi import Status
from ._native import lib


#: How the library's messages name the line of a log.
_LINE = re.compile(r"\bline (\d+)")


class PicolloError(Exception):
    """A call into libpicollo failed.

    ``status`` is the `Status` (or the raw code if this binding does not know it),
    ``message`` the library's `picollo_last_error_message()` for the failed call.
    Statuses that mean "bad argument" raise a subclass that is also a `ValueError`, so
    ``except ValueError`` catches them as it would for any Python function.
    """

    def __init__(self, status: int, message: str):
        try:
            status = Status(status)
            name = status.name
        except ValueError:
            name = f"status {status}"
        self.status = status
        self.message = message
        super().__init__(f"{name}: {message}" if message else name)


class InvalidArgumentError(PicolloError, ValueError):
    """INVALID_ARGUMENT: a value out of its domain (relative error, range, rank…)."""


class LayoutMismatchError(PicolloError, ValueError):
    """LAYOUT_MISMATCH: merging histograms of different relative errors, or refreshing a
    snapshot from a histogram of another configuration."""


class WouldGoNegativeError(PicolloError, ValueError):
    """WOULD_GO_NEGATIVE: a subtraction would make a count negative (nothing changed)."""


class EmptyHistogramError(PicolloError, LookupError):
    """EMPTY: a percentile of a histogram that holds no value in its range."""


class UnavailableError(PicolloError):
    """A perf counter cannot be counted here: `UnsupportedError` (no hardware PMU, a VM
    without a vPMU, an event the CPU lacks) or `PermissionDeniedError`. The message names
    the counter and the cause; tests and examples skip on it."""


class UnsupportedError(UnavailableError):
    """UNSUPPORTED: not supported on this machine (the kernel said ENOENT/EOPNOTSUPP), or
    not by this histogram (`Histogram.subtract` in a concurrent mode; `Histogram.recorded_min`
    and `recorded_max` of a histogram made without ``exact_extremes=True``)."""


class PermissionDeniedError(UnavailableError, PermissionError):
    """PERMISSION_DENIED: refused by perf_event_paranoid or a missing capability."""


class OutOfMemoryError(PicolloError, MemoryError):
    """OUT_OF_MEMORY: a histogram, a copy of its counts or a result could not be allocated;
    nothing was changed."""


class FormatError(PicolloError, ValueError):
    """FORMAT_ERROR: the input is not a valid HdrHistogram V2 blob, base64 text or interval
    log. ``line`` is the 1-based line of a log the message names, else None."""

    def __init__(self, status: int, message: str):
        super().__init__(status, message)
        found = _LINE.search(message)
        self.line: Optional[int] = int(found.group(1)) if found else None


class UnencodableError(PicolloError, ValueError):
    """UNENCODABLE: the histogram cannot be written in that format (saturated counts, a
    count above 2**63 - 1, a value above 2**63 - 1); nothing was written."""


class ClosedError(PicolloError, ValueError):
    """The histogram or snapshot was closed (like I/O on a closed file)."""

    def __init__(self, what: str):
        super().__init__(Status.NULL_POINTER, f"operation on a closed {what}")


_BY_STATUS = {
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.LAYOUT_MISMATCH: LayoutMismatchError,
    Status.WOULD_GO_NEGATIVE: WouldGoNegativeError,
    Status.EMPTY: EmptyHistogramError,
    Status.UNSUPPORTED: UnsupportedError,
    Status.PERMISSION_DENIED: PermissionDeniedError,
    Status.OUT_OF_MEMORY: OutOfMemoryError,
    Status.FORMAT_ERROR: FormatError,
    Status.UNENCODABLE: UnencodableError,
}


def last_error_message() -> str:
    raw = lib.picollo_last_error_message()
    return raw.decode("utf-8", "replace") if raw else ""


def status_str(status: int) -> str:
    """`picollo_status_str`: the library's static text for a status code."""
    return lib.picollo_status_str(int(status) & 0xFFFF_FFFF).decode("utf-8", "replace")


def error_for(status: int) -> PicolloError:
    """The exception for a failed call; read right after it, on the same thread."""
    message = last_error_message() or status_str(status)
    return _BY_STATUS.get(status, PicolloError)(status, message)


def check(status: int) -> None:
    """Raise the `PicolloError` for a non-OK status."""
    if status != Status.OK:
        raise error_for(status)
