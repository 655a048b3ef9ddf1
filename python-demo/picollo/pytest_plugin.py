"""The pytest plugin (entry point ``pytest11``; from a checkout, ``-p picollo.pytest_plugin``):
a ``benchmark`` fixture called as pytest-benchmark's is, ``benchmark(fn, *args, **kwargs)``,
which returns ``fn``'s result, and a ``picollo`` marker; the library's suite runner measures
and judges (docs/suites.md).

Plain ``pytest`` runs each benchmark once, as its test. With ``--picollo-bench``, or
``--picollo-save NAME``, ``--picollo-baseline NAME`` or ``--picollo-against CHECKOUT``, each
benchmark whose test passed is registered in a suite (`picollo.suite.Suite`) under its node
id, and once every test ran the runner measures them all: its lines go in pytest's terminal
summary and its exit status (7 slower, 6 a benchmark failed, ...) becomes pytest's where the
tests passed. What ``fn`` uses must outlive its test (the measurement comes after it).

A test of ``@pytest.mark.parametrize`` is one benchmark a parameter, ``NAME/ID`` (its node
id's ``[ID]`` as the library names a parameter's benchmark: ``test_copy[64]`` measures as
``test_copy/64``); ``benchmark.set_throughput("bytes", n)`` declares the work of one call,
whose rate the runner reports.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from .suite import WORKER_FLAG, Suite

#: The name the session's state is registered under.
_STATE = "picollo-suite"


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("picollo", "benchmarks measured by Picollo's suite runner")
    g.addoption("--picollo-bench", action="store_true",
                help="measure each benchmark after the tests (without it: each runs once)")
    g.addoption("--picollo-save", metavar="NAME",
                help="measure, and save the results as baseline NAME (.picollo/baselines/)")
    g.addoption("--picollo-append", action="store_true",
                help="with --picollo-save: add this run apart to those saved")
    g.addoption("--picollo-baseline", metavar="NAME",
                help="measure, and judge each benchmark against saved baseline NAME")
    g.addoption("--picollo-against", metavar="CHECKOUT",
                help="judge each benchmark against the same test in CHECKOUT (the other "
                "tree's folder matching this rootdir), both measured in interleaved rounds")
    g.addoption("--picollo-against-python", metavar="PYTHON",
                help="the interpreter of --picollo-against (default: CHECKOUT/.venv/bin/python "
                "where it exists, else this one)")
    g.addoption("--picollo-budget", metavar="SECS", help="seconds per benchmark (default 5)")
    g.addoption("--picollo-shard", metavar="I/N",
                help="run only the benchmarks whose share is I of N (the runner's --shard: "
                "FNV-1a 64 of the name, mod N, plus one); N jobs with 1/N..N/N run each "
                "benchmark once, and `picollo merge` joins their results.json")
    g.addoption("--picollo-args", action=_FlagsAction, default="",
                help="FLAGS: more flags for the runner, one word (quote them), e.g. "
                "'--threshold 5 --export bmf=bmf.json'; --picollo-args --list works as "
                "--picollo-args=--list does")
    g.addoption(WORKER_FLAG, action="store_true",
                help="answer another run's requests (python -m picollo.suite_worker)")


class _FlagsAction(argparse.Action):
    """``--picollo-args FLAGS``: the next word is the value even where it starts with ``-``
    (``--picollo-args --list``), which argparse would take for an option of its own. The
    option takes every word after it, keeps the first, and parses the rest again, handing
    back what it does not know as argparse's subcommands do."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=argparse.REMAINDER, **kwargs)

    def __call__(self, parser: Any, namespace: Any, values: Any,
                 option_string: Optional[str] = None) -> None:
        if not values:
            parser.error(f"argument {option_string}: expected one argument")
        setattr(namespace, self.dest, values[0])
        rest = parser.parse_known_args(values[1:], namespace)[1]
        unknown = getattr(namespace, "_unrecognized_args", [])
        setattr(namespace, "_unrecognized_args", [*unknown, *rest])


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers", "picollo(name=None): a benchmark of Picollo's suite (added to every test "
        "that uses the benchmark fixture); name= replaces the node id as its name")
    config.pluginmanager.register(_Session(config), _STATE)


@pytest.fixture
def benchmark(request: Any) -> "Benchmark":
    """Call it once with the function to measure and its arguments; it returns the result."""
    session = request.config.pluginmanager.get_plugin(_STATE)
    marker = request.node.get_closest_marker("picollo")
    name = marker.kwargs.get("name") if marker is not None else None
    nodeid = request.node.nodeid
    callspec = getattr(request.node, "callspec", None)
    if callspec is None:
        return Benchmark(name or nodeid, session, nodeid)
    # The node id without its "[ID]": the library adds the parameter as "/ID".
    base = name or nodeid[: -len(f"[{callspec.id}]")]
    return Benchmark(base, session, nodeid, callspec.id)


class Benchmark:
    """The fixture's value: ``benchmark(fn, *args, **kwargs)`` calls ``fn`` once (the test)
    and returns its result; when measuring, the function is registered once its test passed
    (a test that fails after the call is not measured)."""

    def __init__(self, name: str, session: "_Session", nodeid: str,
                 param: Optional[str] = None) -> None:
        self.name = name
        self.param = param
        self._session = session
        self._nodeid = nodeid
        self._called = False
        self._call: Optional[tuple[Callable[..., Any], tuple, dict]] = None
        self._throughput: Optional[tuple[str, int]] = None

    def set_throughput(self, unit: str, per_operation: int) -> None:
        """Declare that one call of the function does ``per_operation`` of ``unit``
        (``"elements"`` or ``"bytes"``): the runner reports its rate at the median. Another
        unit or 0 raises the library's error, measured or not."""
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
        if self._called:
            raise RuntimeError(f"{self.name}: the benchmark fixture measures one "
                               "function a test: call it once")
        self._called = True
        result = fn(*args, **kwargs)
        self._call = (fn, args, kwargs)
        self._session.called[self._nodeid] = self
        return result


def _nothing() -> None:
    pass


def _check_throughput(unit: str, per_operation: int) -> None:
    """Raise the library's error where it would refuse the throughput: declared on a
    benchmark of a suite of its own, which nothing measures (the rule is the library's)."""
    with Suite("pytest") as check:
        check.add("throughput", _nothing)
        check.set_throughput("throughput", unit, per_operation)


class _Session:
    """One pytest run: its suite (None when nothing is measured), then the runner's report."""

    def __init__(self, config: Any) -> None:
        self.config = config
        opt = config.option
        self.worker = getattr(opt, WORKER_FLAG[2:].replace("-", "_"))
        if self.worker:
            from . import suite_worker
            if suite_worker._channel is None:
                raise pytest.UsageError(f"{WORKER_FLAG}: the suite runner starts a worker as "
                                        "python -m picollo.suite_worker, not as pytest")
        self.measures = bool(opt.picollo_bench or opt.picollo_save or opt.picollo_baseline
                             or opt.picollo_against)
        if opt.picollo_against:
            _check_against(config, Path(opt.picollo_against))
        self.suite: Optional[Suite] = None
        if self.measures or self.worker:
            self.suite = Suite("pytest")
        self.report: Optional[tuple[int, str, str]] = None
        #: The benchmark each running test called, by node id, until its test ends.
        self.called: dict[str, Benchmark] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Any:
        """Register a test's benchmark once the test passed: a test that fails after its
        call (an assertion on the result) is not measured. An error the suite raises on
        registering (a name taken twice) fails the test, with its message."""
        outcome = yield
        called = self.called.pop(item.nodeid, None)
        if called is not None and outcome.excinfo is None:
            try:
                called._register()
            except Exception as e:  # the test's failure, as if its call had raised it
                outcome.force_exception(e)

    def pytest_collection_modifyitems(self, config: Any, items: list) -> None:
        for item in items:
            if "benchmark" in getattr(item, "fixturenames", ()):
                item.add_marker("picollo")
        if self.worker:  # a worker runs the benchmarks' tests only
            kept = [i for i in items if "benchmark" in getattr(i, "fixturenames", ())]
            dropped = [i for i in items if i not in kept]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: Any) -> None:
        if self.suite is None:
            return
        if self.worker:
            from .suite_worker import serve
            serve(self.suite)
            return
        status, out, err = _captured(lambda: self.suite.main(self._runner_args()))
        self.report = (status, out, err)
        if status != 0 and session.exitstatus == 0:
            session.exitstatus = status

    def _runner_args(self) -> list[str]:
        """The runner's command line for this run's options."""
        opt, rootdir = self.config.option, Path(str(self.config.rootpath))
        args = ["--bench", "--out", str(rootdir / ".picollo")]
        for flag, value in (("--save", opt.picollo_save), ("--baseline", opt.picollo_baseline),
                            ("--budget", opt.picollo_budget),
                            ("--shard", opt.picollo_shard)):
            if value:
                args += [flag, value]
        if opt.picollo_append:
            args.append("--append")
        if opt.picollo_against:
            args += ["--against", self._against(Path(opt.picollo_against))]
        return args + shlex.split(opt.picollo_args)

    def _against(self, checkout: Path) -> str:
        """Set this run's worker command, and write the other checkout's as a script: the
        path ``--against`` takes."""
        rootdir = Path(str(self.config.rootpath))
        paths, selection = _worker_args(self.config)
        self.suite.set_worker(_worker_command(sys.executable, rootdir, [*paths, *selection]))
        python = self.config.option.picollo_against_python or _venv_python(checkout)
        other = [*(_relocated(p, rootdir, checkout) for p in paths), *selection]
        command = _worker_command(python, checkout.resolve(), other)
        folder = Path(tempfile.mkdtemp(prefix="picollo-against-"))
        self.config.add_cleanup(lambda: _remove(folder))
        script = folder / "worker"
        script.write_text(f"#!/bin/sh\ncd {shlex.quote(str(checkout))} || exit 9\n"
                          f"exec {shlex.join(command)} \"$@\"\n")
        script.chmod(0o755)
        return str(script)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.report is None:
            return
        status, out, err = self.report
        terminalreporter.write_sep("-", f"picollo: exit status {status}")
        for line in out.splitlines():
            terminalreporter.write_line(line)
        # The workers' own pytest output is shown only where something went wrong with them.
        shown = err.splitlines() if status not in (0, 6, 7) else [
            line for line in err.splitlines() if line.startswith("error:")]
        for line in shown:
            terminalreporter.write_line(line)


def _check_against(config: Any, checkout: Path) -> None:
    """A usage error unless ``checkout`` is a folder that pytest did not take for a test
    path: pytest finds its rootdir before it knows a plugin's options, so the value of
    ``--picollo-against CHECKOUT`` (two words) counts as a path there."""
    if not checkout.is_dir():
        raise pytest.UsageError(f"--picollo-against {checkout}: not a folder (the other "
                                "checkout's folder that matches this run's rootdir)")
    inside = lambda p: p == checkout.resolve() or checkout.resolve() in p.parents  # noqa: E731
    rootdir = Path(str(config.rootpath)).resolve()
    invoked = Path(str(config.invocation_params.dir)).resolve()
    if inside(rootdir) and not inside(invoked):
        raise pytest.UsageError(f"pytest took --picollo-against's folder for a test path "
                                f"(rootdir {rootdir}): write --picollo-against={checkout}")


def _worker_command(python: str, rootdir: Path, tests: list[str]) -> list[str]:
    """``python`` running `picollo.suite_worker` on ``tests`` under ``rootdir``, with this
    picollo package found where the other interpreter has none of its own."""
    package_parent = str(Path(__file__).resolve().parent.parent)
    boot = (f"import sys; sys.path.append({package_parent!r}); "
            "from picollo.suite_worker import main; sys.exit(main())")
    return [python, "-c", boot, "--rootdir", str(rootdir), *tests]


def _worker_args(config: Any) -> tuple[list[str], list[str]]:
    """This run's test paths (absolute) and its selection (``-k``, ``-m``), for a worker."""
    invoked = Path(str(config.invocation_params.dir))
    paths = [str((invoked / a).resolve()) if "::" not in a else str(invoked / a)
             for a in config.args]
    opt = config.option
    selection = [f for flag, v in (("-k", opt.keyword), ("-m", opt.markexpr)) if v
                 for f in (flag, v)]
    return paths, selection


def _relocated(arg: str, rootdir: Path, checkout: Path) -> str:
    """A test path of this tree (``path[::node]``) at the same place in ``checkout``."""
    path, sep, rest = arg.partition("::")
    try:
        inside = Path(path).resolve().relative_to(rootdir.resolve())
    except ValueError:
        return arg  # outside the rootdir: the same path for both
    return str(checkout.resolve() / inside) + sep + rest


def _venv_python(checkout: Path) -> str:
    venv = checkout / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def _captured(call: Callable[[], int]) -> tuple[int, str, str]:
    """``call()``'s result with what it (and the processes it starts) wrote to file
    descriptors 1 and 2."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        saved = os.dup(1), os.dup(2)
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            status = call()
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(f.read().decode("utf-8", "replace"))
    return status, texts[0], texts[1]


def _remove(folder: Path) -> None:
    for p in folder.iterdir():
        p.unlink()
    folder.rmdir()
