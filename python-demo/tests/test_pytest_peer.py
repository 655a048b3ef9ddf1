"""A test file written for pytest-benchmark (peer_sample.py, copied as test_peer.py with a
pytest.ini whose addopts hold ``--benchmark-disable --strict-markers``) run unchanged under
Picollo's plugin: as tests, measured, with pytest-benchmark's options; its misuse refused
with pytest-benchmark's kind of error; and, where pytest-benchmark is installed too (it is
in python-demo/requirements.txt), Picollo's fixture owning the run and its workers by default
and pytest-benchmark's where ``--picollo-fixture=pytest-benchmark`` says so."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("suites exist on Linux only", allow_module_level=True)

from test_pytest_plugin import TINY, pytest_in, text  # noqa: E402

SAMPLE = Path(__file__).resolve().parent / "peer_sample.py"
INI = "[pytest]\naddopts = --benchmark-disable --strict-markers\n"
#: The sample's benchmarks, as the runner names them.
NAMES = ["test_peer.py::test_extra_info", "test_peer.py::test_group_marker",
         "test_peer.py::test_parametrized/16", "test_peer.py::test_parametrized/256",
         "test_peer.py::test_pedantic_with_arguments", "test_peer.py::test_pedantic_with_setup",
         "test_peer.py::test_plain_call", "test_peer.py::test_stats_after_the_call"]
PEER = importlib.util.find_spec("pytest_benchmark") is not None


def peer_checkout(root: Path, name: str, **files: str) -> Path:
    """A folder ``root/name`` holding the sample as test_peer.py, the pytest.ini, and
    ``files`` (name: text)."""
    folder = root / name
    folder.mkdir()
    (folder / "pytest.ini").write_text(INI)
    (folder / "test_peer.py").write_text(SAMPLE.read_text())
    for file, body in files.items():
        (folder / file).write_text(body)
    return folder


def test_a_pytest_benchmark_file_passes_unchanged_as_tests_each_called_once(tmp_path):
    head = peer_checkout(tmp_path, "head")
    log = tmp_path / "setups"
    r = pytest_in(head, PEER_LOG=str(log))
    assert r.returncode == 0 and "8 passed" in r.stdout, text(r)
    assert "picollo: exit status" not in r.stdout, text(r)
    assert log.read_text() == "setup\n"
    # The marker pytest-benchmark's tests carry is registered: --strict-markers passes.
    r = pytest_in(head, "-m", "benchmark")
    assert r.returncode == 0 and "1 passed, 7 deselected" in r.stdout, text(r)


def test_a_pytest_benchmark_file_is_measured_its_extra_info_and_group_in_the_json(tmp_path):
    head = peer_checkout(tmp_path, "head")
    log, out = tmp_path / "setups", tmp_path / "out.json"
    r = pytest_in(head, "--picollo-bench", *TINY, f"--benchmark-json={out}", PEER_LOG=str(log))
    assert r.returncode == 0, text(r)
    summary = r.stdout[r.stdout.index("picollo: exit status 0"):]
    measured = sorted(re.findall(r"^(test_peer\.py::\S+): time P50=", summary, re.M))
    assert measured == NAMES, text(r)
    # The marker's group, after the runner's lines: the benchmarks measured in it.
    assert re.search(r"^group sums: test_peer\.py::test_group_marker$", summary, re.M), text(r)
    assert summary.count("group ") == 1, text(r)
    # The test's setup, then one a call of the measurement.
    assert log.read_text().count("setup\n") > 10
    commands = {c["name"]: c for c in json.loads(out.read_text())["commands"]}
    assert sorted(commands) == NAMES
    assert commands["test_peer.py::test_extra_info"]["extraInfo"] == {"n": 64}
    assert commands["test_peer.py::test_group_marker"]["group"] == "sums"
    assert commands["test_peer.py::test_plain_call"]["group"] is None


STATS = """import time

import pytest

SPIN = 0.002


def spin():
    end = time.perf_counter() + SPIN
    while time.perf_counter() < end:
        pass
    return "spun"


def test_measured(benchmark):
    assert benchmark.stats is None
    assert benchmark(spin) == "spun"
    stats = benchmark.stats
    print("measured rounds:", stats["rounds"])
    assert stats is benchmark.stats
    for key in stats.stats.fields:
        assert stats[key] == getattr(stats.stats, key), key
    assert stats["rounds"] > 1 and stats["iterations"] == 1
    assert stats["min"] <= stats["q1"] <= stats["median"] <= stats["q3"] <= stats["max"]
    assert stats["ld15iqr"] <= stats["median"] <= stats["hd15iqr"]
    assert stats["iqr"] == pytest.approx(stats["q3"] - stats["q1"])
    # Every call spins SPIN by perf_counter: 1 % below it allows for the histogram's
    # precision (0.006 %), the clock reads the harness subtracts (tens of ns) and its tick
    # clock's frequency, estimated against CLOCK_MONOTONIC.
    for key in ("median", "mean"):
        assert 0.99 * SPIN <= stats[key] < 50 * SPIN, (key, stats[key])
    assert stats["ops"] == pytest.approx(1 / stats["mean"])
    assert stats["total"] == pytest.approx(stats["mean"] * stats["rounds"])
    assert stats["outliers"] == f"{stats['stddev_outliers']};{stats['iqr_outliers']}"
    assert 0 <= stats["iqr_outliers"] < stats["rounds"]
    with pytest.raises(AttributeError, match="keeps the samples in a histogram"):
        stats["data"]
    assert stats.get("data", "none") == "none"


@pytest.mark.benchmark(max_time=0.02)
def test_short(benchmark):
    benchmark.pedantic(spin, setup=lambda: None)
    print("short rounds:", benchmark.stats["rounds"])


def test_disabled(benchmark):
    assert benchmark(spin) == "spun"
    stats = benchmark.stats
    assert stats["rounds"] == 1 and stats["iterations"] == 1 and stats["data"] == [stats["min"]]
    assert SPIN <= stats["min"] == stats["median"] == stats["mean"] == stats["max"] < 50 * SPIN
"""


def stats_checkout(root: Path) -> Path:
    folder = root / "stats"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_stats.py").write_text(STATS)
    return folder


def test_stats_after_the_call_are_picollos_measurement_within_the_budget(tmp_path):
    folder = stats_checkout(tmp_path)
    r = pytest_in(folder, "-s", "-k", "not disabled", "--picollo-bench", *TINY)
    assert r.returncode == 0 and "2 passed" in r.stdout, text(r)
    # A sample spins at least SPIN of wall time, and sampling stops once the budget is
    # spent: at most budget / SPIN + 1 samples (--picollo-budget 0.1, the marker's 0.02).
    rounds = int(re.search(r"measured rounds: (\d+)", r.stdout).group(1))
    assert 1 < rounds <= 0.1 / 0.002 + 1, text(r)
    short = int(re.search(r"short rounds: (\d+)", r.stdout).group(1))
    assert 1 <= short <= 0.02 / 0.002 + 1, text(r)
    # The runner still measures both after the tests.
    summary = r.stdout[r.stdout.index("picollo: exit status 0"):]
    measured = sorted(re.findall(r"^(test_stats\.py::\S+): time P50=", summary, re.M))
    assert measured == ["test_stats.py::test_measured", "test_stats.py::test_short"], text(r)


def test_stats_under_benchmark_disable_hold_the_tests_call(tmp_path):
    folder = stats_checkout(tmp_path)
    r = pytest_in(folder, "-k", "disabled", "--benchmark-disable")
    assert r.returncode == 0 and "1 passed" in r.stdout, text(r)
    # (pytest-benchmark's plugin, where loaded, refuses it itself.)
    r = pytest_in(folder, "-p", "no:benchmark", "--benchmark-max-time=soon")
    assert r.returncode == 4, text(r)
    assert "--benchmark-max-time: a number of seconds above 0, not 'soon'" in r.stderr, text(r)


#: Samples in picoseconds whose quartiles lie inside runs of equal values (so that
#: pytest-benchmark's interpolated quartiles and the histogram's percentiles agree), with an
#: outlier below and two above the fences.
SAMPLES = [500] + [1000] * 30 + [1100] * 40 + [1200] * 30 + [5000] * 2


@pytest.mark.skipif(not PEER, reason="LOUD SKIP: pytest-benchmark is not installed (pip "
                    "install -r python-demo/requirements.txt): its figures are not compared")
def test_stats_of_a_histogram_are_pytest_benchmarks_figures_of_its_samples():
    from pytest_benchmark.stats import Stats as Peer

    from picollo import Histogram
    from picollo._pytest_stats import Stats

    h, peer = Histogram(relative_error=0.001), Peer()
    for v in SAMPLES:
        h.record(v)
        peer.update(v * 1e-12)
    ours = Stats.of_histogram(h)
    for field in Stats.fields:
        expected = getattr(peer, field)
        if isinstance(expected, float):  # to the histogram's precision, q3's for the iqr
            error = 2e-3 * (peer.q3 if field == "iqr" else expected)
            assert getattr(ours, field) == pytest.approx(expected, abs=error), field
        else:
            assert getattr(ours, field) == expected, field
    one = Stats.of_call(0.25)
    peer = Peer()
    peer.update(0.25)
    assert one.as_dict() == peer.as_dict() and one.data == [0.25]


def test_group_lines_name_each_groups_measured_benchmarks_both_sides_of_against_as_one():
    from picollo._pytest_peer import command_benchmark, group_lines

    document = {"commands": [{"name": "a (base)"}, {"name": "a (head)"}, {"name": "b"},
                             {"name": "c"}, {"name": "x (y) (head)"}]}
    groups = {"b": "g", "a": "g", "c": None, "d": "g", "e": "h", "x (y)": "f"}
    assert group_lines(document, groups) == ["group f: x (y)", "group g: a, b"]
    assert group_lines(None, groups) == []
    assert command_benchmark("a (head", {"a"}) is None
    assert command_benchmark("a (head)", {"b"}) is None


PLAIN = "def test_plain():\n    assert True\n"


def test_benchmark_skip_and_only_skip_the_tests_they_name(tmp_path):
    head = peer_checkout(tmp_path, "head", **{"test_plain.py": PLAIN})
    r = pytest_in(head, "--benchmark-skip")
    assert r.returncode == 0 and "1 passed, 8 skipped" in r.stdout, text(r)
    r = pytest_in(head, "--benchmark-only", "--benchmark-skip")
    assert r.returncode == 0 and "8 passed, 1 skipped" in r.stdout, text(r)


MISUSE = """import pytest


def test_rounds_zero(benchmark):
    benchmark.pedantic(sum, args=([1],), rounds=0)


def test_setup_iterations(benchmark):
    benchmark.pedantic(sum, setup=lambda: (([1],), {}), iterations=5)


def test_setup_and_args(benchmark):
    benchmark.pedantic(sum, args=([1],), setup=lambda: (([1],), {}))


@pytest.mark.benchmark(rounds=3)
def test_marker_keyword(benchmark):
    benchmark(sum, [1])


def test_called_twice(benchmark):
    benchmark(sum, [1])
    benchmark(sum, [1])


@pytest.mark.benchmark(max_time="soon")
def test_marker_max_time(benchmark):
    benchmark(sum, [1])
"""


def test_misuse_fails_with_pytest_benchmarks_kind_of_error(tmp_path):
    head = peer_checkout(tmp_path, "head", **{"test_misuse.py": MISUSE})
    r = pytest_in(head, "test_misuse.py", "--tb=line")
    assert r.returncode == 1 and "4 failed, 2 errors" in r.stdout, text(r)
    for expected in ("ValueError: benchmark.pedantic: rounds must be an int of at least 1, "
                     "not 0",
                     "ValueError: benchmark.pedantic: a setup function prepares one call, so "
                     "iterations must be 1 with it, not 5",
                     "TypeError: benchmark.pedantic: setup returned the arguments",
                     "ValueError: @pytest.mark.benchmark has no keyword 'rounds'",
                     "RuntimeError: test_misuse.py::test_called_twice: the benchmark fixture "
                     "measures one function a test",
                     "ValueError: @pytest.mark.benchmark(max_time=...): a number of seconds "
                     "above 0, not 'soon'"):
        assert expected in r.stdout, (expected, text(r))


def test_unknown_and_refused_benchmark_options_are_usage_errors_naming_them(tmp_path):
    head = peer_checkout(tmp_path, "head")
    r = pytest_in(head, "--benchmark-foo")
    assert r.returncode == 4 and "unrecognized arguments: --benchmark-foo" in r.stderr, text(r)
    r = pytest_in(head, "--benchmark-compare")
    assert r.returncode == 4, text(r)
    assert "--benchmark-compare: Picollo judges" in r.stderr, text(r)
    assert "--picollo-baseline NAME" in r.stderr, text(r)
    r = pytest_in(head, "--benchmark-compare-fail", "min:5%")
    assert r.returncode == 4 and "--picollo-args '--threshold PERCENT'" in r.stderr, text(r)
    # Accepted and ignored: pytest-benchmark's tuning of its own loop.
    r = pytest_in(head, "--benchmark-min-rounds=5", "--benchmark-warmup", "--benchmark-sort",
                  "mean", "--benchmark-columns=min,max")
    assert r.returncode == 0 and "8 passed" in r.stdout, text(r)
    # pytest-benchmark's fixture, where its plugin is blocked: nothing to hand it to.
    r = pytest_in(head, "-p", "no:benchmark", "--picollo-fixture=pytest-benchmark")
    assert r.returncode == 4, text(r)
    assert "pytest-benchmark's plugin is not loaded" in r.stderr, text(r)


OWNER = """def test_owner(benchmark):
    print("owner:", type(benchmark).__module__)
    benchmark(sum, [1])
"""


def owner(r) -> str:
    found = re.search(r"owner: (\S+)$", r.stdout, re.M)
    return found.group(1) if found else text(r)


@pytest.mark.skipif(not PEER, reason="LOUD SKIP: pytest-benchmark is not installed (pip "
                    "install -r python-demo/requirements.txt): coexistence is not tested")
def test_with_pytest_benchmark_installed_the_option_chooses_the_fixtures_owner(tmp_path):
    head = peer_checkout(tmp_path, "head", **{"test_owner.py": OWNER})
    r = pytest_in(head, "-s", "test_owner.py")
    assert r.returncode == 0 and owner(r) == "picollo._pytest_benchmark", text(r)
    assert "pytest-benchmark's plugin set aside" in r.stdout, text(r)
    r = pytest_in(head, "-s", "test_owner.py", "--picollo-fixture=pytest-benchmark")
    assert r.returncode == 0 and owner(r) == "pytest_benchmark.fixture", text(r)
    # The sample is a file of pytest-benchmark's own: it passes under it, measured there.
    r = pytest_in(head, "test_peer.py", "--picollo-fixture=pytest-benchmark",
                  "--benchmark-enable", "--benchmark-max-time=0.01", "--benchmark-min-rounds=1")
    assert r.returncode == 0 and "8 passed" in r.stdout and "OPS: " in r.stdout, text(r)
    r = pytest_in(head, "--picollo-fixture=pytest-benchmark", "--picollo-bench")
    assert r.returncode == 4 and "--picollo-fixture=picollo" in r.stderr, text(r)


@pytest.mark.skipif(not PEER, reason="LOUD SKIP: pytest-benchmark is not installed (pip "
                    "install -r python-demo/requirements.txt): coexistence is not tested")
def test_with_pytest_benchmark_installed_two_checkouts_are_compared(tmp_path):
    head, base = peer_checkout(tmp_path, "head"), peer_checkout(tmp_path, "base")
    # Both sides' workers run Picollo's fixture: without it they would register nothing
    # ("the two builds share no selected benchmark", exit 5).
    r = pytest_in(head, f"--picollo-against={base}", *TINY[:2], "--picollo-args",
                  TINY[3] + " --processes 1", "-k", "plain_call or setup or parametrized")
    assert r.returncode in (0, 7), text(r)
    verdicts = re.findall(r"^verdict: (?:.* )?(test_peer\.py::\S+) \(head\)", r.stdout, re.M)
    assert sorted(verdicts) == ["test_peer.py::test_parametrized/16",
                                "test_peer.py::test_parametrized/256",
                                "test_peer.py::test_pedantic_with_setup",
                                "test_peer.py::test_plain_call"], text(r)
