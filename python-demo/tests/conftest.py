"""Shared fixtures: the package under test, the getting-started data and histogram."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def getting_started_values() -> np.ndarray:
    """The seed's first distribution, 1,000,000 values (numpy, seed 0)."""
    return demo.first_distribution(np.random.default_rng(0), 1_000_000)


@pytest.fixture
def getting_started(getting_started_values):
    """relative error 1 %, u32, 10,000..30,000, the million values and one 40,000."""
    with picollo.Histogram(relative_error=0.01, counter_bits=32, min=10_000, max=30_000) as h:
        h.record_many(getting_started_values)
        h.record(40_000)
        yield h


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
