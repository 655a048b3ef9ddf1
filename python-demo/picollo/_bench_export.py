"""Results and comparisons for CI tools (Linux): `export` writes results in a result format
of the library by its name (`formats()` lists them: Bencher's, github-action-benchmark's,
Google Benchmark's, Picollo's JSON document, JUnit XML, and the forms of one result), or by
a `Format` number; `summary` the Markdown summary of comparisons that a CI job shows. Both
are the library's writers (`picollo_bench_results_format`, `picollo_bench_summary`), so a
format the library adds is here without a new method. `picollo.bench` re-exports them."""

from __future__ import annotations

import ctypes
import os
from typing import Iterable, Union

from . import _bench_native as bn
from ._bench_compare import Comparison
from ._bench_result import BenchResult
from ._text import encode, fetch_text

__all__ = ["Format", "export", "formats", "summary", "write_export"]

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


def formats() -> list[str]:
    """The names of the result formats, in the library's order: the forms of one result
    (``report``, ``line``, ``html``, ...), then the formats of a suite (``bmf``, ``junit``,
    ...)."""
    return fetch_text(bn.lib.picollo_bench_format_names).splitlines()


def export(results: Iterable[BenchResult], format: "Union[str, Format]") -> str:
    """The results as one suite in ``format``: a name of `formats()` (``"bmf"``,
    ``"junit"``, ...; a form of one result takes one result) or a `Format` (BENCHER,
    GITHUB_ACTION, GOOGLE_BENCHMARK or DOCUMENT), one benchmark each by its name (a name
    given again gets `` (2)``). TypeError for results that are not `BenchResult`s;
    `InvalidArgumentError` (a ValueError) for no result, an unknown name (the message lists
    the names) or a form of one result given several."""
    handles = _handles(results, "results")
    if isinstance(format, str):
        name = encode(format, "format")
        return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_results_format(
            handles, len(handles), name, buf, size, needed))
    code = int(Format(format))
    return fetch_text(lambda buf, size, needed: bn.lib.picollo_bench_results_text(
        handles, len(handles), code, buf, size, needed))


def write_export(results: Iterable[BenchResult], format: "Union[str, Format]",
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
