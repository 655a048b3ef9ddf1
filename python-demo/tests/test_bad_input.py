"""Every bad input of the issue, plus Python's own: an exception, never a crash."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import picollo
from picollo import InvalidArgumentError, PicolloError, Status


@pytest.mark.parametrize("relative_error", [0, 0.0, -0.01, -1, math.nan, math.inf, -math.inf])
def test_bad_relative_error(relative_error):
    with pytest.raises(InvalidArgumentError) as e:
        picollo.Histogram(relative_error=relative_error)
    assert e.value.status == Status.INVALID_ARGUMENT
    assert "relative error" in e.value.message.lower()
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(("relative_error", "shown"), [(-1e300, "-1e300"), (-5e-324, "-5e-324"),
                                                   (-0.001, "-0.001")])
def test_numbers_in_messages_are_compact(relative_error, shown):
    with pytest.raises(InvalidArgumentError) as e:
        picollo.Histogram(relative_error=relative_error)
    assert e.value.message.startswith(f"relative error {shown} is invalid"), e.value.message
    assert len(e.value.message) < 200


@pytest.mark.parametrize("relative_error", [1e-9, 0.5, 1.0])
def test_out_of_band_relative_error_is_clamped(relative_error):
    with picollo.Histogram(relative_error=relative_error, max=10**6) as h:
        assert 0.5e-6 <= h.precision <= 0.1


def test_relative_error_must_be_a_number():
    for bad in ("0.01", None, [0.01], True):
        with pytest.raises(TypeError):
            picollo.Histogram(relative_error=bad)


def test_min_above_max():
    with pytest.raises(InvalidArgumentError, match="min"):
        picollo.Histogram(min=1000, max=999)
    with picollo.Histogram(min=1000, max=1000) as h:  # a single value is a valid range
        h.record(1000)
        assert h.total == 1


@pytest.mark.parametrize("kw", [{"max": 2**64}, {"max": 2**100}, {"min": -1}, {"min": 2**64}])
def test_range_beyond_u64(kw):
    with pytest.raises(ValueError, match="2\\*\\*64"):
        picollo.Histogram(**kw)


@pytest.mark.parametrize("kw", [{"counter_bits": 16}, {"counter_bits": 0}, {"counter_bits": 2**40},
                                {"value_selection": "median"}, {"value_selection": 7}])
def test_bad_counter_bits_and_selection(kw):
    with pytest.raises(ValueError):
        picollo.Histogram(**kw)


def test_bad_value_selection_setter():
    with picollo.Histogram() as h:
        with pytest.raises(ValueError):
            h.value_selection = "mean"
        assert h.value_selection == "midpoint"


@pytest.fixture
def h():
    with picollo.Histogram() as h:
        h.record_many([1, 2, 3, 1000])
        yield h


@pytest.mark.parametrize("rank", [-0.001, -1, 100.0001, 101, 1e300, math.nan, math.inf, -math.inf])
def test_bad_rank(h, rank):
    with pytest.raises(InvalidArgumentError) as e:
        h.percentile(rank)
    assert e.value.status == Status.INVALID_ARGUMENT
    assert e.value.message.startswith("rank ")
    assert len(e.value.message) < 200, e.value.message  # 1e300, not 301 digits
    with pytest.raises(InvalidArgumentError):
        h.percentiles([10, rank] if rank > 10 or math.isnan(rank) else [rank, 10])
    with pytest.raises(InvalidArgumentError):
        h.percentile_values([rank])


@pytest.mark.parametrize("ranks", [[50, 50], [99, 50], [0, 100, 99.9], [10, math.nan, 20]])
def test_ranks_not_strictly_increasing(h, ranks):
    with pytest.raises(InvalidArgumentError) as e:
        h.percentiles(ranks)
    assert e.value.message


@pytest.mark.parametrize("ranks", ["50", 50, None, [50, "99"], [None]])
def test_ranks_of_wrong_type(h, ranks):
    with pytest.raises(TypeError):
        h.percentiles(ranks)


def test_rank_of_wrong_type(h):
    for bad in ("50", None, [50], complex(1, 1)):
        with pytest.raises(TypeError):
            h.percentile(bad)


@pytest.mark.parametrize("value", [-1, 2**64, 2**70, -(2**63)])
def test_values_outside_u64(h, value):
    before = h.summary().json()
    with pytest.raises(ValueError):
        h.record(value)
    with pytest.raises(ValueError):
        h.record(5, value)
    with pytest.raises(ValueError):
        h.record_n(value, 1)
    with pytest.raises(ValueError):
        h.record_corrected(value, 10)
    with pytest.raises(ValueError):
        h.record_many([10, 20, value])  # checked first: nothing recorded
    assert h.summary().json() == before


@pytest.mark.parametrize("value", [1.5, 2.0, math.nan, math.inf, "7", None, b"\x01", [1]])
def test_values_that_are_not_integers(h, value):
    before = h.summary().json()
    with pytest.raises(TypeError):
        h.record(value)
    with pytest.raises(TypeError):
        h.record_many([10, value])
    assert h.summary().json() == before


def test_record_many_refuses_non_integer_containers(h):
    for bad in ("123", b"123", 5, np.array([1.0, 2.0]), np.array([True])):
        with pytest.raises(TypeError):
            h.record_many(bad)
    with pytest.raises(ValueError):
        h.record_many(np.array([5, -1], dtype=np.int64))
    assert h.total == 4


def test_record_n_zero_and_huge():
    with picollo.Histogram(counter_bits=64) as h:
        h.record_n(10, 0)
        h.record(10, 0)
        assert (h.total, h.saturated) == (0, 0)
        h.record_n(10, 2**64 - 1)
        assert h.total == 2**64 - 1
        h.record_n(10, 5)  # the bucket is full: the excess is counted, not lost
        assert h.saturated == 5
        assert h.bucket(10).count == 2**64 - 1
        s = h.summary()
        assert s.p(50).value == 10 and s.total == 2**64 - 1
        assert "18,446,744,073,709,551,615" in str(h)
    with picollo.Histogram(counter_bits=32) as h:
        h.record_n(10, 2**64 - 1)
        assert h.bucket(10).count == 2**32 - 1
        assert h.saturated == 2**64 - 1 - (2**32 - 1)


def test_text_arguments(h):
    with pytest.raises(ValueError):
        h.table("a\0b")
    with pytest.raises(TypeError):
        h.table(42)
    with pytest.raises(TypeError):
        h.summary().line(b"name")


def test_context_manager_closes_and_use_after_close_raises():
    with picollo.Histogram() as h:
        h.record(1)
        snap = h.snapshot()
    assert h.closed
    calls = [
        lambda: h.record(1), lambda: h.record(1, 2), lambda: h.record_n(1, 2),
        lambda: h.record_corrected(5, 1), lambda: h.record_many([1]), lambda: h.reset(),
        lambda: h.total, lambda: h.percentile(50), lambda: h.percentiles([50]),
        lambda: h.summary(), lambda: str(h), lambda: list(h), lambda: list(h.buckets()),
        lambda: h.snapshot(), lambda: h.add(h), lambda: snap.update(),
        lambda: h.__enter__(),
    ]
    for call in calls:
        with pytest.raises(picollo.ClosedError) as e:
            call()
        assert isinstance(e.value, PicolloError) and isinstance(e.value, ValueError)
    assert repr(h) == "<Histogram closed>"
    h.close()  # idempotent
    assert snap.total == 1  # the snapshot owns its copy
    snap.close()
    with pytest.raises(picollo.ClosedError):
        snap.summary()


def test_close_during_iteration_raises():
    h = picollo.Histogram()
    h.record_many([1, 2, 3])
    it = iter(h)
    next(it)
    h.close()
    with pytest.raises(picollo.ClosedError):
        next(it)


def test_garbage_collection_frees_without_close():
    for _ in range(200):
        h = picollo.Histogram(relative_error=0.0001)
        h.record(5)
        s = h.snapshot()
        del h, s
    gc.collect()


def test_errors_carry_status_and_library_message():
    with picollo.Histogram() as h:
        with pytest.raises(PicolloError) as e:
            h.percentile(50)
    err = e.value
    assert err.status == Status.EMPTY
    assert "no value" in err.message
    assert str(err).startswith("EMPTY: ")
    assert picollo.status_str(Status.EMPTY) == "the histogram holds no value in its range"
    assert picollo.status_str(999) == "unknown status"


_OOM_CHILD = r"""
import resource, sys
import picollo
# Room for what the process maps now plus 64 MiB: not for the finest full-range
# histogram (about 190 MB of u64 counters).
with open("/proc/self/status") as f:
    vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (vm + (64 << 20), hard))
try:
    picollo.Histogram(relative_error=1e-6, mode=sys.argv[1])
except picollo.OutOfMemoryError as e:
    assert e.status == picollo.Status.OUT_OF_MEMORY, e.status
    assert isinstance(e, MemoryError)
    assert "out of memory" in e.message and "bytes" in e.message, e.message
    # The process goes on: a small histogram still works.
    with picollo.Histogram(max=1000) as h:
        h.record(5)
        assert h.total == 1
    print("refused:", e.message)
    sys.exit(0)
print("allocated?!")
sys.exit(3)
"""


@pytest.mark.parametrize("mode", ["single_writer", "interlocked", "thread-local"])
def test_a_histogram_too_large_for_the_address_space_is_an_error_not_an_abort(mode):
    """Under RLIMIT_AS, creating a 1e-6 full-range histogram (hundreds of MiB) fails with
    OUT_OF_MEMORY and the process carries on (it used to abort)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(picollo.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    r = subprocess.run([sys.executable, "-c", _OOM_CHILD, mode], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "refused: out of memory" in r.stdout
