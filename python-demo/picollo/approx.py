"""`ApproxCounter`: the scalable approximate counter on its own (`picollo_approx_counter`)."""

from __future__ import annotations

import ctypes
from operator import itemgetter
from typing import Optional

from . import _native as n
from ._convert import u32, u64
from ._errors import check
from ._handle import Handle, derived


class ApproxCounter(Handle):
    """A counter any number of threads increment at once, cheaply: exact below
    ``2**threshold`` (default 13, i.e. 8,192); above, each increment adds ``2**k`` with
    probability ``2**-k`` (k grows with the count, capped at ``max_shift``, default 10), so
    the value stays an unbiased estimate (about 2 % error at two standard deviations at
    T = 13) while threads rarely write the shared cache line. Each thread flips its coins
    with its own generator.

    >>> with ApproxCounter() as c:
    ...     c.increment()
    ...     c.add(10)          # exact
    ...     c.value            # 11
    ...     c.reset()          # returns the count taken: 11

    ``exact_when_uncontended=True`` tries an exact ``+1`` with a compare-exchange first
    (exact while one thread uses it; an atomic read-modify-write per increment).
    ``close()`` (or leaving ``with``) frees it; it must not race other calls.
    """

    _WHAT = "approximate counter"

    def __init__(self, threshold: Optional[int] = None, *, max_shift: Optional[int] = None,
                 exact_when_uncontended: bool = False):
        t = 0 if threshold is None else u32(threshold, "threshold")
        m = 0 if max_shift is None else u32(max_shift, "max_shift")
        if threshold is not None and t == 0:
            raise ValueError("threshold must be 1..62 (None for the default, 13)")
        if max_shift is not None and m == 0:
            raise ValueError("max_shift must be 1..62 (None for the default, 10)")
        handle = n.ApproxCounterP()
        check(n.lib.picollo_approx_counter_new(
            t, m, 1 if exact_when_uncontended else 0, ctypes.byref(handle)))
        self._own(handle, n.lib.picollo_approx_counter_free)

    def increment(self) -> None:
        """Count one event (approximately above ``2**threshold``)."""
        n.lib.picollo_approx_counter_increment(self._ptr)

    def add(self, count: int) -> None:
        """Add ``count`` exactly, saturating at ``2**64 - 1 - 2**22`` (the count never
        wraps)."""
        n.lib.picollo_approx_counter_add(self._ptr, u64(count, "count"))

    @property
    def value(self) -> int:
        """The current estimate."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_approx_counter_get(self._ptr, ctypes.byref(out)))
        return out.value

    def __int__(self) -> int:
        return self.value

    def reset(self) -> int:
        """Take the count to zero and return it (an increment racing the reset lands in
        exactly one of the two)."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_approx_counter_reset(self._ptr, ctypes.byref(out)))
        return out.value

    def _policy(self) -> tuple[int, int, bool]:
        t, m, e = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32()
        check(n.lib.picollo_approx_counter_policy(
            self._ptr, ctypes.byref(t), ctypes.byref(m), ctypes.byref(e)))
        return t.value, m.value, bool(e.value)

    threshold = derived("_policy", itemgetter(0), """T: counts below ``2**T`` are exact.""")
    max_shift = derived("_policy", itemgetter(1), """The cap on the step exponent k.""")
    exact_when_uncontended = derived("_policy", itemgetter(2))

    def __repr__(self) -> str:
        if self.closed:
            return "<ApproxCounter closed>"
        t, m, e = self._policy()
        return (f"<ApproxCounter value={self.value:,} threshold={t} max_shift={m}"
                f"{' exact_when_uncontended' if e else ''}>")
