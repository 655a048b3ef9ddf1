"""Shared fixtures: the package under test, the getting-started data and histogram."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

PYTHON_DEMO = Path(__file__).resolve().parent.parent

# The package under test: an installed one when there is one (run_tests.sh installs the
# wheel it builds into a fresh venv and runs from outside python-demo/), else the source
# next to these tests with the workspace's libpicollo (a checkout, nothing installed).
try:
    import picollo
except ImportError:
    sys.path.insert(0, str(PYTHON_DEMO))
    import picollo

# demo.py, for the getting-started data; importing it puts python-demo/ on sys.path, which
# no longer matters: `picollo` is imported above.
sys.path.append(str(PYTHON_DEMO))
import demo  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "machine: a statistical experiment on the real machine's clock, bounded so "
        "that correct code fails it with P <= 1e-4 (docs/testing.md); skipped where "
        "PICOLLO_NO_TIMING_CHECKS is set (a second run of the same suite)")


def shard(config, items):
    """PICOLLO_TEST_SHARD=I/N keeps every Nth test from the Ith of those selected (after
    ``-m``), so that N pytest processes side by side run each test once (run_tests.sh runs
    the tests that time nothing as two such halves); the others are deselected."""
    spec = os.environ.get("PICOLLO_TEST_SHARD")
    if not spec:
        return
    index, _, count = spec.partition("/")
    if not (index.isdigit() and count.isdigit() and int(index) < int(count)):
        raise pytest.UsageError(f"PICOLLO_TEST_SHARD={spec!r}: expected I/N with 0 <= I < N")
    i, n = int(index), int(count)
    config.hook.pytest_deselected(items=[t for j, t in enumerate(items) if j % n != i])
    items[:] = items[i::n]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    shard(config, items)
    if not os.environ.get("PICOLLO_NO_TIMING_CHECKS"):
        return
    skip = pytest.mark.skip(reason="PICOLLO_NO_TIMING_CHECKS: the real machine's timing is "
                            "checked in another run of this suite (docs/testing.md)")
    for item in items:
        if "machine" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def getting_started_values() -> np.ndarray:
    """The first distribution of the Picollo .NET announcement, 1,000,000 values (numpy, seed 0)."""
    return demo.first_distribution(np.random.default_rng(0), 1_000_000)


@pytest.fixture(scope="session")
def mixed_values() -> np.ndarray:
    """30,000 uint64 values for the queries by value, rebinning and steps: 12,000 below
    1024 (the width-1 buckets at the default 0.1 %, many repeated), 12,000 log-normal up to
    about 10**10, 6,000 spread over 2**20 .. 2**64 - 1, and the edges 0, 1023, 1024, 1025,
    2**63, 2**64 - 2 and 2**64 - 1. No value repeats 8,192 times, so the approximate mode
    counts them exactly."""
    rng = np.random.default_rng(17)
    small = np.concatenate([rng.geometric(0.01, 8_000) - 1, rng.integers(0, 1024, 4_000)])
    medium = np.rint(rng.lognormal(10.0, 2.5, 12_000))
    large = 2.0 ** rng.uniform(20.0, 63.9, 6_000)
    edges = [0, 1023, 1024, 1025, 2**63, 2**64 - 2, 2**64 - 1]
    values = np.concatenate([small.astype(np.uint64), medium.astype(np.uint64),
                             large.astype(np.uint64), np.array(edges, dtype=np.uint64)])
    return rng.permutation(values)


@pytest.fixture
def getting_started(getting_started_values):
    """relative error 1 %, u32, 10,000..30,000, the million values and one 40,000."""
    with picollo.Histogram(relative_error=0.01, counter_bits=32, min=10_000, max=30_000) as h:
        h.record_many(getting_started_values)
        h.record(40_000)
        yield h


U64_MAX = 2**64 - 1

# Every counter width and concurrency mode of the integer histogram, as fixture params.
BITS_AND_MODES = [pytest.param((bits, mode), id=f"u{bits}-{mode}")
                  for bits in (32, 64) for mode in picollo.MODES]


def recorded_histogram(bits_and_mode: tuple[int, str], values: np.ndarray):
    """A fixture's body: yields a Histogram of these counter bits and mode holding values,
    and closes it after the test."""
    bits, mode = bits_and_mode
    with picollo.Histogram(counter_bits=bits, mode=mode) as h:
        h.record_many(values)
        yield h


def signed_doubles(seed: int, sd: float, n_normal: int, n_wide: int,
                   extra: list[np.ndarray]) -> np.ndarray:
    """n_normal values of N(0, sd), n_wide of both signs with magnitudes log-uniform over
    1e-30 .. 1e30, then the extra arrays, shuffled (one generator of this seed)."""
    rng = np.random.default_rng(seed)
    values = np.concatenate([
        rng.normal(0.0, sd, n_normal),
        rng.choice([-1.0, 1.0], n_wide) * 10.0 ** rng.uniform(-30.0, 30.0, n_wide),
        *extra,
    ])
    return rng.permutation(values)


def pytest_report_header(config) -> list[str]:
    """Say up front which picollo and libpicollo are tested, and whether the hdrh peer
    tests (test_hdrh_peer.py) can run."""
    lines = [f"picollo from {Path(picollo.__file__).parent}, libpicollo {picollo._lib._name}"]
    try:
        from importlib.metadata import version

        import hdrh  # noqa: F401
        lines.append(f"hdrh {version('hdrhistogram')}: the peer tests run")
    except Exception as e:  # any reason it is missing is worth printing
        lines.append(f"hdrh NOT AVAILABLE ({type(e).__name__}: {e}): test_hdrh_peer.py is "
                     "SKIPPED; pip install -r python-demo/requirements.txt")
    return lines


def expected_rank_count(rank: float, total: int) -> int:
    """The library's target count: ceil(rank / 100 × total) with ranks at 1e-9 resolution,
    clamped to [1, total]."""
    scaled = round(rank * 1_000_000_000)
    target = -(-(scaled * total) // (100 * 1_000_000_000))
    return min(max(target, 1), max(total, 1))


def buckets(h) -> list[tuple[int, int, int]]:
    """A histogram's non-empty buckets as ``(lower, highest, count)``."""
    return [(b.lower, b.highest, b.count) for b in h]
