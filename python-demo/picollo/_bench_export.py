"""Results and comparisons for CI tools (Linux): `export` writes results in the format of a
CI tool (Bencher's, github-action-benchmark's, Google Benchmark's, or Picollo's JSON
document, `Format`), `summary` the Markdown summary of comparisons that a CI job shows.
Both are the library's writers (`picollo_bench_results_text`, `picollo_bench_summary`).
`picollo.bench` re-exports them."""

from __future__ import annotations

import ctypes
import os
from typing import Iterable, Union

from . import _bench_native as bn
from ._bench_compare import Comparison
from ._bench_result import BenchResult
from ._text import fetch_text

__all__ = ["Format", "export", "summary", "write_export"]

#: `picollo_bench_format`: `export` takes BENCHER (Bencher Metric Format), GITHUB_ACTION
#: (github-action-benchmark's custom JSON, smaller is better), GOOGLE_BENCHMARK (Google
#: Benchmark's JSON) and DOCUMENT (Picollo's JSON document, docs/schema/
#: picollo-bench.schema.json); the others are forms of one result (`BenchResult`'s methods).
Format = bn.BenchFormat


def _handles(results: Iterable[BenchResult], what: str) -> "ctypes.Array":
    """The results as a C array of their handles (TypeError for anything else)."""
    if isinstance(results, (str, bytes, BenchResult)):
        raise TypeError(f"{what} must be an iterable of BenchResult, not "
                        f"{type(results).__name__}")
    items = list(results)
    for r in items:
        if not isinstance(r, BenchResult):
            raise TypeError(f"{what} must hold BenchResult objects, not {type(r).__name__}")
    return (bn.BenchResultP * len(items))(*[r._ptr for r in items])


def export(results: Iterable[BenchResult], format: Format) -> str:
    """The results in ``format`` (a `Format`: BENCHER, GITHUB_ACTION, GOOGLE_BENCHMARK or
    DOCUMENT), one benchmark each by its name (a name given again gets `` (2)``).
    TypeError for results that are not `BenchResult`s; `InvalidArgumentError` (a
    ValueError) for no result or a format of one result alone."""
    handles = _handles(results, "results")
    code = int(Format(format))
    return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_results_text(
        handles, len(handles), code, buf, size, needed))


def write_export(results: Iterable[BenchResult], format: Format,
                 path: "Union[str, os.PathLike[str]]") -> None:
    """Write `export` of the results to ``path`` (UTF-8)."""
    text = export(results, format)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def summary(comparisons: Iterable[Comparison]) -> str:
    """The Markdown summary of the comparisons (each B against its A, judged again as
    `compare` judges them) for a CI job: a head line counting the verdicts, one table of
    every verdict (an emoji, a symbol and a word each), what changed with its
    percentiles, the rest in ``<details>``, the method and conditions last; under
    GitHub's 1 MiB limit of a step's summary. Append it to the file
    ``$GITHUB_STEP_SUMMARY`` names to show it on the run's page. TypeError for an item
    that is not a `Comparison`; ValueError for none, one from `judge_apart` (it holds no
    result A), or one judged on a metric other than time (the summary would judge it on
    time)."""
    pairs = []
    for c in comparisons:
        if not isinstance(c, Comparison):
            raise TypeError(f"comparisons must hold Comparison objects, not {type(c).__name__}")
        if c.a is None or c.b is None:
            raise ValueError("a comparison from judge_apart holds no result A to summarize: "
                             "summarize comparisons of two results (compare, compare_fns)")
        if c.metric != "time":
            raise ValueError(f"a comparison judged on {c.metric} would be summarized on time: "
                             "summarize comparisons judged on time (picollo bench --metric "
                             "--summary names a judged metric)")
        pairs.append((c.a, c.b))
    if not pairs:
        raise ValueError("summary: no comparison to summarize")
    a = _handles([p[0] for p in pairs], "a")
    b = _handles([p[1] for p in pairs], "b")
    return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_summary(
        a, b, len(pairs), buf, size, needed))
