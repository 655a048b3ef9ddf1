"""Several Python threads, one histogram, every concurrency mode.

ctypes releases the GIL for the length of each foreign call, so threads inside
``record_many`` really record at the same time. Exact modes must agree bucket for bucket
with a single-writer reference fed the same values; the approximate mode is exact while a
bucket stays below 2**T and within a stated bound above; readers, snapshots with deltas and
resets running against writers keep the invariants the library documents.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import picollo

WRITERS = 4
CONCURRENT_MODES = ("interlocked", "thread-local", "approximate")


def run_threads(target, count: int, *args) -> None:
    """Start `count` threads of ``target(index, *args)``, join them, re-raise a failure."""
    errors: list[BaseException] = []

    def body(i: int) -> None:
        try:
            target(i, *args)
        except BaseException as e:  # noqa: BLE001 - re-raised on the main thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def writer_values(i: int, n: int) -> np.ndarray:
    """Writer i's values: uniform in 0..1,099,999 (the range is 10..10^6: some under- and
    overflow), seeded by i."""
    return np.random.default_rng(100 + i).integers(0, 1_100_000, n, dtype=np.uint64)


def counts(h: picollo.Histogram) -> tuple[list[tuple[int, int]], int, int, int]:
    return ([(b.storage_index, b.count) for b in h.buckets_with_values()], h.total,
            h.underflow, h.overflow)


def reference(n: int, writers: int = WRITERS) -> picollo.Histogram:
    ref = picollo.Histogram(0.01, min=10, max=1_000_000)
    for i in range(writers):
        ref.record_many(writer_values(i, n))
        ref.record(i * 1000 + 10, count=7)
    return ref


def write_into(i: int, h: picollo.Histogram, n: int) -> None:
    values = writer_values(i, n)
    for chunk in np.array_split(values, 8):  # several foreign calls, interleaving
        h.record_many(chunk)
    h.record(i * 1000 + 10, count=7)


@pytest.mark.parametrize("mode", ["interlocked", "thread-local"])
def test_exact_modes_count_every_record_from_every_thread(mode):
    n = 250_000
    with picollo.Histogram(0.01, min=10, max=1_000_000, mode=mode) as h, reference(n) as ref:
        assert h.mode == mode
        run_threads(write_into, WRITERS, h, n)
        assert h.total + h.underflow + h.overflow == WRITERS * (n + 7)
        assert counts(h) == counts(ref)


def test_single_writer_mode_from_its_own_thread_with_readers():
    n = 250_000
    with picollo.Histogram(0.01, min=10, max=1_000_000) as h, reference(n, 1) as ref:
        stop = threading.Event()
        seen: list[int] = []

        def read(_: int) -> None:
            while not stop.is_set():
                s = h.summary()  # one consistent copy while the writer runs
                assert s.total == 0 or s.percentiles[-1].cumulative_count == s.total
                seen.append(s.total + s.underflow + s.overflow)

        readers = threading.Thread(target=read, args=(0,))
        readers.start()
        try:
            run_threads(write_into, 1, h, n)
        finally:
            stop.set()
            readers.join()
        assert seen and max(seen) <= n + 7
        assert counts(h) == counts(ref)


def test_approximate_mode_is_exact_below_its_threshold():
    # 4 × 50,000 uniform values: the widest bucket gets about 1,500, below 2^13.
    n = 50_000
    with picollo.Histogram(0.01, min=10, max=1_000_000, mode="approximate") as h, \
            reference(n) as ref:
        assert h.approx_threshold == 13
        run_threads(write_into, WRITERS, h, n)
        assert max(b.count for b in h) < 2**13
        assert counts(h) == counts(ref)


@pytest.mark.parametrize("threshold", [None, 16])
def test_approximate_mode_on_a_hot_bucket_stays_within_five_percent(threshold):
    n = 250_000  # per thread: 10^6 records into one bucket
    with picollo.Histogram(0.01, min=1, max=1_000_000, mode="approximate",
                           approx_threshold=threshold) as h:
        def hot(i: int) -> None:
            values = np.full(n, 5_000, dtype=np.uint64)
            for chunk in np.array_split(values, 10):
                h.record_many(chunk)
            h.record_many(np.full(1_000, 700_000, dtype=np.uint64))  # a cold bucket

        run_threads(hot, WRITERS)
        buckets = list(h)
        assert len(buckets) == 2
        hot_count, cold = buckets[0].count, buckets[1].count
        assert cold == WRITERS * 1_000  # below 2^T: exact
        expected = WRITERS * n
        assert abs(hot_count - expected) <= 0.05 * expected, (hot_count, expected)
        assert h.approx_threshold == (threshold or 13)


def test_thread_local_keeps_the_counts_of_exited_threads():
    with picollo.Histogram(0.01, min=1, max=100_000, mode="thread-local") as h:
        footprints = []
        for batch in range(25):  # 200 short-lived threads, 8 at a time
            run_threads(lambda i: h.record_many(writer_values(batch * 8 + i, 100) % 100_000), 8)
            assert h.total + h.underflow == (batch + 1) * 8 * 100
            footprints.append(h.footprint)
        # Memory follows the threads recording at once, not the 200 seen.
        shard = h.info().storage_len * 8
        assert max(footprints) <= footprints[0] + 16 * shard


class Progress:
    """What writers have started and finished recording, per value (under the GIL: the
    acquire/release around each foreign call orders these with the records)."""

    def __init__(self, values):
        self.values = values
        self.lock = threading.Lock()
        self.started = dict.fromkeys(values, 0)
        self.finished = dict.fromkeys(values, 0)

    def begin(self, v: int, k: int) -> None:
        with self.lock:
            self.started[v] += k

    def end(self, v: int, k: int) -> None:
        with self.lock:
            self.finished[v] += k

    def snapshot(self, which: str) -> dict[int, int]:
        with self.lock:
            return dict(getattr(self, which))


@pytest.mark.parametrize("mode", CONCURRENT_MODES)
def test_reset_and_snapshots_while_writing_keep_the_invariants(mode):
    values = [20, 300, 1_000, 5_000, 20_000, 90_000, 400_000, 900_000]  # one bucket each
    # The approximate mode at T = 20 counts exactly below 2^20, so "at most what was
    # recorded since the reset" holds exactly (above 2^T a racing step could overshoot).
    threshold = 20 if mode == "approximate" else None
    progress = Progress(values)
    with picollo.Histogram(0.01, min=10, max=1_000_000, mode=mode,
                           approx_threshold=threshold) as h:
        stop = threading.Event()
        problems: list[str] = []
        resets = [0, 0]  # resets made, delta updates made

        def write(i: int) -> None:
            # At least 20 rounds, then on until the resets and the snapshot have had 20
            # turns each (so they overlap the writes however threads get scheduled), up to
            # 1,000 rounds: 4 × 1,000 × 200 = 800,000 < 2^20 per bucket.
            chunk = 200
            for round_ in range(1_000):
                if round_ >= 20 and min(resets) >= 20:
                    break
                for v in values:
                    batch = np.full(chunk, v, dtype=np.uint64)
                    progress.begin(v, chunk)
                    h.record_many(batch)
                    progress.end(v, chunk)

        def watch_deltas(_: int) -> None:
            total = 0
            with h.snapshot() as s:
                while not stop.is_set():
                    s.update(deltas=True)
                    summary = s.summary()
                    total += summary.total
                    started = sum(progress.snapshot("started").values())
                    if total > started:
                        problems.append(f"deltas add up to {total}, {started} started")
                    resets[1] += 1

        writers = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
        watcher = threading.Thread(target=watch_deltas, args=(0,))
        for t in writers + [watcher]:
            t.start()
        try:
            while any(t.is_alive() for t in writers):
                before = progress.snapshot("finished")
                h.reset()
                buckets = list(h.buckets_with_values())  # one copy (fewer than 256 buckets)
                summary = h.summary()
                after = progress.snapshot("started")
                since = {v: after[v] - before[v] for v in values}
                for b in buckets:
                    v = next(v for v in values if v in b)
                    if b.count > since[v]:
                        problems.append(f"{v}: {b.count} after a reset, {since[v]} since")
                if summary.total > sum(since.values()):
                    problems.append(f"total {summary.total} after a reset")
                if summary.total and summary.percentiles[-1].cumulative_count != summary.total:
                    problems.append("a summary disagrees with itself")
                resets[0] += 1
        finally:
            for t in writers:
                t.join()
            stop.set()
            watcher.join()
        assert not problems, problems[:3]
        assert resets[0] >= 1 and resets[1] >= 1
        h.reset()
        assert h.total == 0
        h.record(1_000, count=5)
        assert h.total == 5


@pytest.mark.parametrize("mode", ("single",) + CONCURRENT_MODES)
def test_snapshot_deltas_add_up_to_every_record(mode):
    n = 100_000
    writers = 1 if mode == "single" else WRITERS
    with picollo.Histogram(0.01, min=10, max=1_000_000, mode=mode) as h, h.snapshot() as s:
        done = threading.Event()
        total = [0]

        def watch(_: int) -> None:
            while True:
                last = done.is_set()
                sm = s.update(deltas=True).summary()
                total[0] += sm.total + sm.underflow + sm.overflow
                if last:
                    return

        watcher = threading.Thread(target=watch, args=(0,))
        watcher.start()
        try:
            run_threads(write_into, writers, h, n // 4 if mode == "approximate" else n)
        finally:
            done.set()
            watcher.join()
        assert total[0] == h.total + h.underflow + h.overflow


def test_approx_counter_from_threads():
    with picollo.ApproxCounter() as c:
        assert (c.threshold, c.max_shift, c.exact_when_uncontended) == (13, 10, False)
        run_threads(lambda i: [c.increment() for _ in range(2_000)], WRITERS)
        assert c.value == 8_000  # below 2^13: exact
        assert c.reset() == 8_000 and c.value == 0
        n = 50_000
        run_threads(lambda i: [c.increment() for _ in range(n)], WRITERS)
        expected = WRITERS * n
        assert abs(c.value - expected) <= 0.05 * expected, c.value

    # Resets racing exact adds lose nothing.
    with picollo.ApproxCounter() as c:
        taken = []
        stop = threading.Event()

        def resetter(_: int) -> None:
            while not stop.is_set():
                taken.append(c.reset())

        r = threading.Thread(target=resetter, args=(0,))
        r.start()
        try:
            run_threads(lambda i: [c.add(3) for _ in range(5_000)], WRITERS)
        finally:
            stop.set()
            r.join()
        assert sum(taken) + c.value == 3 * 5_000 * WRITERS

    with picollo.ApproxCounter(4, max_shift=3, exact_when_uncontended=True) as c:
        for _ in range(20_000):
            c.increment()
        assert c.value == 20_000 and c.threshold == 4 and c.max_shift == 3


def test_approx_counter_arguments():
    with pytest.raises(picollo.InvalidArgumentError, match="threshold"):
        picollo.ApproxCounter(63)
    with pytest.raises(picollo.InvalidArgumentError, match="max_shift"):
        picollo.ApproxCounter(max_shift=63)
    with pytest.raises(ValueError):
        picollo.ApproxCounter(0)
    with pytest.raises(ValueError):
        picollo.ApproxCounter(-1)
    c = picollo.ApproxCounter()
    c.close()
    c.close()
    with pytest.raises(picollo.ClosedError):
        c.increment()


def test_buckets_with_values_in_batches_equals_the_buckets():
    for mode in ("single",) + CONCURRENT_MODES:
        with picollo.Histogram(0.01, min=10, max=1_000_000, mode=mode) as h:
            assert list(h.buckets_with_values()) == []
            h.record_many(writer_values(0, 20_000))
            every = [b for b in h.buckets() if b.count]
            assert len(every) > 256  # more than one default batch
            for batch in (1, 7, 256, 10_000):
                assert list(h.buckets_with_values(batch)) == every
            with pytest.raises(ValueError):
                list(h.buckets_with_values(0))


def test_modes_and_their_errors():
    with pytest.raises(ValueError, match="mode"):
        picollo.Histogram(mode="parallel")
    with pytest.raises(picollo.InvalidArgumentError, match="approx_threshold"):
        picollo.Histogram(mode="interlocked", approx_threshold=13)
    with pytest.raises(picollo.InvalidArgumentError, match="approx_threshold"):
        picollo.Histogram(mode="approximate", approx_threshold=63)
    with pytest.raises(ValueError):
        picollo.Histogram(mode="approximate", approx_threshold=0)
    for mode in CONCURRENT_MODES:
        with picollo.Histogram(mode=mode) as h, picollo.Histogram() as other:
            h.record(5, count=3)
            other.record(5)
            with pytest.raises(picollo.UnsupportedError, match="single-writer"):
                h.subtract(other)
            assert h.total == 3
            with h.copy() as copy:
                assert copy.mode == mode and copy.total == 3
            # A single-writer histogram subtracts a concurrent one.
            other.record(5, count=3)
            other.subtract(h)
            assert other.total == 1
    with picollo.Histogram(mode="approximate", approx_threshold=20) as h:
        assert h.copy().approx_threshold == 20
    assert picollo.MODES == ("single", "interlocked", "thread-local", "approximate")
