"""Benchmarks of a parameter and a throughput in Python: `picollo.suite.Suite`'s
``add_param`` and ``set_throughput``, and the pytest plugin's parametrized tests and
``benchmark.set_throughput``. Each parameter is a benchmark of its own, named ``name/param``
by the library, listed, filtered and run once; measured, its line and its JSON carry the
library's rate, checked here against the median time the same JSON reports. Bad input raises
the library's message, and fails a pytest test whether or not the suite measures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("suites exist on Linux only", allow_module_level=True)

from picollo import PicolloError  # noqa: E402
from picollo.suite import Suite  # noqa: E402

from test_pytest_plugin import TINY, pytest_in, text  # noqa: E402

#: A short measurement's flags.
SHORT = ["--budget", "0.1", "--warmup", "0.02", "--counters", "none"]


def zeros_suite() -> Suite:
    """``zeros/64`` and ``zeros/4096`` (``bytes(n)``, n bytes a call) and ``sum`` (1,000
    elements a call)."""
    s = Suite("params")
    for n in (64, 4096):
        s.add_param("zeros", n, bytes, n)
        s.set_throughput("zeros", "bytes", n, param=n)
    s.add("sum", sum, range(1_000))
    s.set_throughput("sum", "elements", 1_000)
    return s


def reported_median_ns(result: dict) -> float:
    """The P50 of time per operation, in ns, as the result's JSON summary reports it."""
    time = result["metrics"][0]
    assert time["name"] == "time"
    (p50,) = [p for p in time["summary"]["percentiles"] if p["rank"] == 50]
    return p50["value"] / result["scale"]


def check_rates(doc: dict, out: str, want: dict) -> None:
    """Each result named in ``want`` has its throughput (unit, per operation) and the rate
    at its reported median, shown in its line."""
    results = {c["name"]: c["result"] for c in doc["commands"]}
    for name, (unit, n) in want.items():
        t = results[name]["throughput"]
        assert (t["unit"], t["perOperation"]) == (unit, n), t
        expected = n / (reported_median_ns(results[name]) * 1e-9)
        assert t["perSecond"] == pytest.approx(expected, rel=1e-12)
        (line,) = [ln for ln in out.splitlines() if ln.startswith(f"{name}: time P50=")]
        assert " at P50" in line, line


def test_each_parameter_is_a_benchmark_listed_filtered_and_run_once(capfd):
    with zeros_suite() as s:
        assert s.main(["--list"]) == 0
        assert capfd.readouterr().out == (
            "zeros/64: benchmark\nzeros/4096: benchmark\nsum: benchmark\n")
        assert s.main(["--test", "--exact", "zeros/4096"]) == 0
        assert capfd.readouterr().out == (
            "bench zeros/4096 ... ok\nbench result: 1 ran once, 0 failed\n")


#: The throughputs of ``zeros_suite``'s benchmarks.
ZEROS_WANT = {"zeros/64": ("bytes", 64), "zeros/4096": ("bytes", 4096),
              "sum": ("elements", 1_000)}


def test_a_measurement_carries_the_librarys_rate_at_the_reported_median(capfd, tmp_path):
    # Google Benchmark's file of the same run is checked in test_ci_formats.py (its checker
    # needs Python 3.10).
    with zeros_suite() as s:
        assert s.main([*SHORT, "--out", str(tmp_path)]) == 0
    out = capfd.readouterr().out
    doc = json.loads((tmp_path / "params" / "results.json").read_text())
    check_rates(doc, out, ZEROS_WANT)


@pytest.mark.parametrize("unit, n, name, param, message", [
    ("bits", 8, "sum", None, 'unknown throughput unit "bits": the units are elements, bytes'),
    ("bytes", 0, "sum", None, "a throughput of 0 bytes per operation"),
    ("bytes", 8, "nothing", None, 'throughput of "nothing": no benchmark of that name'),
    ("bytes", 8, "zeros", 65, 'throughput of "zeros/65": no benchmark of that name'),
])
def test_a_bad_throughput_raises_the_librarys_message(unit, n, name, param, message):
    with zeros_suite() as s:
        with pytest.raises(PicolloError, match=message):
            s.set_throughput(name, unit, n, param=param)
        with pytest.raises(ValueError):
            s.set_throughput("sum", "bytes", -1)
        with pytest.raises(TypeError):
            s.add_param("zeros", 1, "not callable")


PARAMETRIZED = '''
import pytest


@pytest.mark.parametrize("n", [64, 4096])
def test_zeros(benchmark, n):
    benchmark.set_throughput("bytes", n)
    assert benchmark(bytes, n) == bytes(n)


@pytest.mark.picollo(name="sum")
def test_sum(benchmark):
    assert benchmark(sum, range(1_000)) == 499_500
    benchmark.set_throughput("elements", 1_000)
'''


BAD_THROUGHPUTS = '''
def test_unit(benchmark):
    benchmark.set_throughput("bits", 8)
    benchmark(sum, range(10))


def test_zero(benchmark):
    benchmark(sum, range(10))
    benchmark.set_throughput("bytes", 0)


def test_good(benchmark):
    benchmark.set_throughput("elements", 10)
    assert benchmark(sum, range(10)) == 45
'''


def test_a_bad_throughput_fails_its_test_with_the_librarys_message_even_unmeasured(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_bad.py").write_text(BAD_THROUGHPUTS)
    for measure in ([], ["--picollo-bench", *TINY]):
        r = pytest_in(folder, *measure)
        assert r.returncode == 1 and "2 failed, 1 passed" in r.stdout, text(r)
        assert 'unknown throughput unit "bits": the units are elements, bytes' in r.stdout, \
            text(r)
        assert "a throughput of 0 bytes per operation" in r.stdout, text(r)


def test_a_parametrized_test_is_a_benchmark_a_parameter_named_test_slash_id(tmp_path):
    folder = tmp_path / "params"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_params.py").write_text(PARAMETRIZED)
    r = pytest_in(folder)
    assert r.returncode == 0 and "3 passed" in r.stdout, text(r)
    r = pytest_in(folder, "--picollo-bench", *TINY, "-k", "zeros or sum")
    assert r.returncode == 0, text(r)
    doc = json.loads((folder / ".picollo" / "pytest" / "results.json").read_text())
    names = [c["name"] for c in doc["commands"]]
    assert names == ["test_params.py::test_zeros/64", "test_params.py::test_zeros/4096",
                     "sum"], names
    check_rates(doc, r.stdout, {names[0]: ("bytes", 64), names[1]: ("bytes", 4096),
                                "sum": ("elements", 1_000)})
