#!/usr/bin/env python3
"""Picollo in CI, as a CI job runs it: a gate of three commands (saved twice with --append,
then judged with every --export and --summary), each file read by its peer's own reader or
schema (python-demo/tests/ci_peers.py), and the Markdown summaries rendered to HTML pages
for Chromium.

    ci_check.py --picollo BIN --out DIR [--summary-500 FILE] [--compare-py PATH]

Writes DIR/ci.{bmf,github,gbench,picollo}.json, DIR/summary-3.md and DIR/summary-3.html
(and DIR/summary-500.html from FILE, the 500 comparisons bench/examples/ci_summary.rs
writes, which must stay under GitHub's 1 MiB limit of a step's summary); GITHUB_STEP_SUMMARY
points at DIR/step-summary.md, which must end with the summary. With --compare-py (Google
Benchmark's tools/compare.py: Debian's libbenchmark-tools installs it as
/usr/share/benchmark/compare.py, run by Debian's python3 with its scipy), it
also compares the saved run's Google Benchmark file with the gate's and checks that it
reports the three benchmarks, and compares two runs judged on page faults, whose counts it
must report as benchmarks of their own (and alone, with its benchmarksfiltered mode). The documents of a run with --builds, of one judged on
--metric page-faults and of one with a failed command must follow the schema too. Prints each file's size; the last line is the verdicts'
count. scripts/html.sh then opens the pages in Chromium (scripts/html_check.py).
"""

from __future__ import annotations

import argparse
import html
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python-demo" / "tests"))
import ci_peers  # noqa: E402
from markdown_it import MarkdownIt  # noqa: E402

COMMANDS = ["sleep 0.001", "sleep 0.002", "sleep 0.003"]
NAMES = ["short", "medium", "long"]
LIMIT = 1 << 20
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font: 14px/1.5 sans-serif; max-width: 1060px; margin: 1em auto; }}
table {{ border-collapse: collapse; }} th, td {{ border: 1px solid #999; padding: 2px 6px; }}
td {{ font-variant-numeric: tabular-nums; }}</style></head>
<body>
{body}</body></html>
"""


def bench(picollo: str, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """`picollo bench ARGS` with the three commands, named."""
    names = [w for n in NAMES for w in ("-n", n)]
    return subprocess.run([picollo, "bench", "-r", "10", *names, *args, *COMMANDS], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)


def gate(picollo: str, out: Path) -> Path:
    """Save twice, then gate with every export and the summary; the summary's path."""
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    base = out / "base.json"
    base.unlink(missing_ok=True)
    for extra in (["--export", f"gbench={out / 'base.gbench.json'}"], []):
        saved = bench(picollo, ["--save", str(base), "--append", *extra], env)
        assert saved.returncode == 0, saved.stderr
    step = out / "step-summary.md"
    step.write_text("an earlier step's summary\n", encoding="utf-8")
    env["GITHUB_STEP_SUMMARY"] = str(step)
    exports = [w for f in ci_peers.SCHEMAS.keys() | {"gbench"}
               for w in ("--export", f"{f}={out / f'ci.{f}.json'}")]
    summary = out / "summary-3.md"
    run = bench(picollo, ["--baseline", str(base), *exports, "--summary", str(summary)], env)
    # An A/A gate passes, but for its false alarms (1 % a comparison): 7 is a verdict too.
    assert run.returncode in (0, 7), run.stderr
    text = summary.read_text(encoding="utf-8")
    assert step.read_text(encoding="utf-8") == "an earlier step's summary\n" + text
    return summary


def check_files(out: Path) -> None:
    """Each export read by its peer, holding the three benchmarks."""
    for name in ("bmf", "github", "gbench", "picollo"):
        path = out / f"ci.{name}.json"
        doc = ci_peers.check_file(name, path.read_text(encoding="utf-8"))
        names = {"bmf": lambda: list(doc), "github": lambda: [e["name"] for e in doc],
                 "gbench": lambda: ci_peers.check_gbench(doc),
                 "picollo": lambda: [c["name"] for c in doc["commands"]]}[name]()
        assert names == NAMES, f"{path}: {names}"
        print(f"ci: {path.name}: {path.stat().st_size} bytes, read by its peer: {', '.join(names)}")


def check_documents(picollo: str, out: Path) -> None:
    """The document of a run with --builds, of one judged on a count and of one with a failed
    command, against the schema: the members only those have (`builds`, side comparisons,
    a judged `metric` and `withinJitter`, `failed`)."""
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    runs = [(["--builds", "2", "sleep 0.001", "sleep 0.001", "sleep 0.002", "sleep 0.002"], 0),
            (["--metric", "page-faults", "sleep 0.001", "sleep 0.002"], 0),
            (["true", "exit 3"], 6)]
    for k, (args, status) in enumerate(runs):
        path = out / f"document-{k}.json"
        run = subprocess.run([picollo, "bench", "-r", "8", "--json", str(path), *args], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             timeout=300)
        assert run.returncode == status, run.stderr
        ci_peers.check_file("picollo", path.read_text(encoding="utf-8"))
        print(f"ci: {path.name} (picollo bench {' '.join(args)}): follows the schema")


# The interpreter compare.py runs under: Debian's, where its scipy and numpy are installed
# (scripts/needs.sh gbench-tools), not the project's venv.
COMPARE_PYTHON = "/usr/bin/python3"


def run_compare_py(script: str, *args: str) -> str:
    """Google Benchmark's compare.py with ARGS; its report."""
    run = subprocess.run([COMPARE_PYTHON, script, *args], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def compare_py(script: str, picollo: str, out: Path) -> None:
    """Google Benchmark's compare.py on the saved run's file against the gate's; then on two
    runs judged on page faults, where each benchmark's count is a benchmark of its own
    (`NAME (Software:PageFaults)`) that compare.py compares, alone with benchmarksfiltered."""
    report = run_compare_py(script, "--no-color", "benchmarks", str(out / "base.gbench.json"),
                            str(out / "ci.gbench.json"))
    for name in NAMES:
        assert f"{name}_median" in report, report
    print(f"ci: compare.py reports {', '.join(NAMES)} ({len(report.splitlines())} lines)")
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    files = [out / f"count-{k}.gbench.json" for k in (1, 2)]
    for path in files:
        run = bench(picollo, ["--metric", "page-faults", "--export", f"gbench={path}"], env)
        assert run.returncode in (0, 7), run.stderr
    metric = " (Software:PageFaults)"
    report = run_compare_py(script, "--no-color", "benchmarks", *map(str, files))
    for name in NAMES:
        assert f"{name}{metric}_median" in report and f"{name}_median" in report, report
    cut = re.escape(metric)
    alone = run_compare_py(script, "--no-color", "benchmarksfiltered", str(files[0]), cut,
                           str(files[1]), cut).splitlines()
    rows = [l for l in alone[3:] if l.strip() and not l.startswith("OVERALL_GEOMEAN")]
    # compare.py writes "[FILTER vs. FILTER]" where the filter matched: every row is a count's.
    assert all(any(l.startswith(f"{n}[") for n in NAMES) for l in rows), "\n".join(alone)
    for name in NAMES:
        assert any(l.startswith(f"{name}[") and "]_median " in l for l in rows), "\n".join(alone)
    print(f"ci: compare.py judged on page faults reports {', '.join(n + metric for n in NAMES)};"
          f" filtered, the counts alone")


def render(markdown: Path, page: Path) -> str:
    """The summary as an HTML page (CommonMark with tables); its head line."""
    text = markdown.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))
    assert size < LIMIT, f"{markdown}: {size} bytes, GitHub's limit is {LIMIT}"
    body = MarkdownIt("commonmark").enable("table").render(text)
    head = text.splitlines()[0].lstrip("# ")
    page.write_text(PAGE.format(title=html.escape(head), body=body), encoding="utf-8")
    print(f"ci: {markdown.name}: {size} bytes ({size / LIMIT:.1%} of GitHub's 1 MiB) -> {page.name}")
    return head


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--picollo", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--summary-500", type=Path)
    ap.add_argument("--compare-py")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    summary = gate(args.picollo, args.out)
    check_files(args.out)
    check_documents(args.picollo, args.out)
    if args.compare_py:
        compare_py(args.compare_py, args.picollo, args.out)
    if args.summary_500:
        render(args.summary_500, args.out / "summary-500.html")
    print(f"ci: {render(summary, args.out / 'summary-3.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
