"""Snapshots with and without deltas; merge and subtract."""

from __future__ import annotations

import pytest

import picollo


def test_snapshot_full_and_deltas():
    with picollo.Histogram(relative_error=0.01) as h:
        h.record_many(range(1000, 2000))
        with h.snapshot() as snap:
            assert snap.total == 1000
            h.record_many(range(5000, 5500))
            assert snap.total == 1000  # a copy, not a view
            snap.update(deltas=True)
            s = snap.summary()
            assert s.total == 500 and s.p(0).lower <= 5000 and s.p(100).highest >= 5499
            snap.update(deltas=True)
            assert snap.total == 0
            h.record(7777)
            snap.update(deltas=True)
            assert snap.total == 1 and 7777 in snap.percentile(50)
            snap.update()  # full counts again
            assert snap.total == 1501
            assert snap.summary().json() == h.summary().json()
            assert snap.percentiles([50, 99]) == h.percentiles([50, 99])
            assert str(snap) == h.table()


def test_snapshot_deltas_after_reset():
    with picollo.Histogram() as h, h.snapshot() as snap:
        h.record_many([1, 2, 3])
        snap.update(deltas=True)
        h.reset()
        h.record(10)
        snap.update(deltas=True)
        assert snap.total == 1


def test_snapshot_of_other_configuration_is_refused():
    with picollo.Histogram(relative_error=0.01) as a, picollo.Histogram(relative_error=0.001) as b:
        snap = a.snapshot()
        with pytest.raises(picollo.PicolloError) as e:
            snap.update(histogram=b)
        assert e.value.status == picollo.Status.LAYOUT_MISMATCH
        assert "configuration" in str(e.value)
        snap.close()


def test_merge_and_subtract():
    with picollo.Histogram(relative_error=0.01) as a, \
         picollo.Histogram(relative_error=0.01, min=0, max=1500, counter_bits=32) as b:
        a.record_many(range(1000, 2000))
        b.record_many(range(1000, 1200))
        assert a.merge(b) is a
        assert a.total == 1200
        a.subtract(b)
        assert a.total == 1000
        a += b
        assert a.total == 1200
        a -= b
        assert a.total == 1000
        b.add(a)  # counts past b's last bucket go to its overflow
        last = b.bucket(b.info().storage_len - 1)
        assert last.lower <= b.max_trackable <= last.highest
        assert b.overflow == sum(x.count for x in a if x.lower > last.highest)
        assert b.total + b.overflow == 1200
        c = a.copy()
        assert c.summary().json() == a.summary().json()
        c.close()


def test_subtract_would_go_negative_changes_nothing():
    with picollo.Histogram() as a, picollo.Histogram() as b:
        a.record_many([1, 2])
        b.record_many([2, 3])
        before = a.summary().json()
        with pytest.raises(picollo.WouldGoNegativeError) as e:
            a.subtract(b)
        assert e.value.status == picollo.Status.WOULD_GO_NEGATIVE
        assert a.summary().json() == before


def test_merge_layout_mismatch():
    with picollo.Histogram(relative_error=0.01) as a, picollo.Histogram(relative_error=0.001) as b:
        b.record(5)
        with pytest.raises(picollo.LayoutMismatchError) as e:
            a.add(b)
        assert e.value.status == picollo.Status.LAYOUT_MISMATCH
        assert isinstance(e.value, ValueError)
        assert e.value.message  # the library's explanation
        assert a.total == 0


def test_merge_with_itself_and_non_histogram():
    with picollo.Histogram() as a:
        a.record(1)
        with pytest.raises(picollo.InvalidArgumentError, match="same histogram"):
            a.add(a)
        with pytest.raises(TypeError):
            a.add([1, 2])
