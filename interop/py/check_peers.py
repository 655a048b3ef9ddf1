#!/usr/bin/env python3
"""Picollo's HdrHistogram V2 codec and interval log against two other implementations:
PyPI `hdrhistogram` (module `hdrh`, used in-process here) and npm `hdr-histogram-js` (driven
through interop/js-peers/peers.js). Picollo's side is the `hdr_tool` example
(core/examples/hdr_tool.rs).

Every check prints PASS or FAIL with the first difference found; a final matrix says, for each
kind of artifact, which reader read which writer's output. Peer limits found along the way are
printed as notes (they are facts about the peers, not failures). Exit status 1 on any failure.

Comparisons are by bucket, never by raw value: HdrHistogram reports a percentile as its
bucket's highest equivalent value, Picollo as the bucket's midpoint. The data sets have totals
that are multiples of 1000, so the percentile ranks of P50, P90, P99 and P99.9 are whole counts
and every rank rule (Picollo's and hdr-histogram-js's ceiling, hdrh's rounding) agrees.

Usage: check_peers.py --tool PATH/hdr_tool --js-dir interop/js-peers [--write-fixtures DIR]
"""

import argparse
import array
import bisect
import io
import itertools
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, OrderedDict

from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader, HistogramLogWriter

DIGITS = [1, 2, 3, 4, 5]
# Picollo's block scale (log2 of the block size) for HdrHistogram's 1..5 significant digits.
BLOCK_SCALE = {1: 4, 2: 7, 3: 10, 4: 14, 5: 17}
RANKS = [50.0, 90.0, 99.0, 99.9, 100.0]
# Highest trackable value the peers' own histograms are built with: an hour in nanoseconds.
PEER_HIGHEST = 3_600_000_000_000
# A lowest discernible value above 1 (not a power of two: HdrHistogram rounds it down to 512).
PEER_LOWEST = 1000
# The lowest discernible values compared bucket for bucket at every precision (section 6).
UNIT_LOWESTS = [1, 1000, 1 << 20]
# hdr-histogram-js's WebAssembly decoder drops counts from this one on (see the notes).
WASM_COUNT_LIMIT = 1 << 31
# Interval log times (seconds since the epoch). The base time is 10 s before the start time and
# the intervals start 10 s or more after the base time: hdrh's reader skips intervals that
# start before StartTime unless asked for another range.
START_TIME = 1_700_000_000.0
BASE_TIME = 1_699_999_990.0

# The values behind the committed fixtures (interop/fixtures/README.md lists them too).
FIXTURE_VALUES = [
    (0, 1), (1, 2), (7, 3), (1000, 4), (1001, 5), (123_456, 6),
    (1_000_000_000, 7), (1_000_000_000_000, 8),
]
FIXTURE_INTERVALS = [
    # (tag, start relative to the base time in s, length in s, significant digits, values)
    (None, 10.0, 1.0, 3, FIXTURE_VALUES),
    ("api", 11.0, 1.0, 2, [(5, 10), (5_000, 20), (5_000_000, 30)]),
    (None, 12.0, 1.0, 3, [(42, 1), (4_200_000, 999)]),
]


# ---------------------------------------------------------------------------------------
# Data


def latency_values(seed, n):
    """Deterministic latency-like values: log-uniform over 1..2^40 (about 1.1e12), and every
    7th a small exact value 0..3000. As (value, count) pairs."""
    x = seed | 1
    mask64 = (1 << 64) - 1
    out = Counter()
    for i in range(n):
        x ^= (x << 13) & mask64
        x ^= x >> 7
        x ^= (x << 17) & mask64
        if i % 7 == 0:
            out[x % 3001] += 1
        else:
            bits = 1 + x % 40
            out[(x >> 24) & ((1 << bits) - 1)] += 1
    return sorted(out.items())


def big_counts():
    """Small exact values with counts up to 2^41 (a total that is a multiple of 1000)."""
    pairs = [(0, 3), (1, 1 << 40), (2, 17), (7, 1 << 33), (1000, 999), (65_535, 1),
             (123_456_789, 1 << 41), (10**12, 5)]
    total = sum(c for _, c in pairs)
    pairs[2] = (2, pairs[2][1] + (-total) % 1000)
    return pairs


def edge_values():
    """Values up to 2^53 - 1, the largest integer a JavaScript Number holds exactly."""
    top = (1 << 53) - 1
    pairs = [(top, 1), (top - 12345, 2), (1 << 52, 3), (123, 994)]
    return pairs


DATASETS = OrderedDict([
    ("latency", latency_values(77, 20_000)),
    ("big-counts", big_counts()),
    ("edge-2^53", edge_values()),
])


def digits_label(d):
    return f"{d} digit" + ("s" if d != 1 else "")


def values_text(pairs):
    return "".join(f"{v} {c}\n" for v, c in pairs)


def intervals_text(intervals):
    out = []
    for tag, start, length, _digits, pairs in intervals:
        out.append(f"interval {tag or '-'} {start!r} {length!r}\n")
        out.append(values_text(pairs))
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Checks and the matrix

results = []  # (name, ok, detail)
matrix = OrderedDict()  # artifact -> reader -> list of ok
notes = []


def check(name, artifact, reader, fn):
    """Run one check: fn returns None when it passes, or raises / returns a difference."""
    try:
        why = fn()
    except Exception as e:  # a peer refusing our data is a failure to report, not a crash
        why = f"{type(e).__name__}: {e}"
    ok = why is None
    results.append((name, ok, why))
    matrix.setdefault(artifact, OrderedDict()).setdefault(reader, []).append(ok)
    print(f"  {'PASS' if ok else 'FAIL'}  {name}" + ("" if ok else f"\n        {why}"), flush=True)


def note(text):
    notes.append(text)
    print(f"  NOTE  {text}", flush=True)


# ---------------------------------------------------------------------------------------
# Picollo's side: the hdr_tool example


class Tool:
    def __init__(self, path):
        self.path = path

    def run(self, args, stdin):
        p = subprocess.run([self.path] + args, input=stdin, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"hdr_tool {' '.join(args)}: {p.stderr.strip()}")
        return p.stdout

    @staticmethod
    def layout(digits, lowest=1):
        return (["--digits", str(digits)] if digits else []) + ["--lowest", str(lowest)]

    def encode(self, pairs, digits, lowest=1):
        return self.run(["encode"] + self.layout(digits, lowest), values_text(pairs)).strip()

    def report(self, pairs, digits, lowest=1):
        text = self.run(["report"] + self.layout(digits, lowest), values_text(pairs))
        return parse_reports(text)[0]

    def reports(self, intervals, digits):
        text = self.run(["report"] + self.layout(digits), intervals_text(intervals))
        return parse_reports(text)

    def decode(self, b64):
        return parse_reports(self.run(["decode"], b64))[0]

    def log_write(self, intervals, digits, start_time, base_time):
        args = ["log-write"] + self.layout(digits)
        args += ["--start-time", repr(start_time), "--base-time", repr(base_time)]
        args += ["--comment", "written by picollo's hdr_tool"]
        shifted = [(t, base_time + s, n, d, p) for t, s, n, d, p in intervals]
        return self.run(args, intervals_text(shifted))

    def log_read(self, log):
        return parse_reports(self.run(["log-read"], log))


def parse_reports(text):
    """hdr_tool's line records -> a list of reports (dicts)."""
    reports, cur, meta = [], None, {}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        kind = f[0]
        if kind in ("start_time", "base_time"):
            meta[kind] = None if f[1] == "-" else float(f[1])
            continue
        if cur is None:
            cur = {"buckets": [], "percentiles": {}, "max": None, "meta": meta}
        if kind == "header":
            cur["header"] = tuple(int(x) for x in f[1:4])
        elif kind == "interval":
            cur["interval"] = {
                "line": int(f[1]), "tag": None if f[2] == "-" else f[2],
                "start": float(f[3]), "length": float(f[4]), "max": float(f[5]),
                "digits": int(f[6]),
            }
        elif kind == "total":
            cur["total"] = int(f[1])
        elif kind == "bucket":
            cur["buckets"].append(tuple(int(x) for x in f[1:5]))
        elif kind == "percentile":
            cur["percentiles"][float(f[1])] = (int(f[2]), int(f[3]))
        elif kind == "max":
            cur["max"] = int(f[1])
        elif kind == "end":
            reports.append(cur)
            cur = None
        else:
            raise ValueError(f"unexpected hdr_tool line {line!r}")
    return reports


# ---------------------------------------------------------------------------------------
# The peers' sides


def nonzero_indices(counts):
    """Indices of the non-zero entries of hdrh's counters (a ctypes array of unsigned 64-bit
    integers), selected in C: a Python loop over millions of counters takes seconds."""
    words = array.array("Q")
    words.frombytes(bytes(counts))
    return list(itertools.compress(range(len(words)), words))


def hdrh_percentiles(h, nonzero):
    """hdrh's percentiles. Its own get_percentile_to_value_dict walks every counter in Python
    (seconds at 4 and 5 digits); above 2^20 counters the same walk runs over the non-zero
    counters only, with hdrh's own rank rule and bucket arithmetic, which gives the same
    values (a zero counter never completes a rank)."""
    if h.counts_len <= 1 << 20:
        return h.get_percentile_to_value_dict(RANKS)
    out, cumulative, k = {}, 0, 0
    targets = [h.get_target_count_at_percentile(r) for r in RANKS]
    for i in nonzero:
        cumulative += h.get_count_at_index(i)
        while k < len(RANKS) and cumulative >= targets[k]:
            out[RANKS[k]] = h.get_highest_equivalent_value(h.get_value_from_index(i))
            k += 1
    return out


def hdrh_report(h):
    """A peer report from an hdrh histogram: its non-empty buckets with the bounds hdrh
    computes, its total, its percentiles and its maximum."""
    nonzero = nonzero_indices(h.counts)
    buckets = []
    for i in nonzero:
        c = h.get_count_at_index(i)
        v = h.get_value_from_index(i)
        buckets.append((h.get_lowest_equivalent_value(v), h.get_highest_equivalent_value(v), c))
    total = h.get_total_count()
    pct = hdrh_percentiles(h, nonzero) if total else {}
    return {"total": total, "buckets": buckets, "percentiles": {float(k): v for k, v in pct.items()},
            "max": h.get_max_value(), "digits": h.significant_figures,
            "lowest": h.lowest_trackable_value}


def hdrh_build(digits, pairs, lowest=1):
    h = HdrHistogram(lowest, PEER_HIGHEST if max(v for v, _ in pairs) < PEER_HIGHEST else 1 << 62,
                     digits)
    for v, c in pairs:
        if not h.record_value(v, c):
            raise ValueError(f"hdrh refused value {v}")
    return h


def js_report(r):
    """A peer report from peers.js's answer. hdr-histogram-js keeps its maximum as the value
    plus the unit mask (Java ors it in), so with a lowest discernible value L > 1 the reported
    maximum lies up to unit - 1 past its own bucket's top: `max_slack` says by how much."""
    r = dict(r)
    unit = 1 << (r["lowest"].bit_length() - 1) if r.get("lowest") else 1
    r["max_slack"] = unit - 1
    r["buckets"] = [tuple(b) for b in r.get("buckets", [])]
    r["percentiles"] = {float(k): v for k, v in r["percentiles"].items()}
    return r


class Js:
    def __init__(self, js_dir):
        self.js_dir = js_dir

    def batch(self, requests):
        p = subprocess.run(["node", "peers.js"],
                           input=json.dumps(requests), capture_output=True, text=True,
                           cwd=self.js_dir)
        if p.returncode != 0:
            raise RuntimeError(f"node peers.js: {p.stderr.strip()}")
        return json.loads(p.stdout)


def unwrap(answer):
    if "error" in answer:
        raise RuntimeError(f"the peer refused it: {answer['error']}")
    return answer


# ---------------------------------------------------------------------------------------
# Comparisons


def mid(lo, hi):
    """Picollo's midpoint of the bucket [lo, hi]."""
    return lo + (hi - lo + 1) // 2


def same_buckets(ours, peer, what):
    """Identical layouts: identical non-empty buckets, total, percentile buckets, maximum."""
    mine = [(lo, hi, c) for lo, hi, c, _m in ours["buckets"]]
    theirs = list(peer["buckets"])
    if ours["total"] != peer["total"]:
        return f"{what}: total {peer['total']} (peer) != {ours['total']} (picollo)"
    if mine != theirs:
        diff = next(((a, b) for a, b in zip(mine, theirs) if a != b), None)
        return (f"{what}: {len(theirs)} peer buckets vs {len(mine)} ours; "
                f"first difference (picollo, peer): {diff}")
    return same_percentiles(ours, peer, what)


def same_percentiles(ours, peer, what, peer_bucket_of=None):
    """Each peer percentile (a bucket's highest equivalent value) falls in our percentile's
    bucket; with another layout (peer_bucket_of given), the peer's bucket holds ours's
    midpoint."""
    if ours["total"] == 0:
        return None
    for rank in RANKS:
        v = peer["percentiles"].get(rank)
        lo, hi = ours["percentiles"][rank]
        if v is None:
            return f"{what}: the peer gave no P{rank:g}"
        if peer_bucket_of is None:
            ok = lo <= v <= hi
        else:
            plo, phi = peer_bucket_of(v)
            ok = plo <= mid(lo, hi) <= phi
        if not ok:
            return f"{what}: peer P{rank:g} = {v} is not in our bucket [{lo}, {hi}]"
    top = peer["max"]
    lo, hi = ours["percentiles"][100.0]
    if peer_bucket_of is None and not lo <= top <= hi + peer.get("max_slack", 0):
        return f"{what}: peer max {top} is not in our top bucket [{lo}, {hi}]"
    return None


def midpoint_rule(ours, peer, what):
    """Our layout is finer than the peer's: each of our counts must land in the peer bucket
    holding our bucket's midpoint (the documented export rule)."""
    peer_buckets = list(peer["buckets"])
    lows = [lo for lo, _hi, _c in peer_buckets]

    def peer_bucket_of(v):
        k = bisect.bisect_right(lows, v) - 1
        if k >= 0 and peer_buckets[k][0] <= v <= peer_buckets[k][1]:
            return peer_buckets[k][:2]
        raise LookupError(f"{what}: no non-empty peer bucket holds {v}")

    expected = Counter()
    for lo, hi, c, m in ours["buckets"]:
        expected[peer_bucket_of(m)] += c
    got = Counter({(lo, hi): c for lo, hi, c in peer_buckets})
    if expected != got:
        bad = sorted(set(expected.items()) ^ set(got.items()))[:3]
        return f"{what}: counts differ from the midpoint rule: {bad}"
    if ours["total"] != peer["total"]:
        return f"{what}: total {peer['total']} (peer) != {ours['total']} (picollo)"
    return same_percentiles(ours, peer, what, peer_bucket_of)


def close(a, b, eps=1e-6):
    return abs(a - b) <= eps * max(1.0, abs(a), abs(b))


# ---------------------------------------------------------------------------------------
# The checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--js-dir", required=True)
    ap.add_argument("--fixtures", required=True, help="the committed fixtures (read, or written)")
    ap.add_argument("--write-fixtures", action="store_true")
    args = ap.parse_args()
    tool, js = Tool(args.tool), Js(args.js_dir)
    if args.write_fixtures:
        write_fixtures(args.fixtures, js)

    # Picollo's encodings of every data set at every matching precision, and at its default
    # 0.1 % layout (exported at 3 digits), with our own reports of what was encoded.
    ours = OrderedDict()
    for name, pairs in DATASETS.items():
        for d in DIGITS + [None]:
            ours[(name, d)] = (tool.encode(pairs, d), tool.report(pairs, d))

    # One node process answers every hdr-histogram-js request of the run.
    requests, slots = [], {}

    def ask(key, req):
        slots[key] = len(requests)
        requests.append(req)

    for key, (b64, _r) in ours.items():
        ask(("decode", key), {"op": "decode", "b64": b64})
        ask(("decode-wasm", key), {"op": "decode", "b64": b64, "wasm": True})
    for name, pairs in DATASETS.items():
        for d in DIGITS:
            ask(("encode", name, d, 1), {"op": "encode", "digits": d, "values": pairs})
            ask(("encode", name, d, PEER_LOWEST),
                {"op": "encode", "digits": d, "lowest": PEER_LOWEST, "values": pairs})
    js_intervals = [
        (None, 10.0, 1.0, 3, DATASETS["latency"]),
        ("api", 11.0, 1.5, 2, DATASETS["big-counts"]),
        ("db", 12.5, 1.0, 5, latency_values(5, 1000)),
        (None, 13.5, 1.0, 1, [(7, 1000)]),
    ]
    ask(("log-write",), {
        "op": "log-write", "startTimeMs": START_TIME * 1000, "baseTimeSec": BASE_TIME,
        "intervals": [{"tag": t, "start": s, "end": s + n, "digits": d, "values": p}
                      for t, s, n, d, p in js_intervals]})
    our_intervals = [
        (None, 10.0, 1.0, 3, DATASETS["latency"]),
        ("api", 11.0, 2.0, 3, DATASETS["big-counts"]),
        ("db", 13.0, 1.0, 3, latency_values(9, 3000)),
        (None, 14.0, 0.5, 3, [(1, 1)]),
        (None, 14.5, 0.5, 3, []),
    ]
    our_log = tool.log_write(our_intervals, 3, START_TIME, BASE_TIME)
    ask(("log-read",), {"op": "log-read", "log": our_log})
    for name in FIXTURE_BLOBS:
        with open(os.path.join(args.fixtures, name)) as f:
            ask(("fixture", name), {"op": "decode", "b64": f.read()})
    unit_pairs = DATASETS["latency"]
    for d in DIGITS:
        for low in UNIT_LOWESTS:
            ask(("unit-encode", d, low),
                {"op": "encode", "digits": d, "lowest": low, "values": unit_pairs})
            ask(("unit-decode", d, low),
                {"op": "decode", "b64": tool.encode(unit_pairs, d, low)})
    ask(("limit-2^53",), {"op": "decode", "b64": tool.encode([(1000, 1), (1 << 60, 3)], 2)})
    ask(("limit-32",), {"op": "decode", "b64": ours[("big-counts", 3)][0], "bitBucketSize": 32})
    answers = js.batch(requests)

    def js_answer(*key):
        return unwrap(answers[slots[key]])

    print("\n== 1. Picollo encodes, the peers decode (same layouts, 1..5 digits)")
    for (name, d), (b64, mine) in ours.items():
        if d is None:
            continue
        what = f"{name}, {digits_label(d)}"
        check(f"hdrh decodes ours: {what}", f"V2 by picollo ({digits_label(d)})", "hdrh",
              lambda: same_buckets(mine, hdrh_report(HdrHistogram.decode(b64)), what)
              or header_is(HdrHistogram.decode(b64).significant_figures, d))
        check(f"hdr-histogram-js decodes ours: {what}", f"V2 by picollo ({digits_label(d)})",
              "hdr-histogram-js",
              lambda: same_buckets(mine, js_report(js_answer("decode", (name, d))), what))
        if max(c for _v, c in DATASETS[name]) < WASM_COUNT_LIMIT:
            check(f"hdr-histogram-js (WebAssembly) decodes ours: {what} (total, percentiles)",
                  f"V2 by picollo ({digits_label(d)})", "hdr-histogram-js",
                  lambda: wasm_same(mine, js_report(js_answer("decode-wasm", (name, d))), what))

    print("\n== 2. The peers encode, Picollo decodes")
    for name, pairs in DATASETS.items():
        for d in DIGITS:
            what = f"{name}, {digits_label(d)}"
            h = hdrh_build(d, pairs)
            b64 = h.encode().decode()
            check(f"we decode hdrh's: {what}", f"V2 by hdrh ({digits_label(d)})", "picollo",
                  lambda: same_buckets(tool.decode(b64), hdrh_report(h), what))
            h2 = hdrh_build(d, pairs, PEER_LOWEST)
            b64_2 = h2.encode().decode()
            check(f"we decode hdrh's with lowest {PEER_LOWEST}: {what}",
                  f"V2 by hdrh (lowest {PEER_LOWEST})", "picollo",
                  lambda: same_buckets(tool.decode(b64_2), hdrh_report(h2), what))
            a = js_answer("encode", name, d, 1)
            check(f"we decode hdr-histogram-js's: {what}", f"V2 by hdr-histogram-js ({digits_label(d)})",
                  "picollo",
                  lambda: same_buckets(tool.decode(a["b64"]), js_report(a["report"]), what))
            a2 = js_answer("encode", name, d, PEER_LOWEST)
            check(f"we decode hdr-histogram-js's with lowest {PEER_LOWEST}: {what}",
                  f"V2 by hdr-histogram-js (lowest {PEER_LOWEST})", "picollo",
                  lambda: same_buckets(tool.decode(a2["b64"]), js_report(a2["report"]), what))

    print("\n== 3. Interval logs")
    hdrh_log, hdrh_hists = write_hdrh_log(js_intervals)
    check("we read hdrh's log (4 intervals, StartTime, BaseTime)", "log by hdrh", "picollo",
          lambda: read_peer_log(tool, hdrh_log, js_intervals, hdrh_hists, 1e6, floor_max=True,
                                tags_written=False))
    js_log = js_answer("log-write")
    check("we read hdr-histogram-js's log (4 intervals, tags, StartTime, BaseTime)",
          "log by hdr-histogram-js", "picollo",
          lambda: read_peer_log(tool, js_log["log"], js_intervals,
                                [js_report(r) for r in js_log["reports"]], 1e3, floor_max=False,
                                tags_written=True))
    expected = tool.reports(our_intervals, 3)
    check("hdrh reads our log (5 intervals, tags, StartTime, BaseTime)", "log by picollo", "hdrh",
          lambda: hdrh_reads_log(our_log, our_intervals, expected))
    check("hdr-histogram-js reads our log (5 intervals, tags, StartTime, BaseTime)",
          "log by picollo", "hdr-histogram-js",
          lambda: js_reads_log(js_answer("log-read"), our_intervals, expected))
    check("we read our own log back", "log by picollo", "picollo",
          lambda: self_reads_log(tool, our_log, our_intervals, expected))

    print("\n== 4. Picollo's default 0.1 % layout (block 2^9), exported at 3 digits")
    for name in DATASETS:
        b64, mine = ours[(name, None)]
        what = f"{name}, 0.1 %"
        check(f"hdrh decodes ours: {what}", "V2 by picollo (0.1 %, as 3 digits)", "hdrh",
              lambda: header_is(HdrHistogram.decode(b64).significant_figures, 3)
              or midpoint_rule(mine, hdrh_report(HdrHistogram.decode(b64)), what))
        check(f"hdr-histogram-js decodes ours: {what}", "V2 by picollo (0.1 %, as 3 digits)",
              "hdr-histogram-js",
              lambda: header_is(js_answer("decode", (name, None))["digits"], 3)
              or midpoint_rule(mine, js_report(js_answer("decode", (name, None))), what))

    print("\n== 5. Committed fixtures (interop/fixtures)")
    check_fixtures(tool, args.fixtures, lambda name: js_answer("fixture", name))

    print("\n== 6. Lowest discernible values 1, 1000 and 2^20 at 1..5 digits, bucket for bucket")
    unit_checks(tool, unit_pairs, js_answer)

    print("\n== Peer limits observed in this run")
    lim = answers[slots[("limit-2^53",)]]
    note("hdr-histogram-js keeps values in JavaScript Numbers: a blob with 3 counts at 2^60 "
         f"decodes to total {lim.get('total')} (the counts past 2^53 are dropped without an "
         "error); values up to 2^53 - 1 decode exactly (the edge-2^53 data set above)")
    lim = answers[slots[("decode-wasm", ("big-counts", 3))]]
    note("hdr-histogram-js's WebAssembly decoder loses counts of 2^31 and more (its varint "
         "reader keeps 32 bits; the pure-JS decoder reads them): the big-counts blob decodes "
         f"there to total {lim.get('total')}, so the WebAssembly checks above use data sets "
         "with smaller counts")
    lim = answers[slots[("limit-32",)]]
    note("hdr-histogram-js decodes into 32-bit counters unless asked otherwise "
         "(decodeFromCompressedBase64(b64, 64) / HistogramLogReader(text, 64)): the big-counts "
         f"blob decodes to total {lim.get('total')} instead of {ours[('big-counts', 3)][1]['total']}")
    note("hdrh 0.10.8's HistogramLogWriter writes no tags (a histogram's tag is ignored), "
         "declares log format 1.2, formats the max with floor division, and its "
         "output_start_time raises " + hdrh_start_time_error() + "; the StartTime header of "
         "its log here is written with output_comment")
    note("hdr-histogram-js 3.0.1's HistogramLogWriter has no BaseTime method (written here with "
         "outputComment) and divides the max by 1000 by default (1e6 in Java and hdrh); its "
         "encoder writes the normalizing index offset as 1 and the integer-to-double ratio as "
         "the integer 1, which Picollo's decoder accepts")
    late = tool.log_write(our_intervals[:2], 3, START_TIME + 100, BASE_TIME)
    note("hdrh's HistogramLogReader returns, by default, only intervals starting at or after "
         "the log's StartTime: our 2-interval log with a StartTime 100 s later reads as "
         f"{len(hdrh_read_log(late)[0])} intervals there (Picollo and hdr-histogram-js read every "
         "line)")
    note("hdr-histogram-js 3.0.1 keeps its maximum as value + (unit - 1) where Java ors the "
         "unit mask in: with a lowest discernible value above 1 its maxValue lies up to unit - 1 "
         "past the top of its own highest bucket (the checks above allow that much)")
    note("hdrh computes a percentile's rank as int(p * N / 100 + 0.5) (rounding), Java, "
         "hdr-histogram-js and Picollo as a ceiling: they agree when p * N / 100 is whole")

    print_matrix()
    failed = [r for r in results if not r[1]]
    print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def mismatches(ours, peer):
    """Buckets (lowest, highest, count) in one report and not the other."""
    mine = Counter((lo, hi, c) for lo, hi, c, _m in ours["buckets"])
    return sum(((mine - Counter(peer["buckets"])) + (Counter(peer["buckets"]) - mine)).values())


def unit_checks(tool, pairs, js_answer):
    """Every (digits, lowest): each peer's encoding decodes into exactly the peer's buckets,
    and ours (unit 2^floor(log2 lowest)) decodes in each peer into exactly ours, with that unit
    as its lowest discernible value. Ends with the table of buckets compared and mismatches,
    and the example of issue 27."""
    table = []
    for d in DIGITS:
        for low in UNIT_LOWESTS:
            what = f"{digits_label(d)}, lowest {low}"
            unit = 1 << (low.bit_length() - 1)
            h = hdrh_build(d, pairs, low)
            peer = hdrh_report(h)
            by_hdrh = tool.decode(h.encode().decode())
            a = js_answer("unit-encode", d, low)
            by_js = tool.decode(a["b64"])
            mine = tool.report(pairs, d, low)
            b64 = tool.encode(pairs, d, low)
            in_hdrh = hdrh_report(HdrHistogram.decode(b64))
            in_js = js_report(js_answer("unit-decode", d, low))
            pairs_of = [("hdrh -> picollo", by_hdrh, peer), ("hdr-histogram-js -> picollo",
                        by_js, js_report(a["report"])), ("picollo -> hdrh", mine, in_hdrh),
                        ("picollo -> hdr-histogram-js", mine, in_js)]
            row = [d, low]
            for direction, ours, theirs in pairs_of:
                writer, reader = direction.split()[0], direction.split()[-1]
                check(f"{direction}: {what}", f"V2 by {writer} (lowest {low}, 1..5 digits)", reader,
                      lambda o=ours, t=theirs: same_buckets(o, t, what)
                      or (None if t["lowest"] in (low, unit) else
                          f"{what}: lowest discernible value {t['lowest']} in the peer"))
                row.append(f"{len(theirs['buckets'])}/{mismatches(ours, theirs)}")
            table.append(row)
    heads = ["digits", "lowest", "hdrh->us", "js->us", "us->hdrh", "us->js"]
    print("  buckets compared / mismatches per (digits, lowest) and direction:")
    print("  " + " ".join(f"{h:>12}" for h in heads))
    for row in table:
        print("  " + " ".join(f"{str(x):>12}" for x in row))
    h = HdrHistogram(1000, 1 << 45, 3)
    for v in (1000, 6683, 30040, 161204):
        h.record_value(v)
    p50 = tool.decode(h.encode().decode())["percentiles"][50.0]
    check("issue 27's example: hdrh (1000, 2^45, 3) with 1000, 6683, 30040, 161204 decodes "
          f"to P50 bucket {list(p50)}", "V2 by hdrh (lowest 1000)", "picollo",
          lambda: None if p50 == (6656, 7167) and h.get_value_at_percentile(50) == 7167
          else f"P50 bucket {p50}, hdrh's P50 {h.get_value_at_percentile(50)}")


def header_is(got, want):
    return None if got == want else f"significant digits {got} in the header, expected {want}"


def wasm_same(ours, peer, what):
    if ours["total"] != peer["total"]:
        return f"{what}: total {peer['total']} (peer) != {ours['total']} (picollo)"
    return same_percentiles(ours, peer, what)


def hdrh_start_time_error():
    try:
        HistogramLogWriter(io.StringIO()).output_start_time(START_TIME * 1000)
        return "nothing"
    except Exception as e:  # the fact to report
        return f"{type(e).__name__} ({e})"


def write_hdrh_log(intervals):
    """hdrh writes a log of `intervals`, with StartTime and BaseTime headers."""
    buf = io.StringIO()
    w = HistogramLogWriter(buf)
    w.output_log_format_version()
    try:
        w.output_start_time(START_TIME * 1000)
    except Exception:  # noted in the limits
        w.output_comment(f"[StartTime: {START_TIME:.3f} (seconds since epoch), 2023-11-14]")
    w.output_base_time(BASE_TIME * 1000)
    w.output_legend()
    hists = []
    for tag, start, length, d, pairs in intervals:
        h = hdrh_build(d, pairs)
        h.set_tag(tag)
        # Times relative to the base time (hdrh's writer does not subtract it).
        w.output_interval_histogram(h, start, start + length, 1e6)
        hists.append(hdrh_report(h))
    return buf.getvalue(), hists


def read_peer_log(tool, log, intervals, peer_reports, ratio, floor_max, tags_written):
    """Our LogReader on a peer's log: times, tags (when the writer writes them), maxima and
    buckets of every interval."""
    got = tool.log_read(log)
    if len(got) != len(intervals):
        return f"{len(got)} intervals read, {len(intervals)} written"
    meta = got[0]["meta"]
    if meta.get("start_time") != START_TIME or meta.get("base_time") != BASE_TIME:
        return f"headers read as {meta}"
    for r, (tag, start, length, d, _pairs), peer in zip(got, intervals, peer_reports):
        i = r["interval"]
        want_tag = tag if tags_written else None
        if i["tag"] != want_tag:
            return f"line {i['line']}: tag {i['tag']!r}, expected {want_tag!r}"
        if not (close(i["start"], BASE_TIME + start) and close(i["length"], length)):
            return f"line {i['line']}: start {i['start']} length {i['length']}"
        if i["digits"] != d:
            return f"line {i['line']}: {i['digits']} digits, expected {d}"
        want_max = peer["max"] // ratio if floor_max else round(peer["max"] / ratio, 3)
        if not close(i["max"], want_max):
            return f"line {i['line']}: max {i['max']}, expected {want_max}"
        why = same_buckets(r, peer, f"line {i['line']}")
        if why:
            return why
    return None


def hdrh_read_log(log):
    """Every interval hdrh's HistogramLogReader returns from `log` (it reads files only),
    and the StartTime it saw."""
    with tempfile.NamedTemporaryFile("w", suffix=".hlog", delete=False) as f:
        f.write(log)
    try:
        reader = HistogramLogReader(f.name, HdrHistogram(1, PEER_HIGHEST, 3))
        got = []
        while True:
            h = reader.get_next_interval_histogram()
            if h is None:
                break
            got.append(h)
        reader.close()
    finally:
        os.unlink(f.name)
    return got, reader.get_start_time_sec()


def hdrh_reads_log(log, intervals, expected):
    got, start_time = hdrh_read_log(log)
    if len(got) != len(intervals):
        return f"hdrh read {len(got)} intervals, we wrote {len(intervals)}"
    if start_time != START_TIME:
        return f"hdrh read StartTime {start_time}"
    for k, (h, (tag, start, length, _d, _p), mine) in enumerate(zip(got, intervals, expected)):
        if h.get_tag() != tag:
            return f"interval {k}: hdrh read tag {h.get_tag()!r}, expected {tag!r}"
        if not (close(h.get_start_time_stamp(), (BASE_TIME + start) * 1000)
                and close(h.get_end_time_stamp(), (BASE_TIME + start + length) * 1000)):
            return f"interval {k}: hdrh read times {h.get_start_time_stamp()}, {h.get_end_time_stamp()}"
        why = same_buckets(mine, hdrh_report(h), f"interval {k}")
        if why:
            return why
    return None


def js_reads_log(answer, intervals, expected):
    got = answer["intervals"]
    if len(got) != len(intervals):
        return f"hdr-histogram-js read {len(got)} intervals, we wrote {len(intervals)}"
    for k, (g, (tag, start, length, _d, _p), mine) in enumerate(zip(got, intervals, expected)):
        if g["tag"] != tag:
            return f"interval {k}: tag {g['tag']!r}, expected {tag!r}"
        if not (close(g["startMs"], (BASE_TIME + start) * 1000)
                and close(g["endMs"], (BASE_TIME + start + length) * 1000)):
            return f"interval {k}: times {g['startMs']}, {g['endMs']}"
        why = same_buckets(mine, js_report(g["report"]), f"interval {k}")
        if why:
            return why
    return None


def self_reads_log(tool, log, intervals, expected):
    got = tool.log_read(log)
    if len(got) != len(intervals):
        return f"{len(got)} intervals read, {len(intervals)} written"
    for r, (tag, start, length, _d, _p), mine in zip(got, intervals, expected):
        i = r["interval"]
        if i["tag"] != tag or not close(i["start"], BASE_TIME + start):
            return f"line {i['line']}: tag {i['tag']!r} start {i['start']}"
        if [b[:3] for b in r["buckets"]] != [b[:3] for b in mine["buckets"]]:
            return f"line {i['line']}: buckets differ"
    return None


# ---------------------------------------------------------------------------------------
# Fixtures

FIXTURE_BLOBS = OrderedDict([("hdrh-d3.b64", "hdrh"), ("hdr-histogram-js-d3.b64", "hdr-histogram-js")])
FIXTURE_LOGS = OrderedDict([("hdrh.hlog", "hdrh"), ("hdr-histogram-js.hlog", "hdr-histogram-js")])
FIXTURE_FILES = list(FIXTURE_BLOBS) + list(FIXTURE_LOGS)


def write_fixtures(directory, js):
    """Regenerate the committed fixtures from the peers (see interop/fixtures/README.md)."""
    os.makedirs(directory, exist_ok=True)
    h = hdrh_build(3, FIXTURE_VALUES)
    with open(os.path.join(directory, "hdrh-d3.b64"), "w") as f:
        f.write(h.encode().decode() + "\n")
    log, _ = write_hdrh_log(FIXTURE_INTERVALS)
    with open(os.path.join(directory, "hdrh.hlog"), "w") as f:
        f.write(log)
    a, b = js.batch([
        {"op": "encode", "digits": 3, "values": FIXTURE_VALUES},
        {"op": "log-write", "startTimeMs": START_TIME * 1000, "baseTimeSec": BASE_TIME,
         "intervals": [{"tag": t, "start": s, "end": s + n, "digits": d, "values": p}
                       for t, s, n, d, p in FIXTURE_INTERVALS]},
    ])
    with open(os.path.join(directory, "hdr-histogram-js-d3.b64"), "w") as f:
        f.write(unwrap(a)["b64"] + "\n")
    with open(os.path.join(directory, "hdr-histogram-js.hlog"), "w") as f:
        f.write(unwrap(b)["log"])
    print(f"wrote {', '.join(FIXTURE_FILES)} to {directory}")


def check_fixtures(tool, directory, js_decoded):
    """The committed fixtures decode to the documented values: each blob (in Picollo and in
    both peers) to the same buckets as Picollo's own histogram of those values, each log (in
    Picollo) to its intervals."""
    def read(name):
        with open(os.path.join(directory, name)) as f:
            return f.read()

    want = tool.report(FIXTURE_VALUES, 3)
    for name, writer in FIXTURE_BLOBS.items():
        artifact = f"fixture blob by {writer}"
        check(f"we decode the committed {name}", artifact, "picollo",
              lambda: same_buckets(tool.decode(read(name)), strip(want), name))
        check(f"hdrh decodes the committed {name}", artifact, "hdrh",
              lambda: same_buckets(want, hdrh_report(HdrHistogram.decode(read(name).strip())),
                                   name))
        check(f"hdr-histogram-js decodes the committed {name}", artifact, "hdr-histogram-js",
              lambda: same_buckets(want, js_report(unwrap(js_decoded(name))), name))
    for name, writer in FIXTURE_LOGS.items():
        tagged = writer == "hdr-histogram-js"  # hdrh's writer drops tags

        def run(name=name, tagged=tagged):
            got = tool.log_read(read(name))
            if len(got) != len(FIXTURE_INTERVALS):
                return f"{len(got)} intervals"
            for r, (tag, start, _n, d, pairs) in zip(got, FIXTURE_INTERVALS):
                i = r["interval"]
                if i["tag"] != (tag if tagged else None) or not close(i["start"], BASE_TIME + start):
                    return f"line {i['line']}: tag {i['tag']!r}, start {i['start']}"
                why = same_buckets(r, strip(tool.report(pairs, d)), f"{name} line {i['line']}")
                if why:
                    return why
            return None
        check(f"we read the committed {name}", f"fixture log by {writer}", "picollo", run)


def strip(report):
    """A report of ours in the peers' shape (buckets without midpoints, max as the top)."""
    r = dict(report)
    r["buckets"] = [b[:3] for b in report["buckets"]]
    r["percentiles"] = {k: hi for k, (lo, hi) in report["percentiles"].items()}
    return r


# ---------------------------------------------------------------------------------------


def print_matrix():
    readers = ["picollo", "hdrh", "hdr-histogram-js"]
    print("\n== Matrix: who reads what (PASS: every check of the cell passed; '-': not checked)")
    width = max(len(a) for a in matrix) + 2
    print(f"  {'written by / artifact':<{width}}" + "".join(f"{r:>18}" for r in readers))
    writers = ["picollo", "hdrh", "hdr-histogram-js"]

    def order(artifact):
        fixture = artifact.startswith("fixture")
        by = next((k for k, w in enumerate(writers) if f"by {w}" in artifact), len(writers))
        return (fixture, "log" in artifact, by, "lowest" in artifact)

    for artifact in sorted(matrix, key=order):
        cells = matrix[artifact]
        row = []
        for r in readers:
            oks = cells.get(r)
            if not oks:
                row.append("-")
            else:
                row.append(f"{'PASS' if all(oks) else 'FAIL'} ({sum(oks)}/{len(oks)})")
        print(f"  {artifact:<{width}}" + "".join(f"{c:>18}" for c in row))


if __name__ == "__main__":
    sys.exit(main())
