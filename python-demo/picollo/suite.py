"""A suite of named benchmarks run by the library's runner (Linux): the filters, ``--list``,
``--test``, the measurements and their outputs, ``--save``/``--baseline`` and ``--against``,
as a Rust, C or C++ suite runs them (docs/suites.md). The pytest plugin
(`picollo.pytest_plugin`) builds one from the tests that use its ``benchmark`` fixture.

>>> from picollo.suite import Suite
>>> with Suite("sums") as s:
...     s.add("sum 1000", sum, range(1_000))
...     s.set_throughput("sum 1000", "elements", 1_000)   # its rate: elements a second
...     for n in (64, 4096):
...         s.add_param("zeros", n, bytes, n)              # "zeros/64", "zeros/4096"
...         s.set_throughput("zeros", "bytes", n, param=n)
...     status = s.main(["--budget", "0.5"])   # the exit status, as for `main`

A benchmark that raises is reported FAILED with its exception's type and message (exit
status 6); the others run on. The runner's report goes to the standard output.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
from typing import Any, Callable, Iterator, Optional, Sequence

from ._errors import check
from ._handle import Handle
from ._native import apply_signatures, lib, missing, pylib
from ._suite_abi import SUITE_ABI_MINOR, SUITE_SIGNATURES, SuiteP
from ._text import encode
from .bench import UNOPTIMIZED, _Work

__all__ = ["Suite", "WORKER_FLAG", "pause", "paused", "resume"]

#: The flag the runner starts a worker with (the last of its command line).
WORKER_FLAG = "--picollo-worker"

_NEEDS = f"suites need a Linux build of ABI 1.{SUITE_ABI_MINOR} or later"
apply_signatures(SUITE_SIGNATURES, _NEEDS)
if lib.picollo_abi_version() & 0xFFFF < SUITE_ABI_MINOR:
    raise ImportError(missing("picollo_suite_pause", _NEEDS))

#: `picollo_suite_main` through `ctypes.PyDLL`, as `bench.run`: the runner keeps the GIL, so
#: each batch's callback enters Python without taking it again.
_main = pylib.picollo_suite_main
_main.restype, _main.argtypes = SUITE_SIGNATURES["picollo_suite_main"]


#: `picollo_suite_pause` and `picollo_suite_resume` through `ctypes.PyDLL`: called from a
#: batch's callback, which holds the GIL, they keep it (no release and take again).
_pause = pylib.picollo_suite_pause
_pause.restype, _pause.argtypes = SUITE_SIGNATURES["picollo_suite_pause"]
_resume = pylib.picollo_suite_resume
_resume.restype, _resume.argtypes = SUITE_SIGNATURES["picollo_suite_resume"]


def pause() -> None:
    """Stop the clock of the benchmark batch running on this thread: what runs until
    `resume` (or the batch's end) is left out of its time; perf counters still count it.
    Pausing while paused does nothing. A pair leaves the cost of two ctypes calls in the
    figure (docs/suites.md, "Untimed stretches")."""
    _pause()


def resume() -> None:
    """Start again the clock `pause` stopped; resuming while running does nothing."""
    _resume()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """``with paused(): ...``: the block runs untimed (`pause`, then `resume` however it
    ends)."""
    _pause()
    try:
        yield
    finally:
        _resume()


class _SuiteWork(_Work):
    """A benchmark's callback: `bench`'s, which keeps the first exception of a batch; the
    exception is handed to the runner (`picollo_suite_fail`) before the callback returns,
    so nothing unwinds through the library. A KeyboardInterrupt is kept for `Suite.main`
    to raise again."""

    interrupt: Optional[BaseException] = None

    def _call(self, ctx: Any, iterations: int) -> None:
        super()._call(ctx, iterations)
        e, self.error = self.error, None
        if e is None:
            return
        if not isinstance(e, Exception):
            self.interrupt = self.interrupt or e
        message = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        lib.picollo_suite_fail(message.encode("utf-8", "replace"))


class Suite(Handle):
    """Named benchmarks and the library's runner (`main`). One thread at a time; the
    benchmarks run on the thread that calls `main`."""

    _WHAT = "suite"

    def __init__(self, name: str) -> None:
        out = SuiteP()
        check(lib.picollo_suite_new(encode(name, "name"), ctypes.byref(out)))
        self._own(out, lib.picollo_suite_free)
        self._works: list[_SuiteWork] = []  # their callbacks live as long as the suite
        config = lib.picollo_bench_config_default()
        config.unoptimized = UNOPTIMIZED
        check(lib.picollo_suite_set_config(self._ptr, ctypes.byref(config)))

    def add(self, name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Register ``fn(*args, **kwargs)``, one operation a call, as benchmark ``name``
        (names are checked by `main`: two of one name, or an empty one, exit with 2)."""
        work = _work(fn, args, kwargs)
        check(lib.picollo_suite_add(self._ptr, encode(name, "name"), work.address, None))
        self._works.append(work)

    def add_param(self, name: str, param: Any, fn: Callable[..., Any], *args: Any,
                  **kwargs: Any) -> None:
        """Register ``fn(*args, **kwargs)`` as the benchmark of ``name`` for parameter
        ``param`` (``str(param)``): the library names it ``name/param``, listed, filtered,
        measured and compared as any other."""
        work = _work(fn, args, kwargs)
        check(lib.picollo_suite_add_param(self._ptr, encode(name, "name"),
                                          encode(str(param), "param"), work.address, None))
        self._works.append(work)

    def set_throughput(self, name: str, unit: str, per_operation: int,
                       param: Any = None) -> None:
        """Declare that one operation of benchmark ``name`` (of ``name/param`` where
        ``param`` is given) does ``per_operation`` of ``unit``, ``"elements"`` or
        ``"bytes"``: its results carry the library's rate at their median (in the report's
        line and the JSON). PicolloError for another unit, 0, or a name not registered."""
        if not isinstance(per_operation, int) or isinstance(per_operation, bool):
            raise TypeError(f"per_operation must be an int, not {type(per_operation).__name__}")
        if not 0 <= per_operation < 2**64:
            raise ValueError(f"per_operation {per_operation} is outside 0 to 2**64 - 1")
        p = None if param is None else encode(str(param), "param")
        check(lib.picollo_suite_set_throughput(self._ptr, encode(name, "name"), p,
                                               encode(unit, "unit"), per_operation))

    def set_worker(self, command: Sequence[str]) -> None:
        """The command that starts this suite as a worker for ``--against`` (the runner adds
        ``--picollo-worker``): an interpreter and its arguments, since the running program
        (python) is not the suite."""
        argv = _argv(command, "command")
        check(lib.picollo_suite_set_worker(self._ptr, argv, len(argv)))

    def main(self, args: Sequence[str], program: str = "picollo") -> int:
        """Run the suite as the command line ``args`` (without the program's name) says,
        printing its report to the standard output and what went wrong to the standard error;
        the exit status (docs/suites.md): 0, or 2 a bad argument, 3 a file, 4 a saved
        baseline unreadable, 5 no benchmark matches, 6 a benchmark failed, 7 one compared
        slower, 9 the other build's worker failed. Without a flag it measures."""
        argv = _argv([program, *args], "args")
        status = _main(self._ptr, len(argv), argv)
        interrupt = next((w.interrupt for w in self._works if w.interrupt), None)
        if interrupt is not None:
            for w in self._works:
                w.interrupt = None
            raise interrupt
        return int(status)


def _work(fn: Callable[..., Any], args: tuple, kwargs: dict) -> _SuiteWork:
    """The callback of ``fn(*args, **kwargs)``; TypeError where ``fn`` is not callable."""
    if not callable(fn):
        raise TypeError(f"fn must be callable, not {type(fn).__name__}")
    return _SuiteWork(functools.partial(fn, *args, **kwargs) if args or kwargs else fn)


def _argv(strings: Sequence[str], what: str) -> Any:
    """``strings`` as a C array of NUL-terminated UTF-8 strings."""
    if isinstance(strings, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of str, not {type(strings).__name__}")
    encoded = [encode(s, f"each of {what}") for s in strings]
    return (ctypes.c_char_p * len(encoded))(*encoded)
