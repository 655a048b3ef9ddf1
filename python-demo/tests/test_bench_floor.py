"""picollo.bench: no silent zero. A figure the subtraction of the read pair's and the empty
function's medians floors at 0, or a median within the resolution, is flagged: on the result
(`BenchResult.floor`, `BenchResult.flagged`), in the report's row and warnings, the line, the
JSON and a comparison's verdict line. The issue's check: a 100-element ``sum`` with the default
counters, 20 runs, never shows an unflagged zero."""

from __future__ import annotations

import json
import sys

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("the benchmark harness exists on Linux only", allow_module_level=True)

from picollo import bench  # noqa: E402
from workloads import loop400  # noqa: E402

#: Short runs: the flags need samples, not precision.
FAST = dict(samples=300, time_budget=0.3, warmup=0.05)


def _row(table: str, metric: str) -> str:
    """The report's row of ``metric``."""
    return next(line for line in table.splitlines() if line.startswith(f"| {metric} ("))


def _marked(row: str) -> bool:
    return "floored" in row or "≤ resolution" in row


def _check_consistent(r: bench.BenchResult) -> None:
    """Every metric's `Floor` agrees with itself, the report's row and the JSON."""
    table, metrics = r.table(), json.loads(r.to_json())["metrics"]
    for m, j in zip(r.metrics, metrics):
        f = r.floor(m)
        assert f.flagged == (f.floored > 0 or f.below_resolution), (m, f)
        assert 0 <= f.floored <= f.samples and f.resolution >= 0, (m, f)
        assert _marked(_row(table, m)) == f.flagged, (m, f, _row(table, m))
        assert (j["floored"], j["belowResolution"], j["flagged"]) == \
            (f.floored, f.below_resolution, f.flagged), (m, j, f)
        assert j["resolution"] == round(f.resolution * 1000), (m, j, f)
    assert r.flagged == [m for m in r.metrics if r.floor(m).flagged]


def _subtracted(fn, baseline_fn, name: str) -> bench.BenchResult:
    """``fn`` run with the medians of ``baseline_fn``'s run subtracted (time only, batch 3)."""
    settings = ([], 3, FAST["samples"], FAST["time_budget"], FAST["warmup"], 1e-4, None, None)
    config = bench._prepared({"fn": fn}, True, settings, (None, 1.0, None))
    label = baseline_fn.__name__.replace("loop", "loop ")
    with bench._run_once(config, baseline_fn, label, label.encode(), None) as baseline:
        return bench._run_once(config, fn, name, name.encode(), baseline)


def test_a_baseline_that_outweighs_the_function_floors_and_flags_it():
    # Nothing against 400 additions' worth of baseline: every sample but one preempted for
    # longer than the loop lies below it.
    with _subtracted(lambda: None, loop400, "nothing") as r:
        f = r.floor("time")
        print(f"nothing less loop 400: {f}")
        assert isinstance(f, bench.Floor)
        assert f.flagged and 2 * f.floored > f.samples > 0, f
        assert r.percentile("time", 50) == 0
        assert r.flagged == ["time"]
        table = r.table()
        assert f"(floored {100 * f.share:.1f} %" in _row(table, "time"), table
        assert "- warning: time: floored at 0 in " in table
        assert "the read pair's median and the median of loop 400)" in table
        assert "; time: floored " in r.line()
        _check_consistent(r)
        with bench.run(loop400, name="loop400", counters=[], subtract_call_overhead=False,
                       **FAST) as plain:
            # 400 additions against the read pair alone: nothing to floor.
            assert plain.floor("time").floored == 0 and plain.flagged == []
            _check_consistent(plain)
            c = bench.compare(r, plain)
            assert "[nothing's time: floored " in c.text
            assert "loop400's time" not in c.text
            assert "- warning: nothing: time: floored at 0 in " in c.text


def test_floor_refuses_a_metric_the_result_does_not_have():
    with bench.run(loop400, counters=[], subtract_call_overhead=False, **FAST) as r:
        with pytest.raises(KeyError):
            r.floor("Hardware:CpuCycles")
        with pytest.raises(TypeError):
            r.floor(0)  # type: ignore[arg-type]


def test_a_sum_of_100_values_never_shows_an_unflagged_zero():
    # The check: on a busy VM the empty function's medians exceeded the sum's in 3
    # of 14 runs, and P50 read 0.000 ns with no word. A median of 0 must be flagged, unless
    # it is a count of nothing measured exactly (events, nothing with a spread subtracted);
    # a time never is.
    values = list(range(100))
    zeros = flagged = medians = 0
    for run in range(20):
        with bench.run(lambda: sum(values), name="sum", **FAST) as r:
            _check_consistent(r)
            for m in r.metrics:
                f, p50 = r.floor(m), r.percentile(m, 50)
                medians, flagged = medians + 1, flagged + f.flagged
                if p50 != 0:
                    continue
                zeros += 1
                exact = r.unit(m) == "events" and f.resolution == 0 and f.floored == 0
                assert f.flagged or (exact and m != "time"), (run, m, f)
            t = r.floor("time")
            print(f"run {run}: time P50 {r.percentile('time', 50):.3f} ns, floored "
                  f"{t.floored} of {t.samples}, resolution {t.resolution:.3f} ns; "
                  f"flagged {r.flagged}")
    print(f"20 runs: {medians} medians, {zeros} of them 0, {flagged} metrics flagged")
