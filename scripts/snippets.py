#!/usr/bin/env python3
"""Every code block of README.md, docs/*.md and the crates' READMEs, run as written, and every
link between them followed.

Each fenced block is judged by its language:
  rust    built (release) and run in a cargo project of its own that depends on the
          workspace's `picollo`, `picollo-perf`, `picollo-bench` and `picollo-metrics` by
          path, as a user's would from crates.io (and on `metrics`, the facade
          `picollo-metrics` implements, at the lock file's version);
  c, cpp, csharp
          built and run by the command its page prints below it (below), with mono for C#;
  python  run by its build command where one follows it; else run (a `>>>` session: as a
          doctest, its shown output checked) with the project's Python
          (PICOLLO_SNIPPET_PYTHON, else .venv's), the source package on PYTHONPATH and
          PICOLLO_LIB pointing at the workspace's library;
  toml    the dependency lines name the workspace's crates, at their versions;
  sh, text, yaml, cmake
          each carries a directive (below): run (sh only), or skip with its reason.
A Rust, C, C++ or C# block is a whole program, `main` included, that a reader can paste into
a file and build; one without `main` fails, unless it says on its first line, where the
reader sees it, that it shows only a part of a program: `// fragment: REASON` (`/* ... */`
in C, `#` in Python and shell); a fragment is not run.

A C, C++ or C# program is followed by the command that builds and runs it (a Python script
may be), a `sh` block marked `<!-- snippet: build -->`: the program is written under the
file name the command names (`app.c`, `app.cs`, `app.py`), in a folder that looks like the
checkout's root (a link to each of its entries), and the page's command, run there by bash
with none of the variables above, builds and runs it; a warning about the program's own
file fails it too.

Other directives are an HTML comment on the line before the fence:
  <!-- snippet: skip REASON -->      not run; the reason is printed with the counts
  <!-- snippet: run -->              (sh) run with bash from the repository root, the
                                     workspace's `picollo` (release) first on PATH
  <!-- snippet: build -->            (sh) the build command of the program just above
  <!-- snippet: pmu -->              run; where the machine has no hardware PMU and the
                                     block fails saying so, it counts as skipped, loudly
  <!-- snippet: emulate -->          run; where QEMU's user mode is missing and picollo
                                     fails saying so (`qemu-x86_64 not found on PATH`), it
                                     counts as skipped, loudly
  <!-- snippet: excerpt REASON -->   (text) output of a run, shown as an excerpt
A block fails on a non-zero exit, a compile error or a timeout (120 s; a cargo build 30
minutes). A link to a file of
the repository must find it, and a link to `#anchor` (in the page or `other.md#anchor`) a
heading that GitHub gives that anchor. The last line is `snippets: N blocks: LANG
run/skipped ...` per language, then the links followed.

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
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120
#: A cargo build's limit: a release build of the CLI that cannot reuse an earlier one (built
#: with CI's cargo settings, say) took over 120 s on a 2-core AMD EPYC VM.
BUILD_TIMEOUT = 1800
FENCE = re.compile(r"^```(\S*)\n(.*?)^```[ \t]*$", re.S | re.M)
DIRECTIVE = re.compile(r"<!--\s*snippet:\s*(\w+)\s*(.*?)\s*-->\s*$")
#: A block that only shows a part of a program says so on its first line, visibly:
#: `// fragment: REASON` (or `/* fragment: REASON */`, `# fragment: REASON`).
FRAGMENT = re.compile(r"^\s*(?://|/\*|#)\s*fragment:\s*(.*?)\s*(?:\*/)?\s*$", re.M)
#: How a whole program of each compiled language starts: its `main`, or a suite's macro that
#: writes it (`picollo_bench::main!`, `PICOLLO_BENCH_MAIN()`, Google Benchmark's `BENCHMARK_MAIN()`).
MAIN = {"rust": re.compile(r"^\s*(?:pub\s+)?fn\s+main\s*\(|^picollo_bench::main!\(", re.M),
        "c": re.compile(r"\bint\s+main\s*\(|^PICOLLO_BENCH_MAIN\(\)", re.M),
        "cpp": re.compile(r"\bint\s+main\s*\(|^(?:PICOLLO_BENCH|BENCHMARK)_MAIN\(\)", re.M),
        "csharp": re.compile(r"\bstatic\s+(?:void|int)\s+Main\s*\(")}
#: The file extension a build command gives a program of each language.
EXTENSION = {"c": "c", "cpp": "cpp", "csharp": "cs", "python": "py"}
#: The languages whose programs are run only by the command their page prints.
BUILT = ("c", "cpp", "csharp")
#: What the library says where hardware events cannot be opened (no PMU, a VM without vPMU).
NO_PMU = "not supported on this machine (ENOENT: no hardware PMU"
#: What picollo says where QEMU's user mode (Debian's qemu-user) is not installed.
NO_QEMU = re.compile(r"qemu-\w+ not found on PATH")
RUN_BY_DEFAULT = {"rust", "c", "cpp", "python", "csharp", "toml"}
#: The kinds of block that run: plainly, or skipped where the machine lacks a PMU or QEMU.
RUN_KINDS = ("run", "run-pmu", "run-emulate")
#: The variables through which the runners find the workspace's library and package; a
#: page's own build command runs without them, as a reader's shell would.
RUNNER_VARIABLES = ("PICOLLO_LIB", "PYTHONPATH", "LD_LIBRARY_PATH", "MONO_PATH")


@dataclass
class Block:
    path: Path
    line: int
    lang: str
    code: str
    kind: str  # run, run-pmu, run-emulate, skip, fragment, excerpt, build, invalid
    reason: str
    build: str = ""  # the command the page prints below a whole program (a `build` block)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def documents(args: list[str]) -> list[Path]:
    if args:
        return [Path(a).resolve() for a in args]
    crates = [ROOT / d / "README.md" for d in ("core", "perf", "ffi", "bench", "cli", "dotnet")]
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *[p for p in crates if p.is_file()]]


def judged(lang: str, code: str, directive: re.Match | None) -> tuple[str, str]:
    """A block's kind and reason, from its directive, its first line and its `main`."""
    kind, reason = (directive.group(1), directive.group(2)) if directive else ("run", "")
    kind = {"pmu": "run-pmu", "emulate": "run-emulate"}.get(kind, kind)
    first = FRAGMENT.match(code)
    if first:
        return "fragment", first.group(1)
    if not directive and lang not in RUN_BY_DEFAULT:
        return "invalid", f"a {lang} block needs a directive (run, build, skip or excerpt)"
    if kind == "build" and lang != "sh":
        return "invalid", f"a build command is a sh block, not {lang}"
    if kind.startswith("run") and lang in MAIN and not MAIN[lang].search(code):
        marker = "/* fragment: WHY */" if lang == "c" else "// fragment: WHY"
        return "invalid", (f"no `main`: a {lang} block is a whole program a reader can "
                           f"paste into a file and build, or says `{marker}` on its first line")
    return kind, reason


def with_builds(blocks: list[Block]) -> list[Block]:
    """Each `build` block given to the whole program just above it, whose command it is; a
    C, C++ or C# program without one is invalid."""
    out: list[Block] = []
    for b in blocks:
        program = out[-1] if out else None
        if b.kind != "build":
            out.append(b)
        elif program and program.kind.startswith("run") and program.lang in EXTENSION:
            program.build = b.code.strip()
        else:
            out.append(Block(b.path, b.line, b.lang, b.code, "invalid",
                             "a build command below no whole C, C++, C# or Python program"))
    for b in out:
        if b.kind.startswith("run") and b.lang in BUILT and not b.build:
            b.kind, b.reason = "invalid", ("no build command below it: a `sh` block marked "
                                           "`<!-- snippet: build -->` that builds and runs it")
    return out


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        lang = m.group(1) or "text"
        kind, reason = judged(lang, m.group(2), DIRECTIVE.search(before))
        out.append(Block(path, text[:m.start()].count("\n") + 1, lang, m.group(2), kind, reason))
    return with_builds(out)


@cache
def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of `path`: the text (a link's label, no code
    block's lines) lowercased, punctuation dropped, each space a hyphen, the second of a
    name `-1`, the third `-2`."""
    prose = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: Counter[str] = Counter()
    out = set()
    for m in re.finditer(r"^#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", prose, re.M):
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        out.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
        seen[slug] += 1
    return out


def broken_links(path: Path) -> tuple[int, list[tuple[str, str]]]:
    """How many links of `path` lead into the repository, and where each that finds no file
    or no heading of its anchor is, with why."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"))
    checked, broken = 0, []
    for m in re.finditer(r"\]\(([^()\s#]*)(?:#([^()\s]*))?\)", text):
        target, anchor = m.group(1), m.group(2)
        if re.match(r"\w+:", target):
            continue  # https:, mailto:
        checked += 1
        where = f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
        file = (path.parent / target).resolve() if target else path
        if not file.exists():
            broken.append((where, f"link to {target}: no such file"))
        elif anchor is not None and anchor not in anchors(file):
            broken.append((where, f"link to {target}#{anchor}: no heading of "
                                  f"{file.relative_to(ROOT)} has that anchor"))
    return checked, broken


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
        refuse: re.Pattern | None = None) -> str | None:
    """None when `cmd` succeeds (and prints no line `refuse` finds), else what it printed
    (its last 40 lines)."""
    limit = BUILD_TIMEOUT if cmd[:2] == ["cargo", "build"] else TIMEOUT
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=limit, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"timed out after {limit} s: {' '.join(cmd)}"
    refused = refuse.search(p.stdout + p.stderr) if refuse else None
    if p.returncode == 0 and not refused:
        return None
    lines = (p.stdout + p.stderr).splitlines()
    why = f"exit {p.returncode}" if p.returncode else f"printed {refused.group(0)!r}"
    return f"{why}: {' '.join(cmd)}\n" + "\n".join(lines[-40:])


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
        self.cli = ""

    def python(self) -> str:
        chosen = os.environ.get("PICOLLO_SNIPPET_PYTHON")
        venv = ROOT / ".venv" / "bin" / "python"
        return chosen or (str(venv) if venv.exists() else sys.executable)

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

    def built(self, b: Block, n: int) -> str | None:
        """A whole program built and run by the command its page prints below it: saved
        under the name the command gives it, in a folder that looks like the checkout's root,
        and the command run there as a reader's shell would, without the runners' variables."""
        name = re.search(rf"(?<![\w/*.-])[\w-]+\.{EXTENSION[b.lang]}(?![\w.])", b.build)
        if not name:
            return f"the build command names no .{EXTENSION[b.lang]} file: {b.build}"
        folder = self.work / f"b{n}"
        folder.mkdir()
        for entry in ROOT.iterdir():
            if entry.name != ".git":
                (folder / entry.name).symlink_to(entry)
        (folder / name.group(0)).write_text(b.code)
        env = {k: v for k, v in os.environ.items() if k not in RUNNER_VARIABLES}
        env.update(PWD=str(folder), MPLBACKEND="Agg",
                   PATH=f"{Path(self.python()).parent}:{env.get('PATH', '')}")
        # gcc's `app.c:3:5: warning: …`, mcs's `app.cs(3,5): warning CS0168: …`
        warning = re.compile(rf"^{re.escape(name.group(0))}[:(]\S*:? warning\b.*$", re.M)
        return run(["bash", "-euo", "pipefail", "-c", b.build], folder, env, warning)

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
            f'picollo-perf = {{ path = "{ROOT / "perf"}" }}\n'
            f'picollo-bench = {{ path = "{ROOT / "bench"}" }}\n'
            f'picollo-metrics = {{ path = "{ROOT / "metrics"}" }}\n'
            'metrics = "0.24"\n\n[workspace]\n')
        for i, b in enumerate(self.rust):
            (project / "src" / "bin" / f"s{i}.rs").write_text(b.code)
        # The workspace's lock file: the same versions of every dependency as its tests.
        shutil.copy(ROOT / "Cargo.lock", project / "Cargo.lock")
        # The workspace's target folder: the crates this project shares with the workspace's
        # release builds are compiled once where the profiles agree (the project has cargo's
        # default release profile, which CI's settings give the workspace too, scripts/test.sh).
        target = ROOT / "target"
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


def checked(blocks: list[Block], r: Runner) -> tuple[Counter, Counter, list[tuple[str, str]]]:
    """Each block run (or not, and why): the counts run and not run per language, and the
    failures."""
    failures, ran, skipped, pending = [], Counter(), Counter(), []
    for n, b in enumerate(blocks):
        runs = b.kind in RUN_KINDS
        if b.kind == "invalid" or (runs and b.lang not in RUN_BY_DEFAULT | {"sh"}):
            failures.append((f"{b.where} ({b.lang})", b.reason or f"{b.lang} blocks are not run"))
        elif not runs:
            skipped[b.lang] += 1
        elif b.lang == "rust":
            r.rust.append(b)
        else:
            check = {"python": r.py, "sh": r.sh, "toml": lambda b, n: check_toml(b)}
            pending.append((b, (r.built if b.build else check[b.lang])(b, n)))
    if r.rust:
        results = r.rust_all()
        pending += [(b, results[i]) for i, b in enumerate(r.rust)]
    for b, failed in pending:
        if failed and b.kind == "run-pmu" and NO_PMU in failed:
            print(f"snippets: SKIPPED {b.where} ({b.lang}): no hardware PMU here, as the "
                  "block's own error says")
            skipped[b.lang] += 1
            continue
        if failed and b.kind == "run-emulate" and NO_QEMU.search(failed):
            print(f"snippets: SKIPPED {b.where} ({b.lang}): QEMU's user mode is not installed "
                  "here (Debian's qemu-user), as the block's own error says")
            skipped[b.lang] += 1
            continue
        ran[b.lang] += 1
        if failed:
            failures.append((f"{b.where} ({b.lang})", failed))
    return ran, skipped, failures


def main(argv: list[str]) -> int:
    paths = documents([a for a in argv if a != "--list"])
    blocks = [b for p in paths for b in blocks_of(p)]
    if "--list" in argv:
        for b in blocks:
            print(f"{b.where} {b.lang} {b.kind} {b.reason}" + (f" build: {b.build}" if b.build else ""))
        return 0
    # The pages build C, C++ (also with CMake) and C# (mono), run Python in the project venv and
    # commands under QEMU's user mode.
    tools = ["gcc", "g++", "cmake", "pkg-config", "mono", "venv", "qemu-user"]
    if subprocess.run(["bash", str(ROOT / "scripts/needs.sh"), *tools]).returncode != 0:
        print(f"snippets: FAIL: {', '.join(tools)} could not be installed (above)", file=sys.stderr)
        return 1
    built = run(["cargo", "build", "-q", "--release", "-p", "picollo-ffi"], ROOT)
    if built:
        print(f"snippets: FAIL: the library did not build: {built}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="picollo-snippets-") as tmp:
        ran, skipped, failures = checked(blocks, Runner(Path(tmp)))
    links = [broken_links(p) for p in paths]
    failures += [f for _, broken in links for f in broken]
    for where, why in failures:
        print(f"snippets: FAIL {where}: {why}", file=sys.stderr)
    for line in sorted({f"{b.where} {b.kind}: {b.reason}" for b in blocks
                        if b.kind not in (*RUN_KINDS, "invalid")}):
        print(f"  not run: {line}")
    langs = sorted(set(ran) | set(skipped))
    counts = ", ".join(f"{l} {ran[l]} run/{skipped[l]} not" for l in langs)
    print(f"snippets: {len(blocks)} blocks: {counts}; {sum(n for n, _ in links)} links "
          f"followed; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
