#!/usr/bin/env python3
"""Every stage asks for the tools it runs.

For each stage of scripts/test.sh, the stage's command and the scripts it calls (followed
through `bash X.sh`, `. X.sh`, `python3 X.py` and `X.sh` paths of this repository), without
their comments, are searched for the commands of scripts/needs.sh's tools; each tool found
must be named in a `needs` or `with_needs` call of that stage (or a script it calls). Exits 1 naming each stage and tool that
is not asked for: a stage that uses a tool it does not install fails when run alone on a
fresh machine (scripts/test.sh --stage NAME).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: How each tool of scripts/needs.sh shows in a script's code (comments removed).
USES = {
    "clang": r"\bclang\b(?![-_./])",
    "valgrind": r"\bvalgrind\b",
    "mono": r"\b(mcs|mono)\b(?![-_.])",
    "cargo-c": r"\bcargo[ -]cinstall\b",
    "cmake": r"\bcmake\b(?![-_./])",
    "lld": r"\bld\.lld\b",
    "mold": r"\bmold\b(?![-_./])",
    "python3-dbg": r"\bpython3-dbg\b",
    "node": r"\b(node|npm)\b(?![-_./])",
    "debootstrap": r"\bdebootstrap\b(?![-_./])",
    "qemu-user-static": r"qemu-aarch64-static",
    "qemu-user": r"\bqemu-(x86_64|aarch64)\b(?!-static)",
    "qemu-system": r"\bqemu-system-aarch64\b",
    "aarch64-cross": r"\baarch64-linux-gnu-gcc\b",
    "chromium": r"\bchromium\b(?![-_./])",
    "cbindgen": r"^\s*cbindgen\b",
    "thumbv7em": r"--target[ =]thumbv7em-",
    "cargo-fuzz": r"\bcargo \+nightly fuzz\b",
}
CALL = re.compile(r"(?:\bbash\s+|^\s*\.\s+|\bsource\s+|\bpython3\s+|[\"'\s(])"
                  r"\"?(?:\$\w+/|\$\{\w+\}/|\$\(\w+\)/)?((?:[\w.-]+/)*[\w.-]+\.(?:sh|py))\b")
NEEDS = re.compile(r"\b(?:needs|with_needs)\s+\"?([\w\s+.\"$\[\]{}@-]*)")


def code_of(path: Path) -> str:
    """The file without comment lines, trailing comments (a `#` after a space), Python's
    docstrings and the messages of `say`, `echo` and `print` (which may name a tool without
    running it)."""
    text = path.read_text()
    if path.suffix == ".py":
        # A docstring names scripts (who calls this one) without running them.
        text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    lines = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        line = re.sub(r"\s#\s.*$", "", line)
        lines.append(re.sub(r"\b(say|echo|print)\b\s*\(?\s*f?\"[^\"]*\"", r"\1", line))
    return "\n".join(lines)


def resolve(name: str, near: Path) -> Path | None:
    """A script a stage calls: relative to the repository root or to the caller's folder."""
    for base in (ROOT, near.parent, ROOT / "scripts"):
        p = (base / name).resolve()
        if p.is_file() and ROOT in p.parents:
            return p
    return None


def closure(text: str, near: Path) -> list[tuple[Path | None, str]]:
    """The command text and every repository script it reaches, each with its code."""
    seen: dict[Path, str] = {}
    todo = [(near, text)]
    out = [(None, text)]
    while todo:
        where, code = todo.pop()
        for m in CALL.finditer(code):
            p = resolve(m.group(1), where)
            if p and p not in seen and p.name != "needs.sh":
                seen[p] = code_of(p)
                out.append((p, seen[p]))
                todo.append((p, seen[p]))
    return out


def stages() -> list[tuple[str, str]]:
    """(name, command) of each `stage NAME COMMAND...` and `pooled NAME COMMAND...` line of
    scripts/test.sh."""
    out = []
    for line in code_of(ROOT / "scripts/test.sh").splitlines():
        m = re.match(r"\s*(?:stage|pooled)\s+([\w-]+)\s+(.*)$", line)
        if m and not re.match(r"\s*(stage|pooled)\(\)", line):
            out.append((m.group(1), m.group(2)))
    return out


def problems() -> list[str]:
    known = set(subprocess.run(["bash", str(ROOT / "scripts/needs.sh"), "--list"],
                               capture_output=True, text=True, check=True).stdout.split())
    missing = sorted(set(USES) - known)
    if missing:
        return [f"USES names {', '.join(missing)}, which scripts/needs.sh does not know"]
    found = []
    for name, command in stages():
        parts = closure(command, ROOT / "scripts/test.sh")
        asked = {w for _, code in parts for m in NEEDS.finditer(code)
                 for w in re.findall(r"[\w+.-]+", m.group(1))}
        lists = [m for _, code in parts
                 for m in re.findall(r"\btools\s*\+?=\s*[(\[]([^)\]]*)[)\]]", code)]
        asked |= {w.strip("\",' ") for m in lists for w in re.split(r"[\s,]+", m) if w}
        asked = {a.strip('"') for a in asked}
        for tool, pattern in USES.items():
            users = [p for p, code in parts if re.search(pattern, code, re.M)]
            if users and tool not in asked:
                where = ", ".join(str(p.relative_to(ROOT)) if p else "its command" for p in users)
                found.append(f"stage {name}: runs {tool} ({where}) without asking for it")
    return found


def main() -> int:
    found = problems()
    for line in found:
        print(f"check_needs: {line}", file=sys.stderr)
    print(f"check_needs: {len(stages())} stages, {len(found)} tools used without being asked for")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
