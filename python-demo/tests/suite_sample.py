"""The sample pytest suite that test_pytest_plugin.py runs (copied as test_sample.py into a
folder of its own, twice for --picollo-against): benchmarks through the plugin's fixture,
one renamed by its marker, one that raises, and a plain test. ``WORK`` scales the spin's
work (the slower copy raises it; ``SAMPLE_WORK`` multiplies it); ``SAMPLE_LOG`` names a
file that each call of ``counted`` adds a line to; ``SAMPLE_RAISE`` makes ``raises_later``
raise from its second call on, and ``raises_first`` on its first; ``SAMPLE_FAIL`` makes
``test_fails_after`` fail after its benchmark's call."""

import os

import pytest

WORK = 1


def spin(n):
    total = 0
    for i in range(n * WORK * int(os.environ.get("SAMPLE_WORK", "1"))):
        total += i
    return total


def counted():
    if "SAMPLE_LOG" in os.environ:
        with open(os.environ["SAMPLE_LOG"], "a") as log:
            log.write("call\n")


CALLS = [0]


def raises_later():
    CALLS[0] += 1
    if CALLS[0] > 1:
        raise ValueError(f"raised on call {CALLS[0]}")


def test_spin(benchmark):
    n = 2_000 * WORK * int(os.environ.get("SAMPLE_WORK", "1"))
    assert benchmark(spin, 2_000) == n * (n - 1) // 2


def test_sorted(benchmark):
    assert benchmark(sorted, [3, 1, 2], reverse=True) == [3, 2, 1]


@pytest.mark.picollo(name="counted calls")
def test_counted(benchmark):
    benchmark(counted)


@pytest.mark.skipif(not os.environ.get("SAMPLE_RAISE"), reason="SAMPLE_RAISE is not set")
def test_raises_later(benchmark):
    benchmark(raises_later)


@pytest.mark.skipif(not os.environ.get("SAMPLE_RAISE"), reason="SAMPLE_RAISE is not set")
def test_raises_first(benchmark):
    benchmark(int, "not a number")


@pytest.mark.skipif(not os.environ.get("SAMPLE_FAIL"), reason="SAMPLE_FAIL is not set")
def test_fails_after(benchmark):
    assert benchmark(spin, 10) == -1, "fails after its call"


def test_plain():
    assert sorted([2, 1]) == [1, 2]
