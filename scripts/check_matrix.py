#!/usr/bin/env python3
"""Every function of include/picollo.h has a row in the bad-input matrix.

The matrix is the `rows[]` table of c-tests/test_bad_input.c, one `ROW(picollo_..., ...)`
per hostile call. This fails, listing them, when a function declared in the header has no
row (a new export without bad-input coverage) or a row names a function the header does
not declare. The header's functions include those of the headers it includes from beside
it (`#include "picollo_inline.h"`: the inline recorder). Standard library only.

Usage: scripts/check_matrix.py [--header PATH] [--matrix PATH]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A declaration: the name right before its parameter list, outside comments.
DECLARATION = re.compile(r"\b(picollo_[a-z0-9_]+)\s*\(")
INCLUDE = re.compile(r'^#include "([^"]+)"$', re.MULTILINE)
ROW = re.compile(r"\bROW\(\s*(picollo_[a-z0-9_]+)\s*,\s*([A-Za-z0-9_]+)")
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def exported_functions(header: str) -> set[str]:
    return set(DECLARATION.findall(COMMENTS.sub(" ", header)))


def header_text(header: Path) -> str:
    """The header's text, then that of each header it includes from beside it (once each)."""
    texts, seen, pending = [], set(), [header]
    while pending:
        path = pending.pop(0)
        if path in seen:
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        pending += [path.parent / name for name in INCLUDE.findall(COMMENTS.sub(" ", text))]
    return "\n".join(texts)


def matrix_rows(source: str) -> list[tuple[str, str]]:
    return ROW.findall(COMMENTS.sub(" ", source))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", type=Path, default=ROOT / "include" / "picollo.h")
    parser.add_argument("--matrix", type=Path, default=ROOT / "c-tests" / "test_bad_input.c")
    args = parser.parse_args(argv)

    functions = exported_functions(header_text(args.header))
    rows = matrix_rows(args.matrix.read_text(encoding="utf-8"))
    if len(functions) < 10 or not rows:
        print(f"check_matrix: FAIL: found {len(functions)} functions in {args.header} and "
              f"{len(rows)} rows in {args.matrix}: the patterns no longer match the files",
              file=sys.stderr)
        return 1
    covered = {fn for fn, _ in rows}
    missing = sorted(functions - covered)
    unknown = sorted(covered - functions)
    cases = [f"{fn}/{case}" for fn, case in rows]
    duplicates = sorted({c for c in cases if cases.count(c) > 1})
    for name, items in (("functions without a row", missing),
                        ("rows naming no function of the header", unknown),
                        ("duplicate rows", duplicates)):
        if items:
            print(f"check_matrix: {name} in {args.matrix.name}:", file=sys.stderr)
            for item in items:
                print(f"  {item}", file=sys.stderr)
    if missing or unknown or duplicates:
        return 1
    print(f"check_matrix: {len(rows)} rows cover all {len(functions)} functions of "
          f"{args.header.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
