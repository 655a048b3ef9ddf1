"""The ``benchmark`` fixture of the pytest plugin (`picollo.pytest_plugin`), registered by it as
a plugin of its own once pytest is configured, so that it comes after every other plugin's
fixture of that name (pytest-benchmark's) and wins over it; where the run hands the fixture
to pytest-benchmark (``--picollo-fixture=pytest-benchmark``) it is not registered."""

from __future__ import annotations

import functools
import time
from typing import Any, Callable, Optional

import pytest

from ._pytest_peer import check_marker, check_pedantic, stats_budget
from ._pytest_stats import Metadata, Stats, measured
from .suite import pause, resume

#: The name the plugin's session state is registered under.
STATE = "picollo-suite"


@pytest.fixture
def benchmark(request: Any) -> "Benchmark":
    """Call it once with the function to measure and its arguments; it returns the result."""
    session = request.config.pluginmanager.get_plugin(STATE)
    marker = request.node.get_closest_marker("picollo")
    name = marker.kwargs.get("name") if marker is not None else None
    peer = request.node.get_closest_marker("benchmark")
    if peer is not None:
        check_marker(peer)
    kwargs = peer.kwargs if peer is not None else {}
    budget = stats_budget(request.config.option, kwargs.get("max_time"))
    if not session.stats_measured:
        budget = None
    nodeid = request.node.nodeid
    callspec = getattr(request.node, "callspec", None)
    if callspec is None:
        return Benchmark(name or nodeid, session, nodeid, group=kwargs.get("group"),
                         stats_budget=budget)
    # The node id without its "[ID]": the library adds the parameter as "/ID".
    base = name or nodeid[: -len(f"[{callspec.id}]")]
    return Benchmark(base, session, nodeid, callspec.id, group=kwargs.get("group"),
                     stats_budget=budget)


class Benchmark:
    """The fixture's value: ``benchmark(fn, *args, **kwargs)`` (or ``benchmark.pedantic``)
    calls ``fn`` once (the test) and returns its result; when measuring, the function is
    registered once its test passed (a test that fails after the call is not measured).
    ``extra_info`` (a dict), ``group`` (``@pytest.mark.benchmark(group=...)``) and, after the
    call, ``stats`` (`stats`) are pytest-benchmark's. ``stats_budget``: the seconds of the
    measurement ``stats`` holds; None where they hold the test's own call."""

    def __init__(self, name: str, session: Any, nodeid: str, param: Optional[str] = None,
                 group: Optional[str] = None, stats_budget: Optional[float] = None) -> None:
        self.name = name
        self.fullname = nodeid
        self.param = param
        self.group = group
        self.extra_info: dict = {}
        self._stats: Optional[Metadata] = None
        self._stats_budget = stats_budget
        self._elapsed = 0.0
        self._session = session
        self._nodeid = nodeid
        self._called = False
        self._call: Optional[tuple[Callable[..., Any], tuple, dict]] = None
        self._throughput: Optional[tuple[str, int]] = None

    def set_throughput(self, unit: str, per_operation: int) -> None:
        """Declare that one call of the function does ``per_operation`` of ``unit``
        (``"elements"`` or ``"bytes"``): the runner reports its rate at the median. Another
        unit or 0 raises the library's error, measured or not."""
        from .pytest_plugin import _check_throughput

        _check_throughput(unit, per_operation)
        self._throughput = (unit, per_operation)

    def _register(self) -> None:
        """Register the function called (and its throughput) in the session's suite."""
        suite = self._session.suite
        if suite is None or self._call is None:
            return
        fn, args, kwargs = self._call
        if self.param is None:
            suite.add(self.name, fn, *args, **kwargs)
        else:
            suite.add_param(self.name, self.param, fn, *args, **kwargs)
        if self._throughput is not None:
            suite.set_throughput(self.name, *self._throughput, param=self.param)

    def __call__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self._claim()
        result = self._timed(fn, args, kwargs)
        self._call = (fn, args, kwargs)
        return result

    def pedantic(self, target: Callable[..., Any], args: tuple = (),
                 kwargs: Optional[dict] = None, setup: Optional[Callable[[], Any]] = None,
                 teardown: Optional[Callable[..., Any]] = None, rounds: int = 1,
                 warmup_rounds: int = 0, iterations: int = 1) -> Any:
        """pytest-benchmark's explicit form: the test calls ``target`` once (after
        ``setup``, whose ``(args, kwargs)`` are the call's where it returns them, and before
        ``teardown(*args, **kwargs)``); the runner measures the same, each call with its
        setup and teardown, which run paused: the figure is the call's alone. ``rounds``,
        ``warmup_rounds`` and ``iterations`` are checked as pytest-benchmark checks them,
        then left to the runner, which chooses its own."""
        check_pedantic(setup, rounds, warmup_rounds, iterations)
        kwargs = dict(kwargs or {})
        self._claim()
        if setup is None and teardown is None:
            result = self._timed(target, tuple(args), kwargs)
            self._call = (target, tuple(args), kwargs)
            return result
        call = _prepared(target, tuple(args), kwargs, setup, teardown)
        result = self._timed(call, (), {})
        self._call = (call, (), {})
        return result

    @property
    def stats(self) -> Optional[Metadata]:
        """pytest-benchmark's figures of the function called (`Metadata`), in seconds; None
        before the call. The first read after it measures the call with the library's
        harness (`picollo._pytest_stats.measured`) for ``stats_budget`` seconds, as the
        runner measures a benchmark; without a budget (``--benchmark-disable``, a worker of
        ``--picollo-against``) they are the test's own call, one round."""
        if self._stats is None and self._call is not None:
            if self._stats_budget is None:
                stats, iterations = Stats.of_call(self._elapsed), 1
            else:
                fn, args, kwargs = self._call
                call = functools.partial(fn, *args, **kwargs) if args or kwargs else fn
                stats, iterations = measured(call, self.name, self._stats_budget)
            self._stats = Metadata(stats, self.name, self.group, self.extra_info, iterations)
        return self._stats

    def weave(self, target: Any, **kwargs: Any) -> None:
        """pytest-benchmark's aspect form, which Picollo's runner has no counterpart of."""
        raise NotImplementedError("benchmark.weave: Picollo measures one function a test; "
                                  "call benchmark(fn, *args) with the function instead")

    def _claim(self) -> None:
        if self._called:
            raise RuntimeError(f"{self.name}: the benchmark fixture measures one "
                               "function a test: call it once")
        self._called = True
        self._session.called[self._nodeid] = self

    def _timed(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        """``fn(*args, **kwargs)`` once, its time kept for ``stats`` where they hold the
        test's call."""
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        self._elapsed = time.perf_counter() - start
        return result


def _prepared(target: Callable[..., Any], args: tuple, kwargs: dict,
              setup: Optional[Callable[[], Any]],
              teardown: Optional[Callable[..., Any]]) -> Callable[[], Any]:
    """One call of ``target`` as pytest-benchmark's pedantic makes it: ``setup()`` first,
    whose ``(args, kwargs)`` replace the given ones (TypeError where both are given), and
    ``teardown(*args, **kwargs)`` after, both untimed (`picollo.suite.pause`)."""

    def call() -> Any:
        a, kw = args, kwargs
        pause()  # pause/resume themselves: a `with paused()` block costs 3x as much
        try:
            prepared = setup() if setup is not None else None
        finally:
            resume()
        if prepared is not None:
            if args or kwargs:
                raise TypeError("benchmark.pedantic: setup returned the arguments, so args "
                                "and kwargs must not be given as well")
            a, kw = prepared
        result = target(*a, **kw)
        if teardown is not None:
            pause()
            try:
                teardown(*a, **kw)
            finally:
                resume()
        return result

    return call
