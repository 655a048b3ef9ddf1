#!/usr/bin/env python3
"""Check that the Python (ctypes) and C# (P/Invoke) bindings match include/picollo.h.

    python3 scripts/check_bindings.py              # both bindings
    python3 scripts/check_bindings.py --csharp     # the C# binding only
    python3 scripts/check_bindings.py --python DIR --header FILE   # other copies

Compares struct fields (order, names, types), function signatures (return and parameter
types), enum members and values, and the constants the bindings repeat. Prints one line per
mismatch and exits 1 if there is any; header functions a binding does not declare are
listed as notes. Needs only the Python standard library (no libpicollo, no compiler).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bindcheck import csharp_side, python_side
from bindcheck.compare import unwrapped
from bindcheck.header import HeaderError, read_header

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HEADER = ROOT / "include" / "picollo.h"
DEFAULT_PYTHON = ROOT / "python-demo" / "picollo"
DEFAULT_CSHARP = ROOT / "dotnet" / "Picollo"


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header", type=Path, default=DEFAULT_HEADER, help="the C header")
    ap.add_argument("--python", type=Path, nargs="?", const=DEFAULT_PYTHON, metavar="DIR",
                    help="check the ctypes package in DIR (default python-demo/picollo)")
    ap.add_argument("--csharp", type=Path, nargs="?", const=DEFAULT_CSHARP, metavar="DIR",
                    help="check the C# binding in DIR (default dotnet/Picollo)")
    ap.add_argument("--quiet", action="store_true", help="print mismatches only")
    args = ap.parse_args(argv)
    if args.python is None and args.csharp is None:
        args.python, args.csharp = DEFAULT_PYTHON, DEFAULT_CSHARP
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        header = read_header(args.header)
    except HeaderError as e:
        print(f"{args.header}: {e}", file=sys.stderr)
        return 2
    sides = [(lang, checker, folder) for lang, checker, folder in (
        ("Python", python_side.check, args.python), ("C#", csharp_side.check, args.csharp))
        if folder is not None]
    failed = False
    for lang, checker, folder in sides:
        errors, declared = checker(folder, header)
        for line in errors:
            print(f"MISMATCH: {line}", file=sys.stderr)
        if not args.quiet:
            missing = unwrapped(header, declared)
            if missing:
                print(f"note: {lang} does not wrap {len(missing)} header functions: "
                      f"{', '.join(missing)}")
            verdict = f"{len(errors)} mismatches" if errors else "matches the header"
            print(f"{lang} binding ({folder}): {len(declared)} functions declared, {verdict}")
        failed = failed or bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
