"""Exact metrics (ABI 1.16): the ``Emulated:*`` counters of Picollo's QEMU plugin.

Natively (every run of the suite): time is never exact (`is_exact` False, `constant`
refused, `percentile` the histogram's value), ``Emulated:Instructions`` is refused as
unsupported with a message naming ``picollo emulate``, `perf.emulation()` says so, and
``Emulated:Cycles`` is no counter at all.

Under the plugin (the emulate stage runs this file as
``picollo emulate -- .venv/bin/python -m pytest python-demo/tests/test_emulated.py``; the
tests skip otherwise): a function doing fixed work has one instruction count per call, its
P0, P50 and P100 are that count, an A/A comparison finds no difference, and one more
iteration of a loop finds the same positive difference in every comparison. Every verdict
word of `Comparison.exact` is checked against the library's own ``exact:`` line. Python
runs 20-50 times slower there: the runs are short."""

from __future__ import annotations

import math
import random
import re
import sys

import pytest

import picollo

if not sys.platform.startswith("linux"):
    pytest.skip("the benchmark harness exists on Linux only", allow_module_level=True)

from picollo import bench, perf  # noqa: E402
from workloads import busy  # noqa: E402

INSTRUCTIONS = "Emulated:Instructions"
EMULATION = perf.emulation()
EMULATED = EMULATION.startswith("emulated by Picollo's QEMU plugin")

#: Tests of what a native process sees: under the plugin the counters do open.
native_only = pytest.mark.skipif(EMULATED, reason=f"runs under the plugin: {EMULATION}")
#: Tests of exact counts: they need the plugin.
emulated_only = pytest.mark.skipif(
    not EMULATED, reason="needs Picollo's QEMU plugin (picollo emulate -- PYTHON -m pytest "
    f"python-demo/tests/test_emulated.py): {EMULATION}")

#: Short runs (the plugin makes Python 20-50 times slower): distributions, not precision.
QUICK = dict(samples=200, time_budget=0.3, warmup=0.05)


def ten() -> None:
    busy(10)


def eleven() -> None:
    busy(11)


def test_time_is_not_exact():
    counters = [] if EMULATED else ["Software:TaskClock"]  # no perf_event under QEMU
    with bench.run(ten, counters=counters, **QUICK) as r:
        for metric in r.metrics:
            assert not r.is_exact(metric)
            with pytest.raises(picollo.InvalidArgumentError, match="is not exact") as e:
                r.constant(metric)
            assert isinstance(e.value, ValueError)
            with r.histogram(metric) as h:
                for rank in (0, 50, 90, 99, 100):
                    assert r.percentile(metric, rank) == h.percentile(rank).value / 1000


def test_bad_ranks_and_metrics():
    with bench.run(ten, counters=[], **QUICK) as r:
        for rank in (-0.001, 100.0001, math.nan, math.inf):
            with pytest.raises(picollo.InvalidArgumentError) as e:
                r.percentile("time", rank)
            assert e.value.message.startswith("rank "), e.value.message
        for rank in ("50", None, [50]):
            with pytest.raises(TypeError):
                r.percentile("time", rank)
        for call in (r.is_exact, r.constant, lambda m: r.percentile(m, 50)):
            with pytest.raises(KeyError, match="Software:TaskClock"):
                call("Software:TaskClock")
            with pytest.raises(TypeError):
                call(0)
    for call in (r.is_exact, r.constant, lambda m: r.percentile(m, 50)):
        with pytest.raises(picollo.ClosedError):
            call("time")


def test_comparisons_without_exact_metrics_have_no_exact_diffs():
    with bench.run(ten, counters=[], **QUICK) as a, bench.run(ten, counters=[], **QUICK) as b:
        c = bench.compare(a, b)
        assert dict(c.exact) == {} and "\nexact: " not in c.text
        with pytest.raises(TypeError):
            c.exact["time"] = bench.ExactDiff.of(1.0, 1.0)  # read-only
        apart = bench.judge_apart(b, [1000.0, 1010.0])  # (median rounds may be 0 in QEMU)
        assert dict(apart.exact) == {}


@native_only
def test_emulation_says_not_emulated():
    assert EMULATION.startswith("not running under Picollo's QEMU plugin"), EMULATION


@native_only
def test_emulated_counter_is_unsupported_natively():
    supported, reason = perf.counter_supported(INSTRUCTIONS)
    assert not supported and "picollo emulate" in reason, reason
    with pytest.raises(picollo.UnsupportedError) as e:
        bench.run(ten, counters=[INSTRUCTIONS], **QUICK)
    assert "picollo emulate" in e.value.message, e.value.message
    with pytest.raises(picollo.UnsupportedError, match="picollo emulate"):
        bench.compare_fns(ten, eleven, counters=[INSTRUCTIONS], **QUICK)
    with pytest.raises(picollo.UnsupportedError, match="picollo emulate"):
        perf.Session([INSTRUCTIONS]).open()


def test_unknown_emulated_counter_is_a_bad_name():
    with pytest.raises(picollo.InvalidArgumentError, match="Emulated:Cycles"):
        bench.run(ten, counters=["Emulated:Cycles"], **QUICK)
    with pytest.raises(picollo.InvalidArgumentError, match="Emulated:Cycles"):
        perf.counter_supported("Emulated:Cycles")


# --- under the plugin ----------------------------------------------------------------------


def exact_line(c: bench.Comparison, metric: str) -> tuple[str, float]:
    """The verdict word and B − A of the library's ``exact:`` line for ``metric`` in
    ``c.text`` (NaN where it varies)."""
    lines = [line for line in c.text.splitlines()
             if line.startswith("exact: ") and f" {metric} " in line]
    assert len(lines) == 1, c.text
    m = re.fullmatch(
        rf"exact: (?:(no difference) in {metric} between .*|.* takes [\d,.]+ (more|fewer) "
        rf"{metric} per .*|{metric} (varies) from .*)", lines[0])
    assert m, lines[0]
    word = next(w for w in m.groups() if w)
    found = re.search(r"\(B − A = ([+-]?[\d,.]+), \[", lines[0])
    return word, float(found.group(1).replace(",", "")) if found else math.nan


@emulated_only
def test_emulation_says_emulated():
    assert "instructions" in EMULATION, EMULATION
    assert perf.counter_supported(INSTRUCTIONS) == (True, "")


@emulated_only
def test_fixed_work_has_one_count_per_call():
    with bench.run(ten, name="ten", counters=[INSTRUCTIONS], **QUICK) as r:
        assert r.is_exact(INSTRUCTIONS) and not r.is_exact("time")
        count = r.constant(INSTRUCTIONS)
        print(f"\nemulated: ten() runs {count} instructions per call "
              f"({r.histogram(INSTRUCTIONS).total} samples)")
        assert count is not None and count > 0, r.table()
        assert [r.percentile(INSTRUCTIONS, rank) for rank in (0, 50, 100)] == [count] * 3


@emulated_only
def test_a_a_comparison_finds_no_difference():
    c = bench.compare_fns(ten, ten, counters=[INSTRUCTIONS], **QUICK)
    d = c.exact[INSTRUCTIONS]
    assert list(c.exact) == [INSTRUCTIONS]
    assert (d.verdict, d.difference) == ("no difference", 0), c.text
    assert d.a == d.b == c.a.constant(INSTRUCTIONS)
    assert exact_line(c, INSTRUCTIONS) == ("no difference", 0.0)


@emulated_only
def test_one_more_iteration_is_the_same_more_every_time():
    seen = []
    for _ in range(5):
        c = bench.compare_fns(ten, eleven, name_a="ten", name_b="eleven",
                              counters=[INSTRUCTIONS], **QUICK)
        d = c.exact[INSTRUCTIONS]
        assert d.verdict == "more" and d.difference == d.b - d.a, c.text
        assert d.difference > 0 and d.difference == int(d.difference), d
        assert exact_line(c, INSTRUCTIONS) == ("more", d.difference), c.text
        seen.append((d.a, d.b, d.difference))
    print(f"\nemulated: ten() {seen[0][0]}, eleven() {seen[0][1]} instructions per call: "
          f"{seen[0][2]} more, in {len(seen)} comparisons {sorted(set(s[2] for s in seen))}")
    assert len(set(seen)) == 1, seen


@emulated_only
def test_judged_on_instructions_the_verdict_is_exact():
    # Threshold 0: a few instructions more are a fraction of a percent of the call's.
    c = bench.compare_fns(ten, eleven, counters=[INSTRUCTIONS], threshold=0, **QUICK)
    judged = bench.compare(c.a, c.b, metric="instructions")
    d = c.exact[INSTRUCTIONS]
    assert (judged.metric, judged.exactly, judged.verdict) == (INSTRUCTIONS, True, "slower")
    low, high = judged.interval
    assert low == high == judged.change == pytest.approx(d.difference / d.a * 100)
    assert f"counts more {INSTRUCTIONS} than" in judged.text
    same = bench.compare(c.a, c.a, metric=INSTRUCTIONS)
    assert (same.exactly, same.verdict, same.interval) == (True, "no difference", (0.0, 0.0))


@emulated_only
def test_less_work_is_fewer():
    c = bench.compare_fns(eleven, ten, counters=[INSTRUCTIONS], **QUICK)
    d = c.exact[INSTRUCTIONS]
    assert d.verdict == "fewer" and d.difference < 0, c.text
    assert exact_line(c, INSTRUCTIONS) == ("fewer", d.difference), c.text


@emulated_only
def test_varying_work_varies():
    rng = random.Random(1)  # no period a batch could average out
    c = bench.compare_fns(ten, lambda: busy(rng.randrange(20)), counters=[INSTRUCTIONS],
                          **QUICK)
    d = c.exact[INSTRUCTIONS]
    assert (d.verdict, d.difference, d.b) == ("varies", None, None), c.text
    assert exact_line(c, INSTRUCTIONS)[0] == "varies", c.text
