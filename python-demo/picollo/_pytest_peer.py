"""What the pytest plugin takes from pytest-benchmark's shape (docs/bring-your-suite.md): its
``--benchmark-*`` options (registered here only where pytest-benchmark's plugin is not
loaded, which registers them itself), its marker's keywords, and its ``stats`` object's
keys. The meaning is Picollo's: the runner chooses rounds and time, so the options and
keywords that tune pytest-benchmark's own loop are accepted and ignored."""

from __future__ import annotations

import math
import os
import statistics
from importlib import metadata
from typing import Any, Optional, Sequence

#: pytest-benchmark's plugin: its entry point's name (``-p no:benchmark`` blocks it) and its
#: module's (``-p pytest_benchmark.plugin`` loads it by that name).
PEER_NAMES = ("benchmark", "pytest_benchmark.plugin")

#: The options Picollo gives a meaning to (``dest``: what), the rest being ignored.
_FLAGS = ("disable", "enable", "skip", "only", "autosave", "save-data", "disable-gc",
          "verbose", "quiet")
_VALUES = ("save", "json", "min-time", "max-time", "min-rounds", "timer",
           "calibration-precision", "warmup-iterations", "sort", "group-by", "columns",
           "name", "time-unit", "storage", "cprofile", "cprofile-loops", "cprofile-top")
_OPTIONAL = ("warmup", "compare", "histogram", "csv", "netrc", "cprofile-dump")
_MANY = ("compare-fail",)

#: The refused options, and what does their work under Picollo.
REFUSED = {
    "benchmark_compare": "--benchmark-compare: Picollo judges a run against a baseline saved "
    "by name (--picollo-save NAME, then --picollo-baseline NAME) or against another "
    "checkout measured in the same run (--picollo-against=CHECKOUT)",
    "benchmark_compare_fail": "--benchmark-compare-fail: Picollo's verdict fails the run "
    "(exit 7) when a benchmark is slower beyond its interval, with --picollo-baseline NAME "
    "or --picollo-against=CHECKOUT; the smallest change that counts is "
    "--picollo-args '--threshold PERCENT'",
}

#: The keywords of ``@pytest.mark.benchmark``: accepted (``group`` is kept), ignored.
MARKER_KEYS = ("group", "min_rounds", "min_time", "max_time", "timer", "disable_gc", "warmup",
               "warmup_iterations", "calibration_precision", "cprofile")

MARKER_LINE = ("benchmark(group=None, ...): pytest-benchmark's marker; under Picollo's plugin "
               "group is kept as the benchmark's group, the other keywords are accepted and "
               "ignored (Picollo's runner chooses rounds and time)")


def peer_loaded(pluginmanager: Any) -> bool:
    """Whether pytest-benchmark's plugin is registered in this run."""
    return any(pluginmanager.has_plugin(n) for n in PEER_NAMES)


def peer_will_load(pluginmanager: Any) -> bool:
    """Whether pytest-benchmark's plugin is, or is about to be, registered: loaded already,
    or installed with its entry point, not blocked (``-p no:benchmark``) and plugins loaded
    automatically. (Loaded with ``-p`` after this plugin where autoloading is off, it would
    find its options taken: name it before ``picollo.pytest_plugin`` there.)"""
    if peer_loaded(pluginmanager):
        return True
    if pluginmanager.is_blocked("benchmark") or os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return False
    try:
        points = metadata.entry_points(group="pytest11")
    except TypeError:  # Python 3.9: a dict of the groups
        points = metadata.entry_points().get("pytest11", ())  # type: ignore[attr-defined]
    return any(ep.name == "benchmark" for ep in points)


def add_options(group: Any) -> None:
    """pytest-benchmark's options, for a run without its plugin (it registers its own)."""
    for name in _FLAGS:
        group.addoption(f"--benchmark-{name}", action="store_true", default=False,
                        help=_help(name))
    for name in _VALUES:
        group.addoption(f"--benchmark-{name}", metavar="VALUE", help=_help(name))
    for name in _OPTIONAL:
        group.addoption(f"--benchmark-{name}", nargs="?", const=True, metavar="VALUE",
                        help=_help(name))
    for name in _MANY:
        group.addoption(f"--benchmark-{name}", nargs="+", metavar="EXPR", help=_help(name))


def _help(name: str) -> str:
    meaning = {
        "disable": "each benchmark runs once as its test (plain pytest's way already)",
        "enable": "measure, as --picollo-bench",
        "skip": "skip the tests that use the benchmark fixture",
        "only": "skip the tests that do not",
        "save": "in a run that measures: save as baseline NAME, as --picollo-save NAME",
        "autosave": "in a run that measures: save as baseline 'autosave'",
        "json": "in a run that measures: write Picollo's results document there, each "
                "benchmark's extra_info and group added",
    }
    if f"benchmark_{name.replace('-', '_')}" in REFUSED:
        return "refused: " + REFUSED[f"benchmark_{name.replace('-', '_')}"].split(": ", 1)[1]
    return meaning.get(name, "pytest-benchmark's; accepted and ignored (Picollo's runner "
                       "chooses rounds and time, its report is its own)")


def refused(option: Any) -> Optional[str]:
    """The message of the first refused pytest-benchmark option given, if any."""
    return next((m for dest, m in REFUSED.items() if getattr(option, dest, None)), None)


def json_path(option: Any) -> Optional[str]:
    """``--benchmark-json``'s path: a string here, a path or an open file (older releases)
    where pytest-benchmark registered the option."""
    value = getattr(option, "benchmark_json", None)
    if value is None or isinstance(value, (str, os.PathLike)):
        return None if value is None else os.fspath(value)
    return value.name


def check_marker(marker: Any) -> None:
    """The peer's rule for its marker: keywords only, and only those it knows."""
    if marker.args:
        raise ValueError("@pytest.mark.benchmark takes keywords only, "
                         f"not {marker.args!r}")
    unknown = sorted(set(marker.kwargs) - set(MARKER_KEYS))
    if unknown:
        raise ValueError(f"@pytest.mark.benchmark has no keyword {unknown[0]!r} "
                         f"(it takes {', '.join(MARKER_KEYS)})")


def check_pedantic(setup: Any, rounds: Any, warmup_rounds: Any, iterations: Any) -> None:
    """pytest-benchmark's rules for ``pedantic``: positive rounds and iterations, warm-up
    rounds from 0, and one iteration a round where a setup function prepares each call."""
    for name, value, least in (("rounds", rounds, 1), ("iterations", iterations, 1),
                               ("warmup_rounds", warmup_rounds, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"benchmark.pedantic: {name} must be an int of at least "
                             f"{least}, not {value!r}")
    if setup is not None and iterations > 1:
        raise ValueError("benchmark.pedantic: a setup function prepares one call, so "
                         f"iterations must be 1 with it, not {iterations}")


class Stats:
    """pytest-benchmark's figures of a run of calls, in seconds, under its names: here the
    test's own calls (the runner measures after the tests)."""

    fields = ("min", "max", "mean", "stddev", "rounds", "median", "iqr", "q1", "q3",
              "iqr_outliers", "stddev_outliers", "outliers", "ld15iqr", "hd15iqr", "ops",
              "total")

    def __init__(self, durations: Sequence[float]) -> None:
        data = sorted(durations)
        self.data = list(durations)
        self.rounds = len(data)
        self.min, self.max, self.total = data[0], data[-1], sum(data)
        self.mean = statistics.fmean(data)
        self.median = statistics.median(data)
        self.stddev = statistics.stdev(data) if len(data) > 1 else 0.0
        self.q1, self.q3 = (statistics.quantiles(data, n=4, method="inclusive")[::2]
                            if len(data) > 1 else (data[0], data[0]))
        self.iqr = self.q3 - self.q1
        low, high = self.q1 - 1.5 * self.iqr, self.q3 + 1.5 * self.iqr
        self.ld15iqr = next(v for v in data if v >= low)
        self.hd15iqr = next(v for v in reversed(data) if v <= high)
        self.iqr_outliers = sum(v < low or v > high for v in data)
        self.stddev_outliers = sum(abs(v - self.mean) > self.stddev for v in data
                                   if self.stddev)
        self.outliers = f"{self.stddev_outliers};{self.iqr_outliers}"
        self.ops = 1 / self.mean if self.mean else math.inf

    def as_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.fields}


class Metadata:
    """``benchmark.stats``: its `Stats` as ``.stats``, and each figure by key
    (``benchmark.stats["mean"]``) as pytest-benchmark's object gives them."""

    def __init__(self, stats: Stats, name: str, group: Optional[str], extra_info: dict,
                 iterations: int) -> None:
        self.stats, self.name, self.group = stats, name, group
        self.extra_info, self.iterations = extra_info, iterations

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self.stats, key)
        except AttributeError:
            return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except AttributeError:
            return default

    def __bool__(self) -> bool:
        return self.stats.rounds > 0
