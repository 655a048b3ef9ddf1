"""Every record method of the binding counts every value in the bucket that the plain
``record`` of the same configuration counts it in. Random configurations (seeded), values
at the layout's edges and at random, each recorded 1 to 3 times; one histogram per
method, compared with the ``record`` histogram: every non-empty bucket (indices or
bounds, and count) and the counts beside the buckets.

`Histogram` (integers) record methods:

- ``record(v)``: the per-instance fast function (``ctypes.PyDLL``): the reference.
- ``record(np.uint64(v))``: the fast function with a numpy scalar.
- ``record(v, n)``: with a count (``n > 1`` takes the checked path, ``record_n``).
- ``Histogram.record(h, v)``: the class's checked path (``ctypes.CDLL``).
- ``record_n(v, n)``.
- ``record_corrected(v, interval)``: with intervals that add no value (0, ``v``, above ``v``).
- ``record_many(...)`` of a list, a generator, an ``array('Q')``, a read-only memoryview,
  numpy ``uint64`` arrays (contiguous, 2-D, strided, big-endian, read-only), a numpy
  object array, and numpy ``uint32`` and ``int64`` arrays (the values they cannot hold
  in a second, ``uint64`` call).
- ``buffered(size)``: `BufferedRecorder.record` inside ``with`` (flushed at the size and
  on leaving), and the recorder called (``r(v)``), flushed by the next query.

`FloatHistogram` record methods:

- ``record(x)``: the per-instance fast function: the reference.
- ``record(x, n)``, ``FloatHistogram.record(h, x)`` (the checked path), ``record_n(x, n)``.
- ``record_many(...)`` of a list, a generator, an ``array('d')``, a read-only memoryview,
  numpy ``float64`` arrays (contiguous, strided, big-endian) and a numpy object array.
- Single precision, against ``record`` of each value rounded to a C ``float``:
  ``record_f32(x)``, ``record_many`` of an ``array('f')`` and of a numpy ``float32``
  array (``picollo_float_histogram_record_many_f32``).

Integer configurations: relative error log-uniform in 1e-6 .. 0.1, lowest discernible
value 1 or log-uniform up to 2**23, a random trackable range whose span is divided until
the storage holds at most 2**15 buckets, every mode (the approximate one with a
threshold of at least 13: each bucket gets fewer than 2**13 records here, so it counts
exactly), counter width, storage and value selection, exact extremes sometimes.
Combinations the library refuses (sparse storage in the thread-local mode) are skipped.

Float configurations: relative error log-uniform in 1e-6 .. 0.1, the default range of
magnitudes, a random one among doubles or among floats, narrowed until it holds at most
2**16 buckets per sign, every mode, counter width, storage and value selection. The
values' sums are not compared (their rounding may depend on the order).

The numbers of configurations compared are printed at the end of the module.
"""

from __future__ import annotations

import array
import ctypes
import math
import random
import struct
from typing import Any, Callable, Iterator, Optional

import numpy as np
import pytest

import picollo

U64_MAX = 2**64 - 1
SEED = 20261125
INTEGER_CONFIGS = 200
FLOAT_CONFIGS = 80
MAX_STORAGE = 2**15  # buckets of an integer histogram's storage
MAX_FLOAT_STORAGE = 2**16  # buckets per sign of a float histogram's range
VALUES = 2_000  # distinct values per integer configuration
RANDOM_FLOATS = 1_000  # per float configuration, besides the edges

DOUBLE_MAX = 1.7976931348623157e308
FLOAT_TINY, FLOAT_MAX = 2.0**-149, 3.4028234663852886e38  # a C float's smallest and largest

#: Configurations compared, by kind: asserted by each test, printed after the module.
compared = {"integer": 0, "float": 0}


@pytest.fixture(scope="module", autouse=True)
def report_counts(request):
    """Say how many configurations were compared, whether or not output is captured."""
    yield
    plugins = request.config.pluginmanager
    reporter = plugins.get_plugin("terminalreporter")
    capture = plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write("\n")
            reporter.write_line(
                f"test_record_paths: {compared['integer']} integer configurations × "
                f"{VALUES} values × {len(INTEGER_METHODS)} methods, {compared['float']} "
                f"float configurations × {len(FLOAT_METHODS) + len(FLOAT32_METHODS)} "
                "methods compared with record")


# --- integers ------------------------------------------------------------------------


def shrunk_integer_range(config: dict[str, Any]) -> Optional[dict[str, Any]]:
    """``config`` with ``max_trackable`` brought down (the span divided) until the
    storage holds at most `MAX_STORAGE` buckets; None when the library refuses it."""
    config = dict(config)
    low = config["min_trackable"]
    while True:
        try:
            with picollo.Histogram(config["relative_error"], min_trackable=low,
                                   max_trackable=config["max_trackable"],
                                   lowest_discernible=config["lowest_discernible"],
                                   storage="sparse", counter_bits=32) as probe:
                info = probe.info()
        except picollo.InvalidArgumentError:
            return None
        if info.storage_len <= MAX_STORAGE:
            return config
        # Each octave of the span holds about block_size / 2 buckets: drop that many
        # octaves at once, at least one.
        excess = info.storage_len / MAX_STORAGE
        octaves = max(math.ceil(math.log2(excess)),
                      (info.storage_len - MAX_STORAGE) // max(info.block_size // 2, 1), 1)
        span = config["max_trackable"] - low
        config["max_trackable"] = low + (span >> min(octaves, span.bit_length()))


def integer_config(rng: random.Random) -> Optional[dict[str, Any]]:
    """A random integer configuration, or None when the library refuses it."""
    low = 0 if rng.random() < 0.25 else min(int(2 ** rng.uniform(0, 64)), U64_MAX)
    high = U64_MAX if rng.random() < 0.25 else min(low + int(2 ** rng.uniform(0, 64)), U64_MAX)
    mode = rng.choice(picollo.MODES)
    config = {
        "relative_error": 10 ** rng.uniform(-6, -1),
        "lowest_discernible": 1 if rng.random() < 0.25 else int(2 ** rng.uniform(0, 23)),
        "min_trackable": low,
        "max_trackable": high,
        "counter_bits": rng.choice((32, 64)),
        "mode": mode,
        "storage": rng.choice(picollo.STORAGES),
        "value_selection": rng.choice(picollo.VALUE_SELECTIONS),
        "exact_extremes": rng.random() < 0.3,
    }
    if mode == "approximate" and rng.random() < 0.5:
        config["approx_threshold"] = rng.randint(13, 62)
    config = shrunk_integer_range(config)
    if config is None:
        return None
    try:
        picollo.Histogram(**config).close()
    except picollo.InvalidArgumentError:
        return None  # sparse storage in the thread-local mode
    return config


def integer_values(rng: random.Random, h: picollo.Histogram,
                   config: dict[str, Any]) -> list[int]:
    """`VALUES` distinct values: 0, 2**64 - 1, every power of two p with p - 1 and p + 1,
    the layout's edges (unit, block_size · unit, twice and 4 times that, the trackable
    bounds ± 1, bucket bounds ± 1), then random values in turn: of random magnitude,
    random bits, inside the range (uniform and log-uniform), below 4 · block_size · unit."""
    info, unit = h.info(), h.unit
    block = info.block_size * unit
    low, high = info.min_trackable, info.max_trackable
    values = {0, U64_MAX}
    for k in range(64):
        values.update((2**k - 1, 2**k, 2**k + 1))
    for edge in (unit, block, 2 * block, 4 * block, config["min_trackable"],
                 config["max_trackable"], low, high):
        values.update((edge - 1, edge, edge + 1))
    for _ in range(50):
        lower, highest = h.equivalent_range(rng.randint(low, high))
        values.update((lower - 1, lower, highest, highest + 1))
    values.discard(-1)
    values.discard(U64_MAX + 1)
    octaves = math.log2(max(high, 1) / max(low, 1))
    draws = [
        lambda: min(int(2 ** rng.uniform(0, 64)), U64_MAX),
        lambda: rng.getrandbits(64),
        lambda: rng.randint(low, high),
        lambda: min(int(max(low, 1) * 2 ** rng.uniform(0, octaves)), U64_MAX),
        lambda: rng.randrange(4 * block),
    ]
    for i in range(20 * VALUES):
        if len(values) >= VALUES:
            break
        values.add(draws[i % len(draws)]())
    values = sorted(values)
    rng.shuffle(values)
    return values


class Feed:
    """The values of one configuration with their repeat counts (1 to 3), the same values
    each repeated and shuffled (``flat``), two buffer sizes for the buffered recorders
    and, for integers, an interval per value for ``record_corrected`` that adds no value
    (0, the value itself, or above it)."""

    def __init__(self, rng: random.Random, values: list, integers: bool):
        self.pairs = [(v, rng.randint(1, 3)) for v in values]
        self.flat = [v for v, n in self.pairs for _ in range(n)]
        rng.shuffle(self.flat)
        self.sizes = [rng.randint(1, 2 * len(self.flat)) for _ in range(2)]
        self.intervals = ([rng.choice((0, v, rng.randint(v, U64_MAX))) for v, _ in self.pairs]
                          if integers else [])


def each_value(record: Callable[[Any, Any], Any]) -> Callable[[Any, Feed], None]:
    """A method calling ``record(h, value)`` once per repeat of each value."""
    def method(h: Any, feed: Feed) -> None:
        for v, n in feed.pairs:
            for _ in range(n):
                record(h, v)
    return method


def many(convert: Callable[[list], Any]) -> Callable[[Any, Feed], None]:
    """A method passing every repeated value to one ``record_many`` call, converted."""
    def method(h: Any, feed: Feed) -> None:
        assert h.record_many(convert(feed.flat)) == len(feed.flat)
    return method


def split_many(dtype: Any, top: int) -> Callable[[Any, Feed], None]:
    """record_many of a ``dtype`` array of the values up to ``top``, then of a uint64
    array of the rest."""
    def method(h: Any, feed: Feed) -> None:
        values = np.array(feed.flat, dtype=np.uint64)
        fits = values <= np.uint64(top)
        h.record_many(values[fits].astype(dtype))
        h.record_many(values[~fits])
    return method


def record_with_count(h: picollo.Histogram, feed: Feed) -> None:
    for v, n in feed.pairs:
        h.record(v, n)


def record_n(h: Any, feed: Feed) -> None:
    for v, n in feed.pairs:
        h.record_n(v, n)


def record_corrected(h: picollo.Histogram, feed: Feed) -> None:
    for (v, n), interval in zip(feed.pairs, feed.intervals):
        for _ in range(n):
            h.record_corrected(v, interval)


def buffered_with(h: picollo.Histogram, feed: Feed) -> None:
    with h.buffered(feed.sizes[0]) as recorder:
        record = recorder.record
        for v in feed.flat:
            record(v)


def buffered_called(h: picollo.Histogram, feed: Feed) -> picollo.BufferedRecorder:
    recorder = h.buffered(feed.sizes[1])
    for v in feed.flat:
        recorder(v)
    return recorder  # kept alive: the comparison's first query flushes it


def shared_methods(cls: type, v: str, typecode: str, dtype: Any) -> dict[str, Callable]:
    """The record paths both histograms take, for values named ``v`` in the names: the
    array module's ``typecode`` and numpy's ``dtype`` hold such values."""
    name, big_endian = np.dtype(dtype).name, np.dtype(dtype).newbyteorder(">")
    return {
        f"record({v}, n)": record_with_count,
        f"{cls.__name__}.record(h, {v})": each_value(cls.record),
        f"record_n({v}, n)": record_n,
        "record_many(list)": many(list),
        "record_many(generator)": many(lambda flat: (x for x in flat)),
        f"record_many(array('{typecode}'))": many(lambda flat: array.array(typecode, flat)),
        "record_many(read-only memoryview)": many(
            lambda flat: memoryview(array.array(typecode, flat)).toreadonly()),
        f"record_many(numpy {name})": many(lambda flat: np.array(flat, dtype=dtype)),
        f"record_many(numpy {name} strided)": many(
            lambda flat: np.repeat(np.array(flat, dtype=dtype), 2)[::2]),
        f"record_many(numpy {name} big-endian)": many(
            lambda flat: np.array(flat, dtype=big_endian)),
        "record_many(numpy object)": many(lambda flat: np.array(flat, dtype=object)),
    }


INTEGER_METHODS: dict[str, Callable[[Any, Feed], Any]] = {
    "record(np.uint64(v))": each_value(lambda h, v: h.record(np.uint64(v))),
    **shared_methods(picollo.Histogram, "v", "Q", np.uint64),
    "record_corrected(v, interval)": record_corrected,
    "record_many(numpy uint64 2-D)": many(
        lambda flat: np.array(flat, dtype=np.uint64).reshape(-1, 1)),
    "record_many(numpy uint64 read-only)": many(
        lambda flat: np.frombuffer(np.array(flat, dtype=np.uint64).tobytes(), np.uint64)),
    "record_many(numpy uint32, uint64)": split_many(np.uint32, 2**32 - 1),
    "record_many(numpy int64, uint64)": split_many(np.int64, 2**63 - 1),
    "buffered(size).record": buffered_with,
    "buffered(size)(v)": buffered_called,
}


def integer_state(h: picollo.Histogram, exact_extremes: bool) -> tuple[dict, list]:
    """The counts beside the buckets (and the exact extremes when kept), and the
    non-empty buckets as ``(storage_index, logical_index, lower, highest, count)``."""
    i = h.info()
    counts = {"total": i.total, "underflow": i.underflow, "overflow": i.overflow,
              "saturated": i.saturated}
    if exact_extremes:
        counts["recorded"] = (h.recorded_min, h.recorded_max)
    buckets = [(b.storage_index, b.logical_index, b.lower, b.highest, b.count) for b in h]
    return counts, buckets


def difference(expected: tuple[dict, list], got: tuple[dict, list]) -> Optional[str]:
    """Where ``got`` first differs from ``expected`` (None when equal)."""
    (expected_counts, expected_buckets), (counts, buckets) = expected, got
    for i, (a, b) in enumerate(zip(expected_buckets, buckets)):
        if a != b:
            return f"bucket #{i}: record {a}, this method {b}"
    if len(expected_buckets) != len(buckets):
        n = min(len(expected_buckets), len(buckets))
        extra = expected_buckets[n:] or buckets[n:]
        return (f"{len(expected_buckets)} buckets with record, {len(buckets)} with this "
                f"method; first unmatched {extra[0]}")
    if expected_counts != counts:
        return f"counts: record {expected_counts}, this method {counts}"
    return None


def accepted_configs(rng: random.Random, draw: Callable[[random.Random], Optional[dict]],
                     kind: str, wanted: int) -> Iterator[dict]:
    """Configurations from ``draw`` (None: one the library refuses, passed over) until
    ``wanted`` of ``kind`` were compared (counted in `compared`)."""
    skipped = 0
    while compared[kind] < wanted:
        config = draw(rng)
        if config is None:
            skipped += 1
            assert skipped < wanted, "the library refuses most configurations"
            continue
        yield config
        compared[kind] += 1


def mismatches(cls: type, config: dict, feed: Feed, methods: list, state: Callable) -> list[str]:
    """Each of ``methods`` (name, method, expected state) on a fresh ``cls(**config)``: where
    its `state` differs from the expected one."""
    found = []
    for name, method, expected in methods:
        # numpy's float32 of 1e300 is inf, as C's float
        with cls(**config) as h, np.errstate(over="ignore"):
            keep = method(h, feed)  # noqa: F841 (a buffered recorder, alive until read)
            where = difference(expected, state(h))
        if where is not None:
            found.append(f"{config} {name}: {where}")
    return found


def assert_no_mismatch(found: list[str], kind: str) -> None:
    assert not found, (f"{len(found)} mismatches in {compared[kind]} configurations; "
                       "first:\n" + "\n".join(found[:5]))


def test_every_integer_record_method_counts_like_record():
    rng = random.Random(SEED)
    found, values_compared = [], 0
    for config in accepted_configs(rng, integer_config, "integer", INTEGER_CONFIGS):
        exact = config["exact_extremes"]
        with picollo.Histogram(**config) as reference:
            feed = Feed(rng, integer_values(rng, reference, config), integers=True)
            each_value(lambda h, v: h.record(v))(reference, feed)
            expected = integer_state(reference, exact)
        assert expected[0]["total"] + expected[0]["underflow"] + expected[0]["overflow"] \
            == len(feed.flat), config
        methods = [(name, method, expected) for name, method in INTEGER_METHODS.items()]
        found += mismatches(picollo.Histogram, config, feed, methods,
                            lambda h: integer_state(h, exact))
        values_compared += len(feed.pairs)
    assert_no_mismatch(found, "integer")
    assert compared["integer"] >= INTEGER_CONFIGS
    assert values_compared == INTEGER_CONFIGS * VALUES


# --- doubles -------------------------------------------------------------------------


def log_uniform(rng: random.Random, low: float, high: float) -> float:
    """A magnitude log-uniform in ``low ..= high`` (both positive)."""
    try:
        x = 2.0 ** rng.uniform(math.log2(low), math.log2(high))
    except OverflowError:  # 2.0 ** 1024.0
        x = high
    return min(max(x, low), high)


def float_config(rng: random.Random) -> Optional[dict[str, Any]]:
    """A random float configuration whose range holds at most `MAX_FLOAT_STORAGE`
    buckets per sign, or None when the library refuses it."""
    config = {
        "relative_error": 10 ** rng.uniform(-6, -1),
        "counter_bits": rng.choice((32, 64)),
        "storage": rng.choice(picollo.FLOAT_STORAGES),
        "mode": rng.choice(picollo.FLOAT_MODES),
        "value_selection": rng.choice(picollo.VALUE_SELECTIONS),
    }
    # The default range, a range of doubles, or one of floats (for the single-precision
    # methods' values to land in buckets).
    kind = rng.randrange(4)
    if kind:
        smallest, largest = (5e-324, DOUBLE_MAX) if kind < 3 else (FLOAT_TINY, FLOAT_MAX)
        low = log_uniform(rng, smallest, largest)
        config["min_magnitude"] = low
        config["max_magnitude"] = log_uniform(rng, low, largest)
    for _ in range(100):
        try:
            with picollo.FloatHistogram(**dict(config, storage="sparse")) as probe:
                info = probe.info()
        except picollo.InvalidArgumentError:
            return None
        if info.storage_len <= MAX_FLOAT_STORAGE:
            return config
        # storage_len is about octaves · buckets_per_octave: keep 90 % of what fits (among
        # subnormals, whose steps may be wider than that, the range shrinks to one value).
        low, high = math.log2(info.min_magnitude), math.log2(info.max_magnitude)
        octaves = (high - low) * MAX_FLOAT_STORAGE / info.storage_len * 0.9
        config["min_magnitude"] = info.min_magnitude
        config["max_magnitude"] = max(2.0 ** (low + octaves), info.min_magnitude)
        if config["max_magnitude"] >= info.max_magnitude:
            config["max_magnitude"] = info.min_magnitude
    raise AssertionError(f"the range of {config} does not shrink")


def nan_with_payload(rng: random.Random) -> float:
    """A quiet NaN of random sign and payload."""
    bits = 0x7FF8_0000_0000_0000 | rng.getrandbits(51) | (rng.getrandbits(1) << 63)
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def float_values(rng: random.Random, h: picollo.FloatHistogram) -> list[float]:
    """Zeros, infinities, NaNs, subnormals, the largest double, the range's edges and
    their neighbours, bucket bounds and their neighbours, powers of two, and random
    values: of random binary exponent and inside the range; of both signs."""
    info = h.info()
    low, high = info.min_magnitude, info.max_magnitude
    magnitudes = [0.0, math.inf, 5e-324, 2.2250738585072009e-308, 2.2250738585072014e-308,
                  DOUBLE_MAX, FLOAT_TINY, 2.0**-126, FLOAT_MAX]
    for edge in (low, high):
        magnitudes += [edge, math.nextafter(edge, 0.0), math.nextafter(edge, math.inf)]
    magnitudes += [2.0**e for e in range(-1074, 1024, 7)]
    magnitudes += [math.ldexp(rng.randrange(1, 2**52), -1074) for _ in range(20)]
    magnitudes += [math.ldexp(rng.uniform(1.0, 2.0), rng.randint(-1074, 1023))
                   for _ in range(RANDOM_FLOATS // 2)]
    inside = [log_uniform(rng, low, high) for _ in range(RANDOM_FLOATS // 2)]
    magnitudes += inside
    for x in rng.sample(inside, 40):
        for bound in h.equivalent_range(x):
            magnitudes += [bound, math.nextafter(bound, 0.0), math.nextafter(bound, math.inf)]
    values = [m * rng.choice((-1.0, 1.0)) for m in magnitudes]
    values += [-0.0, -math.inf, math.nan, -math.nan]
    values += [nan_with_payload(rng) for _ in range(4)]
    rng.shuffle(values)
    return values


def as_f32(x: float) -> float:
    """``x`` rounded to a C float (beyond its range: ±inf) and widened back."""
    return ctypes.c_float(x).value


FLOAT_METHODS: dict[str, Callable[[Any, Feed], Any]] = shared_methods(
    picollo.FloatHistogram, "x", "d", np.float64)

#: Compared with ``record`` of each value rounded to single precision (`as_f32`).
FLOAT32_METHODS: dict[str, Callable[[Any, Feed], Any]] = {
    "record_f32(x)": each_value(lambda h, x: h.record_f32(x)),
    "record_many(array('f'))": many(lambda flat: array.array("f", flat)),
    "record_many(numpy float32)": many(lambda flat: np.array(flat, dtype=np.float32)),
}


def float_state(h: picollo.FloatHistogram) -> tuple[dict, list]:
    """The counts beside the buckets and the exact extremes (not the sum: its rounding
    may depend on the order), and the non-empty buckets as
    ``(side, lowest, highest, value, count)``."""
    i = h.info()
    counts = {name: getattr(i, name) for name in (
        "total", "zero", "nan", "positive_infinity", "negative_infinity", "underflow",
        "overflow", "saturated", "min", "max")}
    buckets = [(b.side, b.lowest, b.highest, b.value, b.count) for b in h]
    return counts, buckets


def recorded_state(config: dict[str, Any], pairs: list) -> tuple[dict, list]:
    """`float_state` of ``record`` of each value its number of times."""
    with picollo.FloatHistogram(**config) as h:
        record = h.record
        for x, n in pairs:
            for _ in range(n):
                record(x)
        return float_state(h)


def test_every_float_record_method_counts_like_record():
    rng = random.Random(SEED + 1)
    found, values_compared = [], 0
    for config in accepted_configs(rng, float_config, "float", FLOAT_CONFIGS):
        with picollo.FloatHistogram(**config) as h:
            feed = Feed(rng, float_values(rng, h), integers=False)
        expected = recorded_state(config, feed.pairs)
        expected32 = recorded_state(config, [(as_f32(x), n) for x, n in feed.pairs])
        methods = [(name, method, expected) for name, method in FLOAT_METHODS.items()]
        methods += [(name, method, expected32) for name, method in FLOAT32_METHODS.items()]
        found += mismatches(picollo.FloatHistogram, config, feed, methods, float_state)
        values_compared += len(feed.pairs)
    assert_no_mismatch(found, "float")
    assert compared["float"] >= FLOAT_CONFIGS
    assert values_compared >= FLOAT_CONFIGS * 1_000
