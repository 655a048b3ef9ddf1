#!/usr/bin/env python3
"""The announcement's C# snippets, against the copies the .NET tests compile.

    python3 c-tests/csharp/seed_snippets.py check            # every snippet, line for line
    python3 c-tests/csharp/seed_snippets.py show NAME        # a snippet as the announcement has it

The Picollo .NET announcement (document 000, read from ../shared/seeds beside the
checkout, or from $PICOLLO_SEED_ANNOUNCEMENT; it is not copied into the repository) prints its listings with a line number glued to
each line and the indentation lost: `13 for (int i = 0; i < 1000_000; i++)`. A listing of a
`public static void` method is taken as a snippet; the copies are the methods of the same name
in dotnet/Picollo.Tests/SeedSnippets.cs and dotnet/Picollo.PerfTests/SeedPerfSnippets.cs. Each
copied line must be the announcement's line (surrounding whitespace aside), or the
announcement's line with one of the ADAPTATIONS below applied and marked at its end with
`// ADAPTED(<name>): <why>`. A snippet with no copy, a copy with no snippet, or any other
difference fails the check.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SEED = Path(os.environ.get("PICOLLO_SEED_ANNOUNCEMENT")
            or ROOT.parent / "shared" / "seeds" / "000_4ed0144c480b78fe.txt")
COPIES = [ROOT / "dotnet" / "Picollo.Tests" / "SeedSnippets.cs",
          ROOT / "dotnet" / "Picollo.PerfTests" / "SeedPerfSnippets.cs"]

#: What mono's mcs (6.8) cannot take as the announcement writes it: name -> (why, rewrite).
ADAPTATIONS = {
    "digits": ("mcs 6.8 reads each _ in a number as a copy of the digit after it (20_000 "
               "compiles as 200000, 24_900 as 249900)",
               lambda line: re.sub(r"(?<=\d)_(?=\d)", "", line)),
    "collection": ("mcs has no collection expressions (C# 12)",
                   lambda line: re.sub(r"= \[(.*)\];", r"= new double[] { \1 };", line)),
    "null-forgiving": ("mcs has no null-forgiving operator (C# 8)",
                       lambda line: line.replace("!.", ".")),
}

_START = re.compile(r"^1(public static void (\w+)\(.*)$")
_MARK = re.compile(r"^(?P<code>.*?) // ADAPTED\((?P<name>[\w-]+)\): (?P<why>.*)$")


def seed_snippets(text: str) -> dict[str, list[str]]:
    """Each `public static void` listing: its lines without their numbers."""
    lines, snippets, i = text.split("\n"), {}, 0
    while i < len(lines):
        m = _START.match(lines[i])
        if not m:
            i += 1
            continue
        body, n, i = [m.group(1)], 2, i + 1
        # The next line of the listing starts with its number.
        while i < len(lines) and lines[i].startswith(str(n)):
            body.append(lines[i][len(str(n)):])
            n, i = n + 1, i + 1
        snippets[m.group(2)] = body
    return snippets


def copied_methods(path: Path) -> dict[str, list[str]]:
    """`public static void NAME(` at four spaces to the next line that is `    }`."""
    methods, current = {}, None
    for line in path.read_text(encoding="utf-8").split("\n"):
        m = re.match(r"^    public static void (\w+)\(", line)
        if m:
            current = methods.setdefault(m.group(1), [])
        if current is not None:
            current.append(line)
            if line == "    }":
                current = None
    return methods


def compare(name: str, seed: list[str], copy: list[str], used: dict[str, int]) -> list[str]:
    problems = []
    if len(seed) != len(copy):
        problems.append(f"{name}: {len(seed)} lines in the announcement, {len(copy)} in the copy")
    for n, (s, c) in enumerate(zip(seed, copy), start=1):
        s, c = s.strip(), c.strip()
        m = _MARK.match(c)
        if m:
            adaptation = ADAPTATIONS.get(m.group("name"))
            if adaptation is None:
                problems.append(f"{name} line {n}: unknown adaptation {m.group('name')!r}")
                continue
            why, rewrite = adaptation
            if m.group("why") != why or m.group("code") != rewrite(s) or rewrite(s) == s:
                problems.append(f"{name} line {n}: adapted as\n    {c}\n  expected\n    {rewrite(s)} "
                                f"// ADAPTED({m.group('name')}): {why}")
            used[m.group("name")] = used.get(m.group("name"), 0) + 1
        elif s != c:
            problems.append(f"{name} line {n}: the announcement has\n    {s}\n  the copy\n    {c}")
    return problems


def check(seed_path: Path) -> int:
    seeds = seed_snippets(seed_path.read_text(encoding="utf-8"))
    copies: dict[str, list[str]] = {}
    for path in COPIES:
        copies.update(copied_methods(path))
    problems, used = [], {}
    for name in sorted(set(seeds) | set(copies)):
        if name not in copies:
            problems.append(f"{name}: in the announcement, copied nowhere")
        elif name not in seeds:
            problems.append(f"{name}: copied, but no such snippet in the announcement")
        else:
            problems += compare(name, seeds[name], copies[name], used)
    for p in problems:
        print(f"seed snippets: {p}", file=sys.stderr)
    if problems:
        return 1
    adapted = ", ".join(f"{k} {v}" for k, v in sorted(used.items())) or "none"
    print(f"seed snippets: {len(seeds)} of the announcement's, copied line for line "
          f"({sum(len(s) for s in seeds.values())} lines; adapted for mcs: {adapted})")
    return 0


def main(argv: list[str]) -> int:
    if argv == ["check"]:
        if not SEED.is_file():
            # The copies still compile and run (run.sh); only the line-for-line comparison
            # needs the announcement.
            print(f"seed_snippets: SKIPPED: the announcement is not at {SEED} (set "
                  "PICOLLO_SEED_ANNOUNCEMENT to its path to compare the snippets line for line)")
            return 0
        return check(SEED)
    if len(argv) == 2 and argv[0] == "show":
        snippet = seed_snippets(SEED.read_text(encoding="utf-8")).get(argv[1])
        if snippet is None:
            print(f"no snippet {argv[1]!r}", file=sys.stderr)
            return 1
        print("\n".join(snippet))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
