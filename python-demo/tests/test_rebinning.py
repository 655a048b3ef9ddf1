"""Other precisions: Histogram.downsample and add_rebinned, FloatHistogram.add_rebinned,
against histograms recorded directly at the target precision, in every counter width,
mode and storage."""

from __future__ import annotations

import math

import numpy as np
import pytest

import picollo
from conftest import BITS_AND_MODES, buckets, signed_doubles
from picollo import InvalidArgumentError, LayoutMismatchError

SETTINGS = [(bits, mode) for bits in (32, 64) for mode in picollo.MODES]
FLOAT_CONFIGS = [pytest.param((bits, mode, storage), id=f"u{bits}-{mode}-{storage}")
                 for bits in (32, 64) for mode in picollo.FLOAT_MODES
                 for storage in picollo.FLOAT_STORAGES]



def outside(h) -> tuple[int, int, int, int]:
    i = h.info()
    return i.total, i.underflow, i.overflow, i.saturated


# The keyword arguments a (counter bits, mode[, storage]) param stands for.
CONFIG_KEYWORDS = ("counter_bits", "mode", "storage")


def recorded(values, relative_error: float, kind: type = picollo.Histogram, **config):
    """A histogram of kind (Histogram or FloatHistogram) holding values."""
    h = kind(relative_error, **config)
    h.record_many(values)
    return h


@pytest.fixture(params=BITS_AND_MODES)
def config(request) -> dict:
    return dict(zip(CONFIG_KEYWORDS, request.param))


# --- downsample --------------------------------------------------------------------------


@pytest.mark.parametrize("coarser", [1e-4, 3e-4, 0.001, 0.01, 0.05, 0.1, 0.5])
def test_downsample_is_the_histogram_recorded_at_the_coarser_precision(mixed_values, config,
                                                                       coarser):
    with recorded(mixed_values, 1e-4, **config) as fine, \
            fine.downsample(coarser) as down, recorded(mixed_values, coarser) as direct:
        assert down.precision == direct.precision >= fine.precision
        assert buckets(down) == buckets(direct)
        assert outside(down) == outside(direct) == outside(fine)
        assert (down.counter_bits, down.mode) == (64, "single")
        assert outside(fine)[0] == len(mixed_values)  # the source is left as it was


def test_downsample_keeps_the_range_value_selection_and_outside_counts(mixed_values, config):
    kw = {"min": 1_000, "max": 10**9}
    with recorded(mixed_values, 1e-4, value_selection="upper", **kw, **config) as fine, \
            fine.downsample(0.01) as down:
        assert fine.underflow > 0 and fine.overflow > 0
        assert outside(down) == outside(fine)
        assert (down.min_trackable, down.max_trackable) == (fine.min_trackable,
                                                            fine.max_trackable)
        assert down.value_selection == "upper"
        # Exactly what the values in the source's range make at 1 % in the same range.
        lo, hi = fine.min_trackable, fine.max_trackable
        inside = mixed_values[(mixed_values >= lo) & (mixed_values <= hi)]
        with recorded(inside, 0.01, **kw) as direct:
            assert buckets(down) == buckets(direct)


def test_downsample_to_a_finer_precision_or_a_bad_one_raises(mixed_values):
    with recorded(mixed_values, 0.001) as h:
        with pytest.raises(LayoutMismatchError) as e:
            h.downsample(1e-4)
        assert e.value.status == picollo.Status.LAYOUT_MISMATCH
        with pytest.raises(LayoutMismatchError):
            h.downsample(1e-9)  # clamped to 1e-6: still finer
        for bad in (0.0, -0.01, math.nan, math.inf, -math.inf):
            with pytest.raises(InvalidArgumentError):
                h.downsample(bad)
        for bad in ("0.01", None):
            with pytest.raises(TypeError):
                h.downsample(bad)
        assert h.total == len(mixed_values)


# --- add_rebinned --------------------------------------------------------------------------


def test_add_rebinned_into_a_coarser_precision_equals_recording_there(mixed_values, config):
    # The destination in another width and mode; each pair is a destination once.
    source = (config["counter_bits"], config["mode"])
    bits, mode = SETTINGS[(SETTINGS.index(source) + 3) % len(SETTINGS)]
    dst_kw = {"counter_bits": bits, "mode": mode}
    first, rest = mixed_values[:1_000], mixed_values[1_000:]
    with recorded(rest, 0.001, **config) as src, recorded(first, 0.01, **dst_kw) as dst, \
            recorded(mixed_values, 0.01, **dst_kw) as direct:
        assert dst.add_rebinned(src) is dst
        assert buckets(dst) == buckets(direct)
        assert outside(dst) == outside(direct)
        assert outside(src)[0] == len(rest)


def test_add_rebinned_into_a_narrower_range_counts_the_rest_outside(mixed_values, config):
    kw = {"min": 5_000, "max": 10**12}
    with recorded(mixed_values, 1e-4, **config) as src, \
            picollo.Histogram(0.01, **kw) as dst, recorded(mixed_values, 0.01, **kw) as direct:
        dst.add_rebinned(src)
        assert dst.underflow > 0 and dst.overflow > 0
        assert outside(dst) == outside(direct)
        assert buckets(dst) == buckets(direct)


def test_add_rebinned_into_a_finer_precision_shares_each_count_in_its_bucket(mixed_values,
                                                                             config):
    with recorded(mixed_values, 0.01, **config) as src, picollo.Histogram(1e-4) as dst:
        dst.add_rebinned(src)
        assert outside(dst) == outside(src)
        expected = {}
        for lower, highest, count in buckets(src):
            width = dst.equivalent_range(lower)[1] - lower + 1
            covered = (highest - lower + 1) // width
            assert dst.equivalent_range(highest) == (highest - width + 1, highest)
            # Shared equally among the buckets it covers, the remainder to the lowest.
            share, rest = divmod(count, covered)
            for i in range(covered):
                c = share + (1 if i < rest else 0)
                if c:
                    expected[lower + i * width] = c
            # Every count stays inside its source bucket.
            assert dst.count_between(lower, highest) == count
        assert {b.lower: b.count for b in dst} == expected


def test_add_rebinned_at_the_same_precision_is_add_and_of_itself_doubles(mixed_values, config):
    with recorded(mixed_values, 0.01, **config) as h, recorded(mixed_values, 0.01) as twin, \
            picollo.Histogram(0.01) as rebinned, picollo.Histogram(0.01) as added:
        rebinned.add_rebinned(h).add_rebinned(twin)
        added.add(h).add(twin)
        doubled = [(lo, hi, 2 * c) for lo, hi, c in buckets(twin)]
        assert buckets(rebinned) == buckets(added) == doubled
        h.add_rebinned(h)
        assert buckets(h) == doubled
        assert h.total == 2 * len(mixed_values)


def test_add_rebinned_takes_only_a_histogram():
    with picollo.Histogram() as h, picollo.FloatHistogram() as f:
        for other in (f, None, [1, 2]):
            with pytest.raises(TypeError):
                h.add_rebinned(other)
        with pytest.raises(TypeError):
            f.add_rebinned(h)
    with pytest.raises(picollo.ClosedError):
        h.add_rebinned(picollo.Histogram())


# --- FloatHistogram.add_rebinned -----------------------------------------------------------


@pytest.fixture(scope="module")
def doubles() -> np.ndarray:
    """Both signs over 1e-30 .. 1e30, a normal bulk, zeros, NaN and infinities."""
    return signed_doubles(23, 100.0, 10_000, 4_000, [
        np.zeros(200), np.full(30, np.nan), np.full(20, np.inf), np.full(10, -np.inf)])


def float_buckets(h) -> list[tuple[float, float, int, int]]:
    return [(b.lowest, b.highest, b.count, b.side) for b in h]


def float_counts(h) -> tuple:
    i = h.info()
    return (i.total, i.zero, i.nan, i.positive_infinity, i.negative_infinity, i.underflow,
            i.overflow, i.saturated, i.min, i.max)


def float_recorded(values, relative_error: float, **config) -> picollo.FloatHistogram:
    return recorded(values, relative_error, picollo.FloatHistogram, **config)


@pytest.fixture(params=FLOAT_CONFIGS)
def float_config(request) -> dict:
    return dict(zip(CONFIG_KEYWORDS, request.param))


def test_float_add_rebinned_into_a_coarser_precision_equals_recording_there(doubles,
                                                                           float_config):
    with float_recorded(doubles, 0.001, **float_config) as src, \
            picollo.FloatHistogram(0.01, **float_config) as dst, \
            float_recorded(doubles, 0.01, **float_config) as direct:
        assert dst.add_rebinned(src) is dst
        assert float_buckets(dst) == float_buckets(direct)
        assert float_counts(dst) == float_counts(direct) == float_counts(src)
        assert dst.sum == src.sum


def test_float_add_rebinned_into_a_finer_precision_keeps_each_count_in_its_bucket(
        doubles, float_config):
    with float_recorded(doubles, 0.01, **float_config) as src, \
            picollo.FloatHistogram(0.001) as dst:
        dst.add_rebinned(src)
        assert float_counts(dst) == float_counts(src)
        assert dst.sum == src.sum
        coarse, fine = list(src), list(dst)
        assert len(fine) > len(coarse)
        # Each fine bucket lies inside the coarse one holding its value, and the fine
        # buckets inside a coarse one add up to its count.
        lowests = np.array([b.lowest for b in coarse])
        holder = np.searchsorted(lowests, [f.value for f in fine], side="right") - 1
        shares = np.zeros(len(coarse), dtype=np.int64)
        for f, i in zip(fine, holder):
            assert coarse[i].lowest <= f.lowest and f.highest <= coarse[i].highest, f
            shares[i] += f.count
        assert shares.tolist() == [b.count for b in coarse]
        for b in coarse[::5]:
            assert dst.count_between(b.lowest, b.highest) == b.count


def test_float_add_rebinned_of_itself_doubles(doubles, float_config):
    with float_recorded(doubles, 0.01, **float_config) as h:
        before, total, nan, total_sum = float_buckets(h), h.total, h.nan, h.sum
        assert h.add_rebinned(h) is h
        assert float_buckets(h) == [(lo, hi, 2 * c, s) for lo, hi, c, s in before]
        assert (h.total, h.nan) == (2 * total, 2 * nan)
        if float_config["mode"] == "single":
            # The single writer's sum is exact, rounded once when read: doubling it is exact.
            assert h.sum == 2 * total_sum
        else:
            # The interlocked sum is a running one per stripe, and a merge adds into stripe 0:
            # when the records' own stripe is 0 for some values, the merged sum rounds against
            # them. A few roundings, each within 2^-53 of the magnitudes summed (at most
            # twice the sum of |x|), bound the difference.
            magnitudes = np.abs(doubles[np.isfinite(doubles)]).sum()
            assert abs(h.sum - 2 * total_sum) <= 2.0**-49 * magnitudes


# --- FloatHistogram.downsample -------------------------------------------------------------


@pytest.mark.parametrize("coarser", [0.001, 0.004, 0.03, 0.1])
def test_float_downsample_is_the_histogram_recorded_at_the_coarser_precision(
        doubles, float_config, coarser):
    with float_recorded(doubles, 0.001, value_selection="upper", **float_config) as src, \
            src.downsample(coarser) as down, \
            float_recorded(doubles, coarser, storage=float_config["storage"]) as direct:
        assert float_buckets(down) == float_buckets(direct)
        assert float_counts(down) == float_counts(direct) == float_counts(src)
        assert down.sum == src.sum
        info = down.info()
        assert (info.counter_bits, info.mode) == (64, "single")
        assert info.storage == float_config["storage"]
        assert info.relative_error == direct.info().relative_error
        assert down.value_selection == "upper"
        # The source is unchanged.
        assert float_buckets(src) == float_buckets(float_recorded(doubles, 0.001,
                                                                  **float_config))


def test_float_downsample_to_a_finer_precision_or_a_bad_one_raises(doubles):
    with float_recorded(doubles, 0.001) as h:
        with pytest.raises(LayoutMismatchError):
            h.downsample(1e-5)
        for bad in (math.nan, math.inf, 0.0, -0.01):
            with pytest.raises(InvalidArgumentError):
                h.downsample(bad)
        with pytest.raises(TypeError):
            h.downsample("0.01")
    with pytest.raises(picollo.ClosedError):
        h.downsample(0.01)
