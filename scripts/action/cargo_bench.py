#!/usr/bin/env python3
"""The executable cargo built for a bench target, from `cargo bench --no-run
--message-format=json`'s messages.

`cargo_bench.py MESSAGES NAME` prints the path of bench target NAME's executable (the last
one cargo reported, where a package has it twice); exits 1, saying which bench targets cargo
did build, where it built none of that name.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Artifact:
    """A `compiler-artifact` message: the fields read here."""

    name: str
    kinds: tuple[str, ...]
    executable: str | None

    @staticmethod
    def of(message: dict) -> "Artifact | None":
        if message.get("reason") != "compiler-artifact":
            return None
        target = message["target"]
        return Artifact(target["name"], tuple(target["kind"]), message.get("executable"))


def benches(messages: str) -> list[Artifact]:
    """Every bench target with an executable, in cargo's order (lines that are not JSON,
    such as a build script's output, are passed over)."""
    found = []
    for line in messages.splitlines():
        if not line.startswith("{"):
            continue
        artifact = Artifact.of(json.loads(line))
        if artifact and "bench" in artifact.kinds and artifact.executable:
            found.append(artifact)
    return found


def executable(messages: str, name: str) -> str | None:
    """The executable of bench target `name` (None where cargo built none)."""
    named = [a.executable for a in benches(messages) if a.name == name]
    return named[-1] if named else None


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: cargo_bench.py MESSAGES NAME", file=sys.stderr)
        return 2
    messages = Path(argv[1]).read_text(encoding="utf-8")
    path = executable(messages, argv[2])
    if path is None:
        built = ", ".join(sorted({a.name for a in benches(messages)})) or "none"
        print(f"cargo built no bench target named {argv[2]} (bench targets built: {built})",
              file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
