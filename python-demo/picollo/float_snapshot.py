"""`FloatSnapshot`: a copy of a float histogram's counts (`picollo_float_snapshot`),
refreshed in place, optionally as the deltas since the previous refresh (what it shares with
the integer `Snapshot` is in `_base`)."""

from __future__ import annotations

from ._base import SnapshotBase
from ._float_types import FLOAT, FloatSummary


class FloatSnapshot(SnapshotBase[FloatSummary]):
    """A copy of a float histogram's counts, refreshed by `update`, optionally holding only
    what was recorded since the previous update (whose extremes are unknown: ``min`` and
    ``max`` None in its summary). One thread at a time."""

    _DOMAIN = FLOAT
    _WHAT = "float snapshot"

    def line(self, name: str = "") -> str:
        return self.summary().line(name)
