"""The pytest plugin (picollo.pytest_plugin) as its users run it: the sample suite
(suite_sample.py, copied as test_sample.py into folders of its own) run by pytest in a
process of its own: plain pytest runs each benchmark once; ``-k`` selects; ``--picollo-bench``
measures with the library's runner (its lines in the terminal summary, its results file);
a benchmark that raises fails with its message; ``--picollo-save`` and ``--picollo-baseline``
gate on runs apart; ``--picollo-against`` judges two checkouts, benchmark by benchmark; bad
input ends with a clear message and exit status.

Installed (run_tests.sh's wheel), pytest finds the plugin through its ``pytest11`` entry
point; from the checkout, ``-p picollo.pytest_plugin`` loads it. Timing bounds are stated
next to each assertion on the real machine (docs/testing.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("suites exist on Linux only", allow_module_level=True)

import picollo  # noqa: E402

INSTALLED = os.environ.get("PICOLLO_TEST_INSTALLED") == "1"
SAMPLE = Path(__file__).resolve().parent / "suite_sample.py"
#: A tiny measurement: 0.1 s a benchmark, time only.
TINY = ["--picollo-budget", "0.1", "--picollo-args", "--warmup 0.02 --counters none"]


def checkout(root: Path, name: str, work: int = 1) -> Path:
    """A folder ``root/name`` holding the sample suite (``WORK = work``) and a pytest.ini."""
    folder = root / name
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    text = SAMPLE.read_text().replace("\nWORK = 1\n", f"\nWORK = {work}\n")
    assert f"\nWORK = {work}\n" in text
    (folder / "test_sample.py").write_text(text)
    return folder


def pytest_in(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``python -m pytest ARGS`` in ``folder``, the plugin loaded (the entry point where
    installed), with ``env`` added; its output as text."""
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    environ.update(env)
    plugin = [] if INSTALLED else ["-p", "picollo.pytest_plugin"]
    if not INSTALLED:
        package = str(Path(picollo.__file__).resolve().parent.parent)
        environ["PYTHONPATH"] = os.pathsep.join(filter(None, [package,
                                                              environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugin,
                           *args], cwd=folder, env=environ, capture_output=True, text=True,
                          timeout=180)


def text(r: subprocess.CompletedProcess) -> str:
    return f"exit {r.returncode}\n{r.stdout}{r.stderr}"


def test_plain_pytest_runs_each_benchmark_once_and_measures_nothing(tmp_path):
    head = checkout(tmp_path, "head")
    log = tmp_path / "calls"
    r = pytest_in(head, "-k", "counted or plain", SAMPLE_LOG=str(log))
    assert r.returncode == 0, text(r)
    assert "2 passed" in r.stdout, text(r)
    assert "picollo: exit status" not in r.stdout, text(r)
    assert log.read_text() == "call\n"
    assert not (head / ".picollo").exists()
    # The marker is there for -m: every benchmark has it, the plain test does not.
    r = pytest_in(head, "-m", "not picollo")
    assert r.returncode == 0 and "1 passed" in r.stdout, text(r)


def test_a_measurement_prints_a_line_a_selected_benchmark_in_the_summary(tmp_path):
    head = checkout(tmp_path, "head")
    log = tmp_path / "calls"
    r = pytest_in(head, "--picollo-bench", *TINY, "-k", "spin or counted",
                  SAMPLE_LOG=str(log))
    assert r.returncode == 0, text(r)
    summary = r.stdout[r.stdout.index("picollo: exit status 0"):]
    assert re.search(r"^test_sample.py::test_spin: time P50=[0-9.]+ ", summary, re.M), text(r)
    assert re.search(r"^counted calls: time P50=[0-9.]+ ", summary, re.M), text(r)
    assert "test_sorted" not in summary, text(r)
    # The test's own call, then the measurement's: many more.
    assert log.read_text().count("call\n") > 10
    document = json.loads((head / ".picollo" / "pytest" / "results.json").read_text())
    names = sorted(c["name"] for c in document["commands"])
    assert names == ["counted calls", "test_sample.py::test_spin"], names


def test_a_benchmark_that_raises_fails_with_its_message_and_the_others_run(tmp_path):
    head = checkout(tmp_path, "head")
    r = pytest_in(head, "--picollo-bench", *TINY, "-k", "raises_later or sorted",
                  SAMPLE_RAISE="1")
    assert r.returncode == 6, text(r)
    assert re.search(r"^test_sample.py::test_raises_later: FAILED: .*ValueError: raised on "
                     r"call 2$", r.stdout, re.M), text(r)
    assert re.search(r"^test_sample.py::test_sorted: time P50=", r.stdout, re.M), text(r)
    # Raised by the test's own call: the test fails, as any test's exception does.
    r = pytest_in(head, "--picollo-bench", *TINY, "-k", "raises_first", SAMPLE_RAISE="1")
    assert r.returncode == 1, text(r)
    assert "ValueError: invalid literal for int()" in r.stdout, text(r)


def test_a_test_that_fails_after_its_call_is_not_measured(tmp_path):
    head = checkout(tmp_path, "head")
    r = pytest_in(head, "--picollo-bench", *TINY, "-k", "fails_after or sorted", SAMPLE_FAIL="1")
    # pytest's status: a test failed; the runner measured the other and passed.
    assert r.returncode == 1, text(r)
    assert "1 failed, 1 passed" in r.stdout, text(r)
    # The runner's lines: from its header to pytest's list of the failures.
    start = r.stdout.index("picollo: exit status 0")
    summary = r.stdout[start:r.stdout.index("short test summary info", start)]
    assert re.search(r"^test_sample.py::test_sorted: time P50=", summary, re.M), text(r)
    assert "test_fails_after" not in summary, text(r)
    document = json.loads((head / ".picollo" / "pytest" / "results.json").read_text())
    names = [c["name"] for c in document["commands"]]
    assert names == ["test_sample.py::test_sorted"], names
    # It failed on the assertion after the benchmark's call, which ran (and returned).
    assert "AssertionError: fails after its call" in r.stdout, text(r)


def test_picollo_args_takes_the_next_word_as_its_value_with_or_without_equals(tmp_path):
    head = checkout(tmp_path, "head")
    for spelling in (["--picollo-args", "--list"], ["--picollo-args=--list"]):
        # The words after the value are pytest's again: -k selects.
        r = pytest_in(head, "--picollo-bench", *spelling, "-k", "spin or sorted")
        assert r.returncode == 0, text(r)
        listed = [line for line in r.stdout.splitlines() if line.endswith(": benchmark")]
        assert listed == ["test_sample.py::test_spin: benchmark",
                          "test_sample.py::test_sorted: benchmark"], text(r)
    # A word after the value that pytest does not know is still refused.
    r = pytest_in(head, "--picollo-bench", "--picollo-args", "--list", "--nothere")
    assert r.returncode == 4 and "unrecognized arguments: --nothere" in r.stderr, text(r)
    # Without a word after it, the option is refused as any option missing its value.
    r = pytest_in(head, "--picollo-args")
    assert r.returncode == 4 and "expected one argument" in r.stderr, text(r)


def fnv1a64_share(name: str, n: int) -> int:
    """The share docs/suites.md states for ``--shard``, computed here apart from the runner:
    FNV-1a 64 of the name's UTF-8 bytes, modulo ``n``, plus one."""
    h = 0xCBF29CE484222325
    for byte in name.encode():
        h = ((h ^ byte) * 0x100000001B3) % 2**64
    return h % n + 1


def listed(r: subprocess.CompletedProcess) -> list[str]:
    return [line[:-len(": benchmark")] for line in r.stdout.splitlines()
            if line.endswith(": benchmark")]


def test_picollo_shard_lists_each_benchmark_in_exactly_one_share_as_the_rule_says(tmp_path):
    head = checkout(tmp_path, "head")
    r = pytest_in(head, "--picollo-bench", "--picollo-args", "--list", "-k", "not raises")
    assert r.returncode == 0, text(r)
    every = listed(r)
    assert len(every) == 3, text(r)
    shares = []
    for i in (1, 2, 3):
        r = pytest_in(head, "--picollo-bench", "--picollo-shard", f"{i}/3", "--picollo-args",
                      "--list", "-k", "not raises")
        assert r.returncode == 0, text(r)
        shares.append(listed(r))
        assert all(fnv1a64_share(n, 3) == i for n in shares[-1]), (i, shares[-1])
        # The runner's own flag through --picollo-args says the same.
        r = pytest_in(head, "--picollo-bench", "--picollo-args", f"--list --shard {i}/3",
                      "-k", "not raises")
        assert listed(r) == shares[-1], text(r)
    assert sorted(sum(shares, [])) == sorted(every), shares
    r = pytest_in(head, "--picollo-bench", "--picollo-shard", "4/3", "-k", "spin")
    assert r.returncode == 2 and "--shard <I/N>" in r.stdout + r.stderr, text(r)


def save_runs(head: Path, runs: int = 2) -> Path:
    """The spin saved as baseline ``main`` by ``runs`` runs apart; the file."""
    saved = head / ".picollo" / "baselines" / "main.json"
    for more in [[]] + [["--picollo-append"]] * (runs - 1):
        r = pytest_in(head, "--picollo-save", "main", *more, *TINY, "-k", "spin")
        assert r.returncode == 0, text(r)
        assert f"saved as baseline main: {saved}" in r.stdout, text(r)
    return saved


def test_functions_are_saved_run_apart_and_an_unknown_baseline_is_an_error(tmp_path):
    head = checkout(tmp_path, "head")
    saved = save_runs(head)
    runs = json.loads(saved.read_text())["commands"][0]["runsApart"]
    assert len(runs) == 2
    r = pytest_in(head, "--picollo-baseline", "nothere", *TINY, "-k", "spin")
    assert r.returncode == 3, text(r)
    assert "nothere.json: No such file or directory" in r.stdout, text(r)


@pytest.mark.machine
def test_a_function_much_slower_than_its_runs_apart_fails_the_baseline(tmp_path):
    head = checkout(tmp_path, "head")
    save_runs(head, 4)
    # The same function 1,000 times slower against its four runs apart: slower, exit 7. The
    # interval's half-width is t(3) x s x sqrt(1.25) = 6.5 s in log time against a change of
    # 6.9: correct code passes only where the runs apart spread by s > 1.06 (medians about 3x
    # apart), beyond this VM's 1.8x speed steps. (Two runs apart, t(1) = 63.7, held a
    # 164-fold change within their interval.)
    r = pytest_in(head, "--picollo-baseline", "main", *TINY, "-k", "spin", SAMPLE_WORK="1000")
    assert r.returncode == 7, text(r)
    assert "verdict: test_sample.py::test_spin is slower than" in r.stdout, text(r)


@pytest.mark.machine
def test_two_checkouts_are_judged_benchmark_by_benchmark_and_eight_times_the_work_is_slower(tmp_path):
    head, base = checkout(tmp_path, "head", work=8), checkout(tmp_path, "base")
    same = checkout(tmp_path, "same", work=8)
    # Eight times the spin's work in this checkout: slower, exit 7, beyond any speed step of
    # the machine in every round, not by odds (bench/tests/suite.rs, docs/testing.md).
    r = pytest_in(head, f"--picollo-against={base}", *TINY[:2], "--picollo-args",
                  TINY[3] + " --processes 1", "-k", "spin")
    assert r.returncode == 7, text(r)
    assert re.search(r"^verdict: test_sample.py::test_spin \(head\) is slower than "
                     r"test_sample.py::test_spin \(base\) by", r.stdout, re.M), text(r)
    assert r.stdout.count("verdict: ") == 1, text(r)
    # Identical checkouts, 4 runs of 2 benchmarks: two processes' interleaved rounds, where
    # correct code calls a comparison different with P <= 0.25 (each process keeps its own
    # placement; docs/testing.md), so calls all 8 different with P = 1.5e-5 (binomial); a
    # broken method calls them all. The exact rate is the simulated machine's test
    # (bench/tests/verdicts.rs).
    different = 0
    for _ in range(4):
        r = pytest_in(head, f"--picollo-against={same}", *TINY, "-k", "spin or sorted")
        assert r.returncode in (0, 7), text(r)
        verdicts = re.findall(r"^verdict: .*$", r.stdout, re.M)
        assert len(verdicts) == 2, text(r)
        # "not settled" claims no difference and none: only slower or faster is one.
        different += sum(" is slower than " in v or " is faster than " in v for v in verdicts)
    print(f"bench suites (pytest): identical checkouts called different in {different} of 8")
    assert different <= 7, different


def test_bad_input_is_a_clear_error_with_an_exit_status(tmp_path):
    head = checkout(tmp_path, "head")
    missing = tmp_path / "nothere"
    r = pytest_in(head, f"--picollo-against={missing}")
    assert r.returncode == 4 and "not a folder" in r.stderr, text(r)
    # Two words: pytest reads the folder as a test path before it knows the plugin's options.
    base = checkout(tmp_path, "base")
    r = pytest_in(head, "--picollo-against", str(base))
    assert r.returncode == 4, text(r)
    assert f"write --picollo-against={base}" in r.stderr, text(r)
    # The other checkout's interpreter does not start: its worker exits (exit 9).
    r = pytest_in(head, f"--picollo-against={base}", "--picollo-against-python",
                  str(missing / "python"), *TINY, "-k", "spin")
    assert r.returncode == 9, text(r)
    # (The head's workers, stopped, may end pytest's progress line just before it.)
    assert re.search(r"error: base: the worker .*exit status: 127$", r.stdout, re.M), text(r)
    assert "nothere/python: not found" in r.stdout, text(r)
    # The other checkout lacks the benchmarks selected (exit 5).
    (base / "test_sample.py").unlink()
    r = pytest_in(head, f"--picollo-against={base}", *TINY, "-k", "spin")
    assert r.returncode == 5, text(r)
    assert "the two builds share no selected benchmark" in r.stdout, text(r)
    r = pytest_in(head, "--picollo-bench", "--picollo-args", "--budgte 1", "-k", "spin")
    assert r.returncode == 2 and "error: unknown flag --budgte" in r.stdout, text(r)
    r = pytest_in(head, "--picollo-bench", "--picollo-args=--help", "-k", "spin")
    assert r.returncode == 0 and "--threshold <PERCENT>" in r.stdout, text(r)
    r = pytest_in(head, "--picollo-worker")
    assert r.returncode == 4 and "python -m picollo.suite_worker" in r.stderr, text(r)
    r = subprocess.run([sys.executable, "-c", "import sys; from picollo.suite_worker import "
                        "main; sys.exit(main([]))"], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(Path(picollo.__file__).parent.parent)})
    assert r.returncode == 2 and "--picollo-worker" in r.stderr, text(r)
