"""A `Histogram` read along its values rather than its ranks: the rank of a value (the
inverse of a percentile), counts between values, the bucket a value falls in, and steps of
values (HdrHistogram's linear and logarithmic iterations).

`ByValue` is a mixin only to keep `histogram.py` to one idea per file: it needs nothing of
its host but ``_ptr`` (the live handle, `ClosedError` once closed).
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Iterator

from . import _native as n
from ._convert import real, u64
from ._errors import Status, check, error_for
from ._types import Step

#: Steps fetched per native call by `ByValue.linear_steps` and `ByValue.log_steps` (40
#: bytes each). Each call walks the buckets and the steps before it again (the cursor is
#: only a step count), so batches are large: a million steps of width 1 take about twice as
#: long in batches of 1024 as in batches of 4096.
STEP_BATCH = 4096


def _batch_size(batch: Any) -> int:
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be a positive int, not {batch!r}")
    return batch


class ByValue:
    """Queries by value and steps over values, for `Histogram`."""

    _ptr: Any  # the host's live handle

    def rank_of(self, value: int) -> float:
        """The number of values in range at or below ``value``: whole buckets below, and
        ``value``'s own bucket in part, its values taken as spread evenly over it (exact for
        the width-1 buckets, and at a bucket's highest value). Underflow and overflow do
        not count, as in percentiles."""
        out = ctypes.c_double()
        check(n.lib.picollo_histogram_rank_of(self._ptr, u64(value), ctypes.byref(out)))
        return out.value

    def quantile_of(self, value: int) -> float:
        """`rank_of` over the count in range: the fraction (0..1) of values at or below
        ``value``, the inverse of a percentile. `EmptyHistogramError` when the range holds
        no value."""
        out = ctypes.c_double()
        check(n.lib.picollo_histogram_quantile_of(self._ptr, u64(value), ctypes.byref(out)))
        return out.value

    def count_between(self, lo: int, hi: int) -> int:
        """The count of every bucket holding a value in ``[lo, hi]`` (whole buckets, as
        HdrHistogram's ``getCountBetweenValues``: the exact count of ``[lowest of lo's
        bucket, highest of hi's bucket]``). `InvalidArgumentError` when ``lo > hi``."""
        out = ctypes.c_uint64()
        check(n.lib.picollo_histogram_count_between(
            self._ptr, u64(lo, "lo"), u64(hi, "hi"), ctypes.byref(out)))
        return out.value

    def equivalent_range(self, value: int) -> tuple[int, int]:
        """``(lowest, highest)``: the values of the bucket ``value`` falls in under this
        layout, recorded or not, in range or not (HdrHistogram's lowest and highest
        equivalent values). The next bucket starts at ``highest + 1``."""
        lowest, highest = ctypes.c_uint64(), ctypes.c_uint64()
        check(n.lib.picollo_histogram_equivalent_range(
            self._ptr, u64(value), ctypes.byref(lowest), ctypes.byref(highest)))
        return lowest.value, highest.value

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
        size = _batch_size(batch)
        cursor, written = ctypes.c_uint64(0), ctypes.c_size_t(0)
        out = (n.picollo_step * size)()

        def next_batch() -> list[Step] | None:
            status = fetch(self._ptr, ctypes.byref(cursor), out, size, ctypes.byref(written))
            if status == Status.OUT_OF_RANGE:
                return None
            if status != Status.OK:
                raise error_for(status)
            # Copied out: the next batch reuses `out`.
            return [Step._from_c(s) for s in out[: written.value]]

        return self._each_step(next_batch(), next_batch)

    def _each_step(self, steps: list[Step] | None,
                   next_batch: Callable[[], list[Step] | None]) -> Iterator[Step]:
        while steps is not None:
            for step in steps:
                self._ptr  # closing the histogram ends the iteration (ClosedError)
                yield step
            steps = next_batch()
