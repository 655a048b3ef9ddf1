"""B against A (Linux): `Comparison`, what `picollo.bench.compare`, `compare_fns` and
`judge_apart` give, with `ExactDiff` for each exact metric (an emulated count, judged without
statistics). `picollo.bench` re-exports them."""

from __future__ import annotations

import collections.abc
import ctypes
import dataclasses
import math
import numbers
import os
import types
from typing import Iterable, Mapping, Optional, Union

from . import _bench_native as bn
from ._bench_result import BenchResult
from ._convert import real
from ._errors import check
from ._text import fetch_text

__all__ = ["Comparison", "ExactDiff", "compare", "judge_apart"]

_VERDICTS = {bn.BenchVerdict.NO_DIFFERENCE: "no difference",
             bn.BenchVerdict.FASTER: "faster", bn.BenchVerdict.SLOWER: "slower",
             bn.BenchVerdict.WITHIN_NOISE: "within noise",
             bn.BenchVerdict.NOT_ENOUGH_ROUNDS: "not enough rounds",
             bn.BenchVerdict.NOT_ENOUGH_RUNS_APART: "not enough runs apart",
             bn.BenchVerdict.NOT_JUDGED: "not judged",
             bn.BenchVerdict.NOT_SETTLED: "not settled"}


@dataclasses.dataclass(frozen=True)
class ExactDiff:
    """An exact metric (an emulated count) in both results of a comparison, judged without
    statistics: ``a`` and ``b`` each side's figure per call where all its samples agree
    (`BenchResult.constant`), else None; ``difference`` ``b - a`` where both are figures;
    ``verdict`` ``"no difference"``, ``"more"`` or ``"fewer"`` (B against A, on every
    call), or ``"varies"`` where a side's calls counted differently: the word of the
    comparison text's ``exact:`` line."""

    a: Optional[float]
    b: Optional[float]
    difference: Optional[float]
    verdict: str

    @classmethod
    def of(cls, a: Optional[float], b: Optional[float]) -> "ExactDiff":
        """The difference of two constants (None: that side varies)."""
        if a is None or b is None:
            return cls(a, b, None, "varies")
        d = b - a
        return cls(a, b, d, "more" if d > 0 else "fewer" if d < 0 else "no difference")


def _exact_diffs(a: BenchResult, b: BenchResult) -> Mapping[str, ExactDiff]:
    """An `ExactDiff` per exact metric of A that B has too, read-only, in A's order."""
    both = [m for m in a.metrics if a.is_exact(m) and m in b.metrics and b.is_exact(m)]
    return types.MappingProxyType({m: ExactDiff.of(a.constant(m), b.constant(m)) for m in both})


@dataclasses.dataclass(frozen=True)
class Comparison:
    """B against A: ``verdict`` is ``"faster"``, ``"slower"``, ``"within noise"`` (a change
    below ``threshold`` percent), ``"no difference"``, ``"not enough rounds"``, ``"not
    enough runs apart"`` or ``"not judged"`` (runs apart spread so far that the noise floor
    reaches 100 %) (time per call, 99 % confidence); ``ratio`` B's time over A's
    (``1 + change / 100``); ``change`` B against A in percent of A's median round, with
    its 99 % ``interval`` (low, high; infinite with too few rounds); ``noise_floor`` the
    smallest change it could tell from noise (half the interval); ``rounds`` of A and B;
    ``paired`` when they were interleaved; ``text`` the diff tables, the method, the
    ``verdict:`` line and an ``exact:`` line per exact metric (also what ``str()`` gives);
    ``a`` and ``b`` the two results; ``exact`` a read-only mapping of each exact metric both
    results have (an emulated count such as ``"Emulated:Instructions"``) to its `ExactDiff`;
    ``metric`` the metric the verdict judged (``"time"`` unless `compare` named another, then
    "faster" and "slower" mean fewer and more of it); ``exactly`` True where that metric, a
    count whose figures agree within its read jitter on both sides, was judged without
    statistics (``change`` and ``interval`` then from B − A and its bounds over every pair
    of figures).

    From `judge_apart`, A is the runs apart: ``rounds`` is (the runs apart, B's rounds),
    ``interval`` the 99 % prediction interval of one more run, ``a`` None, ``exact`` empty
    and ``text`` the method and the ``verdict:`` line."""

    verdict: str
    ratio: float
    text: str
    change: float = math.nan
    interval: tuple[float, float] = (-math.inf, math.inf)
    noise_floor: float = math.inf
    threshold: float = 1.0
    rounds: tuple[int, int] = (0, 0)
    paired: bool = False
    a: "Optional[BenchResult]" = None
    b: "Optional[BenchResult]" = None
    exact: Mapping[str, ExactDiff] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({}), hash=False)
    metric: str = "time"
    exactly: bool = False

    def __str__(self) -> str:
        return self.text

    def html(self) -> str:
        """This comparison as one self-contained HTML page (inline SVG and CSS, nothing
        fetched): the verdict and a table of every metric's change with its 99 % interval,
        the warnings, per metric the shift of each percentile with its interval, both
        percentile spectra and both sides' rounds in run order, the method, each side's tail
        attribution and conditions. ValueError for a comparison from `judge_apart`, which
        holds no result A to draw."""
        if self.a is None or self.b is None:
            raise ValueError("this comparison holds no result A (judge_apart compares with "
                             "runs apart): write the new result's own page, b.html()")
        ha, hb = self.a._ptr, self.b._ptr
        return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_compare_html(
            ha, hb, buf, size, needed))

    def write_html(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Write `html` to ``path`` (UTF-8)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())


def compare(a: BenchResult, b: BenchResult, metric: str = "time") -> Comparison:
    """Compare result ``b`` with result ``a``, round against round (paired where the two
    were interleaved): percentiles with 99 % intervals of the difference, Cohen's d and
    Cliff's delta, the method and the verdict.

    The verdict judges ``metric``: time by default, or a metric both results have, by its
    name (``"Hardware:Instructions"``, ``"Software:PageFaults"``) or the part after ``:`` in
    any case where one metric answers to it (``"instructions"``). A count whose figures agree
    within its read jitter on both sides (2 counts or 0.01 % of the median; an emulated count
    exactly) is judged without statistics: B − A and its bounds (``exactly`` True); any other
    metric on its rounds, as time is.

    The verdict at 99 % is for results of one interleaved comparison (`compare_fns` gives
    them). Two results measured apart (two `run` calls, even in one process) get ``"not
    enough runs apart"`` (``"not enough rounds"`` with too few rounds): what changes from
    run to run (frequency, placement in memory, neighbours) is not in either run's rounds,
    so their interval would call A/A differences far more often than 1 %. Their ``change``
    and ``interval`` (of the rounds) are still given, for information. Across runs, judge a
    run against the `BenchResult.median_round` of earlier runs with `judge_apart`. A count
    judged exactly needs no runs apart: its verdict stands.

    Raises TypeError for a result that is not a `BenchResult` or a metric that is not a
    str, ValueError for a metric the two do not both have (the message names those they
    have), a name several answer to, or one holding a NUL."""
    for what, r in (("a", a), ("b", b)):
        if not isinstance(r, BenchResult):
            raise TypeError(f"{what} must be a BenchResult, not {type(r).__name__}")
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a str, not {type(metric).__name__}")
    if "\0" in metric:
        raise ValueError(f"metric {metric!r} holds a NUL: no metric is named so")
    ha, hb, name = a._ptr, b._ptr, metric.encode("utf-8")
    info = bn.picollo_bench_comparison(struct_size=ctypes.sizeof(bn.picollo_bench_comparison))
    index, exact = ctypes.c_size_t(0), ctypes.c_uint32(0)
    text = fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_compare_metric(
        ha, hb, name, buf, size, needed, ctypes.byref(info), ctypes.byref(index),
        ctypes.byref(exact)))
    return Comparison(_VERDICTS[bn.BenchVerdict(info.verdict)], info.ratio, text,
                      info.change, (info.change_low, info.change_high), info.noise_floor,
                      info.threshold, (info.rounds_a, info.rounds_b), bool(info.paired), a, b,
                      _exact_diffs(a, b), a.metrics[index.value], bool(exact.value))


def judge_apart(result: BenchResult, runs_apart: Iterable[float]) -> Comparison:
    """Judge ``result`` against runs measured apart: ``runs_apart`` holds the
    `BenchResult.median_round` (ns) of each earlier run, e.g. saved by a CI job from 3 to 5
    runs of the baseline, each its own process (same settings). ``result``'s median round
    is judged against the 99 % prediction interval of theirs (Student's t on the logs, the
    spread between runs as the noise), so an unchanged function is called slower or faster
    about once in 100 runs. Fewer than 2 runs apart give ``"not enough runs apart"``; runs
    apart that spread so far that the noise floor reaches 100 % give ``"not judged"``.

    Returns a `Comparison` whose ``text`` is the method and the ``verdict:`` line, ``a``
    None, ``b`` the result, ``rounds`` (the runs apart, the result's rounds). Raises
    TypeError for a result that is not a `BenchResult` or runs that are not real numbers,
    ValueError for a run apart that is not a positive finite time.
    """
    if not isinstance(result, BenchResult):
        raise TypeError(f"result must be a BenchResult, not {type(result).__name__}")
    if isinstance(runs_apart, (str, bytes, numbers.Number)) \
            or not isinstance(runs_apart, collections.abc.Iterable):
        raise TypeError("runs_apart must be an iterable of times in ns (median_round of "
                        f"earlier runs), not {type(runs_apart).__name__}")
    runs = [real(m, "a run apart") for m in runs_apart]
    for m in runs:
        if not (math.isfinite(m) and m > 0):
            raise ValueError(f"a run apart must be a positive finite time in ns, not {m!r}")
    saved = (ctypes.c_double * len(runs))(*runs)
    info = bn.picollo_bench_comparison(struct_size=ctypes.sizeof(bn.picollo_bench_comparison))
    h = result._ptr
    text = fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_judge_apart(
        h, saved, len(runs), buf, size, needed, ctypes.byref(info)))
    return Comparison(_VERDICTS[bn.BenchVerdict(info.verdict)], info.ratio, text,
                      info.change, (info.change_low, info.change_high), info.noise_floor,
                      info.threshold, (info.rounds_a, info.rounds_b), bool(info.paired), None,
                      result)
