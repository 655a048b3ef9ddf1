"""The formats for CI tools and the summary, from Python (Linux): for three comparisons, each
format `bench.export` writes is read by its peer's own reader or schema (ci_peers.py) and
holds the three benchmarks at the figures the results give; a result's own JSON follows the
document schema's `result`; the Markdown summary renders as CommonMark (markdown-it-py) to a
table of the three verdicts; every format the library lists is reached by its name, and
JUnit XML parses with one test case per result; bad input raises."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("the benchmark harness is Linux-only", allow_module_level=True)

import html5lib  # noqa: E402
import jsonschema  # noqa: E402
from markdown_it import MarkdownIt  # noqa: E402

import ci_peers  # noqa: E402
from picollo import bench  # noqa: E402
from picollo._errors import InvalidArgumentError  # noqa: E402
from workloads import loop200, loop400  # noqa: E402

PAIRED = dict(counters=[], samples=300, time_budget=0.2, warmup=0.02, rounds=10)
FORMATS = {"bmf": bench.Format.BENCHER, "github": bench.Format.GITHUB_ACTION,
           "gbench": bench.Format.GOOGLE_BENCHMARK, "picollo": bench.Format.DOCUMENT}


@pytest.fixture(scope="module")
def comparisons():
    """Three interleaved comparisons (names with Markdown's and JSON's special characters)."""
    return [
        bench.compare_fns(loop200, loop400, name_a="loop 200", name_b="loop | 400 *x*", **PAIRED),
        bench.compare_fns(loop400, loop200, name_a="loop 400", name_b='loop "200"', **PAIRED),
        bench.compare_fns(loop200, loop200, name_a="again A", name_b="again_B", **PAIRED),
    ]


def test_each_format_is_read_by_its_peer_and_holds_the_results_figures(comparisons):
    results = [c.b for c in comparisons]
    names = [r.name for r in results]
    files = {name: ci_peers.check_file(name, bench.export(results, f))
             for name, f in FORMATS.items()}
    bmf = files["bmf"]
    assert list(bmf) == names
    for r in results:
        latency = bmf[r.name]["latency"]
        assert latency["value"] == r.percentile("time", 50)
        assert latency["lower_value"] <= latency["value"] <= latency["upper_value"]
    github = files["github"]
    assert [e["name"] for e in github] == names
    assert all(e["unit"] == "ns" and e["range"].startswith("± ") for e in github)
    assert [e["value"] for e in github] == [r.percentile("time", 50) for r in results]
    assert ci_peers.check_gbench(files["gbench"]) == names
    document = files["picollo"]
    assert [c["name"] for c in document["commands"]] == names
    assert [c["result"]["name"] for c in document["commands"]] == names


def test_a_results_own_json_follows_the_documents_result_schema(comparisons):
    schema = json.loads(ci_peers.SCHEMAS["picollo"].read_text(encoding="utf-8"))
    result = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/result"}
    jsonschema.Draft202012Validator(result).validate(json.loads(comparisons[0].a.to_json()))


def test_the_summary_renders_as_commonmark_with_one_row_per_verdict(comparisons, tmp_path):
    text = bench.summary(comparisons)
    assert text.startswith("### Picollo: 3 comparisons: ")
    page = MarkdownIt("commonmark").enable("table").render(text)
    tree = html5lib.parse(f"<!DOCTYPE html><title>s</title>{page}", namespaceHTMLElements=False)
    rows = tree.findall(".//table")[0].findall("./tbody/tr")
    cells = [[("".join(td.itertext())) for td in tr.findall("td")] for tr in rows]
    assert [row[0] for row in cells] == [f"{c.b.name} vs {c.a.name}" for c in comparisons]
    words = {"faster": "🟢 ▼ faster", "slower": "🔴 ▲ slower", "within noise": "⚪ ≈ within noise",
             "no difference": "⚪ = no difference", "not enough rounds": "🟡 ? not enough rounds"}
    assert [row[-1] for row in cells] == [words[c.verdict] for c in comparisons]
    assert "Method and conditions" in "".join(tree.itertext())


def test_every_format_the_library_lists_is_reached_by_its_name(comparisons):
    names = bench.formats()
    assert len(set(names)) == len(names)
    assert {"report", "line", "html", "bmf", "github", "gbench", "picollo", "junit"} <= set(names)
    results = [c.b for c in comparisons]
    for name, number in FORMATS.items():
        assert bench.export(results, name) == bench.export(results, number), name
    one = comparisons[0].a
    for name in names:
        assert one.to_format(name), name
    assert one.to_format("line") == one.line()
    assert one.to_format("report") == one.table()
    assert bench.export([one], "line") == one.line()


def test_junit_parses_with_a_test_case_per_result(comparisons):
    results = [c.b for c in comparisons]
    suite = ET.fromstring(bench.export(results, "junit").encode("utf-8"))
    assert suite.tag == "testsuite"
    assert suite.get("tests") == "3" and suite.get("failures") == "0"
    assert suite.get("errors") == "0"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [r.name for r in results]
    assert all(c.get("classname") == "benchmark" and len(c) == 0 for c in cases)


def test_bad_input_is_refused_with_a_clear_error(comparisons):
    results = [comparisons[0].b]
    with pytest.raises(InvalidArgumentError, match="writes one result"):
        bench.export(results, bench.Format.HTML)
    with pytest.raises(InvalidArgumentError, match=r"no result \(n is 0\)"):
        bench.export([], bench.Format.BENCHER)
    with pytest.raises(ValueError, match="77 is not a valid BenchFormat"):
        bench.export(results, 77)
    with pytest.raises(TypeError, match="iterable of BenchResult"):
        bench.export(results[0], bench.Format.BENCHER)
    with pytest.raises(InvalidArgumentError, match='unknown format "csv": the formats are report, '):
        bench.export(results, "csv")
    with pytest.raises(InvalidArgumentError, match='unknown format "yaml".*junit'):
        results[0].to_format("yaml")
    with pytest.raises(InvalidArgumentError, match='format "line" writes one result'):
        bench.export([results[0], results[0]], "line")
    with pytest.raises(TypeError, match="name must be a str"):
        results[0].to_format(7)
    with pytest.raises(ValueError, match="no comparison"):
        bench.summary([])
    apart = bench.judge_apart(results[0], [1000.0, 1010.0])
    with pytest.raises(ValueError, match="judge_apart holds no result A"):
        bench.summary([apart])
    with pytest.raises(TypeError, match="Comparison objects"):
        bench.summary(["verdict"])


def test_google_benchmarks_file_carries_each_rounds_rate(capfd, tmp_path):
    # A suite of declared throughputs exported as Google Benchmark's JSON: each repetition (a
    # round) has the rate at that round's median time, in Google Benchmark's own fields.
    from test_suite_params import SHORT, ZEROS_WANT, zeros_suite
    gbench = tmp_path / "gbench.json"
    with zeros_suite() as s:
        assert s.main([*SHORT, "--out", str(tmp_path), "--export", f"gbench={gbench}"]) == 0
    capfd.readouterr()
    doc = json.loads((tmp_path / "params" / "results.json").read_text())
    rates = ci_peers.check_gbench_rates(json.loads(gbench.read_text()))
    assert set(rates) == set(ZEROS_WANT), rates
    for c in doc["commands"]:
        result = c["result"]
        p50 = result["roundRanks"].index(50)
        medians = [r["values"][0][p50] / result["scale"] for r in result["rounds"]]
        n = ZEROS_WANT[c["name"]][1]
        assert rates[c["name"]] == pytest.approx([n / (m * 1e-9) for m in medians], rel=1e-12)
