"""The benchmark harness (Linux): measure a function, get the distribution of its time and of
every counter per call, compare two functions interleaved with a verdict, or judge a run
against runs measured apart (docs/benchmarks.md).

>>> from picollo import bench
>>> data = list(range(1_000))
>>> c = bench.compare_fns(lambda: sum(data), lambda: max(data), name_a="sum", name_b="max")
>>> c.verdict, c.change, c.interval   # "faster"/"slower"/..., B against A in % and its 99 % interval
>>> print(c)                          # the diff tables, the method and the `verdict:` line
>>> a = bench.run(lambda: sum(data), name="sum", time_budget=1.0)
>>> print(a.table())                  # conditions, a row per metric, tail attribution
>>> a.percentile("time", 99)          # a float: ns per call

Two results of separate runs (`compare` of two `run` results) get no verdict at 99 %:
``"not enough runs apart"``, since the rounds of one run do not hold what changes from run
to run (frequency, placement, neighbours); their change and interval are there for
information. To gate a change across runs (CI), save `BenchResult.median_round` of 3 to 5
runs, each in its own process, and judge a later run with `judge_apart`:

>>> m = bench.run(f, time_budget=1.0).median_round  # in each of 3-5 processes: save m (ns)
>>> c = bench.judge_apart(bench.run(f, time_budget=1.0), saved)  # later: saved = those m
>>> c.verdict                         # "slower"/"faster"/... at 99 % over the runs' spread

The library calls back with a batch size ``k`` and the binding calls ``fn()`` ``k`` times.
That Python call costs tens of nanoseconds; by default `run` first measures an empty
function with the same settings and subtracts its medians (the report's ``baseline`` line).
The run holds the GIL between batches; other threads run only while ``fn`` runs Python.
"""

from __future__ import annotations

import collections.abc
import ctypes
import dataclasses
import itertools
import json
import math
import numbers
import weakref
from typing import Any, Callable, Iterable, Optional, Sequence

from . import _bench_native as bn
from . import _native as n
from ._convert import real, u64
from ._errors import Status, check
from ._handle import Handle
from ._text import encode, fetch_text
from .histogram import Histogram

__all__ = ["BenchHistogram", "BenchResult", "Comparison", "compare", "compare_fns",
           "judge_apart", "run"]

#: The name of the call-overhead run, which the report's baseline line shows.
OVERHEAD_NAME = "the empty function"
MAX_BATCH = 2**24
_VERDICTS = {bn.BenchVerdict.NO_DIFFERENCE: "no difference",
             bn.BenchVerdict.FASTER: "faster", bn.BenchVerdict.SLOWER: "slower",
             bn.BenchVerdict.WITHIN_NOISE: "within noise",
             bn.BenchVerdict.NOT_ENOUGH_ROUNDS: "not enough rounds",
             bn.BenchVerdict.NOT_ENOUGH_RUNS_APART: "not enough runs apart"}


def run(fn: Callable[[], Any], *, name: Optional[str] = None,
        counters: Optional[Sequence[str]] = None, batch: Optional[int] = None,
        samples: int = 1_000_000, time_budget: float = 5.0, warmup: float = 1.0,
        relative_error: float = 1e-4, pinned_cpu: Optional[int] = None, nice: Optional[int] = None,
        subtract_call_overhead: bool = True, rounds: Optional[int] = None,
        threshold: float = 1.0) -> "BenchResult":
    """Measure ``fn()`` (no arguments) on the calling thread.

    ``counters``: None for the library's default set (cycles, instructions, branch and L1D
    read misses where the PMU allows, else task-clock, page faults and context switches),
    ``[]`` for time only, or names such as ``"Software:TaskClock"``. ``batch``: calls per
    sample, 1 to 2**24 (None: the smallest batch whose read pair costs at most 1 % of it).
    Sampling stops at ``samples`` or after ``time_budget`` seconds, whichever comes first;
    warm-up takes at most ``warmup`` seconds. ``pinned_cpu`` and ``nice`` stay set on the
    thread after the run. With ``subtract_call_overhead`` an empty function is measured
    first with the same settings and its medians are subtracted from every figure; with an
    automatic batch, a first short run of ``fn`` (one sample) picks the batch both share.

    The samples are cut into ``rounds`` rounds of time (default 10). The median of the
    rounds' median time per call is `BenchResult.median_round`, the figure of this run for
    `judge_apart`; a change below ``threshold`` percent is called "within noise" there (0:
    never). `compare` of this result with another run's gives "not enough runs apart" (the
    rounds of one run do not hold the spread between runs); use `compare_fns` or
    `judge_apart` for a verdict.

    An exception raised by ``fn`` (KeyboardInterrupt too) ends its calls: the rest of the run
    calls nothing, and `run` raises it, with its traceback, once the library returns. Bad
    arguments raise TypeError or ValueError before ``fn`` is called; a counter the machine
    cannot count raises `picollo.UnavailableError`.
    """
    config = _prepared({"fn": fn}, subtract_call_overhead,
                       (counters, batch, samples, time_budget, warmup, relative_error,
                        pinned_cpu, nice), (rounds, threshold, None))
    label = "bench" if name is None else name
    name_c = encode(label, "name")
    if not subtract_call_overhead:
        return _run_once(config, fn, label, name_c, None)
    if config.batch == 0:
        config.batch = _calibrated_batch(config, fn)
    with _run_once(config, _empty, OVERHEAD_NAME, OVERHEAD_NAME.encode(), None) as overhead:
        return _run_once(config, fn, label, name_c, overhead)


def compare_fns(fa: Callable[[], Any], fb: Callable[[], Any], *, name_a: str = "A",
                name_b: str = "B", counters: Optional[Sequence[str]] = None,
                batch: Optional[int] = None, samples: int = 1_000_000, time_budget: float = 5.0,
                warmup: float = 1.0, relative_error: float = 1e-4,
                pinned_cpu: Optional[int] = None, nice: Optional[int] = None,
                rounds: Optional[int] = None, threshold: float = 1.0, seed: Optional[int] = None,
                subtract_call_overhead: bool = True,
                random_offsets: bool = True) -> "Comparison":
    """Compare ``fb()`` with ``fa()`` interleaved on the calling thread: both warm up, then
    every round (``rounds``; default one per 0.1 s of ``time_budget``, 10 to 100) calls
    both back to back in a random order (``seed`` fixes it), each for its share of
    ``samples`` and ``time_budget``. The verdict judges the rounds' paired differences of
    median time per call; a change below ``threshold`` percent is "within noise" (0:
    never). With ``subtract_call_overhead`` both share one batch, and an empty function
    measured with it first has its medians subtracted from both. With ``random_offsets``
    (the default) each slot of a round runs at a random stack depth with a random heap
    block held, so that no one placement in memory favours a side; False keeps one
    placement for the whole comparison (a bool: TypeError otherwise). The other settings,
    the errors and exceptions are `run`'s. The comparison keeps both results (``a``, ``b``).
    """
    config = _prepared({"fa": fa, "fb": fb}, subtract_call_overhead,
                       (counters, batch, samples, time_budget, warmup, relative_error,
                        pinned_cpu, nice), (rounds, threshold, seed), random_offsets)
    names = (encode(name_a, "name_a"), encode(name_b, "name_b"))
    if not subtract_call_overhead:
        return _compare_once(config, (fa, fb), (name_a, name_b), names)
    if config.batch == 0:
        config.batch = max(_calibrated_batch(config, fa), _calibrated_batch(config, fb))
    overhead_config = bn.picollo_bench_config.from_buffer_copy(config)
    with _run_once(overhead_config, _empty, OVERHEAD_NAME, OVERHEAD_NAME.encode(),
                   None) as overhead:
        config.baseline = overhead._ptr
        return _compare_once(config, (fa, fb), (name_a, name_b), names)


def _prepared(fns: dict[str, Any], subtract_call_overhead: Any, settings: tuple[Any, ...],
              rounds: tuple[Any, Any, Any],
              random_offsets: Any = True) -> bn.picollo_bench_config:
    """The C config of a run or a comparison, every argument checked first (TypeError,
    ValueError): the functions, the flags, `_config`'s settings, then the rounds'."""
    for what, f in fns.items():
        if not callable(f):
            raise TypeError(f"{what} must be callable, not {type(f).__name__}")
    if not isinstance(subtract_call_overhead, bool):
        raise TypeError("subtract_call_overhead must be a bool")
    if not isinstance(random_offsets, bool):
        raise TypeError("random_offsets must be a bool")
    config = _config(*settings)
    _rounds(config, *rounds)
    config.fixed_offsets = 0 if random_offsets else 1
    return config


def _rounds(config: bn.picollo_bench_config, rounds: Any, threshold: Any, seed: Any) -> None:
    """Set the config's rounds, threshold and seed, each checked (TypeError, ValueError)."""
    config.rounds = 0 if rounds is None else _in_range(rounds, "rounds", 1, 1_000_000)
    t = real(threshold, "threshold")
    if not math.isfinite(t) or t < 0:
        raise ValueError(f"threshold must be a finite percentage, 0 or more, not {threshold!r}")
    config.threshold = -1.0 if t == 0 else t
    config.seed = 0 if seed is None else _in_range(seed, "seed", 1, 2**64 - 1)


def _compare_once(config: bn.picollo_bench_config, fns: tuple[Callable[[], Any], ...],
                  labels: tuple[str, str], names: tuple[bytes, bytes]) -> "Comparison":
    """One `picollo_bench_compare_run` of the two functions; raises what either raised."""
    works = [_Work(f) for f in fns]
    out_a, out_b = bn.BenchResultP(), bn.BenchResultP()
    status = bn.compare_run(ctypes.byref(config), names[0], works[0].address, None,
                            names[1], works[1].address, None, ctypes.byref(out_a),
                            ctypes.byref(out_b))
    error = works[0].error or works[1].error
    works[0].error = works[1].error = None
    if error is not None:
        if status == Status.OK:
            bn.lib.picollo_bench_result_free(out_a)
            bn.lib.picollo_bench_result_free(out_b)
        try:
            raise error
        finally:
            del error
    check(status)
    a, b = BenchResult._adopt(out_a, labels[0]), BenchResult._adopt(out_b, labels[1])
    return compare(a, b)


def _calibrated_batch(config: bn.picollo_bench_config, fn: Callable[[], Any]) -> int:
    """The batch the library chooses for ``fn`` (one sample, no warm-up), so that the empty
    function's run and ``fn``'s share it: each batch also pays the callback's entry into
    Python, which the baseline then subtracts exactly."""
    probe = bn.picollo_bench_config.from_buffer_copy(config)
    probe.samples, probe.warmup, probe.time_budget, probe.rounds = 1, 0.0, 1e-3, 1
    with _run_once(probe, fn, "calibration", b"calibration", None) as r:
        return int(json.loads(r.to_json())["batch"])


def _empty() -> None:
    """What the call overhead is measured on."""


def _config(counters: Any, batch: Any, samples: Any, time_budget: Any, warmup: Any,
            relative_error: Any, pinned_cpu: Any, nice: Any) -> bn.picollo_bench_config:
    """The C config for `run`'s settings, each checked (TypeError, ValueError)."""
    c = bn.lib.picollo_bench_config_default()
    c.counters = _counter_list(counters)
    c.batch = 0 if batch is None else _in_range(batch, "batch", 1, MAX_BATCH)
    c.samples = _in_range(samples, "samples", 1, 2**64 - 1)
    c.time_budget = _seconds(time_budget, "time_budget", allow_zero=False)
    c.warmup = _seconds(warmup, "warmup", allow_zero=True)
    c.relative_error = real(relative_error, "relative_error")
    if not (math.isfinite(c.relative_error) and c.relative_error > 0):
        raise ValueError(f"relative_error must be finite and above 0, not {relative_error!r}")
    c.pinned_cpu = -1 if pinned_cpu is None else _in_range(pinned_cpu, "pinned_cpu", 0, 2**31 - 1)
    if nice is not None:
        if isinstance(nice, bool) or not isinstance(nice, numbers.Integral):
            raise TypeError(f"nice must be an int or None, not {type(nice).__name__}")
        if not -20 <= nice <= 19:
            raise ValueError(f"nice must be -20 to 19, not {nice}")
        c.nice, c.set_nice = int(nice), 1
    return c


def _counter_list(counters: Any) -> Optional[bytes]:
    """None (the default set), or the comma-separated names the config takes."""
    if counters is None:
        return None
    if isinstance(counters, (str, bytes)) or not isinstance(counters, (list, tuple)):
        raise TypeError("counters must be None or a list of names such as "
                        f"['Software:TaskClock'], not {type(counters).__name__}")
    for c in counters:
        if not isinstance(c, str):
            raise TypeError(f"a counter name must be a str, not {type(c).__name__}")
        if not c or "," in c or "\0" in c:
            raise ValueError(f"bad counter name {c!r}: non-empty, without ',' or NUL")
    return ",".join(counters).encode("utf-8")


def _in_range(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value < 0:
        raise ValueError(f"{what} must be {lo} to {hi}, not {value}")
    v = u64(value, what)
    if not lo <= v <= hi:
        raise ValueError(f"{what} must be {lo} to {hi}, not {v}")
    return v


def _seconds(value: Any, what: str, allow_zero: bool) -> float:
    v = real(value, what)
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"{what} must be a finite number of seconds "
                         f"{'at least' if allow_zero else 'above'} 0, not {value!r}")
    return v


class _Work:
    """The C callback: calls ``fn`` ``iterations`` times; keeps the first exception and
    does nothing more once there is one (no exception may cross the library's frames)."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.error: Optional[BaseException] = None
        self.callback = bn.WORK(self._call)  # kept alive as long as this object
        self.address = ctypes.cast(self.callback, ctypes.c_void_p).value

    def _call(self, _ctx: Any, iterations: int) -> None:
        if self.error is not None:
            return
        fn = self.fn
        try:
            for _ in itertools.repeat(None, iterations):
                fn()
        except BaseException as e:  # KeyboardInterrupt too: raised again by `run`
            self.error = e


def _run_once(config: bn.picollo_bench_config, fn: Callable[[], Any], label: str,
              name_c: Optional[bytes], baseline: "Optional[BenchResult]") -> "BenchResult":
    """One `picollo_bench_run` of ``fn``; raises what ``fn`` raised."""
    work = _Work(fn)
    config.name = name_c
    config.baseline = baseline._ptr if baseline is not None else None
    out = bn.BenchResultP()
    status = bn.run(ctypes.byref(config), work.address, None, ctypes.byref(out))
    error, work.error = work.error, None
    if error is not None:
        if status == Status.OK:
            bn.lib.picollo_bench_result_free(out)
        try:
            raise error
        finally:
            del error
    check(status)
    return BenchResult._adopt(out, label)


class BenchResult(Handle):
    """What a run measured: one histogram per metric (``"time"``, then each counter), per
    call, in **thousandths** of the metric's unit (picoseconds for time), and the report in
    several forms. Freed by `close`, on leaving ``with``, or when collected; the histograms
    handed out by `histogram` keep it alive and are closed with it."""

    _WHAT = "benchmark result"

    @classmethod
    def _adopt(cls, handle: Any, name: str) -> "BenchResult":
        r = cls.__new__(cls)
        r._own(handle, bn.lib.picollo_bench_result_free)
        r.name = name
        r._views: weakref.WeakSet[BenchHistogram] = weakref.WeakSet()
        count = ctypes.c_size_t()
        check(bn.lib.picollo_bench_result_metric_count(handle, ctypes.byref(count)))
        r._metrics = tuple(r._string(bn.lib.picollo_bench_result_metric_name, i)
                           for i in range(count.value))
        r._units = tuple(r._string(bn.lib.picollo_bench_result_metric_unit, i)
                         for i in range(count.value))
        return r

    def _string(self, query: Any, index: int) -> str:
        h = self._ptr
        return fetch_text(lambda buf, size, needed: query(h, index, buf, size, needed))

    @property
    def metrics(self) -> list[str]:
        """The metrics' names: ``"time"``, then each counter (``"Software:TaskClock"``…)."""
        self._ptr
        return list(self._metrics)

    def _index(self, metric: str) -> int:
        self._ptr
        if not isinstance(metric, str):
            raise TypeError(f"a metric is named by a str, not {type(metric).__name__}")
        try:
            return self._metrics.index(metric)
        except ValueError:
            raise KeyError(f"no metric {metric!r}; this result has "
                           f"{', '.join(self._metrics)}") from None

    def unit(self, metric: str) -> str:
        """The unit of a metric per call: ``"ns"`` or ``"events"``."""
        return self._units[self._index(metric)]

    def _text(self, form: bn.BenchFormat) -> str:
        h = self._ptr
        return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_result_text(
            h, form, buf, size, needed))

    def table(self) -> str:
        """The report: conditions and warnings, a Markdown row per metric (P0, P50, P90,
        P99, P99.9, max, mean with its 95 % interval), tail attribution."""
        return self._text(bn.BenchFormat.REPORT)

    def summaries(self) -> str:
        """Every metric's full Markdown summary (the standard ranks)."""
        return self._text(bn.BenchFormat.SUMMARIES)

    def line(self) -> str:
        """One line: the time's P50, P99 and mean with its 95 % interval, batch, samples."""
        return self._text(bn.BenchFormat.LINE)

    def to_json(self) -> str:
        """A JSON object of the figures (values in thousandths of each unit, ``"scale"``)."""
        return self._text(bn.BenchFormat.JSON)

    def to_log(self) -> str:
        """An HdrHistogram interval log, one interval per metric tagged with its name
        (`picollo.log.Reader` and ``picollo report/diff/plot`` read it)."""
        return self._text(bn.BenchFormat.LOG)

    def histogram(self, metric: str = "time") -> "BenchHistogram":
        """A read-only view of the metric's histogram (values in thousandths of the unit:
        picoseconds for time). It keeps this result alive and is closed with it."""
        index = self._index(metric)
        handle = n.HistogramP()
        check(bn.lib.picollo_bench_result_histogram(self._ptr, index, ctypes.byref(handle)))
        view = BenchHistogram._borrowed(handle, self)
        self._views.add(view)
        return view

    @property
    def median_round(self) -> float:
        """The figure of this run as one run apart: the median of its rounds' median time
        per call, in ns (NaN without rounds). A CI gate saves it from 3 to 5 runs, each in
        its own process, and judges a later run against them with `judge_apart`."""
        out = ctypes.c_double()
        check(bn.lib.picollo_bench_result_median_round(self._ptr, ctypes.byref(out)))
        return out.value

    def percentile(self, metric: str, rank: float) -> float:
        """The metric's percentile at ``rank`` (0..100) in its unit (ns for time) per call:
        the histogram's value divided by 1,000."""
        with self.histogram(metric) as h:
            return h.percentile(rank).value / 1000

    def _detach(self) -> None:
        for view in list(self._views):
            view._detach()
        super()._detach()

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        if self.closed:
            return f"<BenchResult {self.name!r} closed>"
        return f"<BenchResult {self.name!r}: {', '.join(self._metrics)}>"


def _read_only(name: str) -> Callable[..., Any]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{name}: a benchmark result's histogram is read-only "
                        "(copy() gives a histogram of your own)")
    refuse.__name__ = name
    return refuse


class BenchHistogram(Histogram):
    """A read-only view of a histogram a `BenchResult` lends: every query of `Histogram`,
    no record, reset or merge into it (TypeError). It never frees the native histogram;
    `close` only ends the view, and closing the result closes it too."""

    def _attach(self, handle: Any) -> None:
        super()._attach(handle)
        self.record = _read_only("record").__get__(self)

    def copy(self) -> Histogram:
        """A histogram of your own with the same configuration and counts."""
        return Histogram(**self._config()).add(self)

    def downsample(self, relative_error: float) -> Histogram:
        """A histogram of your own at a coarser precision (see `Histogram.downsample`)."""
        return self.copy().downsample(relative_error)


for _name in ("record_n", "record_corrected", "record_many", "buffered", "reset", "add",
              "merge", "subtract", "add_rebinned", "collect", "__iadd__", "__isub__"):
    setattr(BenchHistogram, _name, _read_only(_name))


@dataclasses.dataclass(frozen=True)
class Comparison:
    """B against A: ``verdict`` is ``"faster"``, ``"slower"``, ``"within noise"`` (a change
    below ``threshold`` percent), ``"no difference"``, ``"not enough rounds"`` or ``"not
    enough runs apart"`` (time per call, 99 % confidence); ``ratio`` B's time over A's
    (``1 + change / 100``); ``change`` B against A in percent of A's median round, with
    its 99 % ``interval`` (low, high; infinite with too few rounds); ``noise_floor`` the
    smallest change it could tell from noise (half the interval); ``rounds`` of A and B;
    ``paired`` when they were interleaved; ``text`` the diff tables, the method and the
    ``verdict:`` line (also what ``str()`` gives); ``a`` and ``b`` the two results.

    From `judge_apart`, A is the runs apart: ``rounds`` is (the runs apart, B's rounds),
    ``interval`` the 99 % prediction interval of one more run, ``a`` None and ``text`` the
    method and the ``verdict:`` line."""

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

    def __str__(self) -> str:
        return self.text


def compare(a: BenchResult, b: BenchResult) -> Comparison:
    """Compare result ``b`` with result ``a``, round against round (paired where the two
    were interleaved): percentiles with 99 % intervals of the difference, Cohen's d, the
    method and the verdict.

    The verdict at 99 % is for results of one interleaved comparison (`compare_fns` gives
    them). Two results measured apart (two `run` calls, even in one process) get ``"not
    enough runs apart"`` (``"not enough rounds"`` with too few rounds): what changes from
    run to run (frequency, placement in memory, neighbours) is not in either run's rounds,
    so their interval would call A/A differences far more often than 1 %. Their ``change``
    and ``interval`` (of the rounds) are still given, for information. Across runs, judge a
    run against the `BenchResult.median_round` of earlier runs with `judge_apart`."""
    for what, r in (("a", a), ("b", b)):
        if not isinstance(r, BenchResult):
            raise TypeError(f"{what} must be a BenchResult, not {type(r).__name__}")
    ha, hb = a._ptr, b._ptr
    text = fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_compare(
        ha, hb, buf, size, needed, None, None))
    info = bn.picollo_bench_comparison(struct_size=ctypes.sizeof(bn.picollo_bench_comparison))
    check(bn.lib.picollo_bench_compare_info(ha, hb, ctypes.byref(info)))
    return Comparison(_VERDICTS[bn.BenchVerdict(info.verdict)], info.ratio, text,
                      info.change, (info.change_low, info.change_high), info.noise_floor,
                      info.threshold, (info.rounds_a, info.rounds_b), bool(info.paired), a, b)


def judge_apart(result: BenchResult, runs_apart: Iterable[float]) -> Comparison:
    """Judge ``result`` against runs measured apart: ``runs_apart`` holds the
    `BenchResult.median_round` (ns) of each earlier run, e.g. saved by a CI job from 3 to 5
    runs of the baseline, each its own process (same settings). ``result``'s median round
    is judged against the 99 % prediction interval of theirs (Student's t on the logs, the
    spread between runs as the noise), so an unchanged function is called slower or faster
    about once in 100 runs. Fewer than 2 runs apart give ``"not enough runs apart"``.

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
