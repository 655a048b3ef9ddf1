"""`Domain`: what differs between the integer and the float histogram at the C ABI, the one
axis along which the two vary. Everything they share (`_base`, `_by_value`, `_results`) is
written once over it; `_types.INTEGER` and `_float_types.FLOAT` are the two domains.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable


@dataclass(frozen=True)
class Natives:
    """The library functions a histogram kind and its snapshot are called through (their
    signatures are declared once, in `_abi`). The C ABI names them alike for both kinds,
    so each is found by name: ``rank_of`` is ``picollo_histogram_rank_of`` for integers
    and ``picollo_float_histogram_rank_of`` for doubles, ``snapshot_new`` is
    ``picollo_snapshot_new`` and ``picollo_float_snapshot_new``."""

    free: Any
    record: Any
    record_n: Any
    get_info: Any
    reset: Any
    set_value_selection: Any
    percentile: Any
    percentiles: Any
    summary: Any
    rank_of: Any
    quantile_of: Any
    count_between: Any
    equivalent_range: Any
    next_buckets: Any
    downsample: Any
    snapshot_new: Any
    snapshot_free: Any
    snapshot_update: Any
    snapshot_summary: Any
    format: Any

    @classmethod
    def named(cls, lib: Any, histogram: str, snapshot: str) -> "Natives":
        """The functions of ``lib`` named ``histogram + name`` (``snapshot`` for those
        whose name starts with ``snapshot_``), e.g. ``"picollo_float_histogram_"``."""
        def find(name: str) -> Any:
            if name.startswith("snapshot_"):
                return getattr(lib, snapshot + name[len("snapshot_"):])
            return getattr(lib, histogram + name)

        return cls(**{f.name: find(f.name) for f in fields(cls)})


@dataclass(frozen=True)
class Domain:
    """One histogram kind: its class's name, how a value argument is checked and passed,
    its result types with their C structs, and its library functions."""

    name: str  # "Histogram": the class that `TypeError` asks for
    value: Callable[[Any, str], Any]  # a value argument, checked (`u64` or `real`)
    c_value: type  # its ctypes type
    c_cursor: type  # the cursor of `next_buckets`
    c_handle: type  # the handle `downsample` writes
    c_snapshot: type  # the snapshot's handle
    percentile: type
    c_percentile: type
    bucket: type
    c_bucket: type
    info: type
    c_info: type
    summary: type
    c_summary: type
    native: Natives
