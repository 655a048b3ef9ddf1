#!/usr/bin/env python3
"""The action's verdict and its slower benchmarks, from Picollo's document.

`outcome.py DOCUMENT` prints one line, the verdict (`slower` where any comparison is
slower; else `error` where none was made; else `not judged` where one was not judged; else
`not settled` where one ended its budget unsettled; else `faster` where one is faster; else
`unchanged`), then the name of each slower benchmark (its
B side), one a line. A missing or empty document (picollo stopped before writing it) reads
as no comparison. `outcome.py --suite DOCUMENT` reads a suite's document (--against), whose
B sides are `NAME (head)`, and names each benchmark NAME.
"""
import json
import sys
from pathlib import Path

NOT_JUDGED = {"not enough rounds", "not enough runs apart", "not judged"}


HEAD = " (head)"


def outcome(document: dict, suite: bool = False) -> list[str]:
    verdicts = [c["verdict"] for c in document.get("comparisons", [])]
    slower = [c["b"] for c in document.get("comparisons", []) if c["verdict"] == "slower"]
    if suite:
        slower = [name[: -len(HEAD)] if name.endswith(HEAD) else name for name in slower]
    if slower:
        return ["slower", *slower]
    if not verdicts:
        return ["error"]
    if NOT_JUDGED & set(verdicts):
        return ["not judged"]
    if "not settled" in verdicts:
        return ["not settled"]
    return ["faster" if "faster" in verdicts else "unchanged"]


def main() -> int:
    suite = sys.argv[1:2] == ["--suite"]
    path = Path(sys.argv[2 if suite else 1])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    print("\n".join(outcome(json.loads(text) if text.strip() else {}, suite)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
