#!/usr/bin/env python3
"""The action's verdict and its slower benchmarks, from Picollo's document.

`outcome.py DOCUMENT` prints one line, the verdict (`slower` where any comparison is
slower; else `error` where none was made; else `not judged` where one was not judged; else
`faster` where one is faster; else `unchanged`), then the name of each slower benchmark (its
B side), one a line. A missing or empty document (picollo stopped before writing it) reads
as no comparison.
"""
import json
import sys
from pathlib import Path

NOT_JUDGED = {"not enough rounds", "not enough runs apart", "not judged", "not settled"}


def outcome(document: dict) -> list[str]:
    verdicts = [c["verdict"] for c in document.get("comparisons", [])]
    slower = [c["b"] for c in document.get("comparisons", []) if c["verdict"] == "slower"]
    if slower:
        return ["slower", *slower]
    if not verdicts:
        return ["error"]
    if NOT_JUDGED & set(verdicts):
        return ["not judged"]
    return ["faster" if "faster" in verdicts else "unchanged"]


def main() -> int:
    path = Path(sys.argv[1])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    print("\n".join(outcome(json.loads(text) if text.strip() else {})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
