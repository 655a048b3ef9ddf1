"""A test file written for pytest-benchmark, which test_pytest_peer.py runs unchanged under
Picollo's plugin (copied as test_peer.py into a folder of its own, with a pytest.ini whose
addopts hold ``--benchmark-disable --strict-markers``): a plain call, ``pedantic`` with
arguments, rounds and iterations, ``pedantic`` with a setup function, ``extra_info``,
``stats`` read after the call, the ``benchmark`` marker's group, and a parametrized test.
``WORK`` scales the spin's work (the slower copy raises it); ``PEER_LOG`` names a file that
each setup call adds a line to."""

import os

import pytest

WORK = 1


def spin(n):
    total = 0
    for i in range(n * WORK):
        total += i
    return total


def test_plain_call(benchmark):
    assert benchmark(spin, 1_000) == sum(range(1_000 * WORK))


def test_pedantic_with_arguments(benchmark):
    result = benchmark.pedantic(sorted, args=([3, 1, 2],), kwargs={"reverse": True},
                                rounds=10, iterations=5)
    assert result == [3, 2, 1]


def make_list():
    if "PEER_LOG" in os.environ:
        with open(os.environ["PEER_LOG"], "a") as log:
            log.write("setup\n")
    return ([5, 4, 3, 2, 1],), {}


def test_pedantic_with_setup(benchmark):
    assert benchmark.pedantic(sorted, setup=make_list, rounds=3) == [1, 2, 3, 4, 5]


def test_extra_info(benchmark):
    benchmark.extra_info["n"] = 64
    assert benchmark(bytes, 64) == bytes(64)
    assert benchmark.extra_info == {"n": 64}


def test_stats_after_the_call(benchmark):
    benchmark(spin, 100)
    stats = benchmark.stats
    assert stats["rounds"] >= 1
    assert 0 < stats["min"] <= stats["mean"] <= stats["max"]
    assert stats.stats.median == stats["median"] and stats["ops"] > 0


@pytest.mark.benchmark(group="sums", min_rounds=5, warmup=False, disable_gc=True)
def test_group_marker(benchmark):
    assert benchmark(sum, range(100)) == 4950
    assert benchmark.group == "sums"


@pytest.mark.parametrize("n", [16, 256])
def test_parametrized(benchmark, n):
    assert len(benchmark(bytearray, n)) == n
