#!/usr/bin/env python3
"""Every code block of README.md, docs/*.md and the crates' READMEs, run as written.

Each fenced block is judged by its language:
  rust    built (release) and run in a cargo project of its own that depends on the
          workspace's `picollo` and `picollo-bench` by path, as a user's would from crates.io;
  c, cpp  compiled (gcc -std=c11 / g++ -std=c++17, -Wall -Werror) against include/ and
          target/release/libpicollo.so, and run;
  python  run (a `>>>` session: as a doctest, its shown output checked) with the project's Python (PICOLLO_SNIPPET_PYTHON, else .venv's), the source
          package on PYTHONPATH and PICOLLO_LIB pointing at the workspace's library;
  csharp  compiled with mono's mcs against the binding (dotnet/Picollo), and run with mono;
  toml    the dependency lines name the workspace's crates, at their versions;
  sh, text, yaml, cmake
          each carries a directive (below): run (sh only), or skip with its reason.
A block without `main` (Rust, C, C++, C#) gets the one visible wrapper this runs it in:
`fn main() -> Result<(), Box<dyn std::error::Error>> { BLOCK Ok(()) }` for Rust (rustdoc's
own wrapper where the block ends in `Ok::<(), E>(())`, and its `# ` lines kept), `int
main(void) { BLOCK return 0; }` for C and C++ (its `#include` lines kept above), `static
class Snippet { static void Main() { BLOCK } }` for C# (its `using` lines kept above).

A block that shows only a part of a program says so on its first line, where the reader
sees it: `// fragment: REASON` (`/* ... */` in C, `#` in Python and shell); it is not run.
Other directives are an HTML comment on the line before the fence:
  <!-- snippet: skip REASON -->      not run; the reason is printed with the counts
  <!-- snippet: run -->              (sh) run with bash from the repository root, the
                                     workspace's `picollo` (release) first on PATH
  <!-- snippet: pmu -->              run; where the machine has no hardware PMU and the
                                     block fails saying so, it counts as skipped, loudly
  <!-- snippet: excerpt REASON -->   (text) output of a run, shown as an excerpt
A block fails on a non-zero exit, a compile error or a timeout (120 s). The last line is
`snippets: N blocks: LANG run/skipped ...` per language.

Usage: scripts/snippets.py [--list] [FILE...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120
FENCE = re.compile(r"^```(\S*)\n(.*?)^```[ \t]*$", re.S | re.M)
DIRECTIVE = re.compile(r"<!--\s*snippet:\s*(\w+)\s*(.*?)\s*-->\s*$")
#: A block that only shows a part of a program says so on its first line, visibly:
#: `// fragment: REASON` (or `/* fragment: REASON */`, `# fragment: REASON`).
FRAGMENT = re.compile(r"^\s*(?://|/\*|#)\s*fragment:\s*(.*?)\s*(?:\*/)?\s*$", re.M)
#: What the library says where hardware events cannot be opened (no PMU, a VM without vPMU).
NO_PMU = "not supported on this machine (ENOENT: no hardware PMU"
RUN_BY_DEFAULT = {"rust", "c", "cpp", "python", "csharp", "toml"}


@dataclass
class Block:
    path: Path
    line: int
    lang: str
    code: str
    kind: str  # run, skip, fragment, excerpt
    reason: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def documents(args: list[str]) -> list[Path]:
    if args:
        return [Path(a).resolve() for a in args]
    crates = [ROOT / d / "README.md" for d in ("core", "ffi", "bench", "cli", "dotnet")]
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *[p for p in crates if p.is_file()]]


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        d = DIRECTIVE.search(before)
        lang = m.group(1) or "text"
        kind, reason = (d.group(1), d.group(2)) if d else ("run", "")
        kind = {"pmu": "run-pmu"}.get(kind, kind)
        first = FRAGMENT.match(m.group(2))
        if first:
            kind, reason = "fragment", first.group(1)
        if not d and lang not in RUN_BY_DEFAULT:
            kind, reason = "missing", f"a {lang} block needs a directive (run, skip or excerpt)"
        out.append(Block(path, text[:m.start()].count("\n") + 1, lang, m.group(2), kind, reason))
    return out


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str | None:
    """None when `cmd` succeeds, else what it printed (its last 40 lines)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"timed out after {TIMEOUT} s: {' '.join(cmd)}"
    if p.returncode == 0:
        return None
    lines = (p.stdout + p.stderr).splitlines()
    return f"exit {p.returncode}: {' '.join(cmd)}\n" + "\n".join(lines[-40:])


def hoisted(code: str, directive: str) -> tuple[str, str]:
    """The lines of `code` that match `directive` (`#include`s, C#'s `using` directives),
    and the rest."""
    lines = code.splitlines()
    top = [l for l in lines if re.match(directive, l)]
    return "\n".join(top), "\n".join(l for l in lines if not re.match(directive, l))


def rust_source(code: str) -> str:
    """As rustdoc builds a doctest: `# ` lines shown to the compiler (rustdoc hides them
    from the reader), a block that ends in its own `Ok::<(), E>(())` wrapped in a function
    returning `Result<(), E>`."""
    code = re.sub(r"^(\s*)# ?", r"\1", code, flags=re.M)
    if re.search(r"^\s*(pub\s+)?fn main\s*\(", code, re.M):
        return code
    last = [l for l in code.splitlines() if l.strip()][-1].strip()
    if last.startswith("Ok"):
        return ("fn main() {\n    fn inner() -> Result<(), impl core::fmt::Debug> {\n"
                + code + "\n    }\n    inner().unwrap()\n}\n")
    return ("fn main() -> Result<(), Box<dyn std::error::Error>> {\n" + code
            + "\n    Ok(())\n}\n")


def c_source(code: str) -> str:
    if re.search(r"\bint\s+main\s*\(", code):
        return code
    top, body = hoisted(code, r"#include\b")
    return f"{top}\nint main(void)\n{{\n{body}\n    return 0;\n}}\n"


def csharp_source(code: str) -> str:
    if re.search(r"\bstatic\s+(void|int)\s+Main\s*\(", code):
        return code
    top, body = hoisted(code, r"using [\w.]+( = [\w.<>]+)?;")
    return f"{top}\nstatic class Snippet\n{{\n    static void Main()\n    {{\n{body}\n    }}\n}}\n"


def cargo_versions() -> dict[str, str]:
    versions = {}
    for manifest in ROOT.glob("*/Cargo.toml"):
        package = tomllib.loads(manifest.read_text()).get("package", {})
        if "name" in package:
            versions[package["name"]] = str(package.get("version", ""))
    return versions


def check_toml(b: Block) -> str | None:
    deps = tomllib.loads(b.code).get("dependencies", {})
    versions = cargo_versions()
    for name, spec in deps.items():
        want = spec if isinstance(spec, str) else spec.get("version", "")
        have = versions.get(name)
        if have is None:
            return f"{name} is not a crate of this workspace ({', '.join(sorted(versions))})"
        if want and not have.startswith(want.lstrip("^=~")):
            return f"{name} = {want!r}, but the workspace's is {have}"
    return None if deps else "no [dependencies] table"


class Runner:
    def __init__(self, work: Path):
        self.work = work
        self.lib = ROOT / "target" / "release"
        self.env = dict(os.environ, PICOLLO_LIB=str(self.lib / "libpicollo.so"),
                        PYTHONPATH=str(ROOT / "python-demo"),
                        LD_LIBRARY_PATH=str(self.lib))
        self.rust: list[Block] = []
        self.csharp_dll: Path | None = None
        self.cli = ""

    def python(self) -> str:
        chosen = os.environ.get("PICOLLO_SNIPPET_PYTHON")
        venv = ROOT / ".venv" / "bin" / "python"
        return chosen or (str(venv) if venv.exists() else sys.executable)

    def c_like(self, b: Block, n: int) -> str | None:
        ext, compiler, std = (("c", "gcc", "-std=c11") if b.lang == "c"
                              else ("cpp", "g++", "-std=c++17"))
        src, exe = self.work / f"s{n}.{ext}", self.work / f"s{n}"
        src.write_text(c_source(b.code))
        flags = [std, "-Wall", "-Wextra", "-Werror", "-O2", f"-I{ROOT / 'include'}"]
        link = [f"-L{self.lib}", "-lpicollo", f"-Wl,-rpath,{self.lib}", "-lm"]
        return (run([compiler, *flags, str(src), "-o", str(exe), *link], self.work)
                or run([str(exe)], self.work, self.env))

    def py(self, b: Block, n: int) -> str | None:
        """A script is run; a session (`>>>` prompts) is run as a doctest: every output
        it shows must be what Python prints."""
        src = self.work / f"s{n}.py"
        src.write_text(b.code)
        cmd = [self.python(), str(src)]
        if b.code.lstrip().startswith(">>>"):
            check = ("import doctest, sys; r = doctest.testfile(sys.argv[1], "
                     "module_relative=False); sys.exit(1 if r.failed else 0)")
            cmd = [self.python(), "-c", check, str(src)]
        return run(cmd, self.work, dict(self.env, MPLBACKEND="Agg"))

    def cs(self, b: Block, n: int) -> str | None:
        if self.csharp_dll is None:
            sources = [str(p) for p in (ROOT / "dotnet" / "Picollo").rglob("*.cs")
                       if "obj" not in p.parts and "bin" not in p.parts]
            self.csharp_dll = self.work / "Picollo.dll"
            failed = run(["mcs", "-nologo", "-unsafe", "-target:library",
                          f"-out:{self.csharp_dll}", *sources], self.work)
            if failed:
                return "the binding did not compile: " + failed
            (self.work / "dllmap.config").write_text(
                f'<configuration><dllmap dll="picollo" target="{self.lib / "libpicollo.so"}" />'
                "</configuration>")
        src, exe = self.work / f"s{n}.cs", self.work / f"s{n}.exe"
        src.write_text(csharp_source(b.code))
        failed = run(["mcs", "-nologo", f"-r:{self.csharp_dll}",
                      f"-out:{exe}", str(src)], self.work)
        if failed:
            return failed
        shutil.copy(self.work / "dllmap.config", f"{exe}.config")
        return run(["mono", str(exe)], self.work, dict(self.env, MONO_PATH=str(self.work)))

    def sh(self, b: Block, n: int) -> str | None:
        """From the repository root, with the workspace's `picollo` first on PATH."""
        if not self.cli:
            self.cli = run(["cargo", "build", "-q", "--release", "-p", "picollo-cli"], ROOT) or "built"
        if self.cli != "built":
            return "picollo did not build: " + self.cli
        path = f"{ROOT / 'target' / 'release'}:{os.environ.get('PATH', '')}"
        env = dict(self.env, PATH=path, TMPDIR=str(self.work))
        return run(["bash", "-euo", "pipefail", "-c", b.code], ROOT, env)

    def rust_all(self) -> dict[int, str | None]:
        """Build every Rust block as a binary of one cargo project, then run each."""
        project = self.work / "rust"
        (project / "src" / "bin").mkdir(parents=True, exist_ok=True)
        (project / "Cargo.toml").write_text(
            '[package]\nname = "picollo-snippets"\nversion = "0.0.0"\nedition = "2021"\n'
            'publish = false\n\n[dependencies]\n'
            f'picollo = {{ path = "{ROOT / "core"}" }}\n'
            f'picollo-bench = {{ path = "{ROOT / "bench"}" }}\n\n[workspace]\n')
        for i, b in enumerate(self.rust):
            (project / "src" / "bin" / f"s{i}.rs").write_text(rust_source(b.code))
        # The workspace's lock file: the same versions of every dependency as its tests.
        shutil.copy(ROOT / "Cargo.lock", project / "Cargo.lock")
        target = ROOT / "target" / "snippets"
        env = dict(self.env, CARGO_TARGET_DIR=str(target))
        # One build for all; where it fails, each block's own build says which failed.
        built = run(["cargo", "build", "-q", "--release", "--bins"], project, env)
        results = {}
        for i, b in enumerate(self.rust):
            exe = target / "release" / f"s{i}"
            own = built and run(["cargo", "build", "-q", "--release", "--bin", f"s{i}"],
                                project, env)
            results[i] = own or run([str(exe)], self.work, self.env)
        return results


def main(argv: list[str]) -> int:
    listing = "--list" in argv
    blocks = [b for p in documents([a for a in argv if a != "--list"]) for b in blocks_of(p)]
    failures, ran, skipped = [], Counter(), Counter()
    with tempfile.TemporaryDirectory(prefix="picollo-snippets-") as tmp:
        r = Runner(Path(tmp))
        if not listing:
            built = run(["cargo", "build", "-q", "--release", "-p", "picollo-ffi"], ROOT)
            if built:
                print(f"snippets: FAIL: the library did not build: {built}", file=sys.stderr)
                return 1
        pending = []
        for n, b in enumerate(blocks):
            if listing:
                print(f"{b.where} {b.lang} {b.kind} {b.reason}")
                continue
            runs = b.kind in ("run", "run-pmu")
            if b.kind == "missing" or (runs and b.lang not in RUN_BY_DEFAULT | {"sh"}):
                failures.append((b, b.reason or f"{b.lang} blocks are not run"))
                continue
            if b.kind not in ("run", "run-pmu"):
                skipped[b.lang] += 1
                continue
            if b.lang == "rust":
                r.rust.append(b)
                continue
            check = {"c": r.c_like, "cpp": r.c_like, "python": r.py, "csharp": r.cs,
                     "sh": r.sh, "toml": lambda b, n: check_toml(b)}[b.lang]
            pending.append((b, check(b, n)))
        if r.rust:
            results = r.rust_all()
            pending += [(b, results[i]) for i, b in enumerate(r.rust)]
        for b, failed in pending:
            if failed and b.kind == "run-pmu" and NO_PMU in failed:
                print(f"snippets: SKIPPED {b.where} ({b.lang}): no hardware PMU here, as the "
                      "block's own error says")
                skipped[b.lang] += 1
                continue
            ran[b.lang] += 1
            if failed:
                failures.append((b, failed))
    if listing:
        return 0
    for b, why in failures:
        print(f"snippets: FAIL {b.where} ({b.lang}): {why}", file=sys.stderr)
    reasons = sorted({f"{b.where} {b.kind}: {b.reason}" for b in blocks
                      if b.kind not in ("run", "run-pmu", "missing")})
    for line in reasons:
        print(f"  not run: {line}")
    langs = sorted(set(ran) | set(skipped))
    counts = ", ".join(f"{l} {ran[l]} run/{skipped[l]} not" for l in langs)
    print(f"snippets: {len(blocks)} blocks: {counts}; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
