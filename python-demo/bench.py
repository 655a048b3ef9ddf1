"""What recording and querying cost from Python, next to the `hdrh` package (HdrHistogram's
Python port), in one run.

    python python-demo/bench.py          # needs hdrh (python-demo/requirements.txt)
    python python-demo/bench.py --quick  # a smoke run (the test suite's)

Figures are ns per value (µs per summary), best of several passes; the contenders take
turns within each pass. ``bare`` is one ctypes call of ``picollo_histogram_record``
through ``ctypes.PyDLL`` with the handle as an address, in a loop like the others: the
floor a ctypes binding cannot go under, which ``Histogram.record`` is compared with.
``FloatHistogram`` records the same values as doubles (sparse, relative error 0.1 %).
The last line is the one scripts read:
``bench python: record=<ns> bare=<ns> buffered=<ns> record_many=<ns> summary=<us>
hdrh_record=<ns> hdrh_summary=<us> percentile=<us> bare_percentile=<us> merge=<us>
bare_merge=<us> record_many_numpy=<ns>``: a percentile and a merge through the binding and
bare; ``record_many_numpy`` is one ``record_many`` of a numpy ``uint64`` array of 1,000,000
values (read in place; ``nan`` without numpy), printed with the machine and its load.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from array import array

import picollo
from picollo import _abi, _native

try:
    import numpy as np
except ImportError:  # the array figures are still worth having
    np = None

try:
    from hdrh.histogram import HdrHistogram
except ImportError:  # the figures are still worth having without the peer
    HdrHistogram = None

VALUES = 200_000
PASSES = 7
#: Calls per pass of each summary (hdrh's takes a fifth of a second).
SUMMARY_CALLS = {"summary": 50, "float_summary": 50, "hdrh_summary": 2, "percentile": 100,
                 "bare_percentile": 100, "merge": 20, "bare_merge": 20}
MAX_VALUE = 7_716_549_600
STANDARD_RANKS = [0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100]


def workload(n: int) -> list[int]:
    """``r³ · MAX_VALUE`` from SplitMix64 (the Rust and C benches' values)."""
    state, out = 0x5EED, []
    mask = (1 << 64) - 1
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        r = ((z ^ (z >> 31)) >> 11) / float(1 << 53)
        out.append(int(r * r * r * MAX_VALUE))
    return out


#: Values of the numpy record_many figures (one call each).
NUMPY_VALUES = 1_000_000


def numpy_record_many(best: dict) -> None:
    """``record_many`` of 1,000,000 values as numpy uint64, int64 and float64 arrays (ns a
    value, best of the passes): the arrays are read in place, one C call each; beside the
    uint64 one, the bare C call on the same array."""
    if np is None:
        return
    r = np.random.default_rng(0x5EED).random(NUMPY_VALUES)
    arrays = {"record_many_numpy": (r ** 3 * MAX_VALUE).astype(np.uint64)}
    arrays["record_many_numpy_i64"] = arrays["record_many_numpy"].astype(np.int64)
    arrays["float_record_many_numpy"] = r ** 3 * MAX_VALUE
    with picollo.Histogram(0.001, max=MAX_VALUE, counter_bits=32) as h, \
            picollo.FloatHistogram(0.001, counter_bits=32) as fh:
        u64 = arrays["record_many_numpy"]
        arrays["bare_record_many_numpy"] = u64  # the C call alone: the floor for the binding

        def bare(_, f=_native.lib.picollo_histogram_record_many, p=h._ptr, a=u64.ctypes.data):
            f(p, a, NUMPY_VALUES)

        calls = {name: h.record_many for name in arrays}
        calls.update(float_record_many_numpy=fh.record_many, bare_record_many_numpy=bare)
        for _ in range(PASSES):
            for name, data in arrays.items():
                many = calls[name]
                start = time.perf_counter()
                many(data)
                ns = (time.perf_counter() - start) / NUMPY_VALUES * 1e9
                best[name] = min(best.get(name, float("inf")), ns)


def machine() -> str:
    """The CPU's model name, the CPUs and the load average, for the figures' line."""
    model = "an unnamed CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f
                          if line.startswith("model name")), model)
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{model}, {os.cpu_count()} CPUs, load average {load}"


def per_value(fn, values, best: dict, name: str) -> None:
    start = time.perf_counter()
    fn(values)
    ns = (time.perf_counter() - start) / len(values) * 1e9
    best[name] = min(best.get(name, float("inf")), ns)


def calls_beside_bare(h, address: int) -> dict:
    """A percentile and a merge through the binding, and the same C functions called bare
    (``ctypes.PyDLL``, addresses): what the binding adds to a call."""
    lib = ctypes.PyDLL(_native.lib._name)
    bare_percentile_fn = lib.picollo_histogram_percentile
    bare_percentile_fn.restype = ctypes.c_int
    bare_percentile_fn.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_void_p]
    out = _abi.picollo_percentile()
    out_address = ctypes.addressof(out)
    bare_add_fn = lib.picollo_histogram_add
    bare_add_fn.restype = ctypes.c_int
    bare_add_fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    dst = picollo.Histogram(0.001, max=MAX_VALUE, counter_bits=32)
    dst_address = ctypes.cast(dst._h, ctypes.c_void_p).value

    def percentile():
        h.percentile(99.9)

    def bare_percentile(keep=out):  # `keep`: the struct lives as long as the closure
        bare_percentile_fn(address, 99.9, out_address)

    def merge():
        dst.add(h)

    def bare_merge(keep=dst):  # `keep`: the receiver lives as long as the closure
        bare_add_fn(dst_address, address)

    return {"percentile": percentile, "bare_percentile": bare_percentile, "merge": merge,
            "bare_merge": bare_merge}


def main() -> int:
    global VALUES, PASSES
    if "--quick" in sys.argv[1:]:  # the test suite's smoke run
        VALUES, PASSES = 20_000, 2
    values = workload(VALUES)
    packed = array("Q", values)
    h = picollo.Histogram(0.001, max=MAX_VALUE, counter_bits=32)
    address = ctypes.cast(h._h, ctypes.c_void_p).value
    bare_fn = ctypes.PyDLL(_native.lib._name).picollo_histogram_record
    bare_fn.restype, bare_fn.argtypes = None, [ctypes.c_void_p, ctypes.c_uint64]
    cdll_fn = _native.lib.picollo_histogram_record
    handle = h._h

    def bare(vs):
        f, a = bare_fn, address
        for v in vs:
            f(a, v)

    def cdll(vs):
        f, p = cdll_fn, handle
        for v in vs:
            f(p, v)

    def record(vs):
        r = h.record
        for v in vs:
            r(v)

    buffered_recorder = h.buffered()

    def buffered(vs):
        r = buffered_recorder.record
        for v in vs:
            r(v)
        buffered_recorder.flush()

    def record_many(vs):
        h.record_many(packed)

    doubles = [float(v) for v in values]
    packed_doubles = array("d", doubles)
    fh = picollo.FloatHistogram(0.001, counter_bits=32)

    def float_record(vs):
        r = fh.record
        for v in doubles:
            r(v)

    def float_record_many(vs):
        fh.record_many(packed_doubles)

    contenders = {"bare": bare, "cdll": cdll, "record": record, "buffered": buffered,
                  "record_many": record_many, "float_record": float_record,
                  "float_record_many": float_record_many}
    hd = None
    if HdrHistogram is not None:
        hd = HdrHistogram(1, MAX_VALUE, 3)

        def hdrh_record(vs):
            r = hd.record_value
            for v in vs:
                r(v)

        contenders["hdrh_record"] = hdrh_record
    best: dict[str, float] = {}
    for _ in range(PASSES):
        for name, fn in contenders.items():
            per_value(fn, values, best, name)

    numpy_record_many(best)

    # Summaries: the 16 standard ranks, mean and stdev.
    def picollo_summary():
        h.summary()

    def hdrh_summary():
        hd.get_percentile_to_value_dict(STANDARD_RANKS)
        hd.get_mean_value()
        hd.get_stddev()

    def float_summary():
        fh.summary()

    queries = {"summary": picollo_summary, "float_summary": float_summary}
    queries.update(calls_beside_bare(h, address))
    if hd is not None:
        queries["hdrh_summary"] = hdrh_summary
    us: dict[str, float] = {}
    for _ in range(PASSES):
        for name, fn in queries.items():
            calls = SUMMARY_CALLS[name]
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            per_call = (time.perf_counter() - start) / calls * 1e6
            us[name] = min(us.get(name, float("inf")), per_call)

    print(f"python {sys.version.split()[0]}, {VALUES:,} values r^3 * {MAX_VALUE:,}, relative "
          f"error 0.1 %, u32 counters, best of {PASSES}; on {machine()}")
    labels = {
        "bare": "bare ctypes call (PyDLL, address)",
        "cdll": "bare ctypes call (CDLL, handle)",
        "record": "Histogram.record",
        "buffered": "BufferedRecorder.record",
        "record_many": "Histogram.record_many(array)",
        "float_record": "FloatHistogram.record",
        "float_record_many": "FloatHistogram.record_many(array d)",
        "hdrh_record": "hdrh record_value",
        "record_many_numpy": "Histogram.record_many(numpy u64)",
        "record_many_numpy_i64": "Histogram.record_many(numpy i64)",
        "bare_record_many_numpy": "bare picollo_histogram_record_many",
        "float_record_many_numpy": "FloatHistogram.record_many(numpy f64)",
    }
    us_labels = {
        "percentile": "Histogram.percentile(99.9)",
        "bare_percentile": "bare picollo_histogram_percentile",
        "merge": "Histogram.add (same buckets)",
        "bare_merge": "bare picollo_histogram_add",
    }
    for name, ns in best.items():
        print(f"  {labels[name]:<36} {ns:8.1f} ns/value")
    for name, t in us.items():
        print(f"  {us_labels.get(name, name):<36} {t:8.1f} us")
    print(f"  Histogram.record / bare call: {best['record'] / best['bare']:.2f}x")
    if np is not None:
        print(f"  record_many(numpy u64) / bare record_many: "
              f"{best['record_many_numpy'] / best['bare_record_many_numpy']:.2f}x")
    print(f"  FloatHistogram.record / Histogram.record: "
          f"{best['float_record'] / best['record']:.2f}x")
    if hd is not None:
        print(f"  hdrh record_value / Histogram.record: {best['hdrh_record'] / best['record']:.2f}x")
        print(f"  hdrh summary / picollo summary: {us['hdrh_summary'] / us['summary']:.2f}x")
    print(
        f"bench python: record={best['record']:.1f} bare={best['bare']:.1f} "
        f"buffered={best['buffered']:.1f} record_many={best['record_many']:.1f} "
        f"summary={us['summary']:.1f} hdrh_record={best.get('hdrh_record', float('nan')):.1f} "
        f"hdrh_summary={us.get('hdrh_summary', float('nan')):.1f} "
        f"percentile={us['percentile']:.2f} bare_percentile={us['bare_percentile']:.2f} "
        f"merge={us['merge']:.2f} bare_merge={us['bare_merge']:.2f} "
        f"record_many_numpy={best.get('record_many_numpy', float('nan')):.2f}"
    )
    h.close()
    fh.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
