"""``benchmark.stats`` of the pytest plugin (docs/bring-your-suite.md): pytest-benchmark's
figures in seconds under its names (`Stats`), either of the test's one call or of a
measurement by the library's harness (`measured`), and the object that holds them
(`Metadata`). The figures of a measurement are the library's: its histogram's percentiles,
moments and counts by value, read in seconds."""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Optional

from . import bench
from .histogram import Histogram

#: The time histogram's unit, in seconds (thousandths of a nanosecond).
PICOSECOND = 1e-12

#: Why a measured `Stats` has no ``data``.
NO_DATA = ("benchmark.stats['data']: Picollo keeps the samples in a histogram, not each "
           "round's time; the figures (min, median, q1, q3, ...) are read from it")


class Stats:
    """pytest-benchmark's figures of a run of calls, in seconds, under its names: ``rounds``
    samples (each the time per call of a batch of ``iterations`` calls), their ``min``,
    ``max``, ``mean``, ``stddev``, quartiles (``q1``, ``median``, ``q3``, ``iqr``), the
    lowest and highest within 1.5 IQR of the quartiles (``ld15iqr``, ``hd15iqr``), the
    outliers beyond those fences (``iqr_outliers``) and beyond one ``stddev`` of the mean
    (``stddev_outliers``; ``outliers`` is ``"STDDEV;IQR"``), ``ops`` (calls a second) and
    ``total`` (the sum of the samples). ``data`` (each sample) exists for the test's own
    call only."""

    fields = ("min", "max", "mean", "stddev", "rounds", "median", "iqr", "q1", "q3",
              "iqr_outliers", "stddev_outliers", "outliers", "ld15iqr", "hd15iqr", "ops",
              "total")

    def __init__(self, figures: dict, data: Optional[list] = None) -> None:
        for field in self.fields:
            setattr(self, field, figures[field])
        self._data = data

    @classmethod
    def of_call(cls, seconds: float) -> "Stats":
        """One round of one call that took ``seconds``."""
        one = dict.fromkeys(("min", "max", "mean", "median", "q1", "q3", "ld15iqr",
                             "hd15iqr", "total"), seconds)
        one.update(stddev=0.0, rounds=1, iqr=0.0, iqr_outliers=0, stddev_outliers=0,
                   outliers="0;0", ops=1 / seconds if seconds else math.inf)
        return cls(one, [seconds])

    @classmethod
    def of_histogram(cls, h: Histogram) -> "Stats":
        """The figures of a harness's time histogram (picoseconds per call): its
        percentiles, mean and standard deviation, and its counts between values for the
        outliers (whole buckets: to the histogram's precision, as every figure here)."""
        summary = h.summary()
        low, q1, median, q3, high = (p.value for p in h.percentiles([0, 25, 50, 75, 100]))
        iqr, mean, n = q3 - q1, summary.mean, summary.total
        # pytest-benchmark's is the sample's (n - 1), the histogram's the population's (n).
        stddev = summary.stdev * math.sqrt(n / (n - 1)) if n > 1 else 0.0
        fences = (q1 - 1.5 * iqr, q3 + 1.5 * iqr)
        ld15iqr, hd15iqr = _within(h, *fences)
        iqr_outliers = _outside(h, n, *fences)
        stddev_outliers = _outside(h, n, mean - stddev, mean + stddev)
        ps = {"min": low, "max": high, "mean": mean, "stddev": stddev, "median": median,
              "q1": q1, "q3": q3, "iqr": iqr, "ld15iqr": ld15iqr, "hd15iqr": hd15iqr,
              "total": mean * n}
        figures: dict[str, Any] = {k: v * PICOSECOND for k, v in ps.items()}
        figures.update(rounds=n, iqr_outliers=iqr_outliers,
                       stddev_outliers=stddev_outliers,
                       outliers=f"{stddev_outliers};{iqr_outliers}",
                       ops=1 / figures["mean"] if figures["mean"] else math.inf)
        return cls(figures)

    @property
    def data(self) -> list:
        """Each round's time per call: the test's own call only (AttributeError, saying so,
        for a measurement)."""
        if self._data is None:
            raise AttributeError(NO_DATA)
        return self._data

    def as_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.fields}


def _within(h: Histogram, low: float, high: float) -> tuple[int, int]:
    """The values of the lowest and the highest bucket with samples that reach into
    ``[low, high]`` (pytest-benchmark's lowest and highest datum within its fences)."""
    inside = [b.value for b in h.buckets_with_values() if b.highest >= low and b.lower <= high]
    return inside[0], inside[-1]


def _outside(h: Histogram, total: int, low: float, high: float) -> int:
    """The samples outside ``[low, high]``: those of the buckets that do not reach into it."""
    return total - h.count_between(math.floor(max(low, 0.0)), math.ceil(max(high, 0.0)))


def measured(fn: Callable[[], Any], name: str, budget: float) -> tuple[Stats, int]:
    """``fn`` measured by the library's harness as the suite runner measures a benchmark
    (its settings, time only, nothing subtracted), in ``budget`` seconds of samples after
    at most a fifth of that warming up: its `Stats` and its batch (calls a sample).
    Raises what ``fn`` raised."""
    with bench.run(fn, name=name, counters=[], time_budget=budget, warmup=budget / 5,
                   subtract_call_overhead=False) as result:
        return Stats.of_histogram(result.histogram("time")), _batch(result)


def _batch(result: bench.BenchResult) -> int:
    return int(json.loads(result.to_json())["batch"])


class Metadata:
    """``benchmark.stats``: its `Stats` as ``.stats``, and each figure by key
    (``benchmark.stats["mean"]``) as pytest-benchmark's object gives them; ``iterations``
    is the calls of each round."""

    def __init__(self, stats: Stats, name: str, group: Optional[str], extra_info: dict,
                 iterations: int) -> None:
        self.stats, self.name, self.group = stats, name, group
        self.extra_info, self.iterations = extra_info, iterations

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self.stats, key)
        except AttributeError as missing:
            try:
                return getattr(self, key)
            except AttributeError:
                raise missing from None

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except AttributeError:
            return default

    def __bool__(self) -> bool:
        return self.stats.rounds > 0
