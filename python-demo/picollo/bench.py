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

For the tools of CI (docs/ci.md), `export` writes results in a result format by its name
(`formats()`: Bencher's metric format ``"bmf"``, github-action-benchmark's custom JSON,
Google Benchmark's JSON, Picollo's own document, JUnit XML ``"junit"``, ...), and `summary`
the Markdown of comparisons that a CI job shows:

>>> bench.write_export([a], "bmf", "bmf.json")
>>> open(os.environ["GITHUB_STEP_SUMMARY"], "a").write(bench.summary([c]))

Under ``picollo emulate -- python ...`` (QEMU with Picollo's plugin) the counters
``Emulated:Instructions`` and friends count exactly: the same work gives the same figure,
so `BenchResult.constant` gives it, and a comparison's ``exact`` maps each such metric to an
`ExactDiff` (``"no difference"``, ``"more"``, ``"fewer"`` or ``"varies"``), no statistics:

>>> c = bench.compare_fns(f, g, counters=["Emulated:Instructions"], time_budget=0.3)
>>> c.exact["Emulated:Instructions"].difference    # g's instructions per call minus f's

Python code counts the same on every call once CPython's specializing interpreter has
settled: for about 50 calls after a global of its module changes it runs slower paths, and
the warm-up may end sooner (it stops once the time per call is steady), so a ``constant``
of None right after such a change says so rather than that the work varies.

The library calls back with a batch size ``k`` and the binding calls ``fn()`` ``k`` times.
That Python call costs tens of nanoseconds; by default `run` first measures an empty
function with the same settings and subtracts its medians (the report's ``baseline`` line).
Where they exceed what a sample measured, as for a function that costs less than the call
on a busy machine, that figure is recorded as 0 and counted: `BenchResult.floor` gives the
samples floored and whether a metric's median lies within its resolution, `BenchResult.flagged`
the metrics that are either, and the report marks their rows (``floored 21.4 %``, ``P50 ≤
resolution 0.812 ns``) and says why in its warnings.
The run holds the GIL between batches; other threads run only while ``fn`` runs Python.
"""

from __future__ import annotations

import collections
import ctypes
import itertools
import json
import math
import numbers
import sys
from typing import Any, Callable, Optional, Sequence

from . import _bench_native as bn
from ._bench_compare import Comparison, ExactDiff, compare, judge_apart
from ._bench_export import Format, export, formats, summary, write_export
from ._bench_result import BenchHistogram, BenchResult, Floor
from ._convert import real, u64
from ._errors import Status, check
from ._text import encode

__all__ = ["BenchHistogram", "BenchResult", "Comparison", "ExactDiff", "Floor", "Format",
           "compare", "compare_fns", "export", "formats", "judge_apart", "run", "summary",
           "write_export"]

#: The name of the call-overhead run, which the report's baseline line shows.
OVERHEAD_NAME = "the empty function"
MAX_BATCH = 2**24


def run(fn: Callable[[], Any], *, name: Optional[str] = None,
        counters: Optional[Sequence[str]] = None, batch: Optional[int] = None,
        samples: int = 1_000_000, time_budget: float = 5.0, warmup: float = 1.0,
        relative_error: float = 1e-4, pinned_cpu: Optional[int] = None, nice: Optional[int] = None,
        subtract_call_overhead: bool = True, rounds: Optional[int] = None,
        threshold: float = 1.0, read_path: str = "auto") -> "BenchResult":
    """Measure ``fn()`` (no arguments) on the calling thread.

    ``counters``: None for the library's default set (cycles, instructions, branch and L1D
    read misses where the PMU allows, else task-clock, page faults and context switches),
    ``[]`` for time only, or names such as ``"Software:TaskClock"``. ``batch``: calls per
    sample, 1 to 2**24 (None: the smallest batch whose read pair costs at most 1 % of it and
    that spans a thousand steps of the clock).
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
    cannot count raises `picollo.UnavailableError` (``Emulated:*`` outside ``picollo
    emulate -- PROG``: `picollo.UnsupportedError`).

    ``read_path``: how the counters are read: ``"auto"`` the cheaper of the user-space read
    and ``read(2)``, both timed when they open; ``"user"`` or ``"syscall"`` forces one. The
    report's PMU line says which was taken and why.
    """
    config = _prepared({"fn": fn}, subtract_call_overhead,
                       (counters, batch, samples, time_budget, warmup, relative_error,
                        pinned_cpu, nice), (rounds, threshold, None))
    config.force_read_path = _force_read_path(read_path)
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
                random_offsets: bool = True, read_path: str = "auto") -> "Comparison":
    """Compare ``fb()`` with ``fa()`` interleaved on the calling thread: both warm up, then
    every round (``rounds``; default one per 0.1 s of ``time_budget``, 10 to 100) calls
    both back to back in a random order (``seed`` fixes it), each for its share of
    ``samples`` and ``time_budget``. The verdict judges the rounds' paired differences of
    median time per call; a change below ``threshold`` percent is "within noise" (0:
    never). With ``subtract_call_overhead`` both share one batch, and an empty function
    measured with it first has its medians subtracted from both. With ``random_offsets``
    (the default) each turn of a round runs at a random stack depth with a random heap
    block held, so that no one placement in memory favours a side; False keeps one
    placement for the whole comparison (a bool: TypeError otherwise). The other settings
    (``read_path`` too), the errors and exceptions are `run`'s. The comparison keeps both
    results (``a``, ``b``).
    """
    config = _prepared({"fa": fa, "fb": fb}, subtract_call_overhead,
                       (counters, batch, samples, time_budget, warmup, relative_error,
                        pinned_cpu, nice), (rounds, threshold, seed), random_offsets)
    config.force_read_path = _force_read_path(read_path)
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


#: Why the measured code is unoptimized, as every run's config says it (None: nothing says
#: so): a CPython debug build (``sys.gettotalrefcount`` exists), whose interpreter runs with
#: assertions and without the release build's optimization.
UNOPTIMIZED: Optional[bytes] = (b"a CPython debug build: sys.gettotalrefcount exists"
                                 if hasattr(sys, "gettotalrefcount") else None)


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
    config.unoptimized = UNOPTIMIZED
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


#: ``read_path`` by name: the `picollo_perf_read_path` the config forces (0: none, the cheaper).
READ_PATHS = {"auto": 0, "syscall": 1, "user": 2}


def _force_read_path(read_path: Any) -> int:
    if not isinstance(read_path, str):
        raise TypeError(f"read_path must be a str, not {type(read_path).__name__}")
    if read_path not in READ_PATHS:
        raise ValueError(f"read_path {read_path!r} is not one of {', '.join(READ_PATHS)}")
    return READ_PATHS[read_path]


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


#: Runs an iterator to its end, keeping nothing (a deque of length 0).
_consume = collections.deque(maxlen=0).extend
_starmap, _repeat = itertools.starmap, itertools.repeat


class _Work:
    """The C callback: calls ``fn`` ``iterations`` times; keeps the first exception and
    does nothing more once there is one (no exception may cross the library's frames).

    What runs per batch must do the same work every time, or exact counts (``Emulated:*``)
    differ from sample to sample, and time with them. So ``fn`` is called from C
    (`itertools.starmap`), not from a bytecode call site: every `_Work` shares this
    class's code, and CPython's specializing interpreter would run a call site that last
    saw another function (the empty one, the other side of a comparison) on its slow path
    for dozens of calls after each switch. And the C functions are called as ``f(*args)``
    (CALL_FUNCTION_EX, which CPython 3.11 never specializes): a plain call of one stays
    adaptive and tries again to specialize, at a cost, once in up to 4,096 batches."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.error: Optional[BaseException] = None
        self.callback = bn.WORK(self._call)  # kept alive as long as this object
        self.address = ctypes.cast(self.callback, ctypes.c_void_p).value

    def _call(self, _ctx: Any, iterations: int) -> None:
        if self.error is not None:
            return
        try:
            calls = _starmap(*(self.fn, _repeat(*((), iterations))))
            _consume(*(calls,))
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
