"""FloatHistogram's Python surface: what record, record_f32, record_n and record_many take
and refuse, the properties, merging, copies, reset, value selection, configuration errors
and closed histograms."""

from __future__ import annotations

import array
import decimal
import fractions
import math
import sys

import numpy as np
import pytest

import picollo
from picollo import ClosedError, EmptyHistogramError, InvalidArgumentError, LayoutMismatchError

DBL_MAX = sys.float_info.max


def recorded(h: picollo.FloatHistogram) -> list[tuple[float, int]]:
    """(lowest value, count) of each bucket: what a histogram holds, to compare two."""
    return [(b.lowest, b.count) for b in h]


# --- record ------------------------------------------------------------------------------


def test_record_takes_floats_ints_and_numpy_scalars_exactly():
    with picollo.FloatHistogram(0.01) as h:
        for x in (2.5, 3, np.float64(-1.25), np.float32(0.1), np.int64(-7), 10**20,
                  fractions.Fraction(1, 3), decimal.Decimal("0.75")):
            h.record(x)
        assert h.total == 8
        assert h.min == -7.0 and h.max == 1e20
        assert math.isclose(h.sum, 2.5 + 3 - 1.25 + float(np.float32(0.1)) - 7 + 1e20 + 1 / 3 + 0.75)


def test_record_counts_and_record_n():
    with picollo.FloatHistogram(0.01, counter_bits=32) as h:
        h.record(1.5, 3)
        h.record(1.5, count=0)
        h.record_n(-2.0, 4)
        h.record_n(np.nan, 2)
        assert (h.total, h.nan) == (7, 2)
        assert h.sum == 3 * 1.5 - 4 * 2.0
        h.record_n(1.5, 2**32)  # 3 + 2**32 > 2**32 - 1: the excess is saturated
        assert h.saturated == 4
        assert h.percentile(100).count == 2**32 - 1


def test_record_refuses_what_is_not_a_real_number():
    with picollo.FloatHistogram() as h:
        for bad in ("1.5", b"1", None, 1j, [1.0], object()):
            with pytest.raises(TypeError, match="real number"):
                h.record(bad)
        with pytest.raises(OverflowError):
            h.record(10**400)  # no double near it: refused, not +inf
        with pytest.raises(ValueError, match="count"):
            h.record(1.0, -1)
        with pytest.raises(TypeError, match="count"):
            h.record(1.0, 1.5)
        with pytest.raises(TypeError):
            h.record_n("x", 2)
        assert h.total == h.nan == 0


def test_record_f32_rounds_to_single_precision():
    with picollo.FloatHistogram(0.01) as h:
        h.record_f32(0.1)
        h.record_f32(1e300)  # beyond float's range: +inf, as C converts
        h.record_f32(-1e-50)  # below float's subnormals: -0.0
        assert h.min == -0.0 and h.max == float(np.float32(0.1)) != 0.1
        assert (h.total, h.zero, h.positive_infinity) == (2, 1, 1)
        with pytest.raises(TypeError):
            h.record_f32("0.1")


def test_record_many_takes_lists_arrays_and_numpy_arrays():
    values = [1.0, -2.5, 3.25, 0.0, 1e-300, -1e300, 7.0, 8.5]
    with picollo.FloatHistogram(0.01) as reference:
        for x in values:
            reference.record(x)
        expected = recorded(reference)
    f64 = np.array(values)
    inputs = {
        "list": values,
        "tuple": tuple(values),
        "generator": (x for x in values),
        "ints and floats": [1, -2.5, 3.25, 0, 1e-300, -1e300, 7, 8.5],
        "array d": array.array("d", values),
        "memoryview": memoryview(array.array("d", values)),
        "numpy f64": f64,
        "numpy f64 read-only": np.frombuffer(f64.tobytes()),
        "numpy f64 big-endian": f64.astype(">f8"),
        "numpy f64 strided": np.repeat(f64, 2)[::2],
        "numpy f64 2-D": f64.reshape(2, 4),
        "numpy object": f64.astype(object),
    }
    for name, data in inputs.items():
        with picollo.FloatHistogram(0.01) as h:
            assert h.record_many(data) == len(values), name
            assert recorded(h) == expected, name
            assert (h.min, h.max) == (-1e300, 8.5), name


def test_record_many_float32_and_integer_arrays():
    f32 = np.array([0.1, -3.3, 1e30], dtype=np.float32)
    for data in (f32, array.array("f", f32.tolist()), np.asfortranarray(f32)):
        with picollo.FloatHistogram(0.01) as h:
            assert h.record_many(data) == 3
            # Each float widened exactly: the extremes are the float32 values themselves.
            assert (h.min, h.max) == (float(f32[1]), float(f32[2]))
    with picollo.FloatHistogram(0.01) as h:
        assert h.record_many(np.arange(-5, 5, dtype=np.int64)) == 10
        assert h.record_many(np.array([3, 200], dtype=np.uint8)) == 2
        assert h.record_many(np.array([0.5], dtype=np.float16)) == 1
        assert (h.min, h.max, h.total, h.zero) == (-5.0, 200.0, 13, 1)


def test_record_many_refuses_bad_input_and_records_nothing():
    with picollo.FloatHistogram() as h:
        with pytest.raises(TypeError, match="item 1"):
            h.record_many([1.0, "2.0", 3.0])
        with pytest.raises(TypeError, match="item"):
            h.record_many(iter([1.0, None]))
        for bad in ("123", b"123", 5.0, np.array([True, False]), np.array([1j]),
                    np.array(["1.0"])):
            with pytest.raises(TypeError):
                h.record_many(bad)
        with pytest.raises(TypeError):
            h.record_many(np.array([1.0, "x"], dtype=object))
        with pytest.raises(OverflowError):
            h.record_many([1.0, 10**400])
        assert h.total == h.nan == 0
        assert h.record_many([]) == 0 and h.record_many(np.empty(0)) == 0
        assert h.record_many(array.array("f")) == 0
        assert h.total == 0


# --- properties --------------------------------------------------------------------------


def test_properties_count_every_kind_of_value():
    with picollo.FloatHistogram(0.01, min_magnitude=1e-3, max_magnitude=1e3,
                                counter_bits=32, storage="dense", mode="interlocked",
                                value_selection="upper") as h:
        h.record_many([0.5, -0.25, 0.0, -0.0, 1e-5, -1e-6, 1e5, -1e9, np.nan, np.inf,
                       -np.inf, -np.inf, 999.0])
        i = h.info()
        assert (h.total, h.zero, h.nan, h.positive_infinity, h.negative_infinity) == (5, 2, 1, 1, 2)
        assert (h.underflow, h.overflow, h.saturated) == (2, 2, 0)
        assert (h.min, h.max) == (-0.25, 999.0)  # the values in buckets only
        assert h.sum == 0.5 - 0.25 + 999.0
        assert h.mean == h.sum / 5 == h.summary().mean
        assert h.relative_error == 0.0078125 == i.relative_error
        assert h.buckets_per_octave == 64
        assert 1e-3 * (1 - 2 * h.relative_error) < h.min_magnitude <= 1e-3
        assert 1e3 <= h.max_magnitude < 1e3 * (1 + 2 * h.relative_error)
        assert (h.counter_bits, h.storage, h.mode, h.value_selection) == (
            32, "dense", "interlocked", "upper")
        assert h.footprint_bytes == 2 * h.storage_len * 4
        assert h.percentile(100).value == h.percentile(100).highest
        assert repr(h).startswith("<FloatHistogram relative_error=0.0078125")


def test_stdev_is_over_bucket_midpoints():
    values = np.random.default_rng(2).normal(10.0, 2.0, 50_000)
    with picollo.FloatHistogram(0.001) as h:
        h.record_many(values)
        assert h.stdev == pytest.approx(np.std(values), rel=2e-3)
        assert h.mean == pytest.approx(np.mean(values), rel=1e-12)


@pytest.mark.parametrize("values, stdev", [
    ([1e200, 2e200], 5e199),
    ([DBL_MAX, -DBL_MAX], DBL_MAX),
    ([1e-300, 3e-300], 1e-300),
    ([1e-310, 3e-310], 1e-310),
])
def test_stdev_of_huge_and_tiny_values(values, stdev):
    with picollo.FloatHistogram(0.01) as h:
        h.record_many(values)
        assert h.mean == pytest.approx(sum(v / 2 for v in values), rel=1e-12, abs=1e-320)
        assert h.stdev == pytest.approx(stdev, rel=2 * h.relative_error)


def test_a_snapshot_delta_keeps_an_interval_dwarfed_by_earlier_values():
    with picollo.FloatHistogram(0.001) as h:
        h.record(1e300)
        snap = h.snapshot()
        h.record(5.0)
        h.record(-2.0)
        d = snap.update(deltas=True).summary()
        assert d.total == 2
        assert d.sum == pytest.approx(3.0, rel=3 * h.relative_error)
        assert d.mean == pytest.approx(1.5, rel=3 * h.relative_error)
        snap.close()


def test_value_selection_chooses_the_reported_value():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many([10.0] * 4 + [-10.0] * 4)
        for selection in picollo.VALUE_SELECTIONS:
            h.value_selection = selection
            assert h.value_selection == selection
            p, q = h.percentile(100), h.percentile(0)
            expected = {"lower": (p.lowest, q.lowest), "upper": (p.highest, q.highest)}
            if selection in expected:
                assert (p.value, q.value) == expected[selection]
            else:
                assert p.lowest < p.value < p.highest and q.lowest < q.value < q.highest
        with pytest.raises(ValueError, match="value_selection"):
            h.value_selection = "median"


def test_percentiles_quantile_and_their_errors():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many(np.linspace(-100.0, 100.0, 2001))
        ps = h.percentiles([1, 50, 99])
        assert [p.rank for p in ps] == [1, 50, 99]
        assert h.percentile_values([1, 50, 99]) == [p.value for p in ps]
        assert h.quantile(0.5) == ps[1].value == h.percentile(50).value
        assert -100.0 in h.percentile(0) and 100.0 in h.percentile(100)
        assert float(ps[2]) == ps[2].value and "P99=" in str(ps[2])
        assert h.percentiles([]) == []
        for bad in (-1, 101, np.nan):
            with pytest.raises(InvalidArgumentError):
                h.percentile(bad)
        with pytest.raises(InvalidArgumentError):
            h.percentiles([50, 10])
        with pytest.raises(ValueError, match="quantile"):
            h.quantile(1.5)
        with pytest.raises(TypeError):
            h.percentiles(99)
        s = h.summary()
        assert [p.rank for p in s] == list(picollo.STANDARD_RANKS) and len(s) == 16
        assert s.p99 == h.percentile(99) and s.p(99.9) == s.p999
        with pytest.raises(ValueError, match="standard rank"):
            s.p(42)


# --- merging, copies, reset ---------------------------------------------------------------


def test_add_merges_counts_specials_sum_and_extremes():
    with picollo.FloatHistogram(0.01) as a, \
            picollo.FloatHistogram(0.01, storage="dense", counter_bits=32,
                                   min_magnitude=1.0, max_magnitude=1e6) as b:
        a.record_many([1.0, -5.0, np.nan])
        b.record_many([2.0, 1e9, 0.0, np.inf])  # 1e9: b's overflow
        assert a.add(b) is a
        assert (a.total, a.nan, a.positive_infinity, a.overflow, a.zero) == (4, 1, 1, 1, 1)
        assert (a.min, a.max, a.sum) == (-5.0, 2.0, -2.0)
        b += a  # every value of a fits b's range
        assert b.total == 2 + 4
        a.merge(a)  # merging a histogram into itself doubles it
        assert (a.total, a.nan, a.sum) == (8, 2, -4.0)
        with picollo.FloatHistogram(0.1) as other:
            with pytest.raises(LayoutMismatchError):
                a.add(other)
        with pytest.raises(TypeError):
            a.add(picollo.Histogram())


def test_copy_has_the_same_configuration_and_counts():
    with picollo.FloatHistogram(0.001, min_magnitude=3e-7, max_magnitude=12345.678,
                                counter_bits=32, storage="dense",
                                value_selection="lower") as h:
        h.record_many(np.random.default_rng(4).uniform(-1e4, 1e4, 1000))
        with h.copy() as c:
            assert c.info() == h.info()
            assert recorded(c) == recorded(h)
            c.record(5.0)
            assert c.total == h.total + 1


def test_reset_clears_counts_sum_and_extremes():
    with picollo.FloatHistogram(0.01) as h:
        h.record_many([1.0, -2.0, np.nan, np.inf, 0.0])
        h.reset()
        i = h.info()
        assert (i.total, i.nan, i.positive_infinity, i.zero, i.sum, i.min, i.max) == (
            0, 0, 0, 0, 0.0, None, None)
        assert list(h) == []
        h.record(3.0)
        assert (h.min, h.max, h.total) == (3.0, 3.0, 1)


# --- configuration errors and closed histograms ------------------------------------------


@pytest.mark.parametrize("config", [
    dict(relative_error=math.nan), dict(relative_error=0.0), dict(relative_error=-0.01),
    dict(relative_error=math.inf), dict(min_magnitude=0.0), dict(min_magnitude=-1.0),
    dict(min_magnitude=math.nan), dict(min_magnitude=10.0, max_magnitude=1.0),
    dict(max_magnitude=math.inf), dict(counter_bits=16), dict(counter_bits=-1),
    dict(storage="compressed"), dict(storage=1), dict(mode="thread-local"),
    dict(mode="approximate"), dict(value_selection="median"),
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_bad_configurations_raise_value_errors(config):
    with pytest.raises(ValueError):
        picollo.FloatHistogram(**config)


def test_configuration_types_are_checked_and_library_messages_kept():
    with pytest.raises(TypeError, match="relative_error"):
        picollo.FloatHistogram("0.01")
    with pytest.raises(TypeError, match="min_magnitude"):
        picollo.FloatHistogram(min_magnitude="1")
    with pytest.raises(InvalidArgumentError) as e:
        picollo.FloatHistogram(counter_bits=16)
    assert "counter_bits" in str(e.value) and e.value.status == picollo.Status.INVALID_ARGUMENT
    # Requests outside [1e-6, 0.1] are clamped, as the header says.
    with picollo.FloatHistogram(0.5) as coarse, picollo.FloatHistogram(1e-9) as fine:
        assert coarse.relative_error <= 0.1 and fine.relative_error >= 1e-6 / 2
    with picollo.FloatHistogram(mode="single_writer") as h:
        assert h.mode == "single"


def test_a_closed_histogram_raises_closed_error():
    h = picollo.FloatHistogram()
    h.record(1.0)
    snapshot = h.snapshot()
    buckets = iter(h)
    next(buckets)
    h.close()
    h.close()  # idempotent
    assert h.closed and repr(h) == "<FloatHistogram closed>"
    for call in (lambda: h.record(1.0), lambda: h.record(1.0, 2), lambda: h.record_f32(1.0),
                 lambda: h.record_n(1.0, 2), lambda: h.record_many([1.0]), lambda: h.total,
                 lambda: h.percentile(50), lambda: h.summary(), lambda: list(h),
                 lambda: h.rank_of(1.0), lambda: h.reset(), lambda: str(h),
                 lambda: h.snapshot(), lambda: snapshot.update(), lambda: h.copy(),
                 lambda: h.equivalent_range(1.0), lambda: h.__enter__()):
        with pytest.raises(ClosedError):
            call()
    with pytest.raises(ClosedError):
        next(buckets)  # an iteration under way ends with the histogram
    with picollo.FloatHistogram() as live:
        with pytest.raises(ClosedError):
            live.add(h)
    assert snapshot.total == 1  # the snapshot's copy outlives the histogram
    snapshot.close()
    with pytest.raises(ClosedError):
        snapshot.summary()
    with pytest.raises(EmptyHistogramError):
        picollo.FloatHistogram().percentile(50)
