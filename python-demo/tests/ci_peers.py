"""The readers of the formats Picollo writes for CI tools, for the tests that check them
(test_ci_formats.py, scripts/ci_check.py): each file read by its peer's own reader or
schema where one is installable, else by the peer's documented fields.

- Bencher Metric Format: tests/peers/bmf.schema.json (the format as Bencher documents it).
- github-action-benchmark's custom JSON: tests/peers/github-action-benchmark.schema.json
  (the fields its README documents; the action itself is not a package).
- Google Benchmark's JSON: the JSON that Google Benchmark itself writes (PyPI
  ``google-benchmark``, run here on a small function with repetitions) is the reference:
  every member it writes, for the context, a repetition and an aggregate, Picollo's file
  has too, with the same JSON type, and the aggregates follow its naming; a throughput's
  rate is the member Google Benchmark writes for processed bytes or items.
- Picollo's document: docs/schema/picollo-bench.schema.json.
Every schema is checked with ``jsonschema`` (PyPI), itself validated first.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent.parent
SCHEMAS = {
    "bmf": TESTS / "peers" / "bmf.schema.json",
    "github": TESTS / "peers" / "github-action-benchmark.schema.json",
    "picollo": ROOT / "docs" / "schema" / "picollo-bench.schema.json",
}

# A function measured by Google Benchmark's own Python binding, in a process of its own.
_GBENCH_PROGRAM = """
import sys
import google_benchmark as benchmark

@benchmark.register
def add(state):
    while state:
        sum(range(10))

@benchmark.register
def processed(state):
    while state:
        bytes(64)
    state.bytes_processed = 64 * state.iterations
    state.items_processed = state.iterations

sys.argv[1:] = [f"--benchmark_out={sys.argv[1]}", "--benchmark_out_format=json",
                "--benchmark_repetitions=2", "--benchmark_min_time=0.001s"]
benchmark.main()
"""


@cache
def validator(name: str) -> Any:
    """The jsonschema validator of format ``name`` (its schema checked first)."""
    schema = json.loads(SCHEMAS[name].read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate(name: str, document: Any) -> None:
    """Raise AssertionError listing every place where ``document`` breaks the schema."""
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


@cache
def gbench_reference() -> dict:
    """The JSON Google Benchmark writes for one function, 2 repetitions."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "reference.json"
        subprocess.run([sys.executable, "-c", _GBENCH_PROGRAM, str(out)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return json.loads(out.read_text(encoding="utf-8"))


def _shape(entry: dict) -> dict:
    """Each member's JSON type: int, float, str, bool, list or dict."""
    return {k: type(v).__name__ for k, v in entry.items()}


def _run_of(file: dict, run_type: str) -> dict:
    runs = [b for b in file["benchmarks"] if b["run_type"] == run_type]
    assert runs, f"no run of type {run_type}"
    return runs[0]


def check_gbench(ours: dict) -> list[str]:
    """Check Picollo's Google Benchmark file against Google Benchmark's own; returns the
    names of its benchmarks (the run names, in order)."""
    ref = gbench_reference()
    for what, mine, theirs in [("context", ours["context"], ref["context"]),
                               ("repetition", _run_of(ours, "iteration"), _run_of(ref, "iteration")),
                               ("aggregate", _run_of(ours, "aggregate"), _run_of(ref, "aggregate"))]:
        want = _shape(theirs)
        got = {k: v for k, v in _shape(mine).items() if k in want}
        assert got == want, f"{what}: Google Benchmark writes {want}, Picollo {_shape(mine)}"
    names: list[str] = []
    for b in ours["benchmarks"]:
        if b["run_name"] not in names:
            names.append(b["run_name"])
    for name in names:
        runs = [b for b in ours["benchmarks"] if b["run_name"] == name]
        reps = [b for b in runs if b["run_type"] == "iteration"]
        assert [b["repetition_index"] for b in reps] == list(range(len(reps)))
        assert all(b["repetitions"] == len(reps) and b["name"] == name for b in reps)
        aggregates = {b["aggregate_name"]: b for b in runs if b["run_type"] == "aggregate"}
        theirs = {b["aggregate_name"] for b in ref["benchmarks"] if b["run_type"] == "aggregate"}
        assert set(aggregates) == (theirs if len(reps) >= 2 else set()), aggregates.keys()
        for agg, b in aggregates.items():
            assert b["name"] == f"{name}_{agg}" and b["iterations"] == len(reps)
    return names


#: Google Benchmark's members of a throughput: bytes or items a second.
GBENCH_RATES = ("bytes_per_second", "items_per_second")


def check_gbench_rates(ours: dict) -> dict[str, list[float]]:
    """Check that each rate of Picollo's Google Benchmark file is a member Google Benchmark
    itself writes on a repetition, of the same JSON type; returns each benchmark's rates on
    its repetitions."""
    theirs = next(b for b in gbench_reference()["benchmarks"]
                  if b["run_name"] == "processed" and b["run_type"] == "iteration")
    rates: dict[str, list[float]] = {}
    for b in ours["benchmarks"]:
        for key in GBENCH_RATES:
            if key in b:
                assert type(b[key]) is type(theirs[key]), (key, b[key], theirs[key])
                if b["run_type"] == "iteration":
                    rates.setdefault(b["run_name"], []).append(b[key])
    return rates


def check_file(format_name: str, text: str) -> Any:
    """The file of ``format_name`` (bmf, github, gbench, picollo) parsed and checked by its
    peer; returns the parsed JSON."""
    document = json.loads(text)
    if format_name == "gbench":
        check_gbench(document)
    else:
        validate(format_name, document)
    return document
