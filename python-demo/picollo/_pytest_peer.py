"""What the pytest plugin takes from pytest-benchmark's shape (docs/bring-your-suite.md): its
``--benchmark-*`` options (registered here only where pytest-benchmark's plugin is not
loaded, which registers them itself), its marker's keywords, the time that
``benchmark.stats``' measurement takes (`stats_budget`) and the lines of its groups in
pytest's summary (`group_lines`). The meaning is Picollo's: the runner chooses rounds and
time, so the options and keywords that tune pytest-benchmark's own loop are accepted and
ignored, but for ``max_time``, which bounds that measurement."""

from __future__ import annotations

import math
import os
from importlib import metadata
from typing import Any, Container, Optional

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

MARKER_LINE = ("benchmark(group=None, max_time=None, ...): pytest-benchmark's marker; under "
               "Picollo's plugin group is kept as the benchmark's group, max_time bounds the "
               "measurement that benchmark.stats holds, the other keywords are accepted and "
               "ignored (Picollo's runner chooses rounds and time)")

#: pytest-benchmark's default ``max_time``: the seconds of ``benchmark.stats``' measurement.
MAX_TIME = 1.0


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
        "disable": "each benchmark runs once as its test (plain pytest's way already), "
                   "and benchmark.stats hold that call",
        "enable": "measure, as --picollo-bench (and benchmark.stats, which "
                  "--benchmark-disable leaves to the test's call)",
        "max-time": "seconds of the measurement benchmark.stats holds (default 1; no "
                    "more than --picollo-budget)",
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


def stats_measured(option: Any) -> bool:
    """Whether ``benchmark.stats`` is a measurement: not where pytest-benchmark would not
    measure (``--benchmark-disable`` without ``--benchmark-enable``)."""
    return not (getattr(option, "benchmark_disable", False)
                and not getattr(option, "benchmark_enable", False))


def stats_budget(option: Any, max_time: Any = None) -> float:
    """The seconds of ``benchmark.stats``' measurement: the marker's ``max_time``, else
    ``--benchmark-max-time``, else pytest-benchmark's default 1 s; no more than
    ``--picollo-budget``, the runner's own. ValueError for a value that is not a number of
    seconds above 0."""
    if max_time is not None:
        budget = seconds(max_time, "@pytest.mark.benchmark(max_time=...)")
    else:
        given = getattr(option, "benchmark_max_time", None)
        budget = MAX_TIME if given is None else seconds(given, "--benchmark-max-time")
    cap = getattr(option, "picollo_budget", None)
    return budget if cap is None else min(budget, seconds(cap, "--picollo-budget"))


def seconds(value: Any, what: str) -> float:
    """``value`` as a finite number of seconds above 0 (a number, or its text)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if isinstance(value, bool) or not (math.isfinite(v) and v > 0):
        raise ValueError(f"{what}: a number of seconds above 0, not {value!r}")
    return v


def group_lines(document: Optional[dict], groups: dict[str, Optional[str]]) -> list[str]:
    """A line a group of the benchmarks that the runner's results ``document`` holds, where
    ``groups`` (benchmark name: its marker's ``group=``) gives them one: ``group NAME:
    BENCHMARK, ...``, the groups and their benchmarks in order of names (none without a
    document)."""
    commands = (document or {}).get("commands", [])
    measured = {command_benchmark(c.get("name", ""), groups) for c in commands}
    members: dict[str, list[str]] = {}
    for name in sorted(n for n in groups if n in measured and groups[n] is not None):
        members.setdefault(str(groups[name]), []).append(name)
    return [f"group {g}: {', '.join(members[g])}" for g in sorted(members)]


def command_benchmark(command: str, names: Container[str]) -> Optional[str]:
    """The benchmark of ``names`` that a command of the runner's results document measured:
    the command's name, or under ``--against`` the name and its side, ``NAME (head)``."""
    if command in names:
        return command
    name, side, _ = command.rpartition(" (")
    return name if side and command.endswith(")") and name in names else None
