"""The pytest plugin (entry point ``pytest11``; from a checkout, ``-p picollo.pytest_plugin``):
a ``benchmark`` fixture called as pytest-benchmark's is, ``benchmark(fn, *args, **kwargs)``,
which returns ``fn``'s result, and a ``picollo`` marker; the library's suite runner measures
and judges (docs/suites.md).

Plain ``pytest`` runs each benchmark once, as its test (and measures it briefly where the test
reads ``benchmark.stats``). With ``--picollo-bench``, or ``--picollo-save NAME``,
``--picollo-baseline NAME`` or ``--picollo-against CHECKOUT``, each benchmark whose test passed
is registered in a suite (`picollo.suite.Suite`) under its node id, and once every test ran
the runner measures them all: its lines go in pytest's terminal summary and its exit status
(7 slower, 6 a benchmark failed, ...) becomes pytest's where the tests passed. What ``fn``
uses must outlive its test (the measurement comes after it).

A test of ``@pytest.mark.parametrize`` is one benchmark a parameter, ``NAME/ID`` (its node
id's ``[ID]`` as the library names a parameter's benchmark: ``test_copy[64]`` measures as
``test_copy/64``); ``benchmark.set_throughput("bytes", n)`` declares the work of one call,
whose rate the runner reports.

A test file written for pytest-benchmark runs unchanged (docs/bring-your-suite.md):
``benchmark.pedantic``, ``extra_info``, ``group``, ``stats`` (Picollo's measurement of the
call, made when the test reads it: `picollo._pytest_stats`), the ``benchmark`` marker and the
``--benchmark-*`` options (`picollo._pytest_peer`). Where pytest-benchmark is installed too,
this plugin's fixture is the run's unless ``--picollo-fixture=pytest-benchmark`` (or the
``picollo_fixture`` ini key) hands it back; the workers of ``--picollo-against`` use this one.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from . import _pytest_benchmark
from . import _pytest_peer as peer
from ._pytest_benchmark import STATE as _STATE
from ._pytest_benchmark import Benchmark
from .suite import WORKER_FLAG, Suite

__all__ = ["Benchmark"]

#: The environment variable a worker's boot sets, that names the fixture's owner there.
FIXTURE_ENV = "PICOLLO_PYTEST_FIXTURE"
_OWNERS = ("picollo", "pytest-benchmark")


def pytest_addoption(parser: Any, pluginmanager: Any) -> None:
    g = parser.getgroup("picollo", "benchmarks measured by Picollo's suite runner")
    g.addoption("--picollo-fixture", choices=_OWNERS,
                help="whose benchmark fixture this run uses where pytest-benchmark is "
                "installed too (default: the picollo_fixture ini key, else picollo)")
    parser.addini("picollo_fixture", f"as --picollo-fixture: {' or '.join(_OWNERS)}",
                  default="picollo")
    if not peer.peer_will_load(pluginmanager):
        peer.add_options(parser.getgroup(
            "benchmark", "pytest-benchmark's options, with Picollo's meaning"))
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


#: Whose fixture the run uses, and whether pytest-benchmark's plugin was loaded.
_CHOICE = pytest.StashKey[tuple]()


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: Any) -> None:
    """Choose the fixture's owner once the options are parsed, before pytest is configured:
    where it is Picollo and pytest-benchmark's plugin is loaded, set that plugin aside now,
    before its own configuration (which judges its options as its own) and its hooks run.
    Its options stay parsed, and this plugin reads them."""
    _choice(config)


def _choice(config: Any) -> tuple:
    """``(owner, pytest-benchmark loaded)``, chosen once a run (`_fixture_owner`)."""
    if _CHOICE not in config.stash:
        loaded = peer.peer_loaded(config.pluginmanager)
        owner = _fixture_owner(config, loaded)
        config.stash[_CHOICE] = (owner, loaded)
        if owner == "picollo" and loaded:
            manager = config.pluginmanager
            for name in peer.PEER_NAMES:
                plugin = manager.get_plugin(name)
                if plugin is not None:
                    manager.unregister(plugin)
    return config.stash[_CHOICE]


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers", "picollo(name=None): a benchmark of Picollo's suite (added to every test "
        "that uses the benchmark fixture); name= replaces the node id as its name")
    config.addinivalue_line("markers", peer.MARKER_LINE)
    session = _Session(config)
    config.pluginmanager.register(session, _STATE)
    if session.owner == "picollo":
        # Registered last, its fixture wins over pytest-benchmark's of the same name.
        config.pluginmanager.register(_pytest_benchmark, "picollo-benchmark-fixture")


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
        self.owner, self.peer = _choice(config)
        self.measures = self.owner == "picollo" and bool(
            opt.picollo_bench or opt.picollo_save or opt.picollo_baseline
            or opt.picollo_against or getattr(opt, "benchmark_enable", False))
        if opt.picollo_against:
            _check_against(config, Path(opt.picollo_against))
        #: Whether ``benchmark.stats`` is a measurement: not in a worker, whose tests only
        #: register their benchmarks, nor where pytest-benchmark would not measure.
        self.stats_measured = not self.worker and peer.stats_measured(opt)
        if self.owner == "picollo":
            try:
                peer.stats_budget(opt)
            except ValueError as e:
                raise pytest.UsageError(str(e)) from None
        self.suite: Optional[Suite] = None
        if self.measures or self.worker:
            self.suite = Suite("pytest")
        self.report: Optional[tuple[int, str, str]] = None
        #: The lines of pytest-benchmark's groups of the benchmarks measured (`group_lines`).
        self.groups: list[str] = []
        #: The benchmark each running test called, by node id, until its test ends.
        self.called: dict[str, Benchmark] = {}
        #: The benchmarks registered, by the name the runner measures them under.
        self.registered: dict[str, Benchmark] = {}

    def pytest_report_header(self, config: Any) -> Optional[str]:
        if not self.peer:
            return None
        if self.owner == "picollo":
            return ("picollo: the benchmark fixture is Picollo's, pytest-benchmark's plugin "
                    "set aside (--picollo-fixture=pytest-benchmark hands it back)")
        return "picollo: the benchmark fixture is pytest-benchmark's (--picollo-fixture)"

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
                if self.suite is not None:
                    name = called.name if called.param is None else \
                        f"{called.name}/{called.param}"
                    self.registered[name] = called
            except Exception as e:  # the test's failure, as if its call had raised it
                outcome.force_exception(e)

    def pytest_collection_modifyitems(self, config: Any, items: list) -> None:
        if self.owner != "picollo":
            return
        for item in items:
            if "benchmark" in getattr(item, "fixturenames", ()):
                item.add_marker("picollo")
        _skip_as_asked(config.option, items)
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
        started = time.time()
        status, out, err = _captured(lambda: self.suite.main(self._runner_args()))
        document = self._document(started)
        self.report = (status, out, err)
        self.groups = peer.group_lines(document, {n: b.group for n, b in self.registered.items()})
        self._write_json(document)
        if status != 0 and session.exitstatus == 0:
            session.exitstatus = status

    def _runner_args(self) -> list[str]:
        """The runner's command line for this run's options."""
        opt, rootdir = self.config.option, Path(str(self.config.rootpath))
        args = ["--bench", "--out", str(rootdir / ".picollo")]
        save = opt.picollo_save or getattr(opt, "benchmark_save", None) or (
            "autosave" if getattr(opt, "benchmark_autosave", None) else None)
        for flag, value in (("--save", save), ("--baseline", opt.picollo_baseline),
                            ("--budget", opt.picollo_budget),
                            ("--shard", opt.picollo_shard)):
            if value:
                args += [flag, value]
        if opt.picollo_append:
            args.append("--append")
        if opt.picollo_against:
            args += ["--against", self._against(Path(opt.picollo_against))]
        return args + shlex.split(opt.picollo_args)

    def _document(self, started: float) -> Optional[dict]:
        """The runner's results document, where this run (since ``started``) wrote one."""
        results = Path(str(self.config.rootpath)) / ".picollo" / "pytest" / "results.json"
        if not results.is_file() or results.stat().st_mtime < started:
            return None
        return json.loads(results.read_text())

    def _write_json(self, document: Optional[dict]) -> None:
        """``--benchmark-json PATH``: the runner's results document, each benchmark's
        ``extra_info`` and ``group`` added to its command (where the run wrote one)."""
        path = peer.json_path(self.config.option)
        if not path or document is None:
            return
        for command in document.get("commands", []):
            called = self.registered.get(
                peer.command_benchmark(command.get("name", ""), self.registered) or "")
            if called is not None:
                command["group"] = called.group
                command["extraInfo"] = called.extra_info
        Path(path).write_text(json.dumps(document, indent=2, default=repr) + "\n")

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
        for line in [*out.splitlines(), *self.groups]:
            terminalreporter.write_line(line)
        # The workers' own pytest output is shown only where something went wrong with them.
        shown = err.splitlines() if status not in (0, 6, 7) else [
            line for line in err.splitlines() if line.startswith("error:")]
        for line in shown:
            terminalreporter.write_line(line)


def _fixture_owner(config: Any, peer_loaded: bool) -> str:
    """Whose ``benchmark`` fixture the run uses: ``--picollo-fixture``, else the worker's
    boot's choice (`FIXTURE_ENV`), else the ``picollo_fixture`` ini key (default
    ``picollo``). A usage error where the choice cannot hold: pytest-benchmark's fixture
    without its plugin, or with a flag that measures with Picollo's; a refused option."""
    owner = (config.option.picollo_fixture or os.environ.get(FIXTURE_ENV)
             or config.getini("picollo_fixture"))
    if owner not in _OWNERS:
        raise pytest.UsageError(f"picollo_fixture = {owner}: {' or '.join(_OWNERS)}")
    opt = config.option
    if owner == "picollo":
        refused = peer.refused(opt)
        if refused:
            raise pytest.UsageError(refused)
        return owner
    if not peer_loaded:
        raise pytest.UsageError("--picollo-fixture=pytest-benchmark: pytest-benchmark's "
                                "plugin is not loaded (pip install pytest-benchmark; no "
                                "-p no:benchmark)")
    flag = next((f for f, v in (("--picollo-bench", opt.picollo_bench),
                                ("--picollo-save", opt.picollo_save),
                                ("--picollo-baseline", opt.picollo_baseline),
                                ("--picollo-against", opt.picollo_against)) if v), None)
    if flag:
        raise pytest.UsageError(f"{flag} measures Picollo's benchmark fixture, and this run "
                                "gives it to pytest-benchmark: --picollo-fixture=picollo")
    return owner


def _skip_as_asked(option: Any, items: list) -> None:
    """``--benchmark-skip`` skips the tests that use the fixture, ``--benchmark-only`` (which
    wins) those that do not."""
    only, skip = getattr(option, "benchmark_only", False), getattr(option, "benchmark_skip", False)
    if not (only or skip):
        return
    for item in items:
        uses = "benchmark" in getattr(item, "fixturenames", ())
        if only and not uses:
            item.add_marker(pytest.mark.skip(reason="not a benchmark (--benchmark-only)"))
        elif skip and uses and not only:
            item.add_marker(pytest.mark.skip(reason="a benchmark (--benchmark-skip)"))


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
    boot = (f"import os, sys; sys.path.append({package_parent!r}); "
            f"os.environ[{FIXTURE_ENV!r}] = 'picollo'; "
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
