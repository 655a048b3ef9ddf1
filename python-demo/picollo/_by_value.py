"""A histogram read along its values rather than its ranks, written once for both kinds
over their `Domain`: the rank of a value (the inverse of a percentile), counts between
values, the bucket a value falls in; and, for the integer histogram, steps of values
(HdrHistogram's linear and logarithmic iterations).

`ByValue` and `ValueSteps` are mixins only to keep the histogram modules to one idea per
file: they need nothing of their host but ``_ptr`` (the live handle, `ClosedError` once
closed) and ``_DOMAIN``. The hosts name the value argument and say what it means for their
values; the call is made here.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, ClassVar, Iterator, Optional

from . import _native as n
from ._base import batch_size
from ._convert import real, u64
from ._domain import Domain
from ._errors import InvalidArgumentError, Status, check, error_for, last_error_message
from ._types import Step

#: Steps fetched per native call by `ValueSteps.linear_steps` and `ValueSteps.log_steps`
#: (40 bytes each). Each call walks the buckets and the steps before it again (the cursor
#: is only a step count), so batches are large: a million steps of width 1 take about
#: twice as long in batches of 1024 as in batches of 4096.
STEP_BATCH = 4096


class ByValue:
    """Queries by value, for `Histogram` and `FloatHistogram`."""

    _ptr: Any  # the host's live handle
    _DOMAIN: ClassVar[Domain]

    def _rank_of(self, value: Any, what: str) -> float:
        d = self._DOMAIN
        out = ctypes.c_double()
        check(d.native.rank_of(self._ptr, d.value(value, what), ctypes.byref(out)))
        return out.value

    def _quantile_of(self, value: Any, what: str) -> float:
        d = self._DOMAIN
        out = ctypes.c_double()
        check(d.native.quantile_of(self._ptr, d.value(value, what), ctypes.byref(out)))
        return out.value

    def count_between(self, lo: Any, hi: Any) -> int:
        """The count of every bucket holding a value in ``[lo, hi]`` (whole buckets, as
        HdrHistogram's ``getCountBetweenValues``: the exact count of ``[lowest of lo's
        bucket, highest of hi's bucket]``, so at least the count of ``[lo, hi]``).
        `InvalidArgumentError` when ``lo > hi`` (or either is NaN)."""
        d = self._DOMAIN
        out = ctypes.c_uint64()
        check(d.native.count_between(
            self._ptr, d.value(lo, "lo"), d.value(hi, "hi"), ctypes.byref(out)))
        return out.value

    def _equivalent_range(self, value: Any, what: str) -> tuple[Any, Any]:
        """``(lowest, highest)`` of the bucket ``value`` falls in under this layout;
        `InvalidArgumentError` for a value that has no bucket (a float histogram's NaN,
        ±∞ or magnitude outside the range)."""
        d = self._DOMAIN
        lowest, highest = d.c_value(), d.c_value()
        status = d.native.equivalent_range(
            self._ptr, d.value(value, what), ctypes.byref(lowest), ctypes.byref(highest))
        if status == Status.OUT_OF_RANGE:
            raise InvalidArgumentError(status, last_error_message())
        check(status)
        return lowest.value, highest.value


class ValueSteps:
    """Steps over values, for `Histogram`."""

    _ptr: Any  # the host's live handle

    def linear_steps(self, width: int, batch: int = STEP_BATCH) -> Iterator[Step]:
        """Steps of ``width`` values, ``[0, width)``, ``[width, 2·width)``, …, up to the
        step holding the largest recorded value, empty steps included (HdrHistogram's
        linear iteration). Each bucket counts in the step holding its midpoint.
        `InvalidArgumentError` for ``width`` 0."""
        w = u64(width, "width")

        def fetch(h: Any, cursor: Any, out: Any, cap: int, written: Any) -> int:
            return n.lib.picollo_histogram_linear_steps(h, w, cursor, out, cap, written)

        return self._steps(fetch, batch)

    def log_steps(self, first: int, base: float = 2.0,
                  batch: int = STEP_BATCH) -> Iterator[Step]:
        """Geometric steps ``[0, first)``, ``[first, first·base)``, ``[first·base,
        first·base²)``, … (bounds rounded up to integers), up to the step holding the
        largest recorded value, empty steps included (HdrHistogram's logarithmic
        iteration). Each bucket counts in the step holding its midpoint.
        `InvalidArgumentError` for ``first`` 0 or a ``base`` that is not a finite number
        above 1."""
        f, b = u64(first, "first"), real(base, "base")

        def fetch(h: Any, cursor: Any, out: Any, cap: int, written: Any) -> int:
            return n.lib.picollo_histogram_log_steps(h, f, b, cursor, out, cap, written)

        return self._steps(fetch, batch)

    def _steps(self, fetch: Callable[..., int], batch: Any) -> Iterator[Step]:
        """The steps ``fetch`` writes, ``batch`` per native call (each batch from one
        consistent copy of the counts). The first batch is fetched now, so bad arguments
        raise here rather than at the first ``next``. An empty histogram has no step."""
        size = batch_size(batch)
        cursor, written = ctypes.c_uint64(0), ctypes.c_size_t(0)
        out = (n.picollo_step * size)()

        def next_batch() -> Optional[list[Step]]:
            status = fetch(self._ptr, ctypes.byref(cursor), out, size, ctypes.byref(written))
            if status == Status.OUT_OF_RANGE:
                return None
            if status != Status.OK:
                raise error_for(status)
            # Copied out: the next batch reuses `out`.
            return [Step._from_c(s) for s in out[: written.value]]

        return self._each_step(next_batch(), next_batch)

    def _each_step(self, steps: Optional[list[Step]],
                   next_batch: Callable[[], Optional[list[Step]]]) -> Iterator[Step]:
        while steps is not None:
            for step in steps:
                self._ptr  # closing the histogram ends the iteration (ClosedError)
                yield step
            steps = next_batch()
