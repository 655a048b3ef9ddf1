"""Untimed stretches in Python: `picollo.suite.pause`/`resume` (and `paused`) inside a suite's
benchmark, and the pytest plugin's ``benchmark.pedantic(setup=..., teardown=...)``, whose
setup and teardown run paused. Each spins 1 ms untimed and does almost nothing timed; its
median must lie far below the spin (under 1/10 of it: correct code misses that only if a
call's few timed bytecodes took 100 us), while the same spin timed is counted (at least its
1 ms, by construction)."""

from __future__ import annotations

import json
import sys
import time

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("suites exist on Linux only", allow_module_level=True)

from picollo import suite  # noqa: E402
from picollo.suite import Suite  # noqa: E402

from test_pytest_plugin import TINY, pytest_in, text  # noqa: E402
from test_suite_params import reported_median_ns  # noqa: E402

#: The wall time each spin lasts, in seconds.
SPIN = 1e-3
#: A short measurement's flags.
SHORT = ["--budget", "0.1", "--warmup", "0.02", "--counters", "none"]


def spin() -> None:
    """Busy for at least ``SPIN`` seconds of wall time."""
    end = time.perf_counter() + SPIN
    while time.perf_counter() < end:
        pass


def by_hand() -> int:
    suite.pause()
    spin()
    suite.resume()
    return 1


def by_guard() -> int:
    with suite.paused():
        spin()
    return 1


def medians(document: dict) -> dict:
    return {c["name"]: reported_median_ns(c["result"]) for c in document["commands"]}


def test_pause_and_resume_leave_a_spin_out_of_the_time_and_a_timed_spin_is_counted(tmp_path):
    with Suite("pauses") as s:
        s.add("by hand", by_hand)
        s.add("by guard", by_guard)
        s.add("timed", spin)
        assert s.main([*SHORT, "--out", str(tmp_path)]) == 0
    m = medians(json.loads((tmp_path / "pauses" / "results.json").read_text()))
    assert m["timed"] >= SPIN * 1e9, m
    assert m["by hand"] < SPIN * 1e9 / 10, m
    assert m["by guard"] < SPIN * 1e9 / 10, m


PEDANTIC = '''
import time


def spin():
    end = time.perf_counter() + 1e-3
    while time.perf_counter() < end:
        pass


def setup():
    spin()
    return ([3, 1, 2],), {}


def test_setup_and_teardown(benchmark):
    assert benchmark.pedantic(sorted, setup=setup, teardown=lambda xs: spin()) == [1, 2, 3]


def test_timed(benchmark):
    benchmark(spin)
'''


def test_pedantic_setup_and_teardown_run_untimed(tmp_path):
    folder = tmp_path / "pedantic"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_pedantic.py").write_text(PEDANTIC)
    r = pytest_in(folder, "--picollo-bench", *TINY)
    assert r.returncode == 0, text(r)
    results = folder / ".picollo" / "pytest" / "results.json"
    m = medians(json.loads(results.read_text()))
    timed, untimed = (m[f"test_pedantic.py::test_{n}"] for n in ("timed", "setup_and_teardown"))
    assert timed >= SPIN * 1e9, m
    assert untimed < SPIN * 1e9 / 10, m
