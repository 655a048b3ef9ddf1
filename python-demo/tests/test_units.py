"""Histograms with a unit (HdrHistogram's lowest discernible value): the keyword, the
buckets it gives, V2 both ways with hdrh, and the refusals."""

from __future__ import annotations

import pickle

import pytest

from picollo import Histogram


def test_lowest_discernible_gives_a_power_of_two_unit_and_unit_wide_low_buckets():
    with Histogram(0.0005, lowest_discernible=1000, max=2**45) as h:
        assert h.unit == 512
        h.record_many([3, 1000, 6683, 30040, 161204])
        assert h.underflow == 0
        first = next(iter(h))
        assert (first.lower, first.count) == (0, 1)
        p = h.percentile(60)
        assert (p.lower, p.upper, p.value, p.plus_minus) == (6656, 7168, 6912, 256)
        assert p.lower <= 6683 < p.upper
        # Pickled through its configuration: the unit comes back.
        with pickle.loads(pickle.dumps(h)) as again:
            assert again.unit == 512
            assert again.percentile(60).lower == 6656
    with Histogram() as plain:
        assert plain.unit == 1


@pytest.mark.parametrize("bad", [0, 2**55, 2**64 - 1])
def test_a_zero_or_too_wide_lowest_discernible_value_is_refused(bad):
    with pytest.raises(ValueError, match="lowest"):
        Histogram(lowest_discernible=bad)


def test_hdrh_logs_with_a_lowest_above_1_decode_into_hdrhs_own_buckets():
    hdrh = pytest.importorskip("hdrh.histogram")
    peer = hdrh.HdrHistogram(1000, 2**45, 3)
    for v in (1000, 6683, 30040, 161204):
        peer.record_value(v)
    with Histogram.decode(peer.encode()) as h:
        assert h.unit == 512
        p = h.percentile(50)
        assert (p.lower, p.upper) == (6656, 7168)
        assert p.upper - 1 == peer.get_value_at_percentile(50)
        # Encoded back, hdrh reads the unit as its lowest discernible value.
        back = hdrh.HdrHistogram.decode(h.encode_v2("base64"))
        assert back.lowest_trackable_value == 512
        assert back.get_value_at_percentile(50) == 7167


def test_merges_across_units_re_bin_and_a_plain_add_says_why_it_refuses():
    from picollo import LayoutMismatchError

    with Histogram(lowest_discernible=1000) as coarse, Histogram() as fine:
        fine.record_many([5, 700, 6683, 10**6])
        with pytest.raises(LayoutMismatchError, match="different units \\(512 and 1"):
            coarse.add(fine)
        coarse.add_rebinned(fine)
        assert coarse.total == 4
        # 512 wide below 2 · 512 · 512; 10**6 lies in a 1024-wide bucket of unit 1.
        assert [b.lower for b in coarse] == [0, 512, 6656, 999_424]
